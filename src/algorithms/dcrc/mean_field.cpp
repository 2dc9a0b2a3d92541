#include "algorithms/dcrc/mean_field.hpp"

#include <algorithm>
#include <cmath>

namespace kindred {
namespace dcrc {

namespace {

// Table II for one triplet seen from its point at position POS (0 = t1, 1 = t2,
// 2 = t3) with answer ANSWER: adds Q~(l_t = ANSWER | y_i = c) to f[c] for every
// c. yes: y_t1 = y_t2 != y_t3; no: y_t1 = y_t3 != y_t2; dnk: otherwise (eq. (1)).
// Rows of Table II, with q_{j k-bar} = 1 - q_jk and
// sum_{u != k} q_au q_bu = S - q_ak q_bk, S = sum_u q_au q_bu.
// One instance per (position, answer), so that the loop over c has no branch
// and vectorises; the arithmetic is the same for every instance.
template <int POS, int ANSWER>
void add_table2(const double *qa, const double *qb, int64_t k, double *f) {
    double s = 0.0;
    if (POS != 0)
        for (int64_t u = 0; u < k; ++u) s += qa[u] * qb[u];
    for (int64_t c = 0; c < k; ++c) {
        double yes, no;
        if (POS == 0) {  // qa = q2, qb = q3
            yes = qa[c] * (1.0 - qb[c]);
            no = (1.0 - qa[c]) * qb[c];
        } else if (POS == 1) {  // qa = q1, qb = q3
            yes = qa[c] * (1.0 - qb[c]);
            no = s - qa[c] * qb[c];
        } else {  // qa = q1, qb = q2
            yes = s - qa[c] * qb[c];
            no = qa[c] * (1.0 - qb[c]);
        }
        const double v = ANSWER > 0 ? yes : ANSWER < 0 ? no : 1.0 - yes - no;
        f[c] += std::min(1.0, std::max(0.0, v));  // rounding can leave [0, 1] by an ulp
    }
}

using AddTable2 = void (*)(const double *, const double *, int64_t, double *);

// The instance for a position (0..2) and an answer (-1, 0, 1).
AddTable2 add_table2_for(int position, int32_t answer) {
    static const AddTable2 table[3][3] = {
        {add_table2<0, -1>, add_table2<0, 0>, add_table2<0, 1>},
        {add_table2<1, -1>, add_table2<1, 0>, add_table2<1, 1>},
        {add_table2<2, -1>, add_table2<2, 0>, add_table2<2, 1>},
    };
    return table[position][answer + 1];
}

}  // namespace

void table2_compatibility(int position, int32_t answer, const double *qa, const double *qb, int64_t k, double *out) {
    std::fill(out, out + k, 0.0);
    add_table2_for(position, answer)(qa, qb, k, out);
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
    edge_ptr_.assign(static_cast<size_t>(m + 1), 0);
    for (Triplet &t : triplets_) {
        t.a = slot_of_[t.a];
        t.b = slot_of_[t.b];
        t.c = slot_of_[t.c];
        ++edge_ptr_[t.a + 1];
        ++edge_ptr_[t.b + 1];
        ++edge_ptr_[t.c + 1];
    }
    for (int64_t s = 0; s < m; ++s) edge_ptr_[s + 1] += edge_ptr_[s];
    edges_.resize(static_cast<size_t>(edge_ptr_[m]));
    std::vector<int64_t> fill(edge_ptr_.begin(), edge_ptr_.end() - 1);
    for (const Triplet &t : triplets_) {
        edges_[fill[t.a]++] = {t.b, t.c, 0, t.answer};
        edges_[fill[t.b]++] = {t.a, t.c, 1, t.answer};
        edges_[fill[t.c]++] = {t.a, t.b, 2, t.answer};
    }
}

void MeanField::start_from(const double *logp, std::vector<double> &q) const {
    q.resize(points_.size() * static_cast<size_t>(k_));
    for (size_t s = 0; s < points_.size(); ++s)
        for (int64_t c = 0; c < k_; ++c) q[s * k_ + c] = std::exp(logp[s * k_ + c]);
}

void MeanField::compatibility(int64_t slot, const double *q, double *f) const {
    std::fill(f, f + k_, 0.0);
    for (int64_t e = edge_ptr_[slot]; e < edge_ptr_[slot + 1]; ++e) {
        const Edge &edge = edges_[e];
        add_table2_for(edge.position, edge.answer)(q + edge.other_a * k_, q + edge.other_b * k_, k_, f);
    }
}

void MeanField::update_one(int64_t slot, const double *logp_i, double log_alpha, bool hard, const double *q,
                           double *f, double *next) const {
    compatibility(slot, q, f);
    double *logq = next;
    if (hard) {
        // Eq. (14): q(y_i) is P(y_i | x_i; W) renormalised on the max-compatible
        // set Y_i. F is a sum of products; values equal in exact arithmetic may
        // differ by rounding, so "maximal" is taken within 1e-9 per triplet.
        const double fmax = *std::max_element(f, f + k_);
        const double slack = 1e-9 * static_cast<double>(edge_ptr_[slot + 1] - edge_ptr_[slot]);
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
    for (int64_t c = 0; c < k_; ++c) next[c] = logq[c] * inv;
}

MeanFieldOutcome MeanField::run(const double *logp, double epsilon, int64_t max_sweeps, double tol,
                                std::vector<double> &q) const {
    MeanFieldOutcome out;
    const bool hard = epsilon == 0.0;
    // Eq. (13): alpha = 2 (1 - epsilon) / epsilon.
    const double log_alpha = hard ? 0.0 : std::log(2.0 * (1.0 - epsilon) / epsilon);
    std::vector<double> f(static_cast<size_t>(k_)), next(static_cast<size_t>(k_));
    const int64_t m = constrained_count();
    // Updates whose effect is known to be negligible are skipped. pending[s]
    // sums max_c |change of q| of the partners of s (once per shared triplet)
    // since s was last updated. Every Table II entry moves by at most 4 times
    // that (it is bilinear in the partners' q, and S = sum_u q_au q_bu moves by
    // at most the change of either), so F(k) log alpha by 4 log alpha times it,
    // and the softmax of eq. (13), whose Jacobian has max-norm <= 1/2, moves q
    // by at most 2 log alpha pending[s]. s is updated again only when that
    // bound exceeds tol / 100: a skipped point would have changed by less than
    // 1% of the tolerance, so "no q changes by more than tol in a sweep" still
    // holds (to within 1%) when the sweep ends. When no partner changed at all
    // (pending 0) the skipped update would reproduce q bit for bit. The hard
    // update (eq. (14)) is not continuous in F, and tol = 0 asks for every
    // update: then only the updates with pending == 0 are skipped, which
    // leaves the results bitwise those of updating every point in every sweep.
    // (This departs from plain sweeps by less than the tolerance: the lower
    // bound agrees to about 1e-12 relative on the benchmark problems.)
    const double skip_below = hard || tol <= 0.0 ? 0.0 : tol / (200.0 * log_alpha);
    std::vector<double> pending(static_cast<size_t>(m), 0.0);
    std::vector<char> stale(static_cast<size_t>(m), 1);  // all at the start: logp is new
    double *qv = q.data();
    for (int64_t sweep = 1; sweep <= max_sweeps; ++sweep) {
        double change = 0.0;
        for (int64_t s = 0; s < m; ++s) {
            if (!stale[s]) continue;
            stale[s] = 0;
            pending[s] = 0.0;
            update_one(s, logp + s * k_, log_alpha, hard, qv, f.data(), next.data());
            double *qs = qv + s * k_;
            double moved = 0.0;  // max_c |change|: > 0 exactly when q(y_s) changed at all
            for (int64_t c = 0; c < k_; ++c) {
                moved = std::max(moved, std::fabs(next[c] - qs[c]));
                qs[c] = next[c];
            }
            change = std::max(change, moved);
            if (moved > 0.0)
                for (int64_t e = edge_ptr_[s]; e < edge_ptr_[s + 1]; ++e)
                    for (const int64_t o : {edges_[e].other_a, edges_[e].other_b}) {
                        pending[o] += moved;
                        if (pending[o] > skip_below) stale[o] = 1;
                    }
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
