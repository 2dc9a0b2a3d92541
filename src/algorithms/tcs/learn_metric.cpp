#include "algorithms/tcs/learn_metric.hpp"

#include <chrono>

#include "algorithms/tcs/gm_objective.hpp"

namespace kindred {
namespace tcs {

MetricRun learn_metric(const double *x, int64_t n, int64_t p, const int32_t *class_of, int64_t k, Regularizer reg,
                       double gamma, const FistaSettings &settings, const IterationFn &progress,
                       const std::vector<double> *a0) {
    const auto t0 = std::chrono::steady_clock::now();
    GmObjective objective(x, n, p, class_of, k);
    ProxStep prox(reg, gamma, p);
    const SmoothFn smooth = [&](const std::vector<double> &a, std::vector<double> *grad) {
        if (!grad) return objective.value(a.data()) + smooth_value(reg, gamma, a.data(), p);
        const double f = objective.value_grad(a.data(), grad->data());
        return f + smooth_value_grad(reg, gamma, a.data(), p, grad->data());
    };
    const ProxFn prox_fn = [&](std::vector<double> &v, double t) { return prox.apply(v, t); };
    std::vector<double> identity(static_cast<size_t>(p * p), 0.0);
    for (int64_t j = 0; j < p; ++j) identity[j * p + j] = 1.0;
    MetricRun run;
    run.fista = minimize_mfista(p, a0 ? *a0 : identity, smooth, prox_fn, settings, progress);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    run.eigen_seconds = prox.eigen_seconds();
    return run;
}

}  // namespace tcs
}  // namespace kindred
