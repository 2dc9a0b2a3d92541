#include "algorithms/dcrc/mean_field.hpp"

#include <algorithm>
#include <cmath>

namespace kindred {
namespace dcrc {

void table2_compatibility(int position, int32_t answer, const double *qa, const double *qb, int64_t k, double *out) {
    // yes: y_t1 = y_t2 != y_t3; no: y_t1 = y_t3 != y_t2; dnk: otherwise (eq. (1)).
    // Rows of Table II, with q_{j k-bar} = 1 - q_jk and
    // sum_{u != k} q_au q_bu = S - q_ak q_bk, S = sum_u q_au q_bu.
    double s = 0.0;
    if (position != 0)
        for (int64_t u = 0; u < k; ++u) s += qa[u] * qb[u];
    for (int64_t c = 0; c < k; ++c) {
        double yes, no;
        if (position == 0) {  // qa = q2, qb = q3
            yes = qa[c] * (1.0 - qb[c]);
            no = (1.0 - qa[c]) * qb[c];
        } else if (position == 1) {  // qa = q1, qb = q3
            yes = qa[c] * (1.0 - qb[c]);
            no = s - qa[c] * qb[c];
        } else {  // qa = q1, qb = q2
            yes = s - qa[c] * qb[c];
            no = qa[c] * (1.0 - qb[c]);
        }
        double v = answer > 0 ? yes : answer < 0 ? no : 1.0 - yes - no;
        out[c] = std::min(1.0, std::max(0.0, v));  // rounding can leave [0, 1] by an ulp
    }
}

double answer_probability(int32_t answer, const double *q1, const double *q2, const double *q3, int64_t k) {
    double yes = 0.0, no = 0.0;
    for (int64_t c = 0; c < k; ++c) {
        yes += q1[c] * q2[c] * (1.0 - q3[c]);
        no += q1[c] * q3[c] * (1.0 - q2[c]);
    }
    const double v = answer > 0 ? yes : answer < 0 ? no : 1.0 - yes - no;
    return std::min(1.0, std::max(0.0, v));
}

MeanField::MeanField(const std::vector<Triplet> &triplets, int64_t n, int64_t k) : triplets_(triplets), k_(k) {
    slot_of_.assign(static_cast<size_t>(n), -1);
    for (const Triplet &t : triplets_) slot_of_[t.a] = slot_of_[t.b] = slot_of_[t.c] = 0;
    for (int64_t i = 0; i < n; ++i)
        if (slot_of_[i] == 0) {
            slot_of_[i] = static_cast<int64_t>(points_.size());
            points_.push_back(i);
        }
    const int64_t m = static_cast<int64_t>(points_.size());
    incidence_ptr_.assign(static_cast<size_t>(m + 1), 0);
    for (Triplet &t : triplets_) {
        t.a = slot_of_[t.a];
        t.b = slot_of_[t.b];
        t.c = slot_of_[t.c];
        ++incidence_ptr_[t.a + 1];
        ++incidence_ptr_[t.b + 1];
        ++incidence_ptr_[t.c + 1];
    }
    for (int64_t s = 0; s < m; ++s) incidence_ptr_[s + 1] += incidence_ptr_[s];
    incidence_.resize(static_cast<size_t>(incidence_ptr_[m]));
    std::vector<int64_t> fill(incidence_ptr_.begin(), incidence_ptr_.end() - 1);
    for (int64_t t = 0; t < static_cast<int64_t>(triplets_.size()); ++t) {
        const Triplet &tr = triplets_[t];
        incidence_[fill[tr.a]++] = {t, 0};
        incidence_[fill[tr.b]++] = {t, 1};
        incidence_[fill[tr.c]++] = {t, 2};
    }
}

void MeanField::start_from(const double *logp, std::vector<double> &q) const {
    q.resize(points_.size() * static_cast<size_t>(k_));
    for (size_t s = 0; s < points_.size(); ++s)
        for (int64_t c = 0; c < k_; ++c) q[s * k_ + c] = std::exp(logp[points_[s] * k_ + c]);
}

void MeanField::compatibility(int64_t slot, const std::vector<double> &q, double *f) const {
    std::vector<double> term(static_cast<size_t>(k_));
    compatibility(slot, q, f, term.data());
}

void MeanField::compatibility(int64_t slot, const std::vector<double> &q, double *f, double *term) const {
    std::fill(f, f + k_, 0.0);
    for (int64_t e = incidence_ptr_[slot]; e < incidence_ptr_[slot + 1]; ++e) {
        const Triplet &t = triplets_[incidence_[e].triplet];
        const int pos = incidence_[e].position;
        const int64_t oa = pos == 0 ? t.b : t.a;
        const int64_t ob = pos == 2 ? t.b : t.c;
        table2_compatibility(pos, t.answer, q.data() + oa * k_, q.data() + ob * k_, k_, term);
        for (int64_t c = 0; c < k_; ++c) f[c] += term[c];
    }
}

void MeanField::update_one(int64_t slot, const double *logp_i, double log_alpha, bool hard, std::vector<double> &q,
                           double *f, double *term, double *scratch) const {
    compatibility(slot, q, f, term);
    double *logq = scratch;
    if (hard) {
        // Eq. (14): q(y_i) is P(y_i | x_i; W) renormalised on the max-compatible
        // set Y_i. F is a sum of products; values equal in exact arithmetic may
        // differ by rounding, so "maximal" is taken within 1e-9 per triplet.
        const double fmax = *std::max_element(f, f + k_);
        const double slack = 1e-9 * static_cast<double>(incidence_ptr_[slot + 1] - incidence_ptr_[slot]);
        for (int64_t c = 0; c < k_; ++c) logq[c] = f[c] >= fmax - slack ? logp_i[c] : -INFINITY;
    } else {
        // Eq. (13) in log space: log q(y_i = k) = F(k) log alpha + log P(k | x_i; W) - log Z.
        for (int64_t c = 0; c < k_; ++c) logq[c] = f[c] * log_alpha + logp_i[c];
    }
    // Normalised with the max trick (log-sum-exp without the log: one exp per label).
    const double m = *std::max_element(logq, logq + k_);
    double s = 0.0;
    for (int64_t c = 0; c < k_; ++c) s += (logq[c] = std::exp(logq[c] - m));
    const double inv = 1.0 / s;
    for (int64_t c = 0; c < k_; ++c) q[slot * k_ + c] = logq[c] * inv;
}

MeanFieldOutcome MeanField::run(const double *logp, double epsilon, int64_t max_sweeps, double tol,
                                std::vector<double> &q) const {
    MeanFieldOutcome out;
    const bool hard = epsilon == 0.0;
    // Eq. (13): alpha = 2 (1 - epsilon) / epsilon.
    const double log_alpha = hard ? 0.0 : std::log(2.0 * (1.0 - epsilon) / epsilon);
    std::vector<double> f(static_cast<size_t>(k_)), term(static_cast<size_t>(k_)), scratch(static_cast<size_t>(k_)),
        old(static_cast<size_t>(k_));
    const int64_t m = constrained_count();
    for (int64_t sweep = 1; sweep <= max_sweeps; ++sweep) {
        double change = 0.0;
        for (int64_t s = 0; s < m; ++s) {
            std::copy(q.begin() + s * k_, q.begin() + (s + 1) * k_, old.begin());
            update_one(s, logp + points_[s] * k_, log_alpha, hard, q, f.data(), term.data(), scratch.data());
            for (int64_t c = 0; c < k_; ++c) change = std::max(change, std::fabs(q[s * k_ + c] - old[c]));
        }
        out.sweeps = sweep;
        out.max_change = change;
        if (change <= tol) {
            out.converged = true;
            break;
        }
    }
    return out;
}

double MeanField::expected_log_likelihood(const std::vector<double> &q, double epsilon) const {
    // Table I: the answer eq. (1) gives has probability 1 - epsilon, each other one epsilon / 2.
    const double log_right = std::log1p(-epsilon), log_wrong = std::log(epsilon / 2.0);
    double total = 0.0;
    for (const Triplet &t : triplets_) {
        const double p = answer_probability(t.answer, q.data() + t.a * k_, q.data() + t.b * k_, q.data() + t.c * k_, k_);
        total += p * log_right + (1.0 - p) * log_wrong;
    }
    return total;
}

}  // namespace dcrc
}  // namespace kindred
