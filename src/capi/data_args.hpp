// Validation of the caller's data arguments into borrowed views.
#ifndef KINDRED_CAPI_DATA_ARGS_HPP
#define KINDRED_CAPI_DATA_ARGS_HPP

#include <cstdint>

#include "core/data_view.hpp"

namespace kindred {
namespace capi {

// Checks pointers, sizes, layout, leading dimension and that every value is
// finite (the message names the first bad row and column).
DataView dense_arg(const double *x, int64_t n, int64_t d, int layout, int64_t ld);
// The same for float32 points (read in place, widened where they are read).
DataView dense_arg_f32(const float *x, int64_t n, int64_t d, int layout, int64_t ld);
// Checks indptr (starts at 0, non-decreasing), column indices in [0, d) and
// finite values (naming the row and column of the first bad entry).
DataView csr_arg(int64_t n, int64_t d, const int64_t *indptr, const int64_t *indices, const double *values);

// A caller-allocated output of `needed` entries: KINDRED_E_BUFFER_TOO_SMALL,
// the message giving the length needed, when `capacity` is less.
void require_capacity(int64_t capacity, int64_t needed, const char *what);
// The same for a rows x cols output, checked without forming rows * cols
// (which may overflow).
void require_capacity(int64_t capacity, int64_t rows, int64_t cols, const char *what);

// A count the library must hold `bytes_each` bytes for: refused with
// KINDRED_E_NOMEM when count * bytes_each would exceed the largest object
// (PTRDIFF_MAX), before any arithmetic on it (count + 1, count * d) overflows.
void require_allocatable(int64_t count, int64_t bytes_each, const char *what);

// A count of entries of caller arrays that together take `bytes_each` bytes
// per entry: refused with KINDRED_E_INVALID when no address space holds them
// (more than PTRDIFF_MAX bytes), before any of them is read.
void require_array_count(int64_t count, int64_t bytes_each, const char *what);

}  // namespace capi
}  // namespace kindred

#endif
