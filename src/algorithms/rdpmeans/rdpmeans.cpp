// RDP-means (Khashabi, Wieting, Liu, Liang 2015, Algorithm 1): the
// small-variance limit of TVClust. DP-means with noisy may-links and
// may-not-links: point i goes to the cluster k minimising the augmented
// distance of section 4.3,
//     D(x_i, mu_k) - xi_1 f_ki + xi_2 s_ik,
// or opens a new cluster at x_i when every augmented distance exceeds lambda.
// Centres are the cluster means (section 4.4, the Bregman mean); empty
// clusters are removed and the labels compacted. xi starts at xi_0 and is
// multiplied by xi_rate after every iteration (section 4.5); the paper's
// stopping rule: no assignment changed during 20 consecutive iterations.
//
// Objective reported per iteration ("objective_trace"): eq. (20),
//     sum_i D(x_i, mu_zi) - xi_1 (may-links inside clusters)
//                         + xi_2 (may-not-links inside clusters) + lambda K,
// with each pair counted ONCE. Eq. (20) read literally sums f_ki over both
// ends of a pair (twice); with that double count the assignment rule above is
// not a descent step (moving i changes i's term and its neighbours'), while
// with the single count it is, so that for fixed xi (xi_rate = 1) the
// objective never increases, as Theorem 4 states. Deviation, documented in
// docs/algorithms/rdpmeans-tvclust.md.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "algorithms/centroid/driver.hpp"
#include "algorithms/centroid/steps.hpp"
#include "algorithms/rdpmeans/link_count_cache.hpp"
#include "algorithms/link_counts.hpp"
#include "algorithms/pair_cross_validation.hpp"
#include "algorithms/rdpmeans/center_bounds.hpp"
#include "algorithms/rdpmeans/rows.hpp"
#include "algorithms/rdpmeans/spectral.hpp"
#include "algorithms/rdpmeans/stable.hpp"
#include "algorithms/rdpmeans/rank_adjacency.hpp"
#include "core/error.hpp"
#include "core/rank_totals.hpp"
#include "divergence/bregman.hpp"
#include "linalg/distances.hpp"

