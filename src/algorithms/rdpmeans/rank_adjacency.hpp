// The pairs as one rank of a sharded RDP-means sees them (docs/distributed.md):
// its rows, and after them the rows of the other ranks that are linked to
// one of its rows (the "ghosts"), whose labels the other ranks send after
// their turn of a pass. A rank's link terms for its own rows then read the
// labels of its rows and of its ghosts only, from one label array indexed
// like this adjacency.
#ifndef KINDRED_ALGORITHMS_RDPMEANS_RANK_ADJACENCY_HPP
#define KINDRED_ALGORITHMS_RDPMEANS_RANK_ADJACENCY_HPP

#include <cstdint>
#include <vector>

#include "core/side_info.hpp"

namespace kindred {

struct RankAdjacency {
    // Rows 0..n_local-1: the rank's rows [first, first + n_local), each with
    // all its pairs in the order of the full adjacency (so that its link
    // terms are those of the single-process fit); rows n_local + g: ghost g,
    // with its pairs to this rank's rows only.
    Adjacency adjacency;
    std::vector<int64_t> ghost_row;  // ghost g's global row, increasing
    int64_t first = 0, n_local = 0;

    // The index in `adjacency` of global row j, or -1 when this rank neither
    // holds it nor is linked to it.
    int64_t index_of(int64_t j) const;
};

// full: the adjacency over all the points (every rank has the pairs in full).
RankAdjacency rank_adjacency(const Adjacency &full, int64_t first, int64_t n_local);

}  // namespace kindred

#endif
