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

// The weighted fraction of pairs the labels satisfy (a must-link inside one
// cluster, a cannot-link across two); 1 when there are no pairs.
double pair_agreement(const std::vector<Pair> &pairs, const std::vector<int32_t> &labels);

// The index of the best of `candidates` values by mean held-out agreement
// over kPairFolds folds of the pairs (ties: the smaller index). fit(ctx,
// c) fits candidate c on the context's side information (a fold's
// training pairs) and returns the labels. Needs ctx.side with at least
// kMinPairsToTune pairs. what: named in progress and log messages.
int64_t choose_by_pair_cv(const FitContext &ctx, int64_t candidates,
                          const std::function<std::vector<int32_t>(const FitContext &, int64_t)> &fit,
                          const std::function<std::string(int64_t)> &describe, const char *what);

}  // namespace kindred

#endif
