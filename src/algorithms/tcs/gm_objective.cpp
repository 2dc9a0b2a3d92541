#include "algorithms/tcs/gm_objective.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "linalg/blas.hpp"

namespace kindred {
namespace tcs {

GmObjective::GmObjective(const double *x, int64_t n, int64_t d, const int32_t *class_of, int64_t k)
    : n_(n), d_(d), k_(k), x_(x, x + n * d), m_(static_cast<size_t>(k * d), 0.0), t_(class_of, class_of + n) {
    std::vector<double> mean(static_cast<size_t>(d), 0.0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < d; ++j) mean[j] += x_[i * d + j];
    for (double &v : mean) v /= static_cast<double>(n);
    std::vector<int64_t> count(static_cast<size_t>(k), 0);
    for (int64_t i = 0; i < n; ++i) {
        double *row = x_.data() + i * d;
        double *mk = m_.data() + t_[i] * d;
        for (int64_t j = 0; j < d; ++j) {
            row[j] -= mean[j];
            mk[j] += row[j];
        }
        ++count[t_[i]];
    }
    for (int64_t c = 0; c < k; ++c) {
        if (count[c] == 0) fail(KINDRED_E_INTERNAL, "tcs: labelled class ", c, " has no point");
        for (int64_t j = 0; j < d; ++j) m_[c * d + j] /= static_cast<double>(count[c]);
    }
    xa_.resize(static_cast<size_t>(n * d));
    ma_.resize(static_cast<size_t>(k * d));
    q_.resize(static_cast<size_t>(n * k));
    p_.resize(static_cast<size_t>(n * k));
    w_.resize(static_cast<size_t>(n * k));
    wm_.resize(static_cast<size_t>(n * d));
    b_.resize(static_cast<size_t>(d * d));
}

double GmObjective::forms_and_loss(const double *a) {
    const int64_t n = n_, d = d_, k = k_;
    // XA (N d^2), X A M^T (N K d), M A (K d^2): the three parts of q_ik.
    linalg::gemm(false, false, n, d, d, 1.0, x_.data(), d, a, d, 0.0, xa_.data(), d);
    linalg::gemm(false, true, n, k, d, 1.0, xa_.data(), d, m_.data(), d, 0.0, q_.data(), k);
    linalg::gemm(false, false, k, d, d, 1.0, m_.data(), d, a, d, 0.0, ma_.data(), d);
    std::vector<double> mam(static_cast<size_t>(k));
    for (int64_t c = 0; c < k; ++c) {
        double s = 0.0;
        for (int64_t j = 0; j < d; ++j) s += ma_[c * d + j] * m_[c * d + j];
        mam[c] = s;
    }
    double loss = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        double xax = 0.0;
        const double *xi = x_.data() + i * d, *xai = xa_.data() + i * d;
        for (int64_t j = 0; j < d; ++j) xax += xai[j] * xi[j];
        double *qi = q_.data() + i * k, *pi = p_.data() + i * k;
        // Exponents -q_ik / 2, normalised by log-sum-exp.
        double top = -std::numeric_limits<double>::infinity();
        for (int64_t c = 0; c < k; ++c) {
            qi[c] = xax - 2.0 * qi[c] + mam[c];
            top = std::max(top, -0.5 * qi[c]);
        }
        double s = 0.0;
        for (int64_t c = 0; c < k; ++c) s += (pi[c] = std::exp(-0.5 * qi[c] - top));
        const double lse = top + std::log(s);
        for (int64_t c = 0; c < k; ++c) pi[c] /= s;
        loss += 0.5 * qi[t_[i]] + lse;
    }
    return loss / static_cast<double>(n);
}

double GmObjective::value(const double *a) { return forms_and_loss(a); }

double GmObjective::value_grad(const double *a, double *grad) {
    const double f = forms_and_loss(a);
    const int64_t n = n_, d = d_, k = k_;
    // W = (Y - P) / (2N), stored over p_ (N x K); its column sums c_k.
    const double scale = 0.5 / static_cast<double>(n);
    std::vector<double> &w = w_;
    std::vector<double> wcol(static_cast<size_t>(k), 0.0);
    for (int64_t i = 0; i < n; ++i) {
        double *wi = w.data() + i * k;
        const double *pi = p_.data() + i * k;
        for (int64_t c = 0; c < k; ++c) wi[c] = -scale * pi[c];
        wi[t_[i]] += scale;
        for (int64_t c = 0; c < k; ++c) wcol[c] += wi[c];
    }
    // W M (N K d), then B = X^T (W M) (N d^2).
    linalg::gemm(false, false, n, d, k, 1.0, w.data(), k, m_.data(), d, 0.0, wm_.data(), d);
    linalg::gemm(true, false, d, d, n, 1.0, x_.data(), d, wm_.data(), d, 0.0, b_.data(), d);
    // M^T diag(c) M (K d^2); the term X^T diag(sum_k w_ik) X vanishes since the rows of W sum to 0.
    std::vector<double> cm(m_);
    for (int64_t c = 0; c < k; ++c)
        for (int64_t j = 0; j < d; ++j) cm[c * d + j] *= wcol[c];
    linalg::gemm(true, false, d, d, k, 1.0, cm.data(), d, m_.data(), d, 0.0, grad, d);
    for (int64_t r = 0; r < d; ++r)
        for (int64_t s = 0; s < d; ++s) grad[r * d + s] -= b_[r * d + s] + b_[s * d + r];
    return f;
}

double GmObjective::value_grad_naive(const double *a, double *grad) const {
    const int64_t n = n_, d = d_, k = k_;
    std::fill(grad, grad + d * d, 0.0);
    std::vector<double> diff(static_cast<size_t>(d)), q(static_cast<size_t>(k));
    double loss = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t c = 0; c < k; ++c) {
            for (int64_t j = 0; j < d; ++j) diff[j] = x_[i * d + j] - m_[c * d + j];
            double s = 0.0;
            for (int64_t r = 0; r < d; ++r)
                for (int64_t j = 0; j < d; ++j) s += diff[r] * a[r * d + j] * diff[j];
            q[c] = s;
        }
        double top = -std::numeric_limits<double>::infinity();
        for (int64_t c = 0; c < k; ++c) top = std::max(top, -0.5 * q[c]);
        double s = 0.0;
        for (int64_t c = 0; c < k; ++c) s += std::exp(-0.5 * q[c] - top);
        loss += 0.5 * q[t_[i]] + top + std::log(s);
        for (int64_t c = 0; c < k; ++c) {
            const double p = std::exp(-0.5 * q[c] - top) / s;
            const double w = 0.5 * ((c == t_[i] ? 1.0 : 0.0) - p) / static_cast<double>(n);
            for (int64_t j = 0; j < d; ++j) diff[j] = x_[i * d + j] - m_[c * d + j];
            for (int64_t r = 0; r < d; ++r)
                for (int64_t j = 0; j < d; ++j) grad[r * d + j] += w * diff[r] * diff[j];
        }
    }
    return loss / static_cast<double>(n);
}

}  // namespace tcs
}  // namespace kindred
