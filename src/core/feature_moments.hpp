// The mean of each feature over all the points and the sum of squared
// deviations from it, the two passes every z-scoring makes (the common
// option standardize, core/standardize; dcrc's own scaling of its design).
// Both are chunk sums over the global chunks added in chunk order
// (core/collective.hpp), so that every rank of a sharded fit gets the same
// bits as one process, for any split.
#ifndef KINDRED_CORE_FEATURE_MOMENTS_HPP
#define KINDRED_CORE_FEATURE_MOMENTS_HPP

#include <vector>

#include "core/collective.hpp"
#include "core/data_view.hpp"

namespace kindred {

struct FeatureMoments {
    std::vector<double> mean;     // d values: sum_i x_ij / n_total
    std::vector<double> squares;  // d values: sum_i (x_ij - mean_j)^2, the mean subtracted before squaring
};

// data: this rank's rows (whole chunks; all the points in one process).
// Collective: every rank calls it.
FeatureMoments feature_moments(const DataView &data, const Collective &ranks);

}  // namespace kindred

#endif
