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

#include "algorithms/centroid/driver.hpp"
#include "algorithms/mpckmeans/hmrf.hpp"
#include "core/error.hpp"

namespace kindred {
namespace hmrf {
namespace {

struct UnitFit : CentroidRun {
    std::vector<double> metric;
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
// inert test, so every moving unit is movable (the E-step in fit_once).
// Every edge is a cannot-link, so the E-steps keep instead each unit's
// number of neighbours in its cluster (IcmWorkspace::same): a unit with
// none is decided by its row alone in the first sweep, and adds nothing to
// unit_penalty.
IcmGraph unit_graph(const PropagatedConstraints &units, double w) {
    IcmGraph g;
    g.borrow_rows(units.cl_ptr, units.cl_unit);
    for (int64_t u = 0; u < units.unit_count(); ++u) {
        const double size_u = static_cast<double>(units.unit_size[u]);
        for (int64_t e = units.cl_ptr[u]; e < units.cl_ptr[u + 1]; ++e)
            g.w[e] = -(w * units.cl_weight[e] * size_u * static_cast<double>(units.unit_size[units.cl_unit[e]]));
    }
    return g;
}

// The cannot-link terms of J_obj: each edge's cost once (from its smaller
// end), over the units in ascending order. Only the units that can move
// (moving, ascending) have edges, so the others are not scanned; an edge
// that costs nothing subtracts 0.0, which leaves the sum's bits as they were
// (the unpredictable branch it replaces cost more than the subtraction).
// same (IcmWorkspace::same, the number of a unit's neighbours in its
// cluster): a unit with none has only such edges, so it is not scanned (its
// neighbours' labels are not read); the sum's bits are those of the scan.
double unit_penalty(const IcmGraph &graph, const std::vector<int64_t> &moving, const std::vector<int32_t> &unit_label,
                    const std::vector<uint32_t> &same) {
    double s = 0.0;
    const bool counted = !same.empty();
    for (const int64_t u : moving) {
        if (counted && same[u] == 0) continue;
        const int32_t label_u = unit_label[u];
        for (int64_t e = graph.indptr[u]; e < graph.indptr[u + 1]; ++e) {
            const int64_t v = graph.neighbor[e];
            s -= (v > u && label_u == unit_label[v]) ? graph.w[e] : 0.0;
        }
    }
    return s;
}

// The units whose label depends on others' (two or more points, or a
// cannot-link), the same on every rank; every other unit is one point
// without constraints, which the E-step gives icm_choice of its row where it
// lies. A point's unit and the unit's slot say whether it is a member and
// where its row is added: the list of the members (ascending, with n pairs
// about 0.86 n) and each member's slot, 16 bytes a member for the whole fit,
// are made only for a fit that gathers the members' rows (sharded, or
// distortions without cross blocks: those hold the n x k distortions, 80
// bytes a point at k = 10, anyway).
struct UnitPlan {
    std::vector<int64_t> moving;   // the units, ascending
    // Per unit: its index in `moving`, -1 for a free unit (one point
    // without constraints). Lent to the ICM workspace as its slot_of, which
    // holds the same values for the units that can move (Icm::fill_slots).
    std::vector<int64_t> slot;
    std::vector<int64_t> members;  // global indices, ascending (fill_members)
    bool members_built = false;    // (members may be empty when built: a fit without constraints)

