// The evaluation protocol of `kindred eval` (and `kindred demo`): sample side
// information from the ground truth, fit, score, repeat with seeds seed,
// seed + 1, ... The numbers come from the library (kindred_sample_pairs,
// kindred_sample_triplets, kindred_metric); this file only arranges the runs.
#ifndef KINDRED_CLI_EVAL_PROTOCOL_HPP
#define KINDRED_CLI_EVAL_PROTOCOL_HPP

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "dataset.hpp"

namespace kindred_cli {

class ProgressLine;

struct SideSampling {
    double pairs_rate = -1;      // fraction of all n(n-1)/2 pairs, or -1
    int64_t pairs_count = -1;    // or a number of pairs, or -1
    int64_t triplets_count = -1; // number of triplets, or -1
    double noise = 0.0;          // probability of flipping an answer
    bool any() const { return pairs_rate >= 0 || pairs_count >= 0 || triplets_count >= 0; }
};

struct EvalSettings {
    std::string algorithm;
    std::vector<Flag> option_flags;  // --NAME VALUE options of the algorithm (--seed included)
    SideSampling sampling;
    int64_t repeats = 1;
    int64_t reveal_classes = 0;  // TCS protocol: points of this many classes become partial labels
    std::string active;          // --active STRATEGY: pairs chosen by active selection (budget = pairs_count)
};

struct Stat {
    double mean = 0, std = 0;  // std with the n - 1 denominator; 0 for one repeat
};
Stat stat_of(const std::vector<double> &values);

// One value per repeat for each measure.
struct EvalReport {
    std::string algorithm, data;
    int64_t n = 0, d = 0, classes = 0, scored = 0, repeats = 0;
    uint64_t seed = 0;                // seed of the first repeat
    std::string k;                    // value of option k ("" when the algorithm has none or it is unset)
    bool k_from_classes = false;      // eval set k itself
    std::vector<double> nmi, ari, f_measure, seconds, clusters, pairs, triplets, labelled;
    // What the fits chose from the side information (FitSummary::chosen), by
    // name in order of first appearance, one value per repeat that chose it.
    std::vector<std::pair<std::string, std::vector<double>>> chosen;
};

EvalReport run_eval(const Dataset &data, const EvalSettings &settings, ProgressLine &progress);

// "100 pairs, 20 triplets, noise 0.1" / "none", for reports.
std::string describe_sampling(const SideSampling &s, int64_t reveal_classes);

}  // namespace kindred_cli

#endif
