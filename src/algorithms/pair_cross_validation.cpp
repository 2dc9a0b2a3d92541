#include "algorithms/pair_cross_validation.hpp"

#include <cmath>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace kindred {

double pair_agreement(const std::vector<Pair> &pairs, const std::vector<int32_t> &labels) {
    double agree = 0.0, total = 0.0;
    for (const Pair &p : pairs) {
        const double w = std::fabs(p.value);
        const bool together = labels[p.i] == labels[p.j];
        total += w;
        if (together == (p.value > 0)) agree += w;
    }
    return total > 0.0 ? agree / total : 1.0;
}

int64_t choose_by_pair_cv(const FitContext &ctx, int64_t candidates,
                          const std::function<std::vector<int32_t>(const FitContext &, int64_t)> &fit,
                          const std::function<std::string(int64_t)> &describe, const char *what) {
    const std::vector<Pair> &pairs = ctx.side->pairs();
    const int64_t n = ctx.data.n(), m = static_cast<int64_t>(pairs.size());
    // Folds: the pairs in a random order (from the fit's seed), dealt round-robin.
    std::vector<int64_t> order(static_cast<size_t>(m));
    for (int64_t e = 0; e < m; ++e) order[e] = e;
    Rng rng = Rng(static_cast<uint64_t>(ctx.options.get_int("seed"))).derive(0x7475);
    rng.shuffle(order);
    std::vector<double> score(static_cast<size_t>(candidates), 0.0);
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
        const FitContext fold_ctx{ctx.data, &train, ctx.options, ctx.progress, ctx.log, ctx.threads};
        for (int64_t c = 0; c < candidates; ++c) {
            ctx.progress.report(++step, 0.0,
                                cat(what, ": tuning ", describe(c), " (fit ", step, " of ", steps, ")").c_str());
            score[c] += pair_agreement(held_out, fit(fold_ctx, c)) / kPairFolds;
        }
    }
    int64_t best = 0;
    for (int64_t c = 1; c < candidates; ++c)
        if (score[c] > score[best]) best = c;
    std::string table;
    for (int64_t c = 0; c < candidates; ++c) table += cat(c ? ", " : "", describe(c), ": ", score[c]);
    ctx.log.info(cat(what, ": held-out pair agreement over ", kPairFolds, " folds: ", table, "; chose ", describe(best)));
    return best;
}

}  // namespace kindred