    bool free(int64_t u) const { return slot[static_cast<size_t>(u)] < 0; }
};

UnitPlan unit_plan(const PropagatedConstraints &units) {
    const int64_t m = units.unit_count();
    UnitPlan plan;
    plan.slot.assign(static_cast<size_t>(m), -1);
    int64_t moving = 0;
    for (int64_t u = 0; u < m; ++u)
        if (units.unit_size[u] > 1 || units.cl_ptr[u + 1] > units.cl_ptr[u]) plan.slot[u] = moving++;
    // Sized exactly: grown by push_back it kept up to twice its size for the whole fit.
    plan.moving.reserve(static_cast<size_t>(moving));
    for (int64_t u = 0; u < m; ++u)
        if (!plan.free(u)) plan.moving.push_back(u);
    return plan;
}

void fill_members(UnitPlan &plan, const PropagatedConstraints &units, int64_t n_total) {
    if (plan.members_built) return;
    plan.members_built = true;
    int64_t members = 0;
    for (int64_t s = 0; s < static_cast<int64_t>(plan.moving.size()); ++s) members += units.unit_size[plan.moving[s]];
    plan.members.reserve(static_cast<size_t>(members));
    for (int64_t i = 0; i < n_total; ++i)
        if (!plan.free(units.unit[i])) plan.members.push_back(i);
}

// Loops over points in index order (or over the members, ascending) add a
// member's row into its unit's cost row. A member other than its unit's
// first adds to a row written at the first, far back in index order (the
// members of a unit are scattered over the points), and its unit's slot is
// as far back: both were a cache miss per such member, most of the time of
// these loops. Fetched ahead in two stages, the slot, then the row, for the
// point at position pos + 2 kPrefetchAhead and pos + kPrefetchAhead of the
// loop (point(p): the point at position p; size: the loop's length); only a
// row below `reached` (the rows from `reached` on are the next ones written,
// in order).
template <typename PointAt>
KINDRED_PREFETCH_HELPER void prefetch_unit_row(const UnitPlan &plan, const PropagatedConstraints &units,
                                               const double *cost, int64_t k, int64_t pos, int64_t size,
                                               int64_t reached, PointAt point) {
    if (pos + 2 * kPrefetchAhead < size) __builtin_prefetch(&plan.slot[units.unit[point(pos + 2 * kPrefetchAhead)]]);
    if (pos + kPrefetchAhead < size) {
        const int64_t slot = plan.slot[units.unit[point(pos + kPrefetchAhead)]];
        if (slot >= 0 && slot < reached) {
            __builtin_prefetch(cost + slot * k);
            __builtin_prefetch(cost + slot * k + k - 1);
        }
    }
}

UnitFit fit_once(const FitContext &ctx, const Config &cfg, const PropagatedConstraints &units, UnitPlan &plan,
                 const Collective &ranks, divergence::WeightedDistortion &dist, const Constraints &none, double w,
                 bool neighbourhoods, Rng rng, int64_t restart) {
    const int64_t n = dist.n(), k = cfg.k, m = units.unit_count(), first = ranks.first_row();
    const int64_t moving = static_cast<int64_t>(plan.moving.size());
    Rng init_rng = rng.derive(1), icm_rng = rng.derive(2);
    UnitFit fit;
    fit.centers = initial_centers(ctx, dist, cfg, init_rng, ranks, &units.unit, m, neighbourhoods);
    // cost: the summed rows of the units that can move, in the order of
    // plan.moving, the same on every rank (each a sum over its members in
    // index order, as one process adds them). free_next: for the point of a
    // free unit, its label after the next E-step (icm_choice of its row
    // under its unit's label, which nothing changes between the distances
    // and that E-step). In one process with a Euclidean or cosine distortion
    // the rows are read block by block where they are computed (the members'
    // rows added to cost, the free points' choices taken) and never stored:
    // the n x k matrix dmat (80 bytes a point at k = 10, the largest block
    // of the fit) is then not allocated. Otherwise dmat holds this rank's rows
    // (the rows of the members are gathered from it, and the other
    // distortions' point_center_blocks may use it as their n x k work).
    std::vector<double> dmat, own, cost;
    std::vector<int32_t> free_next(static_cast<size_t>(n), -1);
    ConstrainedRows member_rows(ranks, plan.members, k);
    // unit_label holds the moving units' labels on every rank; a free
    // unit's entry is not kept (its point's label is free_next's choice).
    std::vector<int32_t> unit_label(static_cast<size_t>(m), 0);
    const IcmGraph graph = unit_graph(units, w);
    IcmWorkspace work;
    fit.labels.assign(static_cast<size_t>(n), 0);
    double learning_rate = cfg.learning_rate, penalty = 0.0;
    // Before the first E-step the free units have no label yet: they start
    // at their nearest centre, which is also what that E-step gives them.
    bool starting = true;
    // The free points whose choice differs from their label: the moves of
    // the next E-step outside the ICM, counted where the choice is made
    // (instead of by a pass of the E-step over the n points' units).
    int64_t free_moves = 0;
    // slot: that of the point's unit (plan.slot), -1 for a free unit.
    // Returns the point's distortion at its label.
    auto take_row = [&](int64_t i, const double *row, int64_t slot) {
        const int32_t label = fit.labels[i];
        if (slot < 0) {
            const int32_t chosen = starting ? first_smallest(row, k) : icm_choice(row, k, label);
            free_next[i] = chosen;
            free_moves += !starting && chosen != label;
        }
        return row[label];
    };
    // The distortions of this rank's rows (block by block while in cache),
    // the moving units' costs from their members' rows (gathered), and the
    // distortion term of J_obj, summed in index order over the ranks.
    auto distances = [&]() {
        cost.resize(static_cast<size_t>(moving * k));
        std::vector<double> finished(static_cast<size_t>(k));
        // The slots are numbered in the order of the units' smallest members
        // (units are, and plan.moving is ascending) and the rows come in
        // index order, so a unit's first member is the one whose slot is
        // the next not yet reached: its row is stored, the others added to
        // it. Bit for bit what adding to a zeroed row gives (0.0 + v is v
        // for every v but -0.0, which neither a clamped Euclidean distance
        // nor the cosine's 1 - s / |x|_A is), without the pass that zeroed
        // the rows and the read of each zero.
        int64_t next_slot = 0;
        free_moves = 0;
        // The distortion term, added in index order as the rows come (the
        // bits of ranks.sum_in_order in one process, without a vector of
        // the n values and a pass over it).
        double own_sum = 0.0;
        // Row i (k values) by row_of(out, store): written into out when store
        // (i is its unit's first member: out is the unit's cost row, no
        // copy) or when the row must be computed; else it may be read where
        // it is. The others' rows are added to their unit's cost row; the
        // members' rows come in index order, as one process adds them.
        auto place_row = [&](int64_t i, const auto &row_of) {
            prefetch_unit_row(plan, units, cost.data(), k, i, n, next_slot, [&](int64_t p) { return first + p; });
            const int64_t slot = plan.slot[units.unit[first + i]];
            const bool first_member = slot == next_slot;
            const double *row = row_of(first_member ? cost.data() + slot * k : finished.data(), first_member);
            own_sum += take_row(i, row, slot);
            if (first_member) {
                ++next_slot;
            } else if (slot >= 0) {
                double *c = cost.data() + slot * k;
                for (int64_t h = 0; h < k; ++h) c[h] += row[h];
            }
        };
        // The values point_center_cross_blocks hands over, finished here
        // (finished_distance, the same additions in the same order).
        const bool crossed = ranks.single() && dist.point_center_cross_blocks(
            fit.centers.data(), k, [&](int64_t begin, int64_t end, const double *cross, const double *x_sqnorm,
                                       const double *c_sqnorm) {
                for (int64_t i = begin; i < end; ++i)
                    place_row(i, [&](double *out, bool) {
                        const double *raw = cross + (i - begin) * k;
                        for (int64_t h = 0; h < k; ++h)
                            out[h] = divergence::WeightedDistortion::finished_distance(raw[h], x_sqnorm[i], c_sqnorm[h]);
                        return static_cast<const double *>(out);
                    });
            });
        // Other distortions that hand their rows block by block without an
        // n x k work matrix (the cosine): the same, with the rows as they
        // come (copied only into a first member's cost row).
        const bool streamed = !crossed && ranks.single() && !dist.blocks_need_work();
        if (streamed)
            dist.point_center_blocks(fit.centers.data(), k, nullptr, [&](int64_t begin, int64_t end, const double *rows) {
                for (int64_t i = begin; i < end; ++i)
                    place_row(i, [&](double *out, bool store) {
                        const double *row = rows + (i - begin) * k;
                        if (!store) return row;
                        std::copy(row, row + k, out);
                        return static_cast<const double *>(out);
                    });
            });
        if ((crossed || streamed) && next_slot != moving)
            fail(KINDRED_E_INTERNAL, cfg.name, ": ", moving - next_slot, " units' rows were not reached in index order");
        if (!crossed && !streamed) {
            dmat.resize(static_cast<size_t>(n * k));
            own.resize(static_cast<size_t>(n));
            dist.point_center_blocks(fit.centers.data(), k, dmat.data(), [&](int64_t begin, int64_t end, const double *rows) {
                for (int64_t i = begin; i < end; ++i) {
                    const double *row = rows + (i - begin) * k;
                    double *keep = dmat.data() + i * k;
                    if (row != keep) std::copy(row, row + k, keep);
                    own[i] = take_row(i, row, plan.slot[units.unit[first + i]]);
                }
            });
            std::fill(cost.begin(), cost.end(), 0.0);
            fill_members(plan, units, ranks.n_total());
            member_rows.gather(dmat, n);
            const int64_t member_count = static_cast<int64_t>(plan.members.size());
            for (int64_t e = 0; e < member_count; ++e) {
                prefetch_unit_row(plan, units, cost.data(), k, e, member_count, moving,
                                  [&](int64_t p) { return plan.members[static_cast<size_t>(p)]; });
                const double *row = member_rows.row(static_cast<size_t>(e));
                double *c = cost.data() + plan.slot[units.unit[plan.members[e]]] * k;
                for (int64_t h = 0; h < k; ++h) c[h] += row[h];
            }
        }
        starting = false;
        return crossed || streamed ? own_sum : ranks.sum_in_order(own.data(), n);
    };
    distances();
    // Start from the nearest centre of each unit (a free unit's cost is its point's row), then ICM.
    for (int64_t s = 0; s < moving; ++s) {
        const double *c = cost.data() + s * k;
        unit_label[plan.moving[s]] = static_cast<int32_t>(std::min_element(c, c + k) - c);
    }
    // Kept by the E-steps from here on (IcmWorkspace::same).
    work.same = count_same_labels(graph, unit_label);
    iterate(ctx, ranks, cfg.max_iter, cfg.name, fit, [&](int64_t it) {
        // E-step: the ICM over the moving units on every rank alike (the
        // free units take free_next in the pass of the labels below).
        // Every moving unit can move (no inert test, see unit_graph), so the
        // workspace's rows would be cost itself, its list of movable units
        // plan.moving, in the same order, and its slots plan.slot: all are
        // lent to it for the E-step (which only reads them, or writes a slot
        // its value) and taken back.
        work.prepare_inert_again(m);
        for (int64_t s = 0; s < moving; ++s) work.mark_movable(plan.moving[s], unit_label[plan.moving[s]]);
        work.rows.swap(cost);
        work.movable.swap(plan.moving);
        work.slot_of.swap(plan.slot);
        const int64_t moves = icm_assign_prepared(k, graph, cfg.icm_max_sweeps, icm_rng, unit_label, work, nullptr,
                                                  total_over_ranks(ranks, free_moves));
        work.slot_of.swap(plan.slot);
        work.movable.swap(plan.moving);
        work.rows.swap(cost);
        // (The slot and label of the unit of the point kPrefetchAhead ahead
        // were fetched ahead here until 2026-12-05: the pass took no less
        // time without, docs/performance.md.)
        for (int64_t i = 0; i < n; ++i) {
            const int64_t u = units.unit[first + i];
            fit.labels[i] = plan.free(u) ? free_next[i] : unit_label[u];
        }
        dist.centroids(fit.labels.data(), k, fit.centers);
        // The metric step's first gradient candidate is scored by the
        // distances' pass itself (its distortion term is assigned_distortion's
        // sum, bit for bit): when that A is kept, the pass is this iteration's.
        bool rows_kept = false;
        double rows_j = 0.0;
        std::vector<double> rows_a;
        const std::function<double()> rows_pass = [&]() {
            rows_j = distances();
            rows_a = dist.params();
            rows_kept = true;
            return rows_j;
        };
        if (cfg.learn_metric && cfg.metric_steps)
            metric_step(dist, none, fit.centers, fit.labels, 0, cfg, learning_rate, &rows_pass);
        // (no unit moved: the cannot-link terms are those of the last iteration)
        if (moves > 0 || it == 1) penalty = unit_penalty(graph, plan.moving, unit_label, work.same);
        double j = (rows_kept && dist.params() == rows_a ? rows_j : distances()) + penalty;
        if (cfg.learn_metric) j += dist.regulariser(cfg.use_prior, cfg.rayleigh_s);
        if (!std::isfinite(j))
            fail(KINDRED_E_NUMERICAL, cfg.name, ": the objective became ", j, " at iteration ", it,
                 (cfg.kind == divergence::DistortionKind::IDivergence ? " (raise 'smoothing')" : ""));
        const double prev = fit.trace.empty() ? std::numeric_limits<double>::infinity() : fit.trace.back();
        const bool converged =
            it > 1 && moves == 0 && (!cfg.learn_metric || std::fabs(prev - j) <= cfg.tol * std::max(1.0, std::fabs(prev)));
        return StepOutcome{j, converged,
                           cat(cfg.name, ": restart ", restart + 1, " of ", cfg.n_init, ", ", moves, " units moved")};
    });
    fit.objective = fit.trace.back();
    fit.metric = dist.params();
    return fit;
}

}  // namespace

// The mean distortion of a point to the global centroid under the current A.
double mean_spread(const divergence::WeightedDistortion &dist, const Collective &ranks) {
    const int64_t n = dist.n();
    std::vector<int32_t> one(static_cast<size_t>(n), 0);
    std::vector<double> g(static_cast<size_t>(dist.d()), 0.0), col(static_cast<size_t>(n));
    dist.centroids(one.data(), 1, g);
    dist.point_center_all(g.data(), 1, col.data());
    for (double &v : col) v = std::isfinite(v) ? std::max(v, 0.0) : 0.0;
    return ranks.sum_in_order(col.data(), n) / static_cast<double>(ranks.n_total());
}

FitResult fit_hmrf_units(const FitContext &ctx, const Config &cfg) {
    const DataView &data = ctx.data;
    const Collective ranks = Collective::or_single(ctx.collective, data.n());
    const int64_t n_total = ranks.n_total(), d = data.d(), k = cfg.k;
    if (k > n_total) fail(KINDRED_E_DIMENSION, cfg.name, ": k = ", k, " is larger than the number of points n = ", n_total);
    const bool constrained = cfg.use_constraints && ctx.side;
    // The robust units are kept by the store; the transitive ones (and the
    // singletons of a fit without constraints) are derived here. Both are
    // about all the points, on every rank.
    const bool stored = constrained && cfg.propagation == Propagation::Robust;
    const PropagatedConstraints derived =
        stored ? PropagatedConstraints()
               : propagate_constraints(n_total, constrained ? ctx.side->pairs() : std::vector<Pair>(),
                                       Propagation::Transitive);
    const PropagatedConstraints &units = stored ? ctx.side->robust_units() : derived;
    if (constrained)
        ctx.log.info(cat(cfg.name, ": ", ctx.side->pairs().size(), " pairs propagated (",
                         cfg.propagation == Propagation::Robust ? "robust" : "transitive", ") into ", units.unit_count(),
                         " units, the largest of ", units.largest_unit(), " points; ", units.contradicted_pairs,
                         " pairs contradict the units and are outvoted"));
    UnitPlan plan = unit_plan(units);  // not const: fit_once lends plan.moving and plan.slot to the ICM
    std::unique_ptr<divergence::WeightedDistortion> dist = distortion_of(ctx, cfg, ranks);
    // No pairs for the metric step, which reads only `pairs`: built over no
    // points, so that it holds no n + 1 row offsets (8 bytes a point).
    const Constraints none(nullptr, 0, false, 1.0);
    const std::vector<double> a_start = dist->params();
    Rng rng(static_cast<uint64_t>(ctx.options.get_int("seed")));
    UnitFit best = best_of_restarts<UnitFit>(cfg.n_init, [&](int64_t r) {
        dist->set_params(a_start);
        if (cfg.learn_metric && cfg.metric_init_global) initialise_metric(*dist, cfg);
        const double w = cfg.relative_weight ? cfg.constraint_weight * mean_spread(*dist, ranks) : cfg.constraint_weight;
        return std::optional<UnitFit>(fit_once(ctx, cfg, units, plan, ranks, *dist, none, w, r == 0,
                                               rng.derive(static_cast<uint64_t>(10 + r)), r));
    });
    NamedArray metric{"metric", dist->full_matrix() ? d : 1, d, std::move(best.metric)};
    return centroid_result(std::move(best), d, {std::move(metric)});
}

}  // namespace hmrf
}  // namespace kindred
