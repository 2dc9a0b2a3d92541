// k-means: k-means++ seeding, n_init restarts (the lowest inertia kept),
// Lloyd iterations on blocked GEMM distances, skipping the points whose
// centre cannot change (Hamerly's bounds, centroid/bounded_nearest.hpp:
// the labels of the plain Lloyd step). The inertia of an iteration (the
// objective trace) comes from the cluster sums, sum |x|^2 - 2 c.S_c + n_c |c|^2,
// so that the points the bounds decide need no distance; it may differ from
// the sum of the plain step's distances in the last bits. The final inertia
// is the plain step's. The sums are made in the bounded step's pass over the
// points (one read of the points per iteration; cluster_sums's additions). An empty cluster is re-seeded
// with the point farthest from its centre. Stops when the squared centre shift
// falls to tol times the mean per-feature variance (the convention of common
// implementations, so that tol does not depend on the data's scale) or at max_iter.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "algorithms/centroid/bounded_nearest.hpp"
#include "algorithms/centroid/driver.hpp"
#include "algorithms/centroid/steps.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"
#include "linalg/distances.hpp"
#include "core/label_sums.hpp"

namespace kindred {
namespace {

// The mean per-feature variance, by chunk sums (core/collective.hpp): the
// same bits for any split of the rows over ranks.
double mean_variance(const DataView &data, const Collective &ranks) {
    const int64_t n = data.n(), d = data.d(), chunks = chunk_count(n, Collective::kChunk);
    std::vector<double> partial(static_cast<size_t>(chunks * d), 0.0);
    for (int64_t i = 0; i < n; ++i) data.add_row(i, 1.0, partial.data() + (i / Collective::kChunk) * d);
    std::vector<double> mean = ranks.sum_chunks(partial, d);
    for (double &v : mean) v /= static_cast<double>(ranks.n_total());
    std::vector<double> row(d), squares(static_cast<size_t>(chunks), 0.0);
    for (int64_t i = 0; i < n; ++i) {
        data.copy_row(i, row.data());
        double &s = squares[i / Collective::kChunk];
        for (int64_t j = 0; j < d; ++j) s += (row[j] - mean[j]) * (row[j] - mean[j]);
    }
    return ranks.sum_chunks(squares, 1)[0] / static_cast<double>(ranks.n_total() * d);
}

// Empty clusters take the points farthest from their centres, each point
// once (ties to the smaller index): each rank offers its farthest points,
// as many as there are empty clusters, and every rank takes the same ones.
void reseed_empty(const DataView &data, const Collective &ranks, const std::vector<int64_t> &counts,
                  const std::vector<double> &dist, std::vector<double> &centers) {
    const int64_t k = static_cast<int64_t>(counts.size()), d = data.d(), n = data.n();
    const int64_t empty = std::count(counts.begin(), counts.end(), int64_t(0));
    if (empty == 0) return;
    auto farther = [](const std::pair<double, int64_t> &a, const std::pair<double, int64_t> &b) {
        return a.first > b.first || (a.first == b.first && a.second < b.second);
    };
    std::vector<std::pair<double, int64_t>> offer(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) offer[i] = {dist[i], ranks.first_row() + i};
    const int64_t take = std::min(empty, n);
    std::partial_sort(offer.begin(), offer.begin() + take, offer.end(), farther);
    std::vector<double> message;
    for (int64_t t = 0; t < take; ++t) {
        message.push_back(offer[t].first);
        message.push_back(static_cast<double>(offer[t].second));  // exact: indices far below 2^53
    }
    std::vector<std::pair<double, int64_t>> all;
    for (const std::vector<char> &part : ranks.gather(message.data(), message.size() * sizeof(double))) {
        const std::vector<double> v = values_of<double>(part);
        for (size_t at = 0; at + 1 < v.size(); at += 2) all.push_back({v[at], static_cast<int64_t>(v[at + 1])});
    }
    std::sort(all.begin(), all.end(), farther);
    std::vector<int64_t> picks;
    for (int64_t c = 0, used = 0; c < k; ++c)
        if (counts[c] == 0) picks.push_back(all[std::min<size_t>(static_cast<size_t>(used++), all.size() - 1)].second);
    const std::vector<double> rows = ranks.rows(data, picks);
    for (int64_t c = 0, used = 0; c < k; ++c)
        if (counts[c] == 0) {
            std::copy(rows.begin() + used * d, rows.begin() + (used + 1) * d, centers.begin() + c * d);
            ++used;
        }
}

CentroidRun lloyd(const FitContext &ctx, const Collective &ranks, NearestCenter &nearest, std::vector<double> centers,
                  int64_t k, double tol_abs, int64_t max_iter, int64_t restart) {
    const DataView &data = ctx.data;
    const int64_t n = data.n(), d = data.d();
    CentroidRun run;
    run.labels.resize(n);
    std::vector<double> dist, sums;
    std::vector<int64_t> counts;
    BoundedNearest bounded(data, ctx.threads, nearest.x_sqnorm());
    const double x_sq_total = ranks.sum_rows(nearest.x_sqnorm().data(), n);
    // The cluster sums in the bounded step's pass when it can (the same
    // bits as cluster_sums: bounded_nearest.hpp), else a second pass.
    const bool sums_in_pass = bounded.sums_in_pass(k);
    std::vector<double> chunk_sums;
    iterate(ctx, ranks, max_iter, restart == 0 ? "kmeans: Lloyd iteration" : "kmeans: Lloyd iteration (restart)", run,
            [&](int64_t it) {
        if (sums_in_pass) {
            bounded.assign(centers.data(), k, run.labels.data(), nullptr, &chunk_sums);
            const std::vector<double> total = ranks.sum_chunks(chunk_sums, k * d + k);
            sums.assign(total.begin(), total.begin() + k * d);
            counts.resize(static_cast<size_t>(k));
            for (int64_t c = 0; c < k; ++c) counts[c] = static_cast<int64_t>(total[k * d + c]);  // exact below 2^53
        } else {
            bounded.assign(centers.data(), k, run.labels.data(), nullptr);
            cluster_sums(data, ranks, run.labels.data(), k, ctx.threads, sums, counts);
        }
        const std::vector<double> c_sq = linalg::center_sqnorms(centers.data(), k, d);
        double inertia = x_sq_total;
        for (int64_t c = 0; c < k; ++c) {
            double dot = 0.0;
            for (int64_t j = 0; j < d; ++j) dot += centers[c * d + j] * sums[c * d + j];
            inertia += static_cast<double>(counts[c]) * c_sq[c] - 2.0 * dot;
        }
        std::vector<double> next(static_cast<size_t>(k * d));
        for (int64_t c = 0; c < k; ++c)
            for (int64_t j = 0; j < d; ++j)
                next[c * d + j] = counts[c] > 0 ? sums[c * d + j] / static_cast<double>(counts[c]) : centers[c * d + j];
        if (std::find(counts.begin(), counts.end(), 0) != counts.end()) {
            // The farthest points by the plain step's distances (the bounded
            // step's may differ in the last bits), as without bounds.
            dist.resize(static_cast<size_t>(n));
            nearest.assign(centers.data(), k, run.labels.data(), dist.data());
            reseed_empty(data, ranks, counts, dist, next);
        }
        double shift = 0.0;
        for (int64_t v = 0; v < k * d; ++v) shift += (next[v] - centers[v]) * (next[v] - centers[v]);
        centers.swap(next);
        ctx.log.debug(cat("kmeans: iteration ", it, ": ", bounded.recomputed(), " of ", n,
                          " points compared with every centre"));
        return StepOutcome{std::max(0.0, inertia), shift <= tol_abs};
    });
    // Labels and objective (the inertia) for the final centres, by the plain step.
    dist.resize(static_cast<size_t>(n));
    nearest.assign(centers.data(), k, run.labels.data(), dist.data());
    run.objective = ranks.sum_rows(dist.data(), n);
    run.centers.swap(centers);
    return run;
}

FitResult fit_kmeans(const FitContext &ctx) {
    const DataView &data = ctx.data;
    const Collective ranks = Collective::or_single(ctx.collective, data.n());
    const int64_t k = ctx.options.get_int("k");
    if (k > ranks.n_total())
        fail(KINDRED_E_DIMENSION, "kmeans: k = ", k, " is larger than the number of points n = ", ranks.n_total());
    const int64_t max_iter = ctx.options.get_int("max_iter");
    const double tol_abs = ctx.options.get_double("tol") * mean_variance(data, ranks);
    const Rng base(static_cast<uint64_t>(ctx.options.get_int("seed")));
    NearestCenter nearest(data, ctx.threads);
    return centroid_result(best_of_restarts<CentroidRun>(ctx.options.get_int("n_init"), [&](int64_t r) {
        Rng rng = base.derive(static_cast<uint64_t>(r));
        CentroidRun run = lloyd(ctx, ranks, nearest, kmeanspp_centers(data, k, rng, nearest.x_sqnorm(), ctx.threads, &ranks),
                                k, tol_abs, max_iter, r);
        ctx.log.debug(cat("kmeans: restart ", r, " inertia ", run.objective, " after ", run.iterations, " iterations"));
        return std::optional<CentroidRun>(std::move(run));
    }), data.d());
}

OptionTable kmeans_options() {
    return with_common_options({
        OptionSpec::clusters(8, "number of clusters"),
        OptionSpec::restarts(10, "k-means++ restarts; the run with the lowest inertia is kept"),
        OptionSpec::max_iterations(300, "maximum Lloyd iterations per restart"),
        OptionSpec::tolerance(1e-4, "stop when the squared centre shift is below tol x mean feature variance"),
    });
}

}  // namespace

const AlgorithmSpec &kmeans_spec();

std::vector<int32_t> kmeans_labels(const FitContext &ctx, const DataView &data, int64_t k, int64_t n_init,
                                   int64_t seed, const Collective *collective) {
    const AlgorithmSpec &kmeans = kmeans_spec();
    OptionValues opts(&kmeans.options);
    opts.set_number("k", static_cast<double>(k));
    opts.set_number("n_init", static_cast<double>(n_init));
    opts.set_number("seed", static_cast<double>(seed));
    const FitContext sub{data, nullptr, opts, ctx.progress, ctx.log, ctx.threads, collective};
    return kmeans.fit(sub).labels;
}

const AlgorithmSpec &kmeans_spec() {
    static const AlgorithmSpec spec{"kmeans", "k-means (Lloyd) with k-means++ seeding and restarts",
                                    KINDRED_USES_SPARSE | KINDRED_USES_SHARDS, kmeans_options(), fit_kmeans,
                                    predict_nearest_center};
    return spec;
}

}  // namespace kindred
