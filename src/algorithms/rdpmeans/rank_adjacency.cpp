#include "algorithms/rdpmeans/rank_adjacency.hpp"

#include <algorithm>

namespace kindred {

int64_t RankAdjacency::index_of(int64_t j) const {
    if (j >= first && j < first + n_local) return j - first;
    const auto at = std::lower_bound(ghost_row.begin(), ghost_row.end(), j);
    if (at == ghost_row.end() || *at != j) return -1;
    return n_local + (at - ghost_row.begin());
}

RankAdjacency rank_adjacency(const Adjacency &full, int64_t first, int64_t n_local) {
    RankAdjacency out;
    out.first = first;
    out.n_local = n_local;
    const int64_t end = first + n_local;
    auto held = [&](int64_t j) { return j >= first && j < end; };
    for (int64_t g = first; g < end; ++g)
        for (int64_t e = full.indptr[g]; e < full.indptr[g + 1]; ++e)
            if (!held(full.neighbor(e))) out.ghost_row.push_back(full.neighbor(e));
    std::sort(out.ghost_row.begin(), out.ghost_row.end());
    out.ghost_row.erase(std::unique(out.ghost_row.begin(), out.ghost_row.end()), out.ghost_row.end());
    // Neighbours gathered at 64 bits first: the rows' count (rank rows plus
    // ghosts) decides the store's width, known only once the ghosts are.
    Adjacency &a = out.adjacency;
    std::vector<int64_t> neighbor;
    a.indptr.assign(1, 0);
    auto add_row = [&](int64_t g, bool only_held) {
        for (int64_t e = full.indptr[g]; e < full.indptr[g + 1]; ++e) {
            const int64_t j = full.neighbor(e);
            if (only_held && !held(j)) continue;
            neighbor.push_back(out.index_of(j));
            a.value.push_back(full.value[e]);
        }
        a.indptr.push_back(static_cast<int64_t>(neighbor.size()));
    };
    for (int64_t g = first; g < end; ++g) add_row(g, false);
    for (int64_t g : out.ghost_row) add_row(g, true);
    a.resize_entries(n_local + static_cast<int64_t>(out.ghost_row.size()), neighbor.size());
    for (size_t e = 0; e < neighbor.size(); ++e) a.set_neighbor(static_cast<int64_t>(e), neighbor[e]);
    return out;
}

}  // namespace kindred
