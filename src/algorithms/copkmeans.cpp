// COP-KMeans (Wagstaff, Cardie, Rogers & Schroedl 2001): k-means whose
// assignment step never violates a constraint. Must-link components (the
// transitive closure of the must-links) move together: each component, in
// order of its smallest member, goes to the cluster with the smallest sum of
// squared distances of its members among the clusters that hold none of its
// cannot-linked points. When no cluster is allowed, the fit fails with
// KINDRED_E_INFEASIBLE naming the point and a constraint; a cannot-link inside
// a must-link component fails before any work. Like the original this is a
// greedy procedure: it can fail on a feasible problem (the message says so).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "algorithms/centroid_steps.hpp"
#include "core/error.hpp"
#include "linalg/distances.hpp"

namespace kindred {
namespace {

constexpr int64_t kBlockRows = 4096;

FitResult fit_copkmeans(const FitContext &ctx) {
    const DataView &data = ctx.data;
    const int64_t n = data.n(), d = data.d(), k = ctx.options.get_int("k");
    const int64_t max_iter = ctx.options.get_int("max_iter");
    if (k > n) fail(KINDRED_E_DIMENSION, "copkmeans: k = ", k, " is larger than the number of points n = ", n);
    // Components and the cannot-links between them.
    std::vector<int64_t> comp(static_cast<size_t>(n));
    std::iota(comp.begin(), comp.end(), 0);
    int64_t ncomp = n;
    std::vector<Pair> cannot;
    if (ctx.side) {
        if (!ctx.side->inconsistent().empty()) {
            const Pair &p = ctx.side->inconsistent().front();
            fail(KINDRED_E_INFEASIBLE, "copkmeans: cannot-link (", p.i, ", ", p.j,
                 ") joins two points of one must-link component; the hard constraints are contradictory");
        }
        comp = ctx.side->component();
        ncomp = ctx.side->component_count();
        for (const Pair &p : ctx.side->pairs())
            if (p.value < 0.0) cannot.push_back(p);
    }
    // Members of each component (CSR), and cannot-linked components with the pair that links them.
    std::vector<int64_t> m_ptr(static_cast<size_t>(ncomp + 1), 0), members(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) ++m_ptr[comp[i] + 1];
    for (int64_t c = 0; c < ncomp; ++c) m_ptr[c + 1] += m_ptr[c];
    {
        std::vector<int64_t> fill(m_ptr.begin(), m_ptr.end() - 1);
        for (int64_t i = 0; i < n; ++i) members[fill[comp[i]]++] = i;
    }
    std::vector<int64_t> c_ptr(static_cast<size_t>(ncomp + 1), 0), c_other(2 * cannot.size()), c_pair(2 * cannot.size());
    for (const Pair &p : cannot) {
        ++c_ptr[comp[p.i] + 1];
        ++c_ptr[comp[p.j] + 1];
    }
    for (int64_t c = 0; c < ncomp; ++c) c_ptr[c + 1] += c_ptr[c];
    {
        std::vector<int64_t> fill(c_ptr.begin(), c_ptr.end() - 1);
        for (size_t q = 0; q < cannot.size(); ++q) {
            const int64_t a = comp[cannot[q].i], b = comp[cannot[q].j];
            c_other[fill[a]] = b;
            c_pair[fill[a]++] = static_cast<int64_t>(q);
            c_other[fill[b]] = a;
            c_pair[fill[b]++] = static_cast<int64_t>(q);
        }
    }

    Rng rng(static_cast<uint64_t>(ctx.options.get_int("seed")));
    const std::vector<double> x_sqnorm = linalg::row_sqnorms(data);
    std::vector<double> centers = kmeanspp_centers(data, k, rng, x_sqnorm, ctx.threads);
    std::vector<double> dmat(static_cast<size_t>(n * k)), cost(static_cast<size_t>(k));
    std::vector<int32_t> labels(static_cast<size_t>(n), -1), comp_label(static_cast<size_t>(ncomp));
    std::vector<int64_t> order(static_cast<size_t>(k));
    std::vector<double> trace;
    std::vector<double> sums;
    std::vector<int64_t> counts;
    bool converged = false;
    int64_t it = 0;
    for (it = 1; it <= max_iter; ++it) {
        const std::vector<double> c_sq = linalg::center_sqnorms(centers.data(), k, d);
        for (int64_t b = 0; b < n; b += kBlockRows)
            linalg::sq_distances(data, b, std::min(n, b + kBlockRows), centers.data(), c_sq.data(), k, x_sqnorm.data(),
                                 dmat.data() + b * k);
        std::fill(comp_label.begin(), comp_label.end(), -1);
        for (int64_t c = 0; c < ncomp; ++c) {
            std::fill(cost.begin(), cost.end(), 0.0);
            for (int64_t e = m_ptr[c]; e < m_ptr[c + 1]; ++e)
                for (int64_t h = 0; h < k; ++h) cost[h] += dmat[members[e] * k + h];
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return cost[a] < cost[b]; });
            int32_t chosen = -1;
            for (int64_t h : order) {
                bool ok = true;
                for (int64_t e = c_ptr[c]; e < c_ptr[c + 1] && ok; ++e) ok = comp_label[c_other[e]] != h;
                if (ok) {
                    chosen = static_cast<int32_t>(h);
                    break;
                }
            }
            if (chosen < 0) {
                const Pair &p = cannot[c_pair[c_ptr[c]]];
                const int64_t point = members[m_ptr[c]];
                fail(KINDRED_E_INFEASIBLE, "copkmeans: point ", point, " (must-link component of ",
                     m_ptr[c + 1] - m_ptr[c], " points) cannot be placed at iteration ", it, ": each of the k = ", k,
                     " clusters already holds a point cannot-linked to it (e.g. cannot-link (", p.i, ", ", p.j,
                     ")); the greedy assignment may fail even when a feasible clustering exists; try another seed or a "
                     "larger k, or a soft method (pckmeans, mpckmeans)");
            }
            comp_label[c] = chosen;
        }
        bool changed = false;
        double inertia = 0.0;
        for (int64_t i = 0; i < n; ++i) {
            const int32_t h = comp_label[comp[i]];
            changed = changed || labels[i] != h;
            labels[i] = h;
            inertia += dmat[i * k + h];
        }
        trace.push_back(inertia);
        ctx.progress.report(it, inertia, "copkmeans: constrained assignment");
        if (!changed) {
            converged = true;
            break;
        }
        cluster_sums(data, labels.data(), k, ctx.threads, sums, counts);
        for (int64_t h = 0; h < k; ++h)
            if (counts[h] > 0)
                for (int64_t m = 0; m < d; ++m) centers[h * d + m] = sums[h * d + m] / static_cast<double>(counts[h]);
    }
    FitResult result;
    result.clusters = k;
    result.iterations = std::min(it, max_iter);
    result.converged = converged;
    result.objective = trace.back();
    result.labels = std::move(labels);
    result.set_array("centers", k, d, centers);
    result.set_array("objective_trace", static_cast<int64_t>(trace.size()), 1, trace);
    return result;
}

OptionTable copkmeans_options() {
    OptionTable t = {
        OptionSpec::integer("k", 8, 1, INT32_MAX, "number of clusters"),
        OptionSpec::integer("max_iter", 300, 1, 100000000, "maximum assignment / update iterations"),
    };
    append_common_options(t);
    return t;
}

}  // namespace

const AlgorithmSpec &copkmeans_spec() {
    static const AlgorithmSpec spec = [] {
        AlgorithmSpec s;
        s.name = "copkmeans";
        s.summary = "COP-KMeans: k-means that never violates a must-link or cannot-link (Wagstaff et al. 2001)";
        s.uses = KINDRED_USES_PAIRS | KINDRED_USES_SPARSE;
        s.options = copkmeans_options();
        s.fit = fit_copkmeans;
        s.predict = predict_nearest_center;
        return s;
    }();
    return spec;
}

}  // namespace kindred
