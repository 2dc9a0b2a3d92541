// The spectral interpretation of RDP-means (Khashabi et al., section 4.7,
// eq. 21 and Theorem 5, after Kulis & Jordan 2012, Theorem 5.2), used as an
// initialiser for small n: the relaxed problem
//     max over Y^T Y = I of tr Y^T (K - lambda I + xi_1 E+ - xi_2 E-) Y,
// K = X X^T the Gram matrix, is solved by the eigenvectors of
// K + xi_1 E+ - xi_2 E- whose eigenvalues exceed lambda; their number is the
// number of clusters, and their rows are rounded to a partition by k-means.
#ifndef KINDRED_ALGORITHMS_RDPMEANS_SPECTRAL_HPP
#define KINDRED_ALGORITHMS_RDPMEANS_SPECTRAL_HPP

#include <cstdint>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace kindred {

// The n x n eigenproblem costs O(n^2) memory and O(n^3) time: refused above this n.
constexpr int64_t kSpectralMaxPoints = 5000;

// Labels 0..K-1 of the rounded relaxation for dense data, squared Euclidean
// divergence. xi_1 / xi_2 weight the may-links / may-not-links of ctx.side
// (may be null). The k-means rounding keeps the best of `restarts` k-means++
// runs and is seeded from ctx's "seed" option.
std::vector<int32_t> spectral_initial_labels(const FitContext &ctx, double lambda, double xi_1, double xi_2,
                                             int64_t restarts);

}  // namespace kindred

#endif
