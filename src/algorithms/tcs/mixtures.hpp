// The clustering step of TCS (Gopal & Yang 2014, sections 3.1 and 3.2): a
// mixture on the transformed unlabelled points. TCS-GM runs kindred's gmm
// (shared spherical variance, k-means++ restarts: the paper's "GM"); TCS-VM
// runs a von Mises-Fisher mixture with one shared concentration (the paper's
// "VM", Banerjee et al. 2005, soft-moVMF).
#ifndef KINDRED_ALGORITHMS_TCS_MIXTURES_HPP
#define KINDRED_ALGORITHMS_TCS_MIXTURES_HPP

#include <cstdint>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "core/collective.hpp"

namespace kindred {
namespace tcs {

struct MixtureSettings {
    int64_t k = 1, n_init = 1, max_iter = 100;
    double tol = 1e-3, reg_covar = 1e-6;
    uint64_t seed = 0;
};

// Options shared by both algorithms for this step.
void append_mixture_options(OptionTable &t);
MixtureSettings mixture_settings(const OptionValues &o, int64_t k);

// z: n x p row-major. Returns labels in [0, k) (n) and the k x p means.
struct MixtureFit {
    std::vector<int32_t> labels;
    std::vector<double> means;
    double log_likelihood = 0.0;
    int64_t iterations = 0;
};

// ranks: the ranks of a sharded fit over the sequence of rows z belongs to
// (z: this rank's whole chunks of it, core/whole_chunks.hpp), or null for one
// process. Every sum over the points is a chunk sum (core/collective.hpp), so
// the fit is the same bits for any split; labels are those of z's rows.
MixtureFit gaussian_mixture(const std::vector<double> &z, int64_t n, int64_t p, const MixtureSettings &s,
                            const FitContext &ctx, const Collective *ranks);
// Rows of z must be unit vectors (or 0).
MixtureFit vmf_mixture(const std::vector<double> &z, int64_t n, int64_t p, const MixtureSettings &s,
                       const FitContext &ctx, const Collective *ranks);

// gaussian_mixture or vmf_mixture.
using MixtureFn = MixtureFit (*)(const std::vector<double> &z, int64_t n, int64_t p, const MixtureSettings &s,
                                 const FitContext &ctx, const Collective *ranks);

// Banerjee et al. (2005), eq. (4.4): kappa ~ rbar (p - rbar^2) / (1 - rbar^2).
double vmf_concentration(double rbar, int64_t p);
// log C_p(kappa) = (p/2 - 1) log kappa - p/2 log(2 pi) - log I_{p/2-1}(kappa), with the
// uniform asymptotic expansion of log I_nu (Abramowitz & Stegun 9.7.7, first term).
double vmf_log_normaliser(double kappa, int64_t p);

}  // namespace tcs
}  // namespace kindred

#endif
