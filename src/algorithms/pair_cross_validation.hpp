// Hyperparameters chosen from the side information itself: held-out pairs
// are the only ground truth a user has, so a candidate value is scored by
// how well a fit on the other pairs predicts them (cross-validation over
// pairs, as the DCRC paper does over triplets for its tau and lambda). The
// labels of the points are never looked at.
//
// Cost: candidates x folds fits, then the final fit; each is reported
// through the progress callback (so a fit can be cancelled while tuning).
#ifndef KINDRED_ALGORITHMS_PAIR_CROSS_VALIDATION_HPP
#define KINDRED_ALGORITHMS_PAIR_CROSS_VALIDATION_HPP

#include <functional>
#include <string>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace kindred {

// Fewer pairs than this: no tuning, the documented defaults are used (and
// the log says so).
constexpr int64_t kMinPairsToTune = 10;
constexpr int kPairFolds = 3;

// How well labels satisfy pairs (a must-link inside one cluster, a
// cannot-link across two): the mean of the weighted fractions of must-links
// and of cannot-links satisfied (balanced, so that with many classes, where
// most random pairs are cannot-links, more clusters do not win by
// satisfying them alone); the one fraction when only one kind is present,
// 1 when there are no pairs.
double pair_agreement(const std::vector<Pair> &pairs, const std::vector<int32_t> &labels);

// The pairs that labels satisfy (a must-link inside one cluster, a
// cannot-link across two), in their order. labels: a fit's labels, in a
// sharded fit (ranks of several processes) this rank's rows only; the
// labels of the pairs' ends are then gathered from the ranks, so every rank
// returns the same pairs.
std::vector<Pair> pairs_satisfied(const Collective &ranks, const std::vector<int32_t> &labels,
                                  const std::vector<Pair> &pairs);

// The index of the best of `candidates` values by mean held-out agreement
// over kPairFolds folds of the pairs (ties: the smaller index). fit(ctx,
// c) fits candidate c on the context's side information (a fold's
// training pairs) and returns the labels (in a sharded fit, ctx.collective
// set: this rank's rows' labels; the held-out pairs' ends are gathered from
// the ranks, and every rank returns the index one process would). Needs
// ctx.side with at least kMinPairsToTune pairs. what: named in progress and log messages.
// calibrated_within_se: the choice among the candidates within one
// standard error of the best is calibrated_choice's (edge: as there).
// scores / standard_errors (when given): each candidate's mean held-out
// agreement and its standard error over the folds.
int64_t choose_by_pair_cv(const FitContext &ctx, int64_t candidates,
                          const std::function<std::vector<int32_t>(const FitContext &, int64_t)> &fit,
                          const std::function<std::string(int64_t)> &describe, const char *what,
                          bool calibrated_within_se = false, std::vector<double> *scores = nullptr,
                          std::vector<double> *standard_errors = nullptr, int64_t edge = 0);

// The choice of choose_by_pair_cv among candidates that differ in how
// many clusters they make, from each candidate's mean held-out agreement
// (score), the mean of its square over the folds (square), the mean share
// (by weight) of held-out pairs its fits put in one cluster (together),
// and the share of must-links among the held-out pairs (must_share):
// - the candidates before `edge` take part only when the score is still
//   rising there (the candidate at index edge scores above every later
//   one); the others always;
// - of those taking part, the ones within one standard error (over the
//   folds) of the best score;
// - when these all score exactly the best (a flat top), the middle one;
// - when the held-out pairs are all must-links or all cannot-links
//   (must_share 1 or 0: pairs chosen by kind), the first of them (the
//   simplest, when candidates are ordered from the fewest clusters up);
// - otherwise the one whose `together` is closest in ratio to must_share
//   (calibration: a random pair is a must-link with the probability that
//   two random points share a class, and a clustering like the classes
//   puts that share of random pairs together); ties: the smaller index.
int64_t calibrated_choice(const std::vector<double> &score, const std::vector<double> &square,
                          const std::vector<double> &together, double must_share, int64_t edge);

// The grid from the reach (the largest divergence of a point from the mean,
// where Algorithm 1 keeps one cluster) down to 1/45 of it.
constexpr int kLambdaCandidates = 12;
// The grid of the dsquared start (dp_seed_centers), from the potential of
// one centre at the mean (where one centre is certain) down to 1/181 of it
// (a centre's gain falls as the clusters multiply; on the data sets of
// docs/quality.md the choice lies inside the grid, at 2-26 clusters).
constexpr int kSeededLambdaCandidates = 16;

// The lambdas a fit of dpmeans / rdpmeans tries when the user left lambda
// and k unset: lambda_j = top x 2^(-j/2), j = -above .. count - 1.
// top(ranks): the value for all the points (the same on every rank).
// above > 0: the values beyond top count only while the score still rises
// there (calibrated_choice's `edge`). init: the value of the option "init"
// for these fits (null: as given). then: an option chosen after lambda,
// lambda fixed, among then_values(ranks) by choose_by_pair_cv (the same
// folds; ties: the first value), unless the user set it (null: none).
struct LambdaGrid {
    std::function<double(const Collective &)> top;
    int above = 0;
    int count = kLambdaCandidates;
    const char *init = nullptr;
    const char *then = nullptr;
    std::function<std::vector<double>(const Collective &)> then_values;
};

// A fit of dpmeans / rdpmeans whose lambda and k the user left unset:
// lambda chosen by choose_by_pair_cv (calibrated_within_se) on the grid,
// then grid.then's value if any, then the final fit with them; results
// "chosen_lambda" (and "chosen_" + grid.then). In a sharded fit
// (ctx.collective set) every fit runs on the ranks. Fewer than
// kMinPairsToTune pairs, or a top that is not positive: an error that says
// what to set. With lambda or k set: fit(ctx), the grid unused.
FitResult fit_choosing_lambda(const FitContext &ctx, FitResult (*fit)(const FitContext &), const LambdaGrid &grid,
                              const char *what);

}  // namespace kindred

#endif
