#include "core/standardize.hpp"

#include <cmath>
#include <utility>

#include "core/error.hpp"
#include "core/feature_moments.hpp"

namespace kindred {

Scaling fit_scaling(const DataView &data, const char *what, const Collective *collective) {
    if (!data.is_dense())
        fail(KINDRED_E_INVALID, what, ": standardize needs dense data (z-scoring would fill a sparse matrix)");
    const Collective ranks = Collective::or_single(collective, data.n());
    FeatureMoments moments = feature_moments(data, ranks);
    Scaling s;
    s.mean = std::move(moments.mean);
    s.scale.assign(s.mean.size(), 0.0);
    for (size_t m = 0; m < s.mean.size(); ++m) {
        const double sd = std::sqrt(moments.squares[m] / static_cast<double>(ranks.n_total()));
        // A constant feature (to rounding) carries nothing: mapped to 0.
        s.scale[m] = sd > 1e-12 * (1.0 + std::fabs(s.mean[m])) ? 1.0 / sd : 0.0;
    }
    return s;
}

ScaledData apply_scaling(const Scaling &s, const DataView &data, const char *what) {
    if (!data.is_dense())
        fail(KINDRED_E_INVALID, what, ": the model standardizes its input and needs dense data");
    const int64_t n = data.n(), d = data.d();
    ScaledData out;
    out.values.resize(static_cast<size_t>(n * d));
    for (int64_t i = 0; i < n; ++i) {
        double *row = out.values.data() + i * d;
        data.copy_row(i, row);
        for (int64_t m = 0; m < d; ++m) row[m] = (row[m] - s.mean[m]) * s.scale[m];
    }
    out.view = DataView::dense(DenseView::rows(out.values.data(), n, d));
    return out;
}

ScaledData apply_linear_map(const std::vector<double> &w, const DataView &data, const char *what) {
    if (!data.is_dense()) fail(KINDRED_E_INVALID, what, ": the model maps its input linearly and needs dense data");
    const int64_t n = data.n(), d = data.d();
    ScaledData out;
    out.values.resize(static_cast<size_t>(n * d));
    std::vector<double> row(static_cast<size_t>(d));
    for (int64_t i = 0; i < n; ++i) {
        data.copy_row(i, row.data());
        double *z = out.values.data() + i * d;
        for (int64_t a = 0; a < d; ++a) {
            double s = 0.0;
            for (int64_t b = 0; b < d; ++b) s += w[static_cast<size_t>(a * d + b)] * row[static_cast<size_t>(b)];
            z[a] = s;
        }
    }
    out.view = DataView::dense(DenseView::rows(out.values.data(), n, d));
    return out;
}

void store_scaling(const Scaling &s, FitResult &r) {
    const int64_t d = static_cast<int64_t>(s.mean.size());
    r.set_array("standardize_mean", 1, d, s.mean);
    r.set_array("standardize_scale", 1, d, s.scale);
}

Scaling stored_scaling(const FitResult &r, int64_t d) {
    Scaling s;
    s.mean = r.get("standardize_mean", 1, d).values;
    s.scale = r.get("standardize_scale", 1, d).values;
    return s;
}

}  // namespace kindred
