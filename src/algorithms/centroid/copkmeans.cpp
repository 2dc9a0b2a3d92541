// COP-KMeans (Wagstaff, Cardie, Rogers & Schroedl 2001): k-means whose
// assignment step never violates a constraint. Must-link components (the
// transitive closure of the must-links) move together: each component goes
// to the cluster with the smallest sum of squared distances of its members
// among the clusters that hold none of its cannot-linked points. When no
// cluster is allowed, the run fails with KINDRED_E_INFEASIBLE naming the
// point and a constraint; a cannot-link inside a must-link component fails
// before any work.
//
// Two deviations from the paper, both options (order = index, n_init = 1
// give the paper's procedure): the components are placed most constrained
// first (order = saturation, see PlacementOrder), so that a component is
// not left with every cluster blocked by its cannot-links; and the greedy procedure, which can fail on
// a feasible problem, is restarted from n_init k-means++ seedings: runs that
// fail are skipped, the feasible run of lowest inertia is kept, and the fit
// fails only when every run does (with the first run's message).
//
// On several ranks (docs/distributed.md) the result is bitwise that of one
// process: the points whose placement depends on others (the constrained
// components) are placed by every rank in the same sequence from their
// gathered distances, every other point goes to its nearest centre where it
// lies, and the inertia and centre sums are chunk sums (core/collective.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>
#include <string>

#include "algorithms/centroid/driver.hpp"
#include "algorithms/centroid/steps.hpp"
#include "algorithms/relevant_components.hpp"
#include "core/error.hpp"
#include "core/label_sums.hpp"
#include "core/parallel.hpp"
#include "linalg/distances.hpp"

