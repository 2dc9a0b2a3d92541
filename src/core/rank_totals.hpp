// Counts summed over the ranks of a sharded fit (core/collective.hpp): the
// changed labels of dpmeans' assignment pass, the moves of the HMRF E-step's
// points without constraints. Integers, so the order of the additions does
// not matter; every rank gets the same total.
#ifndef KINDRED_CORE_RANK_TOTALS_HPP
#define KINDRED_CORE_RANK_TOTALS_HPP

#include <cstdint>

#include "core/collective.hpp"

namespace kindred {

// The sum of every rank's `mine` (mine itself in one process). Collective.
int64_t total_over_ranks(const Collective &ranks, int64_t mine);

}  // namespace kindred

#endif
