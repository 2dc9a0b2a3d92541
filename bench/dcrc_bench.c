/* Times kindred's dcrc through the public C API on synthetic data shaped like
 * the paper's problems: Gaussian blobs (K classes, centres drawn with
 * standard deviation 2 per coordinate, noise of standard deviation --noise), triplets sampled from the classes by eq. (1)
 * with kindred_sample_triplets.
 *
 * Reported per repetition:
 * - fit     = wall time of kindred_model_fit_dense() (standardisation, the
 *             k-means initialisation, the logistic classifier, all EM iterations);
 * - em_iter = mean time of one EM iteration (mean-field E-step + L-BFGS
 *             M-step): dcrc reports progress once per EM iteration, so it is
 *             (time of the last dcrc callback - time of the first) /
 *             (last - first iteration); the initialisation is excluded.
 * - fit_cpu, em_iter_cpu: the same in process CPU time (with one thread, the
 *   cost of the work without the time spent waiting for a core on a busy machine);
 * - iterations and the pairwise F-measure against the classes.
 *
 * One core: run with --threads 1 and OPENBLAS_NUM_THREADS=1 in the environment.
 *
 * usage: dcrc_bench [--n N] [--d D] [--k K] [--triplets M] [--noise S] [--max-iter I]
 *                   [--threads T] [--repeat R] [--seed S] */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "kindred.h"

static int on_progress(void *user, int64_t iteration, double objective, const char *message) {
    (void)objective;
    if (strncmp(message, "dcrc:", 5) != 0) return 0; /* the k-means initialisation reports too */
    iteration_clock_tick((iteration_clock *)user, iteration);
    return 0;
}

/* splitmix64 and Box-Muller: the data does not depend on the library. */
static uint64_t rng_state;
static double uniform01(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}
static double normal01(void) { return sqrt(-2.0 * log(uniform01())) * cos(6.283185307179586 * uniform01()); }

static int check(kindred_status s, const char *what) {
    if (s == KINDRED_OK) return 0;
    fprintf(stderr, "dcrc_bench: %s: %s\n", what, kindred_last_error());
    exit(1);
}

int main(int argc, char **argv) {
    int64_t n = 5000, d = 38, k = 13, m = 1500, max_iter = 100, threads = 1, repeat = 3, seed = 1;
    double noise = 2.0;
    for (int a = 1; a + 1 < argc; a += 2) {
        const int64_t v = strtoll(argv[a + 1], NULL, 10);
        if (!strcmp(argv[a], "--n")) n = v;
        else if (!strcmp(argv[a], "--noise")) noise = strtod(argv[a + 1], NULL);
        else if (!strcmp(argv[a], "--d")) d = v;
        else if (!strcmp(argv[a], "--k")) k = v;
        else if (!strcmp(argv[a], "--triplets")) m = v;
        else if (!strcmp(argv[a], "--max-iter")) max_iter = v;
        else if (!strcmp(argv[a], "--threads")) threads = v;
        else if (!strcmp(argv[a], "--repeat")) repeat = v;
        else if (!strcmp(argv[a], "--seed")) seed = v;
        else {
            fprintf(stderr, "dcrc_bench: unknown flag %s\n", argv[a]);
            return 2;
        }
    }
    rng_state = (uint64_t)seed;
    double *x = malloc(sizeof(double) * (size_t)(n * d));
    double *centres = malloc(sizeof(double) * (size_t)(k * d));
    int32_t *truth = malloc(sizeof(int32_t) * (size_t)n), *labels = malloc(sizeof(int32_t) * (size_t)n);
    if (!x || !centres || !truth || !labels) return 1;
    for (int64_t v = 0; v < k * d; ++v) centres[v] = 2.0 * normal01();
    for (int64_t i = 0; i < n; ++i) {
        truth[i] = (int32_t)(i % k);
        for (int64_t j = 0; j < d; ++j) x[i * d + j] = centres[truth[i] * d + j] + noise * normal01();
    }
    kindred_side *side = NULL;
    check(kindred_side_new(&side, n), "side");
    check(kindred_sample_triplets(side, truth, n, m, 0.0, (uint64_t)seed), "sample triplets");
    printf("n=%lld d=%lld k=%lld triplets=%lld noise=%g threads=%lld\n", (long long)n, (long long)d, (long long)k,
           (long long)m, noise, (long long)threads);
    for (int64_t r = 0; r < repeat; ++r) {
        kindred_model *model = NULL;
        iteration_clock clk = {0};
        check(kindred_model_new(&model, "dcrc"), "model");
        check(kindred_model_set_int(model, "k", k), "k");
        check(kindred_model_set_int(model, "threads", threads), "threads");
        check(kindred_model_set_int(model, "max_iter", max_iter), "max_iter");
        check(kindred_model_set_int(model, "seed", r), "seed");
        check(kindred_model_set_progress(model, on_progress, &clk), "progress");
        const double t0 = now_seconds(), c0 = cpu_seconds();
        check(kindred_model_fit_dense(model, x, n, d, KINDRED_ROW_MAJOR, d, side), "fit");
        const double fit = now_seconds() - t0, fit_cpu = cpu_seconds() - c0;
        int64_t iterations = 0;
        check(kindred_model_summary(model, NULL, NULL, NULL, &iterations, NULL, NULL), "summary");
        check(kindred_model_labels(model, labels, n), "labels");
        double f = 0.0;
        check(kindred_metric("f-measure", truth, labels, n, &f), "metric");
        const double steps = (double)(clk.last_iter - clk.first_iter);
        const double per_iter = steps > 0 ? (clk.last_time - clk.first_time) / steps : NAN;
        const double per_iter_cpu = steps > 0 ? (clk.last_cpu - clk.first_cpu) / steps : NAN;
        printf("repeat=%lld fit=%.4f fit_cpu=%.4f em_iter=%.4f em_iter_cpu=%.4f iterations=%lld f_measure=%.4f\n",
               (long long)r, fit, fit_cpu, per_iter, per_iter_cpu, (long long)iterations, f);
        kindred_model_free(model);
    }
    kindred_side_free(side);
    free(x);
    free(centres);
    free(truth);
    free(labels);
    return 0;
}
