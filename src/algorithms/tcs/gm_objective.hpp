// The TCS-GM objective of Gopal & Yang 2014 (section 3.1, the convex
// semidefinite form of OPT1) without its regulariser, as a mean over the N
// labelled points (the paper sums; see docs/algorithms/tcs.md):
//
//   f(A) = 1/N sum_i [ 1/2 d_{i t_i}^T A d_{i t_i} + log sum_k exp(-1/2 d_ik^T A d_ik) ],
//   d_ik = x_i - m_k,  m_k the mean of the labelled points of class k,
//
// and its gradient (paper, gradient of F(A)):
//
//   grad f(A) = 1/N sum_i sum_k 1/2 (y_ik - p_ik(A)) d_ik d_ik^T.
//
// Both are assembled with GEMMs in O(N K d + K d^2), never as N*K outer
// products: with q_ik = x_i^T A x_i - 2 x_i^T A m_k + m_k^T A m_k, the term
// x_i^T A x_i is the same for every k and cancels in f (and in p_ik), so f
// needs only X (A M^T); with w_ik = (y_ik - p_ik) / (2N), whose rows sum to
// zero (p_i is normalised),
//
//   sum_ik w_ik d_ik d_ik^T = - ((X^T W) M + M^T (W^T X)) + M^T diag(sum_i w_ik) M.
#ifndef KINDRED_ALGORITHMS_TCS_GM_OBJECTIVE_HPP
#define KINDRED_ALGORITHMS_TCS_GM_OBJECTIVE_HPP

#include <cstdint>
#include <vector>

namespace kindred {
namespace tcs {

class GmObjective {
public:
    // x: the N labelled points (N x d row-major, copied and centred: d_ik does
    // not change under a translation and centring keeps the expansion of q_ik
    // accurate); class_of[i] in [0, K).
    GmObjective(const double *x, int64_t n, int64_t d, const int32_t *class_of, int64_t k);

    int64_t dim() const { return d_; }
    // f(A); A is d x d row-major, symmetric, not necessarily PSD.
    double value(const double *a);
    // f(A) and grad f(A) (d x d) into grad.
    double value_grad(const double *a, double *grad);
    // The same gradient by the literal double sum of outer products, O(N K d^2);
    // the reference of the tests and the benchmark.
    double value_grad_naive(const double *a, double *grad) const;

private:
    double forms_and_loss(const double *a);  // fills u_ -> p_

    int64_t n_, d_, k_;
    std::vector<double> x_, m_;  // centred points (N x d), class means (K x d)
    std::vector<int32_t> t_;
    std::vector<double> am_, u_, p_, w_, xw_, cm_, b_;
};

}  // namespace tcs
}  // namespace kindred

#endif
