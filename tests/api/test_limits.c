/* Sizes at the C boundary: every size, count, index or capacity argument of
 * the public API at INT64_MAX, at INT32_MAX + 1 (the first value a 32-bit
 * integer cannot hold) and at INT32_MAX (the largest size Debian's 32-bit
 * BLAS / LAPACK take). Each call must either work or be refused with a
 * documented code and a message naming the argument, before any arithmetic on
 * the size overflows (UBSan checks that) and without reading past the small
 * buffers passed (ASan checks that).
 *
 * Cases whose only honest outcome is an allocation of gigabytes run in a child
 * process whose address space is limited to 2 GiB, where they must fail with
 * KINDRED_E_NOMEM. Sanitizers reserve terabytes of address space, so those
 * cases are skipped, with a message, in sanitizer builds. */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kindred.h"
#include "testing.h"

#define BIG_MAX INT64_MAX
#define BIG_32 ((int64_t)INT32_MAX + 1)
#define BIG_LAPACK ((int64_t)INT32_MAX)

static const int64_t kSizes[3] = {BIG_MAX, BIG_32, BIG_LAPACK};

/* The call failed with one of the codes a size can be refused with, and its
 * message names `needle`. */
static void assert_refused(int status, const char *needle) {
    if (status == KINDRED_OK) fail_msg("a size was accepted where it should be refused (%s)", needle);
    assert_true(status == KINDRED_E_INVALID || status == KINDRED_E_DIMENSION || status == KINDRED_E_NOMEM ||
                status == KINDRED_E_INDEX || status == KINDRED_E_BUFFER_TOO_SMALL);
    if (!strstr(kindred_last_error(), needle)) fail_msg("message '%s' does not name '%s'", kindred_last_error(), needle);
}

/* `bytes` of zeros that cost no memory until written: the kernel's zero page
 * backs every read (and, after MADV_HUGEPAGE, its huge zero page: 512 times
 * fewer faults for the cases that read 16 GiB). NULL where the kernel does not
 * overcommit (vm.overcommit_memory = 2) and refuses the mapping. */
static void *try_zeros(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return NULL;
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

enum { NO_MAPPING = 5 }; /* a child's exit code: the kernel refused the mapping */

/* The same in the children below, which must not use cmocka's checks: they
 * exit instead, and the case is reported as skipped. */
static void *zeros(size_t bytes) {
    void *p = try_zeros(bytes);
    if (!p) _exit(NO_MAPPING);
    return p;
}

/* Limits the address space to what is mapped now (the zero mappings
 * included) plus 2 GiB. Called by a case after its mappings are made. */
static void limit_memory(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (!f || fscanf(f, "%lu", &pages) != 1) _exit(3);
    fclose(f);
    const rlim_t bytes = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)2 << 30);
    struct rlimit limit = {bytes, bytes};
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(3);
}

typedef int (*limited_case)(void);

/* Runs `body` in a child process whose address space the body limits (by
 * limit_memory) once its inputs are mapped; the child exits with 0 when body
 * returned KINDRED_E_NOMEM with a message (a body that expects another
 * outcome checks it and returns KINDRED_E_NOMEM for "as expected"). */
