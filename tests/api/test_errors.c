/* Every status code of kindred.h triggered through the public API, with a
 * message that names the problem; the message is cleared by the next
 * successful call; kindred_status_string names every integer; every _free
 * accepts NULL. (KINDRED_E_INTERNAL cannot come from valid use: it is
 * triggered through the guard itself in test_guard.cpp.) */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kindred.h"
#include "testing.h"

enum { N = 12, D = 2 };

/* Two blobs of 6 points, row-major. */
static void two_blobs(double *x) { make_blobs(x, NULL, N, D, 2, 10.0, 0.1, 7); }

static kindred_model *fitted_kmeans(void) {
    double x[N * D];
    two_blobs(x);
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "kmeans"));
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    return m;
}

static void status_string_names_every_code(void **state) {
    (void)state;
    const char *seen[KINDRED_E_BUFFER_TOO_SMALL + 1];
    for (int s = KINDRED_OK; s <= KINDRED_E_BUFFER_TOO_SMALL; ++s) {
        seen[s] = kindred_status_string(s);
        assert_non_null(seen[s]);
        assert_string_not_equal(seen[s], "unknown status");
        for (int t = 0; t < s; ++t) assert_string_not_equal(seen[s], seen[t]);
    }
    assert_string_equal(kindred_status_string(KINDRED_OK), "ok");
    assert_string_equal(kindred_status_string(KINDRED_E_NOMEM), "out of memory");
    assert_string_equal(kindred_status_string(KINDRED_E_NOT_FOUND), "not found");
    assert_string_equal(kindred_status_string(KINDRED_E_BUFFER_TOO_SMALL), "buffer too small");
    const int unknown[] = {-1, 14, 100, 1 << 30, INT32_MIN};
    for (size_t u = 0; u < sizeof unknown / sizeof unknown[0]; ++u)
        assert_string_equal(kindred_status_string(unknown[u]), "unknown status");
    assert_string_equal(kindred_version(), "0.1.0");
    assert_int_equal(kindred_version_number(), 100);
    assert_int_equal(kindred_version_number(), KINDRED_VERSION_NUMBER);
#if KINDRED_VERSION_NUMBER != KINDRED_VERSION_MAJOR * 10000 + KINDRED_VERSION_MINOR * 100 + KINDRED_VERSION_PATCH
#error "KINDRED_VERSION_NUMBER is not MAJOR * 10000 + MINOR * 100 + PATCH"
#endif
}

static void message_is_cleared_by_next_success(void **state) {
    (void)state;
    kindred_side *s = NULL;
    assert_fails_with(kindred_side_new(&s, 0), KINDRED_E_INVALID, "n must be > 0");
    assert_null(s);
    assert_string_not_equal(kindred_last_error(), "");
    assert_ok(kindred_side_new(&s, 3));
    assert_fails_with(kindred_side_counts(NULL, NULL, NULL, NULL, NULL), KINDRED_E_INVALID, "side");
    int64_t n = 0;
    assert_ok(kindred_side_counts(s, &n, NULL, NULL, NULL));
    assert_int_equal(n, 3);
    /* Functions that return no status clear the message too. */
    assert_fails_with(kindred_side_check_consistent(NULL), KINDRED_E_INVALID, "side");
    assert_true(kindred_algorithm_count() >= 3);
    assert_string_equal(kindred_last_error(), "");
    assert_fails_with(kindred_side_check_consistent(NULL), KINDRED_E_INVALID, "side");
    assert_non_null(kindred_metric_name(0));
    assert_string_equal(kindred_last_error(), "");
    kindred_side_free(s);
}

static void free_accepts_null(void **state) {
    (void)state;
    kindred_side_free(NULL);
    kindred_model_free(NULL);
    assert_null(kindred_model_algorithm(NULL));
    assert_null(kindred_algorithm_name(-1));
    assert_null(kindred_algorithm_name(kindred_algorithm_count()));
    assert_null(kindred_metric_name(kindred_metric_count()));
}

