// Gaussian likelihood with the conjugate Normal-Inverse-Wishart base measure
// G0 = NIW(mu_0, kappa_0, nu_0, Psi_0) (Khashabi et al. section 3.1: "the base
// measure often chosen for Gaussian families"), collapsed: the predictive of
// a point given the points of a cluster is the multivariate Student-t
//     t_{nu_n - d + 1}(mu_n, Psi_n (kappa_n + 1) / (kappa_n (nu_n - d + 1)))
// with kappa_n = kappa_0 + n, nu_n = nu_0 + n, mu_n = (kappa_0 mu_0 + sum x) / kappa_n,
// Psi_n = Psi_0 + sum x x^T + kappa_0 mu_0 mu_0^T - kappa_n mu_n mu_n^T
// (Murphy 2007, "Conjugate Bayesian analysis of the Gaussian distribution", eqs. 250-254, 258).
//
// Each slot keeps the Cholesky factor L of Psi_n, updated by one rank-one
// update when a point joins, Psi_n+1 = Psi_n + kappa_n/(kappa_n+1) (x - mu_n)(x - mu_n)^T,
// and one rank-one downdate when it leaves, so a predictive costs one
// triangular solve, O(d^2), and a move O(d^2); refresh() refactors every slot
// from its sums (O(d^3) per slot, once per sweep) against rounding drift. The
// points are centred on their mean (mu_0 = data mean), which keeps the
// subtraction in Psi_n well conditioned.
#ifndef KINDRED_ALGORITHMS_TVCLUST_NIW_GAUSSIAN_HPP
#define KINDRED_ALGORITHMS_TVCLUST_NIW_GAUSSIAN_HPP

#include <cstdint>
#include <vector>

#include "algorithms/tvclust/cluster_likelihood.hpp"
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
NiwPrior default_niw_prior(const DataView &data, double kappa_0, double nu_0, double cov_scale);

class NiwGaussian final : public ClusterLikelihood {
public:
    NiwGaussian(const DataView &data, const NiwPrior &prior);

    void reserve_slots(int64_t count) override;
    void add(int64_t slot, int64_t i) override;
    void remove(int64_t slot, int64_t i) override;
    double log_predictive(int64_t slot, int64_t i) override;
    double log_marginal(int64_t slot) const override;
    void refresh() override;

    // Posterior mean of the cluster mean (mu_n, in data coordinates).
    void posterior_mean(int64_t slot, double *out) const;

private:
    struct Slot {
        int64_t n = 0;
        std::vector<double> sum, scatter;  // of the centred points
        std::vector<double> chol;          // lower factor of Psi_n, row-major d x d
        double logdet = 0;                 // log |Psi_n|
    };
    void load_point(int64_t i);
    void refactor(Slot &s) const;
    void mean_of(const Slot &s, double *mu) const;

    const DataView &data_;
    NiwPrior prior_;
    int64_t d_;
    std::vector<double> centre_;  // mu_0 in data coordinates (the points are centred on it)
    std::vector<Slot> slots_;
    Slot empty_;                  // the prior: n = 0, chol of Psi_0
    // Scratch: the current point (centred) and vectors for the solves.
    int64_t loaded_ = -1;
    std::vector<double> y_, v_, mu_;
    double log_pi_ = 0;
};

// Lower Cholesky factor of a symmetric positive definite d x d matrix in
// place (row-major); false if a pivot is not positive.
bool cholesky_lower(double *a, int64_t d);
// In place: L L^T + sign * v v^T (sign = +1 update, -1 downdate); v is
// overwritten. False if a downdate would lose positive definiteness.
bool cholesky_rank_one(double *l, double *v, int64_t d, double sign);

}  // namespace tvclust
}  // namespace kindred

#endif
