#include "algorithms/tvclust/cholesky_factor.hpp"

#include <cmath>

namespace kindred {
namespace tvclust {

// Right-looking: once column j is final, its outer product is taken off the
// trailing columns, one contiguous column at a time.
bool cholesky_lower(double *a, int64_t d) {
    for (int64_t j = 0; j < d; ++j) {
        double *col = a + j * d;
        if (!(col[j] > 0.0)) return false;
        const double ljj = std::sqrt(col[j]);
        const double inv = 1.0 / ljj;
        col[j] = ljj;
        for (int64_t i = j + 1; i < d; ++i) col[i] *= inv;
        for (int64_t k = j + 1; k < d; ++k) {
            double *ck = a + k * d;
            const double f = col[k];
            for (int64_t i = k; i < d; ++i) ck[i] -= col[i] * f;
        }
    }
    for (int64_t j = 0; j < d; ++j)
        for (int64_t i = 0; i < j; ++i) a[j * d + i] = 0.0;  // the strict upper part
    return true;
}

// The Givens-like recurrence of Golub & Van Loan (4th ed., section 6.5.4),
// column by column: L' L'^T = L L^T + sign v v^T.
bool cholesky_rank_one(double *l, double *v, int64_t d, double sign) {
    for (int64_t k = 0; k < d; ++k) {
        double *col = l + k * d;
        const double lkk = col[k];
        const double r2 = lkk * lkk + sign * v[k] * v[k];
        if (!(r2 > 0.0)) return false;
        const double r = std::sqrt(r2);
        const double c = r / lkk, s = v[k] / lkk, inv_c = lkk / r, ss = sign * s;
        col[k] = r;
        for (int64_t i = k + 1; i < d; ++i) {
            const double lik = (col[i] + ss * v[i]) * inv_c;
            col[i] = lik;
            v[i] = c * v[i] - s * lik;
        }
    }
    return true;
}

double forward_solve_norm2(const double *l, const double *inv_diag, double *t, int64_t d) {
    double q = 0.0;
    for (int64_t j = 0; j < d; ++j) {
        const double zj = t[j] * inv_diag[j];
        t[j] = zj;
        q += zj * zj;
        const double *col = l + j * d;
        for (int64_t i = j + 1; i < d; ++i) t[i] -= col[i] * zj;
    }
    return q;
}

void backward_solve(const double *l, const double *inv_diag, double *t, int64_t d) {
    for (int64_t j = d - 1; j >= 0; --j) {
        const double *col = l + j * d;
        double v = t[j];
        for (int64_t i = j + 1; i < d; ++i) v -= col[i] * t[i];
        t[j] = v * inv_diag[j];
    }
}

}  // namespace tvclust
}  // namespace kindred
