/* Regression tests of the robustness audit: inputs that used to crash, hang,
 * or return a wrong result with KINDRED_OK, each now refused with a status
 * and a message naming the problem. Public header only. */
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

enum { N = 40, D = 3 };

/* Two well-separated blobs; truth[i] = i % 2. */
static void blobs(double *x, int32_t *truth, double scale) {
    make_blobs(x, truth, N, D, 2, 10.0, 0.5, 5);
    for (int i = 0; i < N * D; ++i) x[i] *= scale;
}

static void temp_path(char *path, size_t size, const char *tag) {
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/kindred_test_robustness_%s_%ld.kdm", dir ? dir : "/tmp", tag, (long)getpid());
}

/* Data whose squares overflow (or all underflow) gave k-means objective 0 and
 * ARI 0 on separated blobs, with KINDRED_OK; dpmeans gave lambda = inf. */
static void data_outside_the_safe_scale_is_refused(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], labels[N];
    const char *algorithms[] = {"kmeans", "dpmeans", "gmm"};
    for (int a = 0; a < 3; ++a) {
        kindred_model *m = NULL;
        assert_ok(kindred_model_new(&m, algorithms[a]));
        assert_ok(kindred_model_set_int(m, "k", 2));
        blobs(x, truth, 1e154);
        assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID,
                          "make squared distances overflow (scale the data)");
        blobs(x, truth, 1e-200);
        assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID,
                          "squared distances underflow to 0 (scale the data)");
        kindred_model_free(m);
    }
    /* The message names the first value out of range; -1e101 counts by magnitude. */
    blobs(x, truth, 1.0);
    x[7 * D + 2] = -1e101;
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "kmeans"));
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID,
                      "value at row 7, column 2 is -1e+101; magnitudes above 1e+100");
    /* Near the limits the clustering is still right. */
    blobs(x, truth, 1e98);
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    assert_ok(kindred_model_labels(m, labels, N));
    assert_true(same_partition(truth, labels, N));
    blobs(x, truth, 1e-99);
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    assert_ok(kindred_model_labels(m, labels, N));
    assert_true(same_partition(truth, labels, N));
    /* Identical points (all zero) are valid data. */
    memset(x, 0, sizeof x);
    assert_ok(kindred_model_set_int(m, "k", 1));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    /* Predict checks new points the same way, CSR too. */
    blobs(x, truth, 1.0);
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    x[0] = 1e200;
    assert_fails_with(kindred_model_predict_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, labels, N), KINDRED_E_INVALID,
                      "row 0, column 0 is 1e+200;");
    const int64_t indptr[3] = {0, 1, 2}, indices[2] = {0, 2};
    const double values[2] = {1.0, -3e150};
    assert_fails_with(kindred_model_predict_csr(m, 2, D, indptr, indices, values, labels, N), KINDRED_E_INVALID,
                      "row 1, column 2 is -3e+150;");
    const double tiny[2] = {1e-150, 0.0};
    assert_fails_with(kindred_model_predict_csr(m, 2, D, indptr, indices, tiny, labels, N), KINDRED_E_INVALID,
                      "largest magnitude is 1e-150;");
    kindred_model_free(m);
}

/* A repeated column in a CSR row was read as two coordinates by the row norms:
 * dpmeans on such data gave ARI 0 against the same points given densely. */
