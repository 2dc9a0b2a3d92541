// The kernel extension of DCRC mentioned at the end of section IV-B of Pei et
// al.: the logistic model of eq. (6) on RBF features
// phi_j(x) = exp(-gamma |x - b_j|^2) of m basis points b_j drawn from the
// (standardised) data, instead of on x itself, so that the clusters can have
// non-linear boundaries. A reduced-basis approximation: the L2 penalty acts on
// the weights of the m features, not as the RKHS norm of a full kernel model
// (which would need the n x n Gram matrix).
#ifndef KINDRED_ALGORITHMS_DCRC_KERNEL_FEATURES_HPP
#define KINDRED_ALGORITHMS_DCRC_KERNEL_FEATURES_HPP

#include <cstdint>
#include <vector>

#include "algorithms/dcrc/design.hpp"
#include "core/collective.hpp"
#include "core/data_view.hpp"
#include "core/rng.hpp"

namespace kindred {
namespace dcrc {

struct KernelBasis {
    int64_t m = 0, d = 0;
    double gamma = 0.0;
    std::vector<double> points;  // m x d, in the standardised feature space
};

// m distinct points of the design's features, drawn uniformly from all the
// points (sorted by index); in a sharded fit (design = this rank's rows) the
// same global rows on every rank, each sent by the rank that holds it.
KernelBasis draw_basis(const Design &design, const Collective &ranks, int64_t m, double gamma, Rng &rng);

// The design [phi(x)^T, 1] (n x (m+1)) of the design's standardised points.
Design kernel_design(const Design &design, const KernelBasis &basis);

// argmax_k P(y = k | phi(x); W) for new raw points: standardised with mean /
// scale (d each), mapped through the basis, blockwise.
void predict_kernel_classes(const DataView &data, const double *mean, const double *scale, const KernelBasis &basis,
                            const double *w, int64_t k, int32_t *labels);

}  // namespace dcrc
}  // namespace kindred

#endif
