#include "algorithms/rdpmeans/link_count_cache.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace kindred {

double LinkCountCache::Slots::cost_of(int32_t k) const {
    for (int64_t p = 0; p < size; ++p)
        if (cluster(p) == k) return term(p);
    return 0.0;
}

LinkCountCache::LinkCountCache(const Adjacency *adjacency, int64_t n, double w_may, double w_may_not)
    : adj_(adjacency), w_may_(w_may), w_may_not_(w_may_not) {
    if (!adj_) return;
    const int64_t nnz = adj_->indptr.back();
    // Whether every pair's term is an integer and every point's sum of
    // |terms| (a bound on any of its g) fits the dense form's ints.
    bool integer = true;
    double largest_total = 0.0;
    int64_t largest_degree = 0;
    bound_.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        double total = 0.0;
        for (int64_t e = adj_->indptr[i]; e < adj_->indptr[i + 1]; ++e) {
            const double t = pair_cost(adj_->value[e]);
            total += std::fabs(t);
            if (t != std::nearbyint(t)) integer = false;
        }
        largest_total = std::max(largest_total, total);
        largest_degree = std::max(largest_degree, adj_->indptr[i + 1] - adj_->indptr[i]);
        bound_[i] = bound_of_total(total);
    }
    integer_ = integer && largest_total < 1073741824.0;
    slot_.resize(static_cast<size_t>(nnz));
    point_.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) point_[i] = Point{adj_->indptr[i], 0, 1};
    // Scratch of a gather, for the largest row.
    cluster_.resize(static_cast<size_t>(largest_degree));
    once_.resize(static_cast<size_t>(largest_degree));
}

void LinkCountCache::refresh(int64_t i, const int32_t *labels) {
    point_[i].size = gather(i, labels, slot_.data() + point_[i].first);
    point_[i].stale = 0;
}

void LinkCountCache::set_untracked(bool untracked) {
    if (!adj_ || untracked == untracked_) return;
    // Moves stop updating the slots: none may be read as up to date again.
    if (untracked) invalidate();
    untracked_ = untracked;
}

// The sums of LinkCounts::gather, in two loops without data-dependent
// branches (whether a cluster is new to the point was one, mispredicted about
// half the time with many clusters):
// 1. the neighbours' labels (random reads, the cost of a gather) into a
//    buffer, so that the reads overlap; each term into its cluster's
//    accumulator (the number of neighbours, and g summed as doubles in the
//    order of LinkCounts::gather);
// 2. along the buffer again, the first neighbour in a cluster writes the slot
//    and clears the accumulator; every neighbour writes the next slot, but
//    only a first one keeps it (a later one finds the count cleared).
int32_t LinkCountCache::gather(int64_t i, const int32_t *labels, Slot *slot) {
    const int64_t first = adj_->indptr[i], deg = adj_->indptr[i + 1] - first;
    int32_t *cluster = cluster_.data();  // sized for the largest row
    int32_t top = -1;
    for (int64_t t = 0; t < deg; ++t) {
        cluster[t] = label_of(adj_->neighbor(first + t), labels);
        top = std::max(top, cluster[t]);
    }
    if (top >= static_cast<int32_t>(count_.size())) {
        count_.resize(static_cast<size_t>(top) * 2 + 8, 0);
        sum_.resize(count_.size(), 0.0);
    }
    int32_t *count = count_.data();
    double *sum = sum_.data();
    for (int64_t t = 0; t < deg; ++t) {
        const int32_t k = cluster[t];
        if (k < 0) continue;  // unlabelled neighbour (never in RDP-means)
        ++count[k];
        sum[k] += term_at(first + t);
    }
    int32_t size = 0;
    for (int64_t t = 0; t < deg; ++t) {
        const int32_t k = cluster[t];
        if (k < 0) continue;
        const int32_t c = count[k];
        count[k] = 0;
        slot[size] = Slot{k, c, sum[k]};
        sum[k] = 0.0;
        size += static_cast<int32_t>(c != 0);
    }
    return size;
}

