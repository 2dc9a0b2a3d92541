// TCS-VM: transformation-based clustering with supervision, von Mises-Fisher
// mixtures (Gopal & Yang 2014, section 3.2, Algorithm 2). G(x) = L x / |L x|;
// L and the mean directions mu_k of the labelled classes are learned by
// alternating the closed-form mu_k update with an L-BFGS minimisation of the
// negative conditional log-likelihood of the labels in L (liblbfgs, the
// library DCRC already links); the unlabelled points are then mapped by G and
// clustered by a vMF mixture with one shared concentration. Dense and CSR input
// (CSR is densified, or reduced by SVD when d > svd_threshold).
#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/tcs/gamma_selection.hpp"
#include "algorithms/tcs/known_and_new_clusters.hpp"
#include "algorithms/tcs/mixtures.hpp"
#include "algorithms/tcs/transform.hpp"
#include "algorithms/tcs/vmf_objective.hpp"
#include "algorithms/tcs/working_data.hpp"
#include "core/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/lbfgs_minimize.hpp"

namespace kindred {
namespace tcs {
namespace {

const char *const kName = "tcs-vmf";

struct Learned {
    std::vector<double> l, mu;
    double objective = 0.0, kappa = 0.0;
    int64_t iterations = 0;
    bool converged = true;
    std::vector<double> trace;
};

Learned learn(const WorkingData &w, const LabelledClasses &cls, const OptionValues &o, double gamma,
              const Progress *progress) {
    const int64_t p = w.d;
    Learned out;
    out.l.assign(static_cast<size_t>(p * p), 0.0);
    for (int64_t j = 0; j < p; ++j) out.l[j * p + j] = 1.0;
    const std::vector<double> x = gather_rows(w, cls.labelled);
    VmfObjective objective(x.data(), static_cast<int64_t>(cls.labelled.size()), p, cls.class_of.data(), cls.k(), gamma);
    if (!o.get_bool("learn_transform")) {
        objective.update_means(out.l.data());
        out.mu = objective.means();
        out.kappa = objective.kappa();
        out.objective = objective.value_grad(out.l.data(), nullptr);
        return out;
    }
    const int64_t alternations = o.get_int("alternations");
    const double tol = o.get_double("tol");
    const int nvar = linalg::blas_int(p * p, "tcs-vmf: number of entries of L");
    const linalg::ObjectiveFn phi_and_grad = [&](const double *l, double *g) { return objective.value_grad(l, g); };
    out.converged = false;
    double previous = std::numeric_limits<double>::infinity();
    for (int64_t t = 1; t <= alternations; ++t) {
        objective.update_means(out.l.data());  // Algorithm 2, line 4
        linalg::lbfgs_minimize(nvar, out.l.data(), o.get_int("lbfgs_max_iter"), phi_and_grad, kName);  // line 5
        const double phi = objective.value_grad(out.l.data(), nullptr);
        out.trace.push_back(phi);
        out.iterations = t;
        if (progress) progress->report(t, phi, "tcs-vmf: alternation (mean directions, then L by L-BFGS)");
        if (std::fabs(previous - phi) <= tol * std::max(1.0, std::fabs(phi))) {
            out.converged = true;
            break;
        }
        previous = phi;
    }
    for (double v : out.l)
        if (!std::isfinite(v)) fail(KINDRED_E_NUMERICAL, "tcs-vmf: the learned transformation is not finite; raise gamma");
    objective.update_means(out.l.data());
    out.mu = objective.means();
    out.kappa = objective.kappa();
    out.objective = out.trace.empty() ? objective.value_grad(out.l.data(), nullptr) : out.trace.back();
    return out;
}

FitResult fit_tcs_vmf(const FitContext &ctx) {
    const OptionValues &o = ctx.options;
    const FitInputs in = read_fit_inputs(ctx, kName);
    const int64_t p = in.w.d;

    FitResult r;
    // No warm start: the problem in L is not convex, every gamma starts at L = I.
    const GammaLearner learner = [&](const LabelledClasses &train, double g, std::vector<double> &) {
        return learn(in.known.w, train, o, g, nullptr).l;
    };
    Learned learned;
    // Every rank computes these alone (no collective call inside): agree()
    // turns a failure or a cancel on one rank into the same error on all.
    in.ranks.agree([&] {
        const double gamma = fit_gamma(kName, ctx, in.known.w, in.known.cls, true, learner, vmf_mixture, r);
        learned = learn(in.known.w, in.known.cls, o, gamma, &ctx.progress);
    });
    const std::vector<double> z = apply_linear(in.w.x, in.w.n, p, learned.l, true);
    // The labelled classes' mean directions, then the vMF mixture's on the unlabelled points.
    cluster_known_and_new(ctx, in.cls, z, in.w.n, p, in.k, learned.mu, vmf_mixture, in.ranks, r);
    // A = L^T L, for symmetry with tcs-gm (the vMF model sees only directions of L x).
    std::vector<double> a(static_cast<size_t>(p * p));
    linalg::gemm(true, false, p, p, p, 1.0, learned.l.data(), p, learned.l.data(), p, 0.0, a.data(), p);
    r.iterations = learned.iterations;
    r.converged = learned.converged;
    r.objective = learned.objective;
    r.set_array("transform", p, p, learned.l);
    r.set_array("metric", p, p, a);
    r.set_array("kappa", 1, 1, {learned.kappa});
    if (!in.w.basis.empty()) r.set_array("svd_basis", in.w.original_d, p, in.w.basis);
    r.set_array("objective_trace", static_cast<int64_t>(learned.trace.size()), 1, learned.trace);
    return r;
}

OptionTable tcs_vmf_options() {
    return tcs_options({
        OptionSpec::real("gamma", 0.01, 0, kInf, "weight gamma of ||L - I||_F^2 (the loss is a mean over labelled points)").open_high(),
        OptionSpec::integer("alternations", 10, 1, 100000, "alternations of Algorithm 2 (mean directions, then L)"),
        OptionSpec::integer("lbfgs_max_iter", 50, 1, 100000000, "maximum L-BFGS iterations per L-step"),
        OptionSpec::tolerance(1e-6, "stop alternating when the objective changes by less than tol * max(1, |phi|)"),
    });
}

}  // namespace
}  // namespace tcs

const AlgorithmSpec &tcs_vmf_spec() {
    static const AlgorithmSpec spec = tcs::tcs_spec(
        "tcs-vmf", "TCS-VM: learn L with G(x) = Lx/|Lx| from a few labelled clusters, then a von Mises-Fisher mixture (Gopal & Yang 2014)",
        tcs::tcs_vmf_options(), tcs::fit_tcs_vmf, true);
    return spec;
}

}  // namespace kindred
