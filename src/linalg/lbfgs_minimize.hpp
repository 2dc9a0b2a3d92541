// Minimisation by L-BFGS (liblbfgs, its default parameters but the iteration
// cap), shared by the smooth unconstrained fits: DCRC's M-step and the
// L-step of TCS-VM. liblbfgs is C: an exception thrown by the objective must
// not cross its frames, so it is stored, the search stops at the next
// progress call, and the exception is rethrown after lbfgs() returns.
#ifndef KINDRED_LINALG_LBFGS_MINIMIZE_HPP
#define KINDRED_LINALG_LBFGS_MINIMIZE_HPP

#include <cstdint>
#include <functional>

namespace kindred {
namespace linalg {

// f(x, g): the objective at x and, into g, its gradient (n values each).
using ObjectiveFn = std::function<double(const double *x, double *g)>;

struct LbfgsRun {
    int status = 0;          // liblbfgs's return code
    int64_t iterations = 0;  // the iteration count of the last progress call
};

// Minimises f from x (n values, left at the returned point) in at most
// max_iter iterations. A non-finite f is seen by liblbfgs as the largest
// double, so that its line search backs off. Throws KINDRED_E_NOMEM, naming
// `who`, when liblbfgs cannot allocate; every other status is returned.
LbfgsRun lbfgs_minimize(int n, double *x, int64_t max_iter, const ObjectiveFn &f, const char *who);

}  // namespace linalg
}  // namespace kindred

#endif