static void invalid_arguments(void **state) {
    (void)state;
    double x[N * D];
    two_blobs(x);
    kindred_model *m = NULL;
    assert_fails_with(kindred_model_new(NULL, "kmeans"), KINDRED_E_INVALID, "out");
    assert_fails_with(kindred_model_new(&m, NULL), KINDRED_E_INVALID, "algorithm");
    assert_ok(kindred_model_new(&m, "kmeans"));
    assert_fails_with(kindred_model_fit_dense(m, NULL, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID, "data");
    assert_fails_with(kindred_model_fit_dense(m, x, 0, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID, "n must be > 0");
    assert_fails_with(kindred_model_fit_dense(m, x, N, -1, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID, "d must be > 0");
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, 7, D, NULL), KINDRED_E_INVALID, "layout");
    /* NaN and Inf name the row and column, in both layouts. */
    x[5 * D + 1] = NAN;
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID,
                      "row 5, column 1 is NaN");
    x[5 * D + 1] = 0.0;
    x[3] = INFINITY; /* column-major with ld = N: row 3, column 0 */
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_COL_MAJOR, N, NULL), KINDRED_E_INVALID,
                      "row 3, column 0 is infinite");
    x[3] = 0.0;
    /* Options: out of range (the message gives the range), wrong type, bad text. */
    assert_fails_with(kindred_model_set_int(m, "k", 0), KINDRED_E_INVALID, "option 'k' must be an integer in [1, ");
    assert_fails_with(kindred_model_set_double(m, "k", 2.5), KINDRED_E_INVALID, "option 'k'");
    assert_fails_with(kindred_model_set_double(m, "tol", -1.0), KINDRED_E_INVALID, "[0, inf]");
    assert_fails_with(kindred_model_set_double(m, "tol", NAN), KINDRED_E_INVALID, "option 'tol'");
    assert_fails_with(kindred_model_set_string(m, "max_iter", "ten"), KINDRED_E_INVALID, "got 'ten'");
    assert_fails_with(kindred_model_set_string(m, "k", NULL), KINDRED_E_INVALID, "value");
    assert_fails_with(kindred_model_set_int(m, NULL, 1), KINDRED_E_INVALID, "option name");
    assert_fails_with(kindred_model_set_int(NULL, "k", 1), KINDRED_E_INVALID, "model");
    /* Integers are held as doubles: those a double cannot hold exactly are refused. */
    assert_fails_with(kindred_model_set_int(m, "seed", INT64_MAX), KINDRED_E_INVALID, "9223372036854775807 is too large");
    assert_fails_with(kindred_model_set_int(m, "seed", (INT64_C(1) << 53) + 1), KINDRED_E_INVALID, "too large");
    assert_ok(kindred_model_set_int(m, "seed", (INT64_C(1) << 53) - 1));
    assert_fails_with(kindred_model_set_int(m, "seed", INT64_C(1) << 53), KINDRED_E_INVALID, "[0, 9007199254740991]");
    kindred_model *g = NULL;
    assert_ok(kindred_model_new(&g, "gmm"));
    assert_fails_with(kindred_model_set_string(g, "covariance", "round"), KINDRED_E_INVALID,
                      "shared-spherical|spherical|diagonal|full");
    assert_fails_with(kindred_model_set_double(g, "covariance", 1.0), KINDRED_E_INVALID, "not a number");
    /* gmm takes no sparse data. */
    const int64_t indptr[3] = {0, 1, 2}, indices[2] = {0, 1};
    const double values[2] = {1.0, 2.0};
    assert_fails_with(kindred_model_fit_csr(g, 2, 2, indptr, indices, values, NULL), KINDRED_E_INVALID, "sparse");
    kindred_model_free(g);
    /* CSR structure. */
    const int64_t bad_start[3] = {1, 1, 2}, decreasing[3] = {0, 2, 1};
    assert_fails_with(kindred_model_fit_csr(m, 2, 2, bad_start, indices, values, NULL), KINDRED_E_INVALID, "indptr[0]");
    assert_fails_with(kindred_model_fit_csr(m, 2, 2, decreasing, indices, values, NULL), KINDRED_E_INVALID,
                      "decreases at row 1");
    const double nan_values[2] = {1.0, NAN};
    assert_fails_with(kindred_model_fit_csr(m, 2, 2, indptr, indices, nan_values, NULL), KINDRED_E_INVALID,
                      "row 1, column 1 is NaN");
    /* Metrics and side information. */
    const int32_t labels[3] = {0, 1, 1};
    double v = 0.0;
    assert_fails_with(kindred_metric("nmi", NULL, labels, 3, &v), KINDRED_E_INVALID, "truth");
    assert_fails_with(kindred_metric("nmi", labels, labels, 0, &v), KINDRED_E_INVALID, "n must be > 0");
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 3));
    assert_fails_with(kindred_sample_pairs(s, labels, 3, 1, 0.0, 1.5, 1), KINDRED_E_INVALID, "noise");
    assert_fails_with(kindred_sample_pairs(s, labels, 3, 4, 0.0, 0.0, 1), KINDRED_E_INVALID, "only 3 distinct pairs");
    kindred_side_free(s);
    kindred_model_free(m);
}

