// Nearest-centre assignment that skips the points whose centre cannot
// change (Hamerly, "Making k-means even faster", SDM 2010): each point keeps
// an upper bound u on its distance to its centre and a lower bound l on its
// distance to every other centre. When the centres move, u grows by the
// shift of the point's centre and l shrinks by the largest shift of another
// centre; a point with u < max(l, 2 s(a) - u), s(a) half the distance from
// its centre to the nearest other one, keeps its centre (the triangle
// inequality), and only the others get distances to every centre: with at
// most 16 centres by linalg/small_k_cross.hpp on the rows in place, else by
// GEMM on the gathered rows.
//
// The same labels as NearestCenter::assign (the blocked-GEMM Lloyd step):
// the skip test compares squared bounds with a margin tau_i = 1e-9 (|x_i|^2 +
// max_c |c|^2), far above the rounding of the GEMM form |x|^2 + |c|^2 - 2 x.c
// (about d * 2^-53 times the same) and of the bounds' own updates, so a
// skipped point is one whose GEMM argmin is its current centre. A point
// recomputed gets NearestCenter's values up to rounding (the small-k
// kernel's sums, or GEMM on gathered rows, may round the last bits
// differently from GEMM on the rows in place; a label can then differ only
// where two centres tie to those bits).
// With dist, dist[i] of a skipped point is its squared distance computed
// directly, (x_i - c)^2, of a recomputed one the GEMM value (the sum, the
// inertia, is the blocked step's up to rounding); without it (NULL), a point
// whose bounds alone decide is not read at all, which is where the time goes
// once the clusters settle.
//
// Memory: three values per point (u, l, and the label it already has).
#ifndef KINDRED_ALGORITHMS_CENTROID_BOUNDED_NEAREST_HPP
#define KINDRED_ALGORITHMS_CENTROID_BOUNDED_NEAREST_HPP

#include <cstdint>
#include <vector>

#include "core/data_view.hpp"

namespace kindred {

class BoundedNearest {
public:
    BoundedNearest(const DataView &data, int threads, const std::vector<double> &x_sqnorm);
    // Forget the bounds: the next assign computes every distance (a new start).
    void reset() { have_bounds_ = false; }
    // labels[i] = argmin_c |x_i - c|^2 (ties to the smaller c), dist[i] = that
    // minimum (dist may be NULL). labels must hold the previous call's labels
    // (it is read).
    //
    // chunk_sums (may be NULL): also the cluster sums of the new labels, per
    // chunk of Collective::kChunk rows, k d + k values per chunk (the sums of
    // each label, then its count), each chunk's sums made by
    // add_rows_by_label from 0 (core/label_sums.hpp), in the same pass as
    // the labels. Added in chunk order (Collective::sum_chunks), they are
    // cluster_sums's bits, for one process or a rank of a sharded fit.
    // Keeps the chunks x (k d + k) values; the caller checks
    // chunk_blocks_fit.
    void assign(const double *centers, int64_t k, int32_t *labels, double *dist,
                std::vector<double> *chunk_sums = nullptr);
    // Whether assign should make the sums (chunk_sums) for k centres: when
    // their chunk blocks fit (chunk_blocks_fit), and when its threads have
    // whole chunks to share (a task is then a chunk of kChunk rows, not a
    // block; with fewer than two chunks per thread the separate passes keep
    // the threads busier than one pass would).
    bool sums_in_pass(int64_t k) const;
    // Points whose distances to every centre the last assign computed.
    int64_t recomputed() const { return recomputed_; }

private:
    const DataView &data_;
    int threads_;
    const std::vector<double> &x_sqnorm_;
    std::vector<double> upper_, lower_, old_centers_;
    std::vector<double> scratch_;  // per worker: gathered rows and their distance block
    bool have_bounds_ = false;
    int64_t recomputed_ = 0;
};

}  // namespace kindred

#endif
