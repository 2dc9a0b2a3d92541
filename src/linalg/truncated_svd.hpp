// Leading right singular vectors of a dense or CSR matrix by randomised
// subspace iteration (Halko, Martinsson & Tropp 2011, Algorithms 4.4 and 5.1):
// O(n d l) time and O((n + d) l) memory for l = rank + oversampling, so that
// text-sized d never needs a d x d matrix. Used for the SVD reduction of the
// TCS paper (Gopal & Yang 2014, section 4.2).
#ifndef KINDRED_LINALG_TRUNCATED_SVD_HPP
#define KINDRED_LINALG_TRUNCATED_SVD_HPP

#include <cstdint>
#include <vector>

#include "core/data_view.hpp"
#include "core/rng.hpp"

namespace kindred {
namespace linalg {

struct TruncatedSvd {
    int64_t d = 0, rank = 0;
    std::vector<double> basis;             // d x rank row-major: right singular vectors as columns
    std::vector<double> singular_values;   // rank values, descending
};

// The `rank` leading right singular vectors of x (not centred). rank must be
// in [1, min(n, d)]. Directions beyond the numerical rank of x come out as
// zero columns (with singular value 0), never as NaN.
TruncatedSvd truncated_svd(const DataView &x, int64_t rank, Rng &rng, int power_iterations = 4);

// out (n x rank, row-major) = x * basis.
void project_rows(const DataView &x, const TruncatedSvd &svd, double *out);

// out (m x cols, row-major) = x * b with b (d x cols, row-major), any layout of x.
void data_times(const DataView &x, const double *b, int64_t cols, double *out);
// out (d x cols, row-major) = x^T * b with b (n x cols, row-major).
void data_transpose_times(const DataView &x, const double *b, int64_t cols, double *out);

}  // namespace linalg
}  // namespace kindred

#endif
