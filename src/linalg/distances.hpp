// Squared Euclidean point-to-centre distances in blocks, by GEMM:
// |x - c|^2 = |x|^2 - 2 x.c + |c|^2 (clamped at 0 against rounding).
#ifndef KINDRED_LINALG_DISTANCES_HPP
#define KINDRED_LINALG_DISTANCES_HPP

#include <algorithm>
#include <cstdint>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/data_view.hpp"

namespace kindred {
namespace linalg {

// |x_i|^2 for every point.
std::vector<double> row_sqnorms(const DataView &x);
// |c|^2 for each of k rows of a row-major k x d matrix.
std::vector<double> center_sqnorms(const double *centers, int64_t k, int64_t d);

// The end of row_min, given its four lanes lo after the whole groups of four
// (c = the first entry after them): v[c..m) into lane 0, then the lanes
// merged in order. Shared with the RDP-means kernels that build a row and
// take its minimum at once (algorithms/rdpmeans/rows*), so that they give
// row_min's value.
inline double finish_row_min(double lo[4], const double *v, int64_t c, int64_t m) {
    for (; c < m; ++c) lo[0] = v[c] < lo[0] ? v[c] : lo[0];
    double smallest = lo[0];
    for (int t = 1; t < 4; ++t) smallest = lo[t] < smallest ? lo[t] : smallest;
    return smallest;
}

// The smallest of v[0..m), m >= 1, in four independent lanes (a single
// running minimum is a chain of m dependent comparisons); NaN entries after
// the first are passed over. Lane t holds the entries c = t mod 4 of the
// whole groups of four, lane 0 also the rest; each lane keeps
// "v[c] < lo ? v[c] : lo", which is what SSE2's minpd computes per entry
// (minpd(a, b) = a < b ? a : b, b when either is NaN), so the vector form
// below gives the same value, sign of zero included.
inline double row_min(const double *v, int64_t m) {
    double lo[4] = {v[0], v[0], v[0], v[0]};
    int64_t c = 0;
#if defined(__SSE2__)
    __m128d low = _mm_set1_pd(v[0]), high = low;  // lanes 0, 1 and 2, 3
    for (; c + 4 <= m; c += 4) {
        low = _mm_min_pd(_mm_loadu_pd(v + c), low);
        high = _mm_min_pd(_mm_loadu_pd(v + c + 2), high);
    }
    _mm_storeu_pd(lo, low);
    _mm_storeu_pd(lo + 2, high);
#else
    for (; c + 4 <= m; c += 4)
        for (int t = 0; t < 4; ++t) lo[t] = v[c + t] < lo[t] ? v[c + t] : lo[t];
#endif
    return finish_row_min(lo, v, c, m);
}

// out[(i - begin) * k + c] = -2 <x_i, center_c> for i in [begin, end): the
// only part of the distance that needs a matrix product (GEMM for dense data).
void minus_two_cross(const DataView &x, int64_t begin, int64_t end, const double *centers, int64_t k, double *out);

// A row of minus_two_cross made squared distances: row[c] = max(0, (row[c] +
// x_sqnorm) + c_sqnorm[c]), clamped against rounding. The one formula of
// sq_distances and of the callers that finish the rows as they read them.
inline void finish_sq_row(double *row, int64_t k, double x_sqnorm, const double *c_sqnorm) {
    for (int64_t c = 0; c < k; ++c) row[c] = std::max(0.0, row[c] + x_sqnorm + c_sqnorm[c]);
}

// out[(i - begin) * k + c] = |x_i - center_c|^2 for i in [begin, end).
// centers: k x d row-major; x_sqnorm: |x_i|^2 for all points (indexed by i).
void sq_distances(const DataView &x, int64_t begin, int64_t end, const double *centers,
                  const double *c_sqnorm, int64_t k, const double *x_sqnorm, double *out);

}  // namespace linalg
}  // namespace kindred

#endif