static void csr_repeated_column_is_refused(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], dense_labels[N], csr_labels[N];
    blobs(x, truth, 1.0);
    /* Each row as CSR with its columns in reverse order (unsorted is fine). */
    int64_t indptr[N + 1], indices[N * D + 1];
    double values[N * D + 1];
    int64_t e = 0;
    for (int i = 0; i < N; ++i) {
        indptr[i] = e;
        for (int j = D - 1; j >= 0; --j) {
            indices[e] = j;
            values[e++] = x[i * D + j];
        }
    }
    indptr[N] = e;
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "dpmeans"));
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    assert_ok(kindred_model_labels(m, dense_labels, N));
    assert_ok(kindred_model_fit_csr(m, N, D, indptr, indices, values, NULL));
    assert_ok(kindred_model_labels(m, csr_labels, N));
    assert_true(same_partition(dense_labels, csr_labels, N));
    /* Row 5 gets its column 0 twice (the value split in halves). */
    int64_t dup_indptr[N + 1], dup_indices[N * D + 1];
    double dup_values[N * D + 1];
    e = 0;
    for (int i = 0; i < N; ++i) {
        dup_indptr[i] = e;
        for (int j = 0; j < D; ++j) {
            if (i == 5 && j == 1) {
                dup_indices[e] = 0;
                dup_values[e++] = 0.0;
                continue;
            }
            dup_indices[e] = j;
            dup_values[e++] = x[i * D + j];
        }
    }
    dup_indptr[N] = e;
    assert_fails_with(kindred_model_fit_csr(m, N, D, dup_indptr, dup_indices, dup_values, NULL), KINDRED_E_INVALID,
                      "CSR row 5 has column 0 more than once");
    assert_fails_with(kindred_model_labels(m, csr_labels, N), KINDRED_E_STATE, "not fitted");
    /* Sorted but repeated: the same. */
    const int64_t one_row[2] = {0, 2}, repeated[2] = {1, 1};
    const double two[2] = {1.0, 2.0};
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    assert_fails_with(kindred_model_predict_csr(m, 1, D, one_row, repeated, two, csr_labels, N), KINDRED_E_INVALID,
                      "CSR row 0 has column 1 more than once");
    kindred_model_free(m);
}

/* Sizes whose offsets overflow int64 were scanned anyway (undefined behaviour). */
static void impossible_leading_dimension_is_refused(void **state) {
    (void)state;
    double x[4] = {1.0, 2.0, 3.0, 4.0};
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "kmeans"));
    assert_ok(kindred_model_set_int(m, "k", 1));
    assert_fails_with(kindred_model_fit_dense(m, x, 2, 2, KINDRED_ROW_MAJOR, INT64_MAX, NULL), KINDRED_E_DIMENSION,
                      "describe more than 2^60 values");
    assert_fails_with(kindred_model_fit_dense(m, x, 2, 3, KINDRED_COL_MAJOR, INT64_MAX / 2, NULL), KINDRED_E_DIMENSION,
                      "leading dimension 4611686018427387903");
    assert_ok(kindred_model_fit_dense(m, x, 2, 2, KINDRED_ROW_MAJOR, 2, NULL));
    kindred_model_free(m);
}

/* Duplicates are summed: two finite weights could make an infinite one. */
static void pair_weights_summing_to_infinity_are_refused(void **state) {
    (void)state;
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 4));
    const int64_t i[2] = {0, 1}, j[2] = {1, 0};
    const double big[2] = {1e308, 1e308};
    assert_fails_with(kindred_side_add_pairs(s, i, j, big, 2), KINDRED_E_INVALID,
                      "the values given for the pair (0, 1) sum to an infinite weight");
    int64_t pairs = -1;
    assert_ok(kindred_side_counts(s, NULL, &pairs, NULL, NULL));
    assert_int_equal(pairs, 0);
    /* Across calls too, and the handle keeps what it had. */
    assert_ok(kindred_side_add_pairs(s, i, j, big, 1));
    const double neg[1] = {-1e308};
    assert_fails_with(kindred_side_add_pairs(s, j, i, big + 1, 1), KINDRED_E_INVALID, "infinite weight");
    assert_ok(kindred_side_add_pairs(s, j, i, neg, 1)); /* sums to 0: the pair is dropped */
    assert_ok(kindred_side_counts(s, NULL, &pairs, NULL, NULL));
    assert_int_equal(pairs, 0);
    kindred_side_free(s);
}

/* A huge triplet count used to draw until memory ran out. */
static void impossible_triplet_count_fails_at_once(void **state) {
    (void)state;
    int32_t labels[6] = {0, 0, 1, 1, 2, 2};
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 6));
    assert_fails_with(kindred_sample_triplets(s, labels, 6, INT64_MAX, 0.0, 1), KINDRED_E_NOMEM, "out of memory");
    int64_t triplets = -1;
    assert_ok(kindred_side_counts(s, NULL, NULL, &triplets, NULL));
    assert_int_equal(triplets, 0);
    assert_ok(kindred_sample_triplets(s, labels, 6, 10, 0.0, 1));
    kindred_side_free(s);
}

