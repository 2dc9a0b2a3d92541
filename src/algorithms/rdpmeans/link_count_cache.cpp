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
    // The layout (see the top of the file) from every pair's term and every
    // point's sum of |terms| (a bound on any of its g, in place or gathered).
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
    if (integer && largest_total < 32768.0) layout_ = Layout::narrow;
    else if (integer && largest_total < 1073741824.0) layout_ = Layout::wide_integer;
    else layout_ = Layout::counted;
    if (layout_ == Layout::narrow) narrow_.resize(static_cast<size_t>(nnz));
    else slot_.resize(static_cast<size_t>(nnz));
    if (layout_ == Layout::counted) cost_.resize(static_cast<size_t>(nnz));
    point_.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) point_[i] = Point{adj_->indptr[i], 0, 1};
    // Scratch of a gather, for the largest row (gather_once's slots in every
    // layout, since the narrow one can widen).
    cluster_.resize(static_cast<size_t>(largest_degree));
    once_narrow_.resize(static_cast<size_t>(largest_degree));
    once_slot_.resize(static_cast<size_t>(largest_degree));
    once_cost_.resize(static_cast<size_t>(largest_degree));
    mean_degree_ = static_cast<double>(nnz) / static_cast<double>(std::max<int64_t>(n, 1));
}

void LinkCountCache::widen() {
    layout_ = Layout::wide_integer;
    std::vector<NarrowSlot>().swap(narrow_);
    slot_.resize(static_cast<size_t>(adj_->indptr.back()));
    invalidate();
}

int32_t LinkCountCache::gather(int64_t i, const int32_t *labels, NarrowSlot *narrow, Slot *slot, double *cost) {
    for (;;) {
        int32_t size;
        switch (layout_) {
            case Layout::narrow: size = gather_as<Layout::narrow>(i, labels, narrow, slot, cost); break;
            case Layout::wide_integer: size = gather_as<Layout::wide_integer>(i, labels, narrow, slot, cost); break;
            default: size = gather_as<Layout::counted>(i, labels, narrow, slot, cost); break;
        }
        if (size >= 0) return size;
        // The narrow layout widened on the way (every point stale): again, in
        // the wide layout. A caller's slot array for it now exists.
        if (slot == nullptr) slot = slot_.data() + point_[i].first;
    }
}

void LinkCountCache::refresh(int64_t i, const int32_t *labels) {
    const int64_t first = point_[i].first;
    NarrowSlot *narrow = layout_ == Layout::narrow ? narrow_.data() + first : nullptr;
    Slot *slot = layout_ == Layout::narrow ? nullptr : slot_.data() + first;
    double *cost = layout_ == Layout::counted ? cost_.data() + first : nullptr;
    point_[i].size = gather(i, labels, narrow, slot, cost);
    point_[i].stale = 0;
}

