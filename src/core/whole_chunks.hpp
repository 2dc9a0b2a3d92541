// Rows of a sequence that the ranks hold in contiguous pieces, moved so that
// each rank holds whole chunks of Collective::kChunk rows of that sequence
// (core/collective.hpp), and the labels computed on them sent back.
//
// capi/shard_api.cpp does this once for the points themselves. An algorithm
// that fits a model on a subset of the points (tcs-gm and tcs-vmf cluster the
// unlabelled points only) needs it again: a rank's share of the subset is
// contiguous in the subset's order, but its chunks are not those of the
// subset, so the rows of a subset chunk that straddles two ranks go to the
// rank holding the chunk's first row, which then computes on the blocks of
// the single-process fit of the subset.
#ifndef KINDRED_CORE_WHOLE_CHUNKS_HPP
#define KINDRED_CORE_WHOLE_CHUNKS_HPP

#include <cstdint>
#include <vector>

#include "core/collective.hpp"

namespace kindred {

struct WholeChunks {
    int64_t first = 0, n = 0;    // the rows [first, first + n) of the sequence, whole chunks (n = 0: none)
    std::vector<double> values;  // n x width, row-major
    // The piece this rank gave (to send the labels back): [piece_first, piece_first + piece_n).
    int64_t piece_first = 0, piece_n = 0;
};

// rows (moved from): this rank's piece [first, first + n) of a sequence of n_total rows of
// `width` values (the pieces of the ranks tile [0, n_total), in any order of
// ranks). Collective: every rank calls it. In one process the piece is all
// the rows and is returned as it is.
WholeChunks to_whole_chunks(const Collective &ranks, std::vector<double> rows, int64_t first, int64_t n, int64_t width,
                            int64_t n_total);

// The rows the next ranks lent, from their messages (each: the index of its
// first row, then its rows of `width` values), written into out, which
// holds the rows [own_begin, own_end); only the rows from `end` on (those
// this rank did not have) are taken.
void place_lent_rows(const std::vector<std::vector<char>> &moved, int64_t width, int64_t end, int64_t own_begin,
                     int64_t own_end, double *out);

// labels of the rows of `held` (held.n) -> labels of this rank's piece
// (held.piece_n), those of the rows it lent coming back from the ranks that
// held them. Collective.
std::vector<int32_t> labels_of_piece(const Collective &ranks, const WholeChunks &held, const std::vector<int32_t> &labels);

}  // namespace kindred

#endif
