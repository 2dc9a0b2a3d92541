#include "algorithms/tvclust/quadratic_forms.hpp"

#include <algorithm>
#include <limits>

namespace kindred {
namespace tvclust {

namespace {

// p . y with four partial sums, so that the additions do not wait on one another.
double dot(const double *p, const double *y, int64_t d) {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int64_t a = 0;
    for (; a + 4 <= d; a += 4) {
        s0 += p[a] * y[a];
        s1 += p[a + 1] * y[a + 1];
        s2 += p[a + 2] * y[a + 2];
        s3 += p[a + 3] * y[a + 3];
    }
    for (; a < d; ++a) s0 += p[a] * y[a];
    return (s0 + s1) + (s2 + s3);
}

}  // namespace

QuadraticForms::QuadraticForms(int64_t n, int64_t d, int64_t capacity)
    : d_(d), capacity_(capacity), r_(static_cast<size_t>(n), 0.0), seq_(static_cast<size_t>(n), 0),
      log_(static_cast<size_t>(capacity)), p_(static_cast<size_t>(capacity * d), 0.0) {}

// Before the sequence numbers run out: every form stale, numbering from 1.
void QuadraticForms::renumber_if_needed() {
    if (now_ < std::numeric_limits<uint32_t>::max() - 2) return;
    std::fill(seq_.begin(), seq_.end(), 0u);
    now_ = valid_from_ = 1;
}

void QuadraticForms::reset() {
    renumber_if_needed();
    valid_from_ = ++now_;
}

double *QuadraticForms::push_change(double beta, double sigma, double gamma, double pmu) {
    renumber_if_needed();
    ++now_;
    const int64_t at = static_cast<int64_t>(now_ % static_cast<uint32_t>(capacity_));
    log_[at] = Change{beta, sigma, gamma, pmu, 1.0 / (1.0 + sigma * gamma)};
    return p_.data() + at * d_;
}

bool QuadraticForms::current(int64_t j, const double *y, double &r) {
    const uint32_t seq = seq_[j];
    if (seq < valid_from_ || now_ - seq > static_cast<uint32_t>(capacity_)) return false;
    double v = r_[j];
    for (uint32_t t = seq + 1; t <= now_; ++t) {
        const int64_t at = static_cast<int64_t>(t % static_cast<uint32_t>(capacity_));
        const Change &c = log_[at];
        const double tj = dot(p_.data() + at * d_, y, d_) - c.pmu;
        const double e = tj - c.beta * c.gamma;
        v = v - 2.0 * c.beta * tj + c.beta * c.beta * c.gamma - c.sigma * e * e * c.inv_denominator;
    }
    r_[j] = r = v;
    seq_[j] = now_;
    return true;
}

void QuadraticForms::store(int64_t j, double r) {
    r_[j] = r;
    seq_[j] = now_;
}

}  // namespace tvclust
}  // namespace kindred
