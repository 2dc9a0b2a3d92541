// Initialisation of HMRF-KMeans (Basu et al., section 3.3.5): the transitive
// closure of the must-links gives lambda neighbourhoods; lambda = K: their
// centroids; lambda > K: weighted farthest-first traversal of their
// centroids (weight = neighbourhood size); lambda < K: the neighbourhood
// centroids plus K - lambda centres from random perturbations of the global
// centroid (the paper) or, by default, D^2 sampling (k-means++) under the
// current distortion.
#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/mpckmeans/hmrf.hpp"
#include "core/error.hpp"

namespace kindred {
namespace hmrf {
namespace {

// Centre of one point, or of the whole unit of propagated constraints it
// belongs to (units: nullptr, or the unit of each point), through the
// distortion's centroid rule (so that the idiv smoothing and the cosine
// normalisation apply).
void center_of_point(const divergence::WeightedDistortion &dist, int64_t i, const std::vector<int64_t> *units,
                     double *out) {
    std::vector<int32_t> lab(static_cast<size_t>(dist.n()), -1);
    lab[i] = 0;
    if (units)
        for (int64_t p = 0; p < dist.n(); ++p)
            if ((*units)[p] == (*units)[i]) lab[p] = 0;
    std::vector<double> c(static_cast<size_t>(dist.d()), 0.0);
    dist.centroids(lab.data(), 1, c);
    std::copy(c.begin(), c.end(), out);
}

void add_perturbed(const FitContext &ctx, const divergence::WeightedDistortion &dist, int64_t have, int64_t k, Rng &rng,
                   std::vector<double> &centers) {
    const int64_t n = dist.n(), d = dist.d();
    std::vector<int32_t> all(static_cast<size_t>(n), 0);
    std::vector<double> g(static_cast<size_t>(d), 0.0);
    dist.centroids(all.data(), 1, g);
    const bool euclidean = dist.kind() == divergence::DistortionKind::EuclideanFull ||
                           dist.kind() == divergence::DistortionKind::EuclideanDiag;
    std::vector<double> sd(static_cast<size_t>(d), 0.0), row(static_cast<size_t>(d));
    if (euclidean) {
        for (int64_t i = 0; i < n; ++i) {
            ctx.data.copy_row(i, row.data());
            for (int64_t m = 0; m < d; ++m) sd[m] += (row[m] - g[m]) * (row[m] - g[m]);
        }
        for (double &v : sd) v = std::sqrt(v / static_cast<double>(n));
    }
    for (int64_t h = have; h < k; ++h)
        for (int64_t m = 0; m < d; ++m)
            // Additive noise of one standard deviation (Euclidean); multiplicative
            // noise in [0.5, 1.5) otherwise, which keeps non-negative centres non-negative.
            centers[h * d + m] = euclidean ? g[m] + sd[m] * rng.normal() : g[m] * (1.0 + (rng.uniform() - 0.5));
}

// k-means++ under the current distortion, greedy variant (as kmeans'
// seeding): each new centre is the best of 2 + ln(k) D^2-weighted
// candidates by the potential it leaves (the plain variant, one candidate,
// gave visibly worse starts on many-class data such as optdigits).
void add_kmeanspp(const divergence::WeightedDistortion &dist, int64_t have, int64_t k, Rng &rng,
                  const std::vector<int64_t> *units, std::vector<double> &centers) {
    const int64_t n = dist.n(), d = dist.d();
    const int64_t trials = 2 + static_cast<int64_t>(std::log(static_cast<double>(k)));
    std::vector<double> closest(static_cast<size_t>(n), std::numeric_limits<double>::infinity()), col(static_cast<size_t>(n));
    std::vector<double> candidate(static_cast<size_t>(d)), best_col(static_cast<size_t>(n));
    auto finite = [](double v) { return std::isfinite(v) ? std::max(v, 0.0) : 0.0; };
    auto absorb = [&](const double *c) {
        dist.point_center_all(c, 1, col.data());
        for (int64_t i = 0; i < n; ++i) closest[i] = std::min(closest[i], std::max(col[i], 0.0));
    };
    for (int64_t h = 0; h < have; ++h) absorb(centers.data() + h * d);
    for (int64_t h = have; h < k; ++h) {
        double total = 0.0;
        if (h > 0)
            for (double v : closest) total += finite(v);
        if (h == 0 || !(total > 0.0)) {
            center_of_point(dist, rng.below(n), units, centers.data() + h * d);
            absorb(centers.data() + h * d);
            continue;
        }
        std::vector<double> w(closest);
        for (double &v : w) v = finite(v);
        double best_potential = std::numeric_limits<double>::infinity();
        for (int64_t t = 0; t < trials; ++t) {
            center_of_point(dist, rng.categorical(w.data(), n), units, candidate.data());
            dist.point_center_all(candidate.data(), 1, col.data());
            double potential = 0.0;
            for (int64_t i = 0; i < n; ++i) potential += finite(std::min(closest[i], std::max(col[i], 0.0)));
            if (potential < best_potential) {
                best_potential = potential;
                std::copy(candidate.begin(), candidate.end(), centers.begin() + h * d);
                best_col.swap(col);
            }
        }
        for (int64_t i = 0; i < n; ++i) closest[i] = std::min(closest[i], std::max(best_col[i], 0.0));
    }
}

}  // namespace

std::vector<double> initial_centers(const FitContext &ctx, const divergence::WeightedDistortion &dist,
                                    const Config &cfg, Rng &rng, const std::vector<int64_t> *units,
                                    int64_t unit_count, bool neighbourhoods) {
    const int64_t n = dist.n(), d = dist.d(), k = cfg.k;
    std::vector<double> centers(static_cast<size_t>(k * d), 0.0);
    // Neighbourhoods: must-link components with at least two points.
    std::vector<int32_t> hood(static_cast<size_t>(n), -1);
    std::vector<int64_t> size;
    if (neighbourhoods && cfg.use_constraints && ctx.side && !ctx.side->pairs().empty()) {
        const std::vector<int64_t> &comp = units ? *units : ctx.side->component();
        std::vector<int64_t> comp_size(static_cast<size_t>(units ? unit_count : ctx.side->component_count()), 0);
        for (int64_t i = 0; i < n; ++i) ++comp_size[comp[i]];
        std::vector<int32_t> id(comp_size.size(), -1);
        for (int64_t i = 0; i < n; ++i) {
            const int64_t c = comp[i];
            if (comp_size[c] < 2) continue;
            if (id[c] < 0) {
                id[c] = static_cast<int32_t>(size.size());
                size.push_back(comp_size[c]);
            }
            hood[i] = id[c];
        }
    }
    const int64_t lambda = static_cast<int64_t>(size.size());
    std::vector<double> hood_centers(static_cast<size_t>(std::max<int64_t>(lambda, 1) * d), 0.0);
    if (lambda > 0) dist.centroids(hood.data(), lambda, hood_centers);
    ctx.log.debug(cat(cfg.name, ": ", lambda, " must-link neighbourhoods for k = ", k));
    if (lambda >= k) {
        // Weighted farthest-first traversal: start at the largest neighbourhood,
        // then take the one maximising size x distance to the chosen set.
        std::vector<double> mind(static_cast<size_t>(lambda), std::numeric_limits<double>::infinity());
        std::vector<char> taken(static_cast<size_t>(lambda), 0);
        int64_t pick = static_cast<int64_t>(std::max_element(size.begin(), size.end()) - size.begin());
        for (int64_t h = 0; h < k; ++h) {
            if (h > 0) {
                pick = -1;
                double best = -1.0;
                for (int64_t p = 0; p < lambda; ++p) {
                    if (taken[p]) continue;
                    const double score = static_cast<double>(size[p]) * mind[p];
                    if (score > best) { best = score; pick = p; }
                }
            }
            taken[pick] = 1;
            std::copy(hood_centers.begin() + pick * d, hood_centers.begin() + (pick + 1) * d, centers.begin() + h * d);
            for (int64_t p = 0; p < lambda; ++p)
                if (!taken[p])
                    mind[p] = std::min(mind[p], dist.center_distance(hood_centers.data() + p * d, centers.data() + h * d));
        }
        return centers;
    }
    std::copy(hood_centers.begin(), hood_centers.begin() + lambda * d, centers.begin());
    if (cfg.init_perturb)
        add_perturbed(ctx, dist, lambda, k, rng, centers);
    else
        add_kmeanspp(dist, lambda, k, rng, units, centers);
    return centers;
}

}  // namespace hmrf
}  // namespace kindred
