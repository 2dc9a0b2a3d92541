#include "linalg/blas.hpp"

#include <cblas.h>
#include <climits>

#include "core/error.hpp"

namespace kindred {
namespace linalg {

int blas_int(int64_t v, const char *what) {
    if (v < 0 || v > INT_MAX)
        fail(KINDRED_E_DIMENSION, what, " = ", v, " does not fit the 32-bit integers of BLAS / LAPACK");
    return static_cast<int>(v);
}

int blas_thread_count() { return openblas_get_num_threads(); }

void gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
          const double *a, int64_t lda, const double *b, int64_t ldb, double beta, double *c,
          int64_t ldc) {
    if (m == 0 || n == 0) return;
    cblas_dgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
                blas_int(m, "rows"), blas_int(n, "columns"), blas_int(k, "inner dimension"), alpha, a,
                blas_int(lda, "leading dimension"), b, blas_int(ldb, "leading dimension"), beta, c,
                blas_int(ldc, "leading dimension"));
}

void syrk_ata(int64_t m, int64_t n, double alpha, const double *a, int64_t lda, double beta, double *c) {
    if (n == 0) return;
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, blas_int(n, "columns"), blas_int(m, "rows"), alpha, a,
                blas_int(lda, "leading dimension"), beta, c, blas_int(n, "columns"));
    for (int64_t r = 0; r < n; ++r)
        for (int64_t s = 0; s < r; ++s) c[r * n + s] = c[s * n + r];
}

void trsm_lower(int64_t d, int64_t m, const double *l, double *b) {
    if (d == 0 || m == 0) return;
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, blas_int(d, "rows"),
                blas_int(m, "right-hand sides"), 1.0, l, blas_int(d, "leading dimension"), b,
                blas_int(d, "leading dimension"));
}

}  // namespace linalg
}  // namespace kindred
