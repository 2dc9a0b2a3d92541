#include "algorithms/centroid/driver.hpp"

namespace kindred {

FitResult centroid_result(CentroidRun run, int64_t d, std::vector<NamedArray> learned) {
    FitResult result;
    result.clusters = d > 0 ? static_cast<int64_t>(run.centers.size()) / d : 0;
    result.iterations = run.iterations;
    result.converged = run.converged;
    result.objective = run.objective;
    result.labels = std::move(run.labels);
    result.set_array("centers", result.clusters, d, run.centers);
    for (NamedArray &a : learned) result.arrays.push_back(std::move(a));
    result.set_array("objective_trace", static_cast<int64_t>(run.trace.size()), 1, run.trace);
    return result;
}

}  // namespace kindred
