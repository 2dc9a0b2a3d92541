#include "model_runs.hpp"

#include <chrono>

#include "cli_error.hpp"

namespace kindred_cli {

namespace {

// The prefix of the result arrays that hold a value the fit chose from the
// side information (cross-validation over the pairs) because the user left
// it unset.
constexpr const char kChosenPrefix[] = "chosen_";

std::vector<std::pair<std::string, double>> chosen_values(const kindred_model *model) {
    std::vector<std::pair<std::string, double>> chosen;
    int64_t count = 0;
    check(kindred_model_array_count(model, &count), "result arrays");
    const size_t prefix = sizeof kChosenPrefix - 1;
    for (int64_t a = 0; a < count; ++a) {
        const char *name = nullptr;
        int64_t rows = 0, cols = 0;
        check(kindred_model_array_info(model, a, &name, &rows, &cols), "result arrays");
        if (rows != 1 || cols != 1 || std::string(name).compare(0, prefix, kChosenPrefix) != 0) continue;
        double value = 0.0;
        check(kindred_model_array(model, name, &value, 1), name);
        chosen.emplace_back(std::string(name).substr(prefix), value);
    }
    return chosen;
}

}  // namespace

FitSummary fit_model(kindred_model *model, const Dataset &data, const kindred_side *side) {
    const std::string algorithm = kindred_model_algorithm(model);
    const auto start = std::chrono::steady_clock::now();
    const kindred_status s =
        data.sparse ? kindred_model_fit_csr(model, data.n, data.d, data.indptr.data(), data.indices.data(), data.values.data(), side)
                    : kindred_model_fit_dense(model, data.dense.data(), data.n, data.d, KINDRED_ROW_MAJOR, data.d, side);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    check(s, algorithm + " on " + data.source);
    return summarize_fit(model, seconds);
}

FitSummary summarize_fit(const kindred_model *model, double seconds) {
    FitSummary summary;
    int converged = 0;
    check(kindred_model_summary(model, nullptr, nullptr, &summary.clusters, &summary.iterations, &converged, &summary.objective),
          kindred_model_algorithm(model));
    summary.converged = converged != 0;
    summary.seconds = seconds;
    summary.chosen = chosen_values(model);
    return summary;
}

std::vector<int32_t> fitted_labels(const kindred_model *model, int64_t n) {
    std::vector<int32_t> labels(static_cast<size_t>(n));
    check(kindred_model_labels(model, labels.data(), n), "labels");
    return labels;
}

std::vector<int32_t> predict_labels(const kindred_model *model, const Dataset &data) {
    std::vector<int32_t> labels(static_cast<size_t>(data.n));
    const std::string what = std::string("predict with ") + kindred_model_algorithm(model) + " on " + data.source;
    if (data.sparse)
        check(kindred_model_predict_csr(model, data.n, data.d, data.indptr.data(), data.indices.data(), data.values.data(),
                                        labels.data(), data.n),
              what);
    else
        check(kindred_model_predict_dense(model, data.dense.data(), data.n, data.d, KINDRED_ROW_MAJOR, data.d, labels.data(), data.n),
              what);
    return labels;
}

JsonObject fit_report(const std::string &algorithm, const FitSummary &fit) {
    JsonObject o;
    o.add("algorithm", algorithm)
        .add("clusters", fit.clusters)
        .add("iterations", fit.iterations)
        .add_bool("converged", fit.converged)
        .add("objective", fit.objective)
        .add("seconds", fit.seconds);
    JsonObject chosen;
    for (const auto &c : fit.chosen) chosen.add(c.first, c.second);
    o.add("chosen", chosen);
    return o;
}

std::string fit_line(const FitSummary &fit) {
    std::string line = "clusters " + std::to_string(fit.clusters) + ", iterations " + std::to_string(fit.iterations) +
                       (fit.converged ? " (converged)" : " (stopped at max_iter)") + ", objective " +
                       text(fit.objective) + ", " + text(fit.seconds) + " s";
    for (size_t c = 0; c < fit.chosen.size(); ++c)
        line += (c ? ", " : "; chosen from the side information: ") + fit.chosen[c].first + " " + text(fit.chosen[c].second);
    return line;
}

}  // namespace kindred_cli
