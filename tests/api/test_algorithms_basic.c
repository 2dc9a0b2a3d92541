/* Known answers and proven properties of kmeans, dpmeans and gmm through the
 * public API: exact recovery of separated blobs, predict, best-of-n_init,
 * monotone objective traces, and equal results for every data layout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kindred.h"
#include "testing.h"

enum { N = 400, D = 3, K = 4 };

static kindred_model *model(const char *algorithm, int64_t k, int64_t seed) {
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, algorithm));
    if (k > 0) assert_ok(kindred_model_set_int(m, "k", k));
    assert_ok(kindred_model_set_int(m, "seed", seed));
    return m;
}

static void fit_rows(kindred_model *m, const double *x, int64_t n, int64_t d) {
    assert_ok(kindred_model_fit_dense(m, x, n, d, KINDRED_ROW_MAJOR, d, NULL));
}

static double *array(const kindred_model *m, const char *name, int64_t *rows, int64_t *cols) {
    assert_ok(kindred_model_array_shape(m, name, rows, cols));
    double *v = malloc(sizeof(double) * (size_t)(*rows * *cols + 1));
    assert_ok(kindred_model_array(m, name, v, *rows * *cols));
    return v;
}

static void kmeans_recovers_separated_blobs(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], labels[N];
    make_blobs(x, truth, N, D, K, 10.0, 1.0, 1);
    for (int64_t seed = 0; seed < 5; ++seed) {
        kindred_model *m = model("kmeans", K, seed);
        fit_rows(m, x, N, D);
        assert_ok(kindred_model_labels(m, labels, N));
        assert_true(same_partition(truth, labels, N));
        int64_t clusters = 0;
        int converged = 0;
        assert_ok(kindred_model_summary(m, NULL, NULL, &clusters, NULL, &converged, NULL));
        assert_int_equal(clusters, K);
        assert_true(converged);
        /* Each centre is the mean of its points. */
        int64_t rows = 0, cols = 0;
        double *centers = array(m, "centers", &rows, &cols);
        assert_int_equal(rows, K);
        assert_int_equal(cols, D);
        for (int c = 0; c < K; ++c)
            for (int j = 0; j < D; ++j) {
                double s = 0.0;
                int count = 0;
                for (int i = 0; i < N; ++i)
                    if (labels[i] == c) { s += x[i * D + j]; ++count; }
                assert_true(fabs(centers[c * D + j] - s / count) < 1e-9);
            }
        free(centers);
        kindred_model_free(m);
    }
}

static void predict_assigns_new_points_to_their_blob(void **state) {
    (void)state;
    double x[N * D], y[40 * D];
    int32_t truth[N], labels[N], ytruth[40], ylabels[40];
    make_blobs(x, truth, N, D, K, 10.0, 1.0, 2);
    make_blobs(y, ytruth, 40, D, K, 10.0, 1.5, 3); /* new points of the same blobs */
    const char *algorithms[] = {"kmeans", "gmm", "dpmeans"};
    for (int a = 0; a < 3; ++a) {
        kindred_model *m = model(algorithms[a], K, 0);
        fit_rows(m, x, N, D);
        assert_ok(kindred_model_labels(m, labels, N));
        assert_true(same_partition(truth, labels, N));
        assert_ok(kindred_model_predict_dense(m, y, 40, D, KINDRED_ROW_MAJOR, D, ylabels, 40));
        /* blob c's training points have label labels[c] (point c is in blob c). */
        for (int i = 0; i < 40; ++i) assert_int_equal(ylabels[i], labels[ytruth[i]]);
        /* Predicting the training points gives the fitted labels. */
        int32_t again[N];
        assert_ok(kindred_model_predict_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, again, N));
        assert_memory_equal(again, labels, sizeof labels);
        kindred_model_free(m);
    }
}

/* The log callback receives "kmeans: restart R inertia X after ..." per restart. */
typedef struct restarts {
    int count;
    double inertia[64];
} restarts;

static void collect_restarts(void *user, int level, const char *message) {
    (void)level;
    restarts *r = (restarts *)user;
    const char *at = strstr(message, "inertia ");
    if (strncmp(message, "kmeans: restart ", 16) != 0 || !at || r->count >= 64) return;
    r->inertia[r->count++] = strtod(at + 8, NULL);
}