double LinkCountCache::moved(int64_t i, const int32_t *labels, int32_t from, int32_t to, const double *own_change) {
    if (!adj_ || from == to) return 0.0;
    if (small_on_) {
        if (to >= 0 && to < 255) small_[i] = static_cast<uint8_t>(to);
        else small_on_ = false;  // an id the copy cannot hold (or no cluster): the labels are read
    }
    // i's own slots do not change with its own move (no pair joins a point
    // to itself).
    const int64_t begin = adj_->indptr[i], end = adj_->indptr[i + 1];
    double change = 0.0;
    if (own_change) {
        change = *own_change;
    } else if (!untracked_ && !point_[i].stale) {
        const Slots s{slot_.data() + point_[i].first, point_[i].size};
        change = s.cost_of(to) - s.cost_of(from);
    } else {
        double g_to = 0.0, g_from = 0.0;  // the terms and order of a gather
        for (int64_t e = begin; e < end; ++e) {
            const int32_t k = label_of(adj_->neighbor(e), labels);
            if (k == to) g_to += term_at(e);
            if (k == from) g_from += term_at(e);
        }
        change = g_to - g_from;
    }
    if (untracked_) return change;
    for (int64_t e = begin; e < end; ++e) {
        const int64_t j = adj_->neighbor(e);
        if (point_[j].stale) continue;  // gathered from the labels before use
        const double cost = term_at(e);
        if (from >= 0) remove_from(j, from, cost);
        if (to >= 0) add_to(j, to, cost);
    }
    return change;
}

// A neighbour of point j, its pair's term `cost`, left cluster k: g_jk -=
// cost, and the slot is dropped (the last slot takes its place) when it was
// j's last neighbour in k.
void LinkCountCache::remove_from(int64_t j, int32_t k, double cost) {
    Slot *slot = slot_.data() + point_[j].first;
    const int32_t size = point_[j].size;
    int32_t p = 0;
    while (p < size && slot[p].cluster != k) ++p;
    if (p == size) return;  // not reached while the labels are those moved() was told about
    if (--slot[p].n > 0) {
        slot[p].g -= cost;
        return;
    }
    slot[p] = slot[size - 1];
    point_[j].size = size - 1;
}

// A neighbour of point j, its pair's term `cost`, joined cluster k: g_jk +=
// cost, in a new slot when it is j's first neighbour in k.
void LinkCountCache::add_to(int64_t j, int32_t k, double cost) {
    Slot *slot = slot_.data() + point_[j].first;
    const int32_t size = point_[j].size;
    for (int32_t p = 0; p < size; ++p)
        if (slot[p].cluster == k) {
            ++slot[p].n;
            slot[p].g += cost;
            return;
        }
    slot[size] = Slot{k, 1, cost};
    point_[j].size = size + 1;
}

void LinkCountCache::copy_labels(const int32_t *labels, int64_t k) {
    small_on_ = false;
    if (k > 255) return;
    small_.resize(point_.size());
    int32_t lowest = 0, highest = 0;
    for (size_t j = 0; j < small_.size(); ++j) {
        small_[j] = static_cast<uint8_t>(labels[j]);
        lowest = std::min(lowest, labels[j]);
        highest = std::max(highest, labels[j]);
    }
    small_on_ = lowest >= 0 && highest < 255;
}

void LinkCountCache::labels_changed(const int32_t *labels, int64_t k) {
    if (!adj_) return;
    invalidate();
    copy_labels(labels, k);
}

void LinkCountCache::relabel(const int32_t *new_id, const int32_t *labels, int64_t k) {
    if (!adj_) return;
    if (small_on_) {
        for (uint8_t &l : small_) l = static_cast<uint8_t>(new_id[l]);
    } else {
        copy_labels(labels, k);
    }
    for (const Point &pt : point_) {
        if (pt.stale) continue;  // gathered from the labels before use
        Slot *slot = slot_.data() + pt.first;
        for (int32_t p = 0; p < pt.size; ++p) slot[p].cluster = new_id[slot[p].cluster];
    }
}

void LinkCountCache::invalidate() {
    for (Point &pt : point_) pt.stale = 1;
}

}  // namespace kindred
