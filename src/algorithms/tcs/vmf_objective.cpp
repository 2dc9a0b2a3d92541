#include "algorithms/tcs/vmf_objective.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/tcs/mixtures.hpp"
#include "linalg/blas.hpp"

namespace kindred {
namespace tcs {
namespace {
// |L x| below this is a point mapped to the origin: it has no direction and
// contributes log K and no gradient (instead of a division by zero).
constexpr double kTinyNorm = 1e-300;
}  // namespace

VmfObjective::VmfObjective(const double *x, int64_t n, int64_t p, const int32_t *class_of, int64_t k, double gamma)
    : n_(n), p_(p), k_(k), gamma_(gamma), x_(x, x + n * p), mu_(static_cast<size_t>(k * p)),
      y_(static_cast<size_t>(n * p)), r_(static_cast<size_t>(n)), s_(static_cast<size_t>(n * k)),
      u_(static_cast<size_t>(n * p)), v_(static_cast<size_t>(n * p)), t_(class_of, class_of + n) {}

void VmfObjective::directions(const double *l) {
    linalg::gemm(false, true, n_, p_, p_, 1.0, x_.data(), p_, l, p_, 0.0, y_.data(), p_);
    for (int64_t i = 0; i < n_; ++i) {
        double *yi = y_.data() + i * p_;
        double s = 0.0;
        for (int64_t j = 0; j < p_; ++j) s += yi[j] * yi[j];
        r_[i] = std::sqrt(s);
        const double inv = r_[i] > kTinyNorm ? 1.0 / r_[i] : 0.0;
        for (int64_t j = 0; j < p_; ++j) yi[j] *= inv;
    }
}

void VmfObjective::update_means(const double *l) {
    directions(l);
    std::fill(mu_.begin(), mu_.end(), 0.0);
    for (int64_t i = 0; i < n_; ++i)
        for (int64_t j = 0; j < p_; ++j) mu_[t_[i] * p_ + j] += y_[i * p_ + j];
    double rsum = 0.0;
    for (int64_t c = 0; c < k_; ++c) {
        double s = 0.0;
        for (int64_t j = 0; j < p_; ++j) s += mu_[c * p_ + j] * mu_[c * p_ + j];
        s = std::sqrt(s);
        rsum += s;
        for (int64_t j = 0; j < p_; ++j) mu_[c * p_ + j] = s > 0.0 ? mu_[c * p_ + j] / s : 0.0;
    }
    kappa_ = vmf_concentration(rsum / static_cast<double>(n_), p_);
}

double VmfObjective::value_grad(const double *l, double *grad) {
    const int64_t n = n_, p = p_, k = k_;
    directions(l);
    linalg::gemm(false, true, n, k, p, kappa_, y_.data(), p, mu_.data(), p, 0.0, s_.data(), k);
    double loss = 0.0;
    const double inv_n = 1.0 / static_cast<double>(n);
    for (int64_t i = 0; i < n; ++i) {
        double *si = s_.data() + i * k;
        double top = -std::numeric_limits<double>::infinity();
        for (int64_t c = 0; c < k; ++c) top = std::max(top, si[c]);
        double sum = 0.0;
        for (int64_t c = 0; c < k; ++c) sum += std::exp(si[c] - top);
        loss += top + std::log(sum) - si[t_[i]];
        // s_ becomes G = (P - Y) / N.
        for (int64_t c = 0; c < k; ++c) si[c] = std::exp(si[c] - top) / sum * inv_n;
        si[t_[i]] -= inv_n;
    }
    double reg = 0.0;
    for (int64_t a = 0; a < p; ++a)
        for (int64_t b = 0; b < p; ++b) {
            const double e = l[a * p + b] - (a == b ? 1.0 : 0.0);
            reg += e * e;
        }
    const double phi = loss * inv_n + gamma_ * reg;
    if (!grad) return phi;
    // U = kappa G M; v_i = (u_i - (n_i . u_i) n_i) / r_i; grad = V^T X + 2 gamma (L - I).
    linalg::gemm(false, false, n, p, k, kappa_, s_.data(), k, mu_.data(), p, 0.0, u_.data(), p);
    for (int64_t i = 0; i < n; ++i) {
        const double *ni = y_.data() + i * p, *ui = u_.data() + i * p;
        double *vi = v_.data() + i * p;
        if (!(r_[i] > kTinyNorm)) {
            std::fill(vi, vi + p, 0.0);
            continue;
        }
        double dot = 0.0;
        for (int64_t j = 0; j < p; ++j) dot += ni[j] * ui[j];
        for (int64_t j = 0; j < p; ++j) vi[j] = (ui[j] - dot * ni[j]) / r_[i];
    }
    linalg::gemm(true, false, p, p, n, 1.0, v_.data(), p, x_.data(), p, 0.0, grad, p);
    for (int64_t a = 0; a < p; ++a)
        for (int64_t b = 0; b < p; ++b) grad[a * p + b] += 2.0 * gamma_ * (l[a * p + b] - (a == b ? 1.0 : 0.0));
    return phi;
}

}  // namespace tcs
}  // namespace kindred
