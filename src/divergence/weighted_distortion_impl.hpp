// Pieces shared by the weighted distortions (internal to src/divergence).
#ifndef KINDRED_DIVERGENCE_WEIGHTED_DISTORTION_IMPL_HPP
#define KINDRED_DIVERGENCE_WEIGHTED_DISTORTION_IMPL_HPP

#include <cmath>
#include <memory>
#include <vector>

#include "divergence/weighted_distortion.hpp"

namespace kindred {
namespace divergence {

// The rows of the data as CSR (a dense input is stored without its zeros),
// so that cosine and I-divergence have one code path costing O(nnz).
// One row of SparseRows: its nnz non-zeros, columns ascending.
struct SparseRow {
    const int64_t *indices;
    const double *values;
    int64_t nnz;
};

struct SparseRows {
    int64_t n = 0, d = 0;
    std::vector<int64_t> indptr, indices;
    std::vector<double> values;
    SparseRows() = default;
    explicit SparseRows(const DataView &data);
    SparseRow row(int64_t i) const { return {indices.data() + indptr[i], values.data() + indptr[i], indptr[i + 1] - indptr[i]}; }
};

// Rayleigh prior on one parameter (3.10 with the width convention of its
// gradient 3.26): -log P(a) = -log a + a^2 / (2 s^2) + const.
inline double rayleigh_neg_log(double a, double s) { return -std::log(a) + a * a / (2.0 * s * s); }
inline double rayleigh_neg_log_grad(double a, double s) { return -1.0 / a + a / (s * s); }
// The regulariser of a distortion whose parameters are all diagonal weights
// (cosine, idiv): sum_m -log P(a_m) under the Rayleigh prior when prior, else 0.
inline double rayleigh_prior_of_weights(const std::vector<double> &a, bool prior, double s) {
    double r = 0.0;
    if (prior)
        for (double v : a) r += rayleigh_neg_log(v, s);
    return r;
}

// a_m <- max(a_m, rel_floor * mean(a)), and never below 1e-300.
void floor_weights(std::vector<double> &a, double rel_floor);

// Arithmetic means of the points of each cluster; empty clusters keep their
// centre. ranks: those of a sharded fit (data: this rank's rows), or null.
void mean_centroids(const DataView &data, const int32_t *labels, int64_t k, int threads, std::vector<double> &centers,
                    const Collective *ranks = nullptr);

// The sums over the points of each cluster (labels outside [0, k) skipped)
// of x_i, or of x_i / divisor[i] when divisor is given, then the counts:
// k x d sums and k counts (integers, exact as doubles), in index order; on
// several ranks (ranks not null; x: this rank's rows) one pass over them in
// the order of the rows (Collective::in_turn), the additions of one process.
std::vector<double> sparse_cluster_sums(const SparseRows &x, const int32_t *labels, int64_t k, const double *divisor,
                                        const Collective *ranks);

std::unique_ptr<WeightedDistortion> make_euclidean(bool full, const DataView &data, int threads, PhiMaxRule rule);
// first_row: the global index of data's first row (the rows named in errors).
std::unique_ptr<WeightedDistortion> make_cosine(const DataView &data, int threads, const char *algorithm,
                                                int64_t first_row);
std::unique_ptr<WeightedDistortion> make_idivergence(const DataView &data, int threads, double smoothing,
                                                     const char *algorithm, int64_t first_row);

}  // namespace divergence
}  // namespace kindred

#endif
