// The per-row kernels of an RDP-means pass (rdpmeans.cpp): the bound test
// that decides a point without its link terms, and the choice from a row and
// the link terms in their dense form, with the branch-free minimum and
// first-position scans they share. SSE2 where it is there (every x86-64
// processor): these forms bought 13-27% of an iteration over plain scalar
// loops with branches; an AVX2 copy did not buy 20% and went
// (docs/performance-history.md, "RDP-means: the memory devices removed" and
// "RDP-means: the AVX2 copy of the row kernels removed").
#ifndef KINDRED_ALGORITHMS_RDPMEANS_ROWS_HPP
#define KINDRED_ALGORITHMS_RDPMEANS_ROWS_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "linalg/distances.hpp"

namespace kindred {
namespace rows {

// Bit c - base set where v[c] == x (kEqual) or v[c] <= x (else), for c in
// [base, end), end - base <= 64: two entries per comparison where SSE2 is
// there, four per step.
template <bool kEqual>
inline uint64_t compare_mask(const double *v, int64_t base, int64_t end, double x) {
    uint64_t mask = 0;
    int64_t c = base;
#if defined(__SSE2__)
    const __m128d wide = _mm_set1_pd(x);
    const auto hits = [&](int64_t at) {
        const __m128d pair = _mm_loadu_pd(v + at);
        return static_cast<uint64_t>(_mm_movemask_pd(kEqual ? _mm_cmpeq_pd(pair, wide) : _mm_cmple_pd(pair, wide)));
    };
    for (; c + 4 <= end; c += 4) mask |= (hits(c) | hits(c + 2) << 2) << (c - base);
    if (c + 2 <= end) {
        mask |= hits(c) << (c - base);
        c += 2;
    }
#endif
    for (; c < end; ++c) mask |= static_cast<uint64_t>(kEqual ? v[c] == x : v[c] <= x) << (c - base);
    return mask;
}

// The first index c of v[0..m) with v[c] == smallest, where smallest is
// row_min(v, m) (0 when that is NaN: v[0] is NaN, which the scan keeps).
inline int64_t first_position(const double *v, int64_t m, double smallest) {
    if (!(smallest == smallest)) return 0;
    for (int64_t base = 0; base < m; base += 64) {
        const uint64_t equal = compare_mask<true>(v, base, std::min(m, base + 64), smallest);
        if (equal) return base + __builtin_ctzll(equal);
    }
    return 0;  // not reached: smallest is one of the v[c]
}

// The first index of the smallest of v[0..m), m >= 1: the result of the
// sequential scan "v[c] < best" (ties to the smaller index), without its
// branches (the position of the minimum makes them unpredictable): the
// smallest value in four independent lanes, then its first position from a
// bit mask of the entries equal to it, 64 entries at a time. With second,
// also the second smallest value (the smallest again when it occurs twice),
// from the two smallest of each lane.
inline int64_t first_argmin(const double *v, int64_t m, double &smallest, double *second = nullptr) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    double lo[4] = {v[0], v[0], v[0], v[0]};
    double next[4] = {kInf, kInf, kInf, kInf};  // with second: each lane's second smallest
    int64_t c = 0;
    if (second) {
        lo[1] = lo[2] = lo[3] = kInf;  // v[0] counted once, in lane 0
        c = 1;
        for (; c + 4 <= m; c += 4)
            for (int t = 0; t < 4; ++t) {
                const double x = v[c + t];
                next[t] = std::min(next[t], std::max(lo[t], x));
                lo[t] = x < lo[t] ? x : lo[t];
            }
        for (; c < m; ++c) {
            next[0] = std::min(next[0], std::max(lo[0], v[c]));
            lo[0] = v[c] < lo[0] ? v[c] : lo[0];
        }
        smallest = lo[0];
        for (int t = 1; t < 4; ++t) smallest = lo[t] < smallest ? lo[t] : smallest;
    } else {
        smallest = linalg::row_min(v, m);
    }
    if (second) {
        // The second smallest of the lanes' two smallest values.
        double s1 = kInf, s2 = kInf;
        for (int t = 0; t < 4; ++t)
            for (const double x : {lo[t], next[t]}) {
                s2 = std::min(s2, std::max(s1, x));
                s1 = x < s1 ? x : s1;
            }
        *second = s2;
    }
    return first_position(v, m, smallest);
}

// Point i's choice from its divergence row and its link terms g_ik in the
// dense form (acc): the first minimum of row[c] + xi g_ic over the k0
// clusters, computed in a (k0 entries), and its augmented distance into
// best_value.
// The same sums as the slots' terms added in place (a cluster without a slot
// adds xi 0 = 0 exactly), so the same choice. With SSE2 the row is built and
// its minimum taken in one loop, in the lanes of linalg::row_min (the same
// minimum).
inline int64_t dense_argmin(const double *row, const int32_t *acc, double xi, int64_t k0, double *a,
                            double &best_value) {
#if defined(__SSE2__)
    a[0] = row[0] + xi * static_cast<double>(acc[0]);
    const __m128d x = _mm_set1_pd(xi);
    __m128d low = _mm_set1_pd(a[0]), high = low;  // row_min's lanes 0, 1 and 2, 3
    int64_t c = 0;
    for (; c + 4 <= k0; c += 4) {
        const __m128i g = _mm_loadu_si128(reinterpret_cast<const __m128i *>(acc + c));
        const __m128d a01 = _mm_add_pd(_mm_loadu_pd(row + c), _mm_mul_pd(x, _mm_cvtepi32_pd(g)));
        const __m128d a23 = _mm_add_pd(_mm_loadu_pd(row + c + 2), _mm_mul_pd(x, _mm_cvtepi32_pd(_mm_srli_si128(g, 8))));
        _mm_storeu_pd(a + c, a01);
        _mm_storeu_pd(a + c + 2, a23);
        low = _mm_min_pd(a01, low);
        high = _mm_min_pd(a23, high);
    }
    double lo[4];
    _mm_storeu_pd(lo, low);
    _mm_storeu_pd(lo + 2, high);
    for (int64_t r = c; r < k0; ++r) a[r] = row[r] + xi * static_cast<double>(acc[r]);
    best_value = linalg::finish_row_min(lo, a, c, k0);
    return first_position(a, k0, best_value);
#else
    for (int64_t c = 0; c < k0; ++c) a[c] = row[c] + xi * static_cast<double>(acc[c]);
    return first_argmin(a, k0, best_value);
#endif
}

// The scalar part of decided_fast, shared by its forms: from the smallest
// divergence d_b of the row and t = xi S_i, the threshold at or below which
// only b may lie, and in fits whether d_b >= 0 and d_b + t stays below lambda,
// both with the margins decided_fast explains.
inline double bound_threshold(double d_b, double t, double lambda, bool &fits) {
    constexpr double kMargin = 1e-12;
    const double room = lambda - d_b - kMargin * (d_b + std::fabs(lambda));  // must exceed t (1 + margin)
    fits = (d_b >= 0.0) & (room > t * (1.0 + kMargin));
    constexpr double kOver = 1.0 / (1.0 - kMargin);  // a product, not a division (one more rounding)
    return (d_b * (1.0 + kMargin) + t * (1.0 + 2.0 * kMargin)) * kOver;
}

// The decision of decided_fast from fits and the mask of the entries at or
// below the threshold: all ones when they are b alone (one bit; never none,
// d_b being one of them unless it is NaN, which fails d_b >= 0), else 0.
// Kept opaque to the compiler, which otherwise turns the "and" of these
// conditions back into branches (GCC 12 did): their outcome is what the
// middle of the annealing makes unpredictable.
inline uint64_t decision_mask(bool fits, uint64_t below) {
    uint64_t one = static_cast<uint64_t>(fits) & static_cast<uint64_t>(below != 0) &
                   static_cast<uint64_t>((below & (below - 1)) == 0);
#if defined(__GNUC__)
    __asm__("" : "+r"(one));
#endif
    return uint64_t(0) - one;
}

// v if mask is all ones, else otherwise, without a branch.
inline int64_t select_int(uint64_t mask, int64_t v, int64_t otherwise) {
    return static_cast<int64_t>((static_cast<uint64_t>(v) & mask) | (static_cast<uint64_t>(otherwise) & ~mask));
}
inline double select_double(uint64_t mask, double v, double otherwise) {
    uint64_t a, b;
    std::memcpy(&a, &v, sizeof a);
    std::memcpy(&b, &otherwise, sizeof b);
    a = (a & mask) | (b & ~mask);
    double out;
    std::memcpy(&out, &a, sizeof out);
    return out;
}

// The outcome of the bound test up to 64 centres, shared by its forms: from
// fits and the mask below of the entries at or below the threshold, best
// and d_best become b and d_b when the test decides, and stay as they are
// otherwise (selected by mask, without a branch). Returns the decision mask.
inline uint64_t take_decision(bool fits, uint64_t below, double d_b, int64_t &best, double &d_best) {
    const uint64_t decided = decision_mask(fits, below);
    const int64_t found = __builtin_ctzll(below | (uint64_t(1) << 63));  // b: the one entry below
    best = select_int(decided, found, best);
    d_best = select_double(decided, d_b, d_best);
    return decided;
}

// Point i's choice when no link term can change it. Its augmented distances
// are a_k = D_ik + xi g_ik, and |g_ik| + |g_il| <= S_i for any two clusters
// (LinkCountCache::link_bound: the sum of |term| over i's pairs). So when
// its nearest centre b (the first minimum of the divergence row) wins by
// more than xi S_i,
//     D_ik - D_ib > xi S_i   for every k != b,
// b is also the first minimum of the augmented distances, whatever the links;
// and when D_ib + xi S_i < lambda, no cluster is opened. Such a point needs
// neither its link terms nor their gather (an exact shortcut, like the
// distance bounds of accelerated k-means). Margins of 1e-12 relative, as in
// stable.hpp, so that the rounded comparisons of the full computation come
// out the same; it suffices to check the nearest competitor (the margin
// grows with |D_k| more slowly than the gap). Returns
// false (decide with the link terms) otherwise; true with b and D_ib, and
// with limit the largest xi' up to which both bounds hold (a certificate for
// certified_pass, as certified_limit gives one).
//
// Without limit (every pass but the repeats of an unchanged one), the test
// takes a faster form: for D >= 0, "kept > t (1 + 2 margin)" below reads
//     D_ik > (D_ib (1 + margin) + t (1 + 2 margin)) / (1 - margin)  for every k != b,
// so it needs the smallest divergence and then the entries at or below that
// threshold (one: b, the first minimum), not the second smallest: a scan
// with one comparison per entry instead of three. The two forms differ by
// two roundings, far inside the margins.
//
// Up to 64 centres the test has no branch on its outcome: where the bound
// decides some of the points and not others (the middle of the annealing)
// the outcome is unpredictable, and its branches mispredicted.
inline bool decided_fast(const double *row, int64_t k0, double t, double lambda, int64_t &best, double &d_best) {
    const double d_b = linalg::row_min(row, k0);
    bool fits;
    const double threshold = bound_threshold(d_b, t, lambda, fits);
    if (k0 <= 64) {
        return take_decision(fits, compare_mask<false>(row, 0, k0, threshold), d_b, best, d_best) != 0;
    }
    if (!fits) return false;
    int64_t found = -1;
    for (int64_t base = 0; base < k0; base += 64) {
        const uint64_t below = compare_mask<false>(row, base, std::min(k0, base + 64), threshold);
        if (!below) continue;
        if (found >= 0 || (below & (below - 1))) return false;  // a competitor within the threshold
        found = base + __builtin_ctzll(below);
    }
    best = found;  // row[found] = d_b: the only entry at or below the threshold
    d_best = d_b;
    return true;
}

}  // namespace rows
}  // namespace kindred

#endif
