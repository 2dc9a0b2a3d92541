// DCRC: discriminative clustering with relative constraints (Pei, Fern,
// Rosales, Tjahja). A multinomial logistic model P(y | x; W) (eq. (6)) is
// fitted by variational EM to triplets "is a closer to b than to c?" answered
// yes / no / don't know, through the noisy answer model of Table I:
// - E-step: mean field on the constrained points (eq. (13); eq. (14) when
//   epsilon = 0), at most mf_max_iter sweeps, tolerance mf_tol (mean_field.cpp);
// - M-step: L-BFGS on J(W) (section IV-B; m_step.cpp), objective (8), or (9)
//   with the balance option;
// - initialisation (section IV-C): k-means, then a logistic classifier trained
//   on its labels.
// EM stops when the variational lower bound (10) changes by less than
// tol x max(1, |LB|), or at max_iter. With no triplets, the constraint term is
// absent (I is empty, U is every point): plain discriminative clustering by
// entropy minimisation (and balance), started from the k-means classifier.
// Labels are argmax_k P(y = k | x; W) for every point; "memberships" are P;
// "weights" is W (K x (d+1), bias last) on the caller's (raw) features.
//
// On several ranks (docs/distributed.md) every rank holds whole global chunks
// of the points and the triplets in full. Every sum over the points (the
// standardisation, the k-means start, J and dJ/dW) is a chunk sum combined in
// chunk order (core/collective.hpp), the kernel basis is the same global rows
// on every rank (fetched from their owners), and the E-step's log P(y | x) on
// the constrained points is gathered from the ranks holding them: every rank
// then runs the same mean field and the same L-BFGS on the same numbers, and
// the result is bitwise that of one process.
#include <algorithm>
#include <cmath>

#include "algorithms/centroid/steps.hpp"
#include "algorithms/dcrc/design.hpp"
#include "algorithms/dcrc/kernel_features.hpp"
#include "algorithms/dcrc/m_step.hpp"
#include "algorithms/dcrc/mean_field.hpp"
#include "core/collective.hpp"
#include "core/error.hpp"

