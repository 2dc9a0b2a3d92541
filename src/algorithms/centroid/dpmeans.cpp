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

#include "algorithms/centroid/driver.hpp"
#include "algorithms/centroid/steps.hpp"
#include "algorithms/pair_cross_validation.hpp"
#include "core/error.hpp"
#include "core/label_sums.hpp"
#include "core/parallel.hpp"
#include "core/rank_totals.hpp"
#include "linalg/distances.hpp"

namespace kindred {
namespace {

constexpr int64_t kBlockRows = 2048;

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

// One pass over the points of every rank, in the order of the rows: a pass
// opens centres in sequence, so each rank runs its part in turn, starting
// from the centres the ranks before it opened, and then sends the ones it
// opened (the same pass, block by block, as in one process; the centre
// update that follows is parallel). Returns the changed assignments of all ranks.
int64_t assignment_pass_all_ranks(const DataView &data, const Collective &ranks, const std::vector<double> &x_sqnorm,
                                  double lambda, std::vector<double> &centers, std::vector<int32_t> &labels,
                                  std::vector<double> &block) {
    if (ranks.single()) return assignment_pass(data, x_sqnorm, lambda, centers, labels, block);
    int64_t changed = 0;
    for (int root : ranks.row_order()) {
        std::vector<double> opened;
        if (root == ranks.rank()) {
            const size_t before = centers.size();
            changed = assignment_pass(data, x_sqnorm, lambda, centers, labels, block);
            opened.assign(centers.begin() + static_cast<std::ptrdiff_t>(before), centers.end());
        }
        uint64_t values = opened.size();
        ranks.broadcast(&values, sizeof values, root);
        opened.resize(static_cast<size_t>(values));
        ranks.broadcast(opened.data(), opened.size() * sizeof(double), root);
        if (root != ranks.rank()) centers.insert(centers.end(), opened.begin(), opened.end());
    }
    return total_over_ranks(ranks, changed);
}

FitResult fit_dpmeans_lambda(const FitContext &ctx) {
    const DataView &data = ctx.data;
    const Collective ranks = Collective::or_single(ctx.collective, data.n());
    const int64_t n = data.n(), d = data.d();
    const double lambda = lambda_given_or_derived(ctx, ranks, "dpmeans",
                                                  [&](int64_t k) { return farthest_first_lambda(data, k, &ranks); });
    const std::vector<double> x_sqnorm = linalg::row_sqnorms(data);
    std::vector<double> block, sums, cost;
    std::vector<int64_t> counts;
    CentroidRun run;
    if (ctx.options.get_choice("init") == "dsquared") {
        Rng rng = Rng(static_cast<uint64_t>(ctx.options.get_int("seed")));
        run.centers = dp_seed_centers(data, lambda, rng, x_sqnorm, ctx.threads, &ranks);
    } else {
        run.centers = global_mean(data, &ranks);  // Algorithm 1 (init one-cluster, or auto with lambda or k given)
    }
    run.labels.assign(static_cast<size_t>(n), -1);
    std::vector<double> &centers = run.centers;
    std::vector<int32_t> &labels = run.labels;
    iterate(ctx, ranks, ctx.options.get_int("max_iter"), "dpmeans: assignment pass", run, [&](int64_t) {
        const int64_t changed = assignment_pass_all_ranks(data, ranks, x_sqnorm, lambda, centers, labels, block);
        const int64_t k = static_cast<int64_t>(centers.size()) / d;
        cluster_sums(data, ranks, labels.data(), k, ctx.threads, sums, counts);
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
        // The points' costs are summed by chunks (core/collective.hpp), then lambda per cluster is added.
        // cost: one sum per chunk of this rank's rows.
        cost.assign(static_cast<size_t>(chunk_count(n, Collective::kChunk)), 0.0);
        for (int64_t i = 0; i < n; ++i) {
            const double *c = centers.data() + labels[i] * d;
            cost[i / Collective::kChunk] +=
                std::max(0.0, x_sqnorm[i] - 2.0 * data.dot_row(i, c) + linalg::center_sqnorms(c, 1, d)[0]);
        }
        return StepOutcome{lambda * kept + ranks.sum_chunks(cost, 1)[0], changed == 0};
    });
    run.objective = run.trace.back();
    FitResult result = centroid_result(std::move(run), d);
    result.set_array("lambda", 1, 1, {lambda});
    return result;
}

// Neither lambda nor k: lambda chosen by cross-validation over the pairs,
// the only use dpmeans makes of them. With init auto the fits start from
// dp_seed_centers (init dsquared), whose lambda is the gain of a centre: the
// grid goes down from the potential of one centre at the mean, where a
// single cluster is certain. Otherwise the paper's start, and the grid from
// the reach: the largest squared distance of a point from the mean, where
// Algorithm 1 keeps one cluster. On several ranks the folds' fits and the
// final fit run on the ranks (fit_choosing_lambda passes the collective on).
FitResult fit_dpmeans(const FitContext &ctx) {
    LambdaGrid grid;
    if (ctx.options.get_choice("init") == "auto") {
        grid.top = [&](const Collective &ranks) { return total_sq_from_mean(ctx.data, &ranks); };
        grid.count = kSeededLambdaCandidates;
        grid.init = "dsquared";
    } else {
        grid.top = [&](const Collective &ranks) {
            const std::vector<double> mean = global_mean(ctx.data, &ranks);
            double mean_sq = 0.0;
            for (double v : mean) mean_sq += v * v;
            double reach = 0.0;
            for (int64_t i = 0; i < ctx.data.n(); ++i)
                reach = std::max(reach, ctx.data.row_sqnorm(i) - 2.0 * ctx.data.dot_row(i, mean.data()) + mean_sq);
            return largest_over_ranks(ranks, reach);  // a maximum: the same in any order
        };
    }
    return fit_choosing_lambda(ctx, fit_dpmeans_lambda, grid, "dpmeans");
}

OptionSpec dp_init_option() {
    return OptionSpec::choice("init", "auto", "auto|one-cluster|dsquared",
                              "one-cluster: one cluster at the mean, new ones opened in the passes (Kulis & Jordan); "
                              "dsquared: centres added by greedy D^2 sampling while one lowers the squared distances by "
                              "more than lambda; auto: dsquared when lambda is chosen from the pairs, one-cluster "
                              "otherwise");
}

OptionTable dpmeans_options() {
    return with_common_options({
        OptionSpec::real("lambda", 0, 0, kInf, "penalty per cluster (a squared distance); unset: derived from k, or (neither set) chosen by cross-validation over the pairs").open_low().open_high().unset(),
        OptionSpec::clusters(0, "hint: lambda by the k-th farthest-first heuristic when lambda is unset").unset(),
        dp_init_option(),
        OptionSpec::max_iterations(100, "maximum assignment passes"),
    });
}

}  // namespace

const AlgorithmSpec &dpmeans_spec() {
    // pairs: to choose lambda only
    static const AlgorithmSpec spec{"dpmeans",
                                    "DP-means (Kulis & Jordan): k-means with a cost per cluster, k found from lambda",
                                    KINDRED_USES_PAIRS | KINDRED_USES_SPARSE | KINDRED_USES_NO_K | KINDRED_USES_SHARDS,
                                    dpmeans_options(), fit_dpmeans, predict_nearest_center};
    return spec;
}

}  // namespace kindred
