// HMRF-KMeans (Basu, Bilenko, Banerjee & Mooney, section 3.3): the shared
// engine of mpckmeans (learned distortions) and pckmeans (fixed Euclidean
// distance, constant penalties). The state is (labels Y, centres M,
// distortion parameters A); the steps are the E-step by ICM (3.22), M-step
// (A) for the centroids (3.23, 3.24) and M-step (B) for A (3.25 - 3.29); the
// driver (fit_hmrf) initialises from must-link neighbourhoods (3.3.5) and
// iterates while the objective (3.14) decreases.
#ifndef KINDRED_ALGORITHMS_MPCKMEANS_HMRF_HPP
#define KINDRED_ALGORITHMS_MPCKMEANS_HMRF_HPP

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "algorithms/algorithm.hpp"
#include "core/collective.hpp"
#include "core/constraint_propagation.hpp"
#include "core/rank_totals.hpp"
#include "core/rng.hpp"
#include "divergence/weighted_distortion.hpp"

namespace kindred {
namespace hmrf {

struct Config {
    const char *name = "mpckmeans";
    const char *weight_option = "constraint_weight";  // the option of constraint_weight, named in messages
    int64_t k = 2;
    divergence::DistortionKind kind = divergence::DistortionKind::EuclideanFull;
    bool use_constraints = true;  // C: constraints in initialisation and assignment
    bool learn_metric = true;     // D: M-step (B)
    bool use_prior = true;        // R: Rayleigh prior on the parameters
    double rayleigh_s = 1.0;
    bool closed_form = true;      // Euclidean: Bilenko et al. (2004) update instead of gradient steps
    double learning_rate = 0.0;   // <= 0: automatic (see metric_step.cpp)
    divergence::PhiMaxRule phi_max = divergence::PhiMaxRule::Sum;
    double smoothing = 0.0;       // alpha of (3.23), idiv
    double eig_floor = 1e-6;      // relative floor on eigenvalues / weights
    bool constant_potential = false;  // pckmeans: phi = 1, phi_max = 2 (penalty w per violation)
    double constraint_weight = 1.0;   // multiplies every |value|
    bool metric_init_global = true;   // A_0 from one closed-form M-step (B) on the global centroid (Euclidean)
    bool init_perturb = false;        // K - lambda extra centres: perturbed global centroid (paper) or k-means++
    int64_t max_iter = 100;
    int64_t icm_max_sweeps = 100;
    double tol = 1e-6;
    // Constraint propagation (unit_driver.cpp): on by default; off gives the
    // paper's point-wise HMRF-KMeans.
    bool propagate = false;
    Propagation propagation = Propagation::Robust;
    int64_t n_init = 1;              // restarts of the propagated fit (the lowest J_obj kept)
    bool relative_weight = false;    // constraint_weight in units of the mean distortion to the global centroid
    bool metric_from_constraints = true;  // the violated pairs' terms in M-step (B) (the paper)
    // With learn_metric: false keeps A at A_0 (the global scaling of
    // initialise_metric) for the whole fit; a candidate of the tuning
    // (tuning.cpp), not an option.
    bool metric_steps = true;
    // distortion = auto: euclidean-diag, or euclidean-full when the
    // cross-validation over the pairs prefers it (tuning.cpp); kind is
    // then EuclideanDiag until the choice.
    bool choose_full = false;
    // Dense Euclidean fits: the points mapped by relevant component analysis
    // of the must-link groups first (fit_hmrf_tuned, relevant_components.hpp).
    bool whiten = false;
    // At most this many refits on the pairs the last fit satisfies
    // (fit_hmrf_cleaned, answer_cleaning.cpp).
    int64_t cleaning_rounds = 0;
    // A metric that is not learned (learn_metric false, kind EuclideanFull):
    // A for the whole fit, d x d (pckmeans' whitening, W^T W, applied to the
    // points as given instead of a mapped copy of them); empty: A = I.
    std::vector<double> fixed_metric;
};

// The pairs as weighted constraints (w = constraint_weight * |value|),
// and for each point the list of (neighbour, pair index).
struct Constraints {
    std::vector<divergence::PairConstraint> pairs;
    std::vector<int64_t> indptr, other, pair_of;
    Constraints(const SideInfo *side, int64_t n, bool use, double weight);
};

// Current potentials: phi_p for each pair and phi_max.
struct Potentials {
    std::vector<double> phi;
    double phi_max = 0.0;
};
Potentials potentials(const divergence::WeightedDistortion &dist, const Constraints &cons, bool constant);

// The penalty of pair p under labels (the constraint term of 3.13).
double pair_penalty(const divergence::PairConstraint &p, const Potentials &pot, size_t index, const int32_t *labels);

// The constraint terms of J_obj (3.13, 3.14) under labels.
double constraint_penalty(const Constraints &cons, const Potentials &pot, const int32_t *labels);

// True when every pair's cost (w phi, w (phi_max - phi)) is an integer and
// their absolute values sum to at most 2^53: then every partial sum of the
// constraint terms is an exact double, in any order, and
// constraint_penalty(after) == constraint_penalty(before) +
// penalty_change(before, after) bit for bit (the usual weight-1 PCKMeans).
bool penalty_sums_exact(const Constraints &cons, const Potentials &pot);

// The change of constraint_penalty from labels before to labels after,
// from the pairs of the points whose label differs (one pass over the
// labels, then only their edges).
double penalty_change(const Constraints &cons, const Potentials &pot, const int32_t *before, const int32_t *after);

// J_obj of (3.14): distortion + constraint potentials + regulariser.
// dist_matrix: n x k point-to-centre distortions for the current A.
double objective(const divergence::WeightedDistortion &dist, const Constraints &cons, const Potentials &pot,
                 const std::vector<double> &dist_matrix, int64_t k, const int32_t *labels, const Config &cfg);

// The constraints as the E-step reads them: for each point (CSR by indptr)
// its neighbours j = neighbor[e] and the cost w[e] of the constraint's
// violation, w phi for a must-link (w > 0) and -w (phi_max - phi) for a
// cannot-link (w <= 0) (3.13); slack[i] = sum of |w| over the point's edges
// (compute_slack).
//
// The row offsets and the neighbours are borrowed from the constraints the
// graph is built from (Constraints::indptr and other, the propagated units'
// cl_ptr and cl_unit), which outlive it, instead of copied: the graph owns
// only the costs. The copies were 8 bytes a point or unit (the offsets: at
// n = 2e5 with n pairs 7 bytes a point at the fit's peak) and 8 bytes an
// edge (the neighbours: half of the unit graph, about 14 bytes a point); a
// graph built otherwise owns them (set_rows). Move-only: a copy would read
// the rows of the graph it was copied from (a move keeps them where they are).
struct IcmGraph {
    const int64_t *indptr = nullptr;    // rows() + 1 offsets into neighbor and w
    const int64_t *neighbor = nullptr;  // per edge: the other end
    std::vector<double> w;              // per edge: the cost of its violation, signed as above
    std::vector<double> slack;

