// Fitting and predicting on a Dataset through the public API (dense or CSR),
// timing the fit. Shared by fit, predict, eval and demo.
#ifndef KINDRED_CLI_MODEL_RUNS_HPP
#define KINDRED_CLI_MODEL_RUNS_HPP

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dataset.hpp"
#include "json_writer.hpp"
#include "kindred.h"

namespace kindred_cli {

struct FitSummary {
    int64_t clusters = 0, iterations = 0;
    bool converged = false;
    double objective = 0.0, seconds = 0.0;
    // What the fit chose from the side information itself (result arrays
    // "chosen_NAME" of one value: lambda, weight, propagation, ...), by NAME,
    // in the model's order.
    std::vector<std::pair<std::string, double>> chosen;
};

// Fits; a runtime error showing kindred_last_error() when the library refuses.
FitSummary fit_model(kindred_model *model, const Dataset &data, const kindred_side *side);

// The summary of a fitted model (kindred_model_summary and the chosen values),
// with the fit's wall time measured by the caller.
FitSummary summarize_fit(const kindred_model *model, double seconds);

// What `fit` reports of a fit, shared by `kindred fit` and `kindred-mpi fit`:
// the JSON fields algorithm, clusters, iterations, converged, objective,
// seconds, chosen (an object, empty when nothing was chosen; the caller adds
// where the data came from), and the text line "clusters C, iterations I
// (converged), objective O, S s" followed, when something was chosen, by
// "; chosen from the side information: NAME V, ...".
JsonObject fit_report(const std::string &algorithm, const FitSummary &fit);
std::string fit_line(const FitSummary &fit);

std::vector<int32_t> fitted_labels(const kindred_model *model, int64_t n);

std::vector<int32_t> predict_labels(const kindred_model *model, const Dataset &data);

}  // namespace kindred_cli

#endif
