// The link terms of the RDP-means augmented distance (Khashabi et al.,
// section 4.3) of every point, kept between passes instead of gathered afresh:
// for point i and every cluster k that i has neighbours in,
//     g_ik = w_may_not s_ik - w_may f_ki,
// with f_ki, s_ik the link counts of eq. (12) (see link_counts.hpp) and
// w_may, w_may_not the option weights xi_1, xi_2; the augmented distance is
// D(x_i, mu_k) + xi g_ik, and 0 is added for the clusters i has no neighbour in.
//
// LinkCounts::gather reads the label of every neighbour of i: one random read
// per adjacency entry and per pass, which dominates an RDP-means pass when
// there are several pairs per point (Khashabi et al. ask for incremental
// counts, so that a pass costs O(n K d + nnz)). Here each point keeps
// "slots": the (cluster, number of neighbours, g) of the clusters it has
// neighbours in, laid out in CSR order (point i owns entries
// [indptr[i], indptr[i + 1]) of the slot array, of which the first size(i)
// are in use: a point has at most deg(i) distinct neighbour clusters). A pass
// visiting the points in order thus reads the slots sequentially.
//
// When a point j moves from a to b, the slots of its neighbours follow, in
// one of two ways:
// - in place (O(deg j) random writes): the pair's term leaves the
//   neighbour's slot for a (dropped when its last neighbour leaves) and joins
//   the one for b;
// - in bulk mode, the neighbours are only marked stale, and a stale point is
//   gathered again from the labels when it is next asked for. When most
//   points move (the first passes), this is cheaper: a point whose many
//   neighbours moved is gathered once instead of updated many times.
// A point is also gathered the first time it is asked for; until then moves
// of its neighbours skip it.
//
// With integer pair values and weights (the usual +-1 pairs) every g is exact,
// so the slots hold exactly the sums a gather would give. Otherwise a g
// updated in place may differ from a fresh gather by rounding (the terms are
// added and removed in another order); a slot's cluster set is always exact.
//
// Memory: 16 bytes per adjacency entry and per point.
#ifndef KINDRED_ALGORITHMS_LINK_COUNT_CACHE_HPP
#define KINDRED_ALGORITHMS_LINK_COUNT_CACHE_HPP

#include <cstdint>
#include <vector>

#include "core/side_info.hpp"

namespace kindred {

class LinkCountCache {
public:
    // One cluster of a point's neighbours: one cache line holds four, and an
    // update in place touches one line.
    struct Slot {
        int32_t cluster;
        int32_t count;  // neighbours of the point in the cluster
        double cost;    // g: sum of their pair_cost
    };
    // The slots of one point.
    struct Slots {
        const Slot *slot;
        int64_t size;
        double cost_of(int32_t k) const;  // 0 when the point has no neighbour in k
    };

    // adjacency may be null (no side information): no point has slots.
    // Every point starts stale. w_may, w_may_not >= 0.
    LinkCountCache(const Adjacency *adjacency, int64_t n, double w_may, double w_may_not);

    // The link term of a pair of value v (> 0 may-link, < 0 may-not-link).
    double pair_cost(double v) const { return v > 0 ? -w_may_ * v : -w_may_not_ * v; }

    // The slots of point i under labels (neighbours with a label < 0 are
    // skipped; labels must be those moved() was told about), gathered from
    // the labels if stale. The view is valid until the next call to moved()
    // or relabel().
    Slots slots(int64_t i, const int32_t *labels) {
        if (!adj_) return Slots{nullptr, 0};
        if (point_[i].stale) refresh(i, labels);
        return Slots{slot_.data() + point_[i].first, point_[i].size};
    }
    // Asks the memory system for the slots of point i ahead of their use.
    // (Requesting the neighbours' labels of a stale point as well was tried:
    // no gain measured.)
    void prefetch(int64_t i) const {
        if (!adj_) return;
        const char *first = reinterpret_cast<const char *>(slot_.data() + point_[i].first);
        const char *last = reinterpret_cast<const char *>(slot_.data() + point_[i].first + point_[i].size);
        for (const char *line = first; line < last; line += 64) __builtin_prefetch(line);
    }
    // Point i moved from cluster from to cluster to (either may be < 0: no
    // cluster): the slots of its neighbours follow (see the top of the file).
    void moved(int64_t i, int32_t from, int32_t to);
    // Bulk mode on or off (see the top of the file).
    void set_bulk(bool bulk) { bulk_ = bulk; }
    // Whether bulk mode is cheaper when a fraction move_rate of the points
    // move: when move_rate x (mean degree) exceeds a few units, most points
    // would be updated in place several times (an update in place costs about
    // a fifth of a gather, measured at n = 1e5 and 1e6).
    bool bulk_pays(double move_rate) const { return move_rate * mean_degree_ > 4.0; }
    // Cluster ids renamed c -> new_id[c] (the label space compacted). Only the
    // clusters that up-to-date slots refer to (clusters with members) need a
    // valid new id.
    void relabel(const int32_t *new_id);
    // Marks every point stale (labels changed other than through moved()).
    void invalidate();

private:
    void refresh(int64_t i, const int32_t *labels);
    void remove(int64_t point, int32_t k, double cost);
    void add(int64_t point, int32_t k, double cost);

    const Adjacency *adj_;
    double w_may_, w_may_not_;
    bool bulk_ = false;
    double mean_degree_ = 0;
    std::vector<Slot> slot_;            // nnz entries, CSR layout
    // Per point, in one line with its neighbours': where its slots start
    // (indptr[i]), how many are in use, and whether to gather them from the
    // labels before use.
    struct Point {
        int64_t first;
        int32_t size;
        int32_t stale;
    };
    std::vector<Point> point_;
    std::vector<int32_t> position_;     // scratch of refresh: slot of a cluster, -1 if none
};

}  // namespace kindred

#endif
