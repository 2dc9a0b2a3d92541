#include "algorithms/centroid_steps.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "linalg/distances.hpp"

namespace kindred {
namespace {
// About 8 MB of distances per block: large enough that the GEMM is efficient
// and our threads are started rarely, small enough to stay in memory budget.
constexpr int64_t kBlockValues = int64_t(1) << 20;
constexpr int64_t kRowChunk = 1024;
constexpr int64_t kSumChunk = 8192;
}  // namespace

NearestCenter::NearestCenter(const DataView &data, int threads)
    : data_(data), threads_(threads), x_sqnorm_(linalg::row_sqnorms(data)) {}

void NearestCenter::assign(const double *centers, int64_t k, int32_t *labels, double *dist) {
    const int64_t n = data_.n();
    const int64_t d = data_.d();
    const int64_t rows = std::max<int64_t>(kRowChunk, kBlockValues / std::max<int64_t>(k, 1));
    block_.resize(static_cast<size_t>(std::min(rows, n) * k));
    const std::vector<double> c_sqnorm = linalg::center_sqnorms(centers, k, d);
    for (int64_t begin = 0; begin < n; begin += rows) {
        const int64_t end = std::min(n, begin + rows);
        // BLAS runs on this thread (with its own threads); ours take the argmin.
        linalg::sq_distances(data_, begin, end, centers, c_sqnorm.data(), k, x_sqnorm_.data(), block_.data());
        parallel_chunks(threads_, end - begin, kRowChunk, [&](int64_t, int64_t lo, int64_t hi) {
            for (int64_t r = lo; r < hi; ++r) {
                const double *row = block_.data() + r * k;
                int64_t best = 0;
                for (int64_t c = 1; c < k; ++c)
                    if (row[c] < row[best]) best = c;
                labels[begin + r] = static_cast<int32_t>(best);
                if (dist) dist[begin + r] = row[best];
            }
        });
    }
}

std::vector<double> kmeanspp_centers(const DataView &data, int64_t k, Rng &rng, const std::vector<double> &x_sqnorm) {
    const int64_t n = data.n(), d = data.d();
    std::vector<double> centers(static_cast<size_t>(k * d), 0.0);
    std::vector<double> closest(static_cast<size_t>(n));
    std::vector<double> cand_row(d), trial(n), best_trial(n);
    auto sqdist_to = [&](int64_t i, const double *c, double c_sq) {
        return std::max(0.0, x_sqnorm[i] - 2.0 * data.dot_row(i, c) + c_sq);
    };
    auto norm2 = [d](const double *c) {
        double s = 0.0;
        for (int64_t j = 0; j < d; ++j) s += c[j] * c[j];
        return s;
    };
    const int64_t first = rng.below(n);
    data.copy_row(first, centers.data());
    double c_sq = norm2(centers.data());
    double potential = 0.0;
    for (int64_t i = 0; i < n; ++i) potential += (closest[i] = sqdist_to(i, centers.data(), c_sq));
    const int64_t trials = 2 + static_cast<int64_t>(std::log(static_cast<double>(k)));
    for (int64_t c = 1; c < k; ++c) {
        double best_potential = std::numeric_limits<double>::infinity();
        int64_t best_index = -1;
        for (int64_t t = 0; t < trials; ++t) {
            int64_t cand;
            if (potential > 0.0) {
                double r = rng.uniform() * potential;
                cand = n - 1;
                for (int64_t i = 0; i < n; ++i) {
                    if (r < closest[i]) { cand = i; break; }
                    r -= closest[i];
                }
            } else {
                cand = rng.below(n);  // every point sits on a centre already
            }
            data.copy_row(cand, cand_row.data());
            const double cs = norm2(cand_row.data());
            double pot = 0.0;
            for (int64_t i = 0; i < n; ++i) pot += (trial[i] = std::min(closest[i], sqdist_to(i, cand_row.data(), cs)));
            if (pot < best_potential) {
                best_potential = pot;
                best_index = cand;
                best_trial.swap(trial);
            }
        }
        data.copy_row(best_index, centers.data() + c * d);
        closest.swap(best_trial);
        potential = best_potential;
    }
    return centers;
}

void cluster_sums(const DataView &data, const int32_t *labels, int64_t k, int threads, std::vector<double> &sums,
                  std::vector<int64_t> &counts) {
    const int64_t n = data.n(), d = data.d();
    const int64_t chunks = chunk_count(n, kSumChunk);
    std::vector<double> part(static_cast<size_t>(chunks * k * d), 0.0);
    std::vector<int64_t> part_counts(static_cast<size_t>(chunks * k), 0);
    parallel_chunks(threads, n, kSumChunk, [&](int64_t chunk, int64_t lo, int64_t hi) {
        double *s = part.data() + chunk * k * d;
        int64_t *cnt = part_counts.data() + chunk * k;
        for (int64_t i = lo; i < hi; ++i) {
            const int32_t l = labels[i];
            if (l < 0 || l >= k) continue;
            data.add_row(i, 1.0, s + l * d);
            ++cnt[l];
        }
    });
    sums.assign(static_cast<size_t>(k * d), 0.0);
    counts.assign(static_cast<size_t>(k), 0);
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
        const double *s = part.data() + chunk * k * d;
        for (int64_t v = 0; v < k * d; ++v) sums[v] += s[v];
        for (int64_t c = 0; c < k; ++c) counts[c] += part_counts[chunk * k + c];
    }
}

std::vector<double> global_mean(const DataView &data) {
    std::vector<double> mean(static_cast<size_t>(data.d()), 0.0);
    for (int64_t i = 0; i < data.n(); ++i) data.add_row(i, 1.0, mean.data());
    for (double &v : mean) v /= static_cast<double>(data.n());
    return mean;
}

double farthest_first_lambda(const DataView &data, int64_t k) {
    const int64_t n = data.n(), d = data.d();
    if (k < 1) fail(KINDRED_E_INVALID, "farthest-first: k must be >= 1, got ", k);
    std::vector<double> centre = global_mean(data);
    std::vector<double> row(d);
    std::vector<double> closest(static_cast<size_t>(n), std::numeric_limits<double>::infinity());
    double pick_distance = 0.0;
    // The mean is the first centre; the k-th farthest-first pick's distance is lambda.
    for (int64_t c = 0; c < k; ++c) {
        int64_t far = 0;
        for (int64_t i = 0; i < n; ++i) {
            data.copy_row(i, row.data());
            double s = 0.0;
            for (int64_t j = 0; j < d; ++j) s += (row[j] - centre[j]) * (row[j] - centre[j]);
            closest[i] = std::min(closest[i], s);
            if (closest[i] > closest[far]) far = i;
        }
        pick_distance = closest[far];
        data.copy_row(far, centre.data());
    }
    return pick_distance;
}

void predict_nearest_center(const PredictContext &ctx, int32_t *labels) {
    const NamedArray &c = ctx.model.get("centers");
    NearestCenter nearest(ctx.data, ctx.threads);
    nearest.assign(c.values.data(), c.rows, labels, nullptr);
}

}  // namespace kindred