namespace kindred {
namespace {

constexpr int64_t kBlockRows = 4096;

// The order in which the components are placed within one assignment step.
// Fixed (by size, or by smallest member) or, for order = saturation, the
// rule of DSATUR graph colouring: next the component whose cannot-linked
// neighbours already occupy the most distinct clusters (ties: the larger,
// then the earlier in `fixed`). Placing the most constrained component while
// it still has a cluster left is what keeps the greedy step from failing on
// feasible problems: with two clusters and consistent cannot-links
// (a bipartite graph) it never fails.
class PlacementOrder {
public:
    PlacementOrder(const std::vector<int64_t> &fixed, const std::vector<int64_t> *c_ptr,
                   const std::vector<int64_t> &c_other, const std::vector<int64_t> &m_ptr, int64_t k)
        : fixed_(fixed), c_ptr_(c_ptr), c_other_(c_other), m_ptr_(m_ptr), k_(k) {
        if (!c_ptr_) return;
        const int64_t m = static_cast<int64_t>(fixed.size());
        rank_.resize(static_cast<size_t>(m));
        for (int64_t r = 0; r < m; ++r) rank_[fixed[r]] = r;
        saturation_.assign(static_cast<size_t>(m), 0);
        placed_.assign(static_cast<size_t>(m), 0);
        // Bitmaps only for the components that have a cannot-link.
        slot_.assign(static_cast<size_t>(m), -1);
        int64_t slots = 0;
        for (int64_t c = 0; c < m; ++c)
            if ((*c_ptr_)[c + 1] > (*c_ptr_)[c]) slot_[c] = slots++;
        forbidden_.assign(static_cast<size_t>(slots * k), 0);
        // The heap's storage reserved once (a vector left to grow would
        // double past m entries).
        std::vector<Entry> storage;
        storage.reserve(static_cast<size_t>(m));
        for (int64_t c = 0; c < m; ++c) storage.push_back(entry(c));
        heap_ = std::priority_queue<Entry>(std::less<Entry>(), std::move(storage));
    }
    int64_t first() { return c_ptr_ ? pop() : (fixed_.empty() ? -1 : fixed_[0]); }
    // The component after c, which was placed in cluster h.
    int64_t after(int64_t c, int32_t h) {
        if (!c_ptr_) {
            ++step_;
            return step_ < static_cast<int64_t>(fixed_.size()) ? fixed_[step_] : -1;
        }
        placed_[c] = 1;
        for (int64_t e = (*c_ptr_)[c]; e < (*c_ptr_)[c + 1]; ++e) {
            const int64_t o = c_other_[e];
            uint8_t &f = forbidden_[slot_[o] * k_ + h];
            if (placed_[o] || f) continue;
            f = 1;
            ++saturation_[o];
            heap_.push(entry(o));
        }
        return pop();
    }

private:
    struct Entry {
        int64_t size, rank;  // the component is fixed_[rank]
        int32_t saturation;
        bool operator<(const Entry &o) const {
            if (saturation != o.saturation) return saturation < o.saturation;
            if (size != o.size) return size < o.size;
            return rank > o.rank;
        }
    };
    Entry entry(int64_t c) const { return {m_ptr_[c + 1] - m_ptr_[c], rank_[c], saturation_[c]}; }
    int64_t pop() {
        while (!heap_.empty()) {
            const Entry top = heap_.top();
            heap_.pop();
            const int64_t c = fixed_[top.rank];
            if (!placed_[c] && top.saturation == saturation_[c]) return c;
        }
        return -1;
    }
    const std::vector<int64_t> &fixed_;
    const std::vector<int64_t> *c_ptr_;
    const std::vector<int64_t> &c_other_, &m_ptr_;
    int64_t k_, step_ = 0;
    std::vector<int64_t> rank_, slot_;
    std::vector<int32_t> saturation_;
    std::vector<uint8_t> placed_, forbidden_;
    std::priority_queue<Entry> heap_;
};

// The components placed in sequence: those of two or more points and those
// with a cannot-link. Any other component is one point that goes to its
// nearest centre (the first of the smallest distances, which is where the
// sorted costs send it) whatever is placed before it, and it changes nothing
// for the components placed after it: leaving it out of the sequence gives
// every other component the same cluster, in the same order. Renumbered
// 0..m-1 by component id; members and cannot-links keep the order of the
// full graph, so that the costs are the same sums and a failure names the
// same point and pair. Built from the store's views (its components and its
// pairs, read in place), not from copies of them.
struct Constrained {
    std::vector<int64_t> id_of;           // per component: its number here, or -1
    std::vector<int64_t> m_ptr, members;  // members (global indices, ascending) of each
    std::vector<int64_t> c_ptr, c_other, c_pair;  // c_pair: the cannot-link's index in the pairs
    std::vector<int64_t> place;           // the fixed order (largest first, or by id for order = index); saturation breaks ties by it
};

Constrained constrained_components(const std::vector<int64_t> &comp, int64_t ncomp, const std::vector<Pair> &pairs,
                                   bool by_size) {
    const int64_t n = static_cast<int64_t>(comp.size());
    std::vector<int64_t> size(static_cast<size_t>(ncomp), 0), links(static_cast<size_t>(ncomp), 0);
    size_t cannot = 0;
    for (int64_t i = 0; i < n; ++i) ++size[comp[i]];
    for (const Pair &p : pairs)
        if (p.value < 0.0) {
            ++links[comp[p.i]];
            ++links[comp[p.j]];
            ++cannot;
        }
    Constrained g;
    g.id_of.assign(static_cast<size_t>(ncomp), -1);
    int64_t m = 0;
    g.m_ptr.push_back(0);
    g.c_ptr.push_back(0);
    for (int64_t c = 0; c < ncomp; ++c)
        if (size[c] > 1 || links[c] > 0) {
            g.id_of[c] = m++;
            g.m_ptr.push_back(g.m_ptr.back() + size[c]);
            g.c_ptr.push_back(g.c_ptr.back() + links[c]);
        }
    g.members.resize(static_cast<size_t>(g.m_ptr.back()));
    {
        std::vector<int64_t> fill(g.m_ptr.begin(), g.m_ptr.end() - 1);
        for (int64_t i = 0; i < n; ++i)
            if (g.id_of[comp[i]] >= 0) g.members[fill[g.id_of[comp[i]]]++] = i;
    }
    g.c_other.resize(2 * cannot);
    g.c_pair.resize(2 * cannot);
    {
        std::vector<int64_t> fill(g.c_ptr.begin(), g.c_ptr.end() - 1);
        for (size_t q = 0; q < pairs.size(); ++q) {
            if (!(pairs[q].value < 0.0)) continue;
            const int64_t a = g.id_of[comp[pairs[q].i]], b = g.id_of[comp[pairs[q].j]];
            g.c_other[fill[a]] = b;
            g.c_pair[fill[a]++] = static_cast<int64_t>(q);
            g.c_other[fill[b]] = a;
            g.c_pair[fill[b]++] = static_cast<int64_t>(q);
        }
    }
    g.place.resize(static_cast<size_t>(m));
    std::iota(g.place.begin(), g.place.end(), 0);
    // Stable: the order the full sort gives these components (by size, then id).
    if (by_size)
        std::stable_sort(g.place.begin(), g.place.end(), [&](int64_t a, int64_t b) {
            return g.m_ptr[a + 1] - g.m_ptr[a] > g.m_ptr[b + 1] - g.m_ptr[b];
        });
    return g;
}

// One constrained assignment step. The placement needs the distances of
// every constrained point, wherever it lies: on several ranks they are
// gathered (Collective::rows; in one process they are read in place, no
// copy of k values per constrained point) and every rank places the
// components identically, so that a failure is thrown by every rank at the same point. Writes the labels of this rank's
// rows and, per local chunk, the inertia's share and the count of changed labels.
void assign(const DataView &data, const Collective &ranks, const std::vector<int64_t> &comp, const Constrained &g,
            const std::vector<Pair> &pairs, bool saturation, int64_t k, int64_t it, const std::vector<double> &dmat,
            std::vector<int32_t> &labels, std::vector<double> &partial) {
    const int64_t n = data.n(), m = static_cast<int64_t>(g.place.size());
    std::vector<double> drows;
    if (!ranks.single()) {
        drows = ranks.rows(DataView::dense(DenseView::rows(dmat.data(), n, k)), g.members);
    }
    // The distances of the e-th constrained point (g.members[e]).
    auto dist = [&](int64_t e) { return ranks.single() ? dmat.data() + g.members[e] * k : drows.data() + e * k; };
    std::vector<int32_t> comp_label(static_cast<size_t>(m), -1);
    std::vector<double> cost(static_cast<size_t>(k));
    std::vector<int64_t> order(static_cast<size_t>(k));
    PlacementOrder next(g.place, saturation ? &g.c_ptr : nullptr, g.c_other, g.m_ptr, k);
    for (int64_t c = next.first(); c >= 0; c = next.after(c, comp_label[c])) {
        std::fill(cost.begin(), cost.end(), 0.0);
        for (int64_t e = g.m_ptr[c]; e < g.m_ptr[c + 1]; ++e) {
            const double *de = dist(e);
            for (int64_t h = 0; h < k; ++h) cost[h] += de[h];
        }
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return cost[a] < cost[b]; });
        int32_t chosen = -1;
        for (int64_t h : order) {
            bool ok = true;
            for (int64_t e = g.c_ptr[c]; e < g.c_ptr[c + 1] && ok; ++e) ok = comp_label[g.c_other[e]] != h;
            if (ok) {
                chosen = static_cast<int32_t>(h);
                break;
            }
        }
        if (chosen < 0) {
            const Pair &p = pairs[g.c_pair[g.c_ptr[c]]];
            const int64_t point = g.members[g.m_ptr[c]];
            fail(KINDRED_E_INFEASIBLE, "copkmeans: point ", point, " (must-link component of ", g.m_ptr[c + 1] - g.m_ptr[c],
                 " points) cannot be placed at iteration ", it, ": each of the k = ", k,
                 " clusters already holds a point cannot-linked to it (e.g. cannot-link (", p.i, ", ", p.j,
                 ")); the greedy assignment may fail even when a feasible clustering exists; try another seed or a "
                 "larger k, or a soft method (pckmeans, mpckmeans)");
        }
        comp_label[c] = chosen;
    }
    partial.assign(static_cast<size_t>(2 * chunk_count(n, Collective::kChunk)), 0.0);
    for (int64_t i = 0; i < n; ++i) {
        const double *di = dmat.data() + i * k;
        const int64_t s = g.id_of[comp[ranks.first_row() + i]];
        int32_t h = 0;
        if (s >= 0) {
            h = comp_label[s];
        } else {
            for (int32_t c = 1; c < k; ++c)
                if (di[c] < di[h]) h = c;
        }
        double *chunk = partial.data() + 2 * (i / Collective::kChunk);
        chunk[0] += di[h];
        if (labels[i] != h) chunk[1] += 1.0;
        labels[i] = h;
    }
}

