// Totals over the ranks of a sharded fit (core/collective.hpp) whose value
// does not depend on the order the ranks are taken in, so that every rank
// gets the bits of one process: counts (the changed labels of dpmeans'
// assignment pass, the moves of the HMRF E-step's points without
// constraints; integers) and largest values (dpmeans' reach).
#ifndef KINDRED_CORE_RANK_TOTALS_HPP
#define KINDRED_CORE_RANK_TOTALS_HPP

#include <cstdint>

#include "core/collective.hpp"

namespace kindred {

// The sum of every rank's `mine` (mine itself in one process). Collective.
int64_t total_over_ranks(const Collective &ranks, int64_t mine);

// The largest of every rank's `mine` (mine itself in one process). Collective.
double largest_over_ranks(const Collective &ranks, double mine);

}  // namespace kindred

#endif