static void n_init_keeps_the_lowest_inertia(void **state) {
    (void)state;
    double x[N * D];
    /* Many overlapping blobs: restarts end in different local minima. */
    make_blobs(x, NULL, N, D, 12, 2.0, 2.0, 4);
    kindred_model *m = model("kmeans", 10, 3);
    assert_ok(kindred_model_set_int(m, "n_init", 8));
    restarts r = {0, {0}};
    assert_ok(kindred_model_set_log(m, collect_restarts, &r));
    fit_rows(m, x, N, D);
    double best = 0.0;
    assert_ok(kindred_model_summary(m, NULL, NULL, NULL, NULL, NULL, &best));
    assert_int_equal(r.count, 8);
    double lowest = INFINITY, highest = -INFINITY;
    for (int k = 0; k < r.count; ++k) {
        assert_true(best <= r.inertia[k]);
        lowest = fmin(lowest, r.inertia[k]);
        highest = fmax(highest, r.inertia[k]);
    }
    assert_true(best == lowest);
    assert_true(lowest < highest); /* the restarts did differ: the test means something */
    kindred_model_free(m);
    /* A single restart with the same seed is the first of those restarts. */
    kindred_model *single = model("kmeans", 10, 3);
    assert_ok(kindred_model_set_int(single, "n_init", 1));
    fit_rows(single, x, N, D);
    double one = 0.0;
    assert_ok(kindred_model_summary(single, NULL, NULL, NULL, NULL, NULL, &one));
    assert_true(one == r.inertia[0]);
    assert_true(best <= one);
    kindred_model_free(single);
}

static void assert_monotone(const double *trace, int64_t count, int increasing) {
    for (int64_t t = 1; t < count; ++t) {
        const double slack = 1e-10 * fabs(trace[t - 1]) + 1e-12;
        if (increasing)
            assert_true(trace[t] >= trace[t - 1] - slack);
        else
            assert_true(trace[t] <= trace[t - 1] + slack);
    }
}

static void kmeans_objective_never_increases(void **state) {
    (void)state;
    double x[N * D];
    make_blobs(x, NULL, N, D, 7, 1.5, 2.0, 5);
    for (int64_t seed = 0; seed < 4; ++seed) {
        kindred_model *m = model("kmeans", 6, seed);
        assert_ok(kindred_model_set_int(m, "n_init", 1));
        assert_ok(kindred_model_set_double(m, "tol", 0.0));
        fit_rows(m, x, N, D);
        int64_t rows = 0, cols = 0, iterations = 0;
        double objective = 0.0;
        double *trace = array(m, "objective_trace", &rows, &cols);
        assert_ok(kindred_model_summary(m, NULL, NULL, NULL, &iterations, NULL, &objective));
        assert_int_equal(cols, 1);
        assert_int_equal(rows, iterations);
        assert_true(rows >= 3);
        assert_monotone(trace, rows, 0);
        assert_true(objective <= trace[rows - 1] * (1 + 1e-12));
        free(trace);
        kindred_model_free(m);
    }
}

static void dpmeans_objective_never_increases(void **state) {
    (void)state;
    double x[N * D];
    make_blobs(x, NULL, N, D, 6, 2.0, 2.0, 6);
    const double lambdas[] = {2.0, 5.0, 10.0, 30.0};
    for (int l = 0; l < 4; ++l) {
        kindred_model *m = model("dpmeans", 0, 0);
        assert_ok(kindred_model_set_double(m, "lambda", lambdas[l]));
        fit_rows(m, x, N, D);
        int64_t rows = 0, cols = 0, clusters = 0;
        double objective = 0.0;
        double *trace = array(m, "objective_trace", &rows, &cols);
        assert_ok(kindred_model_summary(m, NULL, NULL, &clusters, NULL, NULL, &objective));
        assert_true(rows >= 2);
        assert_monotone(trace, rows, 0);
        assert_true(objective == trace[rows - 1]);
        /* Objective = sum of squared distances to the centres + lambda * k. */
        int32_t labels[N];
        assert_ok(kindred_model_labels(m, labels, N));
        int64_t cr = 0, cc = 0;
        double *centers = array(m, "centers", &cr, &cc);
        assert_int_equal(cr, clusters);
        double expected = lambdas[l] * (double)clusters;
        for (int i = 0; i < N; ++i) {
            assert_in_range(labels[i], 0, clusters - 1);
            for (int j = 0; j < D; ++j) {
                const double diff = x[i * D + j] - centers[labels[i] * D + j];
                expected += diff * diff;
            }
        }
        assert_true(fabs(objective - expected) <= 1e-9 * expected);
        free(centers);
        free(trace);
        kindred_model_free(m);
    }
}