static void dimension_errors(void **state) {
    (void)state;
    double x[N * D];
    two_blobs(x);
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "kmeans"));
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D - 1, NULL), KINDRED_E_DIMENSION,
                      "leading dimension 1 is smaller than d = 2");
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_COL_MAJOR, N - 1, NULL), KINDRED_E_DIMENSION,
                      "leading dimension 11 is smaller than n = 12");
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, N + 1));
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s), KINDRED_E_DIMENSION,
                      "about 13 points but the data has 12");
    kindred_side_free(s);
    assert_ok(kindred_model_set_int(m, "k", N + 1));
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_DIMENSION,
                      "k = 13 is larger than the number of points n = 12");
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    /* Too-small buffers give the size needed. */
    int32_t labels[N];
    assert_fails_with(kindred_model_labels(m, labels, N - 1), KINDRED_E_BUFFER_TOO_SMALL, "11 entries is too small; 12 needed");
    double centers[2 * D];
    assert_fails_with(kindred_model_array(m, "centers", centers, 3), KINDRED_E_BUFFER_TOO_SMALL, "4 needed");
    char text[2];
    assert_fails_with(kindred_model_option(m, "max_iter", text, sizeof text), KINDRED_E_BUFFER_TOO_SMALL,
                      "4 needed"); /* "300" and its NUL */
    assert_fails_with(kindred_model_predict_dense(m, x, N / 2, 1, KINDRED_ROW_MAJOR, 1, labels, N), KINDRED_E_DIMENSION,
                      "fitted on d = 2");
    assert_fails_with(kindred_model_predict_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, labels, 3), KINDRED_E_BUFFER_TOO_SMALL,
                      "12 needed");
    kindred_side *side = NULL;
    assert_ok(kindred_side_new(&side, 4));
    int64_t comp[3];
    assert_fails_with(kindred_side_components(side, comp, 3, NULL), KINDRED_E_BUFFER_TOO_SMALL, "4 needed");
    const int32_t partial[3] = {0, -1, 1};
    assert_fails_with(kindred_side_set_partial_labels(side, partial, 3), KINDRED_E_DIMENSION, "3 labels for n = 4");
    assert_fails_with(kindred_sample_pairs(side, partial, 3, 1, 0.0, 0.0, 1), KINDRED_E_DIMENSION, "3 labels");
    const int64_t i[1] = {0}, j[1] = {1};
    const double w[1] = {1.0};
    assert_ok(kindred_side_add_pairs(side, i, j, w, 1));
    int64_t oi[1], oj[1];
    double ov[1];
    assert_fails_with(kindred_side_pairs(side, oi, oj, ov, 0), KINDRED_E_BUFFER_TOO_SMALL, "1 needed");
    const int64_t ta[1] = {0}, tb[1] = {1}, tc[1] = {2};
    const int32_t tanswer[1] = {1};
    assert_ok(kindred_side_add_triplets(side, ta, tb, tc, tanswer, 1));
    int64_t oa[1], ob[1], oc[1];
    int32_t oanswer[1];
    assert_fails_with(kindred_side_triplets(side, oa, ob, oc, oanswer, 0), KINDRED_E_BUFFER_TOO_SMALL,
                      "triplets: buffer of 0 entries is too small; 1 needed");
    kindred_side_free(side);
    kindred_model_free(m);
}

