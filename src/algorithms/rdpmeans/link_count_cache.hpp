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
// "slots": a slot is (cluster, number of neighbours in it, g), for every
// cluster it has neighbours in, laid out in CSR order (point i owns entries
// [indptr[i], indptr[i + 1]) of the slot array, of which the first size(i)
// are in use: a point has at most deg(i) distinct neighbour clusters). A pass
// visiting the points in order thus reads the slots sequentially.
//
// When a point j moves from a to b, the slots of its neighbours follow, in
// one of two ways:
// - in place (O(deg j) random writes): the pair's term leaves the
//   neighbour's slot for a (dropped when its last neighbour leaves) and
//   joins the one for b (made when it is the first);
// - in bulk mode, the neighbours are only marked stale, and a stale point is
//   gathered again from the labels when it is next asked for. When most
//   points move (the first passes), this is cheaper: a point whose many
//   neighbours moved is gathered once instead of updated many times.
// A point is also gathered the first time it is asked for; until then moves
// of its neighbours skip it.
// - untracked: moves do not touch the neighbours at all, and a point's slots
//   are gathered from the labels every time they are asked for (into a
//   buffer, not the slot array). When many points move and few read their
//   links (overlapping clusters, the middle of the annealing), this is the
//   cheapest: an update in place is a random access to a neighbour's record
//   and slots, while a gather reads one adjacency row and the labels (a
//   smaller array, more often in cache). Measured at n = 1e6 with 10n
//   pairs, a pass's link work took half the time of the tracked cache.
//   With integer terms a pass can also take them in a dense form, one int
//   per cluster (add_integer_terms), without slots.
//
// g is a double, summed in the order of LinkCounts::gather. With integer
// terms (the usual +-1 pairs with integer weights) every sum is exact, so a
// g updated in place equals a fresh gather's; with other terms it may differ
// from it by rounding (the terms are added and removed in another order).
// The cluster set is always exact. A cluster whose terms cancel keeps its
// slot (g = 0, which adds 0 as no slot does). (Two narrower layouts for
// integer terms, 4 and 8 bytes per slot, were measured and removed:
// docs/performance.md, "RDP-means: one slot layout".)
//
// The cache reads the neighbours' clusters from a copy of the labels in one
// byte per point while every cluster id is below 255 (labels_changed,
// moved and relabel keep it equal to the labels): a gather reads a random
// label per adjacency entry, and at n = 1e6 the 1 MB copy stays in cache
// where the 4 MB of 32-bit labels did not (a third less time for the link
// work of a pass, measured with 10n pairs; at n = 1e5 a build without it
// took 12-14% more per iteration without cluster structure, ibid.). From
// the first id of 255 on, the labels themselves are read,
// until a relabel or labels_changed finds every id below 255 again.
//
// Memory: 16 bytes per adjacency entry; 25 bytes per point (the record,
// link_bound and the label copy).
#ifndef KINDRED_ALGORITHMS_RDPMEANS_LINK_COUNT_CACHE_HPP
#define KINDRED_ALGORITHMS_RDPMEANS_LINK_COUNT_CACHE_HPP

#include <cstdint>
#include <vector>

#include "core/side_info.hpp"

// Forced inline: GCC 12 treats a function that only prefetches as free of
// side effects and drops its calls.
#if defined(__GNUC__)
#define KINDRED_CACHE_PREFETCH __attribute__((always_inline)) inline
#else
#define KINDRED_CACHE_PREFETCH inline
#endif

namespace kindred {

class LinkCountCache {
public:
    // One cluster of a point's neighbours, four per cache line.
    struct Slot {
        int32_t cluster;
        int32_t n;  // the number of i's neighbours in the cluster
        double g;   // g_ik
    };
    // The size from which untracked passes request the one-byte label copy's
    // entries ahead (prefetch_second_step): half of a core's 1 MB cache.
    static constexpr int64_t kSmallCopyAhead = int64_t(1) << 19;
    // The slots of one point.
    struct Slots {
        const Slot *slot;
        int64_t size;
        int32_t cluster(int64_t p) const { return slot[p].cluster; }
        double term(int64_t p) const { return slot[p].g; }
        double cost_of(int32_t k) const;  // g_ik, 0 when the point has no slot for k
    };

    // adjacency may be null (no side information): no point has slots.
    // Every point starts stale. w_may, w_may_not >= 0.
    LinkCountCache(const Adjacency *adjacency, int64_t n, double w_may, double w_may_not);

    // The link term of a pair of value v (> 0 may-link, < 0 may-not-link).
    double pair_cost(double v) const { return v > 0 ? -w_may_ * v : -w_may_not_ * v; }
    // A bound on |g_ik| + |g_il| for any two clusters k != l under any labels:
    // the sum of |term| over i's pairs (enlarged by 1e-9 relative, for the
    // rounding of a g summed in floating point). 0 without side information.
    double link_bound(int64_t i) const { return adj_ ? bound_[i] : 0.0; }
    // The link bound of a point whose |terms| sum to `total`.
    static double bound_of_total(double total) { return total * (1.0 + 1e-9); }
    // link_bound of every point, or null without side information (all 0).
    const double *link_bounds() const { return adj_ ? bound_.data() : nullptr; }

