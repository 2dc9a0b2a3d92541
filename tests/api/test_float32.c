/* float32 points through the C API (kindred_model_*_f32): read in place and
 * widened to double where read, so every algorithm gives on a float32 array
 * what it gives on a float64 array holding the same values (bitwise for
 * row-major points); column-major points give the same labels. And the
 * float32 entry points refuse bad input as the float64 ones do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kindred.h"
#include "testing.h"

enum { N = 90, D = 4, K = 3 };

typedef struct points {
    float xf[N * D], xf_col[N * D];
    double xd[N * D], xd_col[N * D];
    int32_t truth[N];
} points;

/* Blobs rounded to float, and the same values as double (exact). */
static void make_points(points *p) {
    make_blobs(p->xd, p->truth, N, D, K, 4.0, 1.0, 17);
    for (int i = 0; i < N * D; ++i) {
        p->xf[i] = (float)p->xd[i];
        p->xd[i] = (double)p->xf[i];
    }
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < D; ++j) {
            p->xf_col[j * N + i] = p->xf[i * D + j];
            p->xd_col[j * N + i] = p->xd[i * D + j];
        }
}

/* Pairs, triplets and partial labels from the truth: whatever side
 * information an algorithm reads is there. */
static kindred_side *make_side(const int32_t *truth) {
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, N));
    int64_t i[40], j[40];
    double v[40];
    for (int e = 0; e < 40; ++e) {
        i[e] = (e * 7) % N;
        j[e] = (e * 13 + 5) % N;
        if (i[e] == j[e]) j[e] = (j[e] + 1) % N;
        v[e] = truth[i[e]] == truth[j[e]] ? 1.0 : -1.0;
    }
    assert_ok(kindred_side_add_pairs(s, i, j, v, 40));
    int64_t a[20], b[20], c[20];
    int32_t answer[20];
    for (int e = 0; e < 20; ++e) {
        a[e] = e;
        b[e] = e + K; /* same blob as a */
        c[e] = e + 1; /* another blob */
        answer[e] = 1;
    }
    assert_ok(kindred_side_add_triplets(s, a, b, c, answer, 20));
    int32_t partial[N];
    for (int e = 0; e < N; ++e) partial[e] = e < 3 * K ? truth[e] : -1;
    assert_ok(kindred_side_set_partial_labels(s, partial, N));
    return s;
}

static kindred_model *new_model(const char *algorithm) {
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, algorithm));
    (void)kindred_model_set_int(m, "k", K); /* not every algorithm has k */
    assert_ok(kindred_model_set_int(m, "seed", 3));
    assert_ok(kindred_model_set_int(m, "threads", 1));
    return m;
}

static void assert_same_summary(const kindred_model *a, const kindred_model *b, int bitwise) {
    int64_t n[2], d[2], clusters[2], iterations[2];
    int converged[2];
    double objective[2];
    assert_ok(kindred_model_summary(a, &n[0], &d[0], &clusters[0], &iterations[0], &converged[0], &objective[0]));
    assert_ok(kindred_model_summary(b, &n[1], &d[1], &clusters[1], &iterations[1], &converged[1], &objective[1]));
    assert_int_equal(clusters[0], clusters[1]);
    if (bitwise) {
        assert_int_equal(iterations[0], iterations[1]);
        assert_memory_equal(&objective[0], &objective[1], sizeof(double));
    }
    int32_t la[N], lb[N];
    assert_ok(kindred_model_labels(a, la, N));
    assert_ok(kindred_model_labels(b, lb, N));
    if (bitwise)
        assert_memory_equal(la, lb, sizeof la);
    else
        assert_true(same_partition(la, lb, N));
}

/* Every algorithm, float32 against float64 with the same values. */
static void every_algorithm_gives_the_float64_result(void **state) {
    (void)state;
    points *p = malloc(sizeof *p);
    assert_non_null(p);
    make_points(p);
    kindred_side *side = make_side(p->truth);
    for (int64_t a = 0; a < kindred_algorithm_count(); ++a) {
        const char *name = kindred_algorithm_name(a);
        kindred_model *md = new_model(name), *mf = new_model(name);
        assert_ok(kindred_model_fit_dense(md, p->xd, N, D, KINDRED_ROW_MAJOR, D, side));
        assert_ok(kindred_model_fit_dense_f32(mf, p->xf, N, D, KINDRED_ROW_MAJOR, D, side));
        print_message("%s: float32 against float64\n", name);
        assert_same_summary(md, mf, 1);

        int flags = 0;
        assert_ok(kindred_algorithm_uses(name, &flags));
        int32_t ld[N], lf[N];
        if (kindred_model_predict_dense(md, p->xd, N, D, KINDRED_ROW_MAJOR, D, ld, N) == KINDRED_OK) {
            assert_ok(kindred_model_predict_dense_f32(md, p->xf, N, D, KINDRED_ROW_MAJOR, D, lf, N));
            assert_memory_equal(ld, lf, sizeof ld);
        }
        int64_t clusters = 0, dim = 0;
        assert_ok(kindred_model_summary(md, NULL, NULL, &clusters, NULL, NULL, NULL));
        if (flags & KINDRED_USES_SOFT) {
            double *pd = malloc(sizeof(double) * N * clusters), *pf = malloc(sizeof(double) * N * clusters);
            assert_ok(kindred_model_predict_proba_dense(md, p->xd, N, D, KINDRED_ROW_MAJOR, D, pd, N * clusters));
            assert_ok(kindred_model_predict_proba_dense_f32(md, p->xf, N, D, KINDRED_ROW_MAJOR, D, pf, N * clusters));
            assert_memory_equal(pd, pf, sizeof(double) * N * clusters);
            free(pd);
            free(pf);
        }
        if (kindred_model_transform_dim(md, &dim) == KINDRED_OK) {
            double *td = malloc(sizeof(double) * N * dim), *tf = malloc(sizeof(double) * N * dim);
            assert_ok(kindred_model_transform_dense(md, p->xd, N, D, KINDRED_ROW_MAJOR, D, td, N * dim));
            assert_ok(kindred_model_transform_dense_f32(md, p->xf, N, D, KINDRED_ROW_MAJOR, D, tf, N * dim));
            assert_memory_equal(td, tf, sizeof(double) * N * dim);
            free(td);
            free(tf);
        }
        kindred_model_free(md);
        kindred_model_free(mf);

        /* Column-major float32: the labels of column-major float64. */
        md = new_model(name);
        mf = new_model(name);
        assert_ok(kindred_model_fit_dense(md, p->xd_col, N, D, KINDRED_COL_MAJOR, N, side));
        assert_ok(kindred_model_fit_dense_f32(mf, p->xf_col, N, D, KINDRED_COL_MAJOR, N, side));
        assert_same_summary(md, mf, 0);
        kindred_model_free(md);
        kindred_model_free(mf);
    }
    kindred_side_free(side);
    free(p);
}

