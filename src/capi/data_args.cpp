#include "capi/data_args.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "capi/guard.hpp"
#include "core/options.hpp"

namespace kindred {
namespace capi {

namespace {

// The scale of data every algorithm handles. Squared distances, sums of
// squares and objectives are sums of n * d squares of differences: above
// ~1e154 a single square overflows to inf, below ~1e-154 it underflows to 0,
// and the algorithms then return a wrong clustering with no error (k-means
// gave objective 0 and ARI 0 on well-separated blobs scaled by 1e154). A
// magnitude up to 1e100 keeps n * d * (2e100)^2 finite for any n * d < 1e100,
// and a largest magnitude of at least 1e-100 keeps the squares normal numbers.
constexpr double kMaxMagnitude = 1e100;
constexpr double kMinLargestMagnitude = 1e-100;

[[noreturn]] void fail_value(int64_t i, int64_t j, double v) {
    if (std::isnan(v)) fail(KINDRED_E_INVALID, "data: value at row ", i, ", column ", j, " is NaN");
    if (std::isinf(v)) fail(KINDRED_E_INVALID, "data: value at row ", i, ", column ", j, " is infinite");
    fail(KINDRED_E_INVALID, "data: value at row ", i, ", column ", j, " is ", format_number(v), "; magnitudes above ", kMaxMagnitude,
         " make squared distances overflow (scale the data)");
}

void check_largest(double largest) {
    if (largest > 0.0 && largest < kMinLargestMagnitude)
        fail(KINDRED_E_INVALID, "data: the largest magnitude is ", format_number(largest), "; when every value is below ",
             kMinLargestMagnitude, " in magnitude squared distances underflow to 0 (scale the data)");
}

// The checks of dense_arg for either element type.
template <typename T>
DataView checked_dense(const T *x, int64_t n, int64_t d, int layout, int64_t ld) {
    require_pointer(x, "data");
    if (n <= 0) fail(KINDRED_E_INVALID, "data: n must be > 0, got ", n);
    if (d <= 0) fail(KINDRED_E_INVALID, "data: d must be > 0, got ", d);
    if (layout != KINDRED_ROW_MAJOR && layout != KINDRED_COL_MAJOR)
        fail(KINDRED_E_INVALID, "data: layout must be KINDRED_ROW_MAJOR (101) or KINDRED_COL_MAJOR (102), got ", layout);
    const bool row_major = layout == KINDRED_ROW_MAJOR;
    if (row_major && ld < d) fail(KINDRED_E_DIMENSION, "data: row-major leading dimension ", ld, " is smaller than d = ", d);
    if (!row_major && ld < n) fail(KINDRED_E_DIMENSION, "data: column-major leading dimension ", ld, " is smaller than n = ", n);
    // The last element is at (n - 1) * ld + d - 1 (row-major) or (d - 1) * ld + n - 1:
    // no buffer holds more than 2^60 doubles, and beyond that the offsets overflow.
    const int64_t outer = row_major ? n : d, inner = row_major ? d : n;
    if ((outer - 1) > (INT64_C(1) << 60) / ld || (outer - 1) * ld > (INT64_C(1) << 60) - inner)
        fail(KINDRED_E_DIMENSION, "data: n = ", n, ", d = ", d, " and leading dimension ", ld,
             " describe more than 2^60 values; no buffer is that large");
    DenseView v;
    v.n = n;
    v.d = d;
    v.ld = ld;
    v.row_major = row_major;
    if constexpr (std::is_same<T, float>::value)
        v.xf = x;
    else
        v.x = x;
    double largest = 0.0;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < d; ++j) {
            const double a = std::fabs(v.at(i, j));
            if (!(a <= kMaxMagnitude)) fail_value(i, j, v.at(i, j));
            largest = std::max(largest, a);
        }
    check_largest(largest);
    return DataView::dense(v);
}

}  // namespace

DataView dense_arg(const double *x, int64_t n, int64_t d, int layout, int64_t ld) {
    return checked_dense(x, n, d, layout, ld);
}

DataView dense_arg_f32(const float *x, int64_t n, int64_t d, int layout, int64_t ld) {
    return checked_dense(x, n, d, layout, ld);
}

DataView csr_arg(int64_t n, int64_t d, const int64_t *indptr, const int64_t *indices, const double *values) {
    require_pointer(indptr, "CSR indptr");
    if (n <= 0) fail(KINDRED_E_INVALID, "data: n must be > 0, got ", n);
    if (d <= 0) fail(KINDRED_E_INVALID, "data: d must be > 0, got ", d);
    // indptr has n + 1 entries: refused before n + 1 or a read past it.
    require_array_count(n, 2 * sizeof(int64_t), "CSR data: n");
    if (indptr[0] != 0) fail(KINDRED_E_INVALID, "CSR indptr[0] must be 0, got ", indptr[0]);
    for (int64_t i = 0; i < n; ++i)
        if (indptr[i + 1] < indptr[i])
            fail(KINDRED_E_INVALID, "CSR indptr decreases at row ", i, " (", indptr[i], " then ", indptr[i + 1], ")");
    if (indptr[n] > 0) {
        require_pointer(indices, "CSR indices");
        require_pointer(values, "CSR values");
    }
    double largest = 0.0;
    std::vector<int64_t> row_columns;
    for (int64_t i = 0; i < n; ++i) {
        bool sorted = true;
        for (int64_t e = indptr[i]; e < indptr[i + 1]; ++e) {
            if (indices[e] < 0 || indices[e] >= d)
                fail(KINDRED_E_INDEX, "CSR column index ", indices[e], " out of range for d = ", d, " at row ", i, " (entry ", e, ")");
            const double a = std::fabs(values[e]);
            if (!(a <= kMaxMagnitude)) fail_value(i, indices[e], values[e]);
            largest = std::max(largest, a);
            if (e > indptr[i] && indices[e] <= indices[e - 1]) sorted = false;
        }
        // A repeated column would be read as two coordinates by the row norms
        // (x^2 + y^2 instead of (x + y)^2) and give wrong distances: refuse it.
        // Unsorted rows are fine; only they need the sort to find repeats.
        if (sorted) continue;
        row_columns.assign(indices + indptr[i], indices + indptr[i + 1]);
        std::sort(row_columns.begin(), row_columns.end());
        const auto repeat = std::adjacent_find(row_columns.begin(), row_columns.end());
        if (repeat != row_columns.end())
            fail(KINDRED_E_INVALID, "CSR row ", i, " has column ", *repeat,
                 " more than once; sum the duplicates first (e.g. scipy's sum_duplicates())");
    }
    check_largest(largest);
    return DataView::csr(CsrView{indptr, indices, values, n, d});
}

void require_capacity(int64_t capacity, int64_t needed, const char *what) {
    if (capacity < needed)
        fail(KINDRED_E_BUFFER_TOO_SMALL, what, ": buffer of ", capacity, " entries is too small; ", needed, " needed");
}

void require_capacity(int64_t capacity, int64_t rows, int64_t cols, const char *what) {
    if (rows > 0 && cols > 0 && rows > capacity / cols)
        fail(KINDRED_E_BUFFER_TOO_SMALL, what, ": buffer of ", capacity, " entries is too small; ", rows, " x ", cols,
             " needed");
}

void require_allocatable(int64_t count, int64_t bytes_each, const char *what) {
    if (count > PTRDIFF_MAX / bytes_each)
        fail(KINDRED_E_NOMEM, "out of memory: ", what, " = ", count, " needs more than ", PTRDIFF_MAX / bytes_each * bytes_each,
             " bytes (", bytes_each, " per item); no allocation can be that large");
}

void require_array_count(int64_t count, int64_t bytes_each, const char *what) {
    if (count > PTRDIFF_MAX / bytes_each)
        fail(KINDRED_E_INVALID, what, " = ", count, " describes arrays of more than ", PTRDIFF_MAX / bytes_each * bytes_each,
             " bytes (", bytes_each, " per entry); no address space holds them");
}

}  // namespace capi
}  // namespace kindred
