// PCKMeans (Basu, Banerjee & Mooney 2004): k-means with soft pairwise
// constraints, J = sum |x_i - mu(i)|^2 + sum over violated must-links of w_ij
// + sum over violated cannot-links of w_ij, w_ij = penalty x |value|.
// It is HMRF-KMeans (Basu et al., 3.14) with A = I fixed and constant
// potentials, so it shares that engine: must-link neighbourhood
// initialisation (3.3.5), ICM assignment (3.22), mean centroids.
#include "algorithms/centroid/steps.hpp"
#include "algorithms/mpckmeans/hmrf.hpp"
#include "core/error.hpp"

namespace kindred {
namespace {

FitResult fit_pckmeans(const FitContext &ctx) {
    const OptionValues &o = ctx.options;
    if (!ctx.data.is_dense())
        fail(KINDRED_E_INVALID, "pckmeans: needs dense data (squared Euclidean distance); for sparse (CSR) data use "
                                "mpckmeans with distortion 'cosine' or 'idiv'");
    hmrf::Config cfg;
    cfg.name = "pckmeans";
    cfg.weight_option = "penalty";
    cfg.k = o.get_int("k");
    cfg.kind = divergence::DistortionKind::EuclideanDiag;  // with A = I: plain squared Euclidean
    cfg.use_constraints = true;
    cfg.learn_metric = false;
    cfg.use_prior = false;
    cfg.constant_potential = true;
    if (o.is_set("penalty")) cfg.constraint_weight = o.get_double("penalty");
    cfg.init_perturb = o.get_choice("init") == "perturb";
    cfg.max_iter = o.get_int("max_iter");
    cfg.icm_max_sweeps = o.get_int("icm_max_sweeps");
    cfg.tol = 0.0;
    bool tune_propagation = false;
    hmrf::read_propagation_options(o, cfg, tune_propagation);
    if (!o.is_set("penalty")) cfg.constraint_weight = 1.0;  // the default when not tuned
    return hmrf::fit_hmrf_cleaned(ctx, cfg, !o.is_set("penalty"), tune_propagation);
}

OptionTable pckmeans_options() {
    OptionTable t = {
        OptionSpec::clusters(8, "number of clusters"),
        OptionSpec::real("penalty", 1.0, 0, kInf,
                         "global multiplier of the pair weights: a violated pair costs penalty x |value| (in the unit "
                         "of weight_unit); unset = chosen by cross-validation over the pairs (see weight_unit "
                         "and propagation; 1 with fewer than 10 pairs)").open_high().unset(),
        OptionSpec::choice("init", "kmeans++", "kmeans++|perturb",
                           "centres not given by must-link neighbourhoods: k-means++ sampling or perturbed global mean"),
        OptionSpec::max_iterations(100, "maximum E/M iterations"),
        OptionSpec::integer("icm_max_sweeps", 100, 1, 100000000, "maximum ICM sweeps per E-step"),
    };
    hmrf::append_propagation_options(t);
    append_common_options(t);
    return t;
}

}  // namespace

const AlgorithmSpec &pckmeans_spec() {
    static const AlgorithmSpec spec{"pckmeans",
                                    "PCKMeans: k-means with soft must-link / cannot-link penalties (Basu et al. 2004)",
                                    KINDRED_USES_PAIRS | KINDRED_USES_SHARDS, pckmeans_options(), fit_pckmeans,
                                    predict_nearest_center};
    return spec;
}

}  // namespace kindred
