// What a kindred_model handle holds, for the files of the C boundary that
// fit it (model_api.cpp, shard_api.cpp).
#ifndef KINDRED_CAPI_MODEL_STATE_HPP
#define KINDRED_CAPI_MODEL_STATE_HPP

#include "algorithms/algorithm.hpp"
#include "core/collective.hpp"
#include "core/fit_result.hpp"
#include "core/options.hpp"
#include "kindred.h"

struct kindred_model {
    const kindred::AlgorithmSpec *spec;
    kindred::OptionValues options;
    kindred_progress_fn progress_fn = nullptr;
    void *progress_user = nullptr;
    kindred_log_fn log_fn = nullptr;
    void *log_user = nullptr;
    bool fitted = false;
    kindred::FitResult result;
    // The options of the fit that made `result` (or of the loaded file).
    // predict / transform / save use them, so that an option changed after
    // the fit (mpckmeans' distortion, dcrc's kernel, gmm's covariance, ...)
    // cannot make them read the fitted arrays as another shape; only
    // "threads" is taken from the current options.
    kindred::OptionValues fitted_options;

    explicit kindred_model(const kindred::AlgorithmSpec *s) : spec(s), options(&s->options), fitted_options(&s->options) {}
};

namespace kindred {
namespace capi {

const SideInfo *side_info(const kindred_side *side);

// Fits m on data (standardizing first when its options say so) and stores
// the result: the one fit of the entry points. collective: the ranks of a
// sharded fit (data = this rank's rows, the side information about all
// n_total points), or null.
void fit_model(kindred_model *m, const DataView &data, const kindred_side *side, const Collective *collective);

}  // namespace capi
}  // namespace kindred

#endif
