#include "eval_protocol.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "active_oracle.hpp"
#include "cli_error.hpp"
#include "handles.hpp"
#include "model_runs.hpp"
#include "options_from_registry.hpp"
#include "progress_line.hpp"

namespace kindred_cli {

namespace {

// Choosing which classes to reveal is bookkeeping, not numerics, so a tiny
// generator of our own (splitmix64) is enough and keeps runs reproducible.
uint64_t splitmix64(uint64_t &state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// `count` distinct classes out of `classes`, by a partial Fisher-Yates shuffle.
std::vector<bool> choose_revealed(int64_t classes, int64_t count, uint64_t seed) {
    std::vector<int64_t> order(static_cast<size_t>(classes));
    std::iota(order.begin(), order.end(), 0);
    uint64_t state = seed;
    for (int64_t k = 0; k < count; ++k) {
        const int64_t pick = k + static_cast<int64_t>(splitmix64(state) % static_cast<uint64_t>(classes - k));
        std::swap(order[k], order[pick]);
    }
    std::vector<bool> revealed(static_cast<size_t>(classes), false);
    for (int64_t k = 0; k < count; ++k) revealed[order[k]] = true;
    return revealed;
}

double metric(const char *name, const std::vector<int32_t> &truth, const std::vector<int32_t> &predicted) {
    double value = 0;
    check(kindred_metric(name, truth.data(), predicted.data(), static_cast<int64_t>(truth.size()), &value), name);
    return value;
}

uint64_t parse_seed(const std::string &text) {
    // The registry validated it as an integer >= 0; it may print as a real ("1e+06").
    return static_cast<uint64_t>(std::llround(std::stod(text)));
}

}  // namespace

Stat stat_of(const std::vector<double> &values) {
    Stat s;
    if (values.empty()) return s;
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    if (values.size() > 1) {
        double ss = 0;
        for (double v : values) ss += (v - s.mean) * (v - s.mean);
        s.std = std::sqrt(ss / static_cast<double>(values.size() - 1));
    }
    return s;
}

std::string describe_sampling(const SideSampling &s, int64_t reveal_classes) {
    std::string out;
    auto add = [&out](const std::string &part) { out += (out.empty() ? "" : ", ") + part; };
    if (reveal_classes > 0) add(text("points of ", reveal_classes, " revealed classes as partial labels"));
    if (s.pairs_count >= 0) add(text(s.pairs_count, " sampled pairs"));
    if (s.pairs_rate >= 0) add(text("pairs at rate ", s.pairs_rate));
    if (s.triplets_count >= 0) add(text(s.triplets_count, " sampled triplets"));
    if (s.any() && s.noise > 0) add(text("noise ", s.noise));
    return out.empty() ? "none" : out;
}

EvalReport run_eval(const Dataset &data, const EvalSettings &settings, ProgressLine &progress) {
    if (!data.has_labels()) runtime_error(data.source, ": eval needs ground-truth labels");
    const int64_t classes = data.classes();
    if (settings.reveal_classes >= classes)
        usage_error("--reveal-classes ", settings.reveal_classes, " must be below the number of classes (", classes, ")");

    EvalReport report;
    report.algorithm = settings.algorithm;
    report.data = data.source;
    report.n = data.n;
    report.d = data.d;
    report.classes = classes;
    report.repeats = settings.repeats;

    // A first model checks the flags once and gives the base seed and k.
    ModelPtr probe = new_model(settings.algorithm);
    const std::set<std::string> given = apply_option_flags(probe.get(), settings.option_flags);
    report.seed = parse_seed(current_option(probe.get(), "seed"));
    const bool has_k = has_option(settings.algorithm, "k");
    // An algorithm that finds the number of clusters itself (dpmeans,
    // rdpmeans) is not told it: with neither lambda nor k it chooses lambda
    // from the pairs.
    const bool finds_k = (algorithm_uses(settings.algorithm) & KINDRED_USES_NO_K) != 0;
    report.k_from_classes = has_k && given.count("k") == 0 && !finds_k;
    const int64_t k_auto = classes - settings.reveal_classes;
    if (report.k_from_classes) check(kindred_model_set_int(probe.get(), "k", k_auto), "setting k from the classes");
    report.k = has_k ? current_option(probe.get(), "k") : "";

    const int uses = algorithm_uses(settings.algorithm);
    const bool revealing = settings.reveal_classes > 0;
    // Under --reveal-classes a method sees the labelled points when it can use
    // them (partial labels) or when side information is sampled (from those
    // points only); otherwise it ignores them and clusters the unlabelled ones.
    const bool fit_all = !revealing || (uses & KINDRED_USES_PARTIAL_LABELS) || settings.sampling.any();

    for (int64_t r = 0; r < settings.repeats; ++r) {
        const uint64_t seed = report.seed + static_cast<uint64_t>(r);

        // Which points are labelled (revealed) and which are scored.
        std::vector<int32_t> partial(static_cast<size_t>(data.n), -1);
        std::vector<int64_t> unlabelled_rows;
        if (revealing) {
            const std::vector<bool> revealed = choose_revealed(classes, settings.reveal_classes, seed);
            std::vector<int32_t> renumber(static_cast<size_t>(classes), -1);
            int32_t next = 0;
            for (int64_t c = 0; c < classes; ++c)
                if (revealed[c]) renumber[c] = next++;
            for (int64_t i = 0; i < data.n; ++i) {
                if (revealed[data.labels[i]]) partial[i] = renumber[data.labels[i]];
                else unlabelled_rows.push_back(i);
            }
        }

        Dataset subset;
        if (!fit_all) subset = subset_rows(data, unlabelled_rows);
        const Dataset &fit_data = fit_all ? data : subset;
        // Side information is sampled from the ground truth, or under
        // --reveal-classes from the revealed labels only (-1 is never drawn).
        const std::vector<int32_t> &sample_from = revealing ? partial : data.labels;

        SidePtr side;
        if (settings.sampling.any() || (revealing && fit_all)) {
            side = new_side(fit_data.n);
            const SideSampling &s = settings.sampling;
            if (!settings.active.empty()) {
                ActiveQuery q;
                q.strategy = settings.active;
                q.k = classes - settings.reveal_classes;
                q.budget = s.pairs_count;
                q.seed = seed;
                q.noise = s.noise;
                select_pairs_from_labels(side.get(), fit_data, sample_from, q);
            } else if (s.pairs_count >= 0 || s.pairs_rate >= 0)
                check(kindred_sample_pairs(side.get(), sample_from.data(), fit_data.n, s.pairs_count, s.pairs_count >= 0 ? 0.0 : s.pairs_rate,
                                           s.noise, seed),
                      "sampling pairs");
            if (s.triplets_count >= 0)
                // A seed apart from the pairs' so that the two samples are not correlated.
                check(kindred_sample_triplets(side.get(), sample_from.data(), fit_data.n, s.triplets_count, s.noise,
                                              seed ^ 0x5DEECE66DULL),
                      "sampling triplets");
            if (revealing) check(kindred_side_set_partial_labels(side.get(), partial.data(), fit_data.n), "partial labels");
            int64_t pairs = 0, triplets = 0, labelled = 0;
            check(kindred_side_counts(side.get(), nullptr, &pairs, &triplets, &labelled), "side information");
            report.pairs.push_back(static_cast<double>(pairs));
            report.triplets.push_back(static_cast<double>(triplets));
            report.labelled.push_back(static_cast<double>(labelled));
        } else {
            report.pairs.push_back(0);
            report.triplets.push_back(0);
            report.labelled.push_back(0);
        }

        ModelPtr model = new_model(settings.algorithm);
        apply_option_flags(model.get(), settings.option_flags);
        if (report.k_from_classes) check(kindred_model_set_int(model.get(), "k", k_auto), "setting k from the classes");
        check(kindred_model_set_int(model.get(), "seed", static_cast<int64_t>(seed)), "setting the seed");
        progress.attach(model.get(), text(settings.algorithm, ", repeat ", r + 1, "/", settings.repeats));
        const FitSummary fit = fit_model(model.get(), fit_data, side.get());
        progress.clear();
        const std::vector<int32_t> predicted = fitted_labels(model.get(), fit_data.n);

        // Score the unlabelled points only (all points without --reveal-classes).
        const std::vector<int32_t> &fit_truth = fit_all ? data.labels : subset.labels;
        std::vector<int32_t> truth_scored, predicted_scored;
        for (int64_t i = 0; i < fit_data.n; ++i)
            if (!revealing || !fit_all || partial[i] < 0) {
                truth_scored.push_back(fit_truth[i]);
                predicted_scored.push_back(predicted[i]);
            }
        report.scored = static_cast<int64_t>(truth_scored.size());
        report.nmi.push_back(metric("nmi", truth_scored, predicted_scored));
        report.ari.push_back(metric("ari", truth_scored, predicted_scored));
        report.f_measure.push_back(metric("f-measure", truth_scored, predicted_scored));
        report.seconds.push_back(fit.seconds);
        report.clusters.push_back(static_cast<double>(fit.clusters));
        for (const auto &c : fit.chosen) {
            auto at = std::find_if(report.chosen.begin(), report.chosen.end(),
                                   [&](const std::pair<std::string, std::vector<double>> &e) { return e.first == c.first; });
            if (at == report.chosen.end()) at = report.chosen.insert(report.chosen.end(), {c.first, {}});
            at->second.push_back(c.second);
        }
    }
    return report;
}

}  // namespace kindred_cli
