/* Times the pairwise-constraint methods against kmeans through the public C
 * API: the time of one iteration (interval between two progress callbacks,
 * which every method reports once per iteration) and of the whole fit.
 *
 * Data: Gaussian blobs (k centres, fixed seed), n points in d dimensions, and
 * `pairs` constraints sampled from the blob labels (kindred_sample_pairs).
 * Methods: kmeans (n_init 1, tol 0), pckmeans, mpckmeans with a diagonal
 * metric (euclidean-diag), mpckmeans with a full metric (euclidean-full),
 * copkmeans; each runs exactly --iters iterations where it can (kmeans tol 0;
 * the others stop earlier only when nothing changes any more).
 *
 * usage: pairwise_bench --n N --d D --k K --pairs P [--iters I] [--threads T]
 *        [--methods kmeans,pckmeans,mpck-diag,mpck-full,copkmeans]
 * Output: one line per method: "method=... n=... d=... k=... pairs=...
 * iter_s=... fit_s=... iterations=..." (wall-clock seconds). */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "kindred.h"

typedef struct timing {
    double first, last;
    int64_t first_iter, last_iter;
} timing;

static int on_progress(void *user, int64_t iteration, double objective, const char *message) {
    (void)objective;
    (void)message;
    timing *t = (timing *)user;
    const double now = now_seconds();
    if (t->first_iter < 0) {
        t->first = now;
        t->first_iter = iteration;
    }
    t->last = now;
    t->last_iter = iteration;
    return 0;
}

static uint64_t rng_state = 12345;
static double uniform01(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}
static double normal(void) {
    const double u = uniform01() + 1e-300, v = uniform01();
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

static int fail_status(kindred_status s, const char *what) {
    if (s == KINDRED_OK) return 0;
    fprintf(stderr, "pairwise_bench: %s: %s\n", what, kindred_last_error());
    return 1;
}

int main(int argc, char **argv) {
    int64_t n = 100000, d = 16, k = 10, pairs = -1, iters = 10, threads = 1;
    const char *methods = "kmeans,pckmeans,mpck-diag,mpck-full,copkmeans";
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--n")) n = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--d")) d = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--k")) k = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--pairs")) pairs = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--iters")) iters = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--threads")) threads = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--methods")) methods = argv[a + 1];
        else {
            fprintf(stderr, "pairwise_bench: unknown flag %s\n", argv[a]);
            return 2;
        }
    }
    if (pairs < 0) pairs = n;
    double *x = malloc(sizeof(double) * (size_t)(n * d)), *centres = malloc(sizeof(double) * (size_t)(k * d));
    int32_t *truth = malloc(sizeof(int32_t) * (size_t)n);
    if (!x || !centres || !truth) return 1;
    for (int64_t v = 0; v < k * d; ++v) centres[v] = 4.0 * normal();
    for (int64_t i = 0; i < n; ++i) {
        truth[i] = (int32_t)(i % k);
        for (int64_t j = 0; j < d; ++j) x[i * d + j] = centres[truth[i] * d + j] + normal();
    }
    kindred_side *side = NULL;
    if (fail_status(kindred_side_new(&side, n), "side")) return 1;
    if (fail_status(kindred_sample_pairs(side, truth, n, pairs, -1, 0.0, 7), "sampling pairs")) return 1;

    const char *names[] = {"kmeans", "pckmeans", "mpck-diag", "mpck-full", "copkmeans"};
    const char *algos[] = {"kmeans", "pckmeans", "mpckmeans", "mpckmeans", "copkmeans"};
    for (int m = 0; m < 5; ++m) {
        if (!strstr(methods, names[m])) continue;
        kindred_model *model = NULL;
        if (fail_status(kindred_model_new(&model, algos[m]), "model")) return 1;
        kindred_model_set_int(model, "k", k);
        kindred_model_set_int(model, "threads", threads);
        kindred_model_set_int(model, "max_iter", iters);
        if (m == 0) {
            kindred_model_set_int(model, "n_init", 1);
            kindred_model_set_double(model, "tol", 0.0);
        }
        if (m == 2) kindred_model_set_string(model, "distortion", "euclidean-diag");
        if (m == 3) kindred_model_set_string(model, "distortion", "euclidean-full");
        if (m >= 2 && m <= 3) kindred_model_set_double(model, "tol", 0.0);
        timing t = {0, 0, -1, -1};
        kindred_model_set_progress(model, on_progress, &t);
        const double start = now_seconds();
        const kindred_status s = kindred_model_fit_dense(model, x, n, d, KINDRED_ROW_MAJOR, d, m == 0 ? NULL : side);
        const double fit_s = now_seconds() - start;
        if (s != KINDRED_OK) {
            printf("method=%s n=%lld d=%lld k=%lld pairs=%lld error=\"%s\"\n", names[m], (long long)n, (long long)d,
                   (long long)k, (long long)pairs, kindred_last_error());
            kindred_model_free(model);
            continue;
        }
        const double iter_s = t.last_iter > t.first_iter ? (t.last - t.first) / (double)(t.last_iter - t.first_iter) : NAN;
        printf("method=%s n=%lld d=%lld k=%lld pairs=%lld iter_s=%.5f fit_s=%.4f iterations=%lld\n", names[m],
               (long long)n, (long long)d, (long long)k, (long long)pairs, iter_s, fit_s, (long long)t.last_iter);
        fflush(stdout);
        kindred_model_free(model);
    }
    kindred_side_free(side);
    free(x);
    free(centres);
    free(truth);
    return 0;
}
