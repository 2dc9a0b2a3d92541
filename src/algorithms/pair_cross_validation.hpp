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
// simplest_within_se: candidates are ordered from the simplest (fewest
// clusters) up, and the first whose mean is within one standard error (over
// the folds) of the best mean is chosen (the one-standard-error rule: a
// more complex model must predict clearly better); when those candidates
// all score exactly the best, the middle one of them. scores /
// standard_errors (when given): each candidate's mean held-out agreement and
// its standard error over the folds.
int64_t choose_by_pair_cv(const FitContext &ctx, int64_t candidates,
                          const std::function<std::vector<int32_t>(const FitContext &, int64_t)> &fit,
                          const std::function<std::string(int64_t)> &describe, const char *what,
                          bool simplest_within_se = false, std::vector<double> *scores = nullptr,
                          std::vector<double> *standard_errors = nullptr);

// A fit of dpmeans / rdpmeans whose lambda and k the user left unset:
// lambda chosen by choose_by_pair_cv (one-standard-error rule, fewest
// clusters first) among lambda_j = reach x 2^(-j/2), j = 0 .. 11, where
// reach is the largest divergence of a point from the global mean (with
// lambda = reach, one cluster holds every point; the grid goes down to 1/45
// of it); then the final fit; result "chosen_lambda". In a sharded fit
// (ctx.collective set) reach is that of all the ranks' points and every fit
// runs on the ranks. Fewer than kMinPairsToTune pairs: an error that says what to set.
// reach_here(ranks): the largest divergence of this rank's points (of all
// of them in one process) from the mean of all. With lambda or k set: fit(ctx).
constexpr int kLambdaCandidates = 12;
FitResult fit_choosing_lambda(const FitContext &ctx, FitResult (*fit)(const FitContext &),
                              const std::function<double(const Collective &)> &reach_here, const char *what);

}  // namespace kindred

#endif
