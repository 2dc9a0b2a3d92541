// The sweep of the TVClust sampler on several ranks (gibbs.hpp): what a rank
// does before and after resampling its own points.
//
// Between sweeps every rank holds the same state: the same slots, sizes and
// sufficient statistics (those of all the points), the same free list, and
// the labels of every point with side information. During a sweep a rank
// moves only its own points, so its view of a cluster is the cluster at the
// start of the sweep plus its own moves (the AD-LDA approximation: the other
// ranks' moves of this sweep are not seen, where the sequential sampler of
// Khashabi et al. section 3.3 sees every earlier move). The link factors of
// eq. (13) read the labels of other ranks' points as they were at the start
// of the sweep. After the sweep nothing approximate remains: the clusters
// opened on different ranks get global slots, the labels of the points with
// side information are exchanged, and every cluster is rebuilt from the sums
// of its points over all ranks.
#include <algorithm>
#include <cstring>

#include "algorithms/tvclust/gibbs.hpp"
#include "core/parallel.hpp"

namespace kindred {
namespace tvclust {

void GibbsSampler::touch(int32_t slot) {
    if (static_cast<size_t>(slot) >= touched_.size()) touched_.resize(static_cast<size_t>(slot) + 1, 0);
    touched_[slot] = 1;
}

// The slots that exist now may hold other ranks' points whatever this rank
// sees, so a new cluster opened during the sweep never reuses one of them
// (close_slot keeps slots below base_ off the free list): it gets a slot
// numbered from base_ up, which only this rank uses until end_shard_sweep.
void GibbsSampler::begin_shard_sweep() {
    base_ = static_cast<int32_t>(size_.size());
    global_free_.swap(free_);
    free_.clear();
}

void GibbsSampler::end_shard_sweep() {
    const int32_t local_slots = static_cast<int32_t>(size_.size());
    const int rank = ranks_->rank();

    // The clusters this rank opened, in slot order, get global slots: rank 0's
    // first, then rank 1's, ..., each taking the smallest slot that was empty
    // at the start of the sweep, then new ones (the same numbering on every rank).
    std::vector<int32_t> opened;
    for (int32_t s = base_; s < local_slots; ++s)
        if (position_[s] >= 0) opened.push_back(s);
    const int64_t mine = static_cast<int64_t>(opened.size());
    std::vector<int32_t> remap(static_cast<size_t>(local_slots));
    for (int32_t s = 0; s < local_slots; ++s) remap[s] = s;
    int32_t next = base_;
    size_t free_left = global_free_.size();  // global_free_ ends with the smallest slot
    int r = 0;
    for (const std::vector<char> &part : ranks_->gather(&mine, sizeof mine)) {
        int64_t count = 0;
        std::memcpy(&count, part.data(), sizeof count);
        for (int64_t c = 0; c < count; ++c) {
            const int32_t id = free_left > 0 ? global_free_[--free_left] : next++;
            if (r == rank) remap[opened[c]] = id;
        }
        ++r;
    }
    const int32_t slots = next;
    for (int64_t i = first_; i < first_ + n_local_; ++i) z_[i] = remap[z_[i]];

    // The labels of every point with side information, from the rank that holds it: the link
    // factors of the next sweep and the pair totals of eq. (8) (log joint, p and q) need them all.
    std::vector<int64_t> sent;
    sent.reserve(2 * linked_.size());
    for (int64_t i : linked_) {
        sent.push_back(i);
        sent.push_back(z_[i]);
    }
    for (const std::vector<char> &part : ranks_->gather(sent.data(), sent.size() * sizeof(int64_t))) {
        const std::vector<int64_t> v = values_of<int64_t>(part);
        for (size_t e = 0; e + 1 < v.size(); e += 2) z_[v[e]] = static_cast<int32_t>(v[e + 1]);
    }

    // Every cluster's sufficient statistics, as chunk sums over all the ranks' points (in row
    // order within a chunk, chunks in order): the same bits on every rank.
    const int64_t width = lik_.stats_width(), row = static_cast<int64_t>(slots) * width;
    std::vector<double> partial(static_cast<size_t>(chunk_count(n_local_, Collective::kChunk) * row), 0.0);
    for (int64_t li = 0; li < n_local_; ++li)
        lik_.add_stats(li, partial.data() + (li / Collective::kChunk) * row + z_[first_ + li] * width);
    const std::vector<double> stats = ranks_->sum_chunks(partial, row);

    // Slots this rank used beyond the global ones go back to the prior (open_slot reuses them).
    touched_.resize(static_cast<size_t>(std::max(local_slots, slots)), 0);
    const std::vector<double> zeros(static_cast<size_t>(width), 0.0);
    for (int32_t s = slots; s < local_slots; ++s)
        if (touched_[s]) lik_.load_stats(s, zeros.data());
    size_.resize(static_cast<size_t>(slots));
    position_.resize(static_cast<size_t>(slots));
    lik_.reserve_slots(slots);
    // A slot whose sums did not change and that this rank did not touch keeps its state (and the
    // NIW likelihood its quadratic forms); any other is rebuilt from the sums.
    for (int32_t s = 0; s < slots; ++s) {
        const double *now = stats.data() + static_cast<int64_t>(s) * width;
        const bool same = static_cast<int64_t>(stats_.size()) >= (s + 1) * width &&
                          std::memcmp(now, stats_.data() + static_cast<int64_t>(s) * width, width * sizeof(double)) == 0;
        if (touched_[s] || !same) lik_.load_stats(s, now);
        size_[s] = static_cast<int64_t>(now[0]);
    }
    stats_ = stats;
    std::fill(touched_.begin(), touched_.end(), 0);

    // The active slots in slot order, the free ones with the smallest last (open_slot takes from the back).
    active_.clear();
    free_.clear();
    for (int32_t s = 0; s < slots; ++s) {
        position_[s] = size_[s] > 0 ? static_cast<int64_t>(active_.size()) : -1;
        if (size_[s] > 0) active_.push_back(s);
    }
    for (int32_t s = slots - 1; s >= 0; --s)
        if (size_[s] == 0) free_.push_back(s);
    base_ = 0;
}

}  // namespace tvclust
}  // namespace kindred
