/* Times RDP-means and TVClust through the public C API (docs/performance.md,
 * "RDP-means and TVClust").
 *
 * --alg rdpmeans: n points in 20 Gaussian blobs (d dims), --pairs-per-point P
 *   pairs per point (P n in all) sampled from the blob labels with
 *   kindred_sample_pairs (noise --noise); RDP-means with lambda from the k hint
 *   20 runs --iters iterations (stable_iterations set above it, so every
 *   iteration is a full pass). Then kmeans on the same data with k = the number
 *   of clusters RDP-means found, n_init = 1, tol = 0, the same number of
 *   iterations. Per-iteration time = interval between progress callbacks (both
 *   algorithms report once per iteration), the first iteration excluded.
 *   Prints the ratio rdpmeans / kmeans per iteration, wall clock and process CPU
 *   time (the latter is what other jobs on a shared machine do not inflate).
 * --alg tvclust: seconds per Gibbs sweep (interval between callbacks).
 * Peak resident memory (ru_maxrss) after the data, after the side information
 * and after the fits.
 *
 * usage: rdpmeans_bench --alg rdpmeans|tvclust --n N --d D [--pairs-per-point P]
 *                       [--iters I] [--threads T] [--noise E] */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_clock.h"
#include "kindred.h"

static double peak_mb(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_maxrss / 1024.0;
}

typedef struct {
    int64_t calls, first_iter, last_iter;
    double first_time, last_time, first_cpu, last_cpu;
} clock_state;

static int on_progress(void *user, int64_t iteration, double objective, const char *message) {
    clock_state *c = (clock_state *)user;
    (void)objective;
    (void)message;
    const double t = now_seconds(), cpu = cpu_seconds();
    if (c->calls == 0) {
        c->first_iter = iteration;
        c->first_time = t;
        c->first_cpu = cpu;
    }
    c->last_iter = iteration;
    c->last_time = t;
    c->last_cpu = cpu;
    ++c->calls;
    return 0;
}

