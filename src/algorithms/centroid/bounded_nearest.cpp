#include "algorithms/centroid/bounded_nearest.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/centroid/steps.hpp"
#include "core/collective.hpp"
#include "core/label_sums.hpp"
#include "core/parallel.hpp"
#include "linalg/blas.hpp"
#include "linalg/distances.hpp"
#include "linalg/small_k_cross.hpp"

namespace kindred {
namespace {

// Cache line, and how far ahead of the row being tested the rows are
// fetched: one page, far enough to cover memory's latency at any usual
// bandwidth, near enough to stay in L1/L2.
constexpr int64_t kLineBytes = 64;
constexpr int64_t kPrefetchBytes = 4096;

inline void prefetch(const char *p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 0, 3);
#else
    (void)p;
#endif
}

double sq_distance(const double *a, const double *b, int64_t d) {
    double s = 0.0;
    for (int64_t j = 0; j < d; ++j) s += (a[j] - b[j]) * (a[j] - b[j]);
    return s;
}

// |x_i - c|^2 read in place: this runs for most points of an iteration, so
// the row is not copied first (a copy per point cost as much as the GEMM it
// saves at d = 16). The same sum as sq_distance on a copy of the row.
double point_sq_distance(const DataView &data, int64_t i, const double *c, const std::vector<double> &x_sqnorm,
                         double c_sq) {
    if (!data.is_dense()) return std::max(0.0, x_sqnorm[i] + c_sq - 2.0 * data.dot_row(i, c));
    const DenseView &v = data.as_dense();
    const int64_t d = v.d, st = v.col_stride();
    double s = 0.0;
    if (v.is_f32()) {
        const float *p = v.row_ptr_f32(i);
        for (int64_t j = 0; j < d; ++j) {
            const double t = static_cast<double>(p[j * st]) - c[j];
            s += t * t;
        }
        return s;
    }
    const double *p = v.row_ptr(i);
    if (st == 1) return sq_distance(p, c, d);
    for (int64_t j = 0; j < d; ++j) s += (p[j * st] - c[j]) * (p[j * st] - c[j]);
    return s;
}

}  // namespace

BoundedNearest::BoundedNearest(const DataView &data, int threads, const std::vector<double> &x_sqnorm)
    : data_(data), threads_(threads), x_sqnorm_(x_sqnorm) {}

bool BoundedNearest::sums_in_pass(int64_t k) const {
    const int workers = linalg::blas_thread_count() == 1 ? std::max(1, threads_) : 1;
    return chunk_blocks_fit(data_, k, Collective::kChunk) &&
           (workers == 1 || chunk_count(data_.n(), Collective::kChunk) >= 2 * int64_t(workers));
}