static void run_limited(const char *name, limited_case body) {
    if (TEST_SANITIZED) {
        print_message("SKIPPED %s: needs an address-space limit, which sanitizer builds cannot run under\n", name);
        return;
    }
    fflush(NULL);
    const pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        const int status = body();
        if (status != KINDRED_E_NOMEM) fprintf(stderr, "%s: status %d, '%s'\n", name, status, kindred_last_error());
        _exit(status == KINDRED_E_NOMEM && kindred_last_error()[0] != '\0' ? 0 : 1);
    }
    int status = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(waitpid(child, &status, 0), child);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (WIFEXITED(status) && WEXITSTATUS(status) == NO_MAPPING) {
        print_message("SKIPPED %s: the kernel refused a mapping of untouched pages (no overcommit)\n", name);
        return;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail_msg("%s: child ended with status %d", name, status);
    print_message("%s: as expected under the limit after %.1f s\n", name,
                  (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
}

/* ---- side information ---------------------------------------------- */

static int side_new_32(void) {
    limit_memory();
    kindred_side *s = NULL;
    const int status = kindred_side_new(&s, BIG_32);
    kindred_side_free(s);
    return status;
}

static int side_new_lapack(void) {
    limit_memory();
    kindred_side *s = NULL;
    const int status = kindred_side_new(&s, BIG_LAPACK);
    kindred_side_free(s);
    return status;
}

/* INT64_MAX points overflowed n + 1 in the store (UBSan) before it was refused. */
static void side_new_sizes(void **state) {
    (void)state;
    kindred_side *s = NULL;
    assert_refused(kindred_side_new(&s, BIG_MAX), "side information: n = 9223372036854775807");
    assert_int_equal(kindred_last_error()[0] != '\0', 1);
    assert_null(s);
    assert_int_equal(kindred_side_new(&s, BIG_MAX), KINDRED_E_NOMEM);
    run_limited("side_new(INT32_MAX + 1)", side_new_32);
    run_limited("side_new(INT32_MAX)", side_new_lapack);
}

/* Counts of caller arrays: INT64_MAX is refused before any entry is read; the
 * 32-bit values are taken as they are (not truncated, not negative), which
 * shows in the error about entry 0 of the one-entry arrays. */
static void side_counts(void **state) {
    (void)state;
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 4));
    const int64_t same[1] = {1}, other[1] = {2};
    const double value[1] = {1.0};
    const int32_t answer[1] = {1};
    assert_refused(kindred_side_add_pairs(s, same, same, value, BIG_MAX), "pairs: count = ");
    assert_refused(kindred_side_add_triplets(s, same, same, other, answer, BIG_MAX), "triplets: count = ");
    for (int k = 1; k < 3; ++k) {
        assert_fails_with(kindred_side_add_pairs(s, same, same, value, kSizes[k]), KINDRED_E_INVALID, "entry 0");
        assert_fails_with(kindred_side_add_triplets(s, same, same, other, answer, kSizes[k]), KINDRED_E_INVALID,
                          "entry 0");
    }
    int32_t labels[4] = {0, -1, 1, -1};
    for (int k = 0; k < 3; ++k) assert_refused(kindred_side_set_partial_labels(s, labels, kSizes[k]), "labels");
    assert_ok(kindred_side_add_pairs(s, same, other, value, 1));

    /* Capacities larger than needed are fine: only what is there is written. */
    int64_t i[1], j[1], component[4], count = 0;
    double v[1];
    int64_t a[1], b[1], c[1];
    int32_t ans[1];
    for (int k = 0; k < 3; ++k) {
        assert_ok(kindred_side_pairs(s, i, j, v, kSizes[k]));
        assert_ok(kindred_side_triplets(s, a, b, c, ans, kSizes[k]));
        assert_ok(kindred_side_components(s, component, kSizes[k], &count));
    }
    assert_int_equal(count, 3);
    kindred_side_free(s);
}

/* ---- lists of algorithms, options, metrics ------------------------- */

static void indexes(void **state) {
    (void)state;
    for (int k = 0; k < 3; ++k) {
        assert_null(kindred_algorithm_name(kSizes[k]));
        assert_null(kindred_metric_name(kSizes[k]));
        const char *name, *def, *range, *doc;
        kindred_option_type type;
        assert_refused(kindred_option_info("kmeans", kSizes[k], &name, &type, &def, &range, &doc), "option index");
    }
}

/* ---- data arguments: fit, predict, transform, active selection ----- */

static kindred_model *model_of(const char *algorithm) {
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, algorithm));
    assert_ok(kindred_model_set_int(m, "threads", 1));
    return m;
}

static int yes(void *user, int64_t i, int64_t j) {
    (void)user;
    (void)i;
    (void)j;
    return 1;
}

/* n, d and ld at INT64_MAX describe more values than any buffer holds: refused
 * before a value is read (the buffer here has 4). */
