// The rows of distortions that the E-step of a sharded HMRF fit exchanges
// (hmrf.hpp, ConstrainedRows): only the points whose label depends on
// others' are placed by the ICM, on every rank alike; the others take
// icm_choice of their own row where they lie.
#include "algorithms/mpckmeans/hmrf.hpp"

namespace kindred {
namespace hmrf {

ConstrainedRows::ConstrainedRows(const Collective &ranks, const std::vector<int64_t> &points, int64_t k)
    : ranks_(ranks), points_(points), k_(k) {}

void ConstrainedRows::gather(const std::vector<double> &local, int64_t n_local) {
    if (ranks_.single()) {
        // One process: read in place, no copy of k values per point.
        local_ = local.data();
        return;
    }
    DenseView view;
    view.x = local.data();
    view.n = n_local;
    view.d = view.ld = k_;
    gathered_ = ranks_.rows(DataView::dense(view), points_);
}

const double *ConstrainedRows::row(size_t e) const {
    return ranks_.single() ? local_ + points_[e] * k_ : gathered_.data() + e * static_cast<size_t>(k_);
}

}  // namespace hmrf
}  // namespace kindred
