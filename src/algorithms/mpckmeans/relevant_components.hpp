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
// before the fit; pckmeans and mpckmeans then cluster the mapped points
// (whitening = rca, the default; off gives the papers' fits on the points
// as they are). Not in Basu et al.: a deviation of kindred's defaults
// (docs/algorithms/pairwise.md, deviation 11), measured in docs/quality.md.
//
// C is shrunk toward its mean eigenvalue t = tr(C) / d: W = (C / t +
// kShrinkage I)^{-1/2}, defined with few groups (C singular when they hold
// fewer than d + 1 points) and free of the data's scale.
//
// Cost: O(g d^2) for the g points in groups of two or more, O(n d^2) to map
// the points, one eigen-decomposition of a d x d matrix.
#ifndef KINDRED_ALGORITHMS_MPCKMEANS_RELEVANT_COMPONENTS_HPP
#define KINDRED_ALGORITHMS_MPCKMEANS_RELEVANT_COMPONENTS_HPP

#include <vector>

#include "core/collective.hpp"
#include "core/data_view.hpp"
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

}  // namespace kindred

#endif
