// Gaussian likelihood with the conjugate Normal-Inverse-Wishart base measure
// G0 = NIW(mu_0, kappa_0, nu_0, Psi_0) (Khashabi et al. section 3.1: "the base
// measure often chosen for Gaussian families"), collapsed: the predictive of
// a point given the points of a cluster is the multivariate Student-t
//     t_{nu_n - d + 1}(mu_n, Psi_n (kappa_n + 1) / (kappa_n (nu_n - d + 1)))
// with kappa_n = kappa_0 + n, nu_n = nu_0 + n, mu_n = (kappa_0 mu_0 + sum x) / kappa_n,
// Psi_n = Psi_0 + sum x x^T + kappa_0 mu_0 mu_0^T - kappa_n mu_n mu_n^T
// (Murphy 2007, "Conjugate Bayesian analysis of the Gaussian distribution", eqs. 250-254, 258).
//
// Each slot keeps the Cholesky factor L of Psi_n (cholesky_factor.hpp),
// updated by one rank-one update when a point joins,
// Psi_n+1 = Psi_n + kappa_n/(kappa_n+1) (x - mu_n)(x - mu_n)^T, and one rank-one
// downdate when it leaves, so a move costs O(d^2); refresh() refactors the
// slots that changed from their sums (O(d^3) per slot, once per sweep)
// against rounding drift. A predictive needs the quadratic form
// r = (x - mu_n)^T Psi_n^{-1} (x - mu_n), which each slot keeps for every
// point through its rank-one changes (quadratic_forms.hpp: O(d) per pending
// change, a solve only when the form cannot be updated), and one log1p: the
// slot also keeps mu_n, 1 / diag(L) and log |Psi_n|, the parts of the
// Student-t constant that depend only on n are tabulated by n, and the prior
// predictive of each point (the empty slot never changes) is computed once.
// The predictive of a point against its own cluster without it needs no
// downdate (log_predictive_without). The points are centred on their mean
// (mu_0 = data mean), which keeps the subtraction in Psi_n well conditioned.
#ifndef KINDRED_ALGORITHMS_TVCLUST_NIW_GAUSSIAN_HPP
#define KINDRED_ALGORITHMS_TVCLUST_NIW_GAUSSIAN_HPP

#include <cstdint>
#include <vector>

#include "algorithms/tvclust/cholesky_factor.hpp"
#include "algorithms/tvclust/cluster_likelihood.hpp"
#include "algorithms/tvclust/quadratic_forms.hpp"
#include "core/collective.hpp"
#include "core/data_view.hpp"

namespace kindred {
namespace tvclust {

struct NiwPrior {
    double kappa_0 = 0.1;
    double nu_0 = 0;                // > d - 1
    std::vector<double> psi_0;      // d x d, symmetric positive definite
    std::vector<double> mu_0;       // d
};

// mu_0 = mean of the data, nu_0 as given (0: d + 2), Psi_0 = cov_scale *
// diag(variance of each column), a column of zero variance getting a floor of
// 1e-9 * max(1, largest variance) so that Psi_0 stays positive definite.
// With ranks (a sharded fit, data = this rank's rows), the mean and the
// variances are those of all the points, as chunk sums: the same prior on
// every rank (not bitwise the single-process one, whose sums run over all
// rows in order; that path is kept for ranks = null).
NiwPrior default_niw_prior(const DataView &data, double kappa_0, double nu_0, double cov_scale,
                           const Collective *ranks = nullptr);

class NiwGaussian final : public ClusterLikelihood {
public:
    NiwGaussian(const DataView &data, const NiwPrior &prior);

    void reserve_slots(int64_t count) override;
    void add(int64_t slot, int64_t i) override;
    void remove(int64_t slot, int64_t i) override;
    double log_predictive(int64_t slot, int64_t i) override;
    double log_predictive_without(int64_t slot, int64_t i) override;
    double log_marginal(int64_t slot) const override;
    void refresh() override;
    // (1, y, y y^T) of the centred point, y y^T as the d x d lower part, column-major.
    int64_t stats_width() const override { return 1 + d_ + d_ * d_; }
    void add_stats(int64_t i, double *out) override;
    void load_stats(int64_t slot, const double *stats) override;

private:
    struct Slot {
        int64_t n = 0;
        std::vector<double> sum;      // of the centred points
        std::vector<double> scatter;  // sum of y y^T, lower part, column-major
        std::vector<double> chol;     // lower factor of Psi_n, column-major
        std::vector<double> inv_diag; // 1 / diag(chol)
        std::vector<double> mean;     // mu_n (centred coordinates)
        double logdet = 0;            // log |Psi_n|
        bool dirty = false;           // moved since the last refactorisation
    };
    void load_point(int64_t i);
    void refactor(Slot &s) const;
    void mean_of(const Slot &s, double *mu) const;
    void set_derived(Slot &s) const;  // mean, inv_diag, logdet from n, sum, chol
    void add_outer(Slot &s, double sign) const;  // sum, scatter += sign * (y, y y^T)
    // The Student-t log density of eq. 258 for a cluster of n points with
    // log |Psi_n| = logdet, at a point with |L^{-1} (y - mu_n)|^2 = r.
    double student_t(int64_t n, double logdet, double r);
    double solve_norm2(const Slot &s);  // |L^{-1} (y - mu_n)|^2 for the loaded y
    // r_i = |L^{-1} (y_i - mu_n)|^2 against the slot: updated from its stored
    // value, or solved afresh with the next points (quadratic_forms.hpp).
    double quadratic_form(int64_t slot, int64_t i);
    // Logs the rank-one change about to be made to a slot by the loaded point.
    void log_change(int64_t slot, double beta, double sigma);
    // r_j against s for the points first, first + stride, ... (m of them), into
    // out, by triangular solves with many right-hand sides (BLAS).
    void solve_points(const Slot &s, int64_t first, int64_t stride, int64_t m, double *out);

    const DataView &data_;
    NiwPrior prior_;
    int64_t d_;
    std::vector<double> centre_;  // mu_0 in data coordinates (the points are centred on it)
    std::vector<Slot> slots_;
    std::vector<QuadraticForms> forms_;  // by slot
    int64_t sweeps_ = 0;                 // refresh() calls: the phase of the fresh solves
    Slot empty_;                  // the prior: n = 0, chol of Psi_0
    Slot scratch_;                // a slot without one point, for the rare exact fallback
    std::vector<double> t_const_; // by n: the terms of the Student-t log density that depend on n only (NaN: not yet)
    std::vector<double> prior_predictive_;  // by point, computed in the constructor
    // Scratch: the current point (centred), a vector for the solves, the
    // right-hand sides of one BLAS solve, the forms refresh() solves afresh.
    int64_t loaded_ = -1;
    std::vector<double> y_, v_, rhs_, rhs_fresh_;
    double log_pi_ = 0;
};

}  // namespace tvclust
}  // namespace kindred

#endif
