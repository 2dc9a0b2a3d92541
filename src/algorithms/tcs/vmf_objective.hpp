// The L-step of TCS-VM (Gopal & Yang 2014, section 3.2, Algorithm 2, line 5)
// as a mean over the N labelled points, with G(x) = L x / |L x|:
//
//   phi(L) = 1/N sum_i [ -kappa mu_{t_i}^T n_i + log sum_k exp(kappa mu_k^T n_i) ] + gamma ||L - I||_F^2,
//   n_i = L x_i / |L x_i|,
//
// the negative conditional log-likelihood of the labels under vMF components
// with mean directions mu_k and one concentration kappa (held fixed in this
// step). Gradient, with g_ik = (p_ik - y_ik) / N, u_i = kappa sum_k g_ik mu_k and
// r_i = |L x_i|:  d phi / d L = sum_i (I - n_i n_i^T) u_i x_i^T / r_i + 2 gamma (L - I),
// assembled by GEMMs: Y = X L^T, S = N M^T, U = kappa G M, then V^T X.
#ifndef KINDRED_ALGORITHMS_TCS_VMF_OBJECTIVE_HPP
#define KINDRED_ALGORITHMS_TCS_VMF_OBJECTIVE_HPP

#include <cstdint>
#include <vector>

namespace kindred {
namespace tcs {

class VmfObjective {
public:
    VmfObjective(const double *x, int64_t n, int64_t p, const int32_t *class_of, int64_t k, double gamma);

    // Algorithm 2, line 4: mu_k = sum_{i in k} n_i / |.| for the current L, and the
    // maximum-likelihood kappa of the labelled directions (Banerjee et al. 2005, eq. 4.4).
    void update_means(const double *l);
    // phi(L), and its gradient (p x p) when grad != nullptr.
    double value_grad(const double *l, double *grad);

    double kappa() const { return kappa_; }
    const std::vector<double> &means() const { return mu_; }

private:
    void directions(const double *l);  // y_ = X L^T, r_, n_ (in y_)

    int64_t n_, p_, k_;
    double gamma_, kappa_ = 1.0;
    std::vector<double> x_, mu_, y_, r_, s_, u_, v_;
    std::vector<int32_t> t_;
};

}  // namespace tcs
}  // namespace kindred

#endif
