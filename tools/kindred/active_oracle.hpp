// Active selection for experiments: the library's kindred_active_select
// asks an oracle that answers from the ground-truth labels (a label < 0
// answers "don't know"), optionally flipping answers with a probability.
#ifndef KINDRED_CLI_ACTIVE_ORACLE_HPP
#define KINDRED_CLI_ACTIVE_ORACLE_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "dataset.hpp"
#include "kindred.h"

namespace kindred_cli {

struct ActiveQuery {
    std::string strategy = "explore-consolidate";  // explore-consolidate | explore | random
    int64_t k = -1;         // number of clusters, -1 unknown (Explore only)
    int64_t budget = 0;     // oracle calls
    uint64_t seed = 0;
    double noise = 0.0;     // probability of a flipped answer
};

struct ActiveOutcome {
    int64_t queries = 0, dont_know = 0, must = 0, cannot = 0;
};

// Adds the answers to `side` (about data.n points). Dense data only.
ActiveOutcome select_pairs_from_labels(kindred_side *side, const Dataset &data, const std::vector<int32_t> &labels,
                                       const ActiveQuery &query);

extern const char *const kActiveStrategies;

}  // namespace kindred_cli

#endif
