#include "algorithms/tcs/fista.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace kindred {
namespace tcs {
namespace {

double dot(const std::vector<double> &a, const std::vector<double> &b) {
    double s = 0.0;
    for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

}  // namespace

FistaRun minimize_mfista(int64_t d, const std::vector<double> &a0, const SmoothFn &smooth, const ProxFn &prox,
                         const FistaSettings &settings, const IterationFn &progress) {
    const size_t dd = static_cast<size_t>(d * d);
    FistaRun run;
    std::vector<double> a = a0, a_prev = a0, h = a0, z(dd), grad(dd), diff(dd);
    // F at the start: a0 is feasible, so g(a0) is the prox of a0 with step 0.
    std::vector<double> start = a0;
    double big_f = smooth(a0, nullptr) + prox(start, 0.0);
    ++run.smooth_evaluations;
    if (!std::isfinite(big_f)) fail(KINDRED_E_NUMERICAL, "tcs: the objective is not finite at the starting point");

    // First Lipschitz estimate from a secant along the negative gradient at a0,
    // so that backtracking starts near the right scale (it only ever doubles).
    double lip;
    {
        std::vector<double> g0(dd), g1(dd), trial(dd);
        smooth(a0, &g0);
        const double gn = std::sqrt(dot(g0, g0)), an = std::max(1.0, std::sqrt(dot(a0, a0)));
        if (gn > 0.0) {
            const double s = 1e-4 * an / gn;
            for (size_t e = 0; e < dd; ++e) trial[e] = a0[e] - s * g0[e];
            smooth(trial, &g1);
            run.smooth_evaluations += 2;
            double num = 0.0;
            for (size_t e = 0; e < dd; ++e) num += (g1[e] - g0[e]) * (g1[e] - g0[e]);
            lip = std::sqrt(num) / (s * gn);
        } else {
            lip = 1.0;
        }
        if (!(lip > 1e-12) || !std::isfinite(lip)) lip = 1e-12 * std::max(1.0, gn);
        if (!(lip > 0.0)) lip = 1.0;
    }

    double beta = 1.0;  // beta_t of Algorithm 1 (t_k of FISTA)
    for (int64_t it = 1; it <= settings.max_iter; ++it) {
        const double fh = smooth(h, &grad);
        ++run.smooth_evaluations;
        double fz = 0.0, gz = 0.0;
        // Backtracking on L (Beck & Teboulle 2009, FISTA with backtracking, step 1/L).
        for (int tries = 0;; ++tries) {
            for (size_t e = 0; e < dd; ++e) z[e] = h[e] - grad[e] / lip;
            gz = prox(z, 1.0 / lip);
            fz = smooth(z, nullptr);
            ++run.smooth_evaluations;
            for (size_t e = 0; e < dd; ++e) diff[e] = z[e] - h[e];
            const double bound = fh + dot(grad, diff) + 0.5 * lip * dot(diff, diff);
            if (fz <= bound + 1e-12 * std::fabs(fh) || tries >= 60) break;
            lip *= 2.0;
        }
        const double big_fz = fz + gz;
        const double beta_next = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * beta * beta));
        // MFISTA: keep the better of Z_t and A_{t-1}.
        const bool improved = big_fz <= big_f;
        const double decrease = improved ? big_f - big_fz : 0.0;
        a_prev.swap(a);
        if (improved) {
            a = z;
            big_f = big_fz;
        } else {
            a = a_prev;
        }
        // H_{t+1} = A_t + beta_t / beta_{t+1} (Z_t - A_t) + (beta_t - 1) / beta_{t+1} (A_t - A_{t-1}).
        const double c1 = beta / beta_next, c2 = (beta - 1.0) / beta_next;
        for (size_t e = 0; e < dd; ++e) h[e] = a[e] + c1 * (z[e] - a[e]) + c2 * (a[e] - a_prev[e]);
        beta = beta_next;
        run.trace.push_back(big_f);
        run.iterations = it;
        if (progress) progress(it, big_f);
        if (improved && decrease <= settings.tol * std::max(1.0, std::fabs(big_f))) {
            run.converged = true;
            break;
        }
        // No progress and a negligible step: the iterate is stationary.
        if (!improved) {
            double step = 0.0;
            for (size_t e = 0; e < dd; ++e) step += (z[e] - a[e]) * (z[e] - a[e]);
            if (step <= 1e-24 * std::max(1.0, dot(a, a))) {
                run.converged = true;
                break;
            }
            // Restart the momentum (O'Donoghue & Candes 2015) when it overshoots.
            beta = 1.0;
            h = a;
        }
    }
    run.a = a;
    run.objective = big_f;
    return run;
}

}  // namespace tcs
}  // namespace kindred