static void dense_sizes_at_int64_max(void **state) {
    (void)state;
    const double x[4] = {0, 1, 2, 3};
    kindred_model *m = model_of("kmeans");
    assert_refused(kindred_model_fit_dense(m, x, BIG_MAX, 1, KINDRED_ROW_MAJOR, 1, NULL), "n = ");
    assert_refused(kindred_model_fit_dense(m, x, 1, BIG_MAX, KINDRED_ROW_MAJOR, BIG_MAX, NULL), "d = ");
    assert_refused(kindred_model_fit_dense(m, x, 2, 1, KINDRED_ROW_MAJOR, BIG_MAX, NULL), "leading dimension");
    assert_refused(kindred_model_fit_dense(m, x, 2, 2, KINDRED_COL_MAJOR, BIG_MAX, NULL), "leading dimension");
    assert_refused(kindred_model_fit_csr(m, BIG_MAX, 1, (const int64_t[]){0, 0}, NULL, NULL, NULL), "CSR data: n = ");
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 2));
    assert_refused(test_active_select("explore-consolidate", x, BIG_MAX, 1, KINDRED_ROW_MAJOR, 1, 2, 2, 1, yes,
                                         NULL, s),
                   "n = ");
    assert_refused(test_active_select("explore-consolidate", x, 2, BIG_MAX, KINDRED_ROW_MAJOR, BIG_MAX, 2, 2, 1, yes,
                                         NULL, s),
                   "d = ");
    kindred_side_free(s);
    kindred_model_free(m);
}

/* A leading dimension beyond 32 bits with two points: the second point is
 * 2^31 values after the first. Only two pages of the mapping are read. */
static void leading_dimension_beyond_32_bits(void **state) {
    (void)state;
    for (int k = 1; k < 3; ++k) {
        const int64_t ld = kSizes[k];
        const size_t bytes = (size_t)(ld + 1) * sizeof(double);
        double *x = try_zeros(bytes);
        if (!x) {
            print_message("SKIPPED leading dimension %ld: the kernel refused a mapping of untouched pages\n", (long)ld);
            continue;
        }
        /* The points are 0 and 0: one cluster whatever the method. */
        kindred_model *m = model_of("kmeans");
        assert_ok(kindred_model_set_int(m, "k", 1));
        const int status = kindred_model_fit_dense(m, x, 2, 1, KINDRED_ROW_MAJOR, ld, NULL);
        if (status != KINDRED_OK) assert_refused(status, "leading dimension");
        else {
            int32_t labels[2] = {-2, -2};
            assert_ok(kindred_model_predict_dense(m, x, 2, 1, KINDRED_ROW_MAJOR, ld, labels, BIG_MAX));
            assert_int_equal(labels[0], labels[1]);
            assert_ok(kindred_model_labels(m, labels, kSizes[k]));
        }
        kindred_model_free(m);
        munmap(x, bytes);
    }
}

/* The n cases below put a bad value in the first row: reading all 2^31
 * values takes about a minute, and a refusal naming row 0 already shows that
 * n was taken as the 64-bit count it is (truncated to 32 bits it would be
 * negative, and refused as such). */
static double *zeros_with_nan_first(size_t bytes) {
    double *x = zeros(bytes);
    if (mprotect(x, 4096, PROT_READ | PROT_WRITE) != 0) _exit(4);
    x[0] = NAN;
    return x;
}

static int fit_n_32(void) {
    const size_t bytes = (size_t)BIG_32 * sizeof(double);
    double *x = zeros_with_nan_first(bytes);
    limit_memory();
    kindred_model *m = NULL;
    if (kindred_model_new(&m, "kmeans") != KINDRED_OK) return -1;
    int status = kindred_model_fit_dense(m, x, BIG_32, 1, KINDRED_ROW_MAJOR, 1, NULL);
    if (status == KINDRED_E_INVALID && strstr(kindred_last_error(), "row 0, column 0 is NaN")) status = KINDRED_E_NOMEM;
    kindred_model_free(m);
    return status;
}

static int fit_d_32(void) {
    const size_t bytes = (size_t)BIG_32 * sizeof(double);
    double *x = zeros(bytes);
    limit_memory();
    kindred_model *m = NULL;
    if (kindred_model_new(&m, "kmeans") != KINDRED_OK) return -1;
    kindred_model_set_int(m, "k", 1);
    const int status = kindred_model_fit_dense(m, x, 1, BIG_32, KINDRED_ROW_MAJOR, BIG_32, NULL);
    kindred_model_free(m);
    return status;
}

