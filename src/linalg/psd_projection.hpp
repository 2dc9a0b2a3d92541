// Projection of a symmetric matrix onto the positive-semidefinite cone (with
// an optional floor on the eigenvalues), by LAPACKE_dsyevr. The workspace is
// queried once per size and reused, so a fit that projects every iteration
// allocates nothing after the first call.
#ifndef KINDRED_LINALG_PSD_PROJECTION_HPP
#define KINDRED_LINALG_PSD_PROJECTION_HPP

#include <cstdint>
#include <vector>

namespace kindred {
namespace linalg {

class SymmetricEigen {
public:
    explicit SymmetricEigen(int64_t d);
    // Eigen-decomposes the symmetric d x d row-major matrix a (symmetrised
    // first, (a + a^T) / 2, against rounding). Eigenvalues ascending in
    // values(); eigenvectors as columns of vectors() (row-major d x d).
    void compute(const double *a);
    const std::vector<double> &values() const { return w_; }
    const std::vector<double> &vectors() const { return z_; }
    int64_t dim() const { return d_; }

private:
    int64_t d_;
    std::vector<double> a_, w_, z_, work_;
    std::vector<int> isuppz_, iwork_;
};

// a <- V max(Lambda, floor) V^T, in place. floor = 0 is the Euclidean projection.
void project_psd(SymmetricEigen &eig, double *a, double floor);

// Rebuild V f(Lambda) V^T into out from a computed decomposition.
void rebuild_from_eigen(const SymmetricEigen &eig, const std::vector<double> &new_values, double *out);

}  // namespace linalg
}  // namespace kindred

#endif
