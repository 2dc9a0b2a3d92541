// The collapsed Gibbs sampler of TVClust (Khashabi et al. section 3.3): a DP
// mixture (Chinese restaurant prior, eq. 2) of a conjugate likelihood, whose
// partition also generates the side information through the random graph of
// eq. (8): a pair inside one cluster is a may-link with probability p, a pair
// across clusters is a may-not-link with probability q. One sweep resamples
// every z_i from eq. (13),
//   p(z_i = k)     ∝ n_{-i,k} p(x_i | X_k^{-i}) (p / (1-q))^{f_ki} ((1-p) / q)^{s_ik}
//   p(z_i = new)   ∝ alpha  ∫ p(x_i | theta) dG0(theta)
// with theta_k* integrated out (Neal 2000, Algorithm 3; the paper's "update
// the cluster parameters as in Algorithm 2" is replaced by this collapsed
// form, which has the same stationary distribution over partitions), then
// optionally p and q from their Beta full conditionals and alpha by Escobar &
// West (1995).
//
// On several ranks (a sharded fit; gibbs_shards.cpp) the sweep is the
// approximate distributed Gibbs sampler of AD-LDA (Newman et al. 2009): each
// rank resamples its own points against the clusters as they were at the
// start of the sweep plus its own moves, not the other ranks' moves of the
// same sweep (the paper's sampler is sequential over all points); then the
// clusters are rebuilt exactly from every rank's points.
#ifndef KINDRED_ALGORITHMS_TVCLUST_GIBBS_HPP
#define KINDRED_ALGORITHMS_TVCLUST_GIBBS_HPP

#include <cstdint>
#include <vector>

#include "algorithms/link_counts.hpp"
#include "algorithms/tvclust/cluster_likelihood.hpp"
#include "core/collective.hpp"
#include "core/rng.hpp"
#include "core/side_info.hpp"

namespace kindred {
namespace tvclust {

// p, q of eq. (8), fixed or with Beta(p_a, p_b), Beta(q_a, q_b) priors (section 3.2).
struct GraphPrior {
    double p = 0.9, q = 0.9;
    bool resample = false;
    double p_a = 1, p_b = 1, q_a = 1, q_b = 1;
};

// alpha of the DP, fixed or with a Gamma(shape, rate) prior.
struct ConcentrationPrior {
    double alpha = 1.0;
    bool resample = false;
    double shape = 1, rate = 1;
};

class GibbsSampler {
public:
    // Starts from one cluster holding every point. adjacency may be null.
    // ranks: null for one process (n points); otherwise the ranks of a
    // sharded fit, the likelihood holding this rank's n rows, from global
    // row ranks->first_row() (adjacency indexed by global row, about all
    // ranks->n_total() points). Collective on every rank from here on.
    GibbsSampler(ClusterLikelihood &likelihood, const Adjacency *adjacency, int64_t n, const GraphPrior &graph,
                 const ConcentrationPrior &concentration, const Rng &rng, const Collective *ranks = nullptr);

    // One pass over the points in order, then the hyper-parameters.
    void sweep();
    // log p(z, X, E | p, q, alpha) + the log prior densities of the
    // resampled hyper-parameters; the likelihood's constants are left out.
    double log_joint() const;
    // Labels 0..K-1 numbered by first appearance.
    std::vector<int32_t> partition() const;
    // The slot of each point and the slot of each label of partition().
    // On several ranks: indexed by global row, current for this rank's rows
    // [first_row(), first_row() + n) and the points with side information.
    const std::vector<int32_t> &slots() const { return z_; }
    int64_t first_row() const { return first_; }
    int64_t clusters() const { return static_cast<int64_t>(active_.size()); }
    double alpha() const { return alpha_; }
    double p() const { return p_; }
    double q() const { return q_; }

private:
    void resample_graph();
    void resample_alpha();
    int32_t open_slot();
    void close_slot(int32_t slot);
    void sweep_points(Rng &draw);
    // gibbs_shards.cpp: the start and the end of a sweep on several ranks.
    void begin_shard_sweep();
    void end_shard_sweep();
    void touch(int32_t slot);

    ClusterLikelihood &lik_;
    LinkCounts links_;
    int64_t n_;  // all the points (of every rank)
    GraphPrior graph_;
    ConcentrationPrior conc_;
    Rng rng_;
    double p_, q_, alpha_;
    std::vector<int32_t> z_;
    std::vector<int64_t> size_;          // per slot
    std::vector<int32_t> active_;        // slots holding points
    std::vector<int64_t> position_;      // slot -> index in active_, -1 if free
    std::vector<int32_t> free_;          // empty slots for reuse
    std::vector<double> logw_, w_;

    // Several ranks (ranks_ null in one process, where first_ = 0, n_local_ = n_, base_ = 0).
    const Collective *ranks_ = nullptr;
    int64_t first_ = 0, n_local_ = 0;
    Rng draw_rng_;                       // this rank's stream for the points' draws
    int32_t base_ = 0;                   // slots at the start of the sweep: a rank never reuses these for a new cluster
    std::vector<int32_t> global_free_;   // the empty slots at the start of the sweep (the same on every rank)
    std::vector<char> touched_;          // per slot: moved into or out of by this rank during the sweep
    std::vector<int64_t> linked_;        // this rank's rows with side information (global), whose labels are sent
    std::vector<double> stats_;          // every slot's sufficient statistics after the last sweep
};

}  // namespace tvclust
}  // namespace kindred

#endif