static int fit_csr_n_32(void) {
    /* 2^31 empty rows: indptr of zeros. */
    int64_t *indptr = zeros((size_t)(BIG_32 + 1) * sizeof(int64_t));
    if (mprotect(indptr, 4096, PROT_READ | PROT_WRITE) != 0) _exit(4);
    indptr[1] = -1; /* see fit_n_32 */
    limit_memory();
    kindred_model *m = NULL;
    if (kindred_model_new(&m, "kmeans") != KINDRED_OK) return -1;
    int status = kindred_model_fit_csr(m, BIG_32, 1, indptr, NULL, NULL, NULL);
    if (status == KINDRED_E_INVALID && strstr(kindred_last_error(), "decreases at row 0")) status = KINDRED_E_NOMEM;
    kindred_model_free(m);
    return status;
}

static int fit_csr_d_32(void) {
    limit_memory();
    const int64_t indptr[3] = {0, 1, 2}, indices[2] = {0, BIG_32 - 1};
    const double values[2] = {1.0, 1.0};
    kindred_model *m = NULL;
    if (kindred_model_new(&m, "kmeans") != KINDRED_OK) return -1;
    kindred_model_set_int(m, "k", 2);
    const int status = kindred_model_fit_csr(m, 2, BIG_32, indptr, indices, values, NULL);
    kindred_model_free(m);
    return status;
}

/* n or d beyond 32 bits is a size the library really works with (the values
 * are read as 64-bit counts); the fit's own arrays then exceed the 2 GiB limit
 * (d), or the refusal of row 0 shows n read whole (n). */
static void data_sizes_beyond_32_bits(void **state) {
    (void)state;
    run_limited("fit_dense(n = INT32_MAX + 1, NaN in row 0)", fit_n_32);
    run_limited("fit_dense(d = INT32_MAX + 1)", fit_d_32);
    run_limited("fit_csr(n = INT32_MAX + 1, indptr decreasing at row 0)", fit_csr_n_32);
    run_limited("fit_csr(d = INT32_MAX + 1)", fit_csr_d_32);
}

/* Output capacities beyond what is needed, on a fitted model. */
static void capacities(void **state) {
    (void)state;
    double x[12];
    make_blobs(x, NULL, 6, 2, 2, 5.0, 0.5, 3);
    kindred_model *m = model_of("kmeans");
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_fit_dense(m, x, 6, 2, KINDRED_ROW_MAJOR, 2, NULL));
    int32_t labels[6];
    double centers[4];
    for (int k = 0; k < 3; ++k) {
        assert_ok(kindred_model_labels(m, labels, kSizes[k]));
        assert_ok(kindred_model_array(m, "centers", centers, kSizes[k]));
        assert_ok(kindred_model_predict_dense(m, x, 6, 2, KINDRED_ROW_MAJOR, 2, labels, kSizes[k]));
        const char *name;
        int64_t rows, cols;
        assert_refused(kindred_model_array_info(m, kSizes[k], &name, &rows, &cols), "array index");
        /* Predicting more points than the buffer of 6 labels holds: refused
         * before the 12 values of x are read past (ASan checks that). */
        assert_fails_with(kindred_model_predict_dense(m, x, kSizes[k], 2, KINDRED_ROW_MAJOR, 2, labels, 6),
                          KINDRED_E_BUFFER_TOO_SMALL, "labels: buffer of 6 entries is too small");
        assert_refused(kindred_model_predict_csr(m, kSizes[k], 2, (const int64_t[]){0, 0}, NULL, NULL, labels, 6), "");
    }
    kindred_model_free(m);
}

/* transform's output size is n times the transformed dimension: at n near
 * INT64_MAX / 2 that product overflows unless checked. */
