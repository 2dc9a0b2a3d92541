// Relevant Component Analysis (Bar-Hillel, Hertz, Shental & Weinshall,
// "Learning a Mahalanobis metric from equivalence constraints", JMLR 2005):
// the points seen through W = C^{-1/2}, C the scatter of the must-link
// groups about their own means. The groups are the store's robust units
// (core/constraint_propagation.hpp: grown from the must-links that agree
// most, so that a few wrong answers do not merge two classes into one group
// whose scatter would then be the classes' difference); with consistent
// answers they are the must-link components. The directions in which points the user
// put together still differ are, to the user, noise: they shrink, and the
// others stretch. A closed form from the must-links alone, learned once
// before the fit; pckmeans, mpckmeans and copkmeans then cluster the mapped
// points (option whitening = rca, the default; off gives the papers' fits on
// the points as they are). Not in their papers: a deviation of kindred's
// defaults (docs/algorithms/pairwise.md, "The defaults", item 6), measured
// in docs/quality.md.
//
// C is shrunk toward its mean eigenvalue t = tr(C) / d: W = (C / t +
// kShrinkage I)^{-1/2}, defined with few groups (C singular when they hold
// fewer than d + 1 points) and free of the data's scale.
//
// Cost: O(g d^2) for the g points in groups of two or more, O(n d^2) to map
// the points (or, fit_whitened_by_metric, their M-norms), one
// eigen-decomposition of a d x d matrix.
#ifndef KINDRED_ALGORITHMS_RELEVANT_COMPONENTS_HPP
#define KINDRED_ALGORITHMS_RELEVANT_COMPONENTS_HPP

#include <functional>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "core/collective.hpp"
#include "core/data_view.hpp"
#include "core/options.hpp"
#include "core/side_info.hpp"

namespace kindred {

constexpr double kRcaShrinkage = 0.1;

// W (d x d, row-major, symmetric) from the robust units of side, or empty
// when the groups hold fewer than d + 1 degrees of freedom (sum of size - 1
// over the units of two or more points: too few differences to estimate C
// in every direction) or do not vary. data: dense, this rank's
// rows (all the points in one process); the sums are the collective's
// chunk sums, so every rank gets the bits of one process. Collective.
std::vector<double> relevant_components(const DataView &data, const SideInfo &side, const Collective &ranks,
                                        int threads);

// The option `whitening` (rca | off), declared once for the algorithms that take it.
OptionSpec whitening_option();

// fit(ctx) on the points mapped by relevant_components when `whiten`, the
// data are dense and side information is given, the map then stored as the
// result array "whitening" (d x d; predict / transform apply it, capi/
// model_api.cpp); on the points as given otherwise, or when the groups are
// too few (logged, naming `what`).
FitResult fit_whitened(const FitContext &ctx, bool whiten, const char *what,
                       const std::function<FitResult(const FitContext &)> &fit);

// The same fit without the mapped copy of the points (8 d bytes a point),
// for fits whose metric is fixed: fit(ctx, metric) clusters the points as
// given under |x - y|^2_M, M = W^T W (d x d; empty: the Euclidean distance,
// whitening off or skipped), which is |W x - W y|^2; the means of the mapped
// points are W times the means, so its centres stay in the original space.
// Then the result's "centers" are mapped by W and W is stored as
// "whitening": the model is that of fit_whitened, predict / transform
// unchanged. fit must measure every distance under the metric.
FitResult fit_whitened_by_metric(
    const FitContext &ctx, bool whiten, const char *what,
    const std::function<FitResult(const FitContext &, const std::vector<double> &)> &fit);

}  // namespace kindred

#endif
