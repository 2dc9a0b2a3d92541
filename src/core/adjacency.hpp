// Symmetric adjacency of the pairs in CSR form (SideInfo::adjacency(), and
// the per-rank copy of algorithms/rank_adjacency.hpp): the neighbours of
// point p are entries indptr[p] .. indptr[p+1], entry e with neighbour
// neighbor(e) and the signed pair value value[e]. Within a row the entries
// follow SideInfo::pairs() order, which makes the neighbours ascending;
// consumers that walk a row rely on that order for their results, so it is
// part of the contract.
//
// Memory: 12 bytes an entry (two entries a pair) when every neighbour index
// fits in 32 bits, 16 otherwise. The neighbours are stored in 32 bits when
// the number of rows allows it, chosen once when the entries are sized; the
// library takes int64 sizes, so the 64-bit array stays for larger inputs.
// The index of an entry's pair in pairs() is not stored: the one consumer
// that needs it (the HMRF constraints) walks pairs() in order instead.
#ifndef KINDRED_CORE_ADJACENCY_HPP
#define KINDRED_CORE_ADJACENCY_HPP

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace kindred {

class Adjacency {
public:
    std::vector<int64_t> indptr;
    std::vector<double> value;

    // Whether neighbour indices below `rows` fit in the 32-bit array.
    static bool narrow_for(int64_t rows) { return rows <= std::numeric_limits<int32_t>::max(); }
    // Sizes value[] (keeping its first entries) and the neighbour array for
    // `entries` entries whose neighbours are below `rows`.
    void resize_entries(int64_t rows, size_t entries) {
        std::vector<int32_t>().swap(narrow_);
        std::vector<int64_t>().swap(wide_);
        if (narrow_for(rows)) narrow_.resize(entries);
        else wide_.resize(entries);
        value.resize(entries);
    }
    void set_neighbor(int64_t e, int64_t j) {
        if (wide_.empty()) narrow_[static_cast<size_t>(e)] = static_cast<int32_t>(j);
        else wide_[static_cast<size_t>(e)] = j;
    }
    // (An empty wide array means the narrow one: with no entries neither is read.)
    int64_t neighbor(int64_t e) const {
        return wide_.empty() ? static_cast<int64_t>(narrow_[static_cast<size_t>(e)]) : wide_[static_cast<size_t>(e)];
    }

private:
    std::vector<int32_t> narrow_;
    std::vector<int64_t> wide_;
};

// The symmetric CSR rows of pairs listed as (i, j) (anything with members i
// and j), by a counting sort on both ends: indptr gets n + 1 offsets, and
// set(e, q, other) is called for the two entries of the q-th pair, e in the
// row of each end, other the opposite end. Each row lists its entries in list
// order, so its neighbours ascend when the list is sorted by (i, j). The
// store's adjacency and the HMRF constraints' rows are both made by it.
template <class PairList, class Set>
void fill_pair_rows(int64_t n, const PairList &pairs, std::vector<int64_t> &indptr, Set set) {
    indptr.assign(static_cast<size_t>(n + 1), 0);
    for (const auto &p : pairs) {
        ++indptr[static_cast<size_t>(p.i + 1)];
        ++indptr[static_cast<size_t>(p.j + 1)];
    }
    for (int64_t k = 0; k < n; ++k) indptr[k + 1] += indptr[k];
    std::vector<int64_t> fill(indptr.begin(), indptr.end() - 1);  // released on return
    for (size_t q = 0; q < pairs.size(); ++q) {
        const auto &p = pairs[q];
        set(fill[static_cast<size_t>(p.i)]++, q, p.j);
        set(fill[static_cast<size_t>(p.j)]++, q, p.i);
    }
}

}  // namespace kindred

#endif