static void transform_sizes(void **state) {
    (void)state;
    double x[40];
    int32_t partial[20];
    make_blobs(x, partial, 20, 2, 2, 5.0, 0.5, 5);
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 20));
    assert_ok(kindred_side_set_partial_labels(s, partial, 20));
    kindred_model *m = model_of("tcs-gm");
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_fit_dense(m, x, 20, 2, KINDRED_ROW_MAJOR, 2, s));
    double out[40];
    for (int k = 0; k < 3; ++k) {
        assert_fails_with(kindred_model_transform_dense(m, x, kSizes[k], 2, KINDRED_ROW_MAJOR, 2, out, 40),
                          KINDRED_E_BUFFER_TOO_SMALL, "transform output: buffer of 40 entries is too small");
        assert_ok(kindred_model_transform_dense(m, x, 20, 2, KINDRED_ROW_MAJOR, 2, out, kSizes[k]));
    }
    /* n * dim would overflow int64: refused without forming it. */
    assert_fails_with(kindred_model_transform_dense(m, x, INT64_MAX / 3, 2, KINDRED_COL_MAJOR, INT64_MAX / 3, out, 40),
                      KINDRED_E_BUFFER_TOO_SMALL, "transform output: buffer of 40 entries is too small");
    kindred_model_free(m);
    kindred_side_free(s);
}

/* ---- evaluation and sampling --------------------------------------- */

static int metric_32(void) {
    const size_t bytes = (size_t)BIG_32 * sizeof(int32_t);
    int32_t *truth = zeros(bytes);
    limit_memory();
    double value = 0;
    /* Reads 2^31 labels of each array (all 0, a single cluster), then needs
     * memory proportional to n for the contingency or fails with NOMEM. */
    const int status = kindred_metric("ari", truth, truth, BIG_32, &value);
    return status == KINDRED_OK ? KINDRED_E_NOMEM : status;
}

static void metric_sizes(void **state) {
    (void)state;
    const int32_t labels[2] = {0, 1};
    double value = 0;
    assert_refused(kindred_metric("nmi", labels, labels, BIG_MAX, &value), "metric: n = ");
    run_limited("metric(n = INT32_MAX + 1)", metric_32);
}

static int sample_triplets_32(void) {
    limit_memory();
    kindred_side *s = NULL;
    const int32_t labels[3] = {0, 1, 2};
    if (kindred_side_new(&s, 3) != KINDRED_OK) return -1;
    const int status = kindred_sample_triplets(s, labels, 3, BIG_32, 0.0, 1);
    kindred_side_free(s);
    return status;
}

static void sampling_counts(void **state) {
    (void)state;
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 4));
    const int32_t labels[4] = {0, 0, 1, 1};
    for (int k = 0; k < 3; ++k) {
        assert_refused(kindred_sample_pairs(s, labels, 4, kSizes[k], 0.0, 0.0, 1), "pairs");
        assert_refused(kindred_sample_pairs(s, labels, kSizes[k], 2, 0.0, 0.0, 1), "");
        assert_refused(kindred_sample_triplets(s, labels, kSizes[k], 2, 0.0, 1), "");
    }
    assert_refused(kindred_sample_triplets(s, labels, 4, BIG_MAX, 0.0, 1), "");
    kindred_side_free(s);
    run_limited("sample_triplets(count = INT32_MAX + 1)", sample_triplets_32);
}

static void active_sizes(void **state) {
    (void)state;
    double x[40];
    make_blobs(x, NULL, 20, 2, 2, 5.0, 0.5, 9);
    for (int k = 0; k < 3; ++k) {
        kindred_side *s = NULL;
        assert_ok(kindred_side_new(&s, 20));
        /* k beyond n is refused; a budget beyond the 190 pairs stops when every pair is asked. */
        assert_refused(test_active_select("explore-consolidate", x, 20, 2, KINDRED_ROW_MAJOR, 2, kSizes[k], 5, 1,
                                             yes, NULL, s),
                       "");
        const int status = test_active_select("explore-consolidate", x, 20, 2, KINDRED_ROW_MAJOR, 2, 2, kSizes[k],
                                                 1, yes, NULL, s);
        if (status != KINDRED_OK) assert_refused(status, "budget");
        kindred_side_free(s);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(side_new_sizes),
        cmocka_unit_test(side_counts),
        cmocka_unit_test(indexes),
        cmocka_unit_test(dense_sizes_at_int64_max),
        cmocka_unit_test(leading_dimension_beyond_32_bits),
        cmocka_unit_test(data_sizes_beyond_32_bits),
        cmocka_unit_test(capacities),
        cmocka_unit_test(transform_sizes),
        cmocka_unit_test(metric_sizes),
        cmocka_unit_test(sampling_counts),
        cmocka_unit_test(active_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