    // The slots of point i under labels (neighbours with a label < 0 are
    // skipped; labels must be those moved() was told about), gathered from
    // the labels if stale. The view is valid until the next call to moved()
    // or relabel().
    Slots slots(int64_t i, const int32_t *labels) {
        if (!adj_) return Slots{nullptr, 0};
        if (untracked_) return gather_once(i, labels);
        if (point_[i].stale) refresh(i, labels);
        return view(i);
    }
    // Asks the memory system for the slots of point i ahead of their use,
    // and for its adjacency row when it is stale (a gather reads it) or with
    // moves (the point will move: moved() reads it). An up-to-
    // date point that does not move reads only its slots.
    KINDRED_CACHE_PREFETCH void prefetch(int64_t i, bool moves = false) const {
        if (!adj_) return;
        if (untracked_) {  // a gather reads the row (and a move its own part of it)
            prefetch_row(adj_->indptr[i], adj_->indptr[i + 1]);
            return;
        }
        const int64_t first = point_[i].first, size = point_[i].size;
        if (moves || point_[i].stale) prefetch_row(first, adj_->indptr[i + 1]);
        prefetch_lines(slot_.data() + first, slot_.data() + first + size);
    }
    // The second step, once i's adjacency row has arrived: for a point that
    // will move, its neighbours' records, which moved() reads; untracked, for
    // any point, its neighbours' labels, which its gather reads. A pass that
    // knows which points will read their links asks for their slots and rows
    // some points ahead and for this a few points ahead, so that the random
    // reads of several points overlap. (Requesting the neighbours' labels of
    // a stale point when tracked, which its gather reads, made the passes in
    // which the links decide every point slower.) Untracked with a one-byte
    // label copy of under kSmallCopyAhead bytes, nothing: such a copy stays
    // in a core's own cache, and requesting its entries cost a seventh of
    // the sequential part of the passes at 1e5 points (scratch cycle
    // counters, data without cluster structure, 10n pairs); at 1e6 points
    // (1 MB) requesting them or not made no difference beyond 3% either way.
    KINDRED_CACHE_PREFETCH void prefetch_second_step(int64_t i, const int32_t *labels) const {
        if (!adj_) return;
        if (untracked_) {
            if (label_copy_in_cache()) return;
            for (int64_t e = adj_->indptr[i]; e < adj_->indptr[i + 1]; ++e) {
                if (small_on_) __builtin_prefetch(&small_[neighbour_at(e)]);
                else __builtin_prefetch(&labels[neighbour_at(e)]);
            }
            return;
        }
        for (int64_t e = adj_->indptr[i]; e < adj_->indptr[i + 1]; ++e) __builtin_prefetch(&point_[neighbour_at(e)]);
    }
    // Point i moved from cluster from to cluster to (either may be < 0: no
    // cluster): the slots of its neighbours follow (see the top of the file).
    // Returns g_i,to - g_i,from under labels (the neighbours' labels, which
    // the move does not change): the change of the link total. It comes from
    // i's slots when they are up to date; else it is summed from the
    // neighbours' labels, term by term in the order of a gather, and i stays
    // stale (a point that moves need not read its links again). own_change:
    // null, or g_i,to - g_i,from as the caller read it for this choice (from
    // i's slots or their dense form under the same labels), which is then
    // returned (untracked, a second read of the neighbours' labels saved).
    double moved(int64_t i, const int32_t *labels, int32_t from, int32_t to, const double *own_change = nullptr);
    // Bulk mode on or off (see the top of the file).
    void set_bulk(bool bulk) { bulk_ = bulk; }
    // Untracked mode on or off (see the top of the file): moves leave the
    // neighbours alone, and every point's slots are gathered from the labels
    // each time they are asked for, into a buffer of the cache (the view is
    // valid until the next call). Turning it on marks every point stale.
    void set_untracked(bool untracked);
    bool untracked() const { return untracked_; }
    // Point i's number of pairs (0 without side information).
    int64_t degree(int64_t i) const { return adj_ ? adj_->indptr[i + 1] - adj_->indptr[i] : 0; }
    // Every pair term an integer, and every point's sum of |terms| below
    // 2^30 (so that the dense form's int sums are exact).
    bool integer_terms() const { return integer_; }
    // The dense form of a gather, with integer terms (integer_terms()): acc[k]
    // += g_ik for every cluster k of i's neighbours under labels, as ints
    // (exact), acc indexed by cluster id (it must cover every label). Reads
    // the labels as a gather does, without the slots' two further loops;
    // changes nothing in the cache.
    void add_integer_terms(int64_t i, const int32_t *labels, int32_t *acc) const {
        if (!adj_) return;
        for (int64_t e = adj_->indptr[i]; e < adj_->indptr[i + 1]; ++e) {
            const int32_t k = label_of(neighbour_at(e), labels);
            if (k >= 0) acc[k] += integer_term_at(e);  // k < 0: unlabelled neighbour (never in RDP-means)
        }
    }
    // Whether the one-byte label copy holds the labels and is small enough
    // to stay in a core's cache (under kSmallCopyAhead bytes).
    bool label_copy_in_cache() const { return small_on_ && static_cast<int64_t>(small_.size()) < kSmallCopyAhead; }
    int64_t size() const { return static_cast<int64_t>(point_.size()); }
    // Whether bulk mode is cheaper when a fraction move_rate of the points
    // move: when move_rate x (mean degree) exceeds a few units, most points
    // would be updated in place several times (thresholds of 1 to 8 gave the
    // same time over the first passes, measured at n = 1e5).
    bool bulk_pays(double move_rate) const { return move_rate * mean_degree_ > 4.0; }
    // Cluster ids renamed c -> new_id[c] (the label space compacted); labels:
    // the renamed labels, k: the number of clusters now. Only the clusters
    // that up-to-date slots refer to (clusters with members) need a valid
    // new id.
    void relabel(const int32_t *new_id, const int32_t *labels, int64_t k);
    // The labels changed other than through moved() (or are given for the
    // first time): every point stale, the label copy taken again. k: the
    // number of clusters (every label below it).
    void labels_changed(const int32_t *labels, int64_t k);
    // Marks every point stale (the labels as moved() was told).
    void invalidate();

private:
    // Adjacency entry e: its neighbour and its term (pair_cost of its value).
    int64_t neighbour_at(int64_t e) const { return adj_->neighbor(e); }
    double term_at(int64_t e) const { return entry_cost(e); }
    // The same term as an int (integer_terms()).
    int32_t integer_term_at(int64_t e) const { return static_cast<int32_t>(entry_cost(e)); }
    KINDRED_CACHE_PREFETCH void prefetch_row(int64_t begin, int64_t end) const {
        prefetch_lines(adj_->neighbor_bytes(begin), adj_->neighbor_bytes(end));
        prefetch_lines(adj_->value.data() + begin, adj_->value.data() + end);
    }
    // Point j's cluster: from the label copy when it holds the labels.
    int32_t label_of(int64_t j, const int32_t *labels) const { return small_on_ ? small_[j] : labels[j]; }
    void copy_labels(const int32_t *labels, int64_t k);
    // The slots of point i as they are (up to date or not).
    Slots view(int64_t i) const { return Slots{slot_.data() + point_[i].first, point_[i].size}; }
    // pair_cost of adjacency entry e, with the weight chosen by an index, not
    // a branch (whether a pair is a may-link is unpredictable): the term of
    // every gather, so that all sums are made of the same values.
    double entry_cost(int64_t e) const {
        const double weight[2] = {w_may_not_, w_may_};
        const double v = adj_->value[e];
        return -v * weight[v > 0];
    }
    template <typename T>
    KINDRED_CACHE_PREFETCH static void prefetch_lines(const T *begin, const T *end) {
        for (const char *line = reinterpret_cast<const char *>(begin); line < reinterpret_cast<const char *>(end);
             line += 64)
            __builtin_prefetch(line);
    }
    void refresh(int64_t i, const int32_t *labels);
    Slots gather_once(int64_t i, const int32_t *labels);
    // Point i's slots gathered into slot; returns their number.
    int32_t gather(int64_t i, const int32_t *labels, Slot *slot);
    void remove_from(int64_t point, int32_t k, double cost);
    void add_to(int64_t point, int32_t k, double cost);

    const Adjacency *adj_;
    double w_may_, w_may_not_;
    bool bulk_ = false;
    bool untracked_ = false;
    bool integer_ = false;  // integer_terms()
    std::vector<uint8_t> small_;  // the label copy (see the top of the file)
    bool small_on_ = false;       // small_ holds the labels
    double mean_degree_ = 0;
    std::vector<Slot> slot_;  // nnz entries, CSR layout
    // Per point, in one line with its neighbours': where its slots start
    // (indptr[i]), how many are in use, and whether to gather them from the
    // labels before use.
    struct Point {
        int64_t first;
        int32_t size;
        int32_t stale;
    };
    std::vector<Point> point_;
    std::vector<double> bound_;  // link_bound per point
    // Scratch of refresh: the neighbours' clusters of the point; per cluster,
    // its neighbours and the sum of their terms (0 between calls).
    std::vector<int32_t> cluster_, count_;
    std::vector<double> sum_;
    std::vector<Slot> once_;  // the slots of gather_once
};

}  // namespace kindred

#endif
