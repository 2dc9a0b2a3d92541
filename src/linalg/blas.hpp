// Thin wrappers over CBLAS / LAPACKE. Debian's OpenBLAS and LAPACKE take
// 32-bit integers: every size goes through blas_int(), which refuses what
// does not fit instead of truncating it.
#ifndef KINDRED_LINALG_BLAS_HPP
#define KINDRED_LINALG_BLAS_HPP

#include <cstdint>

namespace kindred {
namespace linalg {

int blas_int(int64_t v, const char *what);

// The number of threads OpenBLAS will use for a call (read, never changed:
// the library leaves BLAS settings to the program). Our own threads call BLAS
// concurrently only when this is 1, so that the two never oversubscribe the cores.
int blas_thread_count();

// C (m x n, row-major, ldc) = alpha * op(A) * op(B) + beta * C, all row-major.
void gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
          const double *a, int64_t lda, const double *b, int64_t ldb, double beta, double *c,
          int64_t ldc);

// C (n x n, row-major, upper and lower filled) = alpha * A^T A + beta * C, A is m x n row-major.
void syrk_ata(int64_t m, int64_t n, double alpha, const double *a, int64_t lda, double beta,
              double *c);

// B := L^{-1} B for m right-hand sides at once: L is a d x d lower triangular
// factor stored column-major (element (i, j) at l[j * d + i]), B holds the m
// vectors of length d one after another (column-major d x m).
void trsm_lower(int64_t d, int64_t m, const double *l, double *b);

}  // namespace linalg
}  // namespace kindred

#endif
