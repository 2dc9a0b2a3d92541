/* DCRC through the public API: triplets must fix a split that k-means gets
 * wrong, outputs (labels, memberships, weights) agree, predict, determinism,
 * the lower bound never decreases, hard constraints, no triplets at all, and
 * every bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kindred.h"
#include "testing.h"

enum { N = 240, D = 2, K = 2 };

/* Four blobs at (+-6, +-1.5): k-means with K = 2 splits left / right (the long
 * axis), the classes are top / bottom. Only side information can tell. */
static void make_rectangle(double *x, int32_t *truth) {
    test_rng r = {7};
    for (int i = 0; i < N; ++i) {
        const int corner = i % 4;
        x[i * D] = (corner & 1 ? 6.0 : -6.0) + 0.8 * test_rng_symmetric(&r);
        x[i * D + 1] = (corner & 2 ? 1.5 : -1.5) + 0.8 * test_rng_symmetric(&r);
        truth[i] = corner >> 1;
    }
}

static double fmeasure(const int32_t *truth, const int32_t *labels, int64_t n) {
    double f = 0.0;
    assert_ok(kindred_metric("f-measure", truth, labels, n, &f));
    return f;
}

static kindred_model *fit(const char *alg, const double *x, int64_t n, const kindred_side *side, double epsilon,
                          int threads) {
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, alg));
    assert_ok(kindred_model_set_int(m, "k", K));
    if (epsilon >= 0) assert_ok(kindred_model_set_double(m, "epsilon", epsilon));
    if (threads >= 0) assert_ok(kindred_model_set_int(m, "threads", threads));
    assert_ok(kindred_model_fit_dense(m, x, n, D, KINDRED_ROW_MAJOR, D, side));
    return m;
}

static kindred_side *sampled_triplets(const int32_t *truth, int64_t count, uint64_t seed) {
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, N));
    assert_ok(kindred_sample_triplets(s, truth, N, count, 0.0, seed));
    return s;
}

static void triplets_fix_what_kmeans_gets_wrong(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], labels[N];
    make_rectangle(x, truth);
    kindred_model *km = fit("kmeans", x, N, NULL, -1, -1);
    assert_ok(kindred_model_labels(km, labels, N));
    const double f_kmeans = fmeasure(truth, labels, N);
    kindred_model_free(km);

    kindred_model *plain = fit("dcrc", x, N, NULL, -1, -1);
    assert_ok(kindred_model_labels(plain, labels, N));
    const double f_plain = fmeasure(truth, labels, N);
    kindred_model_free(plain);

    kindred_side *side = sampled_triplets(truth, 60, 3);
    kindred_model *m = fit("dcrc", x, N, side, -1, -1);
    assert_ok(kindred_model_labels(m, labels, N));
    const double f_dcrc = fmeasure(truth, labels, N);
    print_message("F-measure: kmeans %.3f, dcrc without triplets %.3f, dcrc with 60 triplets %.3f\n", f_kmeans,
                  f_plain, f_dcrc);
    assert_true(f_kmeans < 0.6);
    assert_true(f_plain < 0.6);
    assert_true(f_dcrc > 0.95);
    kindred_model_free(m);
    kindred_side_free(side);
}

/* epsilon = 0 (eq. 14). The max-model update gives no signal while the three
 * points of a triplet tie on every label (as they do when k-means put them in
 * one cluster), so hard constraints need more triplets than soft ones here. */
static void hard_constraints_are_satisfied(void **state) {
    (void)state;
    enum { T = 240 };
    double x[N * D];
    int32_t truth[N], labels[N];
    make_rectangle(x, truth);
    kindred_side *side = sampled_triplets(truth, T, 5);
    kindred_model *m = fit("dcrc", x, N, side, 0.0, -1);
    assert_ok(kindred_model_labels(m, labels, N));
    assert_true(fmeasure(truth, labels, N) > 0.95);
    /* Every yes / no answer holds in the final labels. */
    int64_t a[T], b[T], c[T];
    int32_t ans[T];
    assert_ok(kindred_side_triplets(side, a, b, c, ans, T));
    for (int t = 0; t < T; ++t) {
        if (ans[t] == 1) assert_true(labels[a[t]] == labels[b[t]] && labels[a[t]] != labels[c[t]]);
        if (ans[t] == -1) assert_true(labels[a[t]] == labels[c[t]] && labels[a[t]] != labels[b[t]]);
    }
    kindred_model_free(m);
    kindred_side_free(side);
}

