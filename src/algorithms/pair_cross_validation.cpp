#include "algorithms/pair_cross_validation.hpp"

#include <algorithm>
#include <cmath>

#include "core/collective.hpp"
#include "core/error.hpp"
#include "core/rank_totals.hpp"
#include "core/rng.hpp"

namespace kindred {

namespace {

// The held-out pairs of one fold as the score reads them: their ends (global
// indices, ascending, each once) and the pairs renumbered to positions in
// that list, in the fold's order (the order pair_agreement adds in).
struct HeldOut {
    std::vector<int64_t> ends;
    std::vector<Pair> pairs;
};

HeldOut held_out_by_ends(const std::vector<Pair> &held_out) {
    HeldOut h;
    for (const Pair &p : held_out) {
        h.ends.push_back(p.i);
        h.ends.push_back(p.j);
    }
    std::sort(h.ends.begin(), h.ends.end());
    h.ends.erase(std::unique(h.ends.begin(), h.ends.end()), h.ends.end());
    auto position = [&](int64_t i) {
        return static_cast<int64_t>(std::lower_bound(h.ends.begin(), h.ends.end(), i) - h.ends.begin());
    };
    h.pairs = held_out;
    for (Pair &p : h.pairs) {
        p.i = position(p.i);
        p.j = position(p.j);
    }
    return h;
}

// The labels of the ends, in the order of h.ends. On several ranks a fit
// returns the labels of this rank's rows only, and the ends of held-out
// pairs lie anywhere: each rank sends the labels of the ends it holds
// (Collective::rows, a label as one double, exact), so that every rank
// scores the same labels and chooses the same candidate. In one process,
// the same lookup, so that one code path serves both.
std::vector<int32_t> labels_of_ends(const Collective &ranks, const std::vector<int32_t> &local, const HeldOut &h) {
    std::vector<double> as_double(local.begin(), local.end());
    const DenseView v = DenseView::rows(as_double.data(), static_cast<int64_t>(local.size()), 1);
    const std::vector<double> got = ranks.rows(DataView::dense(v), h.ends);
    return std::vector<int32_t>(got.begin(), got.end());
}

}  // namespace

int64_t calibrated_choice(const std::vector<double> &score, const std::vector<double> &square,
                          const std::vector<double> &together, double must_share, int64_t edge) {
    const int64_t candidates = static_cast<int64_t>(score.size());
    // The candidates before `edge` count only when the score is still rising
    // there: the candidate at the edge scores strictly above every later one.
    bool rising = edge > 0;
    for (int64_t c = edge + 1; c < candidates && rising; ++c) rising = score[c] < score[edge];
    const int64_t first = rising ? 0 : edge;
    int64_t best = first;
    for (int64_t c = first + 1; c < candidates; ++c)
        if (score[c] > score[best]) best = c;
    const double var = std::max(0.0, square[best] - score[best] * score[best]) * kPairFolds / (kPairFolds - 1);
    const double se = std::sqrt(var / kPairFolds);
    std::vector<int64_t> near;
    bool flat = true;
    for (int64_t c = first; c < candidates; ++c)
        if (score[c] >= score[best] - se) {
            near.push_back(c);
            flat = flat && score[c] == score[best];
        }
    // A flat top (every candidate within the error scores the same, e.g.
    // links that decide every held-out pair whatever lambda): the middle of
    // it, the value the fit is least sensitive to.
    if (flat) return near[near.size() / 2];
    // Pairs of one kind only say nothing of how many points share a class
    // (they were chosen by kind, not at random): the simplest candidate,
    // the first (fewest clusters).
    if (!(must_share > 0.0 && must_share < 1.0)) return near.front();
    // Otherwise calibration: a random pair is a must-link with the
    // probability that two random points share a class, and a clustering
    // like the classes puts that share of random pairs together. So among the
    // candidates the error cannot tell apart, the one whose fits put
    // together the share of held-out pairs closest (in ratio) to the share of
    // must-links among them; ties: the earlier.
    auto miss = [&](int64_t c) {
        const double floor = 1e-3;  // a fit that puts no held-out pair together
        return std::fabs(std::log(std::max(together[c], floor) / must_share));
    };
    best = near.front();
    for (int64_t c : near)
        if (miss(c) < miss(best)) best = c;
    return best;
}

double pair_agreement(const std::vector<Pair> &pairs, const std::vector<int32_t> &labels) {
    double agree[2] = {0.0, 0.0}, total[2] = {0.0, 0.0};
    for (const Pair &p : pairs) {
        const int must = p.value > 0;
        const double w = std::fabs(p.value);
        total[must] += w;
        if ((labels[p.i] == labels[p.j]) == (must == 1)) agree[must] += w;
    }
    if (total[0] > 0.0 && total[1] > 0.0) return 0.5 * (agree[0] / total[0] + agree[1] / total[1]);
    if (total[0] > 0.0) return agree[0] / total[0];
    return total[1] > 0.0 ? agree[1] / total[1] : 1.0;
}

std::vector<Pair> pairs_satisfied(const Collective &ranks, const std::vector<int32_t> &labels,
                                  const std::vector<Pair> &pairs) {
    const HeldOut ends = held_out_by_ends(pairs);
    const std::vector<int32_t> at = labels_of_ends(ranks, labels, ends);
    std::vector<Pair> kept;
    for (size_t e = 0; e < pairs.size(); ++e)
        if ((at[ends.pairs[e].i] == at[ends.pairs[e].j]) == (pairs[e].value > 0)) kept.push_back(pairs[e]);
    return kept;
}

int64_t choose_by_pair_cv(const FitContext &ctx, int64_t candidates,
                          const std::function<std::vector<int32_t>(const FitContext &, int64_t)> &fit,
                          const std::function<std::string(int64_t)> &describe, const char *what,
                          bool calibrated_within_se, std::vector<double> *scores,
                          std::vector<double> *standard_errors, int64_t edge) {
    const std::vector<Pair> &pairs = ctx.side->pairs();
    // On several ranks ctx.data holds this rank's rows; the pairs, and so
    // the folds, are about all n_total points and the same on every rank.
    const Collective ranks = Collective::or_single(ctx.collective, ctx.data.n());
    const int64_t n = ranks.n_total(), m = static_cast<int64_t>(pairs.size());
    // Folds: the pairs in a random order (from the fit's seed), dealt round-robin.
    std::vector<int64_t> order(static_cast<size_t>(m));
    for (int64_t e = 0; e < m; ++e) order[e] = e;
    Rng rng = Rng(static_cast<uint64_t>(ctx.options.get_int("seed"))).derive(0x7475);
    rng.shuffle(order);
    std::vector<double> score(static_cast<size_t>(candidates), 0.0), square(static_cast<size_t>(candidates), 0.0);
    // Per candidate, the share of the held-out pairs (by weight) whose ends
    // the fit puts together; and the share of must-links among them.
    std::vector<double> together(static_cast<size_t>(candidates), 0.0);
    double must_share = 0.0;
    int64_t step = 0;
    const int64_t steps = candidates * kPairFolds;
    for (int fold = 0; fold < kPairFolds; ++fold) {
        std::vector<int64_t> ti, tj;
        std::vector<double> tv;
        std::vector<Pair> held_out;
        for (int64_t e = 0; e < m; ++e) {
            const Pair &p = pairs[order[e]];
            if (e % kPairFolds == fold) {
                held_out.push_back(p);
            } else {
                ti.push_back(p.i);
                tj.push_back(p.j);
                tv.push_back(p.value);
            }
        }
        SideInfo train(n);
        train.add_pairs(ti.data(), tj.data(), tv.data(), static_cast<int64_t>(tv.size()));
        const FitContext fold_ctx{ctx.data, &train, ctx.options, ctx.progress, ctx.log, ctx.threads, ctx.collective};
        const HeldOut scored = held_out_by_ends(held_out);
        double held_weight = 0.0, held_must = 0.0;
        for (const Pair &p : held_out) {
            held_weight += std::fabs(p.value);
            if (p.value > 0) held_must += std::fabs(p.value);
        }
        if (held_weight > 0.0) must_share += held_must / held_weight / kPairFolds;
        for (int64_t c = 0; c < candidates; ++c) {
            // A cancel on one rank is every rank's: otherwise the others would
            // wait in the next fit for a rank that has left.
            ++step;
            ranks.agree([&] {
                ctx.progress.report(step, 0.0,
                                    cat(what, ": tuning ", describe(c), " (fit ", step, " of ", steps, ")").c_str());
            });
            const std::vector<int32_t> at = labels_of_ends(ranks, fit(fold_ctx, c), scored);
            const double a = pair_agreement(scored.pairs, at);
            double with = 0.0;
            for (const Pair &p : scored.pairs)
                if (at[p.i] == at[p.j]) with += std::fabs(p.value);
            if (held_weight > 0.0) together[c] += with / held_weight / kPairFolds;
            score[c] += a / kPairFolds;
            square[c] += a * a / kPairFolds;
        }
    }
    if (scores) *scores = score;
    if (standard_errors) {
        standard_errors->assign(static_cast<size_t>(candidates), 0.0);
        for (int64_t c = 0; c < candidates; ++c)
            (*standard_errors)[c] = std::sqrt(std::max(0.0, square[c] - score[c] * score[c]) / (kPairFolds - 1));
    }
    int64_t best = 0;
    for (int64_t c = 1; c < candidates; ++c)
        if (score[c] > score[best]) best = c;
    if (calibrated_within_se) best = calibrated_choice(score, square, together, must_share, edge);
    std::string table;
    for (int64_t c = 0; c < candidates; ++c) {
        table += cat(c ? ", " : "", describe(c), ": ", score[c]);
        if (calibrated_within_se) table += cat(" (together ", together[c], ")");
    }
    if (calibrated_within_se) table += cat("; must-links ", must_share);
    ctx.log.info(cat(what, ": held-out pair agreement over ", kPairFolds, " folds: ", table, "; chose ", describe(best)));
    return best;
}

FitResult fit_choosing_lambda(const FitContext &ctx, FitResult (*fit)(const FitContext &), const LambdaGrid &grid,
                              const char *what) {
    if (ctx.options.is_set("lambda") || ctx.options.is_set("k")) return fit(ctx);
    const Collective ranks = Collective::or_single(ctx.collective, ctx.data.n());
    const double reach = grid.top(ranks);
    const int64_t pairs = ctx.side ? static_cast<int64_t>(ctx.side->pairs().size()) : 0;
    if (pairs < kMinPairsToTune)
        fail(KINDRED_E_INVALID, what, ": set lambda, or k (a hint from which lambda is derived), or give at least ",
             kMinPairsToTune, " pairs to choose lambda from (got ", pairs, ")");
    if (!(reach > 0.0) || !std::isfinite(reach))
        fail(KINDRED_E_INVALID, what, ": the points do not spread (the top of the lambda grid, from their divergences from their mean, is ", reach,
             "); set lambda");
    std::vector<double> lambdas;
    for (int j = -grid.above; j < grid.count; ++j) lambdas.push_back(reach * std::pow(2.0, -0.5 * j));
    // A fit of the given fold with the choices made so far, and candidate
    // value v of `option` (null: none).
    auto fit_with = [&](const FitContext &base, double lambda, const char *option, double v) {
        OptionValues options = base.options;
        options.set_number("lambda", lambda);
        if (grid.init) options.set_text("init", grid.init);
        if (option) options.set_number(option, v);
        return fit(FitContext{base.data, base.side, options, base.progress, base.log, base.threads, base.collective});
    };
    const int64_t best = choose_by_pair_cv(
        ctx, static_cast<int64_t>(lambdas.size()),
        [&](const FitContext &fold, int64_t c) { return fit_with(fold, lambdas[c], nullptr, 0.0).labels; },
        [&](int64_t c) { return cat("lambda ", lambdas[c]); }, what, true, nullptr, nullptr, grid.above);
    const char *then = grid.then && !ctx.options.is_set(grid.then) ? grid.then : nullptr;
    std::vector<double> values;
    int64_t chosen = 0;
    if (then) {
        values = grid.then_values(ranks);
        chosen = choose_by_pair_cv(
            ctx, static_cast<int64_t>(values.size()),
            [&](const FitContext &fold, int64_t c) { return fit_with(fold, lambdas[best], then, values[c]).labels; },
            [&](int64_t c) { return cat(then, " ", values[c]); }, what);
    }
    FitResult r = fit_with(ctx, lambdas[best], then, then ? values[chosen] : 0.0);
    r.set_array("chosen_lambda", 1, 1, {lambdas[best]});
    if (then) r.set_array(cat("chosen_", then), 1, 1, {values[chosen]});
    return r;
}

}  // namespace kindred
