// The link terms of the RDP-means augmented distance (Khashabi et al.,
// section 4.3) of every point, kept between passes instead of gathered afresh:
// for point i and every cluster k that i has neighbours in,
//     g_ik = w_may_not s_ik - w_may f_ki,
// with f_ki, s_ik the link counts of eq. (12) (see link_counts.hpp) and
// w_may, w_may_not the option weights xi_1, xi_2; the augmented distance is
// D(x_i, mu_k) + xi g_ik, and 0 is added for the clusters i has no neighbour in.
//
// A gather (LinkCounts::gather) reads the label of every neighbour of i: one
// random read per adjacency entry and per pass, which dominates a pass when
// there are several pairs per point (Khashabi et al. ask for incremental
// counts, so that a pass costs O(n K d + nnz)). Here each point keeps
// "slots": a slot is (cluster, number of neighbours in it, g), for every
// cluster it has neighbours in, laid out in CSR order (point i owns entries
// [indptr[i], indptr[i + 1]) of the slot array, of which the first size(i)
// are in use), so that a pass visiting the points in order reads them
// sequentially. Two modes:
// - tracked: when a point j moves from a to b, the pair's term leaves each
//   neighbour's slot for a (dropped with its last neighbour) and joins the
//   one for b (made with the first); a stale point (never read, or read
//   before the cache was tracked) is gathered when it is next asked for, and
//   moves of its neighbours skip it until then;
// - untracked: moves leave the neighbours alone, and a point's slots are
//   gathered from the labels each time they are asked for. When many points
//   move for each that reads its links, this is the cheaper (an update in
//   place is a random access to a neighbour's record and slots); with
//   integer terms a pass then takes them in a dense form, one int per
//   cluster (add_integer_terms), without slots.
//
// g is a double, summed in the order of LinkCounts::gather. With integer
// terms (the usual +-1 pairs with integer weights) every sum is exact, so a
// g updated in place equals a fresh gather's; with other terms it may differ
// from it by rounding. A cluster whose terms cancel keeps its slot (g = 0,
// which adds 0 as no slot does).
//
// The gathers read the neighbours' clusters from a copy of the labels in one
// byte per point while every cluster id is below 255 (moved, relabel and
// labels_changed keep it equal to the labels): at n = 1e6 the 1 MB copy
// stays in cache where the 4 MB of 32-bit labels do not. Memory: 16 bytes
// per adjacency entry, 25 per point. docs/performance-history.md, "RDP-means and TVClust", records
// what the layouts and modes measured, and the devices removed.
#ifndef KINDRED_ALGORITHMS_RDPMEANS_LINK_COUNT_CACHE_HPP
#define KINDRED_ALGORITHMS_RDPMEANS_LINK_COUNT_CACHE_HPP

#include <cstdint>
#include <vector>

#include "core/side_info.hpp"

namespace kindred {

class LinkCountCache {
public:
    struct Slot {
        int32_t cluster;
        int32_t n;  // the number of i's neighbours in the cluster
        double g;   // g_ik
    };
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

    // The slots of point i under labels (neighbours with a label < 0 are
    // skipped; labels must be those moved() was told about), gathered from
    // the labels if stale or untracked. Valid until the next call.
    Slots slots(int64_t i, const int32_t *labels) {
        if (!adj_) return Slots{nullptr, 0};
        if (untracked_) return Slots{once_.data(), gather(i, labels, once_.data())};
        if (point_[i].stale) refresh(i, labels);
        return Slots{slot_.data() + point_[i].first, point_[i].size};
    }
    // Point i moved from cluster from to cluster to (either may be < 0: no
    // cluster): tracked, the slots of its neighbours follow. Returns
    // g_i,to - g_i,from under labels (the neighbours' labels, which the move
    // does not change): own_change when given (the caller read it from i's
    // slots or their dense form for this choice), else from i's slots when
    // up to date, else summed from the neighbours' labels in the order of a
    // gather (i stays stale).
    double moved(int64_t i, const int32_t *labels, int32_t from, int32_t to, const double *own_change = nullptr);
    // Untracked mode on or off; turning it on marks every point stale.
    void set_untracked(bool untracked);
    bool untracked() const { return untracked_; }
    // Point i's number of pairs (0 without side information).
    int64_t degree(int64_t i) const { return adj_ ? adj_->indptr[i + 1] - adj_->indptr[i] : 0; }
    // Every pair term an integer, and every point's sum of |terms| below
    // 2^30 (so that the dense form's int sums are exact).
    bool integer_terms() const { return integer_; }
    // The dense form of a gather (integer_terms()): acc[k] += g_ik for every
    // cluster k of i's neighbours under labels, acc indexed by cluster id (it
    // must cover every label). Changes nothing in the cache.
    void add_integer_terms(int64_t i, const int32_t *labels, int32_t *acc) const {
        if (!adj_) return;
        for (int64_t e = adj_->indptr[i]; e < adj_->indptr[i + 1]; ++e) {
            const int32_t k = label_of(adj_->neighbor(e), labels);
            if (k >= 0) acc[k] += static_cast<int32_t>(term_at(e));  // k < 0: unlabelled (never in RDP-means)
        }
    }
    // Cluster ids renamed c -> new_id[c] (the label space compacted); labels:
    // the renamed labels, k: the number of clusters now. Only the clusters
    // that up-to-date slots refer to need a valid new id.
    void relabel(const int32_t *new_id, const int32_t *labels, int64_t k);
    // The labels changed other than through moved() (or are given for the
    // first time): every point stale, the label copy taken again. k: the
    // number of clusters (every label below it).
    void labels_changed(const int32_t *labels, int64_t k);
    // Marks every point stale (the labels as moved() was told).
    void invalidate();

private:
    // pair_cost of adjacency entry e, with the weight chosen by an index, not
    // a branch (whether a pair is a may-link is unpredictable): the term of
    // every gather, so that all sums are made of the same values.
    double term_at(int64_t e) const {
        const double weight[2] = {w_may_not_, w_may_};
        const double v = adj_->value[e];
        return -v * weight[v > 0];
    }
    // Point j's cluster: from the label copy when it holds the labels.
    int32_t label_of(int64_t j, const int32_t *labels) const { return small_on_ ? small_[j] : labels[j]; }
    void copy_labels(const int32_t *labels, int64_t k);
    // Point i's slots gathered into slot; returns their number.
    int32_t gather(int64_t i, const int32_t *labels, Slot *slot);
    void refresh(int64_t i, const int32_t *labels);
    void remove_from(int64_t point, int32_t k, double cost);
    void add_to(int64_t point, int32_t k, double cost);

    const Adjacency *adj_;
    double w_may_, w_may_not_;
    bool untracked_ = false;
    bool integer_ = false;  // integer_terms()
    std::vector<uint8_t> small_;  // the label copy (see the top of the file)
    bool small_on_ = false;       // small_ holds the labels
    std::vector<Slot> slot_;  // nnz entries, CSR layout
    // Per point: where its slots start (indptr[i]), how many are in use, and
    // whether to gather them from the labels before use.
    struct Point {
        int64_t first;
        int32_t size;
        int32_t stale;
    };
    std::vector<Point> point_;
    std::vector<double> bound_;  // link_bound per point
    // Scratch of a gather: the neighbours' clusters of the point; per
    // cluster, its neighbours and the sum of their terms (0 between calls);
    // the slots of an untracked read.
    std::vector<int32_t> cluster_, count_;
    std::vector<double> sum_;
    std::vector<Slot> once_;
};

}  // namespace kindred

#endif