static void dpmeans_known_extremes(void **state) {
    (void)state;
    double x[30 * D];
    make_blobs(x, NULL, 30, D, 3, 10.0, 1.0, 7);
    int64_t clusters = 0;
    /* A lambda above every squared distance to the mean: one cluster. */
    kindred_model *m = model("dpmeans", 0, 0);
    assert_ok(kindred_model_set_double(m, "lambda", 1e6));
    fit_rows(m, x, 30, D);
    assert_ok(kindred_model_summary(m, NULL, NULL, &clusters, NULL, NULL, NULL));
    assert_int_equal(clusters, 1);
    /* A tiny lambda on distinct points: every point its own cluster. */
    assert_ok(kindred_model_set_double(m, "lambda", 1e-9));
    fit_rows(m, x, 30, D);
    assert_ok(kindred_model_summary(m, NULL, NULL, &clusters, NULL, NULL, NULL));
    assert_int_equal(clusters, 30);
    kindred_model_free(m);
    /* Neither lambda nor k: an error that says what to set. */
    assert_ok(kindred_model_new(&m, "dpmeans"));
    assert_fails_with(kindred_model_fit_dense(m, x, 30, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID, "lambda");
    kindred_model_free(m);
}

static void dpmeans_lambda_from_k_finds_about_k(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], labels[N];
    for (int64_t k = 2; k <= 6; ++k) {
        make_blobs(x, truth, N, D, k, 10.0, 1.0, 8 + (uint64_t)k);
        kindred_model *m = model("dpmeans", k, 0);
        fit_rows(m, x, N, D);
        int64_t clusters = 0;
        assert_ok(kindred_model_summary(m, NULL, NULL, &clusters, NULL, NULL, NULL));
        assert_in_range(clusters, k - 1, k + 1);
        int64_t rows = 0, cols = 0;
        double *lambda = array(m, "lambda", &rows, &cols);
        assert_true(lambda[0] > 0.0);
        free(lambda);
        assert_ok(kindred_model_labels(m, labels, N));
        double nmi = 0.0;
        assert_ok(kindred_metric("nmi", truth, labels, N, &nmi));
        assert_true(nmi > 0.9);
        kindred_model_free(m);
    }
}

static void gmm_log_likelihood_never_decreases(void **state) {
    (void)state;
    double x[N * D];
    make_blobs(x, NULL, N, D, 5, 2.0, 2.0, 9);
    const char *covariances[] = {"shared-spherical", "spherical", "diagonal", "full"};
    for (int c = 0; c < 4; ++c) {
        kindred_model *m = model("gmm", 4, 1);
        assert_ok(kindred_model_set_string(m, "covariance", covariances[c]));
        assert_ok(kindred_model_set_double(m, "tol", 1e-10));
        assert_ok(kindred_model_set_int(m, "max_iter", 60));
        fit_rows(m, x, N, D);
        int64_t rows = 0, cols = 0;
        double objective = 0.0;
        double *trace = array(m, "objective_trace", &rows, &cols);
        assert_ok(kindred_model_summary(m, NULL, NULL, NULL, NULL, NULL, &objective));
        assert_true(rows >= 3);
        assert_monotone(trace, rows, 1);
        assert_true(objective == trace[rows - 1]);
        free(trace);
        /* Memberships are probabilities; the label is the most probable component. */
        double *resp = array(m, "memberships", &rows, &cols);
        int32_t labels[N];
        assert_ok(kindred_model_labels(m, labels, N));
        assert_int_equal(rows, N);
        assert_int_equal(cols, 4);
        for (int i = 0; i < N; ++i) {
            double s = 0.0;
            for (int k = 0; k < 4; ++k) {
                assert_true(resp[i * 4 + k] >= 0.0 && resp[i * 4 + k] <= 1.0);
                assert_true(resp[i * 4 + k] <= resp[i * 4 + labels[i]]);
                s += resp[i * 4 + k];
            }
            assert_true(fabs(s - 1.0) < 1e-12);
        }
        free(resp);
        kindred_model_free(m);
    }
}

