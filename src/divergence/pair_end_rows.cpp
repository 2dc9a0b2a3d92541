#include "divergence/pair_end_rows.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace kindred {
namespace divergence {

void PairEndRows::gather(const Collective &ranks, const DataView &local, const std::vector<PairConstraint> &pairs,
                         bool sparse) {
    ends_.clear();
    for (const PairConstraint &p : pairs) {
        ends_.push_back(p.i);
        ends_.push_back(p.j);
    }
    std::sort(ends_.begin(), ends_.end());
    ends_.erase(std::unique(ends_.begin(), ends_.end()), ends_.end());
    rows_ = ranks.rows(local, ends_);
    if (!sparse) return;
    sparse_ = SparseRows(DataView::dense(DenseView::rows(rows_.data(), count(), local.d())));
}

int64_t PairEndRows::position(int64_t i) const {
    const auto at = std::lower_bound(ends_.begin(), ends_.end(), i);
    if (at == ends_.end() || *at != i) fail(KINDRED_E_INTERNAL, "sharded fit: row ", i, " is not the end of a gathered pair");
    return at - ends_.begin();
}

}  // namespace divergence
}  // namespace kindred
