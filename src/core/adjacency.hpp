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
    // The bytes of entries [begin, end) of the neighbour array, for prefetching.
    const char *neighbor_bytes(int64_t e) const {
        return wide_.empty() ? reinterpret_cast<const char *>(narrow_.data() + e)
                             : reinterpret_cast<const char *>(wide_.data() + e);
    }

private:
    std::vector<int32_t> narrow_;
    std::vector<int64_t> wide_;
};

}  // namespace kindred

#endif
