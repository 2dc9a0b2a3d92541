// The learned distortions of HMRF-KMeans (Basu, Bilenko, Banerjee & Mooney,
// "Probabilistic Semi-Supervised Clustering with Constraints", section 3.3.3):
//   euclidean-full  d_A(x, y) = (x - y)^T A (x - y), A symmetric PSD     (3.15)
//   euclidean-diag  the same with A = diag(a)
//   cosine          d_cosA(x, y) = 1 - x^T A y / (|x|_A |y|_A), A diagonal (3.17)
//   idiv            d_IA(x, y) = sum_m a_m (x_m log(x_m / y_m) - x_m + y_m)  (3.19)
// each with its constraint potential phi (3.11-3.13, 3.20), the bound phi_max,
// the regulariser -log P(A) (Rayleigh prior 3.10 / 3.26) plus n log Z_Theta
// (= -n log det A for the Euclidean case, 3.16), the centroid step (3.23,
// 3.24) and the gradients of (3.25)-(3.29).
//
// A distortion object is bound to the data of one fit; its parameters are a
// vector of d * d (full) or d (diagonal) values, row-major.
#ifndef KINDRED_DIVERGENCE_WEIGHTED_DISTORTION_HPP
#define KINDRED_DIVERGENCE_WEIGHTED_DISTORTION_HPP

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/collective.hpp"
#include "core/data_view.hpp"

namespace kindred {
namespace divergence {

enum class DistortionKind { EuclideanFull, EuclideanDiag, Cosine, IDivergence };

// Parses "euclidean-full" | "euclidean-diag" | "cosine" | "idiv".
DistortionKind distortion_kind(const std::string &name);
const char *distortion_name(DistortionKind kind);

// How phi_max is chosen for the Euclidean distortions (section 3.3.3.1):
// Sum: sum over all cannot-links of d_A (the paper's choice); Max: the
// largest d_A over the cannot-links (also an upper bound of every
// cannot-linked phi, so penalties stay non-negative, but much smaller).
enum class PhiMaxRule { Sum, Max };

// One weighted constraint: must (c_ij = 1) or cannot (c_ij = -1), weight w_ij > 0.
struct PairConstraint {
    int64_t i, j;
    double w;
    bool must;
};

// Everything the gradient of J_obj with respect to A needs (3.25, 3.28):
// the assignment and centres, and how J depends on each potential:
// dJ/dphi_p = pair_coef[p] (+w for a violated must-link, -w for a violated
// cannot-link, 0 otherwise), dJ/dphi_max = phimax_coef (sum of the weights
// of violated cannot-links).
struct GradientInput {
    const int32_t *labels;
    const double *centers;
    int64_t k;
    const std::vector<PairConstraint> *pairs;
    const std::vector<double> *pair_coef;
    double phimax_coef;
    bool prior;
    double rayleigh_s;
    // assigned_scatter for these labels and centres when the caller has it
    // (the metric step), so that gradient / closed_form do not compute it again.
    const std::vector<double> *scatter = nullptr;
};

class WeightedDistortion {
public:
    virtual ~WeightedDistortion() = default;

    DistortionKind kind() const { return kind_; }
    int64_t n() const { return n_; }
    int64_t d() const { return d_; }
    bool full_matrix() const { return kind_ == DistortionKind::EuclideanFull; }
    // Number of parameters: d * d (full) or d.
    int64_t param_count() const { return full_matrix() ? d_ * d_ : d_; }
    // A = I.
    std::vector<double> identity() const;
    const std::vector<double> &params() const { return a_; }
    // Sets A (validated by the caller: PSD / positive) and refreshes caches.
    virtual void set_params(const std::vector<double> &a) = 0;
    // A sharded fit (core/collective.hpp): the distortion holds this rank's
    // rows, and every sum over the points is taken over all the ranks' rows
    // with the additions of one process: the Euclidean centroids and the
    // full scatter by chunk sums, the other sums over the points (the
    // diagonal scatter, the cosine and idiv centroids and gradients, the
    // metric step's distortion term) as one pass over the ranks in index
    // order (Collective::in_turn); the log-determinant term counts all the
    // points. Null (the default): one process. Collective: every rank calls
    // it (cosine agrees there on whether any rank's data has a negative entry).
    virtual void set_ranks(const Collective *ranks) { ranks_ = ranks; }
    // Collective on every rank of a sharded fit: the rows of the ends of the
    // pairs, gathered once, so that phi and the pairs' part of the metric
    // update read them by global index on every rank alike. In one process
    // (no ranks) the rows are read where they are; the others do nothing.
    virtual void gather_pair_ends(const std::vector<PairConstraint> & /*pairs*/) {}