static void layouts_give_the_same_labels(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N];
    make_blobs(x, truth, N, D, 5, 2.0, 2.0, 10);
    /* pckmeans / mpckmeans read contiguous row-major points in place and copy the other layouts. */
    kindred_side *side = NULL;
    assert_ok(kindred_side_new(&side, N));
    assert_ok(kindred_sample_pairs(side, truth, N, N, 0.0, 0.0, 3));
    const int64_t ld_col = N + 7, ld_row = D + 2;
    double *col = malloc(sizeof(double) * (size_t)(ld_col * D));
    double *row = malloc(sizeof(double) * (size_t)(ld_row * N));
    for (int64_t v = 0; v < ld_col * D; ++v) col[v] = NAN; /* padding is never read */
    for (int64_t v = 0; v < ld_row * N; ++v) row[v] = NAN;
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < D; ++j) {
            col[i + j * ld_col] = x[i * D + j];
            row[i * ld_row + j] = x[i * D + j];
        }
    const char *algorithms[] = {"kmeans", "dpmeans", "gmm", "pckmeans", "mpckmeans"};
    for (int a = 0; a < 5; ++a) {
        int32_t dense[N], colmajor[N], padded[N], predicted[N];
        kindred_model *m = model(algorithms[a], 5, 2);
        const kindred_side *pairs = a >= 3 ? side : NULL;
        assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, pairs));
        assert_ok(kindred_model_labels(m, dense, N));
        assert_ok(kindred_model_fit_dense(m, col, N, D, KINDRED_COL_MAJOR, ld_col, pairs));
        assert_ok(kindred_model_labels(m, colmajor, N));
        assert_memory_equal(dense, colmajor, sizeof dense);
        assert_ok(kindred_model_predict_dense(m, col, N, D, KINDRED_COL_MAJOR, ld_col, predicted, N));
        assert_memory_equal(dense, predicted, sizeof dense);
        assert_ok(kindred_model_fit_dense(m, row, N, D, KINDRED_ROW_MAJOR, ld_row, pairs));
        assert_ok(kindred_model_labels(m, padded, N));
        assert_memory_equal(dense, padded, sizeof dense);
        kindred_model_free(m);
    }
    kindred_side_free(side);
    free(col);
    free(row);
}

static void csr_gives_the_same_labels_as_dense(void **state) {
    (void)state;
    /* Separated blobs with many exact zeros, stored sparse (zeros dropped). */
    enum { DS = 6 };
    double x[N * DS];
    int32_t truth[N];
    make_blobs(x, truth, N, DS, K, 10.0, 1.0, 11);
    for (int v = 0; v < N * DS; ++v)
        if (fabs(x[v]) < 0.5) x[v] = 0.0;
    int64_t indptr[N + 1], indices[N * DS];
    double values[N * DS];
    int64_t nnz = 0;
    indptr[0] = 0;
    for (int i = 0; i < N; ++i) {
        for (int j = 0; j < DS; ++j)
            if (x[i * DS + j] != 0.0) {
                indices[nnz] = j;
                values[nnz++] = x[i * DS + j];
            }
        indptr[i + 1] = nnz;
    }
    assert_true(nnz < N * DS * 2 / 3);
    const char *algorithms[] = {"kmeans", "dpmeans"};
    for (int a = 0; a < 2; ++a) {
        int32_t dense[N], sparse[N], predicted[N];
        kindred_model *m = model(algorithms[a], K, 4);
        fit_rows(m, x, N, DS);
        assert_ok(kindred_model_labels(m, dense, N));
        assert_true(same_partition(truth, dense, N));
        int64_t rows = 0, cols = 0;
        double *dense_centers = array(m, "centers", &rows, &cols);
        assert_ok(kindred_model_fit_csr(m, N, DS, indptr, indices, values, NULL));
        assert_ok(kindred_model_labels(m, sparse, N));
        assert_memory_equal(dense, sparse, sizeof dense);
        double *sparse_centers = array(m, "centers", &rows, &cols);
        for (int64_t v = 0; v < rows * cols; ++v) assert_true(fabs(dense_centers[v] - sparse_centers[v]) < 1e-9);
        assert_ok(kindred_model_predict_csr(m, N, DS, indptr, indices, values, predicted, N));
        assert_memory_equal(dense, predicted, sizeof dense);
        free(dense_centers);
        free(sparse_centers);
        kindred_model_free(m);
    }
}