/* Loading a directory escaped as KINDRED_E_INTERNAL (a libstdc++ exception). */
static void loading_a_directory_is_an_io_error(void **state) {
    (void)state;
    kindred_model *m = NULL;
    assert_fails_with(kindred_model_load(&m, "."), KINDRED_E_IO, "cannot read '.'");
    assert_null(m);
}

/* Infinite option values that gave a non-finite objective with KINDRED_OK. */
static void infinite_option_values_are_refused(void **state) {
    (void)state;
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "dpmeans"));
    assert_fails_with(kindred_model_set_double(m, "lambda", INFINITY), KINDRED_E_INVALID,
                      "option 'lambda' must be a number in (0, ");
    assert_fails_with(kindred_model_set_string(m, "lambda", "inf"), KINDRED_E_INVALID, "; got inf");
    assert_ok(kindred_model_set_double(m, "lambda", 1e300));
    kindred_model_free(m);
    /* mpckmeans: s^2 of the Rayleigh prior overflowed above ~1e154 ("weight 0 is not positive (-nan)"). */
    assert_ok(kindred_model_new(&m, "mpckmeans"));
    assert_fails_with(kindred_model_set_double(m, "rayleigh_s", 1e155), KINDRED_E_INVALID,
                      "option 'rayleigh_s' must be a number in (0, 1e+150]");
    assert_ok(kindred_model_set_double(m, "rayleigh_s", 1e150));
    double x[N * D];
    int32_t truth[N];
    blobs(x, truth, 1.0);
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    kindred_model_free(m);
    /* Model parameters for which inf has no meaning: refused by the setter
     * (they failed at fit time, e.g. "the log joint is not finite", without
     * naming the option). */
    const char *infinite[][2] = {{"pckmeans", "penalty"},     {"dcrc", "tau"},          {"dcrc", "lambda"},
                                 {"dcrc", "gamma"},           {"tvclust", "alpha"},     {"tvclust", "kappa_0"},
                                 {"tvclust", "cov_scale"},    {"tvclust", "nu_0"},      {"gmm", "reg_covar"},
                                 {"rdpmeans", "smoothing"},   {"mpckmeans", "smoothing"},
                                 {"mpckmeans", "constraint_weight"}};
    for (size_t o = 0; o < sizeof infinite / sizeof infinite[0]; ++o) {
        assert_ok(kindred_model_new(&m, infinite[o][0]));
        assert_int_equal(kindred_model_set_double(m, infinite[o][1], INFINITY), KINDRED_E_INVALID);
        assert_non_null(strstr(kindred_last_error(), infinite[o][1]));
        assert_ok(kindred_model_set_double(m, infinite[o][1], 2.0));
        kindred_model_free(m);
    }
    const char *tcs[] = {"tcs-gm", "tcs-vmf"};
    for (int a = 0; a < 2; ++a) {
        assert_ok(kindred_model_new(&m, tcs[a]));
        assert_fails_with(kindred_model_set_double(m, "gamma", INFINITY), KINDRED_E_INVALID,
                          "option 'gamma' must be a number in [0, ");
        kindred_model_free(m);
    }
}

/* Option text: " 3" was taken while "3 " was refused; an underflowing number
 * ("4.9e-324", a denormal) was called "not a number in (0, inf)"; hexadecimal
 * text was taken. */
static void option_text_is_read_whole(void **state) {
    (void)state;
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "dpmeans"));
    assert_fails_with(kindred_model_set_string(m, "k", " 3"), KINDRED_E_INVALID, "option 'k' must be a number in [1, ");
    assert_fails_with(kindred_model_set_string(m, "k", "3 "), KINDRED_E_INVALID, "got '3 '");
    assert_fails_with(kindred_model_set_string(m, "k", "\t3"), KINDRED_E_INVALID, "must be a number");
    assert_ok(kindred_model_set_string(m, "k", "3"));
    assert_ok(kindred_model_set_string(m, "lambda", "4.9e-324"));
    char value[64];
    assert_ok(kindred_model_option(m, "lambda", value, sizeof value));
    assert_true(strtod(value, NULL) > 0.0);
    assert_fails_with(kindred_model_set_string(m, "lambda", "1e-400"), KINDRED_E_INVALID, "got 0"); /* underflows to 0 */
    assert_fails_with(kindred_model_set_string(m, "max_iter", "1e400"), KINDRED_E_INVALID,
                      "'1e400' is too large for a double");
    /* Hexadecimal, which strtod reads ("0x10" = 16), is no documented notation. */
    assert_fails_with(kindred_model_set_string(m, "k", "0x10"), KINDRED_E_INVALID, "got '0x10'");
    assert_fails_with(kindred_model_set_string(m, "lambda", "-0X1p3"), KINDRED_E_INVALID, "got '-0X1p3'");
    assert_fails_with(kindred_model_set_string(m, "lambda", "+0x1.8p1"), KINDRED_E_INVALID, "must be a number");
    assert_ok(kindred_model_set_string(m, "lambda", "0.5"));
    assert_ok(kindred_model_set_string(m, "lambda", "0"  "5e-1"));
    kindred_model_free(m);
}

