// The common option "standardize": each feature z-scored before the fit
// (x - mean) / std, with a constant feature mapped to 0. The fitted model
// keeps the scaling (arrays "standardize_mean" and "standardize_scale",
// saved with the model) and predict / transform apply it to new points, so
// that a model is always used on the scale it was fitted on.
#ifndef KINDRED_CORE_STANDARDIZE_HPP
#define KINDRED_CORE_STANDARDIZE_HPP

#include <vector>

#include "core/data_view.hpp"
#include "core/fit_result.hpp"

namespace kindred {

struct Scaling {
    std::vector<double> mean;   // d values
    std::vector<double> scale;  // 1 / std, or 0 for a constant feature
};

// The scaling of dense data (KINDRED_E_INVALID for CSR data, naming what).
Scaling fit_scaling(const DataView &data, const char *what);

// A row-major copy of the points, scaled; view: a DataView of it.
struct ScaledData {
    std::vector<double> values;
    DataView view;
};
ScaledData apply_scaling(const Scaling &s, const DataView &data, const char *what);

void store_scaling(const Scaling &s, FitResult &r);
// The scaling a model stored (shapes checked against d: a loaded file may be corrupt).
Scaling stored_scaling(const FitResult &r, int64_t d);

}  // namespace kindred

#endif
