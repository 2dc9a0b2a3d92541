// Rows of dense points as float64 for BLAS. A float64 array is handed over
// as it is; a float32 array (read in place, never copied whole) is widened
// block by block into a scratch buffer of the block's size, so that GEMM
// sees exactly the values a float64 copy would hold: the results are those
// of the float64 array with the same values.
#ifndef KINDRED_LINALG_DENSE_ROWS_HPP
#define KINDRED_LINALG_DENSE_ROWS_HPP

#include <cstdint>
#include <vector>

#include "core/data_view.hpp"

namespace kindred {
namespace linalg {

struct RowsF64 {
    const double *x;  // the first row
    int64_t ld;       // leading dimension of x
    bool row_major;
};

// Rows [begin, end) of v. For float32 data they are written to scratch
// (row-major, ld = d), which must outlive the use of the result.
RowsF64 rows_f64(const DenseView &v, int64_t begin, int64_t end, std::vector<double> &scratch);

// Rows per block when a whole float32 matrix goes through GEMM by blocks
// (a few MB of scratch at d = 64).
constexpr int64_t kWidenBlockRows = 4096;

}  // namespace linalg
}  // namespace kindred

#endif
