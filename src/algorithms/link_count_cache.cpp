#include "algorithms/link_count_cache.hpp"

#include <algorithm>
#include <cstddef>

namespace kindred {

double LinkCountCache::Slots::cost_of(int32_t k) const {
    for (int64_t p = 0; p < size; ++p)
        if (slot[p].cluster == k) return slot[p].cost;
    return 0.0;
}

LinkCountCache::LinkCountCache(const Adjacency *adjacency, int64_t n, double w_may, double w_may_not)
    : adj_(adjacency), w_may_(w_may), w_may_not_(w_may_not) {
    if (!adj_) return;
    slot_.resize(static_cast<size_t>(adj_->indptr.back()));
    point_.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) point_[i] = Point{adj_->indptr[i], 0, 1};
    mean_degree_ = static_cast<double>(adj_->indptr.back()) / static_cast<double>(std::max<int64_t>(n, 1));
}

// The sums of LinkCounts::gather, in the same order. The neighbours' labels
// (random reads, the cost of a gather) are first read into a small buffer by
// a loop without branches, so that the reads overlap; a branch on each label
// (the next read waiting for a mispredicted one) made them one cache miss at
// a time.
void LinkCountCache::refresh(int64_t i, const int32_t *labels) {
    Slot *slot = slot_.data() + point_[i].first;
    const int64_t *neighbor = adj_->neighbor.data();
    const double *value = adj_->value.data();
    int32_t size = 0;
    constexpr int64_t kChunk = 64;
    int32_t cluster[kChunk];
    for (int64_t begin = adj_->indptr[i], end = adj_->indptr[i + 1]; begin < end; begin += kChunk) {
        const int64_t m = std::min(kChunk, end - begin);
        for (int64_t t = 0; t < m; ++t) cluster[t] = labels[neighbor[begin + t]];
        for (int64_t t = 0; t < m; ++t) {
            const int32_t k = cluster[t];
            if (k < 0) continue;
            if (k >= static_cast<int32_t>(position_.size())) position_.resize(static_cast<size_t>(k) * 2 + 8, -1);
            int32_t p = position_[k];
            if (p < 0) {
                p = position_[k] = size++;
                slot[p] = Slot{k, 0, 0.0};
            }
            ++slot[p].count;
            slot[p].cost += pair_cost(value[begin + t]);
        }
    }
    for (int32_t p = 0; p < size; ++p) position_[slot[p].cluster] = -1;
    point_[i].size = size;
    point_[i].stale = 0;
}

void LinkCountCache::moved(int64_t i, int32_t from, int32_t to) {
    if (!adj_ || from == to) return;
    const int64_t *neighbor = adj_->neighbor.data();
    const int64_t begin = adj_->indptr[i], end = adj_->indptr[i + 1];
    if (bulk_) {
        for (int64_t e = begin; e < end; ++e) point_[neighbor[e]].stale = 1;
        return;
    }
    // The neighbours are scattered in memory: their records, then their
    // slots, are requested for all of them before the first is updated, so
    // that the cache misses overlap.
    for (int64_t e = begin; e < end; ++e) __builtin_prefetch(&point_[neighbor[e]]);
    for (int64_t e = begin; e < end; ++e) __builtin_prefetch(slot_.data() + point_[neighbor[e]].first, 1);
    for (int64_t e = begin; e < end; ++e) {
        const int64_t j = neighbor[e];
        if (point_[j].stale) continue;  // gathered from the labels before use
        const double cost = pair_cost(adj_->value[e]);
        if (from >= 0) remove(j, from, cost);
        if (to >= 0) add(j, to, cost);
    }
}

void LinkCountCache::remove(int64_t j, int32_t k, double cost) {
    Slot *slot = slot_.data() + point_[j].first;
    const int32_t size = point_[j].size;
    int32_t p = 0;
    while (p < size && slot[p].cluster != k) ++p;
    if (p == size) return;  // not reached while the labels are those moved() was told about
    if (--slot[p].count > 0) {
        slot[p].cost -= cost;
        return;
    }
    slot[p] = slot[size - 1];  // the last neighbour left k: the last slot takes its place
    point_[j].size = size - 1;
}

void LinkCountCache::add(int64_t j, int32_t k, double cost) {
    Slot *slot = slot_.data() + point_[j].first;
    const int32_t size = point_[j].size;
    for (int32_t p = 0; p < size; ++p)
        if (slot[p].cluster == k) {
            ++slot[p].count;
            slot[p].cost += cost;
            return;
        }
    slot[size] = Slot{k, 1, cost};
    point_[j].size = size + 1;
}

void LinkCountCache::relabel(const int32_t *new_id) {
    if (!adj_) return;
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
