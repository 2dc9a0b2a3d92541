#include "core/side_info.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace kindred {

DisjointSets::DisjointSets(int64_t n) : parent_(n), size_(n, 1) {
    for (int64_t k = 0; k < n; ++k) parent_[k] = k;
}

int64_t DisjointSets::find(int64_t x) {
    while (parent_[x] != x) {
        parent_[x] = parent_[parent_[x]];
        x = parent_[x];
    }
    return x;
}

void DisjointSets::unite(int64_t a, int64_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (size_[a] < size_[b]) std::swap(a, b);
    parent_[b] = a;
    size_[a] += size_[b];
}

std::vector<int64_t> must_link_components(int64_t n, const std::vector<Pair> &pairs, int64_t *count) {
    DisjointSets sets(n);
    for (const Pair &p : pairs)
        if (p.value > 0) sets.unite(p.i, p.j);
    std::vector<int64_t> component(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) component[k] = sets.find(k);
    // Numbered in place, without a table root -> id (8 bytes a point): in
    // ascending k, a root not yet numbered (component[r] == r) takes the
    // next id, stored as -(id + 1) at the root and at k; every later member
    // copies it from the root. A root r < k was numbered at r itself.
    int64_t ids = 0;
    for (int64_t k = 0; k < n; ++k) {
        const int64_t r = component[k];
        if (r < 0) continue;  // a root numbered by an earlier member
        if (component[r] >= 0) component[r] = -(++ids);
        component[k] = component[r];
    }
    for (int64_t &c : component) c = -c - 1;
    if (count) *count = ids;
    return component;
}

SideInfo::SideInfo(int64_t n) : n_(n) {
    if (n <= 0) fail(KINDRED_E_INVALID, "side information: n must be > 0, got ", n);
    rebuild();
}

SideInfo::SideInfo(int64_t n, std::vector<Pair> pairs, const std::vector<Triplet> &triplets,
                   const std::vector<int32_t> &labels)
    : n_(n), pairs_(std::move(pairs)), triplets_(triplets), labels_(labels) {
    rebuild();
}

void SideInfo::add_pairs(const int64_t *i, const int64_t *j, const double *value, int64_t count) {
    if (count < 0) fail(KINDRED_E_INVALID, "pairs: count must be >= 0, got ", count);
    if (count > 0 && (!i || !j || !value)) fail(KINDRED_E_INVALID, "pairs: i, j and value must not be NULL");
    for (int64_t e = 0; e < count; ++e) {
        if (i[e] < 0 || i[e] >= n_)
            fail(KINDRED_E_INDEX, "pairs: index ", i[e], " out of range for n = ", n_, " at entry ", e, " (i)");
        if (j[e] < 0 || j[e] >= n_)
            fail(KINDRED_E_INDEX, "pairs: index ", j[e], " out of range for n = ", n_, " at entry ", e, " (j)");
        if (i[e] == j[e]) fail(KINDRED_E_INVALID, "pairs: entry ", e, " joins point ", i[e], " to itself");
        if (!std::isfinite(value[e]))
            fail(KINDRED_E_INVALID, "pairs: value at entry ", e, " (", i[e], ", ", j[e], ") is not finite");
    }
    std::vector<Pair> merged = pairs_;
    merged.reserve(merged.size() + static_cast<size_t>(count));
    for (int64_t e = 0; e < count; ++e)
        merged.push_back({std::min(i[e], j[e]), std::max(i[e], j[e]), value[e]});
    std::stable_sort(merged.begin(), merged.end(), [](const Pair &x, const Pair &y) {
        return x.i != y.i ? x.i < y.i : x.j < y.j;
    });
    // Merged in place (the sort made equal pairs neighbours), so that the pairs are held once, not twice.
    size_t kept = 0;
    for (size_t e = 0; e < merged.size(); ++e) {
        if (kept > 0 && merged[kept - 1].i == merged[e].i && merged[kept - 1].j == merged[e].j)
            merged[kept - 1].value += merged[e].value;
        else
            merged[kept++] = merged[e];
    }
    merged.resize(kept);
    for (const Pair &p : merged)
        if (!std::isfinite(p.value))  // finite weights can sum to an infinite one
            fail(KINDRED_E_INVALID, "pairs: the values given for the pair (", p.i, ", ", p.j,
                 ") sum to an infinite weight; nothing was added");
    merged.erase(std::remove_if(merged.begin(), merged.end(), [](const Pair &p) { return p.value == 0.0; }), merged.end());
    // Rebuilt on a copy and moved in: an allocation failing inside rebuild()
    // must leave this store as it was, not new pairs with old derived views.
    // The copy takes only what rebuild() does not derive (copying the old
    // adjacency, components and units too held them twice, about 40 bytes a
    // point even for a store without pairs, while rebuild() discards them).
    SideInfo updated(n_, std::move(merged), triplets_, labels_);
    *this = std::move(updated);
}

