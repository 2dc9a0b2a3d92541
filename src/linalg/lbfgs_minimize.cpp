#include "linalg/lbfgs_minimize.hpp"

#include <lbfgs.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "core/error.hpp"

namespace kindred {
namespace linalg {
namespace {

struct Instance {
    const ObjectiveFn *f = nullptr;
    int64_t iterations = 0;
    std::exception_ptr error;
};

lbfgsfloatval_t evaluate(void *instance, const lbfgsfloatval_t *x, lbfgsfloatval_t *g, const int n,
                         const lbfgsfloatval_t) {
    Instance *in = static_cast<Instance *>(instance);
    try {
        const double f = (*in->f)(x, g);
        return std::isfinite(f) ? f : std::numeric_limits<double>::max();
    } catch (...) {
        if (!in->error) in->error = std::current_exception();
        std::fill(g, g + n, 0.0);
        return std::numeric_limits<double>::max();
    }
}

int progress(void *instance, const lbfgsfloatval_t *, const lbfgsfloatval_t *, const lbfgsfloatval_t,
             const lbfgsfloatval_t, const lbfgsfloatval_t, const lbfgsfloatval_t, int, int k, int) {
    Instance *in = static_cast<Instance *>(instance);
    in->iterations = k;
    return in->error ? 1 : 0;
}

}  // namespace

LbfgsRun lbfgs_minimize(int n, double *x, int64_t max_iter, const ObjectiveFn &f, const char *who) {
    lbfgs_parameter_t param;
    lbfgs_parameter_init(&param);
    param.max_iterations = static_cast<int>(std::min<int64_t>(max_iter, std::numeric_limits<int>::max()));
    Instance in;
    in.f = &f;
    lbfgsfloatval_t fx = 0.0;
    LbfgsRun run;
    run.status = lbfgs(n, x, &fx, evaluate, progress, &in, &param);
    if (in.error) std::rethrow_exception(in.error);
    if (run.status == LBFGSERR_OUTOFMEMORY) fail(KINDRED_E_NOMEM, who, ": L-BFGS could not allocate its memory");
    run.iterations = in.iterations;
    return run;
}

}  // namespace linalg
}  // namespace kindred
