// Fitting and predicting on a Dataset through the public API (dense or CSR),
// timing the fit. Shared by fit, predict, eval and demo.
#ifndef KINDRED_CLI_MODEL_RUNS_HPP
#define KINDRED_CLI_MODEL_RUNS_HPP

#include <cstdint>
#include <vector>

#include "dataset.hpp"
#include "kindred.h"

namespace kindred_cli {

struct FitSummary {
    int64_t clusters = 0, iterations = 0;
    bool converged = false;
    double objective = 0.0, seconds = 0.0;
};

// Fits; a runtime error showing kindred_last_error() when the library refuses.
FitSummary fit_model(kindred_model *model, const Dataset &data, const kindred_side *side);

std::vector<int32_t> fitted_labels(const kindred_model *model, int64_t n);

std::vector<int32_t> predict_labels(const kindred_model *model, const Dataset &data);

}  // namespace kindred_cli

#endif