/* A standardizing model applies its stored scaling to float32 points too. */
static void standardize_applies_to_float32(void **state) {
    (void)state;
    points *p = malloc(sizeof *p);
    assert_non_null(p);
    make_points(p);
    kindred_model *m = new_model("gmm");
    assert_ok(kindred_model_set_int(m, "standardize", 1));
    assert_ok(kindred_model_fit_dense_f32(m, p->xf, N, D, KINDRED_ROW_MAJOR, D, NULL));
    int32_t fitted[N], again[N];
    double proba[N * K];
    assert_ok(kindred_model_labels(m, fitted, N));
    assert_ok(kindred_model_predict_dense_f32(m, p->xf, N, D, KINDRED_ROW_MAJOR, D, again, N));
    assert_memory_equal(fitted, again, sizeof fitted);
    /* predict_proba's largest entry is predict's cluster (the scaling applied to both). */
    assert_ok(kindred_model_predict_proba_dense_f32(m, p->xf, N, D, KINDRED_ROW_MAJOR, D, proba, N * K));
    for (int i = 0; i < N; ++i) {
        int best = 0;
        for (int c = 1; c < K; ++c)
            if (proba[i * K + c] > proba[i * K + best]) best = c;
        assert_int_equal(best, again[i]);
    }
    kindred_model_free(m);
    free(p);
}

static void float32_bad_input_is_refused(void **state) {
    (void)state;
    float x[N * D];
    for (int i = 0; i < N * D; ++i) x[i] = (float)(i % 7);
    kindred_model *m = new_model("kmeans");
    int32_t labels[N];
    double out[N * K];
    assert_fails_with(kindred_model_predict_dense_f32(m, x, N, D, KINDRED_ROW_MAJOR, D, labels, N), KINDRED_E_STATE,
                      "not fitted");
    assert_fails_with(kindred_model_fit_dense_f32(NULL, x, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID, "model");
    assert_fails_with(kindred_model_fit_dense_f32(m, NULL, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID, "data");
    assert_fails_with(kindred_model_fit_dense_f32(m, x, 0, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID, "n must be > 0");
    assert_fails_with(kindred_model_fit_dense_f32(m, x, N, D, 7, D, NULL), KINDRED_E_INVALID, "layout");
    assert_fails_with(kindred_model_fit_dense_f32(m, x, N, D, KINDRED_ROW_MAJOR, D - 1, NULL), KINDRED_E_DIMENSION,
                      "leading dimension");
    x[5 * D + 2] = NAN;
    assert_fails_with(kindred_model_fit_dense_f32(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID,
                      "row 5, column 2 is NaN");
    x[5 * D + 2] = INFINITY;
    assert_fails_with(kindred_model_fit_dense_f32(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID,
                      "row 5, column 2 is infinite");
    x[5 * D + 2] = 1.0f;
    assert_ok(kindred_model_fit_dense_f32(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    assert_fails_with(kindred_model_predict_dense_f32(m, x, N, D - 1, KINDRED_ROW_MAJOR, D - 1, labels, N),
                      KINDRED_E_DIMENSION, "d = ");
    assert_fails_with(kindred_model_predict_dense_f32(m, x, N, D, KINDRED_ROW_MAJOR, D, labels, N - 1),
                      KINDRED_E_BUFFER_TOO_SMALL, "too small");
    assert_fails_with(kindred_model_predict_proba_dense_f32(m, x, N, D, KINDRED_ROW_MAJOR, D, out, N * K),
                      KINDRED_E_STATE, "no soft memberships");
    assert_fails_with(kindred_model_transform_dense_f32(m, x, N, D, KINDRED_ROW_MAJOR, D, out, N * K), KINDRED_E_STATE,
                      "no transformation");
    kindred_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_algorithm_gives_the_float64_result),
        cmocka_unit_test(standardize_applies_to_float32),
        cmocka_unit_test(float32_bad_input_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
