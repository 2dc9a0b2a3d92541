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
    size_.assign(static_cast<size_t>(n), 0);
    stale_.assign(static_cast<size_t>(n), 1);
    mean_degree_ = static_cast<double>(adj_->indptr.back()) / static_cast<double>(std::max<int64_t>(n, 1));
}

// The sums of LinkCounts::gather, in the same order.
void LinkCountCache::refresh(int64_t i, const int32_t *labels) {
    Slot *slot = slot_.data() + adj_->indptr[i];
    int32_t size = 0;
    for (int64_t e = adj_->indptr[i]; e < adj_->indptr[i + 1]; ++e) {
        const int32_t k = labels[adj_->neighbor[e]];
        if (k < 0) continue;
        if (k >= static_cast<int32_t>(position_.size())) position_.resize(static_cast<size_t>(k) * 2 + 8, -1);
        int32_t p = position_[k];
        if (p < 0) {
            p = position_[k] = size++;
            slot[p] = Slot{k, 0, 0.0};
        }
        ++slot[p].count;
        slot[p].cost += pair_cost(adj_->value[e]);
    }
    for (int32_t p = 0; p < size; ++p) position_[slot[p].cluster] = -1;
    size_[i] = size;
    stale_[i] = 0;
}

void LinkCountCache::moved(int64_t i, int32_t from, int32_t to) {
    if (!adj_ || from == to) return;
    for (int64_t e = adj_->indptr[i]; e < adj_->indptr[i + 1]; ++e) {
        const int64_t j = adj_->neighbor[e];
        if (bulk_) {
            stale_[j] = 1;
            continue;
        }
        if (stale_[j]) continue;  // gathered from the labels before use
        const double cost = pair_cost(adj_->value[e]);
        if (from >= 0) remove(j, from, cost);
        if (to >= 0) add(j, to, cost);
    }
}

void LinkCountCache::remove(int64_t j, int32_t k, double cost) {
    Slot *slot = slot_.data() + adj_->indptr[j];
    const int32_t size = size_[j];
    int32_t p = 0;
    while (p < size && slot[p].cluster != k) ++p;
    if (p == size) return;  // not reached while the labels are those moved() was told about
    if (--slot[p].count > 0) {
        slot[p].cost -= cost;
        return;
    }
    slot[p] = slot[size - 1];  // the last neighbour left k: the last slot takes its place
    size_[j] = size - 1;
}

void LinkCountCache::add(int64_t j, int32_t k, double cost) {
    Slot *slot = slot_.data() + adj_->indptr[j];
    const int32_t size = size_[j];
    for (int32_t p = 0; p < size; ++p)
        if (slot[p].cluster == k) {
            ++slot[p].count;
            slot[p].cost += cost;
            return;
        }
    slot[size] = Slot{k, 1, cost};
    size_[j] = size + 1;
}

void LinkCountCache::relabel(const int32_t *new_id) {
    if (!adj_) return;
    const int64_t n = static_cast<int64_t>(size_.size());
    for (int64_t i = 0; i < n; ++i) {
        if (stale_[i]) continue;  // gathered from the labels before use
        Slot *slot = slot_.data() + adj_->indptr[i];
        for (int32_t p = 0; p < size_[i]; ++p) slot[p].cluster = new_id[slot[p].cluster];
    }
}

void LinkCountCache::invalidate() { std::fill(stale_.begin(), stale_.end(), 1); }

}  // namespace kindred
