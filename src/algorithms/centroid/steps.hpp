// The steps shared by the centre-based methods (k-means, DP-means, GMM
// initialisation, and the constrained k-means family): k-means++ seeding and
// nearest-centre assignment by blocked GEMM (their deterministic centre sums
// are core/label_sums.hpp's cluster_sums).
#ifndef KINDRED_ALGORITHMS_CENTROID_STEPS_HPP
#define KINDRED_ALGORITHMS_CENTROID_STEPS_HPP

#include <cstdint>
#include <functional>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "core/collective.hpp"
#include "core/rng.hpp"

namespace kindred {

// Rows per block of the nearest-centre steps (NearestCenter and
// BoundedNearest): about 2^17 distances (1 MB, one core's L2 cache), at
// least 256 rows so that the GEMM stays efficient.
int64_t nearest_block_rows(int64_t k);

// Squared distances of all points to k centres, one block of rows at a time;
// holds its scratch so that a fit allocates it once.
class NearestCenter {
public:
    NearestCenter(const DataView &data, int threads);
    // labels[i] = argmin_c |x_i - c|^2 (ties to the smaller c), dist[i] = that minimum.
    void assign(const double *centers, int64_t k, int32_t *labels, double *dist);
    const std::vector<double> &x_sqnorm() const { return x_sqnorm_; }

private:
    const DataView &data_;
    int threads_;
    std::vector<double> x_sqnorm_, block_;
};

// k-means++ (Arthur & Vassilvitskii), greedy variant: each new centre is the
// best of 2 + ln(k) D^2-weighted candidates by resulting potential.
// threads: the library's own threads (used when OpenBLAS runs single-threaded);
// the centres do not depend on it. collective: the ranks of a sharded fit
// (data = this rank's rows), or null for one process; the centres are the
// same for any number of ranks (D^2 sampling draws the chunk of
// Collective::kChunk rows by the chunks' totals, then the point in it).
//
// metric: null for the Euclidean distance, or M (d x d, symmetric) for
// |x - y|^2_M = x^T M x - 2 x^T (M y) + y^T M y (a whitened fit on the
// points as given, algorithms/relevant_components.hpp); x_sqnorm then holds
// x^T M x (metric_row_sqnorms). The centres are points as given.
std::vector<double> kmeanspp_centers(const DataView &data, int64_t k, Rng &rng, const std::vector<double> &x_sqnorm,
                                     int threads = 1, const Collective *collective = nullptr,
                                     const double *metric = nullptr);

// The start of the DP-type methods when lambda is chosen from the pairs
// (init = dsquared; docs/algorithms/baselines.md): the same greedy D^2
// seeding from the global mean, adding centres while the best candidate
// lowers sum_i min_c |x_i - c|^2 by more than lambda, which is what a
// cluster costs in the DP-means objective. Algorithm 1's single starting
// cluster opens a cluster only at a point farther than lambda from every
// centre, so at a lambda where a few clusters pay for themselves it keeps
// one (z-scored wine: one cluster down to lambda 40, five at 30), and the
// clusters it does open start on outlying points. Returns the centres
// (rows of d); split-invariant as kmeanspp_centers.
std::vector<double> dp_seed_centers(const DataView &data, double lambda, Rng &rng, const std::vector<double> &x_sqnorm,
                                    int threads = 1, const Collective *collective = nullptr);
// Candidates per added centre of dp_seed_centers (the greedy variant's
// 2 + ln k at k = 3: the number of centres is not known beforehand), and
// its seedings, each from its own generator derived from rng: the one of
// the lowest DP-means objective (squared distances + lambda per centre) is kept.
constexpr int64_t kDpSeedTrials = 3;
constexpr int64_t kDpSeedings = 5;

// x_i^T M x_i for every row (M: d x d, row-major, symmetric).
std::vector<double> metric_row_sqnorms(const DataView &data, const std::vector<double> &metric);

// The k rows M c_h of row-major centres c (k x d), and c_h^T M c_h in c_sq:
// what linalg::sq_distances takes as centres and their squared norms to
// give |x - c_h|^2_M with x_sqnorm = x^T M x.
std::vector<double> metric_centers(const double *centers, int64_t k, int64_t d, const double *metric,
                                   std::vector<double> &c_sq);

// Farthest-first traversal from the global mean (as in the RDP-means paper's
// experiments): the squared distance at which the k-th centre is picked; a
// lambda that makes DP-type methods open about k clusters.
// collective: the ranks of a sharded fit, or null (the same value for any split).
double farthest_first_lambda(const DataView &data, int64_t k, const Collective *collective = nullptr);

// The lambda of a DP-type method: the option as given or, unset, derived
// from the hint k by derive(k) (a farthest-first heuristic); fails, naming
// the method, when neither is set or k exceeds the points of all the ranks.
double lambda_given_or_derived(const FitContext &ctx, const Collective &ranks, const char *method,
                               const std::function<double(int64_t)> &derive);

// Labels of the library's kmeans (k-means++, best of n_init restarts) on
// data, with ctx's progress, log and threads and the given seed: for methods
// that start from a k-means partition of some derived data. collective: the
// ranks of a sharded fit, data being this rank's rows (whole chunks), or null.
std::vector<int32_t> kmeans_labels(const FitContext &ctx, const DataView &data, int64_t k, int64_t n_init,
                                   int64_t seed, const Collective *collective = nullptr);

// predict for models that store "centers" (k x d): nearest centre.
void predict_nearest_center(const PredictContext &ctx, int32_t *labels);

// sum_i |x_i - mean|^2 over all points, by chunk sums (the same for any
// split over the ranks of collective; null: one process): the potential of
// one centre at the mean, the top of the lambda grid of the dsquared start.
double total_sq_from_mean(const DataView &data, const Collective *collective = nullptr);

// Mean over all points (d values), by chunk sums (core/collective.hpp): the
// same bits for any split over the ranks of collective (null: one process).
std::vector<double> global_mean(const DataView &data, const Collective *collective = nullptr);

}  // namespace kindred

#endif
