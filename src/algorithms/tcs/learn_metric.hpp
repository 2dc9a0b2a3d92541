// Learning A of TCS-GM (Gopal & Yang 2014, section 3.1, Algorithm 1):
//   min_{A PSD} F(A) = f(A) + gamma lambda(A), f the mean OPT1 loss of gm_objective.hpp,
// by MFISTA with backtracking from A = I (the paper's start), or from a given
// PSD matrix (a warm start, e.g. the solution for a neighbouring gamma).
#ifndef KINDRED_ALGORITHMS_TCS_LEARN_METRIC_HPP
#define KINDRED_ALGORITHMS_TCS_LEARN_METRIC_HPP

#include <cstdint>
#include <functional>
#include <vector>

#include "algorithms/tcs/fista.hpp"
#include "algorithms/tcs/regularizers.hpp"

namespace kindred {
namespace tcs {

struct MetricRun {
    FistaRun fista;
    double seconds = 0.0;        // whole solve
    double eigen_seconds = 0.0;  // of which in eigendecompositions (PSD projection / prox)
};

// x: N labelled points (N x p row-major), class_of in [0, K). a0: the
// starting point (p x p, PSD), or nullptr for the identity.
MetricRun learn_metric(const double *x, int64_t n, int64_t p, const int32_t *class_of, int64_t k, Regularizer reg,
                       double gamma, const FistaSettings &settings, const IterationFn &progress,
                       const std::vector<double> *a0 = nullptr);

}  // namespace tcs
}  // namespace kindred

#endif
