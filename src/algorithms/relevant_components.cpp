#include "algorithms/relevant_components.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/error.hpp"
#include "core/label_sums.hpp"
#include "core/standardize.hpp"

namespace kindred {
namespace {

// The eigenvalues (returned) and eigenvectors (columns of v, row-major) of
// the symmetric d x d matrix a, by cyclic Jacobi rotations. Our own loops
// rather than LAPACK's dsyevr, whose bits change with OpenBLAS's thread
// count: the map decides every later step of the fit, and labels must not
// depend on the machine's threads. O(d^3) per sweep, once per fit.
std::vector<double> jacobi_eigen(std::vector<double> a, int64_t d, std::vector<double> &v) {
    v.assign(static_cast<size_t>(d * d), 0.0);
    for (int64_t m = 0; m < d; ++m) v[static_cast<size_t>(m * d + m)] = 1.0;
    auto at = [&](std::vector<double> &x, int64_t r, int64_t c) -> double & { return x[static_cast<size_t>(r * d + c)]; };
    double total = 0.0;
    for (double e : a) total += e * e;
    for (int sweep = 0; sweep < 100; ++sweep) {
        double off = 0.0;
        for (int64_t p = 0; p < d; ++p)
            for (int64_t q = p + 1; q < d; ++q) off += at(a, p, q) * at(a, p, q);
        if (off <= 1e-30 * total) break;
        for (int64_t p = 0; p < d; ++p)
            for (int64_t q = p + 1; q < d; ++q) {
                const double apq = at(a, p, q);
                if (apq == 0.0) continue;
                // The rotation that zeroes a_pq (Golub & Van Loan, 8.5.2).
                const double theta = (at(a, q, q) - at(a, p, p)) / (2.0 * apq);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
                for (int64_t r = 0; r < d; ++r) {  // a <- a J (columns p, q)
                    const double arp = at(a, r, p), arq = at(a, r, q);
                    at(a, r, p) = c * arp - s * arq;
                    at(a, r, q) = s * arp + c * arq;
                }
                for (int64_t r = 0; r < d; ++r) {  // a <- J^T a (rows p, q)
                    const double apr = at(a, p, r), aqr = at(a, q, r);
                    at(a, p, r) = c * apr - s * aqr;
                    at(a, q, r) = s * apr + c * aqr;
                }
                for (int64_t r = 0; r < d; ++r) {  // v <- v J
                    const double vrp = at(v, r, p), vrq = at(v, r, q);
                    at(v, r, p) = c * vrp - s * vrq;
                    at(v, r, q) = s * vrp + c * vrq;
                }
            }
    }
    std::vector<double> values(static_cast<size_t>(d));
    for (int64_t m = 0; m < d; ++m) values[static_cast<size_t>(m)] = at(a, m, m);
    return values;
}

}  // namespace

std::vector<double> relevant_components(const DataView &data, const SideInfo &side, const Collective &ranks,
                                        int threads) {
    const int64_t d = data.d(), n_local = data.n(), first = ranks.first_row();
    // Groups: the robust units of two or more points, numbered 0, 1, ...
    const PropagatedConstraints &units = side.robust_units();
    std::vector<int32_t> group_of_unit(static_cast<size_t>(units.unit_count()), -1);
    int32_t groups = 0;
    int64_t freedom = 0;  // sum of (size - 1): the independent differences inside the groups
    for (int64_t u = 0; u < units.unit_count(); ++u)
        if (units.unit_size[u] >= 2) {
            group_of_unit[static_cast<size_t>(u)] = groups++;
            freedom += units.unit_size[u] - 1;
        }
    if (freedom < d + 1) return {};
    std::vector<int32_t> group(static_cast<size_t>(n_local));
    for (int64_t i = 0; i < n_local; ++i) group[static_cast<size_t>(i)] = group_of_unit[static_cast<size_t>(units.unit[first + i])];
    std::vector<double> means;
    std::vector<int64_t> counts;
    cluster_sums(data, ranks, group.data(), groups, threads, means, counts);
    for (int32_t g = 0; g < groups; ++g)
        for (int64_t m = 0; m < d; ++m) means[static_cast<size_t>(g * d + m)] /= static_cast<double>(counts[g]);
    // The scatter about the group means: a d x d block per chunk of rows,
    // added in chunk order (the collective's rule for sums over points).
    const int64_t chunks = (n_local + Collective::kChunk - 1) / Collective::kChunk;
    std::vector<double> partial(static_cast<size_t>(chunks * d * d), 0.0), row(static_cast<size_t>(d));
    for (int64_t i = 0; i < n_local; ++i) {
        const int32_t g = group[static_cast<size_t>(i)];
        if (g < 0) continue;
        data.copy_row(i, row.data());
        const double *mu = means.data() + g * d;
        for (int64_t m = 0; m < d; ++m) row[static_cast<size_t>(m)] -= mu[m];
        double *block = partial.data() + (i / Collective::kChunk) * d * d;
        for (int64_t a = 0; a < d; ++a)
            for (int64_t b = 0; b < d; ++b) block[a * d + b] += row[static_cast<size_t>(a)] * row[static_cast<size_t>(b)];
    }
    std::vector<double> scatter = ranks.sum_chunks(partial, d * d);
    double trace = 0.0;
    for (int64_t m = 0; m < d; ++m) trace += scatter[static_cast<size_t>(m * d + m)];
    if (!(trace > 0.0) || !std::isfinite(trace)) return {};
    const double t = trace / static_cast<double>(d);
    for (double &v : scatter) v /= t;
    std::vector<double> vectors;
    const std::vector<double> values = jacobi_eigen(std::move(scatter), d, vectors);
    // W = V diag((lambda + shrinkage)^{-1/2}) V^T
    std::vector<double> w(static_cast<size_t>(d * d), 0.0);
    for (int64_t m = 0; m < d; ++m) {
        const double f = 1.0 / std::sqrt(std::max(0.0, values[static_cast<size_t>(m)]) + kRcaShrinkage);
        for (int64_t a = 0; a < d; ++a)
            for (int64_t b = 0; b < d; ++b)
                w[static_cast<size_t>(a * d + b)] +=
                    vectors[static_cast<size_t>(a * d + m)] * f * vectors[static_cast<size_t>(b * d + m)];
    }
    return w;
}

OptionSpec whitening_option() {
    return OptionSpec::choice(
        "whitening", "rca", "rca|off",
        "dense Euclidean fits: rca clusters the points mapped by C^{-1/2}, C the scatter of the must-link groups "
        "about their means (relevant component analysis; shrunk toward its mean eigenvalue; skipped when the groups "
        "hold fewer than d + 1 degrees of freedom), a linear map the model keeps and predict / transform apply; off: "
        "the points as given (the papers)");
}

namespace {

// W from the must-link groups when whitening applies; empty (logged, naming
// what, when the groups are too few) otherwise.
std::vector<double> whitening_map(const FitContext &ctx, bool whiten, const char *what) {
    if (!whiten || !ctx.data.is_dense() || !ctx.side) return {};
    std::vector<double> w =
        relevant_components(ctx.data, *ctx.side, Collective::or_single(ctx.collective, ctx.data.n()), ctx.threads);
    if (w.empty())
        ctx.log.info(cat(what, ": the must-link groups hold fewer than d + 1 = ", ctx.data.d() + 1,
                         " degrees of freedom, or their points do not differ; whitening skipped"));
    return w;
}

}  // namespace

FitResult fit_whitened(const FitContext &ctx, bool whiten, const char *what,
                       const std::function<FitResult(const FitContext &)> &fit) {
    const std::vector<double> w = whitening_map(ctx, whiten, what);
    if (w.empty()) return fit(ctx);
    const int64_t d = ctx.data.d();
    const ScaledData mapped = apply_linear_map(w, ctx.data, what);
    const FitContext inner{mapped.view, ctx.side, ctx.options, ctx.progress, ctx.log, ctx.threads, ctx.collective};
    FitResult r = fit(inner);
    r.set_array("whitening", d, d, w);
    return r;
}

FitResult fit_whitened_by_metric(
    const FitContext &ctx, bool whiten, const char *what,
    const std::function<FitResult(const FitContext &, const std::vector<double> &)> &fit) {
    const std::vector<double> w = whitening_map(ctx, whiten, what);
    if (w.empty()) return fit(ctx, {});
    const int64_t d = ctx.data.d();
    // M = W^T W = W W (W is symmetric), summed in one fixed order.
    std::vector<double> metric(static_cast<size_t>(d * d), 0.0);
    for (int64_t a = 0; a < d; ++a)
        for (int64_t b = 0; b < d; ++b) {
            double s = 0.0;
            for (int64_t m = 0; m < d; ++m) s += w[static_cast<size_t>(m * d + a)] * w[static_cast<size_t>(m * d + b)];
            metric[static_cast<size_t>(a * d + b)] = s;
        }
    FitResult r = fit(ctx, metric);
    // The centres are means of the points as given; the model holds them mapped.
    NamedArray centers = r.get("centers", -1, d);
    const DataView as_given = DataView::dense(DenseView::rows(centers.values.data(), centers.rows, d));
    r.set_array("centers", centers.rows, d, apply_linear_map(w, as_given, what).values);
    r.set_array("whitening", d, d, w);
    return r;
}

}  // namespace kindred
