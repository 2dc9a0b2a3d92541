// k-means: k-means++ seeding, n_init restarts (the lowest inertia kept),
// Lloyd iterations on blocked GEMM distances, skipping the points whose
// centre cannot change (Hamerly's bounds, algorithms/bounded_nearest.hpp:
// the labels of the plain Lloyd step). The inertia of an iteration (the
// objective trace) comes from the cluster sums, sum |x|^2 - 2 c.S_c + n_c |c|^2,
// so that the points the bounds decide are not read; it may differ from the
// sum of the plain step's distances in the last bits. The final inertia is
// the plain step's. An empty cluster is re-seeded
// with the point farthest from its centre. Stops when the squared centre shift
// falls to tol times the mean per-feature variance (the convention of common
// implementations, so that tol does not depend on the data's scale) or at max_iter.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "algorithms/bounded_nearest.hpp"
#include "algorithms/centroid_steps.hpp"
#include "core/error.hpp"
#include "linalg/distances.hpp"
#include "core/label_sums.hpp"

namespace kindred {
namespace {

double mean_variance(const DataView &data) {
    const int64_t n = data.n(), d = data.d();
    const std::vector<double> mean = global_mean(data);
    std::vector<double> row(d);
    double s = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        data.copy_row(i, row.data());
        for (int64_t j = 0; j < d; ++j) s += (row[j] - mean[j]) * (row[j] - mean[j]);
    }
    return s / static_cast<double>(n * d);
}

struct Run {
    std::vector<double> centers;
    std::vector<int32_t> labels;
    std::vector<double> trace;
    double inertia = std::numeric_limits<double>::infinity();
    int64_t iterations = 0;
    bool converged = false;
};

// Empty clusters take the points farthest from their centres, each point once.
void reseed_empty(const DataView &data, const std::vector<int64_t> &counts, const std::vector<double> &dist,
                  std::vector<double> &centers) {
    const int64_t k = static_cast<int64_t>(counts.size()), d = data.d();
    std::vector<int64_t> order;
    int64_t used = 0;  // the empty clusters so far take the farthest points in turn
    for (int64_t c = 0; c < k; ++c) {
        if (counts[c] != 0) continue;
        if (order.empty()) {
            order.resize(dist.size());
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return dist[a] > dist[b]; });
        }
        const int64_t pick = order[std::min<int64_t>(used++, static_cast<int64_t>(order.size()) - 1)];
        data.copy_row(pick, centers.data() + c * d);
    }
}

Run lloyd(const FitContext &ctx, NearestCenter &nearest, std::vector<double> centers, int64_t k, double tol_abs,
          int64_t max_iter, int64_t restart) {
    const DataView &data = ctx.data;
    const int64_t n = data.n(), d = data.d();
    Run run;
    run.labels.resize(n);
    std::vector<double> dist, sums;
    std::vector<int64_t> counts;
    BoundedNearest bounded(data, ctx.threads, nearest.x_sqnorm());
    double x_sq_total = 0.0;
    for (double v : nearest.x_sqnorm()) x_sq_total += v;
    for (int64_t it = 1; it <= max_iter; ++it) {
        bounded.assign(centers.data(), k, run.labels.data(), nullptr);
        cluster_sums(data, run.labels.data(), k, ctx.threads, sums, counts);
        const std::vector<double> c_sq = linalg::center_sqnorms(centers.data(), k, d);
        double inertia = x_sq_total;
        for (int64_t c = 0; c < k; ++c) {
            double dot = 0.0;
            for (int64_t j = 0; j < d; ++j) dot += centers[c * d + j] * sums[c * d + j];
            inertia += static_cast<double>(counts[c]) * c_sq[c] - 2.0 * dot;
        }
        run.trace.push_back(std::max(0.0, inertia));
        std::vector<double> next(static_cast<size_t>(k * d));
        for (int64_t c = 0; c < k; ++c)
            for (int64_t j = 0; j < d; ++j)
                next[c * d + j] = counts[c] > 0 ? sums[c * d + j] / static_cast<double>(counts[c]) : centers[c * d + j];
        if (std::find(counts.begin(), counts.end(), 0) != counts.end()) {
            // The farthest points by the plain step's distances (the bounded
            // step's may differ in the last bits), as without bounds.
            dist.resize(static_cast<size_t>(n));
            nearest.assign(centers.data(), k, run.labels.data(), dist.data());
            reseed_empty(data, counts, dist, next);
        }
        double shift = 0.0;
        for (int64_t v = 0; v < k * d; ++v) shift += (next[v] - centers[v]) * (next[v] - centers[v]);
        centers.swap(next);
        run.iterations = it;
        ctx.progress.report(it, inertia, restart == 0 ? "kmeans: Lloyd iteration" : "kmeans: Lloyd iteration (restart)");
        ctx.log.debug(cat("kmeans: iteration ", it, ": ", bounded.recomputed(), " of ", n,
                          " points compared with every centre"));
        if (shift <= tol_abs) {
            run.converged = true;
            break;
        }
    }
    // Labels and inertia for the final centres.
    dist.resize(static_cast<size_t>(n));
    nearest.assign(centers.data(), k, run.labels.data(), dist.data());
    run.inertia = 0.0;
    for (double v : dist) run.inertia += v;
    run.centers.swap(centers);
    return run;
}

