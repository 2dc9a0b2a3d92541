#include "linalg/dense_rows.hpp"

#include <cstddef>

namespace kindred {
namespace linalg {

RowsF64 rows_f64(const DenseView &v, int64_t begin, int64_t end, std::vector<double> &scratch) {
    if (!v.is_f32()) return RowsF64{v.row_ptr(begin), v.ld, v.row_major};
    const int64_t m = end - begin, d = v.d;
    scratch.resize(static_cast<size_t>(m * d));
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < d; ++j) scratch[i * d + j] = v.at(begin + i, j);
    return RowsF64{scratch.data(), d, true};
}

}  // namespace linalg
}  // namespace kindred
