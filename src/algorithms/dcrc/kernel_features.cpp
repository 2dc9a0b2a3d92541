#include "algorithms/dcrc/kernel_features.hpp"

#include <algorithm>
#include <cmath>

#include "linalg/distances.hpp"

namespace kindred {
namespace dcrc {
namespace {

constexpr int64_t kBlock = 1024;

// out (rows x (m+1), row-major) = [exp(-gamma |x_i - b_j|^2), 1] for the
// points of x (dense, d columns), blockwise with GEMM distances.
void rbf_rows(const DataView &x, const KernelBasis &basis, double *out) {
    const int64_t n = x.n(), m = basis.m, cols = m + 1;
    const std::vector<double> x_sq = linalg::row_sqnorms(x);
    const std::vector<double> b_sq = linalg::center_sqnorms(basis.points.data(), m, basis.d);
    std::vector<double> block(static_cast<size_t>(std::min(n, kBlock) * m));
    for (int64_t b = 0; b < n; b += kBlock) {
        const int64_t e = std::min(n, b + kBlock);
        linalg::sq_distances(x, b, e, basis.points.data(), b_sq.data(), m, x_sq.data(), block.data());
        for (int64_t i = b; i < e; ++i) {
            for (int64_t j = 0; j < m; ++j) out[i * cols + j] = std::exp(-basis.gamma * block[(i - b) * m + j]);
            out[i * cols + m] = 1.0;
        }
    }
}

}  // namespace

KernelBasis draw_basis(const Design &des, const Collective &ranks, int64_t m, double gamma, Rng &rng) {
    KernelBasis basis;
    const int64_t n_total = ranks.n_total();
    basis.m = std::min(m, n_total);
    basis.d = des.d;
    basis.gamma = gamma;
    std::vector<int64_t> order(static_cast<size_t>(n_total));
    for (int64_t i = 0; i < n_total; ++i) order[i] = i;
    rng.shuffle(order);
    order.resize(static_cast<size_t>(basis.m));
    std::sort(order.begin(), order.end());
    basis.points = ranks.rows(des.features(), order);
    return basis;
}

Design kernel_design(const Design &des, const KernelBasis &basis) {
    Design out;
    out.n = des.n;
    out.d = basis.m;
    out.mean.assign(static_cast<size_t>(basis.m), 0.0);
    out.scale.assign(static_cast<size_t>(basis.m), 1.0);
    out.xa.resize(static_cast<size_t>(out.n * out.cols()));
    rbf_rows(des.features(), basis, out.xa.data());
    return out;
}

void predict_kernel_classes(const DataView &data, const double *mean, const double *scale, const KernelBasis &basis,
                            const double *w, int64_t k, int32_t *labels) {
    const int64_t n = data.n(), d = data.d(), m = basis.m;
    std::vector<double> z(static_cast<size_t>(n * d));
    for (int64_t i = 0; i < n; ++i) {
        data.copy_row(i, z.data() + i * d);
        for (int64_t j = 0; j < d; ++j) z[i * d + j] = (z[i * d + j] - mean[j]) / scale[j];
    }
    // Features and probabilities per block of rows, so that n x m is never held.
    std::vector<double> feat(static_cast<size_t>(std::min(n, kBlock) * (m + 1)));
    std::vector<double> logp(static_cast<size_t>(std::min(n, kBlock) * k));
    for (int64_t b = 0; b < n; b += kBlock) {
        const int64_t e = std::min(n, b + kBlock);
        rbf_rows(DataView::dense(DenseView::rows(z.data() + b * d, e - b, d)), basis, feat.data());
        log_probabilities(feat.data(), e - b, m + 1, w, k, logp.data());
        for (int64_t i = 0; i < e - b; ++i) {
            const double *row = logp.data() + i * k;
            labels[b + i] = static_cast<int32_t>(std::max_element(row, row + k) - row);
        }
    }
}

}  // namespace dcrc
}  // namespace kindred
