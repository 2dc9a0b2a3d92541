#include "linalg/distances.hpp"

#include <algorithm>

#include "linalg/blas.hpp"
#include "linalg/dense_rows.hpp"

namespace kindred {
namespace linalg {

std::vector<double> row_sqnorms(const DataView &x) {
    std::vector<double> out(static_cast<size_t>(x.n()));
    for (int64_t i = 0; i < x.n(); ++i) out[i] = x.row_sqnorm(i);
    return out;
}

std::vector<double> center_sqnorms(const double *centers, int64_t k, int64_t d) {
    std::vector<double> out(static_cast<size_t>(k), 0.0);
    for (int64_t c = 0; c < k; ++c)
        for (int64_t j = 0; j < d; ++j) out[c] += centers[c * d + j] * centers[c * d + j];
    return out;
}

void minus_two_cross(const DataView &x, int64_t begin, int64_t end, const double *centers, int64_t k, double *out) {
    const int64_t m = end - begin;
    const int64_t d = x.d();
    if (m <= 0 || k <= 0) return;
    if (x.is_dense()) {
        std::vector<double> scratch;
        const RowsF64 r = rows_f64(x.as_dense(), begin, end, scratch);
        // A column-major block is, for row-major BLAS, the transpose of a d x m matrix.
        gemm(!r.row_major, true, m, k, d, -2.0, r.x, r.ld, centers, d, 0.0, out, k);
    } else {
        const CsrView &s = x.as_csr();
        std::fill(out, out + m * k, 0.0);
        for (int64_t i = begin; i < end; ++i) {
            double *row = out + (i - begin) * k;
            for (int64_t e = s.indptr[i]; e < s.indptr[i + 1]; ++e) {
                const double w = -2.0 * s.values[e];
                const double *col = centers + s.indices[e];
                for (int64_t c = 0; c < k; ++c) row[c] += w * col[c * d];
            }
        }
    }
}

void sq_distances(const DataView &x, int64_t begin, int64_t end, const double *centers,
                  const double *c_sqnorm, int64_t k, const double *x_sqnorm, double *out) {
    const int64_t m = end - begin;
    if (m <= 0 || k <= 0) return;
    minus_two_cross(x, begin, end, centers, k, out);
    for (int64_t r = 0; r < m; ++r) finish_sq_row(out + r * k, k, x_sqnorm[begin + r], c_sqnorm);
}

}  // namespace linalg
}  // namespace kindred