static void outputs_agree_and_predict_matches(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], labels[N], predicted[N];
    make_rectangle(x, truth);
    kindred_side *side = sampled_triplets(truth, 40, 11);
    kindred_model *m = fit("dcrc", x, N, side, -1, -1);
    assert_ok(kindred_model_labels(m, labels, N));
    int64_t rows = 0, cols = 0;
    assert_ok(kindred_model_array_shape(m, "memberships", &rows, &cols));
    assert_int_equal(rows, N);
    assert_int_equal(cols, K);
    double p[N * K];
    assert_ok(kindred_model_array(m, "memberships", p, N * K));
    for (int i = 0; i < N; ++i) {
        assert_true(fabs(p[i * K] + p[i * K + 1] - 1.0) < 1e-12);
        assert_int_equal(labels[i], p[i * K + 1] > p[i * K] ? 1 : 0);
    }
    assert_ok(kindred_model_array_shape(m, "weights", &rows, &cols));
    assert_int_equal(rows, K);
    assert_int_equal(cols, D + 1);
    /* Predict on the training points gives the fitted labels; new points on
     * the top and bottom rows go to the clusters of those rows. */
    assert_ok(kindred_model_predict_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, predicted, N));
    for (int i = 0; i < N; ++i) assert_int_equal(predicted[i], labels[i]);
    const double fresh[8] = {-6.0, 1.5, 6.0, 1.5, -6.0, -1.5, 6.0, -1.5};
    int32_t fl[4];
    assert_ok(kindred_model_predict_dense(m, fresh, 4, D, KINDRED_ROW_MAJOR, D, fl, 4));
    assert_int_equal(fl[0], fl[1]);
    assert_int_equal(fl[2], fl[3]);
    assert_int_not_equal(fl[0], fl[2]);
    assert_int_equal(fl[0], labels[2]); /* point 2 is a top-left point */
    /* Column-major new points give the same answer. */
    const double fresh_cm[8] = {-6.0, 6.0, -6.0, 6.0, 1.5, 1.5, -1.5, -1.5};
    int32_t fl_cm[4];
    assert_ok(kindred_model_predict_dense(m, fresh_cm, 4, D, KINDRED_COL_MAJOR, 4, fl_cm, 4));
    for (int i = 0; i < 4; ++i) assert_int_equal(fl_cm[i], fl[i]);
    kindred_model_free(m);
    kindred_side_free(side);
}

static void deterministic_for_seed_and_threads(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], l1[N], l2[N];
    make_rectangle(x, truth);
    kindred_side *side = sampled_triplets(truth, 40, 13);
    kindred_model *a = fit("dcrc", x, N, side, -1, 1);
    kindred_model *b = fit("dcrc", x, N, side, -1, 2);
    assert_ok(kindred_model_labels(a, l1, N));
    assert_ok(kindred_model_labels(b, l2, N));
    for (int i = 0; i < N; ++i) assert_int_equal(l1[i], l2[i]);
    double wa[K * (D + 1)], wb[K * (D + 1)];
    assert_ok(kindred_model_array(a, "weights", wa, K * (D + 1)));
    assert_ok(kindred_model_array(b, "weights", wb, K * (D + 1)));
    for (int v = 0; v < K * (D + 1); ++v) assert_true(wa[v] == wb[v]);
    kindred_model_free(a);
    kindred_model_free(b);
    kindred_side_free(side);
}

static void lower_bound_never_decreases(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N];
    make_rectangle(x, truth);
    kindred_side *side = sampled_triplets(truth, 80, 17);
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "dcrc"));
    assert_ok(kindred_model_set_int(m, "k", 3));
    assert_ok(kindred_model_set_double(m, "epsilon", 0.1));
    assert_ok(kindred_model_set_double(m, "tol", 0.0));
    assert_ok(kindred_model_set_int(m, "max_iter", 15));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, side));
    int64_t rows = 0, cols = 0;
    assert_ok(kindred_model_array_shape(m, "objective_trace", &rows, &cols));
    assert_true(rows >= 2);
    double trace[64];
    assert_ok(kindred_model_array(m, "objective_trace", trace, 64));
    for (int64_t t = 1; t < rows; ++t) assert_true(trace[t] >= trace[t - 1] - 1e-9 * (1.0 + fabs(trace[t - 1])));
    kindred_model_free(m);
    kindred_side_free(side);
}