static void index_errors(void **state) {
    (void)state;
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 5));
    const int64_t i[3] = {0, 1, 2}, j[3] = {1, 7, 3};
    const double v[3] = {1.0, -1.0, 1.0};
    assert_fails_with(kindred_side_add_pairs(s, i, j, v, 3), KINDRED_E_INDEX, "index 7 out of range for n = 5 at entry 1");
    const int64_t neg[1] = {-1}, one[1] = {1};
    assert_fails_with(kindred_side_add_pairs(s, neg, one, v, 1), KINDRED_E_INDEX, "index -1 out of range");
    const int64_t a[1] = {0}, b[1] = {1}, c[1] = {5};
    const int32_t answer[1] = {1};
    assert_fails_with(kindred_side_add_triplets(s, a, b, c, answer, 1), KINDRED_E_INDEX, "index 5 out of range for n = 5 at entry 0 (c)");
    kindred_side_free(s);

    const char *name = NULL;
    int64_t count = 0;
    assert_ok(kindred_option_count("kmeans", &count));
    assert_fails_with(kindred_option_info("kmeans", count, &name, NULL, NULL, NULL, NULL), KINDRED_E_INDEX,
                      "out of range");
    assert_fails_with(kindred_option_info("kmeans", -1, &name, NULL, NULL, NULL, NULL), KINDRED_E_INDEX, "-1");
    kindred_model *m = fitted_kmeans();
    assert_ok(kindred_model_array_count(m, &count));
    assert_fails_with(kindred_model_array_info(m, count, &name, NULL, NULL), KINDRED_E_INDEX, "out of range");
    const int64_t indptr[2] = {0, 1}, bad_col[1] = {2};
    const double one_value[1] = {1.0};
    int32_t label[1];
    assert_fails_with(kindred_model_predict_csr(m, 1, D, indptr, bad_col, one_value, label, 1), KINDRED_E_INDEX,
                      "column index 2 out of range for d = 2");
    kindred_model_free(m);
}

static void infeasible_constraints(void **state) {
    (void)state;
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 6));
    /* Must-link chain 0-1-2-3, and a cannot-link between its ends. */
    const int64_t i[4] = {0, 1, 2, 0}, j[4] = {1, 2, 3, 3};
    const double v[4] = {1.0, 1.0, 1.0, -1.0};
    assert_ok(kindred_side_add_pairs(s, i, j, v, 3));
    assert_ok(kindred_side_check_consistent(s));
    assert_ok(kindred_side_add_pairs(s, i + 3, j + 3, v + 3, 1));
    assert_fails_with(kindred_side_check_consistent(s), KINDRED_E_INFEASIBLE, "cannot-link (0, 3)");
    kindred_side_free(s);
}

static void out_of_memory(void **state) {
    (void)state;
    kindred_side *s = NULL;
    /* More points than any vector can hold (std::length_error inside). */
    assert_fails_with(kindred_side_new(&s, INT64_MAX / 2), KINDRED_E_NOMEM, "out of memory");
    assert_null(s);
#if !defined(__SANITIZE_ADDRESS__)
    /* An allocation of about 800 PB: std::bad_alloc inside. (AddressSanitizer
     * aborts on such a request instead of letting operator new throw.) */
    assert_fails_with(kindred_side_new(&s, (int64_t)100000000000000000LL), KINDRED_E_NOMEM, "out of memory");
    assert_null(s);
#endif
}

