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
// A pass visits the points in blocks of block_rows, in order, and a point
// must see the moves made before its turn. A move's updates of neighbours in
// other blocks are not made at once (each would wait for a random line of
// the bytes: 3 MB at 1e5 points, 32 MB at 1e6; a move cost 600 to 1500
// cycles that way on the development machine) but appended to their block's
// list, which the pass makes when it enters that block (enter_block), in this
// pass or the next: its rows are then 64 KB at 2048 rows, in a core's cache.
// Updates within the pass's current block are made at once.
//
// Memory: 32 bytes per point, allocated by the first build(), and 8 bytes
// per update waiting in a list.
#ifndef KINDRED_ALGORITHMS_RDPMEANS_LINK_TERM_BYTES_HPP
#define KINDRED_ALGORITHMS_RDPMEANS_LINK_TERM_BYTES_HPP

#include <cstdint>
#include <vector>

#include "algorithms/rdpmeans/link_count_cache.hpp"

namespace kindred {

class LinkTermBytes {
public:
    static constexpr int64_t kClusters = 32;  // cluster ids 0 .. 31

    // block_rows: the rows of a pass's blocks (enter_block), a power of 2
    // (the block of a row is a shift, not a division).
    LinkTermBytes(const LinkCountCache &links, int64_t block_rows)
        : links_(links), block_shift_(shift_of(block_rows)) {}

    // Whether the terms of every point fit (LinkCountCache::byte_rows).
    bool possible() const { return links_.byte_rows(); }
    bool valid() const { return valid_; }
    // Drops the bytes and every waiting update.
    void invalidate();
    // Every point's bytes from the cache's label copy (which must hold the
    // labels, every id below kClusters).
    void build();
    // The pass enters the block starting at row begin (a multiple of
    // block_rows): the updates waiting for it are made.
    void enter_block(int64_t begin);
    // Point i's terms, g_ik = row(i)[k], once its block has been entered.
    const int8_t *row(int64_t i) const { return base_ + i * kClusters; }
    // Point i, in the block the pass is in, moved from cluster from to
    // cluster to (both below kClusters): its neighbours' bytes follow.
    void moved(int64_t i, int32_t from, int32_t to);
    // Cluster ids renamed c -> new_id[c] (for the clusters with members; the
    // others have every g 0), after every waiting update is made.
    void relabel(const int32_t *new_id, int64_t k);

private:
    static int shift_of(int64_t block_rows) {
        int shift = 0;
        while ((int64_t(1) << (shift + 1)) <= block_rows) ++shift;
        return shift;  // block_rows rounded down to a power of 2
    }
    struct Update {
        int32_t point;
        int8_t from, to, term;
    };
    void apply(int64_t j, int32_t from, int32_t to, int32_t term) {
        int8_t *out = base_ + j * kClusters;
        out[from] = static_cast<int8_t>(out[from] - term);
        out[to] = static_cast<int8_t>(out[to] + term);
    }

    const LinkCountCache &links_;
    int block_shift_;  // a row's block: row >> block_shift_
    std::vector<int8_t> bytes_;
    int8_t *base_ = nullptr;  // bytes_ from its first 32-byte boundary: a point's bytes in one line
    bool valid_ = false;
    std::vector<std::vector<Update>> waiting_;  // per block, in the order of the moves
};

}  // namespace kindred

#endif