/* No triplets (NULL side, or a side with none): plain discriminative
 * clustering, allowed; on two well separated blobs it finds them. */
static void no_triplets_is_plain_discriminative_clustering(void **state) {
    (void)state;
    double x[100 * D];
    int32_t truth[100], labels[100];
    make_blobs(x, truth, 100, D, K, 8.0, 1.0, 21);
    kindred_model *m = NULL;
    kindred_side *empty = NULL;
    assert_ok(kindred_side_new(&empty, 100));
    for (int variant = 0; variant < 2; ++variant) {
        assert_ok(kindred_model_new(&m, "dcrc"));
        assert_ok(kindred_model_set_int(m, "k", K));
        assert_ok(kindred_model_fit_dense(m, x, 100, D, KINDRED_ROW_MAJOR, D, variant ? empty : NULL));
        assert_ok(kindred_model_labels(m, labels, 100));
        assert_true(same_partition(truth, labels, 100));
        kindred_model_free(m);
    }
    kindred_side_free(empty);
}

/* The kernel extension (end of section IV-B): two concentric rings need a
 * non-linear boundary. With 120 triplets the rbf model finds them, the linear
 * one cannot; predict on the training points (from the stored basis) gives
 * the fitted labels, also after save / load. */
static void rbf_kernel_separates_rings(void **state) {
    (void)state;
    enum { R = 240, T = 120 };
    double x[R * 2];
    int32_t truth[R], labels[R], predicted[R];
    test_rng rng = {11};
    for (int i = 0; i < R; ++i) {
        truth[i] = i % 2;
        const double angle = 6.283185307179586 * test_rng_uniform(&rng);
        const double radius = (truth[i] ? 3.0 : 1.0) + 0.3 * test_rng_symmetric(&rng);
        x[2 * i] = radius * cos(angle);
        x[2 * i + 1] = radius * sin(angle);
    }
    kindred_side *side = NULL;
    assert_ok(kindred_side_new(&side, R));
    assert_ok(kindred_sample_triplets(side, truth, R, T, 0.0, 3));
    double f[2];
    for (int variant = 0; variant < 2; ++variant) {
        kindred_model *m = NULL;
        assert_ok(kindred_model_new(&m, "dcrc"));
        assert_ok(kindred_model_set_int(m, "k", 2));
        assert_ok(kindred_model_set_string(m, "kernel", variant ? "rbf" : "linear"));
        assert_ok(kindred_model_fit_dense(m, x, R, 2, KINDRED_ROW_MAJOR, 2, side));
        assert_ok(kindred_model_labels(m, labels, R));
        f[variant] = fmeasure(truth, labels, R);
        if (variant) {
            int64_t rows = 0, cols = 0;
            assert_ok(kindred_model_array_shape(m, "basis", &rows, &cols));
            assert_int_equal(rows, 240 < 300 ? 240 : 300);
            assert_int_equal(cols, 2);
            assert_ok(kindred_model_array_shape(m, "weights", &rows, &cols));
            assert_int_equal(cols, 240 + 1);
            const char *path = "test_dcrc_rbf.kdm";
            assert_ok(kindred_model_save(m, path));
            kindred_model *loaded = NULL;
            assert_ok(kindred_model_load(&loaded, path));
            assert_ok(kindred_model_predict_dense(loaded, x, R, 2, KINDRED_ROW_MAJOR, 2, predicted, R));
            for (int i = 0; i < R; ++i) assert_int_equal(predicted[i], labels[i]);
            kindred_model_free(loaded);
            remove(path);
        }
        kindred_model_free(m);
    }
    print_message("rings, 120 triplets: F-measure linear %.3f, rbf %.3f\n", f[0], f[1]);
    assert_true(f[0] < 0.6);
    assert_true(f[1] > 0.95);
    kindred_side_free(side);
}