FitResult fit_kmeans(const FitContext &ctx) {
    const DataView &data = ctx.data;
    const int64_t k = ctx.options.get_int("k");
    if (k > data.n()) fail(KINDRED_E_DIMENSION, "kmeans: k = ", k, " is larger than the number of points n = ", data.n());
    const int64_t n_init = ctx.options.get_int("n_init");
    const int64_t max_iter = ctx.options.get_int("max_iter");
    const double tol_abs = ctx.options.get_double("tol") * mean_variance(data);
    const Rng base(static_cast<uint64_t>(ctx.options.get_int("seed")));
    NearestCenter nearest(data, ctx.threads);
    Run best;
    for (int64_t r = 0; r < n_init; ++r) {
        Rng rng = base.derive(static_cast<uint64_t>(r));
        Run run = lloyd(ctx, nearest, kmeanspp_centers(data, k, rng, nearest.x_sqnorm(), ctx.threads), k, tol_abs, max_iter, r);
        ctx.log.debug(cat("kmeans: restart ", r, " inertia ", run.inertia, " after ", run.iterations, " iterations"));
        if (run.inertia < best.inertia) best = std::move(run);
    }
    FitResult result;
    result.clusters = k;
    result.iterations = best.iterations;
    result.converged = best.converged;
    result.objective = best.inertia;
    result.labels = std::move(best.labels);
    result.set_array("centers", k, data.d(), best.centers);
    result.set_array("objective_trace", static_cast<int64_t>(best.trace.size()), 1, best.trace);
    return result;
}

OptionTable kmeans_options() {
    OptionTable t = {
        OptionSpec::integer("k", 8, 1, INT32_MAX, "number of clusters"),
        OptionSpec::integer("n_init", 10, 1, 100000, "k-means++ restarts; the run with the lowest inertia is kept"),
        OptionSpec::integer("max_iter", 300, 1, 100000000, "maximum Lloyd iterations per restart"),
        OptionSpec::real("tol", 1e-4, 0, kInf, "stop when the squared centre shift is below tol x mean feature variance"),
    };
    append_common_options(t);
    return t;
}

}  // namespace

const AlgorithmSpec &kmeans_spec();

std::vector<int32_t> kmeans_labels(const FitContext &ctx, const DataView &data, int64_t k, int64_t n_init,
                                   int64_t seed) {
    const AlgorithmSpec &kmeans = kmeans_spec();
    OptionValues opts(&kmeans.options);
    opts.set_number("k", static_cast<double>(k));
    opts.set_number("n_init", static_cast<double>(n_init));
    opts.set_number("seed", static_cast<double>(seed));
    const FitContext sub{data, nullptr, opts, ctx.progress, ctx.log, ctx.threads};
    return kmeans.fit(sub).labels;
}

const AlgorithmSpec &kmeans_spec() {
    static const AlgorithmSpec spec = [] {
        AlgorithmSpec s;
        s.name = "kmeans";
        s.summary = "k-means (Lloyd) with k-means++ seeding and restarts";
        s.uses = KINDRED_USES_SPARSE;
        s.options = kmeans_options();
        s.fit = fit_kmeans;
        s.predict = predict_nearest_center;
        return s;
    }();
    return spec;
}

}  // namespace kindred