static void numerical_failure(void **state) {
    (void)state;
    /* A column that is exactly 0 gives a singular full covariance when nothing regularises it. */
    double x[N * 3];
    make_blobs(x, NULL, N, 3, 2, 10.0, 0.5, 3);
    for (int i = 0; i < N; ++i) x[i * 3 + 2] = 0.0;
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "gmm"));
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_set_string(m, "covariance", "full"));
    assert_ok(kindred_model_set_double(m, "reg_covar", 0.0));
    assert_fails_with(kindred_model_fit_dense(m, x, N, 3, KINDRED_ROW_MAJOR, 3, NULL), KINDRED_E_NUMERICAL,
                      "not positive definite");
    assert_fails_with(kindred_model_labels(m, (int32_t[N]){0}, N), KINDRED_E_STATE, "not fitted");
    /* With the default regularisation the same data fits. */
    assert_ok(kindred_model_set_double(m, "reg_covar", 1e-6));
    assert_ok(kindred_model_fit_dense(m, x, N, 3, KINDRED_ROW_MAJOR, 3, NULL));
    kindred_model_free(m);
}

static int cancel_at_second(void *user, int64_t iteration, double objective, const char *message) {
    (void)objective;
    (void)message;
    int *calls = (int *)user;
    ++*calls;
    return iteration >= 2;
}

static void cancelled_fit_leaves_model_unfitted(void **state) {
    (void)state;
    double x[N * D];
    two_blobs(x);
    const char *algorithms[] = {"kmeans", "dpmeans", "gmm"};
    for (int a = 0; a < 3; ++a) {
        kindred_model *m = NULL;
        assert_ok(kindred_model_new(&m, algorithms[a]));
        assert_ok(kindred_model_set_int(m, "k", 2));
        /* A first successful fit, so that "left unfitted" means "results discarded". */
        assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
        if (a != 1) assert_ok(kindred_model_set_double(m, "tol", 0.0)); /* enough iterations to reach 2 */
        /* Two far-apart blobs each split into odd points: dpmeans needs > 1 pass. */
        int calls = 0;
        assert_ok(kindred_model_set_progress(m, cancel_at_second, &calls));
        double y[N * D];
        make_blobs(y, NULL, N, D, 3, 5.0, 2.0, 11);
        assert_fails_with(kindred_model_fit_dense(m, y, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_CANCELLED,
                          "cancelled by the progress callback at iteration 2");
        assert_int_equal(calls, 2);
        int32_t labels[N];
        assert_fails_with(kindred_model_labels(m, labels, N), KINDRED_E_STATE, "not fitted");
        assert_fails_with(kindred_model_summary(m, NULL, NULL, NULL, NULL, NULL, NULL), KINDRED_E_STATE, "not fitted");
        assert_ok(kindred_model_set_progress(m, NULL, NULL));
        assert_ok(kindred_model_fit_dense(m, y, N, D, KINDRED_ROW_MAJOR, D, NULL));
        kindred_model_free(m);
    }
}

static void unknown_names(void **state) {
    (void)state;
    kindred_model *m = NULL;
    assert_fails_with(kindred_model_new(&m, "nosuch"), KINDRED_E_NOT_FOUND, "nosuch");
    assert_null(m);
    const char *summary = NULL;
    int flags = 0;
    int64_t count = 0;
    assert_fails_with(kindred_algorithm_summary("nosuch", &summary), KINDRED_E_NOT_FOUND, "nosuch");
    assert_fails_with(kindred_algorithm_uses("nosuch", &flags), KINDRED_E_NOT_FOUND, "nosuch");
    assert_fails_with(kindred_option_count("nosuch", &count), KINDRED_E_NOT_FOUND, "nosuch");
    assert_ok(kindred_model_new(&m, "kmeans"));
    /* The message lists the valid names. */
    assert_fails_with(kindred_model_set_int(m, "kk", 3), KINDRED_E_NOT_FOUND, "unknown option 'kk'; valid options: k, n_init");
    assert_fails_with(kindred_model_set_double(m, "lambda", 1.0), KINDRED_E_NOT_FOUND, "'lambda'");
    assert_fails_with(kindred_model_set_string(m, "nosuch", "1"), KINDRED_E_NOT_FOUND, "'nosuch'");
    char text[16];
    assert_fails_with(kindred_model_option(m, "nosuch", text, sizeof text), KINDRED_E_NOT_FOUND, "'nosuch'");
    kindred_model_free(m);
    m = fitted_kmeans();
    double out[4];
    int64_t rows = 0, cols = 0;
    assert_fails_with(kindred_model_array(m, "memberships", out, 4), KINDRED_E_NOT_FOUND,
                      "no array 'memberships'; it has: centers");
    assert_fails_with(kindred_model_array_shape(m, "nosuch", &rows, &cols), KINDRED_E_NOT_FOUND, "'nosuch'");
    kindred_model_free(m);
    const int32_t labels[2] = {0, 1};
    double v = 0.0;
    assert_fails_with(kindred_metric("accuracy", labels, labels, 2, &v), KINDRED_E_NOT_FOUND,
                      "unknown metric 'accuracy'; known: nmi");
}

static void wrong_state(void **state) {
    (void)state;
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "kmeans"));
    int32_t labels[N];
    double x[N * D];
    two_blobs(x);
    int64_t count = 0, dim = 0;
    assert_fails_with(kindred_model_labels(m, labels, N), KINDRED_E_STATE, "not fitted");
    assert_fails_with(kindred_model_array_count(m, &count), KINDRED_E_STATE, "not fitted");
    assert_fails_with(kindred_model_predict_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, labels, N), KINDRED_E_STATE,
                      "not fitted");
    assert_fails_with(kindred_model_save(m, "never-written.kdm"), KINDRED_E_STATE, "not fitted");
    kindred_model_free(m);
    m = fitted_kmeans();
    double out[N * D];
    assert_fails_with(kindred_model_transform_dim(m, &dim), KINDRED_E_STATE, "kmeans learns no transformation");
    assert_fails_with(kindred_model_transform_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, out, N * D), KINDRED_E_STATE,
                      "learns no transformation");
    kindred_model_free(m);
}

