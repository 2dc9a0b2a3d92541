/* Memory linear in n for the pairwise methods at a size where a buffer
 * quadratic in n cannot hide (issue 23). PCKMeans and MPCK-means start from
 * the centres of the must-link neighbourhoods; here every point is in one
 * must-linked pair, so there are n / 2 of them. Summing n / 2 groups with one
 * k x d block of partial sums per chunk of 32 768 rows, as the library once
 * did, needs (n / 32 768) x (n / 2) x d doubles: 2.1 GiB at n = 2^20, d = 16,
 * while the points are 128 MiB. Each fit runs in a child process whose
 * address space is limited to what is mapped before the fit (the points, the
 * pairs, the loaded libraries) plus kBudget; the fit must succeed there and
 * give labels that keep every pair together. Sanitizer builds reserve
 * terabytes of address space, so there the cases are skipped, with a message. */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kindred.h"
#include "testing.h"

enum { kN = 1 << 20, kD = 16, kK = 4 };

/* Address space a fit may add: what the linear terms need at this size
 * (docs/reliability.md, section 5: under 1 KiB per point here) with room to
 * spare, and well under the 2.1 GiB of the quadratic partial sums alone. */
static const rlim_t kBudget = (rlim_t)1536 << 20;

/* Exit codes of the child. */
enum { CHILD_OK = 0, CHILD_FIT_FAILED = 1, CHILD_SETUP = 2, CHILD_WRONG_LABELS = 3 };

/* k well separated blobs; pair p must-links points 2p and 2p + 1 (same blob). */
static int make_inputs(double **x_out, kindred_side **side_out) {
    double *x = malloc((size_t)kN * kD * sizeof *x);
    int64_t *pi = malloc((size_t)kN / 2 * sizeof *pi), *pj = malloc((size_t)kN / 2 * sizeof *pj);
    double *value = malloc((size_t)kN / 2 * sizeof *value);
    if (!x || !pi || !pj || !value) return 0;
    uint64_t state = 7;
    for (int64_t i = 0; i < kN; ++i) {
        const int64_t blob = (i / 2) % kK;
        for (int64_t j = 0; j < kD; ++j) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            x[i * kD + j] = (j == blob ? 20.0 : 0.0) + (double)(state >> 11) * (1.0 / 9007199254740992.0);
        }
    }
    for (int64_t p = 0; p < kN / 2; ++p) {
        pi[p] = 2 * p;
        pj[p] = 2 * p + 1;
        value[p] = 1.0;
    }
    kindred_side *side = NULL;
    const int ok = kindred_side_new(&side, kN) == KINDRED_OK &&
                   kindred_side_add_pairs(side, pi, pj, value, kN / 2) == KINDRED_OK;
    free(pi);
    free(pj);
    free(value);
    *x_out = x;
    *side_out = side;
    return ok;
}

/* Limits the address space to what is mapped now plus kBudget. */
static int limit_memory(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (!f || fscanf(f, "%lu", &pages) != 1) return 0;
    fclose(f);
    const rlim_t bytes = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + kBudget;
    struct rlimit limit = {bytes, bytes};
    return setrlimit(RLIMIT_AS, &limit) == 0;
}

/* The child: inputs, the limit, one fit (n_init 1, 3 iterations, 1 thread:
 * the initialisation is what is measured, and the cases stay short). */
static int fit_limited(const char *algorithm, const char *propagation) {
    double *x = NULL;
    kindred_side *side = NULL;
    kindred_model *m = NULL;
    int32_t *labels = malloc((size_t)kN * sizeof *labels);
    if (!labels || !make_inputs(&x, &side) || kindred_model_new(&m, algorithm) != KINDRED_OK ||
        kindred_model_set_int(m, "k", kK) != KINDRED_OK || kindred_model_set_int(m, "n_init", 1) != KINDRED_OK ||
        kindred_model_set_int(m, "max_iter", 3) != KINDRED_OK || kindred_model_set_int(m, "threads", 1) != KINDRED_OK ||
        /* A fixed weight: unset, it is chosen by cross-validation (more fits). */
        kindred_model_set_double(m, strcmp(algorithm, "pckmeans") == 0 ? "penalty" : "constraint_weight", 1.0) !=
            KINDRED_OK ||
        kindred_model_set_string(m, "propagation", propagation) != KINDRED_OK || !limit_memory())
        return CHILD_SETUP;
    if (kindred_model_fit_dense(m, x, kN, kD, KINDRED_ROW_MAJOR, kD, side) != KINDRED_OK) {
        fprintf(stderr, "%s (propagation %s) under the limit: %s\n", algorithm, propagation, kindred_last_error());
        return CHILD_FIT_FAILED;
    }
    if (kindred_model_labels(m, labels, kN) != KINDRED_OK) return CHILD_SETUP;
    for (int64_t p = 0; p < kN / 2; ++p)
        if (labels[2 * p] != labels[2 * p + 1]) return CHILD_WRONG_LABELS;
    return CHILD_OK;
}

static void run_case(const char *algorithm, const char *propagation) {
    if (TEST_SANITIZED) {
        print_message("SKIPPED %s (propagation %s): needs an address-space limit, which sanitizer builds cannot "
                      "run under\n",
                      algorithm, propagation);
        return;
    }
    fflush(NULL);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) _exit(fit_limited(algorithm, propagation));
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!WIFEXITED(status)) fail_msg("%s (propagation %s): the child ended by signal %d", algorithm, propagation,
                                     WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    switch (WEXITSTATUS(status)) {
    case CHILD_OK: break;
    case CHILD_FIT_FAILED:
        fail_msg("%s (propagation %s): the fit needed more than %llu MiB of address space at n = %d", algorithm,
                 propagation, (unsigned long long)(kBudget >> 20), kN);
        break;
    case CHILD_WRONG_LABELS: fail_msg("%s (propagation %s): a must-linked pair was split", algorithm, propagation); break;
    default: fail_msg("%s (propagation %s): setting up the child failed", algorithm, propagation);
    }
    print_message("%s (propagation %s): n = %d in %llu MiB more address space, %.1f s\n", algorithm, propagation, kN,
                  (unsigned long long)(kBudget >> 20),
                  (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
}

/* Point-wise (the paper's HMRF): neighbourhoods from the must-link components. */
static void pckmeans_pointwise(void **state) {
    (void)state;
    run_case("pckmeans", "off");
}

static void mpckmeans_pointwise(void **state) {
    (void)state;
    run_case("mpckmeans", "off");
}

/* Propagated constraints: neighbourhoods from the units (unit_driver). */
static void pckmeans_units(void **state) {
    (void)state;
    run_case("pckmeans", "transitive");
}

static void mpckmeans_units(void **state) {
    (void)state;
    run_case("mpckmeans", "transitive");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pckmeans_pointwise),
        cmocka_unit_test(mpckmeans_pointwise),
        cmocka_unit_test(pckmeans_units),
        cmocka_unit_test(mpckmeans_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
