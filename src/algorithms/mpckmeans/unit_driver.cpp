// HMRF-KMeans on propagated constraints: the default of pckmeans and
// mpckmeans. The paper states (section 3.3.5) that must-links are transitive
// and cannot-links extend to whole must-link components, but uses that only
// to initialise; here it holds throughout the fit:
//   - the units of core/constraint_propagation.hpp (robust by default) are
//     assigned as wholes: a point never leaves its unit, so the unit's
//     distortion is the sum over its members, sum_{i in U} D_A(x_i, mu_h);
//   - a net cannot-link weight c(U, V) between two units in the same cluster
//     costs w c(U, V) |U| |V|: the point-wise penalty of the closure, in
//     which every point of U is cannot-linked to every point of V;
//   - w is constraint_weight times the mean distortion of a point to the
//     global centroid under A_0 (relative_weight), so that one default fits
//     raw and standardised data alike;
//   - the metric step (B) sees no constraint term: inside a unit no
//     constraint is violated, and the closure's cannot-link terms do not
//     depend on A (constant potentials), so A is the closed form for the
//     clusters (for the Euclidean distortions, the within-cluster scatter).
//     Wrong answers then cannot drag A (the paper's phi terms of a few
//     violated, wrong constraints were what made the metric collapse);
//   - n_init restarts, the lowest J_obj kept: the first from the must-link
//     neighbourhoods (3.3.5, now the units), the others from k-means++ over
//     the units (a sampled point brings its unit's mean), so that the
//     constrained fit is never a single start against k-means' best of many.
// J_obj = sum_U sum_{i in U} D_A(x_i, mu_{y_U}) + sum_{U<V, y_U = y_V} w c(U,V) |U||V|
//       + regulariser; every step minimises it exactly (ICM over units, centroid,
//       closed-form A) or checks a decrease (gradient metric steps), so the
//       trace of each restart does not increase.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "algorithms/mpckmeans/hmrf.hpp"
#include "core/error.hpp"

