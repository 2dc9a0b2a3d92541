/* "Same seed, same labels for any thread count", for every algorithm, in one
 * table: each row fits the same data and side information with threads = 1,
 * 2, 3 and 8 and must give the same labels, cluster count and objective, bit
 * for bit. The same fits are then repeated in two child processes whose
 * OpenBLAS runs on 1 and on 2 threads (OPENBLAS_NUM_THREADS is read once, when
 * the library loads), which must print the same digests.
 *
 * The data is large enough (n > 8192, the library's summation chunk) for the
 * library to cut its loops into several chunks. A table row per algorithm the
 * library lists: a new algorithm without a row fails the test. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kindred.h"
#include "testing.h"

enum { N = 10000, D = 4, K = 4 };

typedef struct row {
    const char *algorithm;
    const char *options; /* "name=value ..." set as strings; k and max_iter are set where the algorithm has them */
} row;

static const row kTable[] = {
    {"kmeans", "n_init=2"},
    {"dpmeans", ""},
    {"gmm", ""},
    {"copkmeans", ""},
    {"pckmeans", ""},
    {"mpckmeans", ""},
    {"rdpmeans", ""},
    {"tvclust", ""},
    {"tcs-gm", ""},
    {"tcs-vmf", ""},
    {"dcrc", ""},
};
enum { ROWS = sizeof kTable / sizeof kTable[0] };

static double *points;
static int32_t *truth;
static kindred_side *side;

static int setup(void **state) {
    (void)state;
    points = malloc(sizeof(double) * N * D);
    truth = malloc(sizeof(int32_t) * N);
    make_blobs(points, truth, N, D, K, 3.0, 2.0, 77);
    if (kindred_side_new(&side, N) != KINDRED_OK) return -1;
    /* Consistent pairs and triplets from the truth, and a few labelled points
     * of every class: every algorithm finds what it needs. */
    if (kindred_sample_pairs(side, truth, N, 300, 0.0, 0.0, 5) != KINDRED_OK) return -1;
    if (kindred_sample_triplets(side, truth, N, 300, 0.0, 5) != KINDRED_OK) return -1;
    int32_t *partial = malloc(sizeof(int32_t) * N);
    for (int64_t p = 0; p < N; ++p) partial[p] = p % 50 == 0 ? truth[p] : -1;
    const int status = kindred_side_set_partial_labels(side, partial, N);
    free(partial);
    return status == KINDRED_OK ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    kindred_side_free(side);
    free(points);
    free(truth);
    return 0;
}

typedef struct result {
    int32_t labels[N];
    int64_t clusters;
    double objective;
} result;

/* Sets "name=value" pairs separated by spaces. */
static void set_options(kindred_model *m, const char *options) {
    char buffer[256];
    snprintf(buffer, sizeof buffer, "%s", options);
    for (char *save = NULL, *item = strtok_r(buffer, " ", &save); item; item = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(item, '=');
        assert_non_null(eq);
        *eq = '\0';
        assert_ok(kindred_model_set_string(m, item, eq + 1));
    }
}

static void fit(const row *r, int64_t threads, result *out) {
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, r->algorithm));
    assert_ok(kindred_model_set_int(m, "seed", 11));
    assert_ok(kindred_model_set_int(m, "threads", threads));
    /* Where the algorithm has them: the number of clusters (a hint for the
     * DP methods) and a bound on the iterations, to keep the table quick. */
    const kindred_status has_k = kindred_model_set_int(m, "k", K);
    if (has_k != KINDRED_OK) assert_int_equal(has_k, KINDRED_E_NOT_FOUND);
    const kindred_status has_max_iter = kindred_model_set_int(m, "max_iter", 15);
    if (has_max_iter != KINDRED_OK) assert_int_equal(has_max_iter, KINDRED_E_NOT_FOUND);
    set_options(m, r->options);
    const int status = kindred_model_fit_dense(m, points, N, D, KINDRED_ROW_MAJOR, D, side);
    if (status != KINDRED_OK) fail_msg("%s, %ld threads: %s", r->algorithm, (long)threads, kindred_last_error());
    assert_ok(kindred_model_summary(m, NULL, NULL, &out->clusters, NULL, NULL, &out->objective));
    assert_ok(kindred_model_labels(m, out->labels, N));
    kindred_model_free(m);
}

