// pckmeans / mpckmeans with the hyperparameters the user left unset chosen
// by cross-validation over the pairs (algorithms/pair_cross_validation.hpp):
// the constraint weight (in units of the data's spread) from {0.1, 1, 10}
// propagated or {0, 0.3, 3} point-wise and, for propagation = auto, whether
// to propagate (robust units) or to keep the pairs point-wise (the paper's
// HMRF). Clean answers are best used
// propagated; when many answers are wrong, the point-wise model, in which
// one answer moves one point, predicts the held-out pairs better, and the
// cross-validation sees it. Two additions (below): answers that contradict
// the robust units are never propagated, and mpckmeans also tries the
// point-wise weights with A fixed at A_0, and with distortion = auto each
// candidate that learns A also with a full A. The inner fits use at most 3
// restarts. Cost: at most 6 (pckmeans) or 9 (mpckmeans; 15 with a full A
// tried) candidates x 3 folds fits, plus the final fit. On several ranks
// every fit is the sharded one and choose_by_pair_cv gathers the held-out
// pairs' labels, so each rank makes the same choice as one process.
#include <algorithm>

#include "algorithms/mpckmeans/hmrf.hpp"
#include "algorithms/pair_cross_validation.hpp"
#include "algorithms/relevant_components.hpp"
#include "core/error.hpp"

