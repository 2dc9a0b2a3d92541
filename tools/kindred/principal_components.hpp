// The first two principal components of dense points, for `kindred plot`:
// the plane in which the points spread most, so that clusters apart in the
// data look apart in the picture.
#ifndef KINDRED_CLI_PRINCIPAL_COMPONENTS_HPP
#define KINDRED_CLI_PRINCIPAL_COMPONENTS_HPP

#include <cstdint>
#include <vector>

namespace kindred_cli {

struct Projection {
    std::vector<double> x, y;  // one coordinate pair per point
    double explained[2] = {0, 0};  // share of the total variance along each component
};

// Projects the n x d row-major points (centred first) on the two leading
// eigenvectors of their covariance, found by power iteration on X^T X
// (two passes over the data per step, no d x d matrix). Each vector's sign is
// chosen so that its largest entry is positive: the same data gives the same picture.
Projection principal_components(const std::vector<double> &points, int64_t n, int64_t d);

}  // namespace kindred_cli

#endif