// metric: empty (the Euclidean distance), or the whitening's W^T W
// (fit_whitened_by_metric): every distance of the fit is taken under it.
FitResult fit_copkmeans_on(const FitContext &ctx, const std::vector<double> &metric) {
    const DataView &data = ctx.data;
    const Collective ranks = Collective::or_single(ctx.collective, data.n());
    const int64_t n = data.n(), n_total = ranks.n_total(), d = data.d(), k = ctx.options.get_int("k");
    const int64_t max_iter = ctx.options.get_int("max_iter");
    if (k > n_total)
        fail(KINDRED_E_DIMENSION, "copkmeans: k = ", k, " is larger than the number of points n = ", n_total);
    // Components (over all the points, on every rank) and the pairs: the
    // store's views, read in place; without side information every point
    // is a component of its own.
    std::vector<int64_t> singletons;
    if (!ctx.side) {
        singletons.resize(static_cast<size_t>(n_total));
        std::iota(singletons.begin(), singletons.end(), 0);
    } else if (!ctx.side->inconsistent().empty()) {
        const Pair &p = ctx.side->inconsistent().front();
        fail(KINDRED_E_INFEASIBLE, "copkmeans: cannot-link (", p.i, ", ", p.j,
             ") joins two points of one must-link component; the hard constraints are contradictory");
    }
    const std::vector<int64_t> &comp = ctx.side ? ctx.side->component() : singletons;
    const std::vector<Pair> no_pairs;
    const std::vector<Pair> &pairs = ctx.side ? ctx.side->pairs() : no_pairs;
    const bool saturation = ctx.options.get_choice("order") == "saturation";
    const Constrained g = constrained_components(comp, ctx.side ? ctx.side->component_count() : n_total, pairs,
                                                 ctx.options.get_choice("order") != "index");

    Rng rng(static_cast<uint64_t>(ctx.options.get_int("seed")));
    const std::vector<double> x_sqnorm = metric.empty() ? linalg::row_sqnorms(data) : metric_row_sqnorms(data, metric);
    const int64_t n_init = ctx.options.get_int("n_init");
    std::string first_failure;
    kindred_status first_code = KINDRED_OK;
    CentroidRun best = best_of_restarts<CentroidRun>(n_init, [&](int64_t r) -> std::optional<CentroidRun> {
        Rng run_rng = r == 0 ? rng : rng.derive(static_cast<uint64_t>(100 + r));
        // An infeasible run fails on every rank at once (assign), so skipping it keeps the ranks in step.
        try {
            CentroidRun run;
            run.centers = kmeanspp_centers(data, k, run_rng, x_sqnorm, ctx.threads, &ranks,
                                           metric.empty() ? nullptr : metric.data());
            run.labels.assign(static_cast<size_t>(n), -1);
            std::vector<double> &centers = run.centers;
            std::vector<double> dmat(static_cast<size_t>(n * k)), partial, sums;
            std::vector<int64_t> counts;
            iterate(ctx, ranks, max_iter, "copkmeans: constrained assignment", run, [&](int64_t it) {
                // Under a metric the GEMM reads the rows M c (metric_centers).
                std::vector<double> c_sq, mapped;
                if (metric.empty())
                    c_sq = linalg::center_sqnorms(centers.data(), k, d);
                else
                    mapped = metric_centers(centers.data(), k, d, metric.data(), c_sq);
                const double *read = metric.empty() ? centers.data() : mapped.data();
                // Blocks start at multiples of kBlockRows in all the points too (a rank's rows start at a chunk).
                for (int64_t b = 0; b < n; b += kBlockRows)
                    linalg::sq_distances(data, b, std::min(n, b + kBlockRows), read, c_sq.data(), k,
                                         x_sqnorm.data(), dmat.data() + b * k);
                assign(data, ranks, comp, g, pairs, saturation, k, it, dmat, run.labels, partial);
                // Inertia and changed labels by chunk sums: the same bits on any number of ranks.
                const std::vector<double> total = ranks.sum_chunks(partial, 2);
                const bool unchanged = total[1] == 0.0;
                if (!unchanged) {
                    cluster_sums(data, ranks, run.labels.data(), k, ctx.threads, sums, counts);
                    for (int64_t h = 0; h < k; ++h)
                        if (counts[h] > 0)
                            for (int64_t m = 0; m < d; ++m) centers[h * d + m] = sums[h * d + m] / static_cast<double>(counts[h]);
                }
                return StepOutcome{total[0], unchanged};
            });
            run.objective = run.trace.back();
            return run;
        } catch (const Error &e) {
            if (e.code() != KINDRED_E_INFEASIBLE) throw;
            if (first_code == KINDRED_OK) {
                first_code = e.code();
                first_failure = e.what();
            }
            ctx.log.info(cat("copkmeans: run ", r + 1, " of ", n_init, " was infeasible; ", e.what()));
            return std::nullopt;
        }
    });
    if (!std::isfinite(best.objective))
        fail(first_code, first_failure, n_init > 1 ? cat(" (all ", n_init, " runs failed)") : std::string());
    return centroid_result(std::move(best), d);
}

