// Dense lower Cholesky factors for the NIW likelihood: factorisation, rank-one
// update / downdate and the squared norm of a forward solve.
//
// Layout: a d x d lower factor L is stored column-major (element (i, j),
// i >= j, at l[j * d + i]; the strict upper part is zero). Every loop below
// then runs down one column, over contiguous memory and with independent
// iterations, so the inner loops are axpy's, not dot products whose
// additions wait on one another: the forward solve of a predictive used to be
// a chain of dependent subtractions (latency bound); as column sweeps it costs
// the same d^2 / 2 multiply-adds at the throughput of the machine.
#ifndef KINDRED_ALGORITHMS_TVCLUST_CHOLESKY_FACTOR_HPP
#define KINDRED_ALGORITHMS_TVCLUST_CHOLESKY_FACTOR_HPP

#include <cstdint>

namespace kindred {
namespace tvclust {

// In place: a symmetric positive definite d x d matrix (its lower part is
// read; a symmetric matrix is the same in either layout) becomes its lower
// factor, column-major. False if a pivot is not positive.
bool cholesky_lower(double *a, int64_t d);

// In place: L L^T + sign * v v^T (sign = +1 update, -1 downdate); v is
// overwritten. False if a downdate would lose positive definiteness (L is then
// partly modified and must be rebuilt).
bool cholesky_rank_one(double *l, double *v, int64_t d, double sign);

// In place: t := z = L^{-1} t by forward substitution in column order;
// returns |z|^2. inv_diag[j] = 1 / L(j, j).
double forward_solve_norm2(const double *l, const double *inv_diag, double *t, int64_t d);

// In place: t := L^{-T} t (back substitution; each step a dot product down
// one column).
void backward_solve(const double *l, const double *inv_diag, double *t, int64_t d);

}  // namespace tvclust
}  // namespace kindred

#endif