static void io_errors(void **state) {
    (void)state;
    kindred_model *loaded = NULL;
    assert_fails_with(kindred_model_load(&loaded, "/nonexistent-dir-kindred/model.kdm"), KINDRED_E_IO,
                      "cannot open '/nonexistent-dir-kindred/model.kdm'");
    assert_null(loaded);
    kindred_model *m = fitted_kmeans();
    assert_fails_with(kindred_model_save(m, "/nonexistent-dir-kindred/model.kdm"), KINDRED_E_IO,
                      "cannot write '/nonexistent-dir-kindred/model.kdm'");
    assert_fails_with(kindred_model_save(m, NULL), KINDRED_E_INVALID, "path");
    kindred_model_free(m);
}

static void corrupt_file(void **state) {
    (void)state;
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/kindred_test_errors_%ld.kdm", dir ? dir : "/tmp", (long)getpid());
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("label,x,y\n0,1.5,2.5\n", f);
    fclose(f);
    kindred_model *loaded = NULL;
    assert_fails_with(kindred_model_load(&loaded, path), KINDRED_E_CORRUPT, "not a kindred model file");
    assert_null(loaded);
    remove(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(status_string_names_every_code),
        cmocka_unit_test(message_is_cleared_by_next_success),
        cmocka_unit_test(free_accepts_null),
        cmocka_unit_test(invalid_arguments),
        cmocka_unit_test(dimension_errors),
        cmocka_unit_test(index_errors),
        cmocka_unit_test(infeasible_constraints),
        cmocka_unit_test(out_of_memory),
        cmocka_unit_test(numerical_failure),
        cmocka_unit_test(cancelled_fit_leaves_model_unfitted),
        cmocka_unit_test(unknown_names),
        cmocka_unit_test(wrong_state),
        cmocka_unit_test(io_errors),
        cmocka_unit_test(corrupt_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