    IcmGraph() = default;
    IcmGraph(IcmGraph &&) = default;
    IcmGraph &operator=(IcmGraph &&) = default;
    IcmGraph(const IcmGraph &) = delete;
    IcmGraph &operator=(const IcmGraph &) = delete;

    int64_t rows() const { return rows_; }
    // offsets and neighbours must outlive the graph and stay unchanged; w
    // gets one (unset) cost per neighbour.
    void borrow_rows(const std::vector<int64_t> &offsets, const std::vector<int64_t> &neighbours) {
        std::vector<int64_t>().swap(own_offsets_);
        std::vector<int64_t>().swap(own_neighbours_);
        point_at(offsets, neighbours);
    }
    void set_rows(std::vector<int64_t> offsets, std::vector<int64_t> neighbours) {
        own_offsets_ = std::move(offsets);
        own_neighbours_ = std::move(neighbours);
        point_at(own_offsets_, own_neighbours_);
    }
    void compute_slack();

private:
    void point_at(const std::vector<int64_t> &offsets, const std::vector<int64_t> &neighbours) {
        indptr = offsets.data();
        neighbor = neighbours.data();
        rows_ = static_cast<int64_t>(offsets.size()) - 1;
        w.assign(neighbours.size(), 0.0);
    }
    std::vector<int64_t> own_offsets_, own_neighbours_;
    int64_t rows_ = 0;
};
IcmGraph icm_graph(const Constraints &cons, const Potentials &pot);

// How a sweep is carried out (icm.cpp); every schedule gives the same labels,
// those of the sequential sweep in the sweep's random order (Reference).
enum class IcmSchedule { Auto, Reference, Passes, Heap };

namespace detail {

// The test of icm_keeps_label once other = min over h != c of row[h] is known.
inline bool keeps_by_margin(double own, double other, double slack) {
    return other - own > slack + 1e-9 * (1.0 + std::fabs(own) + std::fabs(other) + slack);
}

#if defined(__SSE2__)
// The smallest (f) and second smallest (s) values seen, in two lanes (even
// and odd h), without a data-dependent branch; min and max are exact in any
// order for values that are not NaN.
inline void two_smallest_add(__m128d v, __m128d &f, __m128d &s) {
    s = _mm_min_pd(s, _mm_max_pd(f, v));
    f = _mm_min_pd(f, v);
}
// The two lanes merged: the smallest of all is the smaller of the lanes'
// smallest, the second the smallest of the larger of them and of the lanes'
// second values.
inline void two_smallest_merge(__m128d f, __m128d s, double &first, double &second) {
    const __m128d f_swap = _mm_unpackhi_pd(f, f), s_swap = _mm_unpackhi_pd(s, s);
    first = _mm_cvtsd_f64(_mm_min_sd(f, f_swap));
    second = _mm_cvtsd_f64(_mm_min_sd(_mm_max_sd(f, f_swap), _mm_min_sd(s, s_swap)));
}
// The smallest and second smallest of the k values of a row: pair(h) gives
// values h and h + 1 in one register, one(h) value h (for an odd k's last).
template <typename Pair, typename One>
inline void two_smallest(int64_t k, Pair pair, One one, double &first, double &second) {
    const double inf = std::numeric_limits<double>::infinity();
    __m128d f = _mm_set1_pd(inf), s = f;
    int64_t h = 0;
    for (; h + 2 <= k; h += 2) two_smallest_add(pair(h), f, s);
    if (h < k) two_smallest_add(_mm_set_pd(inf, one(h)), f, s);
    two_smallest_merge(f, s, first, second);
}
#else
template <typename One>
inline void two_smallest(int64_t k, One one, double &first, double &second) {
    first = second = std::numeric_limits<double>::infinity();
    for (int64_t h = 0; h < k; ++h) {
        const double v = one(h);
        second = std::min(second, std::max(first, v));
        first = std::min(first, v);
    }
}
#endif

}  // namespace detail

// How far ahead (in items of a list) the loops that jump through memory
// fetch what a later item reads: icm.cpp's visits, and unit_driver.cpp's
// rows of the units that members add to.
constexpr int64_t kPrefetchAhead = 24;
// Helpers that only prefetch are always inlined: a function whose only
// effect is __builtin_prefetch counts as free of side effects for GCC 12's
// analysis of what functions modify (IPA modref), which then deletes every
// call.
#if defined(__GNUC__)
#define KINDRED_PREFETCH_HELPER __attribute__((always_inline)) inline
#else
#define KINDRED_PREFETCH_HELPER inline
#endif

// The label an ICM visit gives a point of label cur whose costs over the k
// clusters are cost (3.22: its distortions plus the constraint terms under
// its neighbours' labels): the first smallest, unless cur is within 1e-12
// relative of it (a move must lower J_obj by more than rounding). For a point
// (or unit) without constraints cost is its row of distortions, and its label
// after the E-step is this choice: it moves in the first sweep or never.
// The first smallest of the k values of row (the nearest centre).
// The smallest value so far is kept in a register: comparing with
// row[best] reloaded it after every step, a chain of dependent loads that was
// most of an ICM visit's first-sweep test. The same comparisons, the same result.
inline int32_t first_smallest(const double *row, int64_t k) {
    int32_t best = 0;
    double smallest = row[0];
    for (int64_t h = 1; h < k; ++h)
        if (row[h] < smallest) {
            smallest = row[h];
            best = static_cast<int32_t>(h);
        }
    return best;
}

inline int32_t icm_choice(const double *cost, int64_t k, int32_t cur) {
    const int32_t best = first_smallest(cost, k);
    if (best != cur && cost[best] < cost[cur] - 1e-12 * (1.0 + std::fabs(cost[cur]))) return best;
    return cur;
}

// A point with label c and this row of distortions keeps c at every ICM
// visit whatever its neighbours' labels: c is the row's argmin by a margin
// above slack (the sum of its constraint weights; the constraints move
// cost[h] - cost[c] of (3.22) by at most that), beyond the rounding of the
// sums of the visit. Inline: it runs once per point and iteration.
inline bool icm_keeps_label(const double *row, int64_t k, int32_t c, double slack) {
    const double own = row[c];
    // other = min over h != c of row[h], from the smallest and second
    // smallest values of the row (a value that occurs twice is both): other
    // is the smallest when own is above it, else the second smallest; the
    // same value as "if (h != c && row[h] < other)". Without a data-dependent
    // branch (both that loop and ternaries compiled to branches, mispredicted
    // about once per row): min / max instructions, two values at a time with
    // SSE2. The rows are finished distances (no NaN).
    double first, second;
#if defined(__SSE2__)
    detail::two_smallest(
        k, [row](int64_t h) { return _mm_loadu_pd(row + h); }, [row](int64_t h) { return row[h]; }, first, second);
#else
    detail::two_smallest(k, [row](int64_t h) { return row[h]; }, first, second);
#endif
    return detail::keeps_by_margin(own, own == first ? second : first, slack);
}

// icm_keeps_label for the row of distances finished where they are read
// (WeightedDistortion::point_center_cross_blocks: cross = -2 x.c_h, the
// squared norms of the point and of the centres): the same values, the same
// decision, without storing the finished row. own: set to the finished
// distance to centre c.
inline bool icm_keeps_label_cross(const double *cross, double x_sqnorm, const double *c_sqnorm, int64_t k, int32_t c,
                                  double slack, double &own) {
    using divergence::WeightedDistortion;
    own = WeightedDistortion::finished_distance(cross[c], x_sqnorm, c_sqnorm[c]);
    const auto finished = [=](int64_t h) { return WeightedDistortion::finished_distance(cross[h], x_sqnorm, c_sqnorm[h]); };
    double first, second;
#if defined(__SSE2__)
    // max(v, 0) by MAXPD is std::max(0.0, v) (0 for v <= 0 and for NaN):
    // finished_distance for two values at a time, the same additions.
    const __m128d xn = _mm_set1_pd(x_sqnorm), zero = _mm_setzero_pd();
    detail::two_smallest(
        k,
        [=](int64_t h) {
            return _mm_max_pd(_mm_add_pd(_mm_add_pd(_mm_loadu_pd(cross + h), xn), _mm_loadu_pd(c_sqnorm + h)), zero);
        },
        finished, first, second);
#else
    detail::two_smallest(k, finished, first, second);
#endif
    return detail::keeps_by_margin(own, own == first ? second : first, slack);
}

// The scratch of the E-step (icm.cpp), kept by a fit from one E-step to the
// next so that they do not allocate.
struct IcmPointState {
    int32_t label;
    uint32_t visited_in : 30;  // sweep number + 1 of the last sweep in which the point's turn came
    uint32_t dirty : 1;        // a neighbour moved since the point's last visit
    uint32_t inert : 1;        // keeps its label whatever its neighbours' labels (icm_keeps_label)
};
struct IcmWorkspace {
    std::vector<IcmPointState> state;
    std::vector<int64_t> movable, dirty, next_dirty, waiting, slot_of;
    // The rows of distortions of the points that can move (not inert), k
    // values each, in the order of movable: the E-step reads no other row,
    // and these ~5% of the n x k values, stored contiguously, are read in
    // order by its passes instead of at scattered places of an n x k matrix.
    std::vector<double> rows;
    std::vector<std::pair<uint64_t, int64_t>> order, heap;
    // Optional (empty: not kept), for a graph of cannot-links only (every
    // w <= 0): per point, the number of its edges whose other end has its
    // label. Filled by the caller for the labels of the first E-step
    // (count_same_labels) and kept up to date by the E-step's moves, so
    // that it holds across E-steps while only the E-step changes the labels
    // of points with edges. A point with none of its neighbours in its
    // cluster pays no constraint cost there and only more elsewhere, so
    // that its row alone can show it keeps its label: the first sweep's
    // test then reads none of its neighbours (Icm::Icm).
    std::vector<uint32_t> same;

