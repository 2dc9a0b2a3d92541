// The five regularisers lambda(A) of TCS-GM (Gopal & Yang 2014, section 3.1):
//   frobenius-identity  ||A - I||_F^2      (default; the paper's TCS-GM)
//   frobenius           ||A||_F^2          (the paper's TCS-GM-L2)
//   nuclear             ||A||_*            (= trace(A) on the PSD cone)
//   logdet              trace(A) - log det(A)
//   l1-identity         sum_ij |A - I|_ij  (entrywise)
// The two Frobenius ones are smooth and join the gradient; the PSD
// constraint is then the whole proximal step (the paper's projection). The
// other three are handled by their proximal operators together with the PSD
// constraint (not by projected subgradient):
//   prox of t*gamma*||.||_* + PSD: eigenvalue soft-thresholding, max(l - t gamma, 0);
//   prox of t*gamma*(tr - logdet): on each eigenvalue the positive root of
//     a^2 - (l - t gamma) a - t gamma = 0 (the minimiser of (a-l)^2/2 + t gamma (a - log a));
//   prox of t*gamma*||. - I||_1 + PSD: Dykstra-like proximal splitting (Bauschke &
//     Combettes 2008) between entrywise soft-thresholding around I and the PSD projection.
#ifndef KINDRED_ALGORITHMS_TCS_REGULARIZERS_HPP
#define KINDRED_ALGORITHMS_TCS_REGULARIZERS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "linalg/psd_projection.hpp"

namespace kindred {
namespace tcs {

enum class Regularizer { FrobeniusIdentity, Frobenius, Nuclear, LogDet, L1Identity };

Regularizer parse_regularizer(const std::string &name);
const char *regularizer_choices();  // "frobenius-identity|frobenius|nuclear|logdet|l1-identity"

bool is_smooth(Regularizer r);

// gamma * lambda(A) for the smooth regularisers (0 for the others), and adds its gradient to grad.
double smooth_value_grad(Regularizer r, double gamma, const double *a, int64_t d, double *grad);
double smooth_value(Regularizer r, double gamma, const double *a, int64_t d);

// The proximal step of g = gamma * lambda_nonsmooth + indicator(PSD) with step t:
// v <- argmin_{A PSD} 1/2 ||A - v||_F^2 + t g(A), in place. Returns g at the result
// (gamma * lambda for the non-smooth regularisers, 0 for the smooth ones).
class ProxStep {
public:
    ProxStep(Regularizer r, double gamma, int64_t d);
    double apply(std::vector<double> &v, double t);
    // Seconds spent in eigendecompositions so far (the PSD projection's share).
    double eigen_seconds() const { return eigen_seconds_; }

private:
    double project(std::vector<double> &v);  // PSD projection; returns 0
    Regularizer r_;
    double gamma_;
    int64_t d_;
    linalg::SymmetricEigen eig_;
    std::vector<double> values_, x_, y_, p_, q_, tmp_;
    double eigen_seconds_ = 0.0;
};

}  // namespace tcs
}  // namespace kindred

#endif
