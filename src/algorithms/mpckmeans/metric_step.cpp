// M-step (B) of HMRF-KMeans (Basu et al., section 3.3.7.2): update the
// distortion parameters A so that J_obj decreases.
//
// The paper writes the step as A = A + eta dJ/dA; that is an ascent step on
// a quantity being minimised, so we step against the gradient. The paper
// also assumes (3.3.8) that the step decreases J; a fixed eta does not
// guarantee it, so every candidate is checked against the exact J and the
// step is halved until J decreases (at most 30 halvings, or until the step
// is below 1e-12 |A|; else A is kept);
// after an accepted first try eta grows by 1.25 ("bold driver"). After a
// gradient step a full A is projected onto the PSD cone with a floor on the
// eigenvalues (dsyevr), diagonal weights are floored, so log det A stays finite.
// The closed-form update (Bilenko et al. 2004) is used as a target instead:
// A_t = A + t (A* - A) for t = 1, 1/2, ..., 1/32 (a convex combination of PSD
// matrices is PSD).
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

#include "algorithms/mpckmeans/hmrf.hpp"
#include "core/error.hpp"

namespace kindred {
namespace hmrf {
namespace {

constexpr int kMaxHalvings = 30;
// The closed form is a target: when A* - A does not decrease J, neither do
// the first few points towards it in practice (J is then at a stationary point).
constexpr int kMaxTargetHalvings = 6;

double norm2(const std::vector<double> &v) {
    double s = 0.0;
    for (double x : v) s += x * x;
    return std::sqrt(s);
}

}  // namespace

bool metric_step(divergence::WeightedDistortion &dist, const Constraints &cons, const std::vector<double> &centers,
                 const std::vector<int32_t> &labels, int64_t first, const Config &cfg, double &learning_rate,
                 const std::function<double()> *rows_pass) {
    const int64_t n = dist.n(), k = cfg.k;
    // J_obj (3.14) for the current A, with the distortion term summed from
    // each block of distances while it is in cache instead of from a
    // written-out n x k matrix. The scratch is left uninitialised: the
    // Euclidean distortions never touch it.
    // For the Euclidean distortions the distortion term is linear in A, sum_v
    // A_v S_v: one pass over the points for S, then O(d^2) per candidate A
    // (S is also the points' part of the closed form and of the gradient).
    std::vector<double> scatter;
    const int32_t *own = labels.data() + first;
    const bool linear = dist.assigned_scatter(centers.data(), k, own, scatter);
    // (the n x k scratch only for a distortion whose blocks use it: not the cosine)
    std::unique_ptr<double[]> work(linear || !dist.blocks_need_work() ? nullptr
                                                                       : new double[static_cast<size_t>(n * k)]);
    // distortion: the distortion term when the caller's rows pass gave it.
    auto objective_now = [&](const std::function<double()> *distortion = nullptr) {
        double j = 0.0;
        if (linear) {
            const std::vector<double> &a = dist.params();
            for (size_t v = 0; v < a.size(); ++v) j += a[v] * scatter[v];
        } else {
            j = distortion ? (*distortion)() : dist.assigned_distortion(centers.data(), k, own, work.get());
        }
        j += constraint_penalty(cons, potentials(dist, cons, false), labels.data());
        if (cfg.learn_metric) j += dist.regulariser(cfg.use_prior, cfg.rayleigh_s);
        return j;
    };
    const double j0 = objective_now();
    // dJ/dphi_p and dJ/dphi_max under the current labels (3.25, 3.28).
    std::vector<double> coef(cons.pairs.size(), 0.0);
    double phimax_coef = 0.0;
    for (size_t q = 0; q < cons.pairs.size(); ++q) {
        const auto &p = cons.pairs[q];
        const bool same = labels[p.i] == labels[p.j];
        if (p.must && !same) coef[q] = p.w;
        if (!p.must && same) {
            coef[q] = -p.w;
            phimax_coef += p.w;
        }
    }
    divergence::GradientInput in{own, centers.data(), k, &cons.pairs, &coef, phimax_coef, cfg.use_prior,
                                 cfg.rayleigh_s, linear ? &scatter : nullptr};
    const std::vector<double> a0 = dist.params();
    const double threshold = j0 - 1e-12 * (1.0 + std::fabs(j0));
    std::vector<double> target, cand(a0.size());
    if (cfg.closed_form && dist.closed_form(in, cfg.eig_floor, target)) {
        double change = 0.0;
        for (size_t v = 0; v < a0.size(); ++v) change = std::max(change, std::fabs(target[v] - a0[v]));
        double scale = 0.0;
        for (double v : a0) scale = std::max(scale, std::fabs(v));
        if (change <= 1e-12 * scale) return false;  // already at the minimiser
        double t = 1.0;
        for (int h = 0; h < kMaxTargetHalvings; ++h, t *= 0.5) {
            for (size_t v = 0; v < a0.size(); ++v) cand[v] = a0[v] + t * (target[v] - a0[v]);
            dist.set_params(cand);
            const double j = objective_now();
            if (std::isfinite(j) && j < threshold) return true;
        }
        dist.set_params(a0);
        return false;
    }
    std::vector<double> g;
    dist.gradient(in, g);
    const double gnorm = norm2(g);
    if (!(gnorm > 0.0) || !std::isfinite(gnorm)) return false;
    // Automatic first step: a change of 10% of |A| (Frobenius).
    if (!(learning_rate > 0.0)) learning_rate = 0.1 * norm2(a0) / gnorm;
    const double a_norm = norm2(a0);
    for (int h = 0; h < kMaxHalvings && learning_rate * gnorm > 1e-12 * a_norm; ++h) {
        for (size_t v = 0; v < a0.size(); ++v) cand[v] = a0[v] - learning_rate * g[v];
        dist.project(cand, cfg.eig_floor);
        dist.set_params(cand);
        const double j = objective_now(h == 0 ? rows_pass : nullptr);
        if (std::isfinite(j) && j < threshold) {
            if (h == 0) learning_rate *= 1.25;
            return true;
        }
        learning_rate *= 0.5;
    }
    dist.set_params(a0);
    return false;
}

}  // namespace hmrf
}  // namespace kindred
