// DP-means (Kulis & Jordan 2012): k-means with a penalty lambda per cluster.
// Start from one cluster at the global mean; visit the points in order and
// open a new cluster at x_i when its squared distance to every centre exceeds
// lambda; then recompute the means and drop empty clusters. Repeat until no
// assignment changes (or max_iter). Objective: sum of squared distances +
// lambda * (number of clusters), which never increases.
//
// lambda is given, or derived from a hint k by the farthest-first heuristic
// of Kulis & Jordan, as the RDP-means paper's experiments do.
#include <algorithm>
#include <limits>

#include "algorithms/centroid_steps.hpp"
#include "algorithms/pair_cross_validation.hpp"
#include "core/error.hpp"
#include "core/label_sums.hpp"
#include "linalg/distances.hpp"

namespace kindred {
namespace {

constexpr int64_t kBlockRows = 2048;

double resolve_lambda(const FitContext &ctx) {
    if (ctx.options.is_set("lambda")) return ctx.options.get_double("lambda");
    if (!ctx.options.is_set("k"))
        fail(KINDRED_E_INVALID, "dpmeans: set lambda, or k (a hint from which lambda is derived)");
    const int64_t k = ctx.options.get_int("k");
    if (k > ctx.data.n()) fail(KINDRED_E_DIMENSION, "k = ", k, " is larger than the number of points n = ", ctx.data.n());
    return farthest_first_lambda(ctx.data, k);
}

// One pass in data order. Distances to the centres that exist when a block
// starts come from one GEMM; centres opened inside the block are few and
// checked directly. Returns the number of changed assignments.
int64_t assignment_pass(const DataView &data, const std::vector<double> &x_sqnorm, double lambda,
                        std::vector<double> &centers, std::vector<int32_t> &labels, std::vector<double> &block) {
    const int64_t n = data.n(), d = data.d();
    std::vector<double> row(d);
    int64_t changed = 0;
    for (int64_t begin = 0; begin < n; begin += kBlockRows) {
        const int64_t end = std::min(n, begin + kBlockRows);
        const int64_t k0 = static_cast<int64_t>(centers.size()) / d;
        block.resize(static_cast<size_t>((end - begin) * k0));
        const std::vector<double> c_sq = linalg::center_sqnorms(centers.data(), k0, d);
        linalg::sq_distances(data, begin, end, centers.data(), c_sq.data(), k0, x_sqnorm.data(), block.data());
        for (int64_t i = begin; i < end; ++i) {
            const double *dist = block.data() + (i - begin) * k0;
            int64_t best = 0;
            double best_d = dist[0];
            for (int64_t c = 1; c < k0; ++c)
                if (dist[c] < best_d) { best_d = dist[c]; best = c; }
            const int64_t k_now = static_cast<int64_t>(centers.size()) / d;
            for (int64_t c = k0; c < k_now; ++c) {
                const double s = std::max(0.0, x_sqnorm[i] - 2.0 * data.dot_row(i, centers.data() + c * d) +
                                                   linalg::center_sqnorms(centers.data() + c * d, 1, d)[0]);
                if (s < best_d) { best_d = s; best = c; }
            }
            if (best_d > lambda) {
                data.copy_row(i, row.data());
                centers.insert(centers.end(), row.begin(), row.end());
                best = k_now;
            }
            if (labels[i] != best) ++changed;
            labels[i] = static_cast<int32_t>(best);
        }
    }
    return changed;
}

FitResult fit_dpmeans_lambda(const FitContext &ctx) {
    const DataView &data = ctx.data;
    const int64_t n = data.n(), d = data.d();
    const double lambda = resolve_lambda(ctx);
    const int64_t max_iter = ctx.options.get_int("max_iter");
    const std::vector<double> x_sqnorm = linalg::row_sqnorms(data);
    std::vector<double> centers = global_mean(data), block, sums;
    std::vector<int32_t> labels(n, -1);
    std::vector<int64_t> counts;
    std::vector<double> trace;
    FitResult result;
    for (int64_t it = 1; it <= max_iter; ++it) {
        const int64_t changed = assignment_pass(data, x_sqnorm, lambda, centers, labels, block);
        const int64_t k = static_cast<int64_t>(centers.size()) / d;
        cluster_sums(data, labels.data(), k, ctx.threads, sums, counts);
        // Means of the non-empty clusters, relabelled 0..k'-1 in order.
        std::vector<int32_t> new_id(k, -1);
        std::vector<double> next;
        int32_t kept = 0;
        for (int64_t c = 0; c < k; ++c) {
            if (counts[c] == 0) continue;
            new_id[c] = kept++;
            for (int64_t j = 0; j < d; ++j) next.push_back(sums[c * d + j] / static_cast<double>(counts[c]));
        }
        for (auto &l : labels) l = new_id[l];
        centers.swap(next);
        double objective = lambda * kept;
        for (int64_t i = 0; i < n; ++i) {
            const double *c = centers.data() + labels[i] * d;
            objective += std::max(0.0, x_sqnorm[i] - 2.0 * data.dot_row(i, c) + linalg::center_sqnorms(c, 1, d)[0]);
        }
        trace.push_back(objective);
        result.iterations = it;
        ctx.progress.report(it, objective, "dpmeans: assignment pass");
        if (changed == 0) {
            result.converged = true;
            break;
        }
    }
    result.clusters = static_cast<int64_t>(centers.size()) / d;
    result.objective = trace.back();
    result.labels = std::move(labels);
    result.set_array("centers", result.clusters, d, centers);
    result.set_array("objective_trace", static_cast<int64_t>(trace.size()), 1, trace);
    result.set_array("lambda", 1, 1, {lambda});
    return result;
}

// Neither lambda nor k: lambda chosen by cross-validation over the pairs,
// the only use dpmeans makes of them.
FitResult fit_dpmeans(const FitContext &ctx) {
    if (ctx.options.is_set("lambda") || ctx.options.is_set("k")) return fit_dpmeans_lambda(ctx);
    // The reach: the largest squared distance of a point from the mean of all points.
    const std::vector<double> mean = global_mean(ctx.data);
    double mean_sq = 0.0;
    for (double v : mean) mean_sq += v * v;
    double reach = 0.0;
    for (int64_t i = 0; i < ctx.data.n(); ++i)
        reach = std::max(reach, ctx.data.row_sqnorm(i) - 2.0 * ctx.data.dot_row(i, mean.data()) + mean_sq);
    return fit_choosing_lambda(ctx, fit_dpmeans_lambda, reach, "dpmeans");
}

OptionTable dpmeans_options() {
    OptionTable t = {
        OptionSpec::real("lambda", 0, 0, kInf, "penalty per cluster (a squared distance); unset: derived from k, or (neither set) chosen by cross-validation over the pairs").open_low().open_high().unset(),
        OptionSpec::integer("k", 0, 1, INT32_MAX, "hint: lambda by the k-th farthest-first heuristic when lambda is unset").unset(),
        OptionSpec::integer("max_iter", 100, 1, 100000000, "maximum assignment passes"),
    };
    append_common_options(t);
    return t;
}

}  // namespace

const AlgorithmSpec &dpmeans_spec() {
    static const AlgorithmSpec spec = [] {
        AlgorithmSpec s;
        s.name = "dpmeans";
        s.summary = "DP-means (Kulis & Jordan): k-means with a cost per cluster, k found from lambda";
        s.uses = KINDRED_USES_PAIRS | KINDRED_USES_SPARSE | KINDRED_USES_NO_K;  // pairs: to choose lambda only
        s.options = dpmeans_options();
        s.fit = fit_dpmeans;
        s.predict = predict_nearest_center;
        return s;
    }();
    return spec;
}

}  // namespace kindred
