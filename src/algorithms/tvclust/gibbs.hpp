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
#ifndef KINDRED_ALGORITHMS_TVCLUST_GIBBS_HPP
#define KINDRED_ALGORITHMS_TVCLUST_GIBBS_HPP

#include <cstdint>
#include <vector>

#include "algorithms/link_counts.hpp"
#include "algorithms/tvclust/cluster_likelihood.hpp"
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
    GibbsSampler(ClusterLikelihood &likelihood, const Adjacency *adjacency, int64_t n, const GraphPrior &graph,
                 const ConcentrationPrior &concentration, const Rng &rng);

    // One pass over the points in order, then the hyper-parameters.
    void sweep();
    // log p(z, X, E | p, q, alpha) + the log prior densities of the
    // resampled hyper-parameters; the likelihood's constants are left out.
    double log_joint() const;
    // Labels 0..K-1 numbered by first appearance.
    std::vector<int32_t> partition() const;
    // The slot of each point and the slot of each label of partition().
    const std::vector<int32_t> &slots() const { return z_; }
    int64_t clusters() const { return static_cast<int64_t>(active_.size()); }
    double alpha() const { return alpha_; }
    double p() const { return p_; }
    double q() const { return q_; }

private:
    void resample_graph();
    void resample_alpha();
    int32_t open_slot();
    void close_slot(int32_t slot);

    ClusterLikelihood &lik_;
    LinkCounts links_;
    int64_t n_;
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
};

}  // namespace tvclust
}  // namespace kindred

#endif
