// The data view of TVClust (Khashabi et al. section 3.1): a conjugate
// likelihood whose parameters theta_k* are integrated out, so the Gibbs
// sampler of eq. (13) needs only, per cluster, the posterior predictive
// p(x_i | points of k) and, for the log joint, the marginal p(points of k).
// Implementations keep sufficient statistics per cluster slot; slots are
// reused (an emptied slot is reset to the prior), so a removal costs O(1)
// bookkeeping and no relabelling of the points.
#ifndef KINDRED_ALGORITHMS_TVCLUST_CLUSTER_LIKELIHOOD_HPP
#define KINDRED_ALGORITHMS_TVCLUST_CLUSTER_LIKELIHOOD_HPP

#include <cstdint>

namespace kindred {
namespace tvclust {

class ClusterLikelihood {
public:
    virtual ~ClusterLikelihood() = default;
    // Makes sure slots [0, count) exist (new ones hold no points).
    virtual void reserve_slots(int64_t count) = 0;
    virtual void add(int64_t slot, int64_t i) = 0;
    virtual void remove(int64_t slot, int64_t i) = 0;
    // log p(x_i | points in slot); slot = -1: the prior predictive
    // log integral p(x_i | theta) dG0(theta) of eq. (13), second line.
    virtual double log_predictive(int64_t slot, int64_t i) = 0;
    // log p(x_i | the other points of slot), for i in slot with at least one
    // other point: the predictive the sampler needs for a point's own
    // cluster, computed without taking i out (when i then stays, the slot is
    // never touched).
    virtual double log_predictive_without(int64_t slot, int64_t i) = 0;
    // log p(points in slot) under G0 (0 for an empty slot).
    virtual double log_marginal(int64_t slot) const = 0;
    // Recomputes the derived state of every slot from its sufficient
    // statistics (bounds the rounding drift of incremental updates).
    virtual void refresh() {}

    // A sharded fit (gibbs_shards.cpp) rebuilds every cluster from the sums
    // of all ranks after each sweep. A cluster's sufficient statistics are
    // stats_width() values whose sum over its points defines it: add_stats
    // adds point i's to out; load_stats makes a slot the cluster of the given
    // sums (derived state recomputed from them, as a fresh slot would be).
    virtual int64_t stats_width() const = 0;
    virtual void add_stats(int64_t i, double *out) = 0;
    virtual void load_stats(int64_t slot, const double *stats) = 0;
};

}  // namespace tvclust
}  // namespace kindred

#endif