static uint64_t digest(const result *r) {
    uint64_t h = test_fnv1a((const unsigned char *)r->labels, sizeof r->labels);
    h ^= test_fnv1a((const unsigned char *)&r->objective, sizeof r->objective) * 31u;
    return h ^ (uint64_t)r->clusters;
}

static result reference[ROWS], other;

static void every_algorithm_has_a_row(void **state) {
    (void)state;
    assert_int_equal(kindred_algorithm_count(), ROWS);
    for (int64_t a = 0; a < kindred_algorithm_count(); ++a) {
        int found = 0;
        for (int r = 0; r < ROWS; ++r) found |= strcmp(kTable[r].algorithm, kindred_algorithm_name(a)) == 0;
        if (!found) fail_msg("no row for %s", kindred_algorithm_name(a));
    }
}

static void same_labels_for_any_thread_count(void **state) {
    (void)state;
    const int64_t counts[3] = {2, 3, 8};
    for (int r = 0; r < ROWS; ++r) {
        fit(&kTable[r], 1, &reference[r]);
        assert_true(reference[r].clusters >= 1);
        for (int c = 0; c < 3; ++c) {
            fit(&kTable[r], counts[c], &other);
            if (memcmp(other.labels, reference[r].labels, sizeof other.labels) != 0 ||
                other.clusters != reference[r].clusters ||
                memcmp(&other.objective, &reference[r].objective, sizeof(double)) != 0)
                fail_msg("%s: threads = %ld differs from threads = 1", kTable[r].algorithm, (long)counts[c]);
        }
        print_message("%-10s same labels with 1, 2, 3 and 8 threads (%ld clusters)\n", kTable[r].algorithm,
                      (long)reference[r].clusters);
    }
}

/* Runs this program with OPENBLAS_NUM_THREADS=blas and reads its digests. */
static void child_digests(const char *self, const char *blas, uint64_t *out) {
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    fflush(NULL);
    const pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        setenv("OPENBLAS_NUM_THREADS", blas, 1);
        execl(self, self, "--digests", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    FILE *in = fdopen(fd[0], "r");
    for (int r = 0; r < ROWS; ++r)
        if (fscanf(in, "%lx", (unsigned long *)&out[r]) != 1) fail_msg("BLAS %s: no digest for row %d", blas, r);
    fclose(in);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void same_labels_for_any_blas_thread_count(void **state) {
    (void)state;
    char self[4096];
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(len > 0);
    self[len] = '\0';
    uint64_t one[ROWS], two[ROWS];
    child_digests(self, "1", one);
    child_digests(self, "2", two);
    for (int r = 0; r < ROWS; ++r) {
        if (one[r] != digest(&reference[r]) || two[r] != digest(&reference[r]))
            fail_msg("%s: labels differ with OpenBLAS on 1 or 2 threads", kTable[r].algorithm);
    }
    print_message("every algorithm: same labels with OpenBLAS on 1 and 2 threads\n");
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--digests") == 0) {
        /* The child's side: one digest per row, with 3 library threads. */
        if (setup(NULL) != 0) return 1;
        for (int r = 0; r < ROWS; ++r) {
            fit(&kTable[r], 3, &other);
            printf("%lx\n", (unsigned long)digest(&other));
        }
        teardown(NULL);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_algorithm_has_a_row),
        cmocka_unit_test(same_labels_for_any_thread_count),
        cmocka_unit_test(same_labels_for_any_blas_thread_count),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
