#include "algorithms/tcs/transform.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "algorithms/tcs/working_data.hpp"
#include "core/collective.hpp"
#include "core/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/psd_projection.hpp"

namespace kindred {
namespace tcs {

std::vector<double> transform_from_metric(const std::vector<double> &a, int64_t p) {
    linalg::SymmetricEigen eig(p);
    eig.compute(a.data());
    std::vector<double> l(static_cast<size_t>(p * p));
    const std::vector<double> &v = eig.vectors();
    for (int64_t r = 0; r < p; ++r) {
        const double s = std::sqrt(std::max(0.0, eig.values()[r]));
        for (int64_t c = 0; c < p; ++c) l[r * p + c] = s * v[c * p + r];  // row r of L = sqrt(lambda_r) v_r^T
    }
    return l;
}

std::vector<double> apply_linear(const std::vector<double> &x, int64_t n, int64_t p, const std::vector<double> &l,
                                 bool normalise) {
    std::vector<double> out(static_cast<size_t>(n * p));
    // One GEMM per chunk of rows: the calls a rank of a sharded fit makes on
    // its chunks (a row's result may depend on the blocking of the call).
    for (int64_t lo = 0; lo < n; lo += Collective::kChunk) {
        const int64_t hi = std::min(n, lo + Collective::kChunk);
        linalg::gemm(false, true, hi - lo, p, p, 1.0, x.data() + lo * p, p, l.data(), p, 0.0, out.data() + lo * p, p);
    }
    if (normalise)
        for (int64_t i = 0; i < n; ++i) {
            double *row = out.data() + i * p;
            double s = 0.0;
            for (int64_t j = 0; j < p; ++j) s += row[j] * row[j];
            s = std::sqrt(s);
            if (s > 0.0)
                for (int64_t j = 0; j < p; ++j) row[j] /= s;
        }
    return out;
}

int64_t model_transform_dim(const FitResult &model) { return model.get("transform").rows; }

namespace {

// Dimension of the working space (after the optional SVD reduction), with the
// shapes of a loaded model checked: the file may be corrupt or crafted.
int64_t working_dim(const FitResult &model, const DataView &data) {
    if (model.find("svd_basis")) return model.get("svd_basis", data.d(), -1).cols;
    return data.d();
}

}  // namespace

std::vector<double> model_transform(const FitResult &model, const DataView &data, bool normalise) {
    const int64_t p = working_dim(model, data);
    const NamedArray &l = model.get("transform", p, p);
    return apply_linear(reduce_new_points(model, data), data.n(), l.cols, l.values, normalise);
}

void model_predict(const FitResult &model, const DataView &data, bool normalise, int32_t *labels) {
    const std::vector<double> z = model_transform(model, data, normalise);
    const NamedArray &c = model.get("centers", -1, working_dim(model, data));
    const NamedArray &ids = model.get("cluster_ids", c.rows, 1);
    for (double id : ids.values)
        if (!(id >= 0.0 && id <= static_cast<double>(std::numeric_limits<int32_t>::max()) && id == std::floor(id)))
            fail(KINDRED_E_CORRUPT, "the model's array 'cluster_ids' holds ", id, "; cluster ids are integers >= 0");
    const int64_t p = c.cols, kc = c.rows;
    for (int64_t i = 0; i < data.n(); ++i) {
        const double *zi = z.data() + i * p;
        int64_t best = 0;
        double best_d = std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < kc; ++j) {
            double s = 0.0;
            for (int64_t e = 0; e < p; ++e) {
                const double t = zi[e] - c.values[j * p + e];
                s += t * t;
            }
            if (s < best_d) {
                best_d = s;
                best = j;
            }
        }
        labels[i] = static_cast<int32_t>(ids.values[best]);
    }
}

namespace {

template <bool Normalise>
void predict_step(const PredictContext &ctx, int32_t *labels) {
    model_predict(ctx.model, ctx.data, Normalise, labels);
}

template <bool Normalise>
void transform_step(const PredictContext &ctx, double *out) {
    const std::vector<double> z = model_transform(ctx.model, ctx.data, Normalise);
    std::copy(z.begin(), z.end(), out);
}

}  // namespace

AlgorithmSpec tcs_spec(const char *name, const char *summary, OptionTable options, FitResult (*fit)(const FitContext &),
                       bool normalise) {
    return {name,
            summary,
            KINDRED_USES_PARTIAL_LABELS | KINDRED_USES_SPARSE | KINDRED_USES_SHARDS,
            std::move(options),
            fit,
            normalise ? predict_step<true> : predict_step<false>,
            model_transform_dim,
            normalise ? transform_step<true> : transform_step<false>};
}

}  // namespace tcs
}  // namespace kindred
