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
    am_.resize(static_cast<size_t>(d * k));
    u_.resize(static_cast<size_t>(n * k));
    p_.resize(static_cast<size_t>(n * k));
    w_.resize(static_cast<size_t>(n * k));
    xw_.resize(static_cast<size_t>(d * k));
    cm_.resize(static_cast<size_t>(k * d));
    b_.resize(static_cast<size_t>(d * d));
}

double GmObjective::forms_and_loss(const double *a) {
    const int64_t n = n_, d = d_, k = k_;
    // q_ik = x_i^T A x_i - 2 x_i^T A m_k + m_k^T A m_k. The first term is the
    // same for every k, so it cancels between 1/2 q_{i t_i} and the log-sum-exp:
    //   loss_i = -u_{i t_i} + log sum_k exp(u_ik),  u_ik = x_i^T A m_k - 1/2 m_k^T A m_k,
    // and p_ik = softmax_k(u_ik). Only X (A M^T) is needed: O(d^2 K + N d K)
    // instead of the O(N d^2) of X A.
    linalg::gemm(false, true, d, k, d, 1.0, a, d, m_.data(), d, 0.0, am_.data(), k);       // A M^T (d x K)
    linalg::gemm(false, false, n, k, d, 1.0, x_.data(), d, am_.data(), k, 0.0, u_.data(), k); // X A M^T (N x K)
    std::vector<double> half_mam(static_cast<size_t>(k), 0.0);
    for (int64_t j = 0; j < d; ++j)
        for (int64_t c = 0; c < k; ++c) half_mam[c] += m_[c * d + j] * am_[j * k + c];
    for (double &v : half_mam) v *= 0.5;
    double loss = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        double *ui = u_.data() + i * k, *pi = p_.data() + i * k;
        double top = -std::numeric_limits<double>::infinity();
        for (int64_t c = 0; c < k; ++c) {
            ui[c] -= half_mam[c];
            top = std::max(top, ui[c]);
        }
        // log-sum-exp, shifted by the largest exponent.
        double s = 0.0;
        for (int64_t c = 0; c < k; ++c) s += (pi[c] = std::exp(ui[c] - top));
        const double lse = top + std::log(s);
        const double inv = 1.0 / s;
        for (int64_t c = 0; c < k; ++c) pi[c] *= inv;
        loss += lse - ui[t_[i]];
    }
    return loss / static_cast<double>(n);
}

double GmObjective::value(const double *a) { return forms_and_loss(a); }

double GmObjective::value_grad(const double *a, double *grad) {
    const double f = forms_and_loss(a);
    const int64_t n = n_, d = d_, k = k_;
    // W = (Y - P) / (2N), stored over w_ (N x K); its column sums c_k.
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
    // X^T W (N d K), then B = (X^T W) M (d^2 K): no O(N d^2) product.
    linalg::gemm(true, false, d, k, n, 1.0, x_.data(), d, w.data(), k, 0.0, xw_.data(), k);
    linalg::gemm(false, false, d, d, k, 1.0, xw_.data(), k, m_.data(), d, 0.0, b_.data(), d);
    // M^T diag(c) M (K d^2); the term X^T diag(sum_k w_ik) X vanishes since the rows of W sum to 0.
    for (int64_t c = 0; c < k; ++c)
        for (int64_t j = 0; j < d; ++j) cm_[c * d + j] = m_[c * d + j] * wcol[c];
    linalg::gemm(true, false, d, d, k, 1.0, cm_.data(), d, m_.data(), d, 0.0, grad, d);
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
