#include "algorithms/rdpmeans/spectral.hpp"

#include <algorithm>

#include "algorithms/centroid/steps.hpp"
#include "core/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/psd_projection.hpp"

namespace kindred {

namespace {

// K + xi_1 E+ - xi_2 E- (n x n, row-major). K = X X^T is A^T A for the d x n
// matrix A = X^T, so the points are first copied as columns of A.
std::vector<double> augmented_gram(const FitContext &ctx, double xi_1, double xi_2) {
    const DataView &data = ctx.data;
    const int64_t n = data.n(), d = data.d();
    std::vector<double> a(static_cast<size_t>(d * n)), row(static_cast<size_t>(d));
    for (int64_t i = 0; i < n; ++i) {
        data.copy_row(i, row.data());
        for (int64_t j = 0; j < d; ++j) a[j * n + i] = row[j];
    }
    std::vector<double> m(static_cast<size_t>(n * n));
    linalg::syrk_ata(d, n, 1.0, a.data(), n, 0.0, m.data());
    if (ctx.side) {
        // E+ / E- are the 0/1 indicators of eq. (21); a pair's weight (the
        // handle sums repeated pairs) only decides its sign.
        const Adjacency &adj = ctx.side->adjacency();
        for (int64_t i = 0; i < n; ++i)
            for (int64_t e = adj.indptr[i]; e < adj.indptr[i + 1]; ++e) {
                const double v = adj.value[e];
                if (v > 0) m[i * n + adj.neighbor(e)] += xi_1;
                if (v < 0) m[i * n + adj.neighbor(e)] -= xi_2;
            }
    }
    return m;
}

}  // namespace

std::vector<int32_t> spectral_initial_labels(const FitContext &ctx, double lambda, double xi_1, double xi_2,
                                             int64_t restarts) {
    const int64_t n = ctx.data.n();
    if (!ctx.data.is_dense())
        fail(KINDRED_E_INVALID, "rdpmeans: the spectral initialiser needs dense data (it builds the Gram matrix)");
    if (n > kSpectralMaxPoints)
        fail(KINDRED_E_INVALID, "rdpmeans: the spectral initialiser solves an n x n eigenproblem; n = ", n,
             " is above its limit of ", kSpectralMaxPoints, " points (use init 'one-cluster')");
    linalg::SymmetricEigen eig(n);
    eig.compute(augmented_gram(ctx, xi_1, xi_2).data());
    // Eigenvalues ascending: the eigenvectors above lambda are the last ones.
    const std::vector<double> &w = eig.values();
    int64_t k = 0;
    while (k < n && w[static_cast<size_t>(n - 1 - k)] > lambda) ++k;
    if (k <= 1) return std::vector<int32_t>(static_cast<size_t>(n), 0);
    // Rows of the n x k matrix of those eigenvectors (columns of vectors()).
    std::vector<double> y(static_cast<size_t>(n * k));
    const std::vector<double> &v = eig.vectors();
    for (int64_t i = 0; i < n; ++i)
        for (int64_t c = 0; c < k; ++c) y[i * k + c] = v[i * n + (n - 1 - c)];
    DenseView view;
    view.x = y.data();
    view.n = n;
    view.d = view.ld = k;
    return kmeans_labels(ctx, DataView::dense(view), k, restarts, ctx.options.get_int("seed"));
}

}  // namespace kindred
