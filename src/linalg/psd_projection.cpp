#include "linalg/psd_projection.hpp"

#include <lapacke.h>

#include <algorithm>

#include "core/error.hpp"
#include "linalg/blas.hpp"

namespace kindred {
namespace linalg {

SymmetricEigen::SymmetricEigen(int64_t d)
    : d_(d), a_(d * d), w_(d), z_(d * d), isuppz_(2 * std::max<int64_t>(d, 1)) {
    const int n = blas_int(d, "matrix dimension");
    double work_query = 0;
    int iwork_query = 0;
    int m = 0;
    const int info = LAPACKE_dsyevr_work(LAPACK_ROW_MAJOR, 'V', 'A', 'U', n, a_.data(), n, 0, 0, 0, 0, 0.0, &m,
                                         w_.data(), z_.data(), n, isuppz_.data(), &work_query, -1, &iwork_query, -1);
    if (info != 0) fail(KINDRED_E_NUMERICAL, "dsyevr workspace query failed (info = ", info, ")");
    work_.resize(static_cast<size_t>(work_query) + 1);
    iwork_.resize(static_cast<size_t>(iwork_query) + 1);
}

void SymmetricEigen::compute(const double *a) {
    const int n = static_cast<int>(d_);
    for (int64_t r = 0; r < d_; ++r)
        for (int64_t s = 0; s < d_; ++s) a_[r * d_ + s] = 0.5 * (a[r * d_ + s] + a[s * d_ + r]);
    int m = 0;
    const int info = LAPACKE_dsyevr_work(LAPACK_ROW_MAJOR, 'V', 'A', 'U', n, a_.data(), n, 0, 0, 0, 0, 0.0, &m,
                                         w_.data(), z_.data(), n, isuppz_.data(), work_.data(),
                                         static_cast<int>(work_.size()), iwork_.data(), static_cast<int>(iwork_.size()));
    if (info != 0) fail(KINDRED_E_NUMERICAL, "symmetric eigendecomposition (dsyevr) failed (info = ", info, ")");
}

void rebuild_from_eigen(const SymmetricEigen &eig, const std::vector<double> &new_values, double *out) {
    const int64_t d = eig.dim();
    const std::vector<double> &z = eig.vectors();
    // out = Z diag(f) Z^T, as (Z diag(sqrt f)) (Z diag(sqrt f))^T when f >= 0 would
    // lose negative values; scale columns explicitly instead.
    std::vector<double> zs(z);
    for (int64_t r = 0; r < d; ++r)
        for (int64_t c = 0; c < d; ++c) zs[r * d + c] *= new_values[c];
    gemm(false, true, d, d, d, 1.0, zs.data(), d, z.data(), d, 0.0, out, d);
    for (int64_t r = 0; r < d; ++r)
        for (int64_t s = 0; s < r; ++s) out[r * d + s] = out[s * d + r] = 0.5 * (out[r * d + s] + out[s * d + r]);
}

void project_psd(SymmetricEigen &eig, double *a, double floor) {
    eig.compute(a);
    std::vector<double> clipped(eig.values());
    for (double &v : clipped) v = std::max(v, floor);
    rebuild_from_eigen(eig, clipped, a);
}

}  // namespace linalg
}  // namespace kindred
