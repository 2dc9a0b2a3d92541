// The constraint set, the potentials and the objective J_obj of HMRF-KMeans
// (Basu et al., 3.13 and 3.14).
#include <cmath>

#include "algorithms/mpckmeans/hmrf.hpp"
#include "core/error.hpp"

namespace kindred {
namespace hmrf {

Constraints::Constraints(const SideInfo *side, int64_t n, bool use, double weight) {
    indptr.assign(static_cast<size_t>(n + 1), 0);
    if (!use || !side) return;
    if (side->n() != n) fail(KINDRED_E_INTERNAL, "HMRF constraints: side information for ", side->n(), " points, data of ", n);
    for (size_t q = 0; q < side->pairs().size(); ++q) {
        const Pair &p = side->pairs()[q];
        // weight w_ij = |value| (times the global multiplier); the sign is the kind.
        const double w = weight * std::fabs(p.value);
        if (!(w > 0.0)) continue;
        pairs.push_back({p.i, p.j, w, p.value > 0.0});
    }
    // The store's rows with the pairs of no weight left out: the same
    // counting sort as the store's adjacency (core/adjacency.hpp), so that
    // every row lists its entries in pairs() order, neighbours ascending.
    other.resize(2 * pairs.size());
    pair_of.resize(2 * pairs.size());
    fill_pair_rows(n, pairs, indptr, [&](int64_t e, size_t q, int64_t to) {
        other[static_cast<size_t>(e)] = to;
        pair_of[static_cast<size_t>(e)] = static_cast<int64_t>(q);
    });
}

Potentials potentials(const divergence::WeightedDistortion &dist, const Constraints &cons, bool constant) {
    Potentials pot;
    if (constant) {
        // PCKMeans (Basu et al. 2004a): a violated constraint costs its weight:
        // phi = 1, phi_max = 2 give w * phi = w (must) and w * (phi_max - phi) = w (cannot).
        pot.phi.assign(cons.pairs.size(), 1.0);
        pot.phi_max = 2.0;
        return pot;
    }
    pot.phi.resize(cons.pairs.size());
    for (size_t q = 0; q < cons.pairs.size(); ++q) pot.phi[q] = dist.phi(cons.pairs[q].i, cons.pairs[q].j);
    pot.phi_max = dist.phi_max_known(cons.pairs, pot.phi);
    return pot;
}

double pair_penalty(const divergence::PairConstraint &p, const Potentials &pot, size_t index, const int32_t *labels) {
    const bool same = labels[p.i] == labels[p.j];
    if (p.must) return same ? 0.0 : p.w * pot.phi[index];                // (3.13), c_ij = 1, y_i != y_j
    return same ? p.w * (pot.phi_max - pot.phi[index]) : 0.0;             // (3.13), c_ij = -1, y_i == y_j
}

double constraint_penalty(const Constraints &cons, const Potentials &pot, const int32_t *labels) {
    double j = 0.0;
    const size_t count = cons.pairs.size();
    for (size_t q = 0; q < count; ++q) {
        // The labels of a pair are random reads: ask for them a few pairs ahead.
        if (q + 16 < count) {
            __builtin_prefetch(labels + cons.pairs[q + 16].i);
            __builtin_prefetch(labels + cons.pairs[q + 16].j);
        }
        j += pair_penalty(cons.pairs[q], pot, q, labels);
    }
    return j;
}

bool penalty_sums_exact(const Constraints &cons, const Potentials &pot) {
    double total = 0.0;
    for (size_t q = 0; q < cons.pairs.size(); ++q) {
        const auto &p = cons.pairs[q];
        const double cost = p.must ? p.w * pot.phi[q] : p.w * (pot.phi_max - pot.phi[q]);
        if (!(cost == std::nearbyint(cost))) return false;  // also NaN and +-inf
        total += std::fabs(cost);
        if (!(total <= 9007199254740992.0)) return false;  // 2^53
    }
    return true;
}

double penalty_change(const Constraints &cons, const Potentials &pot, const int32_t *before, const int32_t *after) {
    double change = 0.0;
    const int64_t n = static_cast<int64_t>(cons.indptr.size()) - 1;
    for (int64_t i = 0; i < n; ++i) {
        if (before[i] == after[i]) continue;
        for (int64_t e = cons.indptr[i]; e < cons.indptr[i + 1]; ++e) {
            const int64_t o = cons.other[e];
            if (o < i && before[o] != after[o]) continue;  // the pair was counted from o
            const size_t q = static_cast<size_t>(cons.pair_of[e]);
            change += pair_penalty(cons.pairs[q], pot, q, after) - pair_penalty(cons.pairs[q], pot, q, before);
        }
    }
    return change;
}

double objective(const divergence::WeightedDistortion &dist, const Constraints &cons, const Potentials &pot,
                 const std::vector<double> &dist_matrix, int64_t k, const int32_t *labels, const Config &cfg) {
    double j = 0.0;
    const int64_t n = dist.n();
    for (int64_t i = 0; i < n; ++i) j += dist_matrix[i * k + labels[i]];
    j += constraint_penalty(cons, pot, labels);
    // -log P(A) + n log Z_Theta; a constant (0 for A = I) when A is not learned.
    if (cfg.learn_metric) j += dist.regulariser(cfg.use_prior, cfg.rayleigh_s);
    return j;
}

}  // namespace hmrf
}  // namespace kindred
