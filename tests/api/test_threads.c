/* The threading contract of kindred.h: the error message is per thread, and
 * distinct handles can be used from different threads at once (here: fits
 * on shared read-only data), giving the results of a serial run. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <string.h>

#include "kindred.h"
#include "testing.h"

enum { N = 3000, D = 4, K = 5, WORKERS = 4 };

static double data[N * D];

/* ---- the message is per thread */

typedef struct message_check {
    int empty_on_entry;
    int own_error_seen;
} message_check;

static void *fail_in_thread(void *arg) {
    message_check *c = (message_check *)arg;
    c->empty_on_entry = kindred_last_error()[0] == '\0';
    kindred_model *m = NULL;
    c->own_error_seen = kindred_model_new(&m, "thread-algorithm") == KINDRED_E_NOT_FOUND &&
                        strstr(kindred_last_error(), "thread-algorithm") != NULL;
    return NULL;
}

static void last_error_is_per_thread(void **state) {
    (void)state;
    kindred_model *m = NULL;
    assert_fails_with(kindred_model_new(&m, "main-algorithm"), KINDRED_E_NOT_FOUND, "main-algorithm");
    message_check c = {0, 0};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, fail_in_thread, &c), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_true(c.empty_on_entry);
    assert_true(c.own_error_seen);
    /* The other thread's failure did not touch this thread's message. */
    assert_non_null(strstr(kindred_last_error(), "main-algorithm"));
    assert_null(strstr(kindred_last_error(), "thread-algorithm"));
}

/* ---- concurrent fits on distinct handles */

typedef struct fit_job {
    const char *algorithm;
    int64_t threads;
    int status;
    int32_t labels[N];
} fit_job;

static int fit_one(const char *algorithm, int64_t threads, int32_t *labels) {
    kindred_model *m = NULL;
    int s = kindred_model_new(&m, algorithm);
    if (s == KINDRED_OK) s = kindred_model_set_int(m, "k", K);
    if (s == KINDRED_OK) s = kindred_model_set_int(m, "seed", 5);
    if (s == KINDRED_OK) s = kindred_model_set_int(m, "threads", threads);
    if (s == KINDRED_OK) s = kindred_model_fit_dense(m, data, N, D, KINDRED_ROW_MAJOR, D, NULL);
    if (s == KINDRED_OK) s = kindred_model_labels(m, labels, N);
    kindred_model_free(m);
    return s;
}

static void *fit_in_thread(void *arg) {
    fit_job *job = (fit_job *)arg;
    job->status = fit_one(job->algorithm, job->threads, job->labels);
    return NULL;
}

static void concurrent_fits_match_serial_fits(void **state) {
    (void)state;
    make_blobs(data, NULL, N, D, K, 3.0, 2.0, 77);
    const char *algorithms[3] = {"kmeans", "dpmeans", "gmm"};
    static int32_t serial[3][N];
    for (int a = 0; a < 3; ++a) assert_int_equal(fit_one(algorithms[a], 1, serial[a]), KINDRED_OK);
    static fit_job jobs[3 * WORKERS];
    pthread_t threads[3 * WORKERS];
    for (int j = 0; j < 3 * WORKERS; ++j) {
        jobs[j].algorithm = algorithms[j % 3];
        jobs[j].threads = 1 + (j / 3) % 2; /* the library's own threads inside some of them */
        jobs[j].status = -1;
        assert_int_equal(pthread_create(&threads[j], NULL, fit_in_thread, &jobs[j]), 0);
    }
    for (int j = 0; j < 3 * WORKERS; ++j) assert_int_equal(pthread_join(threads[j], NULL), 0);
    for (int j = 0; j < 3 * WORKERS; ++j) {
        assert_int_equal(jobs[j].status, KINDRED_OK);
        assert_memory_equal(jobs[j].labels, serial[j % 3], sizeof(int32_t) * N);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(last_error_is_per_thread),
        cmocka_unit_test(concurrent_fits_match_serial_fits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
