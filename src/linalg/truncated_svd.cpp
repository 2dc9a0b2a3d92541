#include "linalg/truncated_svd.hpp"

#include <lapacke.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/dense_rows.hpp"
#include "linalg/psd_projection.hpp"

namespace kindred {
namespace linalg {
namespace {

// Orthonormal basis of the columns of the row-major rows x cols matrix a (rows >= cols), in place.
void orthonormalise_columns(std::vector<double> &a, int64_t rows, int64_t cols) {
    std::vector<double> tau(static_cast<size_t>(cols));
    const int m = blas_int(rows, "rows"), n = blas_int(cols, "columns");
    int info = LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, m, n, a.data(), n, tau.data());
    if (info != 0) fail(KINDRED_E_NUMERICAL, "truncated SVD: QR factorisation (dgeqrf) failed (info = ", info, ")");
    info = LAPACKE_dorgqr(LAPACK_ROW_MAJOR, m, n, n, a.data(), n, tau.data());
    if (info != 0) fail(KINDRED_E_NUMERICAL, "truncated SVD: forming Q (dorgqr) failed (info = ", info, ")");
}

}  // namespace

void data_times(const DataView &x, const double *b, int64_t cols, double *out) {
    const int64_t n = x.n(), d = x.d();
    if (x.is_dense()) {
        const DenseView &v = x.as_dense();
        if (!v.is_f32()) {
            // Column-major x is the row-major d x n matrix x^T with leading dimension ld.
            gemm(!v.row_major, false, n, cols, d, 1.0, v.x, v.ld, b, cols, 0.0, out, cols);
            return;
        }
        // float32 points: the same product by blocks of widened rows.
        std::vector<double> scratch;
        for (int64_t begin = 0; begin < n; begin += kWidenBlockRows) {
            const int64_t end = std::min(n, begin + kWidenBlockRows);
            const RowsF64 r = rows_f64(v, begin, end, scratch);
            gemm(false, false, end - begin, cols, d, 1.0, r.x, r.ld, b, cols, 0.0, out + begin * cols, cols);
        }
        return;
    }
    const CsrView &c = x.as_csr();
    std::fill(out, out + n * cols, 0.0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t e = c.indptr[i]; e < c.indptr[i + 1]; ++e) {
            const double w = c.values[e];
            const double *brow = b + c.indices[e] * cols;
            double *orow = out + i * cols;
            for (int64_t j = 0; j < cols; ++j) orow[j] += w * brow[j];
        }
}

void data_transpose_times(const DataView &x, const double *b, int64_t cols, double *out) {
    const int64_t n = x.n(), d = x.d();
    if (x.is_dense()) {
        const DenseView &v = x.as_dense();
        if (!v.is_f32()) {
            gemm(v.row_major, false, d, cols, n, 1.0, v.x, v.ld, b, cols, 0.0, out, cols);
            return;
        }
        // float32 points: x^T b summed over blocks of widened rows.
        std::vector<double> scratch;
        for (int64_t begin = 0; begin < n; begin += kWidenBlockRows) {
            const int64_t end = std::min(n, begin + kWidenBlockRows);
            const RowsF64 r = rows_f64(v, begin, end, scratch);
            gemm(true, false, d, cols, end - begin, 1.0, r.x, r.ld, b + begin * cols, cols, begin == 0 ? 0.0 : 1.0, out, cols);
        }
        return;
    }
    const CsrView &c = x.as_csr();
    std::fill(out, out + d * cols, 0.0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t e = c.indptr[i]; e < c.indptr[i + 1]; ++e) {
            const double w = c.values[e];
            const double *brow = b + i * cols;
            double *orow = out + c.indices[e] * cols;
            for (int64_t j = 0; j < cols; ++j) orow[j] += w * brow[j];
        }
}

TruncatedSvd truncated_svd(const DataView &x, int64_t rank, Rng &rng, int power_iterations) {
    const int64_t n = x.n(), d = x.d();
    if (rank < 1 || rank > std::min(n, d))
        fail(KINDRED_E_DIMENSION, "truncated SVD: rank ", rank, " must be in [1, min(n, d)] = [1, ", std::min(n, d), "]");
    // Oversampling by 10 columns (Halko et al., section 4.2), limited by the matrix.
    const int64_t l = std::min(rank + 10, std::min(n, d));
    std::vector<double> omega(static_cast<size_t>(d * l));
    for (double &v : omega) v = rng.normal();
    std::vector<double> y(static_cast<size_t>(n * l)), z(static_cast<size_t>(d * l));
    data_times(x, omega.data(), l, y.data());
    orthonormalise_columns(y, n, l);
    // Subspace iteration with re-orthonormalisation (Algorithm 4.4) against the
    // slow decay of singular values typical of text.
    for (int q = 0; q < power_iterations; ++q) {
        data_transpose_times(x, y.data(), l, z.data());
        orthonormalise_columns(z, d, l);
        data_times(x, z.data(), l, y.data());
        orthonormalise_columns(y, n, l);
    }
    // B = Q^T X = z^T with z = X^T Q; B B^T = z^T z (l x l) gives the singular values,
    // and the right singular vectors are v_j = B^T u_j / sigma_j = z u_j / sigma_j.
    data_transpose_times(x, y.data(), l, z.data());
    std::vector<double> gram(static_cast<size_t>(l * l));
    syrk_ata(d, l, 1.0, z.data(), l, 0.0, gram.data());
    SymmetricEigen eig(l);
    eig.compute(gram.data());
    const std::vector<double> &w = eig.values();  // ascending
    const std::vector<double> &u = eig.vectors();
    TruncatedSvd out;
    out.d = d;
    out.rank = rank;
    out.basis.assign(static_cast<size_t>(d * rank), 0.0);
    out.singular_values.assign(static_cast<size_t>(rank), 0.0);
    const double sigma_max = std::sqrt(std::max(0.0, w[l - 1]));
    for (int64_t j = 0; j < rank; ++j) {
        const int64_t col = l - 1 - j;
        const double sigma = std::sqrt(std::max(0.0, w[col]));
        // Beyond the numerical rank the direction is noise: keep a zero column. The
        // Gram matrix squares the singular values, so its rounding is ~1e-8 of sigma_max.
        if (!(sigma > 1e-7 * sigma_max)) continue;
        out.singular_values[j] = sigma;
        for (int64_t r = 0; r < d; ++r) {
            double s = 0.0;
            for (int64_t c = 0; c < l; ++c) s += z[r * l + c] * u[c * l + col];
            out.basis[r * rank + j] = s / sigma;
        }
    }
    return out;
}

void project_rows(const DataView &x, const TruncatedSvd &svd, double *out) {
    data_times(x, svd.basis.data(), svd.rank, out);
}

}  // namespace linalg
}  // namespace kindred
