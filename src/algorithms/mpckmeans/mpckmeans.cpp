// mpckmeans: HMRF-KMeans with learned distortions (Basu, Bilenko, Banerjee &
// Mooney; MPCK-means of Bilenko et al. 2004 with one metric for all
// clusters). The switches 'constraints', 'learn_metric' and 'prior' give the
// ablations of section 3.5.3: all on = KMEANS-C-D-R, prior off = KMEANS-C-D,
// learn_metric off = KMEANS-C, constraints and learn_metric off = KMEANS.
#include "algorithms/mpckmeans/hmrf.hpp"
#include "core/error.hpp"

namespace kindred {
namespace {

FitResult fit_mpckmeans(const FitContext &ctx) {
    const OptionValues &o = ctx.options;
    hmrf::Config cfg;
    cfg.name = "mpckmeans";
    cfg.k = o.get_int("k");
    // distortion = auto: euclidean-diag, or euclidean-full when the
    // cross-validation over the pairs prefers it (tuning.cpp). A deviation
    // from the paper, which fixes the distortion per experiment; every
    // distortion stays reachable by name. Sparse (CSR) data is refused as
    // with euclidean-diag, with a message that names cosine and idiv: which
    // of the two fits a corpus is the user's choice (cosine is undefined on
    // empty rows, idiv on negative values).
    const std::string distortion = o.get_choice("distortion");
    const bool automatic = distortion == "auto";
    cfg.kind = automatic ? divergence::DistortionKind::EuclideanDiag : divergence::distortion_kind(distortion);
    cfg.use_constraints = o.get_bool("constraints");
    cfg.learn_metric = o.get_bool("learn_metric");
    cfg.use_prior = o.get_bool("prior");
    cfg.rayleigh_s = o.get_double("rayleigh_s");
    const bool euclidean = cfg.kind == divergence::DistortionKind::EuclideanFull ||
                           cfg.kind == divergence::DistortionKind::EuclideanDiag;
    cfg.closed_form = euclidean && o.get_choice("metric_update") == "closed-form";
    if (o.is_set("learning_rate"))
        cfg.learning_rate = o.get_double("learning_rate");
    else if (cfg.kind == divergence::DistortionKind::Cosine)
        cfg.learning_rate = 100.0;  // section 3.5.3
    else if (cfg.kind == divergence::DistortionKind::IDivergence)
        cfg.learning_rate = 0.08;   // section 3.5.3
    else
        cfg.learning_rate = 0.0;    // automatic: first step changes |A| by 10%
    cfg.phi_max = o.get_choice("phi_max") == "sum" ? divergence::PhiMaxRule::Sum : divergence::PhiMaxRule::Max;
    cfg.smoothing = o.get_double("smoothing");
    cfg.eig_floor = o.get_double("eig_floor");
    if (o.is_set("constraint_weight")) cfg.constraint_weight = o.get_double("constraint_weight");
    cfg.init_perturb = o.get_choice("init") == "perturb";
    cfg.metric_init_global = o.get_choice("metric_init") == "global";
    cfg.max_iter = o.get_int("max_iter");
    cfg.icm_max_sweeps = o.get_int("icm_max_sweeps");
    cfg.tol = o.get_double("tol");
    // Without the constraints' terms in the metric update, the potentials
    // are constant too (a violated pair costs its weight, as in PCKMeans), so
    // that every step still decreases J_obj.
    cfg.metric_from_constraints = o.get_bool("metric_constraints");
    if (!cfg.metric_from_constraints) cfg.constant_potential = true;
    bool tune_propagation = false;
    hmrf::read_propagation_options(o, cfg, tune_propagation);
    if (!o.is_set("constraint_weight")) cfg.constraint_weight = 1.0;  // the default when not tuned
    // A full A is tried only where it is well posed and affordable: its
    // closed form inverts the d x d scatter, which needs d(d+1)/2 <= n
    // points to be estimable (below that the eigenvalue floor decides A),
    // and it costs O(n d^2 + d^3) per iteration against the distances'
    // O(n k d): at most 10 times as much with d <= 10 k.
    const int64_t d = ctx.data.d(), n = ctx.collective ? ctx.collective->n_total() : ctx.data.n();
    cfg.choose_full = automatic && ctx.data.is_dense() && cfg.learn_metric && cfg.use_constraints &&
                      d * (d + 1) / 2 <= n && d <= 10 * cfg.k;
    FitResult r = hmrf::fit_hmrf_cleaned(ctx, cfg, !o.is_set("constraint_weight"), tune_propagation);
    if (automatic && !r.find("chosen_distortion")) r.set_array("chosen_distortion", 1, 1, {hmrf::distortion_code(cfg.kind)});
    return r;
}

OptionTable mpckmeans_options() {
    OptionTable t = {
        OptionSpec::clusters(8, "number of clusters"),
        OptionSpec::choice("distortion", "auto", "auto|euclidean-diag|euclidean-full|cosine|idiv",
                           "learned distortion: Mahalanobis with full PSD A (3.15), diagonal weights, weighted cosine (3.17) "
                           "or weighted I-divergence (3.19); cosine and idiv accept CSR data; auto: euclidean-diag, or "
                           "euclidean-full when cross-validation over the pairs prefers it (tried when d(d+1)/2 <= n and "
                           "d <= 10k)"),
        OptionSpec::boolean("constraints", true, "C: use the pairs in initialisation and ICM assignment"),
        OptionSpec::boolean("learn_metric", true, "D: learn the distortion parameters A (M-step B)"),
        OptionSpec::boolean("prior", true, "R: Rayleigh prior on the parameters (3.10); on the diagonal for a full A"),
        // Above ~1e154, s^2 overflows and the metric update gives NaN; 1e150 is already a flat prior.
        OptionSpec::real("rayleigh_s", 1.0, 0, 1e150, "width s of the Rayleigh prior").open_low(),
        OptionSpec::choice("metric_update", "closed-form", "closed-form|gradient",
                           "Euclidean: closed-form update (Bilenko et al. 2004) or gradient steps (3.25); cosine and idiv "
                           "always use gradient steps (3.28)"),
        OptionSpec::real("learning_rate", 0.0, 0, kInf,
                         "first gradient step eta (then adapted); unset = 100 for cosine, 0.08 for idiv (section 3.5.3), "
                         "a 10% change of |A| for Euclidean").open_low().unset(),
        OptionSpec::choice("phi_max", "max", "max|sum",
                           "Euclidean phi_max: the largest cannot-linked d_A, or their sum (section 3.3.3.1)"),
        OptionSpec::real("smoothing", 0.01, 0, kInf, "idiv: centroid smoothing alpha of (3.23)").open_high().open_low(),
        OptionSpec::real("eig_floor", 1e-6, 0, 1, "floor on the eigenvalues of A (weights) relative to their mean").open_low(),
        OptionSpec::real("constraint_weight", 1.0, 0, kInf,
                         "multiplies every pair weight |value| (in the unit of weight_unit); unset = chosen by "
                         "cross-validation over the pairs (1 with fewer than 10 pairs)").open_high().unset(),
        OptionSpec::choice("init", "kmeans++", "kmeans++|perturb",
                           "the centres not given by must-link neighbourhoods: k-means++ (D^2) sampling, or random "
                           "perturbations of the global centroid (section 3.3.5)"),
        OptionSpec::choice("metric_init", "global", "global|identity",
                           "Euclidean with learn_metric: start from A = n S^{-1} (S: scatter about the global mean; the "
                           "variance scaling of section 3.5.4) or from A = I"),
        OptionSpec::max_iterations(100, "maximum E/M iterations"),
        OptionSpec::integer("icm_max_sweeps", 100, 1, 100000000, "maximum ICM sweeps per E-step"),
        OptionSpec::tolerance(1e-6, "stop when no point moves and J changes by less than tol x |J|"),
        OptionSpec::boolean("metric_constraints", false,
                            "point-wise fits (propagation off): the violated pairs enter the metric update and their "
                            "penalties scale with the learned distortion (the paper, 3.13, 3.25); false: each costs "
                            "its weight and A is learned from the clusters, so wrong answers cannot drag the metric"),
    };
    hmrf::append_propagation_options(t);
    append_common_options(t);
    return t;
}

}  // namespace

const AlgorithmSpec &mpckmeans_spec() {
    static const AlgorithmSpec spec{"mpckmeans",
                                    "HMRF-KMeans / MPCK-means: soft pairwise constraints with a learned distortion (Basu et al.)",
                                    KINDRED_USES_PAIRS | KINDRED_USES_SPARSE | KINDRED_USES_SHARDS,
                                    mpckmeans_options(), fit_mpckmeans, hmrf::predict_hmrf};
    return spec;
}

}  // namespace kindred
