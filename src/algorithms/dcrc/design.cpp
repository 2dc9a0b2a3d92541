#include "algorithms/dcrc/design.hpp"

#include <algorithm>
#include <cmath>

#include "core/feature_moments.hpp"
#include "core/parallel.hpp"
#include "linalg/blas.hpp"

namespace kindred {
namespace dcrc {

DataView Design::features() const {
    return DataView::dense(DenseView::rows(xa.data(), n, d, d + 1));
}

Design make_design(const DataView &data, const Collective &ranks, bool standardize) {
    Design des;
    des.n = data.n();
    des.d = data.d();
    const int64_t n = des.n, d = des.d, cols = des.cols();
    des.xa.assign(static_cast<size_t>(n * cols), 0.0);
    for (int64_t i = 0; i < n; ++i) {
        data.copy_row(i, des.xa.data() + i * cols);
        des.xa[i * cols + d] = 1.0;
    }
    des.mean.assign(d, 0.0);
    des.scale.assign(d, 1.0);
    if (!standardize) return des;
    // Over all the ranks' points, the same bits for any split.
    const FeatureMoments moments = feature_moments(data, ranks);
    const double n_total = static_cast<double>(ranks.n_total());
    des.mean = moments.mean;
    const std::vector<double> &var = moments.squares;
    for (int64_t j = 0; j < d; ++j) {
        const double sd = std::sqrt(var[j] / n_total);
        // A constant feature is only centred (it carries nothing to scale).
        des.scale[j] = sd > 0.0 ? sd : 1.0;
    }
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < d; ++j) des.xa[i * cols + j] = (des.xa[i * cols + j] - des.mean[j]) / des.scale[j];
    return des;
}

std::vector<double> raw_feature_weights(const Design &des, const std::vector<double> &w, int64_t k) {
    const int64_t d = des.d, cols = des.cols();
    std::vector<double> raw(w);
    for (int64_t c = 0; c < k; ++c) {
        double shift = 0.0;
        for (int64_t j = 0; j < d; ++j) {
            raw[c * cols + j] = w[c * cols + j] / des.scale[j];
            shift += raw[c * cols + j] * des.mean[j];
        }
        raw[c * cols + d] = w[c * cols + d] - shift;
    }
    return raw;
}

void log_probabilities(const double *xa, int64_t n, int64_t cols, const double *w, int64_t k, double *logp,
                       double *p) {
    if (n == 0) return;
    linalg::gemm(false, true, n, k, cols, 1.0, xa, cols, w, cols, 0.0, logp, k);
    for (int64_t i = 0; i < n; ++i) {
        double *z = logp + i * k;
        const double m = *std::max_element(z, z + k);
        double s = 0.0;
        if (p) {
            double *e = p + i * k;
            for (int64_t c = 0; c < k; ++c) s += (e[c] = std::exp(z[c] - m));
            const double inv = 1.0 / s;
            for (int64_t c = 0; c < k; ++c) e[c] *= inv;
        } else {
            for (int64_t c = 0; c < k; ++c) s += std::exp(z[c] - m);
        }
        const double lse = m + std::log(s);
        for (int64_t c = 0; c < k; ++c) z[c] -= lse;
    }
}

namespace {

constexpr int64_t kBlock = 1024;

// Calls body(begin, count, logp) with log P(y | x) of each block of rows.
template <typename Body>
void for_each_block(const DataView &data, const double *w, int64_t k, Body body) {
    const int64_t n = data.n(), d = data.d(), cols = d + 1;
    std::vector<double> block(static_cast<size_t>(std::min(n, kBlock) * cols));
    std::vector<double> logp(static_cast<size_t>(std::min(n, kBlock) * k));
    for (int64_t b = 0; b < n; b += kBlock) {
        const int64_t m = std::min(kBlock, n - b);
        for (int64_t i = 0; i < m; ++i) {
            data.copy_row(b + i, block.data() + i * cols);
            block[i * cols + d] = 1.0;
        }
        log_probabilities(block.data(), m, cols, w, k, logp.data());
        body(b, m, logp.data());
    }
}

}  // namespace

void predict_classes(const DataView &data, const double *w, int64_t k, int32_t *labels) {
    for_each_block(data, w, k, [&](int64_t b, int64_t m, const double *logp) {
        for (int64_t i = 0; i < m; ++i) {
            const double *row = logp + i * k;
            labels[b + i] = static_cast<int32_t>(std::max_element(row, row + k) - row);  // ties: smaller k
        }
    });
}

void predict_probabilities(const DataView &data, const double *w, int64_t k, double *p) {
    for_each_block(data, w, k, [&](int64_t b, int64_t m, const double *logp) {
        for (int64_t v = 0; v < m * k; ++v) p[b * k + v] = std::exp(logp[v]);
    });
}

}  // namespace dcrc
}  // namespace kindred
