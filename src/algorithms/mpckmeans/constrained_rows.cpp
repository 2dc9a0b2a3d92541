// The rows of distortions that the E-step of a sharded HMRF fit exchanges
// (hmrf.hpp, ConstrainedRows): only the points whose label depends on
// others' are placed by the ICM, on every rank alike; the others take
// icm_choice of their own row where they lie.
#include <cstring>

#include "algorithms/mpckmeans/hmrf.hpp"

namespace kindred {
namespace hmrf {

ConstrainedRows::ConstrainedRows(const Collective &ranks, std::vector<int64_t> points, int64_t k)
    : ranks_(ranks), points_(std::move(points)), k_(k) {}

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

int64_t total_over_ranks(const Collective &ranks, int64_t mine) {
    if (ranks.single()) return mine;
    int64_t total = 0;
    for (const std::vector<char> &part : ranks.gather(&mine, sizeof mine)) {
        int64_t v = 0;
        std::memcpy(&v, part.data(), sizeof v);
        total += v;
    }
    return total;
}

}  // namespace hmrf
}  // namespace kindred
