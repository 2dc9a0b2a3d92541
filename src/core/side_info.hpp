// Side information about n points: pairs (must-link > 0, cannot-link < 0,
// weight = |value|), triplets (a, b, c, answer) and partial labels. Derived
// structures (symmetric CSR adjacency, must-link components, cannot-links
// inside a component) are rebuilt eagerly after every change of the pairs,
// not lazily on first read: a const SideInfo is read by several fits at once
// without a lock, and a fit pays nothing for them. Consumers take the
// adjacency from here rather than rebuilding compressed rows from pairs().
#ifndef KINDRED_CORE_SIDE_INFO_HPP
#define KINDRED_CORE_SIDE_INFO_HPP

#include <cstdint>
#include <vector>

#include "core/adjacency.hpp"
#include "core/constraint_propagation.hpp"

namespace kindred {

struct Pair {
    int64_t i, j;  // i < j
    double value;  // > 0 must-link, < 0 cannot-link
};

struct Triplet {
    int64_t a, b, c;
    int32_t answer;  // +1: a closer to b; -1: closer to c; 0: don't know
};

class SideInfo {
public:
    explicit SideInfo(int64_t n);

    int64_t n() const { return n_; }

    // Each validates the whole batch before changing anything (Error on the
    // first bad entry, naming it).
    void add_pairs(const int64_t *i, const int64_t *j, const double *value, int64_t count);
    void add_triplets(const int64_t *a, const int64_t *b, const int64_t *c, const int32_t *answer, int64_t count);
    void set_partial_labels(const int32_t *labels, int64_t n);

    const std::vector<Pair> &pairs() const { return pairs_; }  // distinct, sorted by (i, j)
    const std::vector<Triplet> &triplets() const { return triplets_; }
    bool has_partial_labels() const { return !labels_.empty(); }
    const std::vector<int32_t> &partial_labels() const { return labels_; }  // empty, or n entries
    int64_t labelled_count() const;

    const Adjacency &adjacency() const { return adjacency_; }
    // Component id of each point (0, 1, ... in order of smallest member) and their number.
    const std::vector<int64_t> &component() const { return component_; }
    int64_t component_count() const { return component_count_; }
    // Cannot-links whose ends share a must-link component.
    const std::vector<Pair> &inconsistent() const { return inconsistent_; }
    // The robust units of the propagated constraints
    // (core/constraint_propagation.hpp), derived once per change of the
    // pairs so that every fit reads the same units (the transitive ones are
    // the components above, turned into units by a fit that asks for them).
    const PropagatedConstraints &robust_units() const { return robust_; }

private:
    // A store of these pairs (distinct, sorted), triplets and labels, its
    // derived views built (add_pairs' copy, built before it replaces *this).
    SideInfo(int64_t n, std::vector<Pair> pairs, const std::vector<Triplet> &triplets,
             const std::vector<int32_t> &labels);
    void rebuild();

    int64_t n_;
    std::vector<Pair> pairs_;
    std::vector<Triplet> triplets_;
    std::vector<int32_t> labels_;
    Adjacency adjacency_;
    std::vector<int64_t> component_;
    int64_t component_count_ = 0;
    std::vector<Pair> inconsistent_;
    PropagatedConstraints robust_;
};

// Union-find over n elements with path halving and union by size.
class DisjointSets {
public:
    explicit DisjointSets(int64_t n);
    int64_t find(int64_t x);
    void unite(int64_t a, int64_t b);

private:
    std::vector<int64_t> parent_, size_;
};

// The must-link components (the closure of the pairs of value > 0) of n
// points: each point's, numbered 0, 1, ... in order of smallest member, and
// their number in *count. The store's component() and the transitive units.
std::vector<int64_t> must_link_components(int64_t n, const std::vector<Pair> &pairs, int64_t *count = nullptr);

}  // namespace kindred

#endif
