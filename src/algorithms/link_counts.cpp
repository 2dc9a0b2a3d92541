#include "algorithms/link_counts.hpp"

#include <algorithm>
#include <cstddef>

namespace kindred {

void LinkCounts::gather(int64_t i, const int32_t *labels) {
    for (int32_t k : touched_) {
        may_[k] = 0.0;
        may_not_[k] = 0.0;
        seen_[k] = 0;
    }
    touched_.clear();
    if (!adj_) return;
    for (int64_t e = adj_->indptr[i]; e < adj_->indptr[i + 1]; ++e) {
        const int32_t k = labels[adj_->neighbor(e)];
        if (k < 0) continue;
        if (k >= static_cast<int32_t>(seen_.size())) {
            const size_t size = static_cast<size_t>(k) * 2 + 8;
            may_.resize(size, 0.0);
            may_not_.resize(size, 0.0);
            seen_.resize(size, 0);
        }
        if (!seen_[k]) {
            seen_[k] = 1;
            touched_.push_back(k);
        }
        const double v = adj_->value[e];
        may_[k] += std::max(v, 0.0);  // branch-free: the sign of a pair is unpredictable
        may_not_[k] += std::max(-v, 0.0);
    }
}

LinkCounts::PairTotals LinkCounts::pair_totals(const int32_t *labels) const {
    PairTotals t;
    if (!adj_) return t;
    const int64_t n = static_cast<int64_t>(adj_->indptr.size()) - 1;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t e = adj_->indptr[i]; e < adj_->indptr[i + 1]; ++e) {
            const int64_t j = adj_->neighbor(e);
            if (j <= i) continue;  // each pair once
            const double v = adj_->value[e];
            const bool within = labels[i] == labels[j];
            if (v > 0)
                (within ? t.may_within : t.may_across) += v;
            else
                (within ? t.may_not_within : t.may_not_across) -= v;
        }
    return t;
}

}  // namespace kindred
