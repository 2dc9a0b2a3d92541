// The link counts of the RDP-means / TVClust papers (Khashabi et al., eq. 12):
// for a point i and every cluster k, f_ki = weight of the may-links from i to
// members of k, s_ik = weight of the may-not-links from i to members of k.
// With unit pair weights these are the counts of eq. (12); a pair of weight w
// counts w times (a repeated pair, as the side-information handle sums them).
//
// They are gathered from the symmetric CSR adjacency for one point at a time,
// reading the current labels, in O(deg(i)); the per-cluster accumulators are
// reset along the list of touched clusters, never in O(K). A whole pass over
// the points thus costs O(nnz) on top of the distance work, instead of the
// O(n K deg) of recounting every cluster for every point.
#ifndef KINDRED_ALGORITHMS_LINK_COUNTS_HPP
#define KINDRED_ALGORITHMS_LINK_COUNTS_HPP

#include <cstdint>
#include <vector>

#include "core/side_info.hpp"

namespace kindred {

class LinkCounts {
public:
    // adjacency may be null (no side information): every count is 0.
    explicit LinkCounts(const Adjacency *adjacency) : adj_(adjacency) {}

    // Replaces the current counts with those of point i under labels
    // (neighbours with a label < 0 are skipped).
    void gather(int64_t i, const int32_t *labels);
    // Clusters with a non-zero f or s for the gathered point, in first-seen order.
    const std::vector<int32_t> &touched() const { return touched_; }
    double may(int32_t k) const { return k < static_cast<int32_t>(may_.size()) ? may_[k] : 0.0; }
    double may_not(int32_t k) const { return k < static_cast<int32_t>(may_not_.size()) ? may_not_[k] : 0.0; }

    // Totals over all pairs {i, j} (each once) of the weights of may-links and
    // may-not-links inside one cluster and across clusters: the sufficient
    // statistics of the random-graph likelihood (eq. 8). O(nnz).
    struct PairTotals {
        double may_within = 0, may_not_within = 0, may_across = 0, may_not_across = 0;
    };
    PairTotals pair_totals(const int32_t *labels) const;

private:
    const Adjacency *adj_;
    std::vector<double> may_, may_not_;
    std::vector<int32_t> touched_;
    std::vector<char> seen_;
};

}  // namespace kindred

#endif
