// The cross term -2 x.c of squared distances to a few centres (k <= 16),
// for rows picked by index and read in place, without GEMM.
//
// Why not GEMM: the bounded nearest-centre step recomputes scattered rows.
// Through GEMM they must first be gathered into a block, which OpenBLAS then
// packs again, and with k = 10 columns its kernel runs far below its peak:
// for d = 16 the copies cost more than the arithmetic. Here each row is read
// once where it lies (float64, or float32 widened in the register), against
// the centres laid out by coordinate in tiles of kTile columns, so that the
// loop over a tile's centres is what the compiler vectorises; no order of
// additions depends on the vector width (each value is the sum over j in
// index order, then scaled by -2, exactly).
//
// The values are not GEMM's bits: they differ from it in the last bits as
// one order of additions from another. The build for processors with fused
// multiply-add (see small_k_cross.cpp) fuses each step, the portable one
// does not: their last bits differ likewise, as OpenBLAS's kernels for
// different processors do. Callers use them where a
// margin above that rounding already covers a different blocking of GEMM
// (algorithms/centroid/bounded_nearest.hpp).
#ifndef KINDRED_LINALG_SMALL_K_CROSS_HPP
#define KINDRED_LINALG_SMALL_K_CROSS_HPP

#include <cstdint>
#include <vector>

#include "core/data_view.hpp"

namespace kindred {
namespace linalg {

// Centres for small_k_cross: ceil(k / kTile) tiles, each d x kTile
// (coordinate-major), zero beyond k.
class CentreTiles {
public:
    static constexpr int64_t kTile = 4;
    static constexpr int64_t kMaxK = 16;
    static bool fits(int64_t k) { return k >= 1 && k <= kMaxK; }
    CentreTiles(const double *centers, int64_t k, int64_t d);
    int64_t k() const { return k_; }
    int64_t d() const { return d_; }
    int64_t tiles() const { return tiles_; }
    const double *data() const { return values_.data(); }

private:
    int64_t k_, d_, tiles_;
    std::vector<double> values_;
};

// out[r * k + c] = -2 <x_{rows[r]}, center_c> for r < m, x dense (float64 or
// float32, any layout), k = centres.k() <= kMaxK.
void small_k_cross(const DenseView &x, const int64_t *rows, int64_t m, const CentreTiles &centres, double *out);

}  // namespace linalg
}  // namespace kindred

#endif
