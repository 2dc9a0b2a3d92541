// The AVX2 forms of the RDP-means row kernels (rows.hpp), chosen at
// run time. Each function carries its own target attribute instead of the
// whole file being compiled with -mavx2: the inline functions this file
// shares with the rest of the library (linalg::finish_row_min, the scalar
// parts in rows.hpp) are then emitted, when not inlined, for the
// baseline processor, and no AVX2 copy of them can reach a caller on a
// machine without it.
//
// Same results as the SSE2 forms, bit for bit: a ymm register holds the four
// lanes that rows.hpp keeps in two xmm registers (entry c in lane
// c mod 4), minpd and its 256-bit form both compute a < b ? a : b per lane,
// the comparisons use the same predicates, and the sums are the same mul
// then add (no FMA: the target is avx2 alone, so nothing is contracted).
// Where it pays: the bound test and the dense argmin are a third of the
// sequential work of a pass on 20 centres (scratch cycle counters; see
// docs/performance-history.md, the RDP-means sessions of 2026-11-22 from 05:10 UTC).
#include "algorithms/rdpmeans/rows.hpp"

#if KINDRED_ROWS_AVX2
#include <immintrin.h>

#include <cstring>

#define KINDRED_AVX2 __attribute__((target("avx2")))

namespace kindred {
namespace rows {
namespace {

// linalg::row_min with its four lanes in one register.
KINDRED_AVX2 inline double row_min_avx2(const double *v, int64_t m) {
    __m256d low = _mm256_set1_pd(v[0]);
    int64_t c = 0;
    for (; c + 4 <= m; c += 4) low = _mm256_min_pd(_mm256_loadu_pd(v + c), low);
    double lo[4];
    _mm256_storeu_pd(lo, low);
    return linalg::finish_row_min(lo, v, c, m);
}

// compare_mask: four entries per comparison.
template <bool kEqual>
KINDRED_AVX2 inline uint64_t compare_mask_avx2(const double *v, int64_t base, int64_t end, double x) {
    const __m256d wide = _mm256_set1_pd(x);
    uint64_t mask = 0;
    int64_t c = base;
    for (; c + 4 <= end; c += 4) {
        const __m256d q = _mm256_loadu_pd(v + c);
        const __m256d hit = kEqual ? _mm256_cmp_pd(q, wide, _CMP_EQ_OQ) : _mm256_cmp_pd(q, wide, _CMP_LE_OS);
        mask |= static_cast<uint64_t>(_mm256_movemask_pd(hit)) << (c - base);
    }
    for (; c < end; ++c) mask |= static_cast<uint64_t>(kEqual ? v[c] == x : v[c] <= x) << (c - base);
    return mask;
}

KINDRED_AVX2 inline int64_t first_position_avx2(const double *v, int64_t m, double smallest) {
    if (!(smallest == smallest)) return 0;
    for (int64_t base = 0; base < m; base += 64) {
        const uint64_t equal = compare_mask_avx2<true>(v, base, std::min(m, base + 64), smallest);
        if (equal) return base + __builtin_ctzll(equal);
    }
    return 0;
}

// linalg::finish_sq_row on the row, then row_min_avx2 of it, in one loop:
// (v + x_sq) + c_sq, then maxpd(v, 0), which is v > 0 ? v : 0 per lane, as
// std::max(0.0, v) (NaN and -0 give 0 in both); the minimum over the same
// lanes from the same first value.
KINDRED_AVX2 inline double finish_sq_row_min_avx2(double *row, int64_t k, double x_sq, const double *c_sq) {
    const __m256d x = _mm256_set1_pd(x_sq), zero = _mm256_setzero_pd();
    __m256d low = _mm256_set1_pd(std::max(0.0, row[0] + x_sq + c_sq[0]));
    int64_t c = 0;
    for (; c + 4 <= k; c += 4) {
        const __m256d v = _mm256_add_pd(_mm256_add_pd(_mm256_loadu_pd(row + c), x), _mm256_loadu_pd(c_sq + c));
        const __m256d f = _mm256_max_pd(v, zero);
        _mm256_storeu_pd(row + c, f);
        low = _mm256_min_pd(f, low);
    }
    for (int64_t r = c; r < k; ++r) row[r] = std::max(0.0, row[r] + x_sq + c_sq[r]);
    double lo[4];
    _mm256_storeu_pd(lo, low);
    return linalg::finish_row_min(lo, row, c, k);
}

}  // namespace

bool avx2_available() {
    __builtin_cpu_init();  // idempotent; needed where this runs before the library's constructors
    return __builtin_cpu_supports("avx2");
}

KINDRED_AVX2 int64_t decide_block_avx2(double *block, int64_t rows, int64_t k0, double xi, const double *bound,
                                       double lambda, const int32_t *labels, const double *x_sq, const double *c_sq,
                                       int32_t *pick, double *pick_value, int32_t *reads_links) {
    int64_t listed = 0;
    for (int64_t r = 0; r < rows; ++r) {
        double *row = block + r * k0;
        const double d_b = x_sq ? finish_sq_row_min_avx2(row, k0, x_sq[r], c_sq) : row_min_avx2(row, k0);
        bool fits;
        const double threshold = bound_threshold(d_b, xi * (bound ? bound[r] : 0.0), lambda, fits);
        int64_t b = -1;
        double value = 0.0;
        take_decision(fits, compare_mask_avx2<false>(row, 0, k0, threshold), d_b, b, value);
        pick[r] = static_cast<int32_t>(b);
        pick_value[r] = value;
        reads_links[listed] = static_cast<int32_t>(r);  // listed without a branch, as the pass does
        listed += b != labels[r] ? 1 : 0;
    }
    return listed;
}

// dense_argmin with the terms as four ints from acc + c (int32) or four
// signed bytes (int8), converted to doubles exactly.
KINDRED_AVX2 inline __m256d terms_at(const int32_t *acc, int64_t c) {
    return _mm256_cvtepi32_pd(_mm_loadu_si128(reinterpret_cast<const __m128i *>(acc + c)));
}
KINDRED_AVX2 inline __m256d terms_at(const int8_t *acc, int64_t c) {
    int32_t four;
    std::memcpy(&four, acc + c, sizeof four);
    return _mm256_cvtepi32_pd(_mm_cvtepi8_epi32(_mm_cvtsi32_si128(four)));
}
template <typename Term>
KINDRED_AVX2 inline int64_t dense_argmin_as(const double *row, const Term *acc, double xi, int64_t k0, double *a,
                                            double &best_value) {
    a[0] = row[0] + xi * static_cast<double>(acc[0]);
    const __m256d x = _mm256_set1_pd(xi);
    __m256d low = _mm256_set1_pd(a[0]);
    int64_t c = 0;
    for (; c + 4 <= k0; c += 4) {
        const __m256d v = _mm256_add_pd(_mm256_loadu_pd(row + c), _mm256_mul_pd(x, terms_at(acc, c)));
        _mm256_storeu_pd(a + c, v);
        low = _mm256_min_pd(v, low);
    }
    double lo[4];
    _mm256_storeu_pd(lo, low);
    for (int64_t r = c; r < k0; ++r) a[r] = row[r] + xi * static_cast<double>(acc[r]);
    best_value = linalg::finish_row_min(lo, a, c, k0);
    return first_position_avx2(a, k0, best_value);
}

KINDRED_AVX2 int64_t dense_argmin_avx2(const double *row, const int32_t *acc, double xi, int64_t k0, double *a,
                                       double &best_value) {
    return dense_argmin_as(row, acc, xi, k0, a, best_value);
}
KINDRED_AVX2 int64_t dense_argmin_avx2(const double *row, const int8_t *acc, double xi, int64_t k0, double *a,
                                       double &best_value) {
    return dense_argmin_as(row, acc, xi, k0, a, best_value);
}

}  // namespace rows
}  // namespace kindred

#else

namespace kindred {
namespace rows {
bool avx2_available() { return false; }
int64_t decide_block_avx2(double *, int64_t, int64_t, double, const double *, double, const int32_t *, const double *,
                          const double *, int32_t *, double *, int32_t *) {
    return 0;  // never called: avx2_available() is false
}
int64_t dense_argmin_avx2(const double *, const int32_t *, double, int64_t, double *, double &) { return 0; }
int64_t dense_argmin_avx2(const double *, const int8_t *, double, int64_t, double *, double &) { return 0; }
}  // namespace rows
}  // namespace kindred

#endif
