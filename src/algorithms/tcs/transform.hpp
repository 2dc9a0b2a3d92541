// The learned map of a TCS model and what reads it after a fit: L from
// A = L^T L, the transform of points (working space, then L, then for TCS-VM
// unit normalisation), and predict by the nearest centre in the transformed
// space. These read only the FitResult arrays, so that save / load works.
//
// Arrays of a fitted TCS model:
//   "transform"   L (p x p), G(x) = L x (TCS-GM) or L x / |L x| (TCS-VM)
//   "metric"      A = L^T L (p x p)
//   "svd_basis"   d x p, present when the data was reduced (x -> basis^T x first)
//   "centers"     (K + k) x p, in the transformed space: the K labelled classes, then the k new clusters
//   "cluster_ids" (K + k) x 1, the label each centre gives
#ifndef KINDRED_ALGORITHMS_TCS_TRANSFORM_HPP
#define KINDRED_ALGORITHMS_TCS_TRANSFORM_HPP

#include <cstdint>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace kindred {
namespace tcs {

// L = Lambda^{1/2} V^T for A = V Lambda V^T (negative rounding clipped): the
// paper's A = L^T L, unique up to a rotation that clustering does not see.
std::vector<double> transform_from_metric(const std::vector<double> &a, int64_t p);

// out (n x p) = x L^T for x (n x p) row-major; rows scaled to unit length when
// normalise (a row mapped to 0 stays 0).
std::vector<double> apply_linear(const std::vector<double> &x, int64_t n, int64_t p, const std::vector<double> &l,
                                 bool normalise);

// Model-based versions for new points.
int64_t model_transform_dim(const FitResult &model);
std::vector<double> model_transform(const FitResult &model, const DataView &data, bool normalise);
void model_predict(const FitResult &model, const DataView &data, bool normalise, int32_t *labels);

// The AlgorithmSpec of a TCS method: partial labels, sparse and sharded input,
// predict and transform by the model's map (normalise: TCS-VM's L x / |L x|).
AlgorithmSpec tcs_spec(const char *name, const char *summary, OptionTable options, FitResult (*fit)(const FitContext &),
                       bool normalise);

}  // namespace tcs
}  // namespace kindred

#endif