// The points whitened by the must-link groups first (dense data, whitening
// = rca; algorithms/relevant_components.hpp): a deviation from Wagstaff et
// al., who cluster the points as given (whitening = off). The fit reads the
// points as given under the metric W^T W (k-means++, the assignment; the
// centres are means either way) instead of a mapped copy of them.
FitResult fit_copkmeans(const FitContext &ctx) {
    return fit_whitened_by_metric(ctx, ctx.options.get_choice("whitening") == "rca", "copkmeans",
                                  fit_copkmeans_on);
}

OptionTable copkmeans_options() {
    return with_common_options({
        OptionSpec::clusters(8, "number of clusters"),
        OptionSpec::max_iterations(300, "maximum assignment / update iterations"),
        OptionSpec::restarts(10,
                            "k-means++ restarts; runs that find no feasible assignment are skipped, the feasible run "
                            "of lowest inertia is kept"),
        OptionSpec::choice("order", "saturation", "saturation|size|index",
                           "order in which must-link components are placed: most constrained first (the cannot-linked "
                           "clusters they can no longer join; DSATUR), largest first, or by smallest member (the "
                           "paper)"),
        whitening_option(),
    });
}

}  // namespace

const AlgorithmSpec &copkmeans_spec() {
    static const AlgorithmSpec spec{"copkmeans",
                                    "COP-KMeans: k-means that never violates a must-link or cannot-link (Wagstaff et al. 2001)",
                                    KINDRED_USES_PAIRS | KINDRED_USES_SPARSE | KINDRED_USES_SHARDS,
                                    copkmeans_options(), fit_copkmeans, predict_nearest_center};
    return spec;
}

}  // namespace kindred