/* A thin larger than iterations - burn_in kept no sample, and tvclust then
 * read the MAP partition of no sample (segmentation fault). */
static void tvclust_thin_that_keeps_no_sweep_is_refused(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N];
    blobs(x, truth, 1.0);
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "tvclust"));
    assert_ok(kindred_model_set_int(m, "iterations", 30));
    assert_ok(kindred_model_set_int(m, "burn_in", 10));
    assert_ok(kindred_model_set_int(m, "thin", 21));
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID,
                      "tvclust: thin (21) keeps no sweep; it must be at most iterations - burn_in (20)");
    assert_ok(kindred_model_set_int(m, "thin", 20)); /* sweep 30 is kept */
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    kindred_model_free(m);
}

/* A callback that calls a failing kindred function left its message behind a
 * successful fit (the header promises an empty message after a success). */
static int failing_call_in_progress(void *user, int64_t iteration, double objective, const char *message) {
    (void)user;
    (void)iteration;
    (void)objective;
    (void)message;
    kindred_side *s = NULL;
    return kindred_side_new(&s, -1) == KINDRED_E_INVALID ? 0 : 1;
}

static int failing_call_in_oracle(void *user, int64_t i, int64_t j) {
    (void)user;
    kindred_side *s = NULL;
    (void)kindred_side_new(&s, -1);
    return i % 2 == j % 2 ? 1 : -1;
}

static void success_clears_messages_left_by_callbacks(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N];
    blobs(x, truth, 1.0);
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "kmeans"));
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_set_progress(m, failing_call_in_progress, NULL));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL)); /* the message is empty */
    kindred_model_free(m);
    kindred_side *side = NULL;
    assert_ok(kindred_side_new(&side, N));
    assert_ok(test_active_select("explore", x, N, D, KINDRED_ROW_MAJOR, D, 2, 5, 1, failing_call_in_oracle, NULL, side));
    kindred_side_free(side);
}

/* An option set after a fit used to reach predict: dcrc's weights of an rbf fit
 * were read as linear ones, mpckmeans' diagonal metric as a cosine one (wrong
 * labels with KINDRED_OK), gmm's variances as another covariance (an error),
 * and save wrote the changed options next to the old arrays. */
static void options_changed_after_a_fit_do_not_reach_predict(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], fitted[N], predicted[N];
    blobs(x, truth, 1.0);
    for (int i = 0; i < N * D; ++i) x[i] += 20.0; /* positive, for every distortion */
    const char *cases[][5] = {
        {"dcrc", "kernel", "rbf", "kernel", "linear"},
        {"mpckmeans", "distortion", "euclidean-diag", "distortion", "cosine"},
        {"mpckmeans", "distortion", "euclidean-diag", "distortion", "euclidean-full"},
        {"gmm", "covariance", "spherical", "covariance", "full"},
        {"rdpmeans", "divergence", "euclidean", "divergence", "kl"},
    };
    char path[512];
    temp_path(path, sizeof path, "after");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        kindred_model *m = NULL;
        assert_ok(kindred_model_new(&m, cases[c][0]));
        assert_ok(kindred_model_set_int(m, "k", 2));
        assert_ok(kindred_model_set_string(m, cases[c][1], cases[c][2]));
        assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
        assert_ok(kindred_model_labels(m, fitted, N));
        assert_ok(kindred_model_set_string(m, cases[c][3], cases[c][4]));
        assert_ok(kindred_model_set_int(m, "threads", 1)); /* threads may change */
        assert_ok(kindred_model_predict_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, predicted, N));
        assert_memory_equal(fitted, predicted, sizeof fitted);
        /* The file records the options of the fit, with which its arrays go. */
        assert_ok(kindred_model_save(m, path));
        kindred_model *back = NULL;
        assert_ok(kindred_model_load(&back, path));
        char value[64];
        assert_ok(kindred_model_option(back, cases[c][1], value, sizeof value));
        assert_string_equal(value, cases[c][2]);
        assert_ok(kindred_model_predict_dense(back, x, N, D, KINDRED_ROW_MAJOR, D, predicted, N));
        assert_memory_equal(fitted, predicted, sizeof fitted);
        /* The next fit uses the new value. */
        assert_ok(kindred_model_option(m, cases[c][3], value, sizeof value));
        assert_string_equal(value, cases[c][4]);
        kindred_model_free(back);
        kindred_model_free(m);
    }
    remove(path);
}

