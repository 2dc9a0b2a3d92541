#include "algorithms/tcs/gamma_selection.hpp"

#include <cmath>

#include "algorithms/tcs/transform.hpp"
#include "core/error.hpp"
#include "eval/metrics.hpp"

namespace kindred {
namespace tcs {

namespace {

void append_gamma_options(OptionTable &t) {
    t.push_back(OptionSpec::integer("validation_classes", 0, 0, INT32_MAX,
                                    "choose gamma on a grid: hold out this many labelled classes and keep the gamma whose "
                                    "clustering of them has the best NMI (0: use gamma as given)"));
    t.push_back(OptionSpec::real("gamma_min", 1e-5, 0, kInf, "smallest gamma of the selection grid").open_low());
    t.push_back(OptionSpec::real("gamma_max", 10, 0, kInf, "largest gamma of the selection grid").open_low());
    t.push_back(OptionSpec::integer("gamma_grid", 7, 1, 1000, "number of log-spaced gammas in the selection grid"));
}

}  // namespace

OptionTable tcs_options(const OptionTable &own) {
    OptionTable t;
    append_mixture_options(t);
    for (const OptionSpec &spec : own) {
        t.push_back(spec);
        if (spec.name == "gamma") append_gamma_options(t);
    }
    t.push_back(OptionSpec::boolean("learn_transform", true,
                                    "learn the transformation; false keeps it the identity (the unsupervised mixture "
                                    "baseline on the same data)"));
    append_reduction_options(t);
    append_common_options(t);
    return t;
}

std::vector<double> GammaChoice::table() const {
    std::vector<double> out;
    for (size_t g = 0; g < grid.size(); ++g) {
        out.push_back(grid[g]);
        out.push_back(nmi[g]);
    }
    return out;
}

GammaChoice select_gamma(const char *algorithm, const WorkingData &w, const LabelledClasses &cls,
                         const OptionValues &o, bool normalise, const GammaLearner &learner,
                         const GammaClusterer &clusterer) {
    const int64_t n_val = o.get_int("validation_classes"), big_k = cls.k();
    if (n_val < 2 || big_k - n_val < 2)
        fail(KINDRED_E_INVALID, algorithm, ": validation_classes = ", n_val, " with ", big_k,
             " labelled classes; gamma selection needs at least 2 held-out and 2 remaining labelled classes");
    const double lo = o.get_double("gamma_min"), hi = o.get_double("gamma_max");
    if (lo > hi) fail(KINDRED_E_INVALID, algorithm, ": gamma_min = ", lo, " is larger than gamma_max = ", hi);
    const int64_t size = o.get_int("gamma_grid");

    // Which classes are held out: a random subset, from its own stream of the seed.
    Rng rng = Rng(static_cast<uint64_t>(o.get_int("seed"))).derive(0x9a3ull);
    std::vector<int32_t> order(static_cast<size_t>(big_k));
    for (int64_t c = 0; c < big_k; ++c) order[c] = static_cast<int32_t>(c);
    rng.shuffle(order);
    const std::vector<int32_t> val_classes(order.begin(), order.begin() + n_val);
    const std::vector<int32_t> train_classes(order.begin() + n_val, order.end());
    const LabelledClasses train = subset_classes(cls, train_classes);
    const LabelledClasses val = subset_classes(cls, val_classes);
    const std::vector<double> xv = gather_rows(w, val.labelled);
    const int64_t nv = static_cast<int64_t>(val.labelled.size());

    GammaChoice choice;
    choice.grid.resize(static_cast<size_t>(size));
    choice.nmi.resize(static_cast<size_t>(size));
    for (int64_t g = 0; g < size; ++g)
        choice.grid[g] = size == 1 ? lo : lo * std::pow(hi / lo, static_cast<double>(g) / (size - 1));
    // From the largest gamma down (a continuation for warm-starting learners);
    // a tie keeps the larger gamma, the one met first.
    double best = -1.0;
    std::vector<double> state;
    for (int64_t g = size - 1; g >= 0; --g) {
        const double gamma = choice.grid[g];
        const std::vector<double> l = learner(train, gamma, state);
        const std::vector<double> z = apply_linear(xv, nv, w.d, l, normalise);
        const std::vector<int32_t> labels = clusterer(z, nv, n_val);
        const double score = eval::nmi(eval::contingency(val.class_of.data(), labels.data(), nv));
        choice.nmi[g] = score;
        if (score > best) {
            best = score;
            choice.gamma = gamma;
            choice.state = state;
        }
    }
    return choice;
}

double fit_gamma(const char *algorithm, const FitContext &ctx, const WorkingData &w, const LabelledClasses &cls,
                 bool normalise, const GammaLearner &learner, MixtureFn mixture, FitResult &r,
                 std::vector<double> *state) {
    const OptionValues &o = ctx.options;
    double gamma = o.get_double("gamma");
    if (o.get_int("validation_classes") > 0 && o.get_bool("learn_transform")) {
        const GammaClusterer clusterer = [&](const std::vector<double> &z, int64_t n, int64_t k) {
            // The held-out labelled points, the same on every rank of a sharded fit: one process's mixture.
            return mixture(z, n, w.d, mixture_settings(o, k), ctx, nullptr).labels;
        };
        const GammaChoice choice = select_gamma(algorithm, w, cls, o, normalise, learner, clusterer);
        gamma = choice.gamma;
        if (state) *state = choice.state;
        r.set_array("gamma_scores", static_cast<int64_t>(choice.grid.size()), 2, choice.table());
    }
    r.set_array("gamma", 1, 1, {gamma});
    return gamma;
}

}  // namespace tcs
}  // namespace kindred