static int cancel_at_two(void *user, int64_t iteration, double objective, const char *message) {
    (void)objective;
    (void)user;
    return strstr(message, "dcrc") != NULL && iteration >= 2;
}

static void bad_input_is_refused(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N];
    make_rectangle(x, truth);
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "dcrc"));
    /* epsilon outside [0, 2/3); K < 2. */
    assert_fails_with(kindred_model_set_double(m, "epsilon", 2.0 / 3.0), KINDRED_E_INVALID, "epsilon");
    assert_fails_with(kindred_model_set_double(m, "epsilon", 0.9), KINDRED_E_INVALID, "epsilon");
    assert_fails_with(kindred_model_set_double(m, "epsilon", -0.01), KINDRED_E_INVALID, "epsilon");
    assert_ok(kindred_model_set_double(m, "epsilon", 0.0));
    assert_ok(kindred_model_set_double(m, "epsilon", 0.66));
    assert_fails_with(kindred_model_set_int(m, "k", 1), KINDRED_E_INVALID, "'k'");
    assert_fails_with(kindred_model_set_double(m, "tau", -1.0), KINDRED_E_INVALID, "tau");
    assert_fails_with(kindred_model_set_double(m, "lambda", -1.0), KINDRED_E_INVALID, "lambda");
    assert_fails_with(kindred_model_set_string(m, "kernel", "poly"), KINDRED_E_INVALID, "kernel");
    assert_fails_with(kindred_model_set_double(m, "gamma", -1.0), KINDRED_E_INVALID, "gamma");
    /* More clusters than points. */
    assert_ok(kindred_model_set_int(m, "k", 5));
    assert_fails_with(kindred_model_fit_dense(m, x, 4, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_DIMENSION, "dcrc");
    /* Sparse data is refused (the model is dense). */
    const int64_t indptr[3] = {0, 1, 2}, indices[2] = {0, 1};
    const double values[2] = {1.0, 2.0};
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_fails_with(kindred_model_fit_csr(m, 2, 2, indptr, indices, values, NULL), KINDRED_E_INVALID, "dcrc");
    /* Side information about another number of points. */
    kindred_side *other = NULL;
    assert_ok(kindred_side_new(&other, N + 1));
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, other), KINDRED_E_DIMENSION, "points");
    kindred_side_free(other);
    /* Triplets with a repeated index or an answer outside {-1, 0, 1} never
     * reach the algorithm: the side information refuses them, adding nothing. */
    kindred_side *side = NULL;
    assert_ok(kindred_side_new(&side, N));
    const int64_t a[2] = {0, 3}, b[2] = {1, 4}, c_rep[2] = {2, 3}, c[2] = {2, 5};
    const int32_t ans[2] = {1, 0}, bad_ans[2] = {1, 2};
    assert_fails_with(kindred_side_add_triplets(side, a, b, c_rep, ans, 2), KINDRED_E_INVALID, "");
    assert_fails_with(kindred_side_add_triplets(side, a, b, c, bad_ans, 2), KINDRED_E_INVALID, "");
    int64_t count = -1;
    assert_ok(kindred_side_counts(side, NULL, NULL, &count, NULL));
    assert_int_equal(count, 0);
    /* Cancellation from the progress callback leaves the model unfitted. */
    assert_ok(kindred_side_add_triplets(side, a, b, c, ans, 2));
    assert_ok(kindred_model_set_double(m, "epsilon", 0.05));
    assert_ok(kindred_model_set_double(m, "tol", 0.0));
    assert_ok(kindred_model_set_progress(m, cancel_at_two, NULL));
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, side), KINDRED_E_CANCELLED, "");
    int32_t labels[N];
    assert_int_equal(kindred_model_labels(m, labels, N), KINDRED_E_STATE);
    kindred_model_free(m);
    kindred_side_free(side);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(triplets_fix_what_kmeans_gets_wrong),
        cmocka_unit_test(hard_constraints_are_satisfied),
        cmocka_unit_test(outputs_agree_and_predict_matches),
        cmocka_unit_test(deterministic_for_seed_and_threads),
        cmocka_unit_test(lower_bound_never_decreases),
        cmocka_unit_test(no_triplets_is_plain_discriminative_clustering),
        cmocka_unit_test(rbf_kernel_separates_rings),
        cmocka_unit_test(bad_input_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