namespace kindred {
namespace dcrc {
namespace {

// Section IV-C: the logistic classifier of eq. (6) trained on hard labels,
// with the same L2 penalty: J = (1/N) sum_i log p_{i, label_i} - lambda R(W).
LbfgsOutcome train_classifier(const Design &des, const Collective &ranks, int64_t k, const std::vector<int32_t> &labels,
                              double lambda, int64_t max_iter, int threads, std::vector<double> &w, MStepWorkspace &ws) {
    const int64_t n = des.n;
    std::vector<double> onehot(static_cast<size_t>(n * k), 0.0);
    std::vector<int64_t> target_of(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        onehot[i * k + labels[i]] = 1.0;
        target_of[i] = i;
    }
    MStepProblem pb;
    pb.design = &des;
    pb.ranks = &ranks;
    pb.k = k;
    pb.target_of = &target_of;
    pb.targets = onehot.data();
    pb.target_weight = 1.0 / static_cast<double>(ranks.n_total());
    pb.lambda = lambda;
    pb.threads = threads;
    return maximize(pb, w, max_iter, ws);
}

// -sum q log q over the constrained points (the entropy of the factorised Q).
double entropy_of(const std::vector<double> &q) {
    double h = 0.0;
    for (double v : q)
        if (v > 0.0) h -= v * std::log(v);
    return h;
}

FitResult fit_dcrc(const FitContext &ctx) {
    const DataView &data = ctx.data;
    require_dense(data, "dcrc");
    const OptionValues &o = ctx.options;
    const Collective ranks = Collective::or_single(ctx.collective, data.n());
    const int64_t n = data.n(), d = data.d(), n_total = ranks.n_total();
    const int64_t k = o.get_int("k");
    if (k > n_total) fail(KINDRED_E_DIMENSION, "dcrc: k = ", k, " is larger than the number of points n = ", n_total);
    const double epsilon = o.get_double("epsilon"), tau = o.get_double("tau"), lambda = o.get_double("lambda");
    const bool balance = o.get_bool("balance");
    const int64_t max_iter = o.get_int("max_iter"), mf_max_iter = o.get_int("mf_max_iter");
    const int64_t lbfgs_max_iter = o.get_int("lbfgs_max_iter");
    const double tol = o.get_double("tol"), mf_tol = o.get_double("mf_tol");

    static const std::vector<Triplet> no_triplets;
    const std::vector<Triplet> &triplets = ctx.side ? ctx.side->triplets() : no_triplets;
    if (ctx.side && (!ctx.side->pairs().empty() || ctx.side->has_partial_labels()))
        ctx.log.warning("dcrc: uses triplets only; the pairs and partial labels given are ignored");

    // The points the model sees: [x^T, 1] (standardised), or with the kernel
    // extension [phi(x)^T, 1] for RBF features of m basis points.
    const Design input = make_design(data, ranks, o.get_bool("standardize"));
    const bool rbf = o.get_choice("kernel") == "rbf";
    KernelBasis basis;
    Design kernel;
    if (rbf) {
        const double gamma = o.get_double("gamma") > 0.0 ? o.get_double("gamma") : 1.0 / static_cast<double>(d);
        Rng rng = Rng(static_cast<uint64_t>(o.get_int("seed"))).derive(1);
        basis = draw_basis(input, ranks, o.get_int("kernel_basis"), gamma, rng);
        kernel = kernel_design(input, basis);
    }
    const Design &des = rbf ? kernel : input;
    const int64_t cols = des.cols();
    MStepWorkspace ws(n, k);

    // Initialisation (section IV-C): k-means on the points, then the classifier on its labels.
    std::vector<double> w(static_cast<size_t>(k * cols), 0.0);
    const std::vector<int32_t> start = kmeans_labels(ctx, input.features(), k, o.get_int("init_restarts"),
                                                     o.get_int("seed"), ctx.collective);
    const LbfgsOutcome init = train_classifier(des, ranks, k, start, lambda, lbfgs_max_iter, ctx.threads, w, ws);
    ctx.log.debug(cat("dcrc: initial classifier: L-BFGS ", init.iterations, " iterations, ", init.evaluations,
                      " evaluations, status ", init.status));

    // The triplets are about all the points: I and its slots are the same on every rank.
    const MeanField mf(triplets, n_total, k);
    const int64_t m = mf.triplet_count();
    ctx.log.debug(cat("dcrc: ", m, " triplets on ", mf.constrained_count(), " points; ",
                      n_total - mf.constrained_count(), " unconstrained"));
    // A rank of a sharded fit: its rows' slots in I (the M-step's targets), and
    // its rows in I (local indices). In one process, no copies (memory per
    // point is documented in docs/reliability.md).
    const bool one_process = ranks.single();
    std::vector<int64_t> rank_slot_of, local_constrained;
    if (!one_process) {
        const int64_t first = ranks.first_row();
        rank_slot_of.assign(mf.slot_of().begin() + first, mf.slot_of().begin() + first + n);
        for (int64_t i = 0; i < n; ++i)
            if (rank_slot_of[i] >= 0) local_constrained.push_back(i);
    }
    const std::vector<int64_t> &slot_of = one_process ? mf.slot_of() : rank_slot_of;
    std::vector<double> q, logp(static_cast<size_t>(n * k)), logp_held(local_constrained.size() * static_cast<size_t>(k)),
        logp_gathered;
    MStepProblem pb;
    pb.design = &des;
    pb.ranks = &ranks;
    pb.k = k;
    pb.u_count = n_total - mf.constrained_count();
    pb.target_of = &slot_of;
    pb.target_weight = m > 0 ? 1.0 / static_cast<double>(m) : 0.0;
    pb.tau = tau;
    pb.balance = balance;
    pb.lambda = lambda;
    pb.threads = ctx.threads;

    std::vector<double> trace;
    bool converged = false;
    int64_t it = 0;
    double lb = 0.0;
    while (it < max_iter) {
        ++it;
        // E-step (section IV-A).
        double q_terms = 0.0;
        if (m > 0) {
            // log P(y | x; W) on I (the only rows the mean field reads), from the
            // last M-step's (or the initial classifier's) workspace at this W,
            // by slot: in one process into the first |I| rows of logp (free
            // until the labels); on several ranks each rank's rows of I, sent
            // to every rank.
            const double *logp_i = logp.data();
            if (one_process) {
                last_log_probabilities(ws, k, mf.points(), logp.data());
            } else {
                last_log_probabilities(ws, k, local_constrained, logp_held.data());
                for (size_t r = 0; r < local_constrained.size(); ++r)
                    std::copy(logp_held.begin() + static_cast<std::ptrdiff_t>(r * k),
                              logp_held.begin() + static_cast<std::ptrdiff_t>((r + 1) * k),
                              logp.begin() + static_cast<std::ptrdiff_t>(local_constrained[r] * k));
                logp_gathered = ranks.rows(DataView::dense(DenseView::rows(logp.data(), n, k)), mf.points());
                logp_i = logp_gathered.data();
            }
            if (q.empty()) mf.start_from(logp_i, q);
            const MeanFieldOutcome e = mf.run(logp_i, epsilon, mf_max_iter, mf_tol, q);
            ctx.log.debug(cat("dcrc: EM iteration ", it, ": mean field ", e.sweeps, " sweeps",
                              e.converged ? "" : " (not converged)", ", last change ", e.max_change));
            // The Q-only terms of the lower bound (10): (1/M)(sum_t E_Q log P(l_t | Y_t) + H(Q)).
            // With hard constraints (epsilon = 0) the first is 0 or -inf and is left out.
            const double expected = epsilon > 0.0 ? mf.expected_log_likelihood(q, epsilon) : 0.0;
            q_terms = (expected + entropy_of(q)) / static_cast<double>(m);
        }
        pb.targets = q.data();
        // M-step (section IV-B).
        const LbfgsOutcome mo = maximize(pb, w, lbfgs_max_iter, ws);
        ctx.log.debug(cat("dcrc: EM iteration ", it, ": L-BFGS ", mo.iterations, " iterations, ", mo.evaluations,
                          " evaluations, status ", mo.status));
        const double next = mo.objective + q_terms;
        trace.push_back(next);
        ranks.agree([&] { ctx.progress.report(it, next, "dcrc: EM iteration"); });  // a cancel on one rank stops all
        const bool small_change = it > 1 && std::fabs(next - lb) <= tol * std::max(1.0, std::fabs(next));
        lb = next;
        if (!std::isfinite(lb)) fail(KINDRED_E_NUMERICAL, "dcrc: the objective is not finite at EM iteration ", it);
        if (small_change) {
            converged = true;
            break;
        }
    }

    FitResult result;
    result.clusters = k;
    result.iterations = it;
    result.converged = converged;
    result.objective = lb;
    log_probabilities(des.xa.data(), n, cols, w.data(), k, logp.data());
    result.labels.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        double *row = logp.data() + i * k;
        result.labels[i] = static_cast<int32_t>(std::max_element(row, row + k) - row);
        for (int64_t c = 0; c < k; ++c) row[c] = std::exp(row[c]);
    }
    // A rank of a sharded fit keeps only its labels, as gmm does (its rows
    // are not the caller's slice: it holds whole chunks).
    if (ranks.single()) result.set_array("memberships", n, k, logp);
    if (rbf) {
        // W acts on [phi(x), 1]; predict rebuilds phi from these arrays.
        result.set_array("weights", k, cols, w);
        result.set_array("basis", basis.m, d, basis.points);
        result.set_array("feature_mean", 1, d, input.mean);
        result.set_array("feature_scale", 1, d, input.scale);
        result.set_array("gamma", 1, 1, std::vector<double>{basis.gamma});
    } else {
        result.set_array("weights", k, d + 1, raw_feature_weights(input, w, k));
    }
    result.set_array("objective_trace", static_cast<int64_t>(trace.size()), 1, trace);
    return result;
}

void predict_dcrc(const PredictContext &ctx, int32_t *labels) {
    // Shapes checked: a loaded model file may be corrupt or crafted.
    const int64_t d = ctx.data.d();
    if (ctx.options.get_choice("kernel") == "rbf") {
        KernelBasis basis;
        const NamedArray &b = ctx.model.get("basis", -1, d);
        const NamedArray &w = ctx.model.get("weights", -1, b.rows + 1);
        basis.m = b.rows;
        basis.d = b.cols;
        basis.points = b.values;
        basis.gamma = ctx.model.get("gamma", 1, 1).values.at(0);
        predict_kernel_classes(ctx.data, ctx.model.get("feature_mean", 1, d).values.data(),
                                     ctx.model.get("feature_scale", 1, d).values.data(), basis, w.values.data(), w.rows,
                                     labels);
        return;
    }
    const NamedArray &w = ctx.model.get("weights", -1, d + 1);
    predict_classes(ctx.data, w.values.data(), w.rows, labels);
}

OptionTable dcrc_options() {
    return with_common_options({
        OptionSpec::clusters(8, "number of clusters K (at least 2)", 2),
        OptionSpec::real("epsilon", 0.05, 0.0, 2.0 / 3.0,
                         "answer noise of Table I; 0 = hard constraints (eq. 14); 2/3 and above would ignore or invert them")
            .open_high(),
        OptionSpec::real("tau", 1.0, 0.0, kInf, "weight of the entropy terms (cluster separation and balance)").open_high(),
        OptionSpec::real("lambda", 0.015625, 0.0, kInf, "L2 penalty on W without the biases").open_high(),
        OptionSpec::boolean("balance", true, "maximise the entropy of the cluster marginal too (objective 9 instead of 8)"),
        // The common option, on by default here: the paper's features are scaled.
        OptionSpec::boolean("standardize", true,
                            "z-score each feature before the fit (a constant feature becomes 0); the model keeps the "
                            "scaling and predict applies it"),
        OptionSpec::max_iterations(100, "maximum EM iterations"),
        OptionSpec::tolerance(1e-5, "stop when the lower bound (10) changes by less than tol x max(1, abs(bound))"),
        OptionSpec::integer("mf_max_iter", 100, 1, 100000000, "maximum mean-field sweeps per E-step"),
        OptionSpec::real("mf_tol", 1e-6, 0.0, kInf, "stop the mean field when no q changes by more than this in a sweep"),
        OptionSpec::integer("lbfgs_max_iter", 100, 1, 100000000, "maximum L-BFGS iterations per M-step"),
        OptionSpec::integer("init_restarts", 10, 1, 100000, "k-means++ restarts of the k-means initialisation"),
        OptionSpec::choice("kernel", "linear", "linear|rbf",
                           "linear: the model of eq. 6 on x; rbf: on the features exp(-gamma dist(x, b)^2) for kernel_basis points b of the data"),
        OptionSpec::real("gamma", 0.0, 0.0, kInf, "RBF width on the standardised features; 0 = 1 / d").open_high(),
        OptionSpec::integer("kernel_basis", 300, 1, 100000, "number of basis points of the rbf kernel (memory n x kernel_basis)"),
    });
}

}  // namespace
}  // namespace dcrc

const AlgorithmSpec &dcrc_spec() {
    static const AlgorithmSpec spec{"dcrc",
                                    "discriminative clustering with relative constraints (triplets with yes / no / don't know)",
                                    KINDRED_USES_TRIPLETS | KINDRED_USES_SHARDS, dcrc::dcrc_options(),
                                    dcrc::fit_dcrc, dcrc::predict_dcrc};
    return spec;
}

}  // namespace kindred
