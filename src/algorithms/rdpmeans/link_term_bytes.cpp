#include "algorithms/rdpmeans/link_term_bytes.hpp"

#include <algorithm>
#include <cstring>

namespace kindred {

void LinkTermBytes::build() {
    const int64_t n = links_.size();
    const size_t size = static_cast<size_t>(n * kClusters + kClusters);
    if (bytes_.size() != size) bytes_.assign(size, 0);  // allocated once; every row is written below
    base_ = bytes_.data() + (kClusters - reinterpret_cast<uintptr_t>(bytes_.data()) % kClusters) % kClusters;
    waiting_.assign(static_cast<size_t>(((n - 1) >> block_shift_) + 1), {});
    const uint8_t *labels = links_.label_copy();
    for (int64_t i = 0; i < n; ++i) {
        const LinkCountCache::PackedRow r = links_.packed_row(i);
        int8_t *out = base_ + i * kClusters;
        std::memset(out, 0, kClusters);
        for (int64_t e = 0; e < r.size; ++e)
            out[labels[LinkCountCache::packed_neighbour(r.entry[e])]] +=
                static_cast<int8_t>(LinkCountCache::packed_term(r.entry[e]));
    }
    valid_ = true;
}

void LinkTermBytes::invalidate() {
    valid_ = false;
    for (auto &list : waiting_) list.clear();
}

void LinkTermBytes::enter_block(int64_t begin) {
    std::vector<Update> &list = waiting_[static_cast<size_t>(begin >> block_shift_)];
    for (const Update &u : list) apply(u.point, u.from, u.to, u.term);
    list.clear();
}

void LinkTermBytes::moved(int64_t i, int32_t from, int32_t to) {
    const int64_t here = i >> block_shift_;
    const LinkCountCache::PackedRow r = links_.packed_row(i);
    for (int64_t e = 0; e < r.size; ++e) {
        const int64_t j = LinkCountCache::packed_neighbour(r.entry[e]);
        const int32_t term = LinkCountCache::packed_term(r.entry[e]);
        const int64_t block = j >> block_shift_;
        if (block == here)
            apply(j, from, to, term);
        else
            waiting_[static_cast<size_t>(block)].push_back(
                Update{static_cast<int32_t>(j), static_cast<int8_t>(from), static_cast<int8_t>(to),
                       static_cast<int8_t>(term)});
    }
}

void LinkTermBytes::relabel(const int32_t *new_id, int64_t k) {
    // The waiting updates made first, under the old ids (one of their
    // clusters may have no id now: the moves that emptied it).
    for (int64_t b = 0; b < static_cast<int64_t>(waiting_.size()); ++b) enter_block(b << block_shift_);
    const int64_t n = links_.size();
    int8_t moved_row[kClusters];
    for (int64_t i = 0; i < n; ++i) {
        int8_t *row = base_ + i * kClusters;
        std::memset(moved_row, 0, sizeof moved_row);
        for (int64_t c = 0; c < std::min(k, kClusters); ++c)
            if (new_id[c] >= 0) moved_row[new_id[c]] = row[c];
        std::memcpy(row, moved_row, sizeof moved_row);
    }
}

}  // namespace kindred
