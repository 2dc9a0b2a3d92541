#include "capi/data_args.hpp"

#include <cmath>

#include "capi/guard.hpp"

namespace kindred {
namespace capi {

DataView dense_arg(const double *x, int64_t n, int64_t d, int layout, int64_t ld) {
    require_pointer(x, "data");
    if (n <= 0) fail(KINDRED_E_INVALID, "data: n must be > 0, got ", n);
    if (d <= 0) fail(KINDRED_E_INVALID, "data: d must be > 0, got ", d);
    if (layout != KINDRED_ROW_MAJOR && layout != KINDRED_COL_MAJOR)
        fail(KINDRED_E_INVALID, "data: layout must be KINDRED_ROW_MAJOR (101) or KINDRED_COL_MAJOR (102), got ", layout);
    const bool row_major = layout == KINDRED_ROW_MAJOR;
    if (row_major && ld < d) fail(KINDRED_E_DIMENSION, "data: row-major leading dimension ", ld, " is smaller than d = ", d);
    if (!row_major && ld < n) fail(KINDRED_E_DIMENSION, "data: column-major leading dimension ", ld, " is smaller than n = ", n);
    DenseView v{x, n, d, ld, row_major};
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < d; ++j)
            if (!std::isfinite(v.at(i, j)))
                fail(KINDRED_E_INVALID, "data: value at row ", i, ", column ", j, " is ",
                     std::isnan(v.at(i, j)) ? "NaN" : "infinite");
    return DataView::dense(v);
}

DataView csr_arg(int64_t n, int64_t d, const int64_t *indptr, const int64_t *indices, const double *values) {
    require_pointer(indptr, "CSR indptr");
    if (n <= 0) fail(KINDRED_E_INVALID, "data: n must be > 0, got ", n);
    if (d <= 0) fail(KINDRED_E_INVALID, "data: d must be > 0, got ", d);
    if (indptr[0] != 0) fail(KINDRED_E_INVALID, "CSR indptr[0] must be 0, got ", indptr[0]);
    for (int64_t i = 0; i < n; ++i)
        if (indptr[i + 1] < indptr[i])
            fail(KINDRED_E_INVALID, "CSR indptr decreases at row ", i, " (", indptr[i], " then ", indptr[i + 1], ")");
    if (indptr[n] > 0) {
        require_pointer(indices, "CSR indices");
        require_pointer(values, "CSR values");
    }
    for (int64_t i = 0; i < n; ++i)
        for (int64_t e = indptr[i]; e < indptr[i + 1]; ++e) {
            if (indices[e] < 0 || indices[e] >= d)
                fail(KINDRED_E_INDEX, "CSR column index ", indices[e], " out of range for d = ", d, " at row ", i, " (entry ", e, ")");
            if (!std::isfinite(values[e]))
                fail(KINDRED_E_INVALID, "data: value at row ", i, ", column ", indices[e], " is ",
                     std::isnan(values[e]) ? "NaN" : "infinite");
        }
    return DataView::csr(CsrView{indptr, indices, values, n, d});
}

void require_capacity(int64_t capacity, int64_t needed, const char *what) {
    if (capacity < needed)
        fail(KINDRED_E_DIMENSION, what, ": buffer of ", capacity, " entries is too small; ", needed, " needed");
}

}  // namespace capi
}  // namespace kindred
