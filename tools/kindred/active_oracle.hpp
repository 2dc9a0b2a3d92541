// Active selection for experiments: the library's kindred_active_select
// asks an oracle that answers from the ground-truth labels (a label < 0
// answers "don't know"), optionally flipping answers with a probability.
#ifndef KINDRED_CLI_ACTIVE_ORACLE_HPP
#define KINDRED_CLI_ACTIVE_ORACLE_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "dataset.hpp"
#include "handles.hpp"
#include "kindred.h"

namespace kindred_cli {

// The strategies as the library's option table has them ("explore-consolidate|explore|random"),
// its default, and whether a word is one: the CLI spells none of them itself.
std::string active_strategies();
std::string default_active_strategy();
bool is_active_strategy(const std::string &word);
// The same list for a help text: "explore-consolidate (default), explore or random".
std::string active_strategies_help();

struct ActiveQuery {
    std::string strategy = default_active_strategy();
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

// The library's settings of a selection (strategy, k, budget, seed).
ActiveOptionsPtr active_options(const std::string &strategy, int64_t k, int64_t budget, uint64_t seed);

}  // namespace kindred_cli

#endif
