#include "linalg/small_k_cross.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace kindred {
namespace linalg {

CentreTiles::CentreTiles(const double *centers, int64_t k, int64_t d)
    : k_(k), d_(d), tiles_((k + kTile - 1) / kTile), values_(static_cast<size_t>(tiles_ * d * kTile), 0.0) {
    for (int64_t c = 0; c < k; ++c)
        for (int64_t j = 0; j < d; ++j) values_[(c / kTile) * d * kTile + j * kTile + c % kTile] = centers[c * d + j];
}

namespace {

// The instruction sets the body is compiled for (one body, a build per set,
// chosen when the library is loaded): the portable one, and the one with
// 256-bit vectors and fused multiply-add where the compiler and loader
// support picking between them.
// Not under ThreadSanitizer: the clones' resolver runs while the library
// is relocated, before the sanitizer's runtime is set up, and its
// instrumented entry crashes the process at load.
#if defined(__SANITIZE_THREAD__)
#define KINDRED_NO_CLONES 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KINDRED_NO_CLONES 1
#endif
#endif
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && defined(__has_attribute) && !defined(KINDRED_NO_CLONES)
#if __has_attribute(target_clones)
#define KINDRED_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
#endif
#ifndef KINDRED_CLONES
#define KINDRED_CLONES
#endif
#if defined(__GNUC__)
#define KINDRED_INLINE inline __attribute__((always_inline))
#else
#define KINDRED_INLINE inline
#endif

// kTile doubles handled as one value: the compiler's generic vectors where
// it has them (one 256-bit register, or two 128-bit ones in the portable
// build), else an array. Naming the tile's lanes is what keeps the compiler
// from vectorising the loop over coordinates instead (an order of additions
// that needs shuffles and spills the sums).
#if defined(__GNUC__)
typedef double Lanes __attribute__((vector_size(CentreTiles::kTile * sizeof(double))));
#else
struct Lanes {
    double v[CentreTiles::kTile];
    Lanes &operator+=(const Lanes &o) {
        for (int64_t w = 0; w < CentreTiles::kTile; ++w) v[w] += o.v[w];
        return *this;
    }
};
inline Lanes operator*(double a, const Lanes &b) {
    Lanes r;
    for (int64_t w = 0; w < CentreTiles::kTile; ++w) r.v[w] = a * b.v[w];
    return r;
}
#endif

// The body, written once: Tiles tiles of centres against two rows, r0 and
// r1 (r1 may repeat r0; then only one row's sums are written, P = 1). The
// two rows share each load of a tile, and their 2 x Tiles sums are
// independent chains of additions. Each sum is over j in index order.
template <typename T, int Tiles, bool RowMajor>
KINDRED_INLINE void cross_two_rows(const T *r0, const T *r1, int P, int64_t ld, int64_t d, const double *tiles,
                                   int64_t k, double *out) {
    const int64_t st = RowMajor ? 1 : ld;
    Lanes acc0[Tiles] = {}, acc1[Tiles] = {};
    for (int64_t j = 0; j < d; ++j) {
        const double x0 = static_cast<double>(r0[j * st]), x1 = static_cast<double>(r1[j * st]);
        for (int t = 0; t < Tiles; ++t) {
            Lanes c;
            std::memcpy(&c, tiles + (t * d + j) * CentreTiles::kTile, sizeof c);
            acc0[t] += x0 * c;
            acc1[t] += x1 * c;
        }
    }
    double sums[2][Tiles * CentreTiles::kTile];
    std::memcpy(sums[0], acc0, sizeof acc0);
    std::memcpy(sums[1], acc1, sizeof acc1);
    for (int p = 0; p < P; ++p)
        for (int64_t c = 0; c < k; ++c) out[p * k + c] = -2.0 * sums[p][c];
}

template <typename T, int Tiles>
KINDRED_INLINE void cross_all(const T *base, int64_t ld, bool row_major, const int64_t *rows, int64_t m, int64_t d,
                              const double *tiles, int64_t k, double *out) {
    for (int64_t r = 0; r < m; r += 2) {
        const int P = m - r < 2 ? 1 : 2;
        const int64_t i0 = rows[r], i1 = rows[r + P - 1];
        if (row_major)
            cross_two_rows<T, Tiles, true>(base + i0 * ld, base + i1 * ld, P, ld, d, tiles, k, out + r * k);
        else
            cross_two_rows<T, Tiles, false>(base + i0, base + i1, P, ld, d, tiles, k, out + r * k);
    }
}

// The body is inlined into each clone, so that it is compiled for the
// clone's instruction set.
template <typename T>
KINDRED_INLINE void cross_dispatch(const T *base, int64_t ld, bool row_major, const int64_t *rows, int64_t m,
                                   int64_t d, const double *tiles, int64_t n_tiles, int64_t k, double *out) {
    switch (n_tiles) {
    case 1: cross_all<T, 1>(base, ld, row_major, rows, m, d, tiles, k, out); break;
    case 2: cross_all<T, 2>(base, ld, row_major, rows, m, d, tiles, k, out); break;
    case 3: cross_all<T, 3>(base, ld, row_major, rows, m, d, tiles, k, out); break;
    default: cross_all<T, 4>(base, ld, row_major, rows, m, d, tiles, k, out); break;
    }
}

KINDRED_CLONES void cross_f64(const double *base, int64_t ld, bool row_major, const int64_t *rows, int64_t m,
                              int64_t d, const double *tiles, int64_t n_tiles, int64_t k, double *out) {
    cross_dispatch<double>(base, ld, row_major, rows, m, d, tiles, n_tiles, k, out);
}

KINDRED_CLONES void cross_f32(const float *base, int64_t ld, bool row_major, const int64_t *rows, int64_t m,
                              int64_t d, const double *tiles, int64_t n_tiles, int64_t k, double *out) {
    cross_dispatch<float>(base, ld, row_major, rows, m, d, tiles, n_tiles, k, out);
}

}  // namespace

void small_k_cross(const DenseView &x, const int64_t *rows, int64_t m, const CentreTiles &centres, double *out) {
    if (m <= 0) return;
    if (x.is_f32())
        cross_f32(x.xf, x.ld, x.row_major, rows, m, centres.d(), centres.data(), centres.tiles(), centres.k(), out);
    else
        cross_f64(x.x, x.ld, x.row_major, rows, m, centres.d(), centres.data(), centres.tiles(), centres.k(), out);
}

}  // namespace linalg
}  // namespace kindred
