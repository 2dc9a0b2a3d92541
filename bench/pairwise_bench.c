/* Times the pairwise-constraint methods against kmeans through the public C
 * API: the time of one iteration (interval between two progress callbacks,
 * which every method reports once per iteration), as process CPU time and
 * wall-clock time, and the whole fit.
 *
 * Data: Gaussian blobs (k centres N(0, spread^2 I), unit noise, fixed seed), n
 * points in d dimensions, and `pairs` constraints sampled from the blob labels
 * (kindred_sample_pairs). With the default spread 4 the blobs are separated
 * and every method converges in 2-3 iterations; with spread 1 they overlap
 * and the methods run --iters iterations, which is what a per-iteration
 * figure needs. Methods: kmeans (n_init 1, tol 0), pckmeans, mpckmeans with a
 * diagonal metric (euclidean-diag), with a full metric (euclidean-full),
 * copkmeans, mpckmeans with the weighted cosine (mpck-cosine: the data is
 * dense, so every point has d non-zeros); each runs at most --iters iterations.
 *
 * The methods are interleaved (kmeans, pckmeans, ..., kmeans, pckmeans, ...)
 * --repeats times, and the per-iteration figures are medians over all the
 * intervals of all repeats (the first callback, after the initialisation,
 * only starts the clock), so that a burst of load from other jobs on a shared
 * machine moves every method alike.
 *
 * usage: pairwise_bench --n N --d D --k K --pairs P [--iters I] [--threads T]
 *        [--spread S] [--repeats R]
 *        [--methods kmeans,pckmeans,mpck-diag,mpck-full,copkmeans,mpck-cosine]
 * --propagation P (robust | transitive | off; default robust) and
 * --whitening W (rca | off; default: the library's, rca) are pckmeans's,
 * mpckmeans's and copkmeans's (propagation not copkmeans's); --cleaning-rounds
 * C (default: the library's, 1) is pckmeans's and mpckmeans's (a fit that
 * violates some pairs is followed by a refit on the others: fit_s then
 * counts both).
 * Output: one line per method: "method=... n=... d=... k=... pairs=...
 * iter_cpu=... iter_wall=... intervals=... fit_s=... iterations=...
 * objective=..." (seconds; iter_* are medians per iteration, fit_s the median
 * wall time of a whole fit), then for every method but kmeans its ratio of
 * CPU time per iteration to kmeans's; for pckmeans / mpckmeans also init_s,
 * the median wall time from the start of the fit to the log line that
 * reports the must-link neighbourhoods (their centres are computed then:
 * the set-up and the centres of the initialisation, without the k-means++
 * or farthest-first choice that follows). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "kindred.h"

enum { kMethods = 6, kMaxIntervals = 100000 };

/* Per-iteration intervals of one method over all repeats. */
typedef struct timing {
    double last_cpu, last_wall;
    int64_t last_iter;
    double *cpu, *wall;
    int64_t count;
    double fit_start, *init; /* init: one per fit that logged its neighbourhoods */
    int64_t init_count;
} timing;

/* HMRF's initialisation logs "... must-link neighbourhoods for k = ..." once
 * the centres of the neighbourhoods are computed. */
static void on_log(void *user, int level, const char *message) {
    (void)level;
    timing *t = (timing *)user;
    if (strstr(message, "must-link neighbourhoods") && t->init_count < kMaxIntervals)
        t->init[t->init_count++] = now_seconds() - t->fit_start;
}

static int on_progress(void *user, int64_t iteration, double objective, const char *message) {
    (void)objective;
    (void)message;
    timing *t = (timing *)user;
    const double cpu = cpu_seconds(), wall = now_seconds();
    if (t->last_iter >= 0 && iteration == t->last_iter + 1 && t->count < kMaxIntervals) {
        t->cpu[t->count] = cpu - t->last_cpu;
        t->wall[t->count] = wall - t->last_wall;
        ++t->count;
    }
    t->last_cpu = cpu;
    t->last_wall = wall;
    t->last_iter = iteration;
    return 0;
}