    // Filling for icm_assign_prepared: prepare(n), then set_point for every
    // point in index order (the driver does it while a block of distances is
    // in cache, instead of an O(n) set-up pass of the E-step).
    void prepare(int64_t n) {
        state.resize(static_cast<size_t>(n));
        movable.clear();
        rows.clear();
    }
    // Filling when only some points can move (those with constraints; the
    // caller places the others itself and counts their moves as
    // icm_assign_prepared's outside_moves): every point inert, then
    // set_point for the points that can move, in index order.
    void prepare_inert(int64_t n) {
        state.assign(static_cast<size_t>(n), {0, 0, 0u, 1u});
        movable.clear();
        rows.clear();
    }
    // prepare_inert for an E-step whose points that can move are those of
    // the last one (mark_movable again for each): the inert points' states,
    // which no E-step changes, are kept instead of written again (at n = 1e6
    // with n pairs, ~0.9e6 units, 7 MB per iteration).
    void prepare_inert_again(int64_t n) {
        if (static_cast<int64_t>(state.size()) != n) {
            prepare_inert(n);
            return;
        }
        movable.clear();
        rows.clear();
    }
    void set_point(int64_t i, int32_t label, const double *row, int64_t k, bool inert) {
        if (inert) {
            state[static_cast<size_t>(i)] = {label, 0, 0u, 1u};
            return;
        }
        set_movable(i, label);
        rows.insert(rows.end(), row, row + k);
    }
    // set_point for a point that can move whose row the caller keeps in a
    // vector of its own, in the order of the set_movable calls, and lends to
    // rows (std::swap before and after icm_assign_prepared) instead of
    // copying it: the propagated engine's summed unit rows, moving x k
    // values, then exist once instead of twice (at n = 2e5 with n pairs the
    // copy and its growth slack were about 150 bytes per point, the largest
    // single block of the fit).
    void set_movable(int64_t i, int32_t label) {
        mark_movable(i, label);
        movable.push_back(i);
    }
    // set_movable for a caller that keeps the list of the points that can
    // move itself (ascending) and lends it to movable as it lends the rows:
    // the propagated engine's list of moving units then exists once (the
    // copy was 8 bytes per moving unit, about 6 per point with n pairs).
    void mark_movable(int64_t i, int32_t label) { state[static_cast<size_t>(i)] = {label, 0, 1u, 0u}; }
};

// The rows of distortions (k values each) of the points whose placement
// depends on others' (points with constraints; members of units of two or
// more points or with a cannot-link), the same on every rank of a sharded
// fit: the ICM runs on every rank alike from them (as copkmeans places its
// components). points: their global indices, ascending. gather(local): local
// holds this rank's rows (n_local x k, its first row ranks.first_row()); in
// one process the rows are read in place. points is borrowed, not copied
// (the caller's list, 8 bytes per constrained point, is kept by the caller
// for the whole fit anyway) and must outlive this object.
class ConstrainedRows {
public:
    ConstrainedRows(const Collective &ranks, const std::vector<int64_t> &points, int64_t k);
    const std::vector<int64_t> &points() const { return points_; }
    void gather(const std::vector<double> &local, int64_t n_local);
    // The row of points()[e], after gather (valid while local is unchanged).
    const double *row(size_t e) const;

private:
    const Collective &ranks_;
    const std::vector<int64_t> &points_;
    int64_t k_;
    const double *local_ = nullptr;
    std::vector<double> gathered_;
};

// E-step: ICM in random order, repeated until no point moves (3.22) or
// max_sweeps. Returns the number of moves. The points for which
// icm_keeps_label holds are found first and never visited (except by the
// Reference schedule, which visits every point).
int64_t icm_assign(const std::vector<double> &dist_matrix, int64_t k, const IcmGraph &graph, int64_t max_sweeps,
                   Rng &rng, std::vector<int32_t> &labels, IcmSchedule schedule = IcmSchedule::Auto);
int64_t icm_assign(const std::vector<double> &dist_matrix, int64_t k, const Constraints &cons, const Potentials &pot,
                   int64_t max_sweeps, Rng &rng, std::vector<int32_t> &labels);
// The same E-step (Auto schedule) on a workspace filled by prepare/set_point
// with the current labels, the flags of icm_keeps_label and the rows of the
// other points; labels must hold the same labels. penalty_change (optional):
// set to the change of the constraint terms of J_obj over the E-step (the
// number penalty_change() of objective.cpp gives for the labels before and
// after, from the same additions in the same order), taken from the edges of
// the points that moved. outside_moves: the moves of the points without
// edges that the caller placed itself (left inert in the workspace, given
// their icm_choice): they belong to the first sweep, so they are counted in
// it and, as in the sweep that visits them, a move there draws the next
// sweep's seed (which then finds nothing to visit).
int64_t icm_assign_prepared(int64_t k, const IcmGraph &graph, int64_t max_sweeps, Rng &rng,
                            std::vector<int32_t> &labels, IcmWorkspace &work, double *penalty_change = nullptr,
                            int64_t outside_moves = 0);
// IcmWorkspace::same for these labels, or empty if the graph has an edge
// with w > 0 (or NaN): a must-link, for which a neighbour elsewhere costs.
std::vector<uint32_t> count_same_labels(const IcmGraph &graph, const std::vector<int32_t> &labels);

// Initial centres (section 3.3.5). units / unit_count: the groups whose
// means are the neighbourhoods (nullptr: the must-link components of the
// side information); with units, a centre sampled by k-means++ is the mean of
// the sampled point's unit. neighbourhoods = false: k-means++ only (the
// restarts of the propagated fit). ranks: those of a sharded fit (dist holds
// this rank's rows; units and the side information are about all the
// points), or a single-process Collective; the centres are the same for any
// split.
std::vector<double> initial_centers(const FitContext &ctx, const divergence::WeightedDistortion &dist,
                                    const Config &cfg, Rng &rng, const Collective &ranks,
                                    const IndexVector *units = nullptr, int64_t unit_count = 0,
                                    bool neighbourhoods = true);

// mpckmeans's distortion = auto: the kind fitted, kept in the model as the
// result "chosen_distortion" so that predict uses it: its position in the
// option's list after "auto" (0 euclidean-diag, 1 euclidean-full, 2 cosine,
// 3 idiv). distortion_of_code fails on any other value (a corrupt model).
double distortion_code(divergence::DistortionKind kind);
divergence::DistortionKind distortion_of_code(double code);

// The options of propagation and of the weight's unit (propagation_options.cpp).
void append_propagation_options(OptionTable &t);
// Fills cfg; tune_propagation: propagation = auto.
void read_propagation_options(const OptionValues &o, Config &cfg, bool &tune_propagation);

// fit_hmrf with the unset weight (tune_weight) and propagation chosen by
// cross-validation over the pairs (tuning.cpp); results "chosen_weight" and
// "chosen_propagation" record the choice. With cfg.choose_full, the
// distortion too (result "chosen_distortion", distortion_code).
FitResult fit_hmrf_tuned(const FitContext &ctx, Config cfg, bool tune_weight, bool tune_propagation);

// fit_hmrf_tuned, then, for a point-wise fit (propagation off, given or
// chosen), while the last fit violates some pairs, up to
// cfg.cleaning_rounds refits on the pairs it satisfies, the tuned choices
// held fixed (answer_cleaning.cpp); result "chosen_pairs_kept" (the number
// of pairs the final fit was given) when it refitted.
FitResult fit_hmrf_cleaned(const FitContext &ctx, Config cfg, bool tune_weight, bool tune_propagation);

// The mean distortion of a point to the global centroid under the current
// A: the unit of constraint_weight when cfg.relative_weight (unit_driver.cpp).
// ranks: as for initial_centers.
double mean_spread(const divergence::WeightedDistortion &dist, const Collective &ranks);

// A_0 for a fit that learns the metric (see driver.cpp).
void initialise_metric(divergence::WeightedDistortion &dist, const Config &cfg);

// The distortion of a fit on this rank's rows (ctx.data), made on every rank
// under Collective::agree: data it refuses on one rank (a zero row for
// cosine, a negative entry for idiv, named by its global row) fails the
// fit on every rank instead of leaving the others waiting.
std::unique_ptr<divergence::WeightedDistortion> distortion_of(const FitContext &ctx, const Config &cfg,
                                                              const Collective &ranks);

// M-step (B): a step on A that never increases J (backtracking). Returns
// true when A changed. learning_rate is updated (bold driver). labels: the
// labels the pairs of cons read (every point's), of which this rank's rows
// start at `first` (its first row in a sharded fit; 0 in one process, or
// when labels holds this rank's rows only and cons has no pairs).
// rows_pass (optional): the caller's pass over the distances at the current
// A for these centres and labels, returning the distortion term (the value
// assigned_distortion gives, bit for bit); a distortion without
// assigned_scatter then scores the first gradient candidate with it, so
// that the caller can keep that pass when the candidate is taken.
bool metric_step(divergence::WeightedDistortion &dist, const Constraints &cons, const std::vector<double> &centers,
                 const std::vector<int32_t> &labels, int64_t first, const Config &cfg, double &learning_rate,
                 const std::function<double()> *rows_pass = nullptr);

// The paper's driver: pairs as they are given, point-wise ICM (driver.cpp).
FitResult fit_hmrf(const FitContext &ctx, const Config &cfg);

// The driver on propagated constraints (unit_driver.cpp): the units of
// core/constraint_propagation.hpp are assigned as wholes by the ICM of
// icm.cpp on the graph of the units, with n_init restarts; used when
// cfg.propagate.
FitResult fit_hmrf_units(const FitContext &ctx, const Config &cfg);

// predict for models fitted by fit_hmrf: argmin over centres of the learned
// distortion (no constraints on new points).
void predict_hmrf(const PredictContext &ctx, int32_t *labels);

}  // namespace hmrf
}  // namespace kindred

#endif
