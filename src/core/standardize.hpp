// The common option "standardize": each feature z-scored before the fit
// (x - mean) / std, with a constant feature mapped to 0. The fitted model
// keeps the scaling (arrays "standardize_mean" and "standardize_scale",
// saved with the model) and predict / transform apply it to new points, so
// that a model is always used on the scale it was fitted on. In a sharded
// fit each rank scales its own rows with the scaling of all the points.
#ifndef KINDRED_CORE_STANDARDIZE_HPP
#define KINDRED_CORE_STANDARDIZE_HPP

#include <vector>

#include "core/collective.hpp"
#include "core/data_view.hpp"
#include "core/fit_result.hpp"

namespace kindred {

struct Scaling {
    std::vector<double> mean;   // d values
    std::vector<double> scale;  // 1 / std, or 0 for a constant feature
};

// The scaling of dense data (KINDRED_E_INVALID for CSR data, naming what).
// collective: the ranks of a sharded fit, data being this rank's rows; the
// mean and deviation are those of all the points (core/feature_moments), the
// same on every rank and the bits of one process. Collective when given.
Scaling fit_scaling(const DataView &data, const char *what, const Collective *collective = nullptr);

// A row-major copy of the points, scaled; view: a DataView of it.
struct ScaledData {
    std::vector<double> values;
    DataView view;
};
ScaledData apply_scaling(const Scaling &s, const DataView &data, const char *what);

// The rows of dense data mapped by a d x d row-major matrix: z_i = W x_i
// (pckmeans' and mpckmeans' whitening, which a model stores as the array
// "whitening" and predict / transform apply after the scaling).
ScaledData apply_linear_map(const std::vector<double> &w, const DataView &data, const char *what);

void store_scaling(const Scaling &s, FitResult &r);
// The scaling a model stored (shapes checked against d: a loaded file may be corrupt).
Scaling stored_scaling(const FitResult &r, int64_t d);

}  // namespace kindred

#endif