/* ---- crafted model files (a valid checksum over inconsistent content) ---- */

typedef struct blob {
    unsigned char *p;
    size_t size, cap;
} blob;

static void put(blob *b, const void *v, size_t n) {
    if (b->size + n > b->cap) {
        b->cap = (b->size + n) * 2;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    memcpy(b->p + b->size, v, n);
    b->size += n;
}
static void put_u64(blob *b, uint64_t v) { put(b, &v, 8); }
static void put_string(blob *b, const char *s) {
    put_u64(b, strlen(s));
    put(b, s, strlen(s));
}

typedef struct cursor {
    const unsigned char *p;
    size_t left;
} cursor;

static void take(cursor *c, void *v, size_t n) {
    assert_true(n <= c->left);
    memcpy(v, c->p, n);
    c->p += n;
    c->left -= n;
}
static uint64_t take_u64(cursor *c) {
    uint64_t v;
    take(c, &v, 8);
    return v;
}

/* What to change while copying a saved model: the array called `array` gets
 * the shape rows x cols (values 0.5, or `fill` when it is not 0), or the counts. */
typedef struct edit {
    const char *array;
    int64_t rows, cols;
    double fill;
    int64_t clusters; /* replaces the cluster count when != 0 */
    int32_t label0;   /* replaces the first label when != 0 */
} edit;

/* Rewrites the model file at `path` (format version 1, as model_file.cpp
 * writes it) with one edit and a correct checksum. */
static void rewrite_model(const char *path, const edit *ed) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static unsigned char in[1 << 20];
    const size_t size = fread(in, 1, sizeof in, f);
    fclose(f);
    assert_true(size > 28 && size < sizeof in);
    assert_memory_equal(in, "KINDREDM", 8);
    cursor c = {in + 20, size - 28};
    blob out = {NULL, 0, 0};
    /* algorithm, options */
    uint64_t len = take_u64(&c);
    put_u64(&out, len);
    put(&out, c.p, len);
    c.p += len, c.left -= len;
    const uint64_t options = take_u64(&c);
    put_u64(&out, options);
    for (uint64_t o = 0; o < 2 * options; ++o) {
        len = take_u64(&c);
        put_u64(&out, len);
        put(&out, c.p, len);
        c.p += len, c.left -= len;
    }
    int64_t counts[4]; /* n, d, clusters, iterations */
    take(&c, counts, sizeof counts);
    if (ed->clusters) counts[2] = ed->clusters;
    put(&out, counts, sizeof counts);
    unsigned char rest[9]; /* converged, objective */
    take(&c, rest, 9);
    put(&out, rest, 9);
    const uint64_t n_labels = take_u64(&c);
    put_u64(&out, n_labels);
    for (uint64_t i = 0; i < n_labels; ++i) {
        int32_t l;
        take(&c, &l, 4);
        if (i == 0 && ed->label0) l = ed->label0;
        put(&out, &l, 4);
    }
    const uint64_t arrays = take_u64(&c);
    put_u64(&out, arrays);
    for (uint64_t a = 0; a < arrays; ++a) {
        char name[64] = {0};
        len = take_u64(&c);
        assert_true(len < sizeof name);
        take(&c, name, len);
        put_string(&out, name);
        int64_t shape[2];
        take(&c, shape, sizeof shape);
        const size_t bytes = (size_t)(shape[0] * shape[1]) * 8;
        if (ed->array && strcmp(name, ed->array) == 0) {
            int64_t new_shape[2] = {ed->rows, ed->cols};
            put(&out, new_shape, sizeof new_shape);
            for (int64_t v = 0; v < ed->rows * ed->cols; ++v) {
                const double value = ed->fill != 0.0 ? ed->fill : 0.5;
                put(&out, &value, 8);
            }
        } else {
            put(&out, shape, sizeof shape);
            put(&out, c.p, bytes);
        }
        c.p += bytes, c.left -= bytes;
    }
    assert_int_equal(c.left, 0);
    f = fopen(path, "wb");
    assert_non_null(f);
    const uint32_t version = 1;
    fwrite("KINDREDM", 1, 8, f);
    fwrite(&version, 4, 1, f);
    const uint64_t payload = out.size, sum = test_fnv1a(out.p, out.size);
    fwrite(&payload, 8, 1, f);
    fwrite(out.p, 1, out.size, f);
    fwrite(&sum, 8, 1, f);
    fclose(f);
    free(out.p);
}

