// The link terms g_ik of every point (link_count_cache.hpp) for the first
// kClusters clusters, kept between passes as one signed byte per cluster:
// where few points move and most read their links (the late passes of the
// annealing), a point reads its 32 bytes, one line, instead of gathering
// its neighbours' labels (deg random reads), and a move updates its
// neighbours' bytes (deg random writes). Exact: every g_ik is an integer
// with |g_ik| <= the point's sum of |terms|, which possible() requires to be
// at most 127, and the bytes add modulo 256, so every sum comes out as the
// integer it is.
//
// Memory: 32 bytes per point, allocated by the first build().
#ifndef KINDRED_ALGORITHMS_LINK_TERM_BYTES_HPP
#define KINDRED_ALGORITHMS_LINK_TERM_BYTES_HPP

#include <cstdint>
#include <vector>

#include "algorithms/link_count_cache.hpp"

namespace kindred {

class LinkTermBytes {
public:
    static constexpr int64_t kClusters = 32;  // cluster ids 0 .. 31

    // allow_avx2 false: the scalar form of moved() even where the processor
    // has AVX2 (for tests; the same bytes).
    explicit LinkTermBytes(const LinkCountCache &links, bool allow_avx2 = true)
        : links_(links), allow_avx2_(allow_avx2) {}

    // Whether the terms of every point fit (LinkCountCache::byte_rows).
    bool possible() const { return links_.byte_rows(); }
    bool valid() const { return valid_; }
    void invalidate() { valid_ = false; }
    // Every point's bytes from the cache's label copy (which must hold the
    // labels, every id below kClusters).
    void build();
    // Point i's terms: g_ik = row(i)[k].
    const int8_t *row(int64_t i) const { return base_ + i * kClusters; }
    // Asks the memory system for the bytes of i's neighbours, which a move of
    // i updates.
    void prefetch_neighbours(int64_t i) const {
        const LinkCountCache::PackedRow r = links_.packed_row(i);
        for (int64_t e = 0; e < r.size; ++e)
            __builtin_prefetch(base_ + LinkCountCache::packed_neighbour(r.entry[e]) * kClusters, 1);
    }
    // Point i moved from cluster from to cluster to (both below kClusters):
    // its neighbours' bytes follow.
    void moved(int64_t i, int32_t from, int32_t to);
    // Cluster ids renamed c -> new_id[c] (for the clusters with members; the
    // others have every g 0).
    void relabel(const int32_t *new_id, int64_t k);

private:
    const LinkCountCache &links_;
    std::vector<int8_t> bytes_;
    int8_t *base_ = nullptr;  // bytes_ from its first 32-byte boundary: a point's bytes in one line
    bool valid_ = false;
    bool allow_avx2_;
    bool wide_ = false;  // the AVX2 form of moved()
};

}  // namespace kindred

#endif
