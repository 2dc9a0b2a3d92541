// Noisy answers: refits on the pairs the fit satisfies.
//
// With wrong answers in the pairs, the tuned fit is built from all of them:
// the whitening learns its map from must-link groups that wrong must-links
// may have joined across classes, the units (or, when the answers
// contradict the robust units, the point-wise penalties) pull towards the
// wrong answers. The fit itself is the best judge of which answers are
// wrong: a pair it violates is one that the features and the other answers
// outvoted. So the pairs it violates are set aside and the fit runs again on
// the rest, with what the tuning chose held fixed (whitening and final fit;
// the cross-validation is not repeated, so a round costs one fit with its
// restarts). The kept pairs agree with one clustering, so none contradicts
// another, and the map and the units come from them. Each further round
// filters the given pairs again by the last fit's labels (a pair set aside
// in error can come back), until the kept pairs stop changing. A fit that
// satisfies every pair is returned as it is.
//
// Only point-wise fits are cleaned (propagation off, or chosen by the
// tuning, which it is when the answers contradict the robust units or the
// propagated model predicts held-out pairs worse: signs of wrong answers).
// With clean answers the tuning propagates, and a refit there changed no
// clean score by more than its standard error (docs/quality.md) while it
// costs a second side-information store (about 145 bytes per pair measured
// at 2e6 pairs) and a second fit.
//
// Measured in docs/quality.md ("Noisy answers: cleaning refits"). A deviation from the papers, which take the answers as
// given: cleaning_rounds = 0 restores them.
#include "algorithms/mpckmeans/hmrf.hpp"
#include "algorithms/pair_cross_validation.hpp"
#include "core/error.hpp"

namespace kindred {
namespace hmrf {

namespace {

// A store of these pairs, with the given store's triplets and partial labels.
SideInfo store_of(const SideInfo &given, const std::vector<Pair> &pairs) {
    SideInfo s(given.n());
    std::vector<int64_t> i, j;
    std::vector<double> v;
    for (const Pair &p : pairs) {
        i.push_back(p.i);
        j.push_back(p.j);
        v.push_back(p.value);
    }
    s.add_pairs(i.data(), j.data(), v.data(), static_cast<int64_t>(v.size()));
    std::vector<int64_t> a, b, c;
    std::vector<int32_t> answer;
    for (const Triplet &t : given.triplets()) {
        a.push_back(t.a);
        b.push_back(t.b);
        c.push_back(t.c);
        answer.push_back(t.answer);
    }
    s.add_triplets(a.data(), b.data(), c.data(), answer.data(), static_cast<int64_t>(answer.size()));
    if (given.has_partial_labels()) s.set_partial_labels(given.partial_labels().data(), given.n());
    return s;
}

bool same_pairs(const std::vector<Pair> &a, const std::vector<Pair> &b) {
    if (a.size() != b.size()) return false;
    for (size_t e = 0; e < a.size(); ++e)
        if (a[e].i != b[e].i || a[e].j != b[e].j) return false;
    return true;
}

// The configuration the tuned fit chose (its "chosen_*" results), fixed.
Config chosen_config(Config cfg, const FitResult &r) {
    auto chosen = [&](const char *name, double &value) {
        if (const NamedArray *a = r.find(name)) value = a->values[0];
    };
    double weight = cfg.constraint_weight, propagate = cfg.propagate, learned = cfg.metric_steps,
           kind = distortion_code(cfg.kind);
    chosen("chosen_weight", weight);
    chosen("chosen_propagation", propagate);
    chosen("chosen_metric_learned", learned);
    if (cfg.choose_full) chosen("chosen_distortion", kind);
    cfg.constraint_weight = weight;
    cfg.propagate = propagate != 0.0;
    cfg.metric_steps = learned != 0.0;
    cfg.kind = distortion_of_code(kind);
    cfg.choose_full = false;
    return cfg;
}

}  // namespace

FitResult fit_hmrf_cleaned(const FitContext &ctx, Config cfg, bool tune_weight, bool tune_propagation) {
    FitResult r = fit_hmrf_tuned(ctx, cfg, tune_weight, tune_propagation);
    if (cfg.cleaning_rounds <= 0 || !cfg.use_constraints || !ctx.side || ctx.side->pairs().empty()) return r;
    const Collective ranks = Collective::or_single(ctx.collective, ctx.data.n());
    const std::vector<Pair> &pairs = ctx.side->pairs();
    const Config fixed = chosen_config(cfg, r);
    if (fixed.propagate) return r;
    std::vector<NamedArray> choices;
    for (const NamedArray &a : r.arrays)
        if (a.name.rfind("chosen_", 0) == 0) choices.push_back(a);
    std::vector<Pair> kept = pairs;
    for (int64_t round = 0; round < cfg.cleaning_rounds; ++round) {
        std::vector<Pair> satisfied = pairs_satisfied(ranks, r.labels, pairs);
        if (same_pairs(satisfied, kept) || satisfied.empty()) break;
        kept = std::move(satisfied);
        ctx.log.info(cat(cfg.name, ": round ", round + 1, " of cleaning refits on the ", kept.size(), " of ",
                         pairs.size(), " pairs the last fit satisfies (the others were outvoted)"));
        const SideInfo store = store_of(*ctx.side, kept);
        const FitContext inner{ctx.data, &store, ctx.options, ctx.progress, ctx.log, ctx.threads, ctx.collective};
        r = fit_hmrf_tuned(inner, fixed, false, false);
    }
    if (kept.size() == pairs.size()) return r;
    for (const NamedArray &a : choices)
        if (!r.find(a.name)) r.arrays.push_back(a);
    r.set_array("chosen_pairs_kept", 1, 1, {static_cast<double>(kept.size())});
    return r;
}

}  // namespace hmrf
}  // namespace kindred
