// Accelerated proximal gradient with backtracking line search for
//   min_A F(A) = f(A) + g(A),  f smooth, g = regulariser + indicator(PSD),
// the solver of TCS-GM (Gopal & Yang 2014, Algorithm 1, which is FISTA of
// Beck & Teboulle 2009). We run its monotone variant MFISTA (Beck & Teboulle
// 2009, "Fast gradient-based algorithms for constrained total variation ...",
// section V.A): the same momentum, but the iterate A_t only moves when the
// objective does not rise, so the objective trace never increases.
// Backtracking (FISTA with backtracking, step 1/L_t): L_t is doubled until
//   f(Z) <= f(H) + <grad f(H), Z - H> + L_t/2 ||Z - H||_F^2.
#ifndef KINDRED_ALGORITHMS_TCS_FISTA_HPP
#define KINDRED_ALGORITHMS_TCS_FISTA_HPP

#include <cstdint>
#include <functional>
#include <vector>

namespace kindred {
namespace tcs {

struct FistaSettings {
    int64_t max_iter = 500;
    double tol = 1e-7;  // stop when F falls by less than tol * max(1, |F|) in an iteration
};

struct FistaRun {
    std::vector<double> a;      // the minimiser found (d x d)
    double objective = 0.0;     // F(a)
    int64_t iterations = 0;
    bool converged = false;
    std::vector<double> trace;  // F(A_t), t = 1..iterations (non-increasing)
    int64_t smooth_evaluations = 0;
};

// smooth(A, grad): f(A), and grad f(A) into grad when grad != nullptr.
using SmoothFn = std::function<double(const std::vector<double> &, std::vector<double> *)>;
// prox(V, t): V <- prox_{t g}(V); returns g(V) at the result.
using ProxFn = std::function<double(std::vector<double> &, double)>;
// progress(t, F(A_t)) after each iteration.
using IterationFn = std::function<void(int64_t, double)>;

// a0 must be feasible (PSD); it is the starting point (the paper starts at I).
FistaRun minimize_mfista(int64_t d, const std::vector<double> &a0, const SmoothFn &smooth, const ProxFn &prox,
                         const FistaSettings &settings, const IterationFn &progress);

}  // namespace tcs
}  // namespace kindred

#endif
