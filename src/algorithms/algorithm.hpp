// What every algorithm declares: its name, its option table, which side
// information it uses, and its fit / predict / transform steps. The C API
// and the CLI know algorithms only through this description (registry.hpp).
#ifndef KINDRED_ALGORITHMS_ALGORITHM_HPP
#define KINDRED_ALGORITHMS_ALGORITHM_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "core/collective.hpp"
#include "core/data_view.hpp"
#include "core/fit_result.hpp"
#include "core/options.hpp"
#include "core/progress.hpp"
#include "core/side_info.hpp"

namespace kindred {

struct FitContext {
    const DataView &data;
    const SideInfo *side;  // may be null: no side information
    const OptionValues &options;
    const Progress &progress;
    const Log &log;
    int threads;  // resolved, >= 1
    // The ranks of a sharded fit (data = this rank's rows; core/collective.hpp),
    // or null for one process. Only the algorithms whose spec says `shards` read it.
    const Collective *collective = nullptr;
};

struct PredictContext {
    const FitResult &model;
    const OptionValues &options;
    const DataView &data;  // new points, d checked against the model
    int threads;
};

// Brace-initialised in field order by each algorithm ({name, summary, uses,
// options, fit, predict, ...}): the fields after predict are the optional steps.
struct AlgorithmSpec {
    std::string name;
    std::string summary;
    int uses = 0;  // kindred_uses flags (KINDRED_USES_SHARDS: fit reads FitContext::collective)
    OptionTable options;
    FitResult (*fit)(const FitContext &) = nullptr;
    // nullptr when the algorithm cannot label new points.
    void (*predict)(const PredictContext &, int32_t *labels) = nullptr;
    // nullptr when the algorithm learns no transformation.
    int64_t (*transform_dim)(const FitResult &) = nullptr;
    void (*transform)(const PredictContext &, double *out) = nullptr;  // row-major n x dim
    // nullptr when the algorithm has no soft memberships; row-major n x k, each row summing to 1.
    void (*predict_proba)(const PredictContext &, double *out) = nullptr;
    // Internal options that were removed with the machinery they switched: a
    // model file naming one (written before the tier) still loads, the value
    // ignored, as for the internal options that remain.
    std::vector<std::string> retired_options{};
};

}  // namespace kindred

#endif
