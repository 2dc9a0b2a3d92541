#include "algorithms/tvclust/dirichlet_multinomial.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "linalg/log_gamma.hpp"

namespace kindred {
namespace tvclust {

DirichletMultinomial::DirichletMultinomial(const DataView &data, double beta) : d_(data.d()), beta_(beta) {
    if (!(beta > 0.0) || !std::isfinite(beta)) fail(KINDRED_E_INVALID, "tvclust: dirichlet_beta must be > 0, got ", beta);
    const int64_t n = data.n();
    std::vector<double> row(static_cast<size_t>(d_));
    indptr_.push_back(0);
    row_total_.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        data.copy_row(i, row.data());
        double total = 0.0;
        for (int64_t j = 0; j < d_; ++j) {
            if (row[j] < 0.0)
                fail(KINDRED_E_INVALID, "tvclust: the multinomial likelihood needs counts >= 0, got ", row[j],
                     " at row ", i, ", column ", j);
            if (row[j] == 0.0) continue;
            index_.push_back(j);
            value_.push_back(row[j]);
            total += row[j];
        }
        indptr_.push_back(static_cast<int64_t>(index_.size()));
        row_total_[i] = total;
    }
}

void DirichletMultinomial::reserve_slots(int64_t count) {
    while (static_cast<int64_t>(slots_.size()) < count) {
        slots_.emplace_back();
        slots_.back().counts.assign(static_cast<size_t>(d_), 0.0);
    }
}

void DirichletMultinomial::move(int64_t slot, int64_t i, double sign) {
    Slot &s = slots_[slot];
    for (int64_t e = indptr_[i]; e < indptr_[i + 1]; ++e) s.counts[index_[e]] += sign * value_[e];
    s.total += sign * row_total_[i];
    s.n += sign > 0 ? 1 : -1;
    if (s.n == 0) {  // exact zeros: no rounding left behind
        s.total = 0.0;
        std::fill(s.counts.begin(), s.counts.end(), 0.0);
    }
}

void DirichletMultinomial::add(int64_t slot, int64_t i) { move(slot, i, 1.0); }
void DirichletMultinomial::remove(int64_t slot, int64_t i) { move(slot, i, -1.0); }

double DirichletMultinomial::log_predictive(int64_t slot, int64_t i) {
    return slot < 0 ? predictive(nullptr, 0.0, i, 0.0) : predictive(&slots_[slot], slots_[slot].total, i, 0.0);
}

// The slot's counts with x_i's own taken off, as if i had been removed.
double DirichletMultinomial::log_predictive_without(int64_t slot, int64_t i) {
    const Slot &s = slots_[slot];
    return predictive(&s, s.total - row_total_[i], i, 1.0);
}

// own = 1: subtract x_i from the counts of s (i is in s); s = null: the prior.
double DirichletMultinomial::predictive(const Slot *s, double total, int64_t i, double own) const {
    const double dbeta = static_cast<double>(d_) * beta_;
    double v = log_gamma(dbeta + total) - log_gamma(dbeta + total + row_total_[i]);
    for (int64_t e = indptr_[i]; e < indptr_[i + 1]; ++e) {
        const double c = s ? s->counts[index_[e]] - own * value_[e] : 0.0;
        v += log_gamma(beta_ + c + value_[e]) - log_gamma(beta_ + c);
    }
    return v;
}

double DirichletMultinomial::log_marginal(int64_t slot) const {
    const Slot &s = slots_[slot];
    if (s.n == 0) return 0.0;
    const double dbeta = static_cast<double>(d_) * beta_;
    double v = log_gamma(dbeta) - log_gamma(dbeta + s.total);
    const double lg_beta = log_gamma(beta_);
    for (double c : s.counts)
        if (c != 0.0) v += log_gamma(beta_ + c) - lg_beta;
    return v;
}

void DirichletMultinomial::add_stats(int64_t i, double *out) {
    out[0] += 1.0;
    out[1] += row_total_[i];
    for (int64_t e = indptr_[i]; e < indptr_[i + 1]; ++e) out[2 + index_[e]] += value_[e];
}

void DirichletMultinomial::load_stats(int64_t slot, const double *stats) {
    Slot &s = slots_[slot];
    s.n = static_cast<int64_t>(stats[0]);
    s.total = s.n == 0 ? 0.0 : stats[1];
    for (int64_t j = 0; j < d_; ++j) s.counts[j] = s.n == 0 ? 0.0 : stats[2 + j];
}

}  // namespace tvclust
}  // namespace kindred