    // M-step (A): centres minimising sum_{i in X_h} d_A(x_i, mu_h) (3.23,
    // 3.24). centers is k x d; a cluster without points keeps its centre.
    virtual void centroids(const int32_t *labels, int64_t k, std::vector<double> &centers) const = 0;
    // out (n x k, row-major) = d_A(x_i, mu_h) for every point and centre.
    virtual void point_center_all(const double *centers, int64_t k, double *out) const = 0;
    // The same values one block of rows at a time, without writing the n x k
    // matrix out: after_rows(begin, end, rows) gets rows [begin, end) of it
    // (k values each, row-major) while they are in cache, in order of rows;
    // they are valid during the call only. work: n x k values the
    // implementation may use; by default it computes point_center_all there
    // and makes one call.
    virtual void point_center_blocks(const double *centers, int64_t k, double *work,
                                     const std::function<void(int64_t, int64_t, const double *)> &after_rows) const {
        point_center_all(centers, k, work);
        after_rows(0, n_, work);
    }
    // Whether point_center_blocks uses its work argument (the n x k values);
    // a caller that hands the blocks on without keeping them allocates the
    // n x k matrix only when it does.
    virtual bool blocks_need_work() const { return true; }
    // sum_i d_A(x_i, mu_{y_i}): the distortion term of J_obj (3.14) for the
    // given labels, from the blocks of point_center_blocks (work: as there);
    // the metric step's objective for the distortions without
    // assigned_scatter.
    virtual double assigned_distortion(const double *centers, int64_t k, const int32_t *labels, double *work) const {
        std::vector<double> own(static_cast<size_t>(n_));
        point_center_blocks(centers, k, work, [&](int64_t begin, int64_t end, const double *rows) {
            for (int64_t i = begin; i < end; ++i) own[i] = rows[(i - begin) * k + labels[i]];
        });
        double j = 0.0;
        pass_over_points(&j, 1, [&](double *s) {
            for (int64_t i = 0; i < n_; ++i) *s += own[i];
        });
        return j;
    }
    // For the Euclidean distortions, whose d_A is linear in A: the scatter S
    // of the points about their centres (d x d, or its diagonal for diagonal
    // weights) with sum_i d_A(x_i, mu_{y_i}) = sum_v A_v S_v, so that the
    // distortion term of any candidate A costs O(d^2) once S is known. The
    // others return false.
    virtual bool assigned_scatter(const double * /*centers*/, int64_t /*k*/, const int32_t * /*labels*/,
                                  std::vector<double> & /*scatter*/) const {
        return false;
    }
    // The squared Euclidean distortions only (the others return false and do
    // nothing): the blocks of point_center_blocks before they are finished,
    // for a caller that finishes each value where it reads it (one pass over
    // a block instead of two). after(begin, end, cross, x_sqnorm, c_sqnorm),
    // called for the blocks one after the other in ascending order of begin,
    // gets rows [begin, end) of -2 x_i.c_h (k values each, in cache, valid
    // during the call only), |x_i|^2 for all points (indexed by i) and the k
    // values |c_h|^2; point_center_blocks hands over
    // max(0, (cross + |x_i|^2) + |c_h|^2), these additions in this order
    // (finished_distance).
    using CrossBlock = std::function<void(int64_t, int64_t, const double *, const double *, const double *)>;
    virtual bool point_center_cross_blocks(const double * /*centers*/, int64_t /*k*/, const CrossBlock &) const {
        return false;
    }
    static double finished_distance(double cross, double x_sqnorm, double c_sqnorm) {
        return std::max(0.0, cross + x_sqnorm + c_sqnorm);
    }
    // Distortion between two centres (initialisation by farthest-first traversal).
    virtual double center_distance(const double *a, const double *b) const = 0;
    // phi(x_i, x_j) of (3.13): d_A for Euclidean and cosine, d_IMA (3.20) for idiv.
    virtual double phi(int64_t i, int64_t j) const = 0;
    // phi_max over the given cannot-links (section 3.3.3).
    virtual double phi_max(const std::vector<PairConstraint> &pairs) const = 0;
    // The same when phi[p] = phi(pairs[p].i, pairs[p].j) is known for every
    // pair (the same value; the Euclidean distortions need not recompute phi).
    virtual double phi_max_known(const std::vector<PairConstraint> &pairs, const std::vector<double> &) const {
        return phi_max(pairs);
    }
    // -log P(A) (Rayleigh, when prior) + n log Z_Theta (-n log det A, Euclidean only).
    virtual double regulariser(bool prior, double rayleigh_s) const = 0;
    // g (param_count values) = dJ_obj/dA at the current parameters (3.25 - 3.29).
    virtual void gradient(const GradientInput &in, std::vector<double> &g) const = 0;
    // Projects a onto the feasible set: PSD with eigenvalues >= floor (full,
    // by dsyevr) or weights >= floor (diagonal); floor = rel_floor * mean
    // eigenvalue (weight) of a, and never below 1e-300.
    virtual void project(std::vector<double> &a, double rel_floor) const = 0;
    // The closed-form minimiser of the linear part of J plus -n log det A (+
    // the Rayleigh prior on the diagonal for euclidean-diag), Bilenko et al.
    // 2004. Only the Euclidean distortions have one; others return false.
    virtual bool closed_form(const GradientInput &, double /*rel_floor*/, std::vector<double> &) const { return false; }

protected:
    WeightedDistortion(DistortionKind kind, int64_t n, int64_t d) : kind_(kind), n_(n), d_(d) {}
    // A running sum over all the points in index order (state: count values
    // that step adds this rank's rows to): the ranks' parts in turn
    // (Collective::in_turn), or step itself in one process.
    void pass_over_points(double *state, size_t count, const std::function<void(double *)> &step) const {
        if (ranks_)
            ranks_->in_turn(state, count, step);
        else
            step(state);
    }
    // The n of n log Z_Theta (3.16): all the points, over the ranks of a sharded fit.
    double n_points() const { return static_cast<double>(ranks_ ? ranks_->n_total() : n_); }
    DistortionKind kind_;
    int64_t n_, d_;
    std::vector<double> a_;
    const Collective *ranks_ = nullptr;
};

// Builds the distortion for the data of a fit. Euclidean distortions need
// dense data (KINDRED_E_INVALID otherwise); cosine rejects zero rows and
// idiv rejects negative entries (KINDRED_E_INVALID naming the row / column).
// smoothing is alpha of (3.23) (idiv only). first_row: the global index of
// data's first row in a sharded fit, so that errors name the point by it.
std::unique_ptr<WeightedDistortion> make_distortion(DistortionKind kind, const DataView &data, int threads,
                                                    PhiMaxRule phi_max_rule, double smoothing,
                                                    const char *algorithm, int64_t first_row = 0);

}  // namespace divergence
}  // namespace kindred

#endif