static void k_equal_to_n_puts_each_point_alone(void **state) {
    (void)state;
    double x[12 * 2];
    make_blobs(x, NULL, 12, 2, 3, 5.0, 1.0, 12);
    kindred_model *m = model("kmeans", 12, 0);
    fit_rows(m, x, 12, 2);
    int32_t labels[12];
    assert_ok(kindred_model_labels(m, labels, 12));
    for (int a = 0; a < 12; ++a)
        for (int b = 0; b < a; ++b) assert_int_not_equal(labels[a], labels[b]);
    double objective = -1.0;
    assert_ok(kindred_model_summary(m, NULL, NULL, NULL, NULL, NULL, &objective));
    assert_true(objective >= 0.0 && objective < 1e-9);
    kindred_model_free(m);
}

/* Repeated and constant points: no NaN, labels in range, finite objectives. */
static void degenerate_data_gives_finite_results(void **state) {
    (void)state;
    enum { M = 20 };
    double same[M * 2], three[M * 2];
    for (int i = 0; i < M; ++i) {
        same[2 * i] = 1.5;
        same[2 * i + 1] = -2.0;
        three[2 * i] = (double)(i % 3);
        three[2 * i + 1] = 0.0;
    }
    const double *sets[2] = {same, three};
    const char *algorithms[] = {"kmeans", "dpmeans", "gmm"};
    for (int set = 0; set < 2; ++set)
        for (int a = 0; a < 3; ++a) {
            kindred_model *m = model(algorithms[a], 5, 1); /* more clusters than distinct points */
            fit_rows(m, sets[set], M, 2);
            int64_t clusters = 0;
            double objective = NAN;
            int32_t labels[M];
            assert_ok(kindred_model_summary(m, NULL, NULL, &clusters, NULL, NULL, &objective));
            assert_true(isfinite(objective));
            assert_ok(kindred_model_labels(m, labels, M));
            for (int i = 0; i < M; ++i) assert_in_range(labels[i], 0, clusters - 1);
            int64_t rows = 0, cols = 0;
            double *centers = array(m, "centers", &rows, &cols);
            for (int64_t v = 0; v < rows * cols; ++v) assert_true(isfinite(centers[v]));
            free(centers);
            /* Points at the same place share a label. */
            for (int i = 3; i < M; ++i) assert_int_equal(labels[i], labels[set == 0 ? 0 : i % 3]);
            if (a == 1) assert_int_equal(clusters, set == 0 ? 1 : 3); /* dpmeans: one per distinct place */
            kindred_model_free(m);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kmeans_recovers_separated_blobs),
        cmocka_unit_test(predict_assigns_new_points_to_their_blob),
        cmocka_unit_test(n_init_keeps_the_lowest_inertia),
        cmocka_unit_test(kmeans_objective_never_increases),
        cmocka_unit_test(dpmeans_objective_never_increases),
        cmocka_unit_test(dpmeans_known_extremes),
        cmocka_unit_test(dpmeans_lambda_from_k_finds_about_k),
        cmocka_unit_test(gmm_log_likelihood_never_decreases),
        cmocka_unit_test(layouts_give_the_same_labels),
        cmocka_unit_test(csr_gives_the_same_labels_as_dense),
        cmocka_unit_test(k_equal_to_n_puts_each_point_alone),
        cmocka_unit_test(degenerate_data_gives_finite_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