void BoundedNearest::assign(const double *centers, int64_t k, int32_t *labels, double *dist,
                            std::vector<double> *chunk_sums) {
    const int64_t n = data_.n(), d = data_.d();
    const int64_t rows = nearest_block_rows(k);
    const std::vector<double> c_sq = linalg::center_sqnorms(centers, k, d);
    const double c_sq_max = *std::max_element(c_sq.begin(), c_sq.end());
    // The margin of the skip test, relative to |x|^2 + max |c|^2: above the
    // rounding of a GEMM distance (d terms) and of the bounds' updates.
    const double margin = 1e-9 + 4e-16 * static_cast<double>(d);
    const double inf = std::numeric_limits<double>::infinity();
    const bool bounded = have_bounds_ && static_cast<int64_t>(old_centers_.size()) == k * d;

    // How far each centre moved, the largest and second largest moves, and
    // half the distance from each centre to its nearest other centre.
    std::vector<double> shift(static_cast<size_t>(k), 0.0), half_gap(static_cast<size_t>(k), inf);
    int64_t far_mover = 0;
    double largest = 0.0, second = 0.0;
    if (bounded) {
        for (int64_t c = 0; c < k; ++c) {
            shift[c] = std::sqrt(sq_distance(centers + c * d, old_centers_.data() + c * d, d));
            if (shift[c] > largest) {
                second = largest;
                largest = shift[c];
                far_mover = c;
            } else if (shift[c] > second) {
                second = shift[c];
            }
        }
        for (int64_t c = 0; c < k; ++c)
            for (int64_t o = c + 1; o < k; ++o) {
                const double h = 0.5 * std::sqrt(sq_distance(centers + c * d, centers + o * d, d));
                half_gap[c] = std::min(half_gap[c], h);
                half_gap[o] = std::min(half_gap[o], h);
            }
    }
    upper_.resize(static_cast<size_t>(n));
    lower_.resize(static_cast<size_t>(n));

    // Threads planned with OpenBLAS's, as in NearestCenter::assign; the
    // chunks are the same for any number of threads.
    const int workers = linalg::blas_thread_count() == 1 ? std::max(1, threads_) : 1;
    const int64_t chunk_rows = std::min(rows, n);
    // Gathered rows only for dense points (a CSR row's distances come from
    // its non-zeros, without a dense copy) with more centres than the small-k
    // kernel takes: with few, it reads the rows in place.
    const bool dense = data_.is_dense();
    const bool small_k = dense && linalg::CentreTiles::fits(k);
    const linalg::CentreTiles tiles(centers, small_k ? k : 0, small_k ? d : 0);
    const bool gather = dense && !small_k;
    const int64_t per_worker = (gather ? chunk_rows * d : 0) + chunk_rows * k;
    scratch_.resize(static_cast<size_t>(workers * per_worker));
    // With the sums in the pass every row is read, but the bounds read
    // only the rows of the points that fail Hamerly's first test, at
    // irregular gaps the hardware's prefetcher does not follow: each such
    // read waited on memory (most of the pass's time at d = 16). Fetching
    // every row a page ahead makes the pass a stream.
    const bool dense_rows = dense && data_.as_dense().row_major && !data_.as_dense().is_f32();
    const int64_t row_bytes = d * static_cast<int64_t>(sizeof(double));
    const int64_t prefetch_ahead =
        chunk_sums && dense_rows ? std::max<int64_t>(1, kPrefetchBytes / std::max<int64_t>(row_bytes, 1)) : 0;
    const int64_t blocks = chunk_count(n, rows);
    std::vector<int64_t> redone(static_cast<size_t>(blocks), 0);
    // One block of rows: the new labels of [begin, end), the same blocks
    // (and so the same GEMM calls and bits) whether or not the sums follow.
    auto block_step = [&](int w, int64_t begin, int64_t end) {
        double *gathered = scratch_.data() + w * per_worker;
        double *block = gathered + (gather ? chunk_rows * d : 0);
        std::vector<int64_t> todo;
        for (int64_t i = begin; i < end; ++i) {
            if (prefetch_ahead > 0 && i + prefetch_ahead < end) {
                const char *ahead = reinterpret_cast<const char *>(data_.as_dense().row_ptr(i + prefetch_ahead));
                for (int64_t b = 0; b < row_bytes; b += kLineBytes) prefetch(ahead + b);
            }
            const double tau = margin * (x_sqnorm_[i] + c_sq_max);
            if (bounded) {
                const int32_t a = labels[i];
                const double u = upper_[i] + shift[a];
                const double l = std::max(0.0, lower_[i] - (a == far_mover ? second : largest));
                lower_[i] = l;
                // Hamerly's two tests: with the bound as it is (the point's
                // row is not read at all), then with u tightened to the
                // distance to its centre, computed directly (for CSR rows
                // from the non-zeros: |x|^2 + |c|^2 - 2 x.c).
                const double floor = std::max(l, 2.0 * half_gap[a] - u);
                if (!dist && floor > 0.0 && u * u + 2.0 * tau < floor * floor) {
                    upper_[i] = u;
                    continue;
                }
                const double s = point_sq_distance(data_, i, centers + a * d, x_sqnorm_, c_sq[a]);
                const double tight = std::sqrt(s + tau);
                const double bound = std::max(l, 2.0 * half_gap[a] - tight);
                upper_[i] = tight;
                if (bound > 0.0 && tight * tight + 2.0 * tau < bound * bound) {
                    if (dist) dist[i] = s;
                    continue;
                }
            }
            todo.push_back(i);
        }
        const int64_t m = static_cast<int64_t>(todo.size());
        redone[begin / rows] = m;
        if (m == 0) return;
        // Distances to every centre: for a few centres by the small-k
        // kernel on the rows in place; else by GEMM, on the rows in place
        // when the whole chunk is redone (the blocks of NearestCenter), else
        // on the gathered rows.
        if (small_k) {
            linalg::small_k_cross(data_.as_dense(), todo.data(), m, tiles, block);
        } else if (m == end - begin) {
            linalg::minus_two_cross(data_, begin, end, centers, k, block);
        } else if (!dense) {
            for (int64_t r = 0; r < m; ++r) linalg::minus_two_cross(data_, todo[r], todo[r] + 1, centers, k, block + r * k);
        } else {
            for (int64_t r = 0; r < m; ++r) data_.copy_row(todo[r], gathered + r * d);
            linalg::minus_two_cross(DataView::dense(DenseView::rows(gathered, m, d)), 0, m, centers, k, block);
        }
        for (int64_t r = 0; r < m; ++r) {
            const int64_t i = todo[r];
            const double *values = block + r * k;
            // argmin of |c|^2 - 2 x.c as NearestCenter (ties to the smaller c),
            // and the second smallest value for the lower bound.
            int64_t best = 0;
            double best_value = c_sq[0] + values[0], next_value = inf;
            for (int64_t c = 1; c < k; ++c) {
                const double v = c_sq[c] + values[c];
                if (v < best_value) {
                    next_value = best_value;
                    best_value = v;
                    best = c;
                } else if (v < next_value) {
                    next_value = v;
                }
            }
            const double tau = margin * (x_sqnorm_[i] + c_sq_max);
            const double s = std::max(0.0, x_sqnorm_[i] + best_value);
            labels[i] = static_cast<int32_t>(best);
            if (dist) dist[i] = s;
            upper_[i] = std::sqrt(s + tau);
            lower_[i] = k > 1 ? std::sqrt(std::max(0.0, x_sqnorm_[i] + next_value - tau)) : inf;
        }
    };
    if (!chunk_sums) {
        parallel_chunks_by_worker(workers, n, rows, [&](int w, int64_t, int64_t begin, int64_t end) {
            block_step(w, begin, end);
        });
    } else {
        // A task is a whole chunk of the sums (rows is a power of two no
        // larger than kChunk, so its blocks tile it): each block's rows are
        // added right after its labels are known, while the rows the bounds
        // and the GEMM read are still in cache, in index order into the
        // chunk's sums started from 0: cluster_sums's additions, in one
        // pass over the points instead of two.
        const int64_t width = k * d + k;
        chunk_sums->assign(static_cast<size_t>(chunk_count(n, Collective::kChunk) * width), 0.0);
        std::vector<int64_t> counts(static_cast<size_t>(workers * k));
        parallel_chunks_by_worker(workers, n, Collective::kChunk, [&](int w, int64_t chunk, int64_t lo, int64_t hi) {
            double *sums = chunk_sums->data() + chunk * width;
            int64_t *count = counts.data() + w * k;
            std::fill(count, count + k, int64_t(0));
            for (int64_t begin = lo; begin < hi; begin += rows) {
                const int64_t end = std::min(hi, begin + rows);
                block_step(w, begin, end);
                add_rows_by_label(data_, labels, begin, end, k, sums, count);
            }
            for (int64_t c = 0; c < k; ++c) sums[k * d + c] = static_cast<double>(count[c]);  // exact below 2^53
        });
    }
    recomputed_ = 0;
    for (int64_t m : redone) recomputed_ += m;
    old_centers_.assign(centers, centers + k * d);
    have_bounds_ = true;
}

}  // namespace kindred
