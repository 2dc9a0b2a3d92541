#include "algorithms/tvclust/gibbs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "linalg/log_gamma.hpp"

namespace kindred {
namespace tvclust {

namespace {

double log_beta_density(double x, double a, double b) {
    return log_gamma(a + b) - log_gamma(a) - log_gamma(b) + (a - 1.0) * std::log(x) + (b - 1.0) * std::log1p(-x);
}

double log_gamma_density(double x, double shape, double rate) {
    return shape * std::log(rate) - log_gamma(shape) + (shape - 1.0) * std::log(x) - rate * x;
}

// Keeps a Beta draw inside the open interval (0, 1), where eq. (8) is defined.
double clamp_open(double v) { return std::min(std::max(v, 1e-12), 1.0 - 1e-12); }

}  // namespace

GibbsSampler::GibbsSampler(ClusterLikelihood &likelihood, const Adjacency *adjacency, int64_t n,
                           const GraphPrior &graph, const ConcentrationPrior &concentration, const Rng &rng,
                           const Collective *ranks)
    : lik_(likelihood), links_(adjacency), n_(n), graph_(graph), conc_(concentration), rng_(rng),
      p_(graph.p), q_(graph.q), alpha_(concentration.alpha), n_local_(n) {
    if (ranks && !ranks->single()) {
        ranks_ = ranks;
        first_ = ranks->first_row();
        n_ = ranks->n_total();
        draw_rng_ = rng.derive(1 + static_cast<uint64_t>(ranks->rank()));
        for (int64_t i = first_; adjacency && i < first_ + n_local_; ++i)
            if (adjacency->indptr[i + 1] > adjacency->indptr[i]) linked_.push_back(i);
    }
    z_.assign(static_cast<size_t>(n_), 0);
    const int32_t first = open_slot();
    for (int64_t i = 0; i < n_local_; ++i) {
        lik_.add(first, i);
        ++size_[first];
    }
    if (ranks_) {
        touch(first);
        end_shard_sweep();  // every rank's points in the first cluster
    }
}

int32_t GibbsSampler::open_slot() {
    int32_t slot;
    if (!free_.empty()) {
        slot = free_.back();
        free_.pop_back();
    } else {
        slot = static_cast<int32_t>(size_.size());
        size_.push_back(0);
        position_.push_back(-1);
        lik_.reserve_slots(slot + 1);
    }
    position_[slot] = static_cast<int64_t>(active_.size());
    active_.push_back(slot);
    return slot;
}

void GibbsSampler::close_slot(int32_t slot) {
    const int64_t pos = position_[slot];
    const int32_t last = active_.back();
    active_[pos] = last;
    position_[last] = pos;
    active_.pop_back();
    position_[slot] = -1;
    if (slot >= base_) free_.push_back(slot);  // see begin_shard_sweep
}

// A point is not taken out of its cluster before its weights are computed:
// its own cluster's predictive comes from log_predictive_without, and the
// likelihood is touched only when the point moves (after the first sweeps
// most points stay, and a stay then costs no downdate and no update). The
// slot bookkeeping follows the take-out-and-put-back order exactly (a
// singleton's slot is closed before the draw and reopened if the point starts
// a new cluster), so the candidates are listed in the same order as before.
void GibbsSampler::sweep() {
    if (ranks_) {
        begin_shard_sweep();
        // A failure on one rank (a Cholesky rebuild, memory) is every rank's, not a hang.
        ranks_->agree([&] { sweep_points(draw_rng_); });
        end_shard_sweep();
    } else {
        sweep_points(rng_);
    }
    lik_.refresh();
    if (graph_.resample) resample_graph();
    if (conc_.resample) resample_alpha();
}

// This rank's points, [first_, first_ + n_local_) by global row (all of them in one process).
void GibbsSampler::sweep_points(Rng &draw) {
    // Eq. (11): log (p / (1-q)) per may-link and log ((1-p) / q) per may-not-link.
    const double log_friend = std::log(p_) - std::log1p(-q_);
    const double log_stranger = std::log1p(-p_) - std::log(q_);
    const double log_alpha = std::log(alpha_);
    for (int64_t i = first_; i < first_ + n_local_; ++i) {
        const int64_t li = i - first_;  // the likelihood's row
        const int32_t old = z_[i];
        const bool alone = size_[old] == 1;  // n_{-i,old} = 0: the point's cluster goes with it
        if (alone) close_slot(old);
        z_[i] = -1;
        links_.gather(i, z_.data());
        const int64_t k = static_cast<int64_t>(active_.size());
        logw_.resize(static_cast<size_t>(k + 1));
        // Eq. (13), first line: the link factors enter through the slot's own counts.
        for (int64_t c = 0; c < k; ++c) {
            const int32_t slot = active_[c];
            logw_[c] = slot == old ? std::log(static_cast<double>(size_[slot] - 1)) + lik_.log_predictive_without(slot, li)
                                   : std::log(static_cast<double>(size_[slot])) + lik_.log_predictive(slot, li);
        }
        // A neighbour's slot is always active in one process; on several ranks it can be one this
        // rank has emptied in this sweep while the neighbour's rank moved the neighbour into it.
        for (int32_t slot : links_.touched())
            if (position_[slot] >= 0)
                logw_[position_[slot]] += links_.may(slot) * log_friend + links_.may_not(slot) * log_stranger;
        // Second line: a new cluster.
        logw_[k] = log_alpha + lik_.log_predictive(-1, li);
        const double top = *std::max_element(logw_.begin(), logw_.end());
        w_.resize(logw_.size());
        for (size_t c = 0; c < logw_.size(); ++c) w_[c] = std::exp(logw_[c] - top);  // log-sum-exp
        const int64_t pick = draw.categorical(w_.data(), k + 1);
        // A singleton that starts a new cluster gets its own slot back (open_slot reuses the slot closed last).
        const int32_t slot = pick == k ? (alone ? open_slot() : -1) : active_[pick];
        if (slot != old) {
            lik_.remove(old, li);
            --size_[old];
            const int32_t target = slot < 0 ? open_slot() : slot;
            lik_.add(target, li);
            ++size_[target];
            z_[i] = target;
            if (ranks_) {
                touch(old);
                touch(target);
            }
        } else {
            z_[i] = old;
        }
    }
}

// Section 3.2: with Beta priors, p | z, E ~ Beta(p_a + may-links inside,
// p_b + may-not-links inside) and q | z, E ~ Beta(q_a + may-not-links across,
// q_b + may-links across) (conjugacy of eq. 8).
void GibbsSampler::resample_graph() {
    const LinkCounts::PairTotals t = links_.pair_totals(z_.data());
    p_ = clamp_open(rng_.beta(graph_.p_a + t.may_within, graph_.p_b + t.may_not_within));
    q_ = clamp_open(rng_.beta(graph_.q_a + t.may_not_across, graph_.q_b + t.may_across));
}

// Escobar & West (1995), section 6: eta ~ Beta(alpha + 1, n); alpha from the
// two-component Gamma mixture with odds (shape + K - 1) / (n (rate - log eta)).
void GibbsSampler::resample_alpha() {
    const double k = static_cast<double>(active_.size()), n = static_cast<double>(n_);
    const double eta = std::max(rng_.beta(alpha_ + 1.0, n), std::numeric_limits<double>::min());
    const double rate = conc_.rate - std::log(eta);
    const double odds = (conc_.shape + k - 1.0) / (n * rate);
    const double shape = rng_.uniform() < odds / (1.0 + odds) ? conc_.shape + k : conc_.shape + k - 1.0;
    alpha_ = std::max(rng_.gamma(shape) / rate, 1e-300);
}

double GibbsSampler::log_joint() const {
    const double n = static_cast<double>(n_), k = static_cast<double>(active_.size());
    // Chinese restaurant prior of the partition (eq. 2 multiplied out).
    double v = k * std::log(alpha_) + log_gamma(alpha_) - log_gamma(alpha_ + n);
    for (int32_t slot : active_) v += log_gamma(static_cast<double>(size_[slot])) + lik_.log_marginal(slot);
    // Eq. (8) over the pairs with side information.
    const LinkCounts::PairTotals t = links_.pair_totals(z_.data());
    v += t.may_within * std::log(p_) + t.may_not_within * std::log1p(-p_) + t.may_across * std::log1p(-q_) +
         t.may_not_across * std::log(q_);
    if (graph_.resample)
        v += log_beta_density(p_, graph_.p_a, graph_.p_b) + log_beta_density(q_, graph_.q_a, graph_.q_b);
    if (conc_.resample) v += log_gamma_density(alpha_, conc_.shape, conc_.rate);
    return v;
}

std::vector<int32_t> GibbsSampler::partition() const {
    std::vector<int32_t> label_of(size_.size(), -1), out(static_cast<size_t>(n_));
    int32_t next = 0;
    for (int64_t i = 0; i < n_; ++i) {
        int32_t &l = label_of[z_[i]];
        if (l < 0) l = next++;
        out[i] = l;
    }
    return out;
}

}  // namespace tvclust
}  // namespace kindred