void SideInfo::add_triplets(const int64_t *a, const int64_t *b, const int64_t *c, const int32_t *answer, int64_t count) {
    if (count < 0) fail(KINDRED_E_INVALID, "triplets: count must be >= 0, got ", count);
    if (count > 0 && (!a || !b || !c || !answer)) fail(KINDRED_E_INVALID, "triplets: a, b, c and answer must not be NULL");
    for (int64_t e = 0; e < count; ++e) {
        const int64_t idx[3] = {a[e], b[e], c[e]};
        const char *names[3] = {"a", "b", "c"};
        for (int k = 0; k < 3; ++k)
            if (idx[k] < 0 || idx[k] >= n_)
                fail(KINDRED_E_INDEX, "triplets: index ", idx[k], " out of range for n = ", n_, " at entry ", e, " (", names[k], ")");
        if (a[e] == b[e] || a[e] == c[e] || b[e] == c[e])
            fail(KINDRED_E_INVALID, "triplets: entry ", e, " (", a[e], ", ", b[e], ", ", c[e], ") repeats an index");
        if (answer[e] < -1 || answer[e] > 1)
            fail(KINDRED_E_INVALID, "triplets: answer at entry ", e, " is ", answer[e], "; must be 1 (yes), -1 (no) or 0 (don't know)");
    }
    // Appended to a copy: a failed allocation part way leaves no triplet added.
    std::vector<Triplet> all = triplets_;
    all.reserve(all.size() + static_cast<size_t>(count));
    for (int64_t e = 0; e < count; ++e) all.push_back({a[e], b[e], c[e], answer[e]});
    triplets_.swap(all);
}

void SideInfo::set_partial_labels(const int32_t *labels, int64_t n) {
    if (!labels) fail(KINDRED_E_INVALID, "partial labels: labels must not be NULL");
    if (n != n_) fail(KINDRED_E_DIMENSION, "partial labels: got ", n, " labels for n = ", n_, " points");
    for (int64_t p = 0; p < n; ++p)
        if (labels[p] < -1)
            fail(KINDRED_E_INVALID, "partial labels: label ", labels[p], " at point ", p, " (use -1 for unknown, else >= 0)");
    labels_.assign(labels, labels + n);
}

int64_t SideInfo::labelled_count() const {
    int64_t c = 0;
    for (int32_t l : labels_) c += l >= 0;
    return c;
}

void SideInfo::rebuild() {
    // Symmetric CSR adjacency by counting sort on both ends. Its scratch
    // (fill), like that of the components below (the union-find, 16 bytes a
    // point), is released before the propagation, whose own working set is
    // the peak of a rebuild.
    adjacency_.resize_entries(n_, 2 * pairs_.size());
    fill_pair_rows(n_, pairs_, adjacency_.indptr, [&](int64_t e, size_t q, int64_t other) {
        adjacency_.set_neighbor(e, other);
        adjacency_.value[static_cast<size_t>(e)] = pairs_[q].value;
    });
    component_ = must_link_components(n_, pairs_, &component_count_);
    inconsistent_.clear();
    for (const Pair &p : pairs_)
        if (p.value < 0 && component_[p.i] == component_[p.j]) inconsistent_.push_back(p);
    robust_ = propagate_constraints(n_, pairs_, Propagation::Robust);
}

}  // namespace kindred