namespace kindred {
namespace hmrf {

namespace {

FitResult fit_tuned(const FitContext &ctx, Config cfg, bool tune_weight, bool tune_propagation);

}  // namespace

// Whitening first (algorithms/relevant_components.hpp): every candidate of
// the tuning and the final fit cluster the mapped points. The map is learned
// from all the pairs, the held-out ones of the cross-validation included: it
// is the same for every candidate, so it shifts their scores alike rather
// than favouring one. With the metric fixed (pckmeans) the fits see the
// points as given under the metric A = W^T W instead of a mapped copy of
// them (8 d bytes a point): the engine's full Euclidean distortion measures
// every distance (assignment, k-means++ and farthest-first starts, the
// weight unit) as the mapped points' ones, its centroids are plain means.
// The metric is not learned, so no regulariser enters J_obj, and "metric"
// stays that of A = I, as with a mapped copy. Not for init = perturb, whose
// noise is drawn per coordinate of the mapped space: it keeps the copy, as
// does mpckmeans, whose learned A (a diagonal one, the Rayleigh prior on
// its diagonal) lives in the mapped space.
FitResult fit_hmrf_tuned(const FitContext &ctx, Config cfg, bool tune_weight, bool tune_propagation) {
    const bool euclidean = cfg.kind == divergence::DistortionKind::EuclideanDiag ||
                           cfg.kind == divergence::DistortionKind::EuclideanFull;
    const bool whiten = cfg.whiten && euclidean && cfg.use_constraints;
    if (cfg.learn_metric || cfg.init_perturb)
        return fit_whitened(ctx, whiten, cfg.name, [&](const FitContext &c) {
            return fit_tuned(c, cfg, tune_weight, tune_propagation);
        });
    return fit_whitened_by_metric(ctx, whiten, cfg.name, [&](const FitContext &c, const std::vector<double> &metric) {
        if (metric.empty()) return fit_tuned(c, cfg, tune_weight, tune_propagation);
        Config fixed = cfg;
        fixed.kind = divergence::DistortionKind::EuclideanFull;
        fixed.fixed_metric = metric;
        FitResult r = fit_tuned(c, fixed, tune_weight, tune_propagation);
        r.set_array("metric", 1, c.data.d(), std::vector<double>(static_cast<size_t>(c.data.d()), 1.0));
        return r;
    });
}

namespace {

FitResult fit_tuned(const FitContext &ctx, Config cfg, bool tune_weight, bool tune_propagation) {
    const int64_t pairs = cfg.use_constraints && ctx.side ? static_cast<int64_t>(ctx.side->pairs().size()) : 0;
    if ((tune_weight || tune_propagation || cfg.choose_full) && pairs > 0 && pairs < kMinPairsToTune)
        ctx.log.info(cat(cfg.name, ": ", pairs, " pairs are too few to tune on (at least ", kMinPairsToTune,
                         "); using constraint weight ", cfg.constraint_weight, ", propagation ",
                         cfg.propagate ? "robust" : "off", " and distortion ", divergence::distortion_name(cfg.kind)));
    // (Untuned, the distortion is cfg.kind; mpckmeans records it.)
    if (pairs < kMinPairsToTune || !(tune_weight || tune_propagation || cfg.choose_full)) return fit_hmrf(ctx, cfg);
    struct Candidate {
        bool propagate;
        double weight;
        bool metric_steps = true;
        divergence::DistortionKind kind;
    };
    // Rigid units need consistent answers. Clean answers never contradict
    // the robust units (a group grows only along must-links, so each unit
    // lies inside one class and no cannot-link falls inside one); a pair
    // that does is proof of wrong answers. Wrong must-links then sit inside
    // the units, where nothing can outvote them in the fit (a point never
    // leaves its unit), and a few of them glue points of two classes for
    // good. Measured (noise 0.1, 5 repeats, mpckmeans robust against off):
    // pima 0.09 / 0.65, digits389_10pct 0.31 / 0.69, balance 0.16 / 0.45 NMI;
    // the held-out noisy pairs did not see it (3-fold scores within 0.01 of
    // each other, a sparse graph shows few contradictions on a third of
    // its pairs). With propagation = auto, propagated candidates are then
    // not tried: the point-wise model, in which a wrong answer costs its
    // weight and can be outvoted by the features, is fitted. A deviation
    // from the cross-validated choice; propagation = robust still forces
    // the units.
    if (tune_propagation && pairs >= kMinPairsToTune && cfg.propagate && ctx.side->robust_units().contradicted_pairs > 0) {
        ctx.log.info(cat(cfg.name, ": ", ctx.side->robust_units().contradicted_pairs,
                         " pairs contradict the robust units (the answers are not all consistent); propagation off"));
        tune_propagation = false;
        cfg.propagate = false;
    }
    std::vector<Candidate> candidates;
    // Propagated, the weight prices the cannot-links between units (the
    // must-links inside them are kept); point-wise it prices every pair, and
    // 0 (the pairs ignored: k-means, or k-means with a learned metric) is a
    // candidate, so that answers that predict nothing cannot make the fit
    // worse than no answers.
    for (bool propagate : tune_propagation ? std::vector<bool>{true, false} : std::vector<bool>{cfg.propagate}) {
        const std::vector<double> weights = !tune_weight ? std::vector<double>{cfg.constraint_weight}
                                            : propagate  ? std::vector<double>{0.1, 1.0, 10.0}
                                                         : std::vector<double>{0.0, 0.3, 3.0};
        for (double w : weights) candidates.push_back({propagate, w, true, cfg.kind});
        // Point-wise, a learned A can collapse: with few or wrong answers the
        // closed form for the clusters (a_m = n / within-cluster scatter_m)
        // rewards a clustering that makes any one feature's scatter small,
        // and A then follows that clustering (measured, noise 0.1, weight
        // 0.3: digits389_10pct 0.59 NMI learned against 0.85 with A fixed,
        // balance 0.21 against 0.53). So the same weights with A kept at
        // A_0, the global scaling, compete: the cross-validation decides
        // whether the learned metric predicts the held-out pairs better.
        if (!propagate && cfg.learn_metric && tune_weight)
            for (double w : weights) candidates.push_back({propagate, w, false, cfg.kind});
    }
    // distortion = auto: every candidate that learns A also with a full A
    // (Mahalanobis, 3.15), last, so that a tie keeps the diagonal one. The
    // full metric can follow correlated features (measured, 5 repeats, clean
    // pairs, full against diagonal: letters_ijl_10pct 0.87 / 0.60 NMI, wine
    // 0.97 / 0.91, balance 0.85 / 0.80) but overfits where the diagonal
    // suffices (iris 0.77 / 0.91), so neither is a safe fixed default.
    // Chosen jointly with the weight and the propagation: a full A often
    // wants another weight than the diagonal one, and choosing the
    // distortion after the weight (measured first) picked the full A on
    // letters_ijl_10pct in 3 of 6 seeds against 5 of 6 jointly (NMI 0.77
    // against 0.88; docs/quality.md).
    if (cfg.choose_full) {
        const size_t diagonal = candidates.size();
        for (size_t c = 0; c < diagonal; ++c)
            if (candidates[c].metric_steps) {
                Candidate full = candidates[c];
                full.kind = divergence::DistortionKind::EuclideanFull;
                candidates.push_back(full);
            }
    }
    auto configured = [&](const Candidate &c) {
        Config t = cfg;
        t.propagate = c.propagate;
        t.constraint_weight = c.weight;
        t.metric_steps = c.metric_steps;
        t.kind = c.kind;
        return t;
    };
    auto describe = [&](int64_t c) {
        return cat("weight ", candidates[c].weight, candidates[c].propagate ? " propagated" : " point-wise",
                   candidates[c].metric_steps ? "" : " (A fixed at A_0)",
                   cfg.choose_full ? cat(", ", divergence::distortion_name(candidates[c].kind)) : std::string());
    };
    std::vector<double> score, se;
    int64_t best = choose_by_pair_cv(
        ctx, static_cast<int64_t>(candidates.size()),
        [&](const FitContext &fold, int64_t c) {
            Config t = configured(candidates[c]);
            t.n_init = std::min<int64_t>(t.n_init, 3);
            return fit_hmrf(fold, t).labels;
        },
        describe, cfg.name, false, &score, &se);
    // A fixed at A_0 must predict clearly better (the one-standard-error
    // rule): otherwise the best candidate that learns A (the paper's model)
    // within one standard error of it is kept.
    if (!candidates[best].metric_steps) {
        int64_t learned = -1;
        for (int64_t c = 0; c < static_cast<int64_t>(candidates.size()); ++c)
            if (candidates[c].metric_steps && !candidates[c].propagate && (learned < 0 || score[c] > score[learned]))
                learned = c;
        if (learned >= 0 && score[learned] >= score[best] - se[best]) {
            ctx.log.info(cat(cfg.name, ": ", describe(learned), " is within one standard error (", se[best], ") of ",
                             describe(best), "; chose ", describe(learned)));
            best = learned;
        }
    }
    FitResult r = fit_hmrf(ctx, configured(candidates[best]));
    if (cfg.choose_full) r.set_array("chosen_distortion", 1, 1, {distortion_code(candidates[best].kind)});
    r.set_array("chosen_weight", 1, 1, {candidates[best].weight});
    r.set_array("chosen_propagation", 1, 1, {candidates[best].propagate ? 1.0 : 0.0});
    if (cfg.learn_metric) r.set_array("chosen_metric_learned", 1, 1, {candidates[best].metric_steps ? 1.0 : 0.0});
    return r;
}

}  // namespace

}  // namespace hmrf
}  // namespace kindred