LinkCountCache::Slots LinkCountCache::gather_once(int64_t i, const int32_t *labels) {
    const int32_t size = gather(i, labels, once_narrow_.data(), once_slot_.data(), once_cost_.data());
    return Slots{layout_ == Layout::narrow ? once_narrow_.data() : nullptr,
                 layout_ == Layout::narrow ? nullptr : once_slot_.data(),
                 layout_ == Layout::counted ? once_cost_.data() : nullptr, size};
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
//    accumulator;
// 2. along the buffer again, the first neighbour in a cluster writes the slot
//    and clears the accumulator; every neighbour writes the next slot, but
//    only a first one keeps it.
// Integer layouts: the terms are summed as ints (exact, in any order, and
// without a conversion per term, which cost a fifth of a gather), and a slot
// is kept when its g != 0. Counted: the terms are summed as doubles in the
// order of LinkCounts::gather, beside the number of neighbours.
// The slots go to narrow (narrow layout) or slot (and cost: counted);
// returns their number, or -1 when a cluster id beyond the narrow range
// widened the cache (nothing written: gather again, see gather()).
template <LinkCountCache::Layout kLayout>
int32_t LinkCountCache::gather_as(int64_t i, const int32_t *labels, NarrowSlot *narrow, Slot *slot, double *cost) {
    const int64_t first = adj_->indptr[i], deg = adj_->indptr[i + 1] - first;
    int32_t *cluster = cluster_.data();  // sized for the largest row
    int32_t top = -1;
    for (int64_t t = 0; t < deg; ++t) {
        cluster[t] = labels[neighbour_at(first + t)];
        top = std::max(top, cluster[t]);
    }
    if (kLayout == Layout::narrow && top >= kNarrowClusters) {
        widen();
        return -1;
    }
    if (top >= static_cast<int32_t>(count_.size())) {
        count_.resize(static_cast<size_t>(top) * 2 + 8, 0);
        sum_.resize(count_.size(), 0.0);
    }
    // Integer layouts: g summed exactly in count (as an int); a cluster keeps
    // a slot when its g != 0. After the first neighbour in a cluster writes
    // its slot the accumulator is 0, so the later ones write a slot that is
    // not kept: no count of neighbours is needed. Counted: the number of
    // neighbours in count, g in sum.
    int32_t *count = count_.data();
    double *sum = sum_.data();
    for (int64_t t = 0; t < deg; ++t) {
        const int32_t k = cluster[t];
        if (k < 0) continue;  // unlabelled neighbour (never in RDP-means)
        if (kLayout == Layout::counted) {
            ++count[k];
            sum[k] += term_at(first + t);
        } else {
            count[k] += integer_term_at(first + t);
        }
    }
    int32_t size = 0;
    for (int64_t t = 0; t < deg; ++t) {
        const int32_t k = cluster[t];
        if (k < 0) continue;
        const int32_t c = count[k];
        count[k] = 0;
        if (kLayout == Layout::narrow) {
            narrow[size] = NarrowSlot{static_cast<uint16_t>(k), static_cast<int16_t>(c)};
        } else {
            slot[size] = Slot{k, c};
        }
        if (kLayout == Layout::counted) {
            cost[size] = sum[k];
            sum[k] = 0.0;
        }
        size += static_cast<int32_t>(c != 0);
    }
    return size;
}

double LinkCountCache::moved(int64_t i, const int32_t *labels, int32_t from, int32_t to, const double *own_change) {
    if (!adj_ || from == to) return 0.0;
    // i's own link change g_i,to - g_i,from (i's slots are not changed by
    // its own move: no pair joins a point to itself): as given, from its
    // slots when up to date, else from its neighbours' labels.
    const int64_t begin = adj_->indptr[i], end = adj_->indptr[i + 1];
    double change = 0.0;
    if (own_change) {
        change = *own_change;
    } else if (!untracked_ && !point_[i].stale) {
        const Slots s = view(i);
        change = s.cost_of(to) - s.cost_of(from);
    } else if (layout_ != Layout::counted) {
        // Integer terms, summed exactly (the row is read below anyway, for
        // the neighbours).
        int32_t to_sum = 0, from_sum = 0;
        for (int64_t e = begin; e < end; ++e) {
            const int32_t k = labels[neighbour_at(e)], term = integer_term_at(e);
            to_sum += k == to ? term : 0;
            from_sum += k == from ? term : 0;
        }
        change = static_cast<double>(to_sum) - static_cast<double>(from_sum);
    } else {
        // The same terms in the same order as a gather.
        double g_to = 0.0, g_from = 0.0;
        for (int64_t e = begin; e < end; ++e) {
            const int32_t k = labels[neighbour_at(e)];
            if (k == to) g_to += term_at(e);
            if (k == from) g_from += term_at(e);
        }
        change = g_to - g_from;
    }
    if (layout_ == Layout::narrow && to >= kNarrowClusters) {
        widen();  // every point is now stale: nothing to update
        return change;
    }
    if (untracked_) return change;  // every point is stale
    if (bulk_) {
        for (int64_t e = begin; e < end; ++e) point_[neighbour_at(e)].stale = 1;
        return change;
    }
    // The neighbours are scattered in memory: their records, then their
    // slots, are requested for all of them before the first is updated, so
    // that the cache misses overlap.
    for (int64_t e = begin; e < end; ++e) __builtin_prefetch(&point_[neighbour_at(e)]);
    for (int64_t e = begin; e < end; ++e) {
        const int64_t first = point_[neighbour_at(e)].first;
        if (layout_ == Layout::narrow) {
            __builtin_prefetch(narrow_.data() + first, 1);
        } else {
            __builtin_prefetch(slot_.data() + first, 1);
            if (layout_ == Layout::counted) __builtin_prefetch(cost_.data() + first, 1);
        }
    }
    for (int64_t e = begin; e < end; ++e) {
        const int64_t j = neighbour_at(e);
        if (point_[j].stale) continue;  // gathered from the labels before use
        const double cost = term_at(e);
        if (layout_ == Layout::counted) {
            if (from >= 0) remove_counted(j, from, cost);
            if (to >= 0) add_counted(j, to, cost);
            continue;
        }
        const int32_t term = static_cast<int32_t>(cost);
        if (term == 0) continue;
        if (layout_ == Layout::narrow) move_integer(narrow_.data(), j, from, to, term);
        else move_integer(slot_.data(), j, from, to, term);
    }
    return change;
}

// A neighbour of point j moved from cluster from to cluster to (either may be
// < 0: none), its pair's term `term`, in an integer layout: g_j,from -= term,
// then g_j,to += term; a slot whose g reaches 0 is dropped (the last slot
// takes its place), a cluster without a slot gets one. Both slots are found
// in one scan without branches (a scan per cluster that stopped at the match
// mispredicted where the match is), then updated in that order.
template <typename S>
void LinkCountCache::move_integer(S *slots, int64_t j, int32_t from, int32_t to, int32_t term) {
    S *slot = slots + point_[j].first;
    int32_t size = point_[j].size;
    int32_t at_from = -1, at_to = -1;
    for (int32_t p = 0; p < size; ++p) {
        const int32_t c = static_cast<int32_t>(slot[p].cluster);
        at_from = c == from ? p : at_from;
        at_to = c == to ? p : at_to;
    }
    const int64_t room = adj_->indptr[j + 1] - point_[j].first;  // slots j may hold: its degree
    // g_jk += t for the slot at `at` (or a new one); false when there is no
    // room for a new slot (not reached with labels that moved() was told
    // about: the slots with g != 0 never outnumber the neighbours; kept safe,
    // j is then gathered again before use).
    auto add = [&](int32_t k, int32_t at, int32_t t) {
        if (at < 0) {
            if (size >= room) return false;
            slot[size].cluster = static_cast<decltype(slot[size].cluster)>(k);
            slot[size].set_g(t);
            ++size;
            return true;
        }
        const int32_t g = slot[at].g_or_n() + t;
        if (g != 0) {
            slot[at].set_g(g);
        } else {
            slot[at] = slot[size - 1];
            --size;
        }
        return true;
    };
    if (from >= 0) {
        if (!add(from, at_from, -term)) {
            point_[j].stale = 1;
            return;
        }
        if (at_to == size) at_to = at_from;  // the last slot, moved into the place of a dropped one
    }
    if (to >= 0 && !add(to, at_to, term)) {
        point_[j].stale = 1;
        return;
    }
    point_[j].size = size;
}

void LinkCountCache::remove_counted(int64_t j, int32_t k, double cost) {
    Slot *slot = slot_.data() + point_[j].first;
    double *g = cost_.data() + point_[j].first;
    const int32_t size = point_[j].size;
    int32_t p = 0;
    while (p < size && slot[p].cluster != k) ++p;
    if (p == size) return;  // not reached while the labels are those moved() was told about
    if (--slot[p].n > 0) {
        g[p] -= cost;
        return;
    }
    // The last neighbour left k: the last slot takes its place.
    slot[p] = slot[size - 1];
    g[p] = g[size - 1];
    point_[j].size = size - 1;
}

void LinkCountCache::add_counted(int64_t j, int32_t k, double cost) {
    Slot *slot = slot_.data() + point_[j].first;
    double *g = cost_.data() + point_[j].first;
    const int32_t size = point_[j].size;
    for (int32_t p = 0; p < size; ++p)
        if (slot[p].cluster == k) {
            ++slot[p].n;
            g[p] += cost;
            return;
        }
    slot[size] = Slot{k, 1};
    g[size] = cost;
    point_[j].size = size + 1;
}

void LinkCountCache::relabel(const int32_t *new_id) {
    if (!adj_) return;
    for (const Point &pt : point_) {
        if (pt.stale) continue;  // gathered from the labels before use
        if (layout_ == Layout::narrow) {
            NarrowSlot *slot = narrow_.data() + pt.first;
            for (int32_t p = 0; p < pt.size; ++p) slot[p].cluster = static_cast<uint16_t>(new_id[slot[p].cluster]);
        } else {
            Slot *slot = slot_.data() + pt.first;
            for (int32_t p = 0; p < pt.size; ++p) slot[p].cluster = new_id[slot[p].cluster];
        }
    }
}

void LinkCountCache::invalidate() {
    for (Point &pt : point_) pt.stale = 1;
}

}  // namespace kindred
