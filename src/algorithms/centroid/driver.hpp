// The loop every centre-based method runs (k-means, DP-means, COP-KMeans,
// the HMRF engine of PCKMeans / MPCK-means, RDP-means):
// a run's state, the iterations with one convention for the objective trace
// and for progress and cancellation, restarts that keep the lowest objective,
// and the packaging of the result. A method supplies its step (assignment and
// centre update) and says when it has converged; everything else is here, so
// that the methods differ only where their papers do.
#ifndef KINDRED_ALGORITHMS_CENTROID_DRIVER_HPP
#define KINDRED_ALGORITHMS_CENTROID_DRIVER_HPP

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace kindred {

// What a centre-based run ends with.
struct CentroidRun {
    std::vector<double> centers;  // clusters x d, row-major
    std::vector<int32_t> labels;  // this rank's points
    std::vector<double> trace;    // the objective after each iteration
    double objective = std::numeric_limits<double>::infinity();
    int64_t iterations = 0;
    bool converged = false;
};

// One iteration's outcome: the objective it reached (recorded in the trace
// and reported), whether the method's stopping rule holds, and what the
// progress line says of it (empty: the loop's own words).
struct StepOutcome {
    double objective;
    bool converged;
    std::string message = std::string();
};

// Runs step(it) for it = 1, 2, ... max_iter until it reports convergence.
// After each step: the objective joins run.trace, run.iterations = it, and
// progress is reported with `what` on every rank (a cancel on one stops all:
// Collective::agree). The step owns the centres and labels in run.
template <class Step>
void iterate(const FitContext &ctx, const Collective &ranks, int64_t max_iter, const std::string &what,
             CentroidRun &run, Step &&step) {
    for (int64_t it = 1; it <= max_iter; ++it) {
        const StepOutcome out = step(it);
        run.trace.push_back(out.objective);
        run.iterations = it;
        const std::string &message = out.message.empty() ? what : out.message;
        ranks.agree([&] { ctx.progress.report(it, out.objective, message.c_str()); });
        if (out.converged) {
            run.converged = true;
            return;
        }
    }
}

// The best of n_init runs: run_once(r) gives restart r's run (a CentroidRun,
// a type derived from it, or a FitResult), or nothing when that restart found
// no solution (COP-KMeans' infeasible greedy step); the lowest objective is
// kept, the earliest on ties. With no run at all the result is Run().
template <class Run, class RunOnce>
Run best_of_restarts(int64_t n_init, RunOnce &&run_once) {
    std::optional<Run> best;
    for (int64_t r = 0; r < n_init; ++r) {
        std::optional<Run> run = run_once(r);
        if (run && (!best || run->objective < best->objective)) best = std::move(run);
    }
    return best ? std::move(*best) : Run();
}

// The result of a centre-based fit: labels, clusters, iterations, objective,
// and the arrays "centers" (clusters x d), then `learned` (what the method
// learned besides the centres, such as the HMRF engine's "metric"), then
// "objective_trace", in that order (the order in which a model lists them).
FitResult centroid_result(CentroidRun run, int64_t d, std::vector<NamedArray> learned = {});

}  // namespace kindred

#endif