namespace kindred {
namespace hmrf {
namespace {

struct UnitFit {
    std::vector<int32_t> labels;
    std::vector<double> centers, metric, trace;
    int64_t iterations = 0;
    bool converged = false;
    double objective = std::numeric_limits<double>::infinity();
};

// The units as a graph for the E-step of icm.cpp: the edge (U, V) of net
// cannot-link weight c(U, V) costs w c(U, V) |U| |V| when both units are in
// the same cluster (the point-wise penalty of the closure, in which every
// point of U is cannot-linked to every point of V), stored negated as the
// E-step stores a cannot-link. The units are then assigned by the same ICM as
// the points of the paper's engine (random key order; in the first sweep
// only the units not already at their best label, then only units next to a
// move), instead of a second ICM that visited every unit in every first
// sweep through a random shuffle (most of an iteration at n = 1e6). No
// slack is computed: with the units' weights almost no unit would pass the
// inert test (IcmWorkspace::prepare_all_movable).
IcmGraph unit_graph(const PropagatedConstraints &units, double w) {
    IcmGraph g;
    g.indptr = units.cl_ptr;
    g.edges.resize(units.cl_unit.size());
    for (int64_t u = 0; u < units.unit_count(); ++u) {
        const double size_u = static_cast<double>(units.unit_size[u]);
        for (int64_t e = units.cl_ptr[u]; e < units.cl_ptr[u + 1]; ++e) {
            const int64_t v = units.cl_unit[e];
            g.edges[e] = {v, -(w * units.cl_weight[e] * size_u * static_cast<double>(units.unit_size[v]))};
        }
    }
    return g;
}

// The cannot-link terms of J_obj: each edge's cost once (from its smaller end).
double unit_penalty(const IcmGraph &graph, const std::vector<int32_t> &unit_label) {
    double s = 0.0;
    const int64_t m = static_cast<int64_t>(unit_label.size());
    for (int64_t u = 0; u < m; ++u)
        for (int64_t e = graph.indptr[u]; e < graph.indptr[u + 1]; ++e) {
            const IcmGraph::Edge &edge = graph.edges[e];
            if (edge.j > u && unit_label[u] == unit_label[edge.j]) s -= edge.w;
        }
    return s;
}

UnitFit fit_once(const FitContext &ctx, const Config &cfg, const PropagatedConstraints &units,
                 divergence::WeightedDistortion &dist, const Constraints &none, double w, bool neighbourhoods,
                 Rng rng, int64_t restart) {
    const int64_t n = dist.n(), k = cfg.k, m = units.unit_count();
    Rng init_rng = rng.derive(1), icm_rng = rng.derive(2);
    UnitFit fit;
    fit.centers = initial_centers(ctx, dist, cfg, init_rng, &units.unit, m, neighbourhoods);
    std::vector<double> dmat(static_cast<size_t>(n * k));
    std::vector<int32_t> unit_label(static_cast<size_t>(m), 0);
    const IcmGraph graph = unit_graph(units, w);
    // The units' cost rows live in the E-step's workspace, which reads them
    // in place (prepare_all_movable).
    IcmWorkspace work;
    std::vector<double> &cost = work.rows;
    cost.assign(static_cast<size_t>(m * k), 0.0);
    fit.labels.assign(static_cast<size_t>(n), 0);
    double learning_rate = cfg.learning_rate;
    // The members' distortions summed per unit, and the distortion term of
    // J_obj, block by block while the distances are in cache (the n x k
    // matrix is written only by distortions without blocks).
    auto distances = [&]() {
        std::fill(cost.begin(), cost.end(), 0.0);
        double total = 0.0;
        dist.point_center_blocks(fit.centers.data(), k, dmat.data(), [&](int64_t begin, int64_t end, const double *rows) {
            for (int64_t i = begin; i < end; ++i) {
                const double *row = rows + (i - begin) * k;
                double *c = cost.data() + units.unit[i] * k;
                for (int64_t h = 0; h < k; ++h) c[h] += row[h];
                total += row[fit.labels[i]];
            }
        });
        return total;
    };
    distances();
    // Start from the nearest centre of each unit, then ICM.
    for (int64_t u = 0; u < m; ++u) {
        const double *c = cost.data() + u * k;
        unit_label[u] = static_cast<int32_t>(std::min_element(c, c + k) - c);
    }
    int64_t it = 0;
    for (it = 1; it <= cfg.max_iter; ++it) {
        work.prepare_all_movable(unit_label);
        const int64_t moves = icm_assign_prepared(k, graph, cfg.icm_max_sweeps, icm_rng, unit_label, work);
        for (int64_t i = 0; i < n; ++i) fit.labels[i] = unit_label[units.unit[i]];
        dist.centroids(fit.labels.data(), k, fit.centers);
        if (cfg.learn_metric && cfg.metric_steps) metric_step(dist, none, fit.centers, fit.labels, cfg, learning_rate);
        double j = distances() + unit_penalty(graph, unit_label);
        if (cfg.learn_metric) j += dist.regulariser(cfg.use_prior, cfg.rayleigh_s);
        if (!std::isfinite(j))
            fail(KINDRED_E_NUMERICAL, cfg.name, ": the objective became ", j, " at iteration ", it,
                 (cfg.kind == divergence::DistortionKind::IDivergence ? " (raise 'smoothing')" : ""));
        const double prev = fit.trace.empty() ? std::numeric_limits<double>::infinity() : fit.trace.back();
        fit.trace.push_back(j);
        ctx.progress.report(it, j, cat(cfg.name, ": restart ", restart + 1, " of ", cfg.n_init, ", ", moves,
                                       " units moved").c_str());
        if (it > 1 && moves == 0 && (!cfg.learn_metric || std::fabs(prev - j) <= cfg.tol * std::max(1.0, std::fabs(prev)))) {
            fit.converged = true;
            break;
        }
    }
    fit.iterations = std::min(it, cfg.max_iter);
    fit.objective = fit.trace.back();
    fit.metric = dist.params();
    return fit;
}

}  // namespace

// The mean distortion of a point to the global centroid under the current A.
double mean_spread(const divergence::WeightedDistortion &dist) {
    const int64_t n = dist.n();
    std::vector<int32_t> one(static_cast<size_t>(n), 0);
    std::vector<double> g(static_cast<size_t>(dist.d()), 0.0), col(static_cast<size_t>(n));
    dist.centroids(one.data(), 1, g);
    dist.point_center_all(g.data(), 1, col.data());
    double s = 0.0;
    for (double v : col) s += std::isfinite(v) ? std::max(v, 0.0) : 0.0;
    return s / static_cast<double>(n);
}

FitResult fit_hmrf_units(const FitContext &ctx, const Config &cfg) {
    const DataView &data = ctx.data;
    const int64_t n = data.n(), d = data.d(), k = cfg.k;
    if (k > n) fail(KINDRED_E_DIMENSION, cfg.name, ": k = ", k, " is larger than the number of points n = ", n);
    const bool constrained = cfg.use_constraints && ctx.side;
    // The robust units are kept by the store; the transitive ones (and the
    // singletons of a fit without constraints) are derived here.
    const bool stored = constrained && cfg.propagation == Propagation::Robust;
    const PropagatedConstraints derived =
        stored ? PropagatedConstraints()
               : propagate_constraints(n, constrained ? ctx.side->pairs() : std::vector<Pair>(), Propagation::Transitive);
    const PropagatedConstraints &units = stored ? ctx.side->robust_units() : derived;
    if (constrained)
        ctx.log.info(cat(cfg.name, ": ", ctx.side->pairs().size(), " pairs propagated (",
                         cfg.propagation == Propagation::Robust ? "robust" : "transitive", ") into ", units.unit_count(),
                         " units, the largest of ", units.largest_unit(), " points; ", units.contradicted_pairs,
                         " pairs contradict the units and are outvoted"));
    std::unique_ptr<divergence::WeightedDistortion> dist =
        divergence::make_distortion(cfg.kind, data, ctx.threads, cfg.phi_max, cfg.smoothing, cfg.name);
    const Constraints none(nullptr, n, false, 1.0);
    const std::vector<double> a_start = dist->params();
    Rng rng(static_cast<uint64_t>(ctx.options.get_int("seed")));
    UnitFit best;
    for (int64_t r = 0; r < cfg.n_init; ++r) {
        dist->set_params(a_start);
        if (cfg.learn_metric && cfg.metric_init_global) initialise_metric(*dist, cfg);
        const double w = cfg.relative_weight ? cfg.constraint_weight * mean_spread(*dist) : cfg.constraint_weight;
        UnitFit fit = fit_once(ctx, cfg, units, *dist, none, w, r == 0, rng.derive(static_cast<uint64_t>(10 + r)), r);
        if (fit.objective < best.objective) best = std::move(fit);
    }
    FitResult result;
    result.clusters = k;
    result.iterations = best.iterations;
    result.converged = best.converged;
    result.objective = best.objective;
    result.labels = std::move(best.labels);
    result.set_array("centers", k, d, best.centers);
    if (dist->full_matrix())
        result.set_array("metric", d, d, best.metric);
    else
        result.set_array("metric", 1, d, best.metric);
    result.set_array("objective_trace", static_cast<int64_t>(best.trace.size()), 1, best.trace);
    return result;
}

}  // namespace hmrf
}  // namespace kindred