static int compare_doubles(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int64_t count) {
    if (count <= 0) return NAN;
    qsort(v, (size_t)count, sizeof(double), compare_doubles);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

/* name is one of the comma-separated entries of list. */
static int listed(const char *list, const char *name) {
    const size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && !strncmp(p, name, len)) return 1;
        p = end ? end + 1 : NULL;
    }
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
    int64_t n = 100000, d = 16, k = 10, pairs = -1, iters = 10, threads = 1, repeats = 1;
    double spread = 4.0;
    const char *propagation = "robust", *whitening = NULL;
    int64_t cleaning_rounds = -1;
    const char *methods = "kmeans,pckmeans,mpck-diag,mpck-full,copkmeans";
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--n")) n = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--d")) d = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--k")) k = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--pairs")) pairs = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--iters")) iters = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--threads")) threads = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--repeats")) repeats = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--spread")) spread = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "--methods")) methods = argv[a + 1];
        else if (!strcmp(argv[a], "--propagation")) propagation = argv[a + 1];
        else if (!strcmp(argv[a], "--whitening")) whitening = argv[a + 1];
        else if (!strcmp(argv[a], "--cleaning-rounds")) cleaning_rounds = atoll(argv[a + 1]);
        else {
            fprintf(stderr, "pairwise_bench: unknown flag %s\n", argv[a]);
            return 2;
        }
    }
    if (pairs < 0) pairs = n;
    if (n < 1 || d < 1 || k < 1 || iters < 1 || repeats < 1) {
        fprintf(stderr, "pairwise_bench: n, d, k, iters and repeats must be positive\n");
        return 2;
    }
    double *x = malloc(sizeof(double) * (size_t)(n * d)), *centres = malloc(sizeof(double) * (size_t)(k * d));
    int32_t *truth = malloc(sizeof(int32_t) * (size_t)n);
    if (!x || !centres || !truth) return 1;
    for (int64_t v = 0; v < k * d; ++v) centres[v] = spread * normal();
    for (int64_t i = 0; i < n; ++i) {
        truth[i] = (int32_t)(i % k);
        for (int64_t j = 0; j < d; ++j) x[i * d + j] = centres[truth[i] * d + j] + normal();
    }
    kindred_side *side = NULL;
    if (fail_status(kindred_side_new(&side, n), "side")) return 1;
    if (fail_status(kindred_sample_pairs(side, truth, n, pairs, -1, 0.0, 7), "sampling pairs")) return 1;

    const char *names[kMethods] = {"kmeans", "pckmeans", "mpck-diag", "mpck-full", "copkmeans", "mpck-cosine"};
    const char *algos[kMethods] = {"kmeans", "pckmeans", "mpckmeans", "mpckmeans", "copkmeans", "mpckmeans"};
    timing t[kMethods];
    double *fit_s[kMethods];
    int64_t iterations[kMethods];
    double objective[kMethods];
    for (int m = 0; m < kMethods; ++m) {
        memset(&t[m], 0, sizeof t[m]);
        t[m].cpu = malloc(sizeof(double) * kMaxIntervals);
        t[m].wall = malloc(sizeof(double) * kMaxIntervals);
        t[m].init = malloc(sizeof(double) * kMaxIntervals);
        fit_s[m] = malloc(sizeof(double) * (size_t)repeats);
        iterations[m] = 0;
        objective[m] = NAN;
        if (!t[m].cpu || !t[m].wall || !t[m].init || !fit_s[m]) return 1;
    }
    char *errors[kMethods] = {NULL};
    for (int64_t r = 0; r < repeats; ++r) {
        for (int m = 0; m < kMethods; ++m) {
            if (!listed(methods, names[m]) || errors[m]) continue;
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
            if (m == 5) kindred_model_set_string(model, "distortion", "cosine");
            const int mpck = m == 2 || m == 3 || m == 5;
            if (mpck) kindred_model_set_double(model, "tol", 0.0);
            /* One fit per measurement: one start, a weight given (no
             * cross-validation); the propagation of the defaults (robust
             * units) for pckmeans / mpckmeans. */
            if (m >= 1) kindred_model_set_int(model, "n_init", 1);
            if (m == 1) {
                kindred_model_set_double(model, "penalty", 1.0);
                kindred_model_set_string(model, "propagation", propagation);
            }
            if (mpck) {
                kindred_model_set_double(model, "constraint_weight", 1.0);
                kindred_model_set_string(model, "propagation", propagation);
            }
            if ((m == 1 || m == 4 || mpck) && whitening) kindred_model_set_string(model, "whitening", whitening);
            if ((m == 1 || mpck) && cleaning_rounds >= 0) kindred_model_set_int(model, "cleaning_rounds", cleaning_rounds);
            t[m].last_iter = -1;
            kindred_model_set_progress(model, on_progress, &t[m]);
            kindred_model_set_log(model, on_log, &t[m]);
            const double start = now_seconds();
            t[m].fit_start = start;
            const kindred_status s =
                kindred_model_fit_dense(model, x, n, d, KINDRED_ROW_MAJOR, d, m == 0 ? NULL : side);
            fit_s[m][r] = now_seconds() - start;
            if (s != KINDRED_OK) {
                errors[m] = strdup(kindred_last_error());
            } else {
                kindred_model_summary(model, NULL, NULL, NULL, &iterations[m], NULL, &objective[m]);
            }
            kindred_model_free(model);
        }
    }
    double kmeans_cpu = NAN;
    for (int m = 0; m < kMethods; ++m) {
        if (!listed(methods, names[m])) continue;
        if (errors[m]) {
            printf("method=%s n=%lld d=%lld k=%lld pairs=%lld error=\"%s\"\n", names[m], (long long)n, (long long)d,
                   (long long)k, (long long)pairs, errors[m]);
            continue;
        }
        const int64_t count = t[m].count;
        const double cpu = median(t[m].cpu, count), wall = median(t[m].wall, count);
        if (m == 0) kmeans_cpu = cpu;
        printf("method=%s n=%lld d=%lld k=%lld pairs=%lld threads=%lld iter_cpu=%.5f iter_wall=%.5f intervals=%lld "
               "fit_s=%.4f iterations=%lld objective=%.10g",
               names[m], (long long)n, (long long)d, (long long)k, (long long)pairs, (long long)threads, cpu, wall,
               (long long)count, median(fit_s[m], repeats), (long long)iterations[m], objective[m]);
        if (m > 0 && kmeans_cpu > 0.0) printf(" ratio_cpu=%.2f", cpu / kmeans_cpu);
        if (t[m].init_count > 0) printf(" init_s=%.4f", median(t[m].init, t[m].init_count));
        printf("\n");
        fflush(stdout);
    }
    for (int m = 0; m < kMethods; ++m) {
        free(t[m].cpu);
        free(t[m].wall);
        free(t[m].init);
        free(fit_s[m]);
        free(errors[m]);
    }
    kindred_side_free(side);
    free(x);
    free(centres);
    free(truth);
    return 0;
}
