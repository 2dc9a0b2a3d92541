// Per-label sums of the points, w_i x_i and w_i, the same bits for any
// number of threads, in memory linear in the input: the one place where the
// centre-based methods (cluster_sums), the Bregman divergences and the
// HMRF distortions add up their clusters.
#ifndef KINDRED_CORE_LABEL_SUMS_HPP
#define KINDRED_CORE_LABEL_SUMS_HPP

#include <cstdint>
#include <vector>

#include "core/collective.hpp"
#include "core/data_view.hpp"

namespace kindred {

// sums (k x d) = sum of weight_i x_i, wsum (k, when not null) = sum of
// weight_i and counts (k) = number of points, over the points of each label
// in [0, k); other labels are skipped. weight: n values, or nullptr for 1.
//
// The order of the additions is fixed by `chunk` alone: a label's points of
// one chunk of `chunk` rows are added in index order starting from 0, and
// these chunk sums are added in chunk order. Results do not depend on
// threads, nor on which of the two ways below computes them (they make the
// same additions; a chunk without points of the label adds +0.0 in one way
// and nothing in the other, the same bits since the sums are never -0.0).
void label_sums(const DataView &data, const int32_t *labels, const double *weight, int64_t k, int64_t chunk,
                int threads, std::vector<double> &sums, std::vector<double> *wsum, std::vector<int64_t> &counts);

// sums (k x d) and counts (k) of the points of each label, unweighted, with
// the chunk of the centre-based methods (k-means, DP-means, COP-KMeans,
// TVClust, the HMRF Euclidean centroids). It lives here, not with their
// steps in algorithms/, because divergence/ needs it too and may not reach up.
void cluster_sums(const DataView &data, const int32_t *labels, int64_t k, int threads, std::vector<double> &sums,
                  std::vector<int64_t> &counts);

// The additions cluster_sums makes for rows [begin, end) of one chunk:
// chunk_sums (k x d) += x_i and chunk_counts (k) += 1 for each i in index
// order, labels outside [0, k) skipped. A caller that adds every row of a
// chunk, in order, into chunk sums started from 0, and adds those in chunk
// order to sums started from 0, gets cluster_sums's bits (k-means's bounded
// step does, while the rows are still in cache from its distances).
void add_rows_by_label(const DataView &data, const int32_t *labels, int64_t begin, int64_t end, int64_t k,
                       double *chunk_sums, int64_t *chunk_counts);

// Whether cluster_sums keeps one k x d block per chunk (chunks of `chunk`
// rows), the memory a caller computing chunk sums itself may also take;
// false when those blocks would outgrow the input (k near n / chunk or above).
bool chunk_blocks_fit(const DataView &data, int64_t k, int64_t chunk);

// cluster_sums over the rows of every rank of a sharded fit (data, labels:
// this rank's rows; core/collective.hpp): each chunk's sums from the rank
// that holds it, added in chunk order, the additions cluster_sums makes in
// one process. With a single-process Collective it is cluster_sums.
void cluster_sums(const DataView &data, const Collective &ranks, const int32_t *labels, int64_t k, int threads,
                  std::vector<double> &sums, std::vector<int64_t> &counts);

}  // namespace kindred

#endif
