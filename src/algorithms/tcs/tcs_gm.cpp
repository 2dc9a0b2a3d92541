// TCS-GM: transformation-based clustering with supervision, Gaussian mixtures
// (Gopal & Yang 2014, section 3.1, Algorithm 1). From the labels of some
// known clusters, learn A = L^T L (PSD) so that the labelled points are best
// explained by unit-variance Gaussians around their class means in the space
// of G(x) = L x; then cluster the unlabelled points with a Gaussian mixture
// (shared spherical variance) in that space. Options and deviations from the
// paper: docs/algorithms/tcs.md.
#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/tcs/gamma_selection.hpp"
#include "algorithms/tcs/known_and_new_clusters.hpp"
#include "algorithms/tcs/learn_metric.hpp"
#include "algorithms/tcs/mixtures.hpp"
#include "algorithms/tcs/transform.hpp"
#include "algorithms/tcs/working_data.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"

namespace kindred {
namespace tcs {
namespace {

const char *const kName = "tcs-gm";

struct Learned {
    std::vector<double> a, l;
    FistaRun fista;
};

// start: the starting point of FISTA (empty: A = I, the paper's start).
Learned learn(const WorkingData &w, const LabelledClasses &cls, const OptionValues &o, double gamma,
              const Progress *progress, const std::vector<double> &start) {
    Learned out;
    const int64_t p = w.d;
    if (!o.get_bool("learn_transform")) {
        // The paper's unsupervised GM baseline on the same (reduced) data.
        out.a.assign(static_cast<size_t>(p * p), 0.0);
        for (int64_t j = 0; j < p; ++j) out.a[j * p + j] = 1.0;
        out.l = out.a;
        return out;
    }
    const std::vector<double> x = gather_rows(w, cls.labelled);
    FistaSettings fs;
    fs.max_iter = o.get_int("max_iter");
    fs.tol = o.get_double("tol");
    const IterationFn report = [progress](int64_t it, double f) {
        if (progress) progress->report(it, f, "tcs-gm: FISTA iteration (learning A)");
    };
    MetricRun run = learn_metric(x.data(), static_cast<int64_t>(cls.labelled.size()), p, cls.class_of.data(), cls.k(),
                                 parse_regularizer(o.get_choice("regularizer")), gamma, fs, report,
                                 start.empty() ? nullptr : &start);
    out.a = run.fista.a;
    out.l = transform_from_metric(out.a, p);
    out.fista = std::move(run.fista);
    return out;
}

// The labelled classes' means in the transformed space, from this rank's
// rows z (n x p, rows [ranks.first_row(), + n) of all): sums per global chunk
// of rows, in row order, added in chunk order (core/collective.hpp).
std::vector<double> class_means(const LabelledClasses &cls, const std::vector<double> &z, int64_t n, int64_t p,
                                const Collective &ranks) {
    const int64_t big_k = cls.k(), width = big_k * p, first = n > 0 ? ranks.first_row() : 0;
    std::vector<double> part(static_cast<size_t>(chunk_count(n, Collective::kChunk) * width), 0.0);
    const auto from = std::lower_bound(cls.labelled.begin(), cls.labelled.end(), first) - cls.labelled.begin();
    for (size_t q = static_cast<size_t>(from); q < cls.labelled.size() && cls.labelled[q] < first + n; ++q) {
        const int64_t i = cls.labelled[q] - first;
        double *sum = part.data() + (i / Collective::kChunk) * width + cls.class_of[q] * p;
        for (int64_t j = 0; j < p; ++j) sum[j] += z[i * p + j];
    }
    std::vector<double> centers = ranks.sum_chunks(part, width);
    std::vector<int64_t> count(static_cast<size_t>(big_k), 0);
    for (int32_t c : cls.class_of) ++count[c];
    for (int64_t c = 0; c < big_k; ++c)
        for (int64_t j = 0; j < p; ++j) centers[c * p + j] /= static_cast<double>(count[c]);
    return centers;
}

FitResult fit_tcs_gm(const FitContext &ctx) {
    const OptionValues &o = ctx.options;
    const FitInputs in = read_fit_inputs(ctx, kName);
    const int64_t p = in.w.d;

    FitResult r;
    // Continuation along the gamma grid (largest first): each FISTA solve starts
    // from the A of the previous gamma. The problem is convex, so the optimum is
    // the same as from A = I; the warm start reaches it in fewer iterations and
    // ends nearer to it at the same tolerance (docs/algorithms/tcs.md).
    const GammaLearner learner = [&](const LabelledClasses &train, double g, std::vector<double> &state) {
        Learned l = learn(in.known.w, train, o, g, nullptr, state);
        state = std::move(l.a);
        return l.l;
    };
    std::vector<double> start;  // the grid's A at the chosen gamma, if any
    double gamma = 0.0;
    Learned learned;
    // Every rank computes these alone (no collective call inside): agree()
    // turns a failure or a cancel on one rank into the same error on all.
    in.ranks.agree([&] {
        gamma = fit_gamma(kName, ctx, in.known.w, in.known.cls, false, learner, gaussian_mixture, r, &start);
        // On all labelled classes, from the grid's A at the chosen gamma (same convex
        // problem, a nearer start) or from A = I when gamma was given.
        learned = learn(in.known.w, in.known.cls, o, gamma, &ctx.progress, start);
    });
    const std::vector<double> z = apply_linear(in.w.x, in.w.n, p, learned.l, false);

    // Centres in the transformed space: the labelled classes' means L m_k, then
    // the k clusters of the GM on the transformed unlabelled points.
    std::vector<double> centers = class_means(in.cls, z, in.w.n, p, in.ranks);
    cluster_known_and_new(ctx, in.cls, z, in.w.n, p, in.k, std::move(centers), gaussian_mixture, in.ranks, r);
    r.iterations = learned.fista.iterations;
    r.converged = o.get_bool("learn_transform") ? learned.fista.converged : true;
    r.objective = learned.fista.objective;
    r.set_array("metric", p, p, learned.a);
    r.set_array("transform", p, p, learned.l);
    if (!in.w.basis.empty()) r.set_array("svd_basis", in.w.original_d, p, in.w.basis);
    r.set_array("objective_trace", static_cast<int64_t>(learned.fista.trace.size()), 1, learned.fista.trace);
    return r;
}

OptionTable tcs_gm_options() {
    return tcs_options({
        OptionSpec::choice("regularizer", "frobenius-identity", regularizer_choices(),
                           "lambda(A): ||A-I||_F^2 (TCS-GM), ||A||_F^2 (TCS-GM-L2), nuclear, trace-logdet, entrywise ||A-I||_1"),
        OptionSpec::real("gamma", 0.01, 0, kInf, "regularisation weight gamma (the loss is a mean over labelled points)").open_high(),
        OptionSpec::max_iterations(500, "maximum FISTA iterations when learning A"),
        OptionSpec::tolerance(1e-7, "FISTA stops when the objective falls by less than tol * max(1, |F|)"),
    });
}

}  // namespace
}  // namespace tcs

const AlgorithmSpec &tcs_gm_spec() {
    static const AlgorithmSpec spec = tcs::tcs_spec(
        "tcs-gm", "TCS-GM: learn a linear transformation from a few labelled clusters, then a Gaussian mixture (Gopal & Yang 2014)",
        tcs::tcs_gm_options(), tcs::fit_tcs_gm, false);
    return spec;
}

}  // namespace kindred