/* Fits `algorithm` on blobs (with side information it needs), saves it,
 * applies the edit, and returns the loaded model (or NULL, status in *load). */
static kindred_model *crafted(const char *algorithm, const char *option, const char *value, const edit *ed,
                              kindred_status *load) {
    double x[N * D];
    int32_t truth[N], partial[N];
    blobs(x, truth, 1.0);
    for (int i = 0; i < N; ++i) partial[i] = i < N / 2 ? i % 4 : -1;
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, N));
    assert_ok(kindred_side_set_partial_labels(s, partial, N));
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, algorithm));
    if (kindred_model_set_int(m, "k", 2) != KINDRED_OK) /* tvclust has no k */
        assert_non_null(strstr(kindred_last_error(), "unknown option 'k'"));
    if (option) assert_ok(kindred_model_set_string(m, option, value));
    int uses = 0;
    assert_ok(kindred_algorithm_uses(algorithm, &uses));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, (uses & KINDRED_USES_PARTIAL_LABELS) ? s : NULL));
    char path[512];
    temp_path(path, sizeof path, algorithm);
    assert_ok(kindred_model_save(m, path));
    kindred_model_free(m);
    kindred_side_free(s);
    rewrite_model(path, ed);
    kindred_model *back = NULL;
    *load = kindred_model_load(&back, path);
    remove(path);
    return back;
}

/* The model must load, and predict (and transform, if it has one) must fail
 * with KINDRED_E_CORRUPT and `needle` in the message, instead of crashing. */
static void assert_predict_corrupt(const char *algorithm, const char *option, const char *value, edit ed,
                                   const char *needle) {
    kindred_status load = KINDRED_OK;
    kindred_model *m = crafted(algorithm, option, value, &ed, &load);
    assert_int_equal(load, KINDRED_OK);
    double x[N * D];
    int32_t truth[N], labels[N];
    blobs(x, truth, 1.0);
    assert_fails_with(kindred_model_predict_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, labels, N), KINDRED_E_CORRUPT,
                      needle);
    int64_t dim = 0;
    if (strcmp(ed.array, "transform") == 0 && kindred_model_transform_dim(m, &dim) == KINDRED_OK && dim > 0 && dim < 100) {
        double *out = malloc(sizeof(double) * N * (size_t)dim);
        assert_fails_with(kindred_model_transform_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, out, N * dim),
                          KINDRED_E_CORRUPT, "the model's array");
        free(out);
    }
    kindred_model_free(m);
}

