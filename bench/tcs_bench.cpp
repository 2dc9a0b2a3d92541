// TCS-GM: the cost of learning A (Gopal & Yang 2014, Algorithm 1) on N
// labelled points of K Gaussian classes in d dimensions: FISTA iterations to
// converge, seconds per iteration, the share of the eigendecompositions (PSD
// projection), and one OPT1 gradient assembled by GEMM against the literal
// N*K outer-product loop. docs/performance.md, "TCS-GM".
//
// usage: tcs_bench [--n 20000] [--d 30] [--k 20] [--gamma 0.01] [--max-iter 500] [--naive 1]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "algorithms/tcs/gm_objective.hpp"
#include "algorithms/tcs/learn_metric.hpp"
#include "core/rng.hpp"

using namespace kindred;
using Clock = std::chrono::steady_clock;

static double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

int main(int argc, char **argv) {
    int64_t n = 20000, d = 30, k = 20, max_iter = 500;
    double gamma = 0.01;
    int naive = 1;
    for (int a = 1; a + 1 < argc; a += 2) {
        const std::string f = argv[a];
        const char *v = argv[a + 1];
        if (f == "--n") n = std::atoll(v);
        else if (f == "--d") d = std::atoll(v);
        else if (f == "--k") k = std::atoll(v);
        else if (f == "--gamma") gamma = std::atof(v);
        else if (f == "--max-iter") max_iter = std::atoll(v);
        else if (f == "--naive") naive = std::atoi(v);
        else {
            std::fprintf(stderr, "unknown flag %s\n", f.c_str());
            return 2;
        }
    }
    // Classes with random means (distance between two about 4 sqrt(2) whatever d,
    // so that the classes overlap); noise with a different scale per coordinate,
    // so that the learned A is far from I.
    Rng rng(1);
    std::vector<double> mean(static_cast<size_t>(k * d)), scale(static_cast<size_t>(d)), x(static_cast<size_t>(n * d));
    std::vector<int32_t> t(static_cast<size_t>(n));
    for (double &v : mean) v = 4.0 / std::sqrt(static_cast<double>(d)) * rng.normal();
    for (int64_t j = 0; j < d; ++j) scale[j] = 0.2 + 2.0 * rng.uniform();
    for (int64_t i = 0; i < n; ++i) {
        t[i] = static_cast<int32_t>(i % k);
        for (int64_t j = 0; j < d; ++j) x[i * d + j] = mean[t[i] * d + j] + scale[j] * rng.normal();
    }
    std::printf("N = %lld, d = %lld, K = %lld, gamma = %g, regulariser ||A - I||_F^2\n", (long long)n, (long long)d,
                (long long)k, gamma);

    tcs::FistaSettings fs;
    fs.max_iter = max_iter;
    const auto t0 = Clock::now();
    tcs::MetricRun run = tcs::learn_metric(x.data(), n, d, t.data(), k, tcs::Regularizer::FrobeniusIdentity, gamma, fs, nullptr);
    const double total = seconds_since(t0);
    std::printf("learn A: %lld FISTA iterations (%s), %.3f s, %.4f s per iteration, %.2f objective+gradient evaluations per iteration\n",
                (long long)run.fista.iterations, run.fista.converged ? "converged" : "max_iter", total,
                total / run.fista.iterations, (double)run.fista.smooth_evaluations / run.fista.iterations);
    std::printf("PSD projection (dsyevr + rebuild): %.4f s = %.1f %% of the solve\n", run.eigen_seconds,
                100.0 * run.eigen_seconds / total);
    std::printf("objective: %.6g at A = I -> %.6g\n", run.fista.trace.front(), run.fista.objective);

    tcs::GmObjective f(x.data(), n, d, t.data(), k);
    std::vector<double> a(run.fista.a), g1(static_cast<size_t>(d * d)), g2(g1);
    const int reps = 5;
    auto t1 = Clock::now();
    for (int r = 0; r < reps; ++r) f.value_grad(a.data(), g1.data());
    const double gemm_s = seconds_since(t1) / reps;
    std::printf("one objective + gradient by GEMM: %.5f s\n", gemm_s);
    if (naive) {
        t1 = Clock::now();
        f.value_grad_naive(a.data(), g2.data());
        const double naive_s = seconds_since(t1);
        double diff = 0.0, size = 0.0;
        for (size_t e = 0; e < g1.size(); ++e) {
            diff = std::fmax(diff, std::fabs(g1[e] - g2[e]));
            size = std::fmax(size, std::fabs(g2[e]));
        }
        std::printf("one objective + gradient by the N*K outer-product loop: %.5f s (%.0fx slower; max |difference| %.2g of max |grad| %.2g)\n",
                    naive_s, naive_s / gemm_s, diff, size);
    }
    return 0;
}