namespace kindred {
namespace {

using rows::decided_fast;
using rows::first_argmin;

constexpr int64_t kBlockRows = 2048;
// Half-octaves of lambda above the reach that the choice from the pairs may
// try (fit_rdpmeans).
constexpr int kLambdaAboveReach = 3;
// A pass leaves the link terms untracked when the last pass moved more than
// one point for every kUntrackedRatio that read their links, and tracks them
// otherwise (link_count_cache.hpp): an update in place is a random access to
// a neighbour's record and slots, an untracked read a row and the neighbours'
// labels. Where every point reads its links and few move, a tracked pass at
// 1e6 points cost three untracked ones (ratios 16-128 measured:
// docs/performance-history.md, 2026-11-22).
constexpr double kUntrackedRatio = 32.0;
// The center bounds are kept only after a pass that moved fewer than one
// point in kBoundsMoveRatio (a point that moves is computed anyway), nor
// after a pass in which the link bound decided less than kBoundsShare of the
// points (the center bounds keep only points the link bound decides, and a
// block of which they keep 60% or less is computed whole). Both change which
// divergences are computed from the bounds, hence the objective's rounding:
// they stay as they are.
constexpr double kBoundsMoveRatio = 20.0;
constexpr double kBoundsShare = 0.6;
// Whether a pass that moved `changed` of n points is followed by one that
// keeps the center bounds (kBoundsMoveRatio).
bool few_moves_for_bounds(int64_t changed, int64_t n) {
    return kBoundsMoveRatio * static_cast<double>(changed) < static_cast<double>(n);
}
// The cluster sums are kept through the moves of a pass (PassState::sums)
// when the last pass moved fewer than one point in kTrackSumsRatio (a move
// costs two row updates; a fresh sum reads every point), and summed afresh
// after kFreshSumsEvery such updates.
constexpr double kTrackSumsRatio = 8.0;
constexpr int64_t kFreshSumsEvery = 16;

double resolve_lambda(const FitContext &ctx, const Collective &ranks, divergence::Bregman &div) {
    return lambda_given_or_derived(ctx, ranks, "rdpmeans", [&](int64_t k) {
        // The Euclidean case uses the core heuristic, so that dpmeans and
        // rdpmeans given the same k get the same lambda.
        if (ctx.options.get_choice("divergence") == "euclidean") return farthest_first_lambda(ctx.data, k, &ranks);
        if (!ranks.single())
            fail(KINDRED_E_INVALID, "rdpmeans: a sharded fit with divergence '", ctx.options.get_choice("divergence"),
                 "' needs lambda (its farthest-first heuristic for k is not distributed yet)");
        return divergence::farthest_first_lambda(div, k);
    });
}

struct PassState {
    std::vector<double> centers;  // k x d, mean space
    std::vector<int32_t> labels;
    // The link part of eq. (20) over the pairs inside clusters (each pair
    // once), divided by xi: sum of w_may_not s - w_may f. Kept up to date by
    // the pass: a move of i from a to b changes it by g_ib - g_ia, the link
    // terms the pass reads anyway.
    double link_within = 0;
    // Per cluster of the pass, sum of D(x_i, c_k) over its members, c_k the
    // centre the pass compared them with (for the objective, see
    // update_centers).
    std::vector<double> divergence_sum;
    // Points of the last pass whose choice read their link terms (the others
    // were decided by decided_without_links, or certified unchanged).
    int64_t linked = 0, decided = 0;  // decided: the points the pass computed
    int64_t rows = 0;  // the points whose divergences the last pass computed
    std::vector<double> block, aug, augmented, row, saved;  // scratch of the pass
    // How to finish the rows of `block` where block_distances left them raw
    // (finish.row null: they are divergences already).
    divergence::Bregman::FinishTerms finish;
    // Per row of the block: the cluster decided_without_links chose (-1: the
    // links decide) and D_ib.
    std::vector<int32_t> pick;
    std::vector<double> pick_value;
    // With center bounds (squared Euclidean, dense data): the bounds, |x_i|^2,
    // and per row of the block its row in `block` (-1: skipped, the point
    // keeps its cluster); the rows computed, gathered (points, their |x|^2).
    std::unique_ptr<CenterBounds> bounds;
    bool use_bounds = false;   // this pass keeps the bounds (sets them from its rows)
    bool tried_bounds = false;  // the last pass skipped by them (they were valid)
    std::vector<double> x_sq, c_sq, gathered, gathered_sq, own_row;
    std::vector<int64_t> row_of, gathered_index;
    // Per cluster, the sum of its points in the mean space and their number,
    // as of the last centre update; with track_sums, every move of this pass
    // updates them (update_centers then needs no pass over the data).
    std::vector<double> sums;
    std::vector<int64_t> counts;
    bool track_sums = false;
    // Per cluster, a point's link terms g_ik in the dense form
    // (LinkCountCache::add_integer_terms); all 0 between points.
    std::vector<int32_t> acc;
    // A pass made of the ranks' turns (pass_all_ranks; one turn in one
    // process): the centres at its start, the moves of the turns before this
    // one, whether the center bounds are still being set from its rows, and
    // the number of points of all ranks; first_row: this rank's first row.
    // With record_moves, a turn lists (global row, new label) of its moved
    // points that have pairs, for the other ranks.
    int64_t k_start = 0, changed_before = 0, n_total = 0, first_row = 0;
    bool setting = false, record_moves = false;
    std::vector<int64_t> moves;
};


// The largest xi' up to which point i, assigned to l (a_l its augmented
// distance, row its augmented distances at this xi), keeps l in a repeat of a
// pass that moved nothing (stable.hpp); -inf without a certificate.
double certified_limit(const LinkCountCache::Slots &slots, const double *saved, double *row, int64_t k0, int64_t l,
                       double a_l, double lambda, double xi) {
    if (!(a_l <= lambda)) return -std::numeric_limits<double>::infinity();
    StableCertificate cert;
    certify_point(slots, saved, row, k0, l, a_l, lambda, xi, cert);
    const double delta = cert.delta();
    return delta >= 0.0 ? xi + delta * (1.0 - 1e-9) : -std::numeric_limits<double>::infinity();
}

// Point i's choice among the k0 centres of its block row: the first minimum
// of the divergences plus xi g_ik (added in place, the former values saved
// and put back after: cheaper than a copy of the row), its augmented
// distance into best_value, and with limit its certified limit of xi
// (certified_limit) into *limit.
inline int64_t augmented_argmin(const LinkCountCache::Slots &slots, double xi, double lambda, double *row, int64_t k0,
                                PassState &st, double &best_value, double *limit) {
    if (static_cast<int64_t>(st.saved.size()) < slots.size) st.saved.resize(static_cast<size_t>(slots.size));
    double *saved = st.saved.data();
    for (int64_t p = 0; p < slots.size; ++p) {
        saved[p] = row[slots.cluster(p)];
        row[slots.cluster(p)] += xi * slots.term(p);
    }
    const int64_t best = first_argmin(row, k0, best_value);
    if (limit) *limit = certified_limit(slots, saved, row, k0, best, best_value, lambda, xi);
    for (int64_t p = 0; p < slots.size; ++p) row[slots.cluster(p)] = saved[p];
    return best;
}

// rows::decided_fast; with limit, the form that also gives the certificate
// of a point it decides: the largest xi' up to which both of its bounds hold.
inline bool decided_without_links(const double *row, int64_t k0, double xi, double bound, double lambda,
                                  int64_t &best, double &d_best, double *limit) {
    if (!limit) return decided_fast(row, k0, xi * bound, lambda, best, d_best);
    constexpr double kMargin = 1e-12;
    constexpr double kInf = std::numeric_limits<double>::infinity();
    double d_b, d_2;  // d_2: the nearest competitor (D_ib itself on a tie)
    const int64_t b = first_argmin(row, k0, d_b, &d_2);
    const double t = xi * bound;
    const bool alone = !(d_2 < kInf);
    const double gap = d_2 - d_b;
    const double kept = gap - kMargin * (std::fabs(d_2) + std::fabs(d_b));       // must exceed t (1 + 2 margin)
    const double room = lambda - d_b - kMargin * (std::fabs(d_b) + std::fabs(lambda));  // must exceed t (1 + margin)
    if (!(alone || kept > t * (1.0 + 2.0 * kMargin)) || !(room > t * (1.0 + kMargin))) return false;
    best = b;
    d_best = d_b;
    const double by_gap = alone ? kInf : kept / (bound * (1.0 + 2.0 * kMargin));  // +inf when bound = 0
    const double by_lambda = room / (bound * (1.0 + kMargin));
    *limit = std::min(by_gap, by_lambda) * (1.0 - 1e-9);
    return true;
}

// A repeat of a pass in which nothing moved (same centres, link terms and
// labels), at a larger xi: the points whose certified limit covers xi keep
// their clusters (stable.hpp); the blocks holding any other point
// are computed exactly as assignment_pass computes them (same rows, same
// centres, so the same divergences), and those points are certified again at
// this xi. Returns the fraction of blocks computed, or -1 as soon as a point
// would move or cannot be certified: then nothing has changed, and the caller
// computes the whole pass. Labels, centres and the pass totals (divergence
// sums, link totals) stay those of the last pass.
double certified_pass(divergence::Bregman &div, double lambda, double xi, bool link_bounds, LinkCountCache &links,
                      PassState &st, double *limit) {
    const DataView &data = div.data();
    const int64_t n = data.n(), d = data.d();
    const int64_t k0 = static_cast<int64_t>(st.centers.size()) / d;
    int64_t blocks = 0, computed = 0;
    st.linked = st.decided = st.rows = 0;
    for (int64_t begin = 0; begin < n; begin += kBlockRows, ++blocks) {
        const int64_t end = std::min(n, begin + kBlockRows);
        bool covered = true;
        for (int64_t i = begin; i < end; ++i) covered &= xi <= limit[i];
        if (covered) continue;
        ++computed;
        st.rows += end - begin;
        st.block.resize(static_cast<size_t>((end - begin) * k0));
        div.distances(begin, end, st.centers.data(), k0, st.block.data());
        for (int64_t i = begin; i < end; ++i) {
            if (xi <= limit[i]) continue;
            double *row = st.block.data() + (i - begin) * k0;
            double best_value;
            int64_t best;
            ++st.decided;
            if (!link_bounds ||
                !decided_without_links(row, k0, xi, links.link_bound(i), lambda, best, best_value, &limit[i])) {
                best = augmented_argmin(links.slots(i, st.labels.data()), xi, lambda, row, k0, st, best_value,
                                        &limit[i]);
                ++st.linked;
            }
            if (best != st.labels[i] || !(xi <= limit[i])) return -1.0;
        }
    }
    return static_cast<double>(computed) / static_cast<double>(std::max<int64_t>(blocks, 1));
}

// The divergences of the rows [begin, end) to the k0 centres into st.block,
// and st.row_of: each row's place in st.block. With skip, the rows of the
// points that the center bounds prove keep their clusters are left out
// (row_of -1) and the others are gathered and computed together (the same
// |x|^2 + |c|^2 - 2 x.c as Bregman::distances). Returns the rows computed.
int64_t block_distances(divergence::Bregman &div, int64_t begin, int64_t end, int64_t k0, bool skip, double xi,
                        double lambda, const LinkCountCache &links, PassState &st) {
    const int64_t rows = end - begin, d = div.d();
    st.row_of.resize(static_cast<size_t>(rows));
    int64_t m = 0;
    if (skip) {
        // Without branches (whether a point is kept is unpredictable): every
        // point writes the next list entry, only the computed ones keep it.
        const double c_sq_max = *std::max_element(st.c_sq.begin(), st.c_sq.begin() + k0);
        st.gathered_index.resize(static_cast<size_t>(rows));
        for (int64_t i = begin; i < end; ++i) {
            const bool kept = st.bounds->keeps(i, st.x_sq[i], c_sq_max, xi * links.link_bound(i), lambda);
            st.row_of[i - begin] = kept ? -1 : m;
            st.gathered_index[m] = i;
            m += kept ? 0 : 1;
        }
    }
    // Gathering a row costs about what computing it does (a scattered row is
    // read from memory at the cost of streaming the whole block; measured at
    // d = 16): above 40% of the block, the whole block is computed instead.
    if (!skip || 5 * m > 2 * rows) {
        for (int64_t r = 0; r < rows; ++r) st.row_of[r] = r;
        st.block.resize(static_cast<size_t>(rows * k0));
        // Raw where the divergence allows it: the pass finishes each row
        // where it first reads it (the bound test), which saves a pass over
        // the block (its finishing loop was a twelfth of a fit's time at 1e5
        // points, perf).
        div.raw_distances(begin, end, st.centers.data(), k0, st.block.data(), st.finish);
        return rows;
    }
    st.finish.row = nullptr;
    st.gathered.resize(static_cast<size_t>(m * d));
    st.gathered_sq.resize(static_cast<size_t>(m));
    for (int64_t g = 0; g < m; ++g) {
        div.data().copy_row(st.gathered_index[g], st.gathered.data() + g * d);
        st.gathered_sq[g] = st.x_sq[st.gathered_index[g]];
    }
    DenseView view;
    view.x = st.gathered.data();
    view.n = m;
    view.d = d;
    view.ld = d;
    st.block.resize(static_cast<size_t>(m * k0));
    linalg::sq_distances(DataView::dense(view), 0, m, st.centers.data(), st.c_sq.data(), k0, st.gathered_sq.data(),
                         st.block.data());
    return m;
}

// One sequential pass of Algorithm 1: point i goes to the cluster of the
// smallest augmented distance D(x_i, mu_k) + xi g_ik (section 4.3, the link
// terms of link_count_cache.hpp), or opens a cluster at x_i when that exceeds
// lambda. Divergences to the centres existing at the start of a block of rows
// come from one matrix product; the few centres opened inside the block are
// evaluated directly. The link terms come from the cache, which every move
// updates at once: each point sees the moves made before it in this pass, as
// in Algorithm 1. With limit, also each point's certified limit of xi
// (certified_limit; meaningful when nothing moves in the pass). Returns the
// number of changed assignments.
int64_t assignment_pass(divergence::Bregman &div, double lambda, double xi, bool link_bounds, LinkCountCache &links,
                        PassState &st, double *limit) {
    const DataView &data = div.data();
    const int64_t n = data.n(), d = data.d();
    int64_t changed = 0;
    st.linked = 0;
    st.decided = n;
    st.rows = 0;
    st.row.resize(static_cast<size_t>(d));
    int64_t k_now = static_cast<int64_t>(st.centers.size()) / d;  // clusters so far in this pass
    st.pick.resize(static_cast<size_t>(kBlockRows));
    st.pick_value.resize(static_cast<size_t>(kBlockRows));
    const int64_t k_start = st.k_start;
    // Untracked passes with integer terms read a point's link terms in the
    // dense form (dense_argmin): a term per neighbour into acc, then one pass
    // over the row, instead of a gather's slots added to the row and put back
    // (at n = 1e6 with 10n pairs, a quarter less time per iteration). Not with
    // a certificate to compute (it needs the slots).
    const bool dense_pass = links.untracked() && links.integer_terms() && !limit;
    // Skipping by the center bounds: valid bounds, and no certificate asked
    // (a certifying pass needs every point's row).
    const bool keep_bounds = st.bounds && st.use_bounds;
    const bool skipping = keep_bounds && st.bounds->valid() && !limit;
    bool &setting = st.setting;  // the bounds set from this pass's rows (below)
    st.tried_bounds = skipping;
    if (keep_bounds) st.c_sq = linalg::center_sqnorms(st.centers.data(), k_now, d);
    for (int64_t begin = 0; begin < n; begin += kBlockRows) {
        const int64_t end = std::min(n, begin + kBlockRows);
        const int64_t k0 = k_now;
        // (k0 + 1 ints: a point that opens a centre takes its own change from acc[k0], 0.)
        if (dense_pass && static_cast<int64_t>(st.acc.size()) <= k0) st.acc.resize(static_cast<size_t>(k0) + 1, 0);
        if (dense_pass) st.augmented.resize(static_cast<size_t>(k0));  // the dense form's row (k_now = k0 there)
        const int64_t computed = block_distances(div, begin, end, k0, skipping && k_now == k_start, xi, lambda,
                                                 links, st);
        // First the points whose link terms cannot matter (decided_without_links:
        // it needs neither links nor labels, so it can run ahead of the
        // sequential assignment).
        for (int64_t i = begin; i < end; ++i) {
            int64_t b = -1;
            double d_b = 0.0;
            if (st.finish.row && st.row_of[i - begin] >= 0)
                linalg::finish_sq_row(st.block.data() + st.row_of[i - begin] * k0, k0, st.finish.row[i],
                                      st.finish.center.data());
            if (st.row_of[i - begin] < 0) {  // kept by the center bounds
                // Its divergence (for the objective only): |x|^2 + |c|^2 - 2 x.c.
                b = st.labels[i];
                d_b = std::max(0.0, st.x_sq[i] - 2.0 * data.dot_row(i, st.centers.data() + b * d) +
                                        st.c_sq[b]);
            } else if (link_bounds) {
                // b and d_b stay -1 and 0 unless the bound decides the point.
                const double *row = st.block.data() + st.row_of[i - begin] * k0;
                if (limit) decided_without_links(row, k0, xi, links.link_bound(i), lambda, b, d_b, &limit[i]);
                else decided_fast(row, k0, xi * links.link_bound(i), lambda, b, d_b);
            }
            st.pick[i - begin] = static_cast<int32_t>(b);
            st.pick_value[i - begin] = d_b;
        }
        for (int64_t i = begin; i < end; ++i) {
            if (k_now == k0 && st.pick[i - begin] == st.labels[i]) {
                // Decided without links and staying: only its divergence is summed.
                st.divergence_sum[st.labels[i]] += st.pick_value[i - begin];
                continue;
            }
            // The divergences to all centres: the block row, then (aug) those
            // to the centres opened inside this block. The link terms are
            // added to the block row itself, whose values at the slots'
            // clusters are put back after the argmin (cheaper than a copy of
            // the row); with centres opened in the block, to a copy of both.
            double *row = nullptr;
            if (st.row_of[i - begin] >= 0) {
                row = st.block.data() + st.row_of[i - begin] * k0;
            } else {
                // Kept by the center bounds, but a centre opened earlier in
                // the block is not covered by them: the row, one by one.
                st.own_row.resize(static_cast<size_t>(k0));
                for (int64_t c = 0; c < k0; ++c) st.own_row[c] = div.distance(i, st.centers.data() + c * d);
                row = st.own_row.data();
            }
            st.aug.clear();
            double best_value = st.pick_value[i - begin];
            int64_t best = st.pick[i - begin];
            // The point's slots are read only when its link terms can matter
            // (else decided_without_links gave best, and best_value = D_ib,
            // below lambda: no cluster is opened; but a centre opened earlier
            // in the block is not in its row).
            LinkCountCache::Slots slots{nullptr, 0};
            const bool have_slots = !(k_now == k0 && best >= 0);
            // Dense form: every label is below k0 (no centre opened in the block).
            const bool dense = have_slots && dense_pass && k_now == k0;
            if (dense) {
                ++st.linked;
                links.add_integer_terms(i, st.labels.data(), st.acc.data());
                best = rows::dense_argmin(row, st.acc.data(), xi, k0, st.augmented.data(), best_value);
            } else if (have_slots) {
                slots = links.slots(i, st.labels.data());
                ++st.linked;
                if (k_now == k0) {
                    best = augmented_argmin(slots, xi, lambda, row, k0, st, best_value,
                                            limit ? &limit[i] : nullptr);
                } else {
                    for (int64_t c = k0; c < k_now; ++c)
                        st.aug.push_back(div.distance(i, st.centers.data() + c * d));
                    st.augmented.resize(static_cast<size_t>(k_now));
                    std::copy(row, row + k0, st.augmented.begin());
                    std::copy(st.aug.begin(), st.aug.end(), st.augmented.begin() + k0);
                    for (int64_t p = 0; p < slots.size; ++p) st.augmented[slots.cluster(p)] += xi * slots.term(p);
                    best = first_argmin(st.augmented.data(), k_now, best_value);
                }
            }
            double divergence = best < k0 ? row[best] : st.aug[best - k0];  // D(x_i, c_best)
            if (best_value > lambda) {
                div.point(i, st.row.data());
                st.centers.insert(st.centers.end(), st.row.begin(), st.row.end());
                if (st.track_sums) {  // filled by the move below
                    st.sums.resize(st.sums.size() + static_cast<size_t>(d), 0.0);
                    st.counts.push_back(0);
                }
                st.divergence_sum.push_back(0.0);
                best = k_now++;
                divergence = 0.0;
            }
            st.divergence_sum[best] += divergence;
            if (st.labels[i] != best) {
                ++changed;
                const int32_t from = st.labels[i], to = static_cast<int32_t>(best);
                st.labels[i] = to;
                if (st.record_moves && links.degree(i) > 0) {
                    st.moves.push_back(st.first_row + i);
                    st.moves.push_back(to);
                }
                if (st.track_sums) {
                    div.point(i, st.row.data());
                    double *out = st.sums.data() + from * d, *in = st.sums.data() + to * d;
                    for (int64_t j = 0; j < d; ++j) {
                        out[j] -= st.row[j];
                        in[j] += st.row[j];
                    }
                    --st.counts[from];
                    ++st.counts[to];
                }
                // The move's own link change, from the link terms this
                // choice read (a new cluster's g is 0: no neighbour is in it).
                double own_change = 0.0;
                bool known = true;
                if (dense) {
                    own_change = static_cast<double>(st.acc[to]) - static_cast<double>(st.acc[from]);
                } else if (have_slots) {
                    own_change = slots.cost_of(to) - slots.cost_of(from);
                } else {
                    known = false;  // links.moved sums it from the neighbours' labels
                }
                st.link_within += links.moved(i, st.labels.data(), from, to, known ? &own_change : nullptr);
            }
            if (dense) std::fill(st.acc.begin(), st.acc.begin() + k0, 0);
        }
        // The bounds are set from the rows only while the next pass can use
        // them: not once this pass has moved too many points for it to keep
        // them, nor after it opened a centre (they would not cover it). At
        // 1e6 points without cluster structure, the second pass moves a
        // third of the points, and setting every bound cost half as much as
        // its distances.
        setting = setting && k_now == k_start && few_moves_for_bounds(st.changed_before + changed, st.n_total);
        if (setting)
            for (int64_t i = begin; i < end; ++i)
                if (st.row_of[i - begin] >= 0)
                    st.bounds->set_from_row(i, st.block.data() + st.row_of[i - begin] * k0, k0, st.labels[i]);
        st.rows += computed;
    }
    return changed;
}

// What a rank's turn of a pass leaves for the next: the pass totals, the
// centres and (kept through the moves) the cluster sums, then the moves of
// its points with pairs. As doubles (integers below 2^53, exact): k, the
// link part, the moves so far, setting, whether the sums follow, the number
// of moves, then k x d centres, k divergence sums, [k x d sums, k counts],
// 2 per move.
std::vector<double> turn_message(const PassState &st, int64_t d) {
    const int64_t k = static_cast<int64_t>(st.centers.size()) / d;
    std::vector<double> m{static_cast<double>(k), st.link_within, static_cast<double>(st.changed_before),
                          st.setting ? 1.0 : 0.0, st.track_sums ? 1.0 : 0.0, static_cast<double>(st.moves.size() / 2)};
    m.insert(m.end(), st.centers.begin(), st.centers.end());
    m.insert(m.end(), st.divergence_sum.begin(), st.divergence_sum.end());
    if (st.track_sums) {
        m.insert(m.end(), st.sums.begin(), st.sums.begin() + k * d);
        for (int64_t c = 0; c < k; ++c) m.push_back(static_cast<double>(st.counts[c]));
    }
    for (int64_t v : st.moves) m.push_back(static_cast<double>(v));
    return m;
}

// Another rank's turn, on this one: its totals and centres, and the moves of
// this rank's ghosts, which the link terms of its own rows follow.
void take_turn(const std::vector<double> &m, int64_t d, const RankAdjacency &graph, LinkCountCache &links,
               PassState &st) {
    const int64_t k = static_cast<int64_t>(m[0]), moves = static_cast<int64_t>(m[5]);
    st.link_within = m[1];
    st.changed_before = static_cast<int64_t>(m[2]);
    st.setting = m[3] != 0.0;
    const double *at = m.data() + 6;
    st.centers.assign(at, at + k * d);
    at += k * d;
    st.divergence_sum.assign(at, at + k);
    at += k;
    if (m[4] != 0.0) {
        st.sums.assign(at, at + k * d);
        at += k * d;
        st.counts.resize(static_cast<size_t>(k));
        for (int64_t c = 0; c < k; ++c) st.counts[c] = static_cast<int64_t>(at[c]);
        at += k;
    }
    for (int64_t q = 0; q < moves; ++q) {
        const int64_t i = graph.index_of(static_cast<int64_t>(at[2 * q]));
        if (i < 0) continue;
        const int32_t from = st.labels[i], to = static_cast<int32_t>(at[2 * q + 1]);
        st.labels[i] = to;
        links.moved(i, st.labels.data(), from, to);
    }
}

// One pass of Algorithm 1 over the points of every rank. It is sequential
// (each point sees the moves and centres of the points before it), so the
// ranks take turns in the order of their rows, each running assignment_pass
// on its rows from the state the turn before left, then sending that state
// (turn_message) to all: the additions and choices of one process, for any
// split; p ranks do not speed the pass up. Per turn that is (2d + 2) k + 6
// doubles ((d + 1) k + 6 without kept sums; k the clusters at its end) and
// 16 bytes per moved point with pairs, from the rank to every other one.
// Afterwards the counts of the pass are summed over the ranks.
int64_t pass_all_ranks(const Collective &ranks, const std::vector<int> &order, const RankAdjacency *graph,
                       divergence::Bregman &div, double lambda, double xi, bool link_bounds,
                       LinkCountCache &links, PassState &st, double *limit) {
    const int64_t d = div.d();
    st.k_start = static_cast<int64_t>(st.centers.size()) / d;
    st.divergence_sum.assign(static_cast<size_t>(st.k_start), 0.0);
    st.changed_before = 0;
    st.setting = st.bounds && st.use_bounds;
    int64_t changed = 0;
    if (ranks.single()) {
        changed = assignment_pass(div, lambda, xi, link_bounds, links, st, limit);
    } else {
        for (int root : order) {
            std::vector<double> message;
            if (root == ranks.rank()) {
                st.moves.clear();
                st.changed_before += assignment_pass(div, lambda, xi, link_bounds, links, st, limit);
                message = turn_message(st, d);
            }
            uint64_t values = message.size();
            ranks.broadcast(&values, sizeof values, root);
            message.resize(static_cast<size_t>(values));
            ranks.broadcast(message.data(), message.size() * sizeof(double), root);
            if (root != ranks.rank()) take_turn(message, d, *graph, links, st);
        }
        changed = st.changed_before;
        st.linked = total_over_ranks(ranks, st.linked);
        st.decided = total_over_ranks(ranks, st.decided);
        st.rows = total_over_ranks(ranks, st.rows);
    }
    // The bounds hold for the centres of this pass (update_centers widens
    // them by the centres' shifts) if every block of every rank set them: not
    // once a centre was opened (it is not in the rows of the points before
    // it) or the pass stopped setting them.
    if (st.setting) st.bounds->validate();
    else if (st.bounds) st.bounds->invalidate();
    return changed;
}

// Means of the non-empty clusters, relabelled 0..K'-1 in order (Algorithm 1's
// removal of empty clusters). Returns K'. After a pass (divergence_total not
// null), also the total sum_i D(x_i, mu_zi) under the new means mu, from the
// pass's sums to the centres c it used: by Banerjee et al. (2005),
// Proposition 1, sum_{i in k} D(x_i, mu_k) = sum_{i in k} D(x_i, c_k)
// - n_k D(mu_k, c_k), so that the objective needs no second pass over the data.
// The means come from the cluster sums of st: summed afresh from the labels
// (fresh: a pass over the data), or as the pass kept them through its moves
// (st.track_sums). The two differ by rounding only.
int64_t update_centers(divergence::Bregman &div, const Collective &ranks, int threads, PassState &st,
                       LinkCountCache *links, double *divergence_total, bool fresh) {
    const int64_t d = div.d();
    const int64_t k = static_cast<int64_t>(st.centers.size()) / d;
    if (fresh) div.cluster_sums(st.labels.data(), k, threads, st.sums, st.counts, &ranks);
    std::vector<double> means;
    divergence::means_from_sums(st.sums, st.counts, d, means);
    const std::vector<int64_t> counts = st.counts;  // st.counts is compacted below
    std::vector<int32_t> new_id(static_cast<size_t>(k), -1);
    double total = 0.0;
    int32_t kept = 0;
    for (int64_t c = 0; c < k; ++c) {
        if (counts[c] == 0) continue;
        new_id[c] = kept++;
        if (divergence_total) {
            const double shift = div.center_divergence(means.data() + c * d, st.centers.data() + c * d);
            total += std::max(0.0, st.divergence_sum[c] - static_cast<double>(counts[c]) * shift);
        }
    }
    std::vector<double> old_centers;
    if (st.bounds && st.bounds->valid()) old_centers = st.centers;
    st.centers.clear();
    for (int64_t c = 0; c < k; ++c)
        if (counts[c] > 0) st.centers.insert(st.centers.end(), means.begin() + c * d, means.begin() + (c + 1) * d);
    if (kept < k) {
        // The sums of the kept clusters, in their new order.
        for (int64_t c = 0; c < k; ++c) {
            if (new_id[c] < 0) continue;
            std::copy(st.sums.begin() + c * d, st.sums.begin() + (c + 1) * d, st.sums.begin() + new_id[c] * d);
            st.counts[new_id[c]] = st.counts[c];
        }
        st.sums.resize(static_cast<size_t>(kept * d));
        st.counts.resize(static_cast<size_t>(kept));
        for (auto &l : st.labels) l = new_id[l];
        if (links) links->relabel(new_id.data(), st.labels.data(), kept);
    }
    if (st.bounds && st.bounds->valid()) {
        // The center bounds widen by each centre's shift (Euclidean distance).
        std::vector<double> shift(static_cast<size_t>(kept), 0.0);
        double largest = 0.0;
        for (int64_t c = 0; c < k; ++c) {
            if (counts[c] == 0) continue;
            const double moved_by = std::sqrt(div.center_divergence(means.data() + c * d, old_centers.data() + c * d));
            shift[new_id[c]] = moved_by;
            largest = std::max(largest, moved_by);
        }
        st.bounds->drift(st.labels.data(), shift, largest);
    }
    if (divergence_total) *divergence_total = total;
    return kept;
}

// The sum of all |link terms| over the pairs (each once), of all the n
// points: half the sum of their link bounds, read from the store's
// adjacency (a rank's cache holds its own rows only; no cache is built for
// the others').
double link_total_of(const Adjacency *adjacency, int64_t n, const LinkCountCache &links) {
    double total = 0.0;
    for (int64_t i = 0; adjacency && i < n; ++i) {
        double row = 0.0;  // summed as LinkCountCache's constructor sums a bound
        for (int64_t e = adjacency->indptr[i]; e < adjacency->indptr[i + 1]; ++e)
            row += std::fabs(links.pair_cost(adjacency->value[e]));
        total += 0.5 * LinkCountCache::bound_of_total(row);
    }
    return total;
}

FitResult fit_rdpmeans_lambda(const FitContext &ctx) {
    const DataView &data = ctx.data;
    // A sharded fit (ctx.collective): data holds this rank's rows, whole
    // chunks from ranks.first_row(); the pass runs rank after rank
    // (pass_all_ranks) and every decision between passes reads counts over
    // all the ranks, so that every rank makes the single-process fit's.
    const Collective ranks = Collective::or_single(ctx.collective, data.n());
    const bool sharded = !ranks.single();
    const int64_t n = data.n(), d = data.d(), n_total = ranks.n_total();
    if (sharded && ctx.options.get_choice("init") == "spectral")
        fail(KINDRED_E_INVALID, "rdpmeans: init 'spectral' is not available in a sharded fit (its relaxation needs "
                                "the Gram matrix of all the points)");
    std::unique_ptr<divergence::Bregman> div =
        divergence::make_bregman(ctx.options.get_choice("divergence"), data, ctx.options.get_double("smoothing"));
    const double lambda = resolve_lambda(ctx, ranks, *div);
    if (!(lambda > 0.0))
        ctx.log.info(cat("rdpmeans: lambda = ", lambda,
                         " (the farthest-first heuristic found fewer than k distinct points); every distinct point "
                         "whose augmented distance is > 0 opens a cluster"));
    const int64_t max_iter = ctx.options.get_int("max_iter");
    const int64_t stable_needed = ctx.options.get_int("stable_iterations");
    const double xi_rate = ctx.options.get_double("xi_rate");
    const double w_may = ctx.options.get_double("xi_1"), w_may_not = ctx.options.get_double("xi_2");
    double xi = ctx.options.get_double("xi_0");
    // Unset: the paper's annealing without bound (or the value the choice
    // from the pairs tries: fit_rdpmeans).
    const double xi_max = ctx.options.is_set("xi_max") ? ctx.options.get_double("xi_max") : kInf;

    const Adjacency *adjacency = ctx.side ? &ctx.side->adjacency() : nullptr;
    // On a rank, the link terms of its rows read the labels of its rows and
    // of the rows linked to them (rank_adjacency.hpp): the label array holds
    // both, the rank's rows first.
    std::unique_ptr<RankAdjacency> graph;
    if (sharded) {
        graph = std::make_unique<RankAdjacency>(
            adjacency ? rank_adjacency(*adjacency, ranks.first_row(), n) : RankAdjacency{});
        if (!adjacency) graph->n_local = n;
    }
    const Adjacency *local_adjacency = graph && adjacency ? &graph->adjacency : adjacency;
    const int64_t n_labels = n + (graph ? static_cast<int64_t>(graph->ghost_row.size()) : 0);
    LinkCountCache links(local_adjacency, n_labels, w_may, w_may_not);
    // xi times the link terms must stay finite, in the augmented distances
    // and in the objective: xi stops growing where xi times the sum of all
    // |link terms| (each pair once) reaches kLinkCeiling (never within the
    // default iterations from xi_0 = 0.001 and ordinary pair weights).
    constexpr double kLinkCeiling = 1e290;
    const double link_total = link_total_of(adjacency, n_total, links);
    if (!(link_total <= kLinkCeiling))
        fail(KINDRED_E_INVALID, "rdpmeans: the pair values times xi_1 / xi_2 add up to ", link_total,
             ", more than the objective can hold (1e290)");
    const double xi_ceiling = link_total > 0.0 ? kLinkCeiling / link_total : kInf;
    xi = std::min(xi, xi_ceiling);
    PassState st;
    if (ctx.options.get_bool("center_bounds") && ctx.options.get_choice("divergence") == "euclidean" &&
        data.is_dense()) {
        st.bounds = std::make_unique<CenterBounds>(n);
        st.x_sq = linalg::row_sqnorms(data);
    }
    st.n_total = n_total;
    st.first_row = ranks.first_row();
    st.record_moves = sharded;
    st.labels.assign(static_cast<size_t>(n_labels), 0);  // Algorithm 1: all points in one cluster
    st.centers.assign(static_cast<size_t>(d), 0.0);
    if (ctx.options.get_choice("init") == "spectral") {
        // Section 4.7's relaxation with the starting xi, rounded by k-means
        // (best of 10 k-means++ runs), replaces the single starting cluster.
        if (ctx.options.get_choice("divergence") != "euclidean")
            fail(KINDRED_E_INVALID, "rdpmeans: init 'spectral' needs divergence 'euclidean' (it relaxes the squared "
                                    "Euclidean objective through the Gram matrix), got '",
                 ctx.options.get_choice("divergence"), "'");
        st.labels = spectral_initial_labels(ctx, lambda, w_may * xi, w_may_not * xi, 10);
        const int32_t top = *std::max_element(st.labels.begin(), st.labels.end());
        st.centers.assign(static_cast<size_t>((top + 1) * d), 0.0);
    }
    // The labels of all the points at the start, for the pairs inside the
    // starting clusters: one cluster, or on ranks the seeded labels of every rank.
    std::vector<int32_t> start_labels;
    if (ctx.options.get_choice("init") == "dsquared") {
        // dp_seed_centers (centroid/steps.hpp; a deviation from Algorithm 1,
        // docs/algorithms/rdpmeans-tvclust.md): each point starts in the
        // cluster of its nearest seeded centre.
        if (ctx.options.get_choice("divergence") != "euclidean")
            fail(KINDRED_E_INVALID, "rdpmeans: init 'dsquared' needs divergence 'euclidean' (its seeding measures squared "
                                    "distances), got '",
                 ctx.options.get_choice("divergence"), "'");
        Rng rng = Rng(static_cast<uint64_t>(ctx.options.get_int("seed")));
        NearestCenter nearest(data, ctx.threads);  // its |x_i|^2 serve the seeding too
        const std::vector<double> seeds = dp_seed_centers(data, lambda, rng, nearest.x_sqnorm(), ctx.threads, &ranks);
        const int64_t seeded = static_cast<int64_t>(seeds.size()) / d;
        nearest.assign(seeds.data(), seeded, st.labels.data(), nullptr);
        st.centers.assign(static_cast<size_t>(seeded * d), 0.0);
        if (sharded) {
            // Every rank gets all the labels, each as one double (exact):
            // for the starting totals and the ghosts' labels.
            std::vector<double> own(st.labels.begin(), st.labels.begin() + n);
            std::vector<int64_t> every(static_cast<size_t>(n_total));
            for (int64_t i = 0; i < n_total; ++i) every[i] = i;
            const std::vector<double> all = ranks.rows(DataView::dense(DenseView::rows(own.data(), n, 1)), every);
            start_labels.assign(all.begin(), all.end());
            for (size_t g = 0; g < graph->ghost_row.size(); ++g)
                st.labels[n + g] = start_labels[static_cast<size_t>(graph->ghost_row[g])];
        }
    } else if (sharded) {
        start_labels.assign(static_cast<size_t>(n_total), 0);
    }
    links.labels_changed(st.labels.data(), update_centers(*div, ranks, ctx.threads, st, nullptr, nullptr, true));
    // The pairs inside the starting clusters.
    const LinkCounts::PairTotals start =
        LinkCounts(adjacency).pair_totals(sharded ? start_labels.data() : st.labels.data());
    st.link_within = w_may_not * start.may_not_within - w_may * start.may_within;

    std::vector<double> xi_trace, k_trace;
    CentroidRun run;
    int64_t stable = 0, k = 1, changed = 0;
    double divergence_total = 0.0;
    // Passes after one in which nothing moved (the paper's stopping rule asks
    // for stable_iterations of them) repeat it with a larger xi; every point
    // whose certificate from an unchanged pass covers the new xi provably
    // keeps its cluster, and only the blocks of the others are computed
    // (certified_pass). The result is the same as computing every pass.
    const bool skip_certified = ctx.options.get_bool("skip_certified");
    const bool link_bounds = ctx.options.get_bool("link_bounds");
    // A point the bound cannot decide costs a little more than without
    // trying (the second smallest divergence, the test). Since xi only
    // grows, a pass in which the bound decided few points is followed by
    // passes in which it decides fewer: below 30 % they do not try it, except
    // every 8th iteration (the share is measured again).
    double bound_share = 1.0;  // share of points the bound decided, in the last pass that tried it
    std::vector<double> limit;  // per point, from the last unchanged pass (certified_limit)
    bool limits_valid = false;
    double computed_total = 0.0;
    // The center bounds cost a little in every pass that keeps them (their
    // update from the rows, the test, the gathering of the rows to compute);
    // where they let a pass skip few points (while the centres still move
    // much), that is more than they save: a pass that skipped under a quarter
    // of the points is followed by three without them, then one that sets
    // them up again. Nor are they kept while many points move (the last pass
    // moved more than one in kBoundsMoveRatio): a point that moves is
    // computed anyway, and the centres' large shifts loosen every bound.
    int64_t bounds_rest = 0;  // passes left without the center bounds
    int64_t last_linked = 0;
    int64_t sums_age = 0;  // centre updates from sums kept through moves, since the last fresh one
    const std::vector<int> order = ranks.row_order();
    iterate(ctx, ranks, max_iter, "rdpmeans: assignment pass", run, [&](int64_t it) {
        const bool repeat = it > 1 && changed == 0;
        const bool try_bounds = link_bounds && (bound_share >= 0.3 || it % 8 == 0);
        // A point the center bounds keep is one the link bound decides (its
        // test is that of decided_without_links on bounds of the divergences):
        // where the link bound decides few points, so do they.
        st.use_bounds = bounds_rest == 0 && (!link_bounds || bound_share >= kBoundsShare) &&
                        it > 1 && few_moves_for_bounds(changed, n_total);
        double computed = -1.0;
        if (skip_certified && repeat && limits_valid) {
            // Nothing moves in a certified pass, so the ranks certify their
            // rows at once; if one of them cannot, all compute the pass.
            computed = certified_pass(*div, lambda, xi, try_bounds, links, st, limit.data());
            if (sharded) {
                if (total_over_ranks(ranks, computed < 0.0 ? 1 : 0) > 0) computed = -1.0;
                st.linked = total_over_ranks(ranks, st.linked);
                st.decided = total_over_ranks(ranks, st.decided);
                st.rows = total_over_ranks(ranks, st.rows);
            }
        }
        if (computed >= 0.0) {
            changed = 0;  // labels, centres and totals as after the last pass
        } else {
            const bool certify = skip_certified && repeat;
            // The link terms untracked while many points move for each that
            // reads its links (kUntrackedRatio).
            const double last_moves = it == 1 ? static_cast<double>(n_total) : static_cast<double>(changed);
            links.set_untracked(kUntrackedRatio * last_moves > static_cast<double>(last_linked));
            // The cluster sums kept through the moves when few points are
            // expected to move.
            st.track_sums = kTrackSumsRatio * last_moves < static_cast<double>(n_total);
            if (certify) limit.resize(static_cast<size_t>(n));
            changed = pass_all_ranks(ranks, order, graph.get(), *div, lambda, xi, try_bounds, links, st,
                                     certify ? limit.data() : nullptr);
            // Summed afresh when the pass did not keep them, and at least
            // every kFreshSumsEvery passes with moves (bounding the drift of
            // their rounding); a pass without moves leaves them as they are
            // (as a certified pass does, which computes nothing).
            const bool fresh = changed > 0 && (!st.track_sums || sums_age >= kFreshSumsEvery);
            k = update_centers(*div, ranks, ctx.threads, st, &links, &divergence_total, fresh);
            sums_age = fresh ? 0 : sums_age + (changed > 0 ? 1 : 0);
            limits_valid = certify && changed == 0;
            computed = 1.0;
            if (bounds_rest > 0) --bounds_rest;
            else if (st.tried_bounds && 4 * st.rows > 3 * n_total) bounds_rest = 3;
        }
        last_linked = st.linked;
        if (try_bounds && st.decided > 0)
            bound_share = 1.0 - static_cast<double>(st.linked) / static_cast<double>(st.decided);
        // How much of the pass was done, for the benchmarks and the tests of
        // the timing switches: the fraction of blocks computed (1 = a full
        // pass, less where points were certified unchanged), the shares of
        // the points whose link terms / divergences were computed. A log record, not a
        // result: these figures describe the implementation, which may change.
        ctx.log.iteration_record("rdpmeans", it,
                                 {{"pass_computed", computed},
                                  {"pass_linked", static_cast<double>(st.linked) / static_cast<double>(n_total)},
                                  {"pass_rows", static_cast<double>(st.rows) / static_cast<double>(n_total)}});
        computed_total += computed;
        // Eq. (20), each pair counted once (see the file comment).
        const double obj = divergence_total + lambda * static_cast<double>(k) + xi * st.link_within;
        xi_trace.push_back(xi);
        k_trace.push_back(static_cast<double>(k));
        stable = changed == 0 ? stable + 1 : 0;
        const bool converged = stable >= stable_needed;
        if (!converged) xi = std::min({xi * xi_rate, xi_max, xi_ceiling});  // section 4.5: tighten the constraints every iteration
        return StepOutcome{obj, converged};
    });
    run.objective = run.trace.back();
    st.labels.resize(static_cast<size_t>(n));  // this rank's rows (the ghosts' labels after them)
    run.labels = std::move(st.labels);
    run.centers = std::move(st.centers);
    FitResult result = centroid_result(std::move(run), d);
    result.set_array("xi_trace", static_cast<int64_t>(xi_trace.size()), 1, xi_trace);
    result.set_array("clusters_trace", static_cast<int64_t>(k_trace.size()), 1, k_trace);
    result.set_array("lambda", 1, 1, {lambda});
    // A debug line, as the per-iteration records: with lambda chosen from
    // the pairs every trial fit writes one, which would bury the choice's
    // own info line.
    ctx.log.debug(cat("rdpmeans: ", computed_total, " of ", result.iterations,
                      " passes computed (blocks of points certified unchanged are not)"));
    return result;
}

// Nearest centre under the fitted divergence (the RDP-means assignment
// without links, which new points do not have).
void predict_rdpmeans(const PredictContext &ctx, int32_t *labels) {
    const NamedArray &c = ctx.model.get("centers", -1, ctx.data.d());
    std::unique_ptr<divergence::Bregman> div =
        divergence::make_bregman(ctx.options.get_choice("divergence"), ctx.data, ctx.options.get_double("smoothing"));
    const int64_t n = ctx.data.n(), k = c.rows;
    std::vector<double> block;
    for (int64_t begin = 0; begin < n; begin += kBlockRows) {
        const int64_t end = std::min(n, begin + kBlockRows);
        block.resize(static_cast<size_t>((end - begin) * k));
        div->distances(begin, end, c.values.data(), k, block.data());
        for (int64_t i = begin; i < end; ++i) {
            const double *row = block.data() + (i - begin) * k;
            labels[i] = static_cast<int32_t>(std::min_element(row, row + k) - row);
        }
    }
}

// Neither lambda nor k: lambda chosen by cross-validation over the pairs
// (the paper tunes it by hand per data set). With init auto and the
// Euclidean divergence the fits start from dp_seed_centers (init dsquared),
// on the grid from the potential of one centre at the mean down, as
// dpmeans's. Otherwise Algorithm 1's start, on the grid from the reach; the
// link terms open clusters by themselves, so that a lambda above the reach
// (where DP-means keeps one cluster) still gives several: the grid reaches
// kLambdaAboveReach half-octaves beyond it, tried when the score still
// rises there (docs/quality.md). On several ranks the fits of the folds are
// sharded fits, the held-out pairs' end labels gathered
// (pair_cross_validation.hpp).
FitResult fit_rdpmeans(const FitContext &ctx) {
    LambdaGrid grid;
    if (ctx.options.get_choice("init") == "auto" && ctx.options.get_choice("divergence") == "euclidean") {
        grid.top = [&](const Collective &ranks) { return total_sq_from_mean(ctx.data, &ranks); };
        grid.count = kSeededLambdaCandidates;
        grid.init = "dsquared";
        // Then xi_max, in units of the spread s (the mean squared distance of
        // a point from the mean): inf (the paper's annealing, the links
        // finally decide every point), 4 s, s, s / 4. Links that are never
        // allowed to outweigh much more than the spread let the features
        // overrule a few wrong answers; with right answers the held-out
        // pairs often prefer the unbounded links (docs/quality.md, "xi_max
        // chosen from the pairs").
        grid.then = "xi_max";
        grid.then_values = [&](const Collective &ranks) {
            const double s = total_sq_from_mean(ctx.data, &ranks) / static_cast<double>(ranks.n_total());
            return std::vector<double>{kInf, 4.0 * s, s, 0.25 * s};
        };
        return fit_choosing_lambda(ctx, fit_rdpmeans_lambda, grid, "rdpmeans");
    }
    // The reach: the largest divergence of a point from the mean of all points.
    grid.top = [&](const Collective &ranks) {
        std::unique_ptr<divergence::Bregman> div = divergence::make_bregman(
            ctx.options.get_choice("divergence"), ctx.data, ctx.options.get_double("smoothing"));
        const int64_t n = ctx.data.n();
        std::vector<int32_t> one(static_cast<size_t>(n), 0);
        std::vector<double> mean;
        std::vector<int64_t> count;
        div->cluster_means(one.data(), 1, ctx.threads, mean, count, &ranks);
        double reach = 0.0;
        for (int64_t i = 0; i < n; ++i) reach = std::max(reach, div->distance(i, mean.data()));
        return largest_over_ranks(ranks, reach);  // a maximum: the same in any order
    };
    grid.above = kLambdaAboveReach;
    return fit_choosing_lambda(ctx, fit_rdpmeans_lambda, grid, "rdpmeans");
}

OptionTable rdpmeans_options() {
    return with_common_options({
        OptionSpec::real("lambda", 0, 0, kInf, "cost of a new cluster, in units of the divergence; unset: derived from k, or (neither set) chosen by "
                         "cross-validation over the pairs").open_low().open_high().unset(),
        OptionSpec::clusters(0, "hint: lambda by the k-th farthest-first heuristic when lambda is unset").unset(),
        OptionSpec::real("xi_0", 0.001, 0, kInf, "initial constraint weight xi (section 4.5)").open_high(),
        OptionSpec::real("xi_rate", 2, 1, kInf, "xi is multiplied by this after every iteration (1 = fixed xi)").open_high(),
        OptionSpec::real("xi_max", kInf, 0, kInf, "upper bound on the annealed xi (which also stops at 1e290 over the sum of all |link terms|, where the objective would overflow); unset: inf (the paper's), or, when lambda is chosen from the pairs with init auto and the euclidean divergence, chosen by cross-validation among inf, 4 s, s and s / 4 (s: the mean squared distance of a point from the mean)").unset(),
        OptionSpec::real("xi_1", 1, 0, kInf, "weight of may-links: xi_1 * xi multiplies f_ki").open_high(),
        OptionSpec::real("xi_2", 1, 0, kInf, "weight of may-not-links: xi_2 * xi multiplies s_ik").open_high(),
        OptionSpec::choice("divergence", "euclidean", divergence::kBregmanChoices,
                           "Bregman divergence: squared Euclidean, multinomial KL or I-divergence (counts >= 0)"),
        OptionSpec::real("smoothing", 0.3, 0, kInf, "Laplace smoothing of counts for kl / idiv").open_high().open_low(),
        OptionSpec::choice("init", "auto", "auto|one-cluster|spectral|dsquared",
                           "start from one cluster (Algorithm 1), from the spectral relaxation of section 4.7 "
                           "(dense data, euclidean divergence, small n), or from centres added by greedy D^2 sampling "
                           "while one lowers the squared distances by more than lambda (euclidean divergence); auto: "
                           "dsquared when lambda is chosen from the pairs with the euclidean divergence, one-cluster "
                           "otherwise"),
        OptionSpec::integer("stable_iterations", 20, 1, 100000000, "stop after this many iterations without a change"),
        // The three timing switches are internal (core/options.hpp): they
        // change how long a fit takes, never its labels, and exist for the
        // benchmarks and the tests that prove that; they are not recorded in
        // model files, so that they can change or go.
        OptionSpec::boolean("skip_certified", true,
                            "after an unchanged pass, do not compute the points proven to keep their clusters "
                            "(same result; off: compute every pass, for timing)").internal(),
        OptionSpec::boolean("link_bounds", true,
                            "decide without its link terms a point whose nearest centre wins by more than they can "
                            "change (same result; off: always add them, for timing)").internal(),
        OptionSpec::boolean("center_bounds", true,
                            "skip the divergences of the points that distance bounds prove keep their clusters "
                            "(squared Euclidean divergence, dense data; same labels, the objective agrees to "
                            "rounding; off: compute every point's divergences)").internal(),
        OptionSpec::max_iterations(300, "maximum assignment passes"),
    });
}

}  // namespace

const AlgorithmSpec &rdpmeans_spec() {
    // shards: with lambda or k set (rank after rank in each pass, exact)
    static const AlgorithmSpec spec = [] {
        AlgorithmSpec s{"rdpmeans",
                        "RDP-means (Khashabi et al.): DP-means with noisy may-link / may-not-link pairs, Bregman divergences",
                        KINDRED_USES_PAIRS | KINDRED_USES_SPARSE | KINDRED_USES_NO_K | KINDRED_USES_SHARDS,
                        rdpmeans_options(), fit_rdpmeans, predict_rdpmeans};
        // link_bytes switched the link terms kept as bytes, removed on 2026-11-28.
        s.retired_options = {"link_bytes"};
        return s;
    }();
    return spec;
}

}  // namespace kindred
