// Active selection of pairwise constraints (Basu et al., section 3.4):
// Explore (figure 3.4) and Consolidate (figure 3.5), and a random baseline.
// The oracle answers +1 (same cluster), -1 (different) or 0 (don't know);
// a pair is never asked twice, so a don't-know is never asked again.
#ifndef KINDRED_ACTIVE_PAIR_QUERIES_HPP
#define KINDRED_ACTIVE_PAIR_QUERIES_HPP

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/data_view.hpp"
#include "core/options.hpp"

namespace kindred {
namespace active {

// Returns +1, -1 or 0; anything else is rejected (KINDRED_E_INVALID).
using Oracle = std::function<int(int64_t i, int64_t j)>;

struct Answers {
    std::vector<int64_t> i, j;
    std::vector<double> value;  // +1 must-link, -1 cannot-link (asked or inferred)
    int64_t queries = 0;        // oracle calls made (<= budget)
    int64_t dont_know = 0;      // of which answered 0
    int64_t neighbourhoods = 0; // disjoint neighbourhoods found (explore / consolidate)
};

// The options of an active selection (kindred_active_options): strategy, k,
// budget, seed. The one place the strategies' names are spelled; the C API,
// the CLI and the bindings read them from this table.
const OptionTable &options();

// strategy: "explore-consolidate" (Explore until k neighbourhoods, then
// Consolidate; k = -1: Explore only), "explore" (Explore only), "random"
// (uniform random distinct pairs). Distances are squared Euclidean.
Answers select_pairs(const std::string &strategy, const DataView &data, int64_t k, int64_t budget, uint64_t seed,
                     const Oracle &oracle);
// The same with the settings of an options() table.
Answers select_pairs(const OptionValues &settings, const DataView &data, const Oracle &oracle);

}  // namespace active
}  // namespace kindred

#endif