static void crafted_model_files_are_refused(void **state) {
    (void)state;
    /* Shapes that made predict read outside the arrays (segmentation faults). */
    const char *centroid[] = {"kmeans", "dpmeans", "copkmeans", "pckmeans", "tvclust", "rdpmeans"};
    for (int a = 0; a < 6; ++a)
        assert_predict_corrupt(centroid[a], NULL, NULL, (edit){"centers", 0, D, 0, 0, 0},
                               "the model's array 'centers' is 0 x 3; expected at least 1 x 3");
    assert_predict_corrupt("mpckmeans", NULL, NULL, (edit){"centers", 2, 0, 0, 0, 0}, "'centers' is 2 x 0");
    assert_predict_corrupt("mpckmeans", NULL, NULL, (edit){"metric", 1, 2, 0, 0, 0},
                           "the model's array 'metric' is 1 x 2; expected 1 x 3");
    assert_predict_corrupt("mpckmeans", "distortion", "euclidean-full", (edit){"metric", 1, D, 0, 0, 0},
                           "'metric' is 1 x 3; expected 3 x 3");
    /* distortion = auto: predict reads the distortion fitted from the model. */
    assert_predict_corrupt("mpckmeans", NULL, NULL, (edit){"chosen_distortion", 1, 1, 7.0, 0, 0},
                           "'chosen_distortion' holds 7; expected 0, 1, 2 or 3");
    assert_predict_corrupt("mpckmeans", NULL, NULL, (edit){"chosen_distortion", 1, 1, 0, 0, 0},
                           "'chosen_distortion' holds 0.5");
    assert_predict_corrupt("mpckmeans", NULL, NULL, (edit){"chosen_distortion", 0, 1, 0, 0, 0},
                           "'chosen_distortion' is 0 x 1; expected 1 x 1");
    assert_predict_corrupt("dcrc", NULL, NULL, (edit){"weights", 2, 0, 0, 0, 0},
                           "the model's array 'weights' is 2 x 0; expected at least 1 x 4");
    assert_predict_corrupt("dcrc", "kernel", "rbf", (edit){"basis", 5, D, 0, 0, 0}, "'weights' is 2 x");
    const char *tcs[] = {"tcs-gm", "tcs-vmf"};
    for (int a = 0; a < 2; ++a) {
        assert_predict_corrupt(tcs[a], NULL, NULL, (edit){"transform", D, D + 1, 0, 0, 0},
                               "the model's array 'transform' is 3 x 4; expected 3 x 3");
        assert_predict_corrupt(tcs[a], NULL, NULL, (edit){"cluster_ids", 0, 1, 0, 0, 0}, "'cluster_ids' is 0 x 1");
        /* Ids that are no int32_t labels (NaN became INT32_MIN). */
        assert_predict_corrupt(tcs[a], NULL, NULL, (edit){"cluster_ids", 6, 1, -5.0, 0, 0},
                               "'cluster_ids' holds -5; cluster ids are integers >= 0");
        assert_predict_corrupt(tcs[a], NULL, NULL, (edit){"cluster_ids", 6, 1, NAN, 0, 0}, "holds nan");
    }
    /* Counts and labels the C API hands out are checked at load. */
    kindred_status load = KINDRED_OK;
    kindred_model *m = crafted("kmeans", NULL, NULL, &(edit){NULL, 0, 0, 0, -3, 0}, &load);
    assert_null(m);
    assert_int_equal(load, KINDRED_E_CORRUPT);
    assert_non_null(strstr(kindred_last_error(), "impossible counts (-3 clusters"));
    m = crafted("kmeans", NULL, NULL, &(edit){NULL, 0, 0, 0, 0, -9}, &load);
    assert_null(m);
    assert_int_equal(load, KINDRED_E_CORRUPT);
    assert_non_null(strstr(kindred_last_error(), "label -9 of point 0 is below -1"));
    /* The unedited round trip still loads and predicts. */
    m = crafted("kmeans", NULL, NULL, &(edit){NULL, 0, 0, 0, 0, 0}, &load);
    assert_int_equal(load, KINDRED_OK);
    double x[N * D];
    int32_t truth[N], labels[N];
    blobs(x, truth, 1.0);
    assert_ok(kindred_model_predict_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, labels, N));
    assert_true(same_partition(truth, labels, N));
    kindred_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(data_outside_the_safe_scale_is_refused),
        cmocka_unit_test(csr_repeated_column_is_refused),
        cmocka_unit_test(impossible_leading_dimension_is_refused),
        cmocka_unit_test(pair_weights_summing_to_infinity_are_refused),
        cmocka_unit_test(impossible_triplet_count_fails_at_once),
        cmocka_unit_test(loading_a_directory_is_an_io_error),
        cmocka_unit_test(infinite_option_values_are_refused),
        cmocka_unit_test(option_text_is_read_whole),
        cmocka_unit_test(tvclust_thin_that_keeps_no_sweep_is_refused),
        cmocka_unit_test(success_clears_messages_left_by_callbacks),
        cmocka_unit_test(options_changed_after_a_fit_do_not_reach_predict),
        cmocka_unit_test(crafted_model_files_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
