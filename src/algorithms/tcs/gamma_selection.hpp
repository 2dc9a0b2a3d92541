// Choice of gamma by the protocol of Gopal & Yang 2014 (section 4.3): some of
// the labelled classes are held out as validation; for each gamma of a
// log-spaced grid the transformation is learned on the remaining labelled
// classes, the held-out points are transformed and clustered (k = number of
// held-out classes), and the gamma whose clustering has the highest NMI
// against the held-out labels wins (ties: the larger gamma). The grid is
// walked from the largest gamma down, so that a learner can warm-start each
// solve from the previous solution.
#ifndef KINDRED_ALGORITHMS_TCS_GAMMA_SELECTION_HPP
#define KINDRED_ALGORITHMS_TCS_GAMMA_SELECTION_HPP

#include <cstdint>
#include <functional>
#include <vector>

#include "algorithms/tcs/mixtures.hpp"
#include "algorithms/tcs/working_data.hpp"

namespace kindred {
namespace tcs {

// The option table of a TCS method: the mixture's options, then `own` (its
// learning options) with the grid's options right after its "gamma", then
// learn_transform, the SVD reduction and the common options.
OptionTable tcs_options(const OptionTable &own);

// L (p x p) learned from the labelled classes `train` with weight gamma.
// `state` carries a warm start along the grid: empty at the first (largest)
// gamma; a learner may read it as its starting point and leave its solution in
// it for the next, smaller gamma (tcs-gm: A, a continuation on a convex
// problem), or ignore it (tcs-vmf, whose non-convex problem starts at L = I).
using GammaLearner =
    std::function<std::vector<double>(const LabelledClasses &train, double gamma, std::vector<double> &state)>;
// Labels in [0, k) of n points z (n x p).
using GammaClusterer = std::function<std::vector<int32_t>(const std::vector<double> &z, int64_t n, int64_t k)>;

struct GammaChoice {
    double gamma = 0.0;
    std::vector<double> state;  // the learner's state at the chosen gamma
    std::vector<double> grid, nmi;  // ascending gamma
    std::vector<double> table() const;  // rows (gamma, nmi)
};

GammaChoice select_gamma(const char *algorithm, const WorkingData &w, const LabelledClasses &cls,
                         const OptionValues &o, bool normalise, const GammaLearner &learner,
                         const GammaClusterer &clusterer);

// The gamma a fit uses: the "gamma" option, or, when validation_classes > 0
// and the transformation is learned, the grid's choice with the held-out
// classes clustered by `mixture`. Records "gamma" (and "gamma_scores") in r.
// state: the learner's state at the chosen gamma (empty without a grid).
double fit_gamma(const char *algorithm, const FitContext &ctx, const WorkingData &w, const LabelledClasses &cls,
                 bool normalise, const GammaLearner &learner, MixtureFn mixture, FitResult &r,
                 std::vector<double> *state = nullptr);

}  // namespace tcs
}  // namespace kindred

#endif
