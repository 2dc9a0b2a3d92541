// The HMRF-KMeans driver (Basu et al., figure 3.3): initialise, then repeat
// E-step (ICM), M-step (A) centroids, M-step (B) distortion parameters, and
// record J_obj (3.14) after every iteration. For the Euclidean and cosine
// distortions every step is an exact minimisation or a checked decrease,
// so the trace never increases (section 3.3.8); for idiv the smoothed
// centroid (3.23) is not the exact minimiser, and the trace may rise slightly.
#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/centroid/driver.hpp"
#include "algorithms/mpckmeans/hmrf.hpp"
#include "core/error.hpp"

namespace kindred {
namespace hmrf {
namespace {

void argmin_rows(const std::vector<double> &dmat, int64_t k, std::vector<int32_t> &labels) {
    const int64_t n = static_cast<int64_t>(labels.size());
    for (int64_t i = 0; i < n; ++i) labels[i] = first_smallest(dmat.data() + i * k, k);
}

}  // namespace

// The paper does not say where A starts. Starting at A = I makes the
// neighbourhood initialisation depend on the raw feature scales (on Wine,
// one feature dominates and ICM then stays in a poor local minimum). We
// start from the Euclidean closed-form M-step (B) for a single cluster at
// the global centroid with no violated constraint: A_0 = n S^{-1} (full) or
// a_m = n / S_mm (diagonal), the scaling by the data's variance of section
// 3.5.4. Option metric_init = identity keeps A = I.
void initialise_metric(divergence::WeightedDistortion &dist, const Config &cfg) {
    const int64_t n = dist.n();
    std::vector<int32_t> one(static_cast<size_t>(n), 0);
    std::vector<double> mean(static_cast<size_t>(dist.d()), 0.0);
    dist.centroids(one.data(), 1, mean);
    const std::vector<divergence::PairConstraint> none;
    const std::vector<double> no_coef;
    divergence::GradientInput in{one.data(), mean.data(), 1, &none, &no_coef, 0.0, cfg.use_prior, cfg.rayleigh_s};
    std::vector<double> a;
    if (dist.closed_form(in, cfg.eig_floor, a)) dist.set_params(a);
}

std::unique_ptr<divergence::WeightedDistortion> distortion_of(const FitContext &ctx, const Config &cfg,
                                                              const Collective &ranks) {
    std::unique_ptr<divergence::WeightedDistortion> dist;
    ranks.agree([&] {
        dist = divergence::make_distortion(cfg.kind, ctx.data, ctx.threads, cfg.phi_max, cfg.smoothing, cfg.name,
                                           ranks.first_row());
    });
    if (!ranks.single()) dist->set_ranks(&ranks);
    if (!cfg.fixed_metric.empty()) dist->set_params(cfg.fixed_metric);
    return dist;
}

namespace {

// One point-wise fit. restart 0 is the paper's (must-link neighbourhoods,
// the generator streams 1 and 2 of the seed); a later restart starts from
// k-means++ on streams of its own. ranks: those of a sharded fit (ctx.data:
// this rank's rows), or a single-process Collective.
FitResult fit_pointwise(const FitContext &ctx, const Config &cfg, int64_t restart, const Collective &ranks) {
    const DataView &data = ctx.data;
    const int64_t n = data.n(), d = data.d(), k = cfg.k, n_total = ranks.n_total(), first = ranks.first_row();
    if (k > n_total) fail(KINDRED_E_DIMENSION, cfg.name, ": k = ", k, " is larger than the number of points n = ", n_total);
    std::unique_ptr<divergence::WeightedDistortion> dist = distortion_of(ctx, cfg, ranks);
    Rng rng(static_cast<uint64_t>(ctx.options.get_int("seed")));
    if (restart > 0) rng = rng.derive(static_cast<uint64_t>(10 + restart));
    Rng init_rng = rng.derive(1), icm_rng = rng.derive(2);
    if (cfg.learn_metric && cfg.metric_init_global) initialise_metric(*dist, cfg);
    const double weight = cfg.relative_weight ? cfg.constraint_weight * mean_spread(*dist, ranks) : cfg.constraint_weight;
    const Constraints cons(ctx.side, n_total, cfg.use_constraints, weight), no_pairs(nullptr, 0, false, 1.0);
    // (no_pairs is over no points: the metric step reads only its pairs.)
    if (!ranks.single()) dist->gather_pair_ends(cons.pairs);
    std::vector<double> centers = initial_centers(ctx, *dist, cfg, init_rng, ranks, nullptr, 0, restart == 0);

    // The points with constraints are placed by the ICM on every rank alike,
    // from their rows of distortions (gathered); every other point takes
    // icm_choice of its row where it lies (free_next), which is the label
    // the sequential sweep gives it.
    std::vector<int64_t> with_pairs;
    for (int64_t i = 0; i < n_total; ++i)
        if (cons.indptr[i + 1] > cons.indptr[i]) with_pairs.push_back(i);
    ConstrainedRows pair_rows(ranks, with_pairs, k);
    std::vector<double> dmat(static_cast<size_t>(n * k)), own(static_cast<size_t>(n));
    // Every point's label on every rank, of which only this rank's rows and
    // the points with constraints are kept (nothing reads the others).
    std::vector<int32_t> labels(static_cast<size_t>(n_total), 0), free_next(static_cast<size_t>(n), -1);
    CentroidRun run;
    double learning_rate = cfg.learning_rate;
    // Constant potentials (pckmeans) do not depend on A: one set of
    // potentials and one E-step graph serve the whole fit.
    Potentials pot = potentials(*dist, cons, cfg.constant_potential);
    IcmGraph graph = icm_graph(cons, pot);
    // The distortions to the current centres, one block of rows at a time;
    // while a block is in cache, each point's share of the distortion term
    // of J_obj under the labels and what the next E-step needs: a point
    // without constraints, its choice (icm_choice; no row is finished when
    // icm_keeps_label says it keeps its label), a point with constraints,
    // its finished row (at n = 1e6, writing the whole n x k matrix out cost
    // about a tenth of a PCKMeans iteration). Then the rows of the points
    // with constraints, gathered, fill the E-step's workspace.
    IcmWorkspace icm_work;
    double distortion = 0.0;
    auto distances = [&](bool assign_nearest) {
        // The arrays in locals: through the captured references the compiler
        // reloaded every pointer once per row.
        int32_t *const label_of = labels.data() + first;
        int32_t *const next_of = free_next.data();
        double *const own_of = own.data();
        double *const rows_out = dmat.data();
        const int64_t *const indptr = cons.indptr.data() + first;
        // Squared Euclidean distortions: the distances finished where they
        // are read (the same values), without writing the finished block
        // and reading it back.
        const bool crossed = !assign_nearest && dist->point_center_cross_blocks(
            centers.data(), k, [&, label_of, next_of, own_of, rows_out, indptr](
                                   int64_t begin, int64_t end, const double *cross, const double *x_sqnorm,
                                   const double *c_sqnorm) {
                for (int64_t i = begin; i < end; ++i) {
                    const double *row = cross + (i - begin) * k;
                    const int32_t c = label_of[i];
                    double *const finished = rows_out + i * k;
                    const bool with = indptr[i + 1] > indptr[i];
                    double own_d;
                    const bool keeps = !with && icm_keeps_label_cross(row, x_sqnorm[i], c_sqnorm, k, c, 0.0, own_d);
                    if (keeps) {
                        next_of[i] = c;
                    } else {
                        for (int64_t h = 0; h < k; ++h)
                            finished[h] = divergence::WeightedDistortion::finished_distance(row[h], x_sqnorm[i],
                                                                                             c_sqnorm[h]);
                        own_d = finished[c];
                        next_of[i] = with ? -1 : icm_choice(finished, k, c);
                    }
                    own_of[i] = own_d;
                }
            });
        if (!crossed)
            dist->point_center_blocks(centers.data(), k, dmat.data(), [&, label_of, next_of, own_of, rows_out, indptr](
                                                                          int64_t begin, int64_t end, const double *rows) {
                for (int64_t i = begin; i < end; ++i) {
                    const double *row = rows + (i - begin) * k;
                    if (assign_nearest) label_of[i] = first_smallest(row, k);
                    const int32_t c = label_of[i];
                    own_of[i] = row[c];
                    const bool with = indptr[i + 1] > indptr[i];
                    if (with && row != rows_out + i * k) std::copy(row, row + k, rows_out + i * k);
                    next_of[i] = with ? -1 : icm_choice(row, k, c);
                }
            });
        distortion = ranks.sum_in_order(own.data(), n);
        pair_rows.gather(dmat, n);
        icm_work.prepare_inert(n_total);
        for (size_t e = 0; e < with_pairs.size(); ++e) {
            const int64_t p = with_pairs[e];
            const double *row = pair_rows.row(e);
            // The nearest centre, as the rank holding the point chose it.
            if (assign_nearest && (p < first || p >= first + n)) labels[p] = first_smallest(row, k);
            icm_work.set_point(p, labels[p], row, k, icm_keeps_label(row, k, labels[p], graph.slack[p]));
        }
    };
    distances(true);
    // With constant potentials whose costs are integers (weight-1 PCKMeans)
    // the constraint terms of J_obj are carried from one iteration to the
    // next by the change over the pairs of the points that moved: the same
    // number as the full sum (penalty_sums_exact), without its random reads
    // of two labels per pair (~7 ms per iteration at n = 1e6, n pairs).
    const bool carry_penalty = cfg.constant_potential && penalty_sums_exact(cons, pot);
    double penalty = carry_penalty ? constraint_penalty(cons, pot, labels.data()) : 0.0;
    iterate(ctx, ranks, cfg.max_iter, cfg.name, run, [&](int64_t it) {
        // E-step (3.22) with the centres and A of the previous iteration:
        // the points without constraints here, the others by the ICM; with
        // the carried constraint terms, also their change.
        int64_t free_moves = 0;
        int32_t *const mine = labels.data() + first;
        for (int64_t i = 0; i < n; ++i)
            if (free_next[i] >= 0) {
                free_moves += free_next[i] != mine[i];
                mine[i] = free_next[i];
            }
        double penalty_moved = 0.0;
        const int64_t moves = icm_assign_prepared(k, graph, cfg.icm_max_sweeps, icm_rng, labels, icm_work,
                                                  carry_penalty ? &penalty_moved : nullptr,
                                                  total_over_ranks(ranks, free_moves));
        // M-step (A): centroids (3.23, 3.24).
        dist->centroids(mine, k, centers);
        // M-step (B): distortion parameters (3.25 - 3.29), then the potentials under the new A.
        if (cfg.learn_metric && cfg.metric_steps) metric_step(*dist, cfg.metric_from_constraints ? cons : no_pairs, centers, labels, first, cfg,
                                                             learning_rate);
        if (!cfg.constant_potential) {
            pot = potentials(*dist, cons, false);
            graph = icm_graph(cons, pot);
        }
        distances(false);
        // J_obj (3.14), as objective() computes it.
        double j = distortion;
        if (carry_penalty) {
            penalty += penalty_moved;
            j += penalty;
        } else {
            j += constraint_penalty(cons, pot, labels.data());
        }
        if (cfg.learn_metric) j += dist->regulariser(cfg.use_prior, cfg.rayleigh_s);
        if (!std::isfinite(j))
            fail(KINDRED_E_NUMERICAL, cfg.name, ": the objective became ", j, " at iteration ", it,
                 (cfg.kind == divergence::DistortionKind::IDivergence ? " (raise 'smoothing')" : ""));
        const double prev = run.trace.empty() ? std::numeric_limits<double>::infinity() : run.trace.back();
        const bool converged = it > 1 && moves == 0 &&
                               (!cfg.learn_metric || std::fabs(prev - j) <= cfg.tol * std::max(1.0, std::fabs(prev)));
        return StepOutcome{j, converged, cat(cfg.name, ": ICM moved ", moves, " points")};
    });
    run.objective = run.trace.back();
    run.centers = std::move(centers);
    run.labels.assign(labels.begin() + first, labels.begin() + first + n);
    return centroid_result(std::move(run), d, {NamedArray{"metric", dist->full_matrix() ? d : 1, d, dist->params()}});
}

}  // namespace

FitResult fit_hmrf(const FitContext &ctx, const Config &cfg) {
    if (cfg.propagate) return fit_hmrf_units(ctx, cfg);
    const Collective ranks = Collective::or_single(ctx.collective, ctx.data.n());
    // n_init restarts, the lowest J_obj kept (n_init = 1: the paper's single start).
    return best_of_restarts<FitResult>(cfg.n_init, [&](int64_t r) {
        return std::optional<FitResult>(fit_pointwise(ctx, cfg, r, ranks));
    });
}

namespace {
constexpr divergence::DistortionKind kCodedKinds[] = {
    divergence::DistortionKind::EuclideanDiag, divergence::DistortionKind::EuclideanFull,
    divergence::DistortionKind::Cosine, divergence::DistortionKind::IDivergence};
}  // namespace

double distortion_code(divergence::DistortionKind kind) {
    for (int i = 0; i < 4; ++i)
        if (kCodedKinds[i] == kind) return i;
    fail(KINDRED_E_INTERNAL, "unknown distortion kind");
}

divergence::DistortionKind distortion_of_code(double code) {
    for (int i = 0; i < 4; ++i)
        if (code == i) return kCodedKinds[i];
    fail(KINDRED_E_CORRUPT, "the model's array 'chosen_distortion' holds ", code,
         "; expected 0, 1, 2 or 3 (a distortion)");
}

void predict_hmrf(const PredictContext &ctx, int32_t *labels) {
    const std::string name = ctx.options.get_choice("distortion");
    const divergence::DistortionKind kind = name == "auto"
                                                ? distortion_of_code(ctx.model.get("chosen_distortion", 1, 1).values[0])
                                                : divergence::distortion_kind(name);
    // Shapes checked: a loaded model file may be corrupt or crafted.
    const int64_t d = ctx.data.d();
    const NamedArray &centers = ctx.model.get("centers", -1, d);
    const NamedArray &metric = ctx.model.get("metric", kind == divergence::DistortionKind::EuclideanFull ? d : 1, d);
    std::unique_ptr<divergence::WeightedDistortion> dist =
        divergence::make_distortion(kind, ctx.data, ctx.threads, divergence::PhiMaxRule::Sum, 0.0, "predict");
    dist->set_params(metric.values);
    const int64_t n = ctx.data.n(), k = centers.rows;
    std::vector<double> dmat(static_cast<size_t>(n * k));
    dist->point_center_all(centers.values.data(), k, dmat.data());
    std::vector<int32_t> out(static_cast<size_t>(n));
    argmin_rows(dmat, k, out);
    std::copy(out.begin(), out.end(), labels);
}

}  // namespace hmrf
}  // namespace kindred
