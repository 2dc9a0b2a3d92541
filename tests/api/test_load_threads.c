/* Concurrency under load: 8 threads, each fitting, predicting, saving and
 * loading its own handles on shared read-only data, in a loop for a bounded
 * time (KINDRED_LOAD_SECONDS, default 5). Every result must equal the one the
 * same fit gave on the main thread before the load began, so a race that
 * changes a result fails the test even where no sanitizer runs; .ci/run also
 * runs it under ThreadSanitizer. Some fits use 2 library threads of their own.
 *
 * Usage of handles follows the promise: distinct handles on distinct threads,
 * the caller's arrays shared (the library only reads them). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kindred.h"
#include "testing.h"

enum { THREADS = 8, N = 600, D = 3, K = 3 };

/* The algorithms the threads take in turn, with the side information each uses. */
static const char *const kAlgorithms[] = {"kmeans", "gmm", "pckmeans", "mpckmeans", "copkmeans", "rdpmeans", "tcs-gm", "dpmeans"};
enum { ALGORITHMS = sizeof kAlgorithms / sizeof kAlgorithms[0] };

/* Shared, read-only once the threads start. */
static double points[N * D];
static int32_t truth[N];
static int32_t expected[ALGORITHMS][N];

typedef struct worker {
    int index;
    double seconds;
    long iterations;
    char failure[512]; /* empty when every iteration matched */
} worker;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int make_side(kindred_side **out) {
    int status = kindred_side_new(out, N);
    if (status == KINDRED_OK) status = kindred_sample_pairs(*out, truth, N, 200, 0.0, 0.0, 3);
    int32_t partial[N];
    for (int p = 0; p < N; ++p) partial[p] = p % 20 == 0 ? truth[p] : -1;
    if (status == KINDRED_OK) status = kindred_side_set_partial_labels(*out, partial, N);
    return status;
}

/* Fits algorithm a with `threads` library threads on the shared points;
 * returns the status and leaves the fitted model in *out. */
static int fit(int a, int64_t threads, const kindred_side *side, kindred_model **out) {
    int status = kindred_model_new(out, kAlgorithms[a]);
    if (status == KINDRED_OK) status = kindred_model_set_int(*out, "seed", 5);
    if (status == KINDRED_OK) status = kindred_model_set_int(*out, "threads", threads);
    if (status == KINDRED_OK) status = kindred_model_set_int(*out, "k", K);
    if (status == KINDRED_OK) status = kindred_model_fit_dense(*out, points, N, D, KINDRED_ROW_MAJOR, D, side);
    return status;
}

/* One iteration: fit, compare, predict, save, load, compare again. */
static int iteration(worker *w, int a, const kindred_side *side, const char *path) {
    kindred_model *m = NULL, *loaded = NULL;
    int32_t labels[N];
    int ok = 0;
    if (fit(a, 1 + (w->index + a) % 2, side, &m) != KINDRED_OK) {
        snprintf(w->failure, sizeof w->failure, "%s fit: %s", kAlgorithms[a], kindred_last_error());
    } else if (kindred_model_labels(m, labels, N) != KINDRED_OK || memcmp(labels, expected[a], sizeof labels) != 0) {
        snprintf(w->failure, sizeof w->failure, "%s: labels differ from the single-threaded fit", kAlgorithms[a]);
    } else if (kindred_model_predict_dense(m, points, N, D, KINDRED_ROW_MAJOR, D, labels, N) != KINDRED_OK) {
        snprintf(w->failure, sizeof w->failure, "%s predict: %s", kAlgorithms[a], kindred_last_error());
    } else if (kindred_model_save(m, path) != KINDRED_OK || kindred_model_load(&loaded, path) != KINDRED_OK) {
        snprintf(w->failure, sizeof w->failure, "%s save / load: %s", kAlgorithms[a], kindred_last_error());
    } else if (kindred_model_labels(loaded, labels, N) != KINDRED_OK || memcmp(labels, expected[a], sizeof labels) != 0) {
        snprintf(w->failure, sizeof w->failure, "%s: loaded labels differ", kAlgorithms[a]);
    } else {
        ok = 1;
    }
    kindred_model_free(m);
    kindred_model_free(loaded);
    return ok;
}

static void *run_worker(void *arg) {
    worker *w = arg;
    char path[256];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/kindred_load_%ld_%d.kdm", dir ? dir : "/tmp", (long)getpid(), w->index);
    kindred_side *side = NULL;
    if (make_side(&side) != KINDRED_OK) {
        snprintf(w->failure, sizeof w->failure, "side: %s", kindred_last_error());
        return NULL;
    }
    const double end = now() + w->seconds;
    for (int a = w->index % ALGORITHMS; now() < end; a = (a + 1) % ALGORITHMS) {
        if (!iteration(w, a, side, path)) break;
        ++w->iterations;
    }
    kindred_side_free(side);
    remove(path);
    return NULL;
}

static void eight_threads_under_load(void **state) {
    (void)state;
    make_blobs(points, truth, N, D, K, 4.0, 1.5, 99);
    kindred_side *side = NULL;
    assert_ok(make_side(&side));
    for (int a = 0; a < ALGORITHMS; ++a) {
        kindred_model *m = NULL;
        if (fit(a, 1, side, &m) != KINDRED_OK) fail_msg("%s: %s", kAlgorithms[a], kindred_last_error());
        assert_ok(kindred_model_labels(m, expected[a], N));
        kindred_model_free(m);
    }
    kindred_side_free(side);

    const char *env = getenv("KINDRED_LOAD_SECONDS");
    const double seconds = env ? atof(env) : 5.0;
    worker workers[THREADS];
    pthread_t ids[THREADS];
    for (int t = 0; t < THREADS; ++t) {
        workers[t] = (worker){t, seconds, 0, ""};
        assert_int_equal(pthread_create(&ids[t], NULL, run_worker, &workers[t]), 0);
    }
    long total = 0, fewest = -1;
    for (int t = 0; t < THREADS; ++t) {
        assert_int_equal(pthread_join(ids[t], NULL), 0);
        if (workers[t].failure[0]) fail_msg("thread %d: %s", t, workers[t].failure);
        assert_true(workers[t].iterations > 0);
        total += workers[t].iterations;
        if (fewest < 0 || workers[t].iterations < fewest) fewest = workers[t].iterations;
    }
    print_message("%d threads x %.0f s: %ld iterations (fit, predict, save, load), fewest per thread %ld\n", THREADS,
                  seconds, total, fewest);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(eight_threads_under_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
