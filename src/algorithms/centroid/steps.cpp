#include "algorithms/centroid/steps.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/collective.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"
#include "linalg/blas.hpp"
#include "linalg/distances.hpp"

namespace kindred {
namespace {
// Rows per distance block: about 128K values (1 MB, one core's L2 cache), so
// that the block the GEMM writes is still in cache when the argmin reads it
// back (blocks of 8 MB ran the same GEMM about 25% slower and made the argmin
// a second pass through memory; blocks of 256 KB cost more in the start-up of
// OpenBLAS's threads, once per call). At least kMinBlockRows rows, so that the
// GEMM stays efficient.
constexpr int64_t kBlockValues = int64_t(1) << 17;
constexpr int64_t kMinBlockRows = 256;
}  // namespace

// About kBlockValues / values_per_row rows (at least kMinBlockRows), rounded
// down to a power of two no larger than Collective::kChunk: the blocks then
// tile the global chunks of a sharded fit, so that a rank computes on the
// very blocks of the single-process fit (the same GEMM calls, the same bits).
namespace {
int64_t block_rows(int64_t values_per_row) {
    const int64_t want = std::max<int64_t>(kMinBlockRows, kBlockValues / std::max<int64_t>(values_per_row, 1));
    int64_t rows = kMinBlockRows;
    while (rows * 2 <= want && rows * 2 <= Collective::kChunk) rows *= 2;
    return rows;
}
}  // namespace

int64_t nearest_block_rows(int64_t k) { return block_rows(k); }

NearestCenter::NearestCenter(const DataView &data, int threads)
    : data_(data), threads_(threads), x_sqnorm_(linalg::row_sqnorms(data)) {}

void NearestCenter::assign(const double *centers, int64_t k, int32_t *labels, double *dist) {
    const int64_t n = data_.n();
    const int64_t d = data_.d();
    const int64_t rows = nearest_block_rows(k);
    const std::vector<double> c_sqnorm = linalg::center_sqnorms(centers, k, d);
    auto block = [&](int64_t begin, int64_t end, double *scratch) {
        linalg::minus_two_cross(data_, begin, end, centers, k, scratch);
        for (int64_t r = 0; r < end - begin; ++r) {
            // argmin_c |x - c|^2 = argmin_c (|c|^2 - 2 x.c): |x|^2 is the same
            // for every c, so it is added (and the result clamped at 0 against
            // rounding) only to the minimum. Ties go to the smaller c.
            const double *row = scratch + r * k;
            int64_t best = 0;
            double best_value = c_sqnorm[0] + row[0];
            for (int64_t c = 1; c < k; ++c) {
                const double v = c_sqnorm[c] + row[c];
                if (v < best_value) {
                    best_value = v;
                    best = c;
                }
            }
            labels[begin + r] = static_cast<int32_t>(best);
            if (dist) dist[begin + r] = std::max(0.0, x_sqnorm_[begin + r] + best_value);
        }
    };
    // Threads are planned with OpenBLAS's: when it runs multi-threaded, its
    // threads do the bulk (the GEMM) and every block stays on this thread
    // (starting ours per block cost more than it saved); when it runs on one
    // thread, our threads take whole blocks, each with its own GEMM. The
    // blocks are the same either way, so the results are bitwise the same.
    const int workers = linalg::blas_thread_count() == 1 ? threads_ : 1;
    const int64_t block_size = std::min(rows, n) * k;
    block_.resize(static_cast<size_t>(std::max(1, workers) * block_size));
    parallel_chunks_by_worker(workers, n, rows, [&](int w, int64_t, int64_t begin, int64_t end) {
        block(begin, end, block_.data() + w * block_size);
    });
}

std::vector<double> metric_row_sqnorms(const DataView &data, const std::vector<double> &metric) {
    const int64_t n = data.n(), d = data.d();
    std::vector<double> out(static_cast<size_t>(n)), row(static_cast<size_t>(d));
    for (int64_t i = 0; i < n; ++i) {
        data.copy_row(i, row.data());
        double s = 0.0;
        for (int64_t a = 0; a < d; ++a) {
            double t = 0.0;
            for (int64_t b = 0; b < d; ++b) t += metric[static_cast<size_t>(a * d + b)] * row[static_cast<size_t>(b)];
            s += row[static_cast<size_t>(a)] * t;
        }
        out[static_cast<size_t>(i)] = s;
    }
    return out;
}

std::vector<double> metric_centers(const double *centers, int64_t k, int64_t d, const double *metric,
                                   std::vector<double> &c_sq) {
    std::vector<double> out(static_cast<size_t>(k * d), 0.0);
    c_sq.assign(static_cast<size_t>(k), 0.0);
    for (int64_t h = 0; h < k; ++h) {
        const double *c = centers + h * d;
        double *mc = out.data() + h * d;
        for (int64_t a = 0; a < d; ++a) {
            double t = 0.0;
            for (int64_t b = 0; b < d; ++b) t += metric[a * d + b] * c[b];
            mc[a] = t;
            c_sq[static_cast<size_t>(h)] += c[a] * t;
        }
    }
    return out;
}

namespace {

// Greedy D^2 seeding: up to k centres, each the best of `trials`
// D^2-weighted candidates by resulting potential. first: the first centre
// (null: a point drawn uniformly). stop_gain >= 0: stop before a centre
// that lowers the potential by no more than stop_gain (the DP-means cost of
// a cluster); the centres picked so far are returned.
std::vector<double> greedy_dsquared(const DataView &data, int64_t k, int64_t trials, Rng &rng,
                                    const std::vector<double> &x_sqnorm, int threads, const Collective *collective,
                                    const double *metric, const double *first, double stop_gain,
                                    double *final_potential = nullptr) {
    const Collective ranks = Collective::or_single(collective, data.n());
    const int64_t n = data.n(), d = data.d(), n_total = ranks.n_total();
    const int64_t rows = block_rows(trials);
    const int64_t blocks_per_chunk = Collective::kChunk / rows;
    std::vector<double> centers(static_cast<size_t>(d), 0.0);
    // closest[i] = D(x_i)^2, the squared distance to the nearest centre so far;
    // cumulative = its prefix sums within each chunk of Collective::kChunk
    // rows, for D^2 sampling by binary search (first the chunk, by the
    // prefix sums of the chunk totals, then the point within the chunk: a
    // draw needs only the totals of the other ranks' chunks).
    std::vector<double> closest(static_cast<size_t>(n)), cumulative(static_cast<size_t>(n));
    const int64_t chunks = chunk_count(n, Collective::kChunk);
    // The candidates of one step, their |c|^2, and (candidate-major)
    // min(closest[i], |x_i - candidate|^2), whose sums are the potentials.
    std::vector<double> cand(static_cast<size_t>(trials * d)), cand_sq(static_cast<size_t>(trials));
    std::vector<double> cand_closest(static_cast<size_t>(trials * n)), potentials(static_cast<size_t>(trials));
    // Threads planned with OpenBLAS's, as in NearestCenter::assign.
    const int workers = linalg::blas_thread_count() == 1 ? std::max(1, threads) : 1;
    const int64_t block_size = std::min(rows, n) * trials;
    const int64_t blocks = chunk_count(n, rows);
    std::vector<double> block(static_cast<size_t>(std::max<int64_t>(1, workers * block_size)));
    std::vector<double> partial(static_cast<size_t>(blocks * trials));
    // The distances of all points to m candidates at once, by blocked GEMM
    // (the former point-by-point dot products made seeding cost far more than
    // the Lloyd iterations). Potentials are summed in index order within a
    // block, block by block within a chunk, then chunk by chunk: the same
    // numbers for any number of threads and of ranks.
    auto evaluate = [&](int64_t m, const double *base) {
        parallel_chunks_by_worker(workers, n, rows, [&](int w, int64_t b, int64_t begin, int64_t end) {
            double *scratch = block.data() + w * block_size;
            double *sum = partial.data() + b * trials;
            std::fill(sum, sum + m, 0.0);
            linalg::minus_two_cross(data, begin, end, cand.data(), m, scratch);
            for (int64_t i = begin; i < end; ++i) {
                const double *row = scratch + (i - begin) * m;
                for (int64_t t = 0; t < m; ++t) {
                    double v = std::max(0.0, x_sqnorm[i] + cand_sq[t] + row[t]);
                    if (base) v = std::min(base[i], v);
                    cand_closest[t * n + i] = v;
                    sum[t] += v;
                }
            }
        });
        std::vector<double> by_chunk(static_cast<size_t>(chunks * m), 0.0);
        for (int64_t b = 0; b < blocks; ++b)
            for (int64_t t = 0; t < m; ++t) by_chunk[(b / blocks_per_chunk) * m + t] += partial[b * trials + t];
        const std::vector<double> total = ranks.sum_chunks(by_chunk, m);
        std::copy(total.begin(), total.end(), potentials.begin());
    };
    // With a metric, cand holds the rows M c the GEMM reads and as_given
    // the candidates themselves (the centres); without, cand is both.
    std::vector<double> as_given(metric ? static_cast<size_t>(trials * d) : 0);
    std::vector<double> &points_of = metric ? as_given : cand;
    auto set_candidate = [&](int64_t t, const double *row) {
        if (metric) {
            std::copy(row, row + d, as_given.data() + t * d);
            std::vector<double> sq;
            const std::vector<double> mapped = metric_centers(row, 1, d, metric, sq);
            std::copy(mapped.begin(), mapped.end(), cand.data() + t * d);
            cand_sq[t] = sq[0];
            return;
        }
        std::copy(row, row + d, cand.data() + t * d);
        double sq = 0.0;
        for (int64_t j = 0; j < d; ++j) sq += cand[t * d + j] * cand[t * d + j];
        cand_sq[t] = sq;
    };
    set_candidate(0, first ? first : ranks.rows(data, {rng.below(n_total)}).data());
    std::copy(points_of.begin(), points_of.begin() + d, centers.begin());
    evaluate(1, nullptr);
    std::copy(cand_closest.begin(), cand_closest.begin() + n, closest.begin());
    double potential = potentials[0];
    std::vector<double> draws(static_cast<size_t>(trials));
    std::vector<int64_t> picks(static_cast<size_t>(trials));
    for (int64_t c = 1; c < k; ++c) {
        std::vector<double> totals(static_cast<size_t>(chunks));
        for (int64_t ch = 0; ch < chunks; ++ch) {
            double running = 0.0;
            for (int64_t i = ch * Collective::kChunk; i < std::min(n, (ch + 1) * Collective::kChunk); ++i)
                cumulative[i] = (running += closest[i]);
            totals[ch] = running;
        }
        // The chunk totals of all ranks and their prefix sums, the same on every rank.
        std::vector<double> prefix = ranks.all_chunks(totals, 1);
        for (size_t ch = 1; ch < prefix.size(); ++ch) prefix[ch] += prefix[ch - 1];
        for (int64_t t = 0; t < trials; ++t) {
            if (potential > 0.0) {
                // The first point whose prefix sum exceeds r: probability closest[i] / potential.
                const double r = rng.uniform() * potential;
                const int64_t ch = std::min<int64_t>(
                    std::upper_bound(prefix.begin(), prefix.end(), r) - prefix.begin(), static_cast<int64_t>(prefix.size()) - 1);
                draws[t] = ch > 0 ? r - prefix[ch - 1] : r;
                picks[t] = -1 - ch;  // a chunk, resolved to a point by the rank holding it
            } else {
                picks[t] = rng.below(n_total);  // every point sits on a centre
            }
        }
        // The rank holding each pick sends (t, its row); every rank gets all.
        std::vector<double> held;
        for (int64_t t = 0; t < trials; ++t) {
            int64_t local = picks[t] - ranks.first_row();
            if (picks[t] < 0) {
                const int64_t ch = (-1 - picks[t]) - ranks.first_row() / Collective::kChunk;
                local = -1;
                if (ch >= 0 && ch < chunks) {
                    const int64_t lo = ch * Collective::kChunk, hi = std::min(n, lo + Collective::kChunk);
                    const int64_t i = std::upper_bound(cumulative.begin() + lo, cumulative.begin() + hi, draws[t]) -
                                      cumulative.begin();
                    local = std::min(i, hi - 1);
                }
            }
            if (local < 0 || local >= n) continue;
            held.push_back(static_cast<double>(t));
            held.resize(held.size() + static_cast<size_t>(d));
            data.copy_row(local, held.data() + held.size() - d);
        }
        for (const std::vector<char> &part : ranks.gather(held.data(), held.size() * sizeof(double))) {
            const std::vector<double> v = values_of<double>(part);
            for (size_t at = 0; at + static_cast<size_t>(d) + 1 <= v.size(); at += static_cast<size_t>(d) + 1)
                set_candidate(static_cast<int64_t>(v[at]), v.data() + at + 1);
        }
        evaluate(trials, closest.data());
        int64_t best = 0;
        for (int64_t t = 1; t < trials; ++t)
            if (potentials[t] < potentials[best]) best = t;
        if (stop_gain >= 0.0 && !(potential - potentials[best] > stop_gain)) break;
        centers.insert(centers.end(), points_of.begin() + best * d, points_of.begin() + (best + 1) * d);
        std::copy(cand_closest.begin() + best * n, cand_closest.begin() + (best + 1) * n, closest.begin());
        potential = potentials[best];
    }
    if (final_potential) *final_potential = potential;
    return centers;
}

}  // namespace

std::vector<double> kmeanspp_centers(const DataView &data, int64_t k, Rng &rng, const std::vector<double> &x_sqnorm,
                                     int threads, const Collective *collective, const double *metric) {
    const int64_t trials = 2 + static_cast<int64_t>(std::log(static_cast<double>(k)));
    return greedy_dsquared(data, k, trials, rng, x_sqnorm, threads, collective, metric, nullptr, -1.0);
}

std::vector<double> dp_seed_centers(const DataView &data, double lambda, Rng &rng, const std::vector<double> &x_sqnorm,
                                    int threads, const Collective *collective) {
    const Collective ranks = Collective::or_single(collective, data.n());
    const std::vector<double> mean = global_mean(data, collective);
    std::vector<double> best;
    double best_cost = 0.0;
    for (int64_t s = 0; s < kDpSeedings; ++s) {
        Rng draw = rng.derive(static_cast<uint64_t>(s));
        double potential = 0.0;
        std::vector<double> centers = greedy_dsquared(data, ranks.n_total(), kDpSeedTrials, draw, x_sqnorm, threads,
                                                      collective, nullptr, mean.data(), lambda, &potential);
        // The DP-means objective of the seeds; ties keep the earlier seeding.
        const double cost = potential + lambda * static_cast<double>(centers.size() / mean.size());
        if (s == 0 || cost < best_cost) {
            best.swap(centers);
            best_cost = cost;
        }
    }
    return best;
}

double total_sq_from_mean(const DataView &data, const Collective *collective) {
    const Collective ranks = Collective::or_single(collective, data.n());
    const std::vector<double> mean = global_mean(data, collective);
    double mean_sq = 0.0;
    for (double v : mean) mean_sq += v * v;
    std::vector<double> by_chunk(static_cast<size_t>(chunk_count(data.n(), Collective::kChunk)), 0.0);
    for (int64_t i = 0; i < data.n(); ++i)
        by_chunk[static_cast<size_t>(i / Collective::kChunk)] +=
            std::max(0.0, data.row_sqnorm(i) - 2.0 * data.dot_row(i, mean.data()) + mean_sq);
    return ranks.sum_chunks(by_chunk, 1)[0];
}

std::vector<double> global_mean(const DataView &data, const Collective *collective) {
    const Collective ranks = Collective::or_single(collective, data.n());
    const int64_t n = data.n(), d = data.d();
    // Chunk sums started from 0 in index order: for n <= one chunk, the plain sequential sum.
    std::vector<double> partial(static_cast<size_t>(chunk_count(n, Collective::kChunk) * d), 0.0);
    for (int64_t i = 0; i < n; ++i) data.add_row(i, 1.0, partial.data() + (i / Collective::kChunk) * d);
    std::vector<double> mean = ranks.sum_chunks(partial, d);
    for (double &v : mean) v /= static_cast<double>(ranks.n_total());
    return mean;
}

double lambda_given_or_derived(const FitContext &ctx, const Collective &ranks, const char *method,
                               const std::function<double(int64_t)> &derive) {
    if (ctx.options.is_set("lambda")) return ctx.options.get_double("lambda");
    if (!ctx.options.is_set("k")) fail(KINDRED_E_INVALID, method, ": set lambda, or k (a hint from which lambda is derived)");
    const int64_t k = ctx.options.get_int("k");
    if (k > ranks.n_total())
        fail(KINDRED_E_DIMENSION, method, ": k = ", k, " is larger than the number of points n = ", ranks.n_total());
    return derive(k);
}

double farthest_first_lambda(const DataView &data, int64_t k, const Collective *collective) {
    const Collective ranks = Collective::or_single(collective, data.n());
    const int64_t n = data.n(), d = data.d();
    if (k < 1) fail(KINDRED_E_INVALID, "farthest-first: k must be >= 1, got ", k);
    std::vector<double> centre = global_mean(data, &ranks);
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
        // The farthest point of all ranks (ties to the smaller index, as in one pass).
        const double mine[2] = {n > 0 ? closest[far] : -1.0, static_cast<double>(ranks.first_row() + far)};
        double best[2] = {-1.0, 0.0};
        for (const std::vector<char> &part : ranks.gather(mine, sizeof mine)) {
            double v[2];
            std::memcpy(v, part.data(), sizeof v);
            if (v[0] > best[0] || (v[0] == best[0] && v[1] < best[1])) std::copy(v, v + 2, best);
        }
        pick_distance = best[0];
        centre = ranks.rows(data, {static_cast<int64_t>(best[1])});
    }
    return pick_distance;
}

void predict_nearest_center(const PredictContext &ctx, int32_t *labels) {
    const NamedArray &c = ctx.model.get("centers", -1, ctx.data.d());
    NearestCenter nearest(ctx.data, ctx.threads);
    nearest.assign(c.values.data(), c.rows, labels, nullptr);
}

}  // namespace kindred
