#include "algorithms/rdpmeans/center_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "linalg/distances.hpp"

namespace kindred {

void CenterBounds::set_from_row(int64_t i, double *row, int64_t k0, int64_t a) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    // The smallest entry but a's: a's entry is set to +inf for a branch-free
    // scan in four lanes, then put back.
    const double own = a < k0 ? row[a] : 0.0;
    if (a < k0) row[a] = kInf;
    const double other = linalg::row_min(row, k0);  // +inf with one centre: nothing to lose to
    if (a < k0) row[a] = own;
    upper_[i] = std::sqrt(own);
    lower_[i] = std::sqrt(other);
}

void CenterBounds::drift(const int32_t *labels, const std::vector<double> &shift, double largest) {
    const int64_t n = static_cast<int64_t>(upper_.size());
    for (int64_t i = 0; i < n; ++i) {
        upper_[i] += shift[labels[i]];
        lower_[i] = std::max(0.0, lower_[i] - largest);
    }
}

}  // namespace kindred
