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

// Centre of one point i (a global index), or of the whole unit of propagated
// constraints it belongs to (units: nullptr, or the unit of each point of all
// the ranks), through the distortion's centroid rule (so that the idiv
// smoothing and the cosine normalisation apply); the distortion holds this
// rank's rows, from ranks.first_row().
void center_of_point(const divergence::WeightedDistortion &dist, int64_t i, const IndexVector *units,
                     const Collective &ranks, double *out) {
    const int64_t first = ranks.first_row();
    std::vector<int32_t> lab(static_cast<size_t>(dist.n()), -1);
    if (i >= first && i < first + dist.n()) lab[i - first] = 0;
    if (units)
        for (int64_t p = 0; p < dist.n(); ++p)
            if ((*units)[first + p] == (*units)[i]) lab[p] = 0;
    std::vector<double> c(static_cast<size_t>(dist.d()), 0.0);
    dist.centroids(lab.data(), 1, c);
    std::copy(c.begin(), c.end(), out);
}

void add_perturbed(const FitContext &ctx, const divergence::WeightedDistortion &dist, int64_t have, int64_t k, Rng &rng,
                   const Collective &ranks, std::vector<double> &centers) {
    const int64_t n = dist.n(), d = dist.d();
    std::vector<int32_t> all(static_cast<size_t>(n), 0);
    std::vector<double> g(static_cast<size_t>(d), 0.0);
    dist.centroids(all.data(), 1, g);
    const bool euclidean = dist.kind() == divergence::DistortionKind::EuclideanFull ||
                           dist.kind() == divergence::DistortionKind::EuclideanDiag;
    std::vector<double> sd(static_cast<size_t>(d), 0.0), row(static_cast<size_t>(d));
    if (euclidean) {
        // One pass over all the points in index order, rank after rank.
        ranks.in_turn(sd.data(), sd.size(), [&](double *s) {
            for (int64_t i = 0; i < n; ++i) {
                ctx.data.copy_row(i, row.data());
                for (int64_t m = 0; m < d; ++m) s[m] += (row[m] - g[m]) * (row[m] - g[m]);
            }
        });
        for (double &v : sd) v = std::sqrt(v / static_cast<double>(ranks.n_total()));
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
                  const IndexVector *units, const Collective &ranks, std::vector<double> &centers) {
    const int64_t n = dist.n(), d = dist.d(), n_total = ranks.n_total();
    const int64_t trials = 2 + static_cast<int64_t>(std::log(static_cast<double>(k)));
    std::vector<double> closest(static_cast<size_t>(n), std::numeric_limits<double>::infinity()), col(static_cast<size_t>(n));
    std::vector<double> candidate(static_cast<size_t>(d)), best_col(static_cast<size_t>(n));
    auto finite = [](double v) { return std::isfinite(v) ? std::max(v, 0.0) : 0.0; };
    auto absorb = [&](const double *c) {
        dist.point_center_all(c, 1, col.data());
        for (int64_t i = 0; i < n; ++i) closest[i] = std::min(closest[i], std::max(col[i], 0.0));
    };
    // Every sum over the points below is a pass in index order over all the
    // ranks (Collective::in_turn), and the D^2 draw walks the cumulative
    // weights as Rng::categorical does: the draws and the sums of one process.
    std::vector<double> w(static_cast<size_t>(n));
    auto draw = [&]() {
        double total = 0.0;
        ranks.in_turn(&total, 1, [&](double *t) {
            for (int64_t i = 0; i < n; ++i) *t += w[i];
        });
        // state: what is left of r, the point drawn (-1: not yet), the last point of positive weight.
        double state[3] = {rng.uniform() * total, -1.0, 0.0};
        ranks.in_turn(state, 3, [&](double *s) {
            if (s[1] >= 0.0) return;
            for (int64_t i = 0; i < n; ++i) {
                const double global = static_cast<double>(ranks.first_row() + i);
                if (w[i] > 0.0) s[2] = global;
                if (s[0] < w[i]) {
                    s[1] = global;
                    return;
                }
                s[0] -= w[i];
            }
        });
        return static_cast<int64_t>(state[1] >= 0.0 ? state[1] : state[2]);
    };
    for (int64_t h = 0; h < have; ++h) absorb(centers.data() + h * d);
    for (int64_t h = have; h < k; ++h) {
        for (int64_t i = 0; i < n; ++i) w[i] = finite(closest[i]);
        const double total = h > 0 ? ranks.sum_in_order(w.data(), n) : 0.0;
        if (h == 0 || !(total > 0.0)) {
            center_of_point(dist, rng.below(n_total), units, ranks, centers.data() + h * d);
            absorb(centers.data() + h * d);
            continue;
        }
        double best_potential = std::numeric_limits<double>::infinity();
        for (int64_t t = 0; t < trials; ++t) {
            center_of_point(dist, draw(), units, ranks, candidate.data());
            dist.point_center_all(candidate.data(), 1, col.data());
            double potential = 0.0;
            ranks.in_turn(&potential, 1, [&](double *p) {
                for (int64_t i = 0; i < n; ++i) *p += finite(std::min(closest[i], std::max(col[i], 0.0)));
            });
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
                                    const Config &cfg, Rng &rng, const Collective &ranks,
                                    const IndexVector *units, int64_t unit_count, bool neighbourhoods) {
    const int64_t n = dist.n(), d = dist.d(), k = cfg.k, n_total = ranks.n_total(), first = ranks.first_row();
    std::vector<double> centers(static_cast<size_t>(k * d), 0.0);
    // Neighbourhoods: must-link components with at least two points,
    // numbered in the order of their first points over all the ranks (the
    // side information is about all the points); hood: this rank's rows.
    std::vector<int32_t> hood(static_cast<size_t>(n), -1);
    std::vector<int64_t> size;
    if (neighbourhoods && cfg.use_constraints && ctx.side && !ctx.side->pairs().empty()) {
        const std::vector<int64_t> &component = ctx.side->component();
        const auto comp = [&](int64_t i) { return units ? (*units)[i] : component[static_cast<size_t>(i)]; };
        std::vector<int64_t> comp_size(static_cast<size_t>(units ? unit_count : ctx.side->component_count()), 0);
        for (int64_t i = 0; i < n_total; ++i) ++comp_size[comp(i)];
        std::vector<int32_t> id(comp_size.size(), -1);
        for (int64_t i = 0; i < n_total; ++i) {
            const int64_t c = comp(i);
            if (comp_size[c] < 2) continue;
            if (id[c] < 0) {
                id[c] = static_cast<int32_t>(size.size());
                size.push_back(comp_size[c]);
            }
            if (i >= first && i < first + n) hood[i - first] = id[c];
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
        add_perturbed(ctx, dist, lambda, k, rng, ranks, centers);
    else
        add_kmeanspp(dist, lambda, k, rng, units, ranks, centers);
    return centers;
}

}  // namespace hmrf
}  // namespace kindred