static double per_iteration(const clock_state *c) {
    return c->last_iter > c->first_iter ? (c->last_time - c->first_time) / (double)(c->last_iter - c->first_iter) : NAN;
}
static double per_iteration_cpu(const clock_state *c) {
    return c->last_iter > c->first_iter ? (c->last_cpu - c->first_cpu) / (double)(c->last_iter - c->first_iter) : NAN;
}

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double uniform01(uint64_t *s) { return ((double)(splitmix64(s) >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

/* 20 blobs with centres uniform in [-10, 10]^d, unit variance. */
static void blobs(double *x, int32_t *truth, int64_t n, int64_t d, uint64_t seed) {
    const int64_t k = 20;
    double *c = malloc((size_t)(k * d) * sizeof *c);
    uint64_t s = seed;
    for (int64_t v = 0; v < k * d; ++v) c[v] = 20.0 * uniform01(&s) - 10.0;
    for (int64_t i = 0; i < n; ++i) {
        truth[i] = (int32_t)(splitmix64(&s) % (uint64_t)k);
        for (int64_t j = 0; j < d; ++j) {
            const double u1 = uniform01(&s), u2 = uniform01(&s);
            x[i * d + j] = c[truth[i] * d + j] + sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
        }
    }
    free(c);
}

#define CHECK(call)                                                                  \
    do {                                                                             \
        if ((call) != KINDRED_OK) {                                                  \
            fprintf(stderr, "rdpmeans_bench: %s: %s\n", #call, kindred_last_error()); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

int main(int argc, char **argv) {
    const char *alg = "rdpmeans";
    int64_t n = 100000, d = 16, iters = 10, threads = 1;
    double ppp = 1.0, noise = 0.0;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--alg")) alg = argv[a + 1];
        else if (!strcmp(argv[a], "--n")) n = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--d")) d = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--iters")) iters = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--threads")) threads = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--pairs-per-point")) ppp = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "--noise")) noise = atof(argv[a + 1]);
        else {
            fprintf(stderr, "rdpmeans_bench: unknown flag %s\n", argv[a]);
            return 2;
        }
    }
    double *x = malloc((size_t)(n * d) * sizeof *x);
    int32_t *truth = malloc((size_t)n * sizeof *truth);
    if (!x || !truth) return 1;
    blobs(x, truth, n, d, 12345);
    const double mb_data = peak_mb();
    kindred_side *side = NULL;
    CHECK(kindred_side_new(&side, n));
    const int64_t pairs = (int64_t)(ppp * (double)n);
    double t0 = now_seconds();
    if (pairs > 0) CHECK(kindred_sample_pairs(side, truth, n, pairs, 0.0, noise, 7));
    const double side_s = now_seconds() - t0;
    const double mb_side = peak_mb();

    kindred_model *m = NULL;
    clock_state c = {0, 0, 0, 0, 0, 0, 0};
    CHECK(kindred_model_new(&m, alg));
    CHECK(kindred_model_set_int(m, "threads", threads));
    CHECK(kindred_model_set_progress(m, on_progress, &c));
    if (!strcmp(alg, "rdpmeans")) {
        CHECK(kindred_model_set_int(m, "k", 20));
        CHECK(kindred_model_set_int(m, "max_iter", iters));
        CHECK(kindred_model_set_int(m, "stable_iterations", iters + 1));
    } else {
        CHECK(kindred_model_set_int(m, "iterations", iters));
        CHECK(kindred_model_set_int(m, "burn_in", 0));
    }
    t0 = now_seconds();
    CHECK(kindred_model_fit_dense(m, x, n, d, KINDRED_ROW_MAJOR, d, side));
    const double fit_s = now_seconds() - t0;
    int64_t k = 0;
    CHECK(kindred_model_summary(m, NULL, NULL, &k, NULL, NULL, NULL));
    int32_t *labels = malloc((size_t)n * sizeof *labels);
    CHECK(kindred_model_labels(m, labels, n));
    double ari = 0;
    CHECK(kindred_metric("ari", truth, labels, n, &ari));
    const double it_s = per_iteration(&c);
    const double mb_fit = peak_mb();
    const double it_cpu = per_iteration_cpu(&c);
    printf("alg=%s n=%lld d=%lld pairs=%lld threads=%lld iters=%lld clusters=%lld ari=%.4f per_iter_s=%.5f "
           "per_iter_cpu_s=%.5f fit_s=%.3f sample_pairs_s=%.3f peak_mb_data=%.0f peak_mb_side=%.0f peak_mb_fit=%.0f\n",
           alg, (long long)n, (long long)d, (long long)pairs, (long long)threads, (long long)iters, (long long)k, ari,
           it_s, it_cpu, fit_s, side_s, mb_data, mb_side, mb_fit);
    kindred_model_free(m);

    if (!strcmp(alg, "rdpmeans")) {
        clock_state kc = {0, 0, 0, 0, 0, 0, 0};
        CHECK(kindred_model_new(&m, "kmeans"));
        CHECK(kindred_model_set_int(m, "threads", threads));
        CHECK(kindred_model_set_int(m, "k", k));
        CHECK(kindred_model_set_int(m, "n_init", 1));
        CHECK(kindred_model_set_double(m, "tol", 0.0));
        CHECK(kindred_model_set_int(m, "max_iter", iters));
        CHECK(kindred_model_set_progress(m, on_progress, &kc));
        CHECK(kindred_model_fit_dense(m, x, n, d, KINDRED_ROW_MAJOR, d, NULL));
        const double kt = per_iteration(&kc), kt_cpu = per_iteration_cpu(&kc);
        printf("alg=kmeans n=%lld d=%lld k=%lld per_iter_s=%.5f per_iter_cpu_s=%.5f ratio_wall=%.2f ratio_cpu=%.2f\n",
               (long long)n, (long long)d, (long long)k, kt, kt_cpu, it_s / kt, it_cpu / kt_cpu);
        kindred_model_free(m);
    }
    kindred_side_free(side);
    free(labels);
    free(x);
    free(truth);
    return 0;
}
