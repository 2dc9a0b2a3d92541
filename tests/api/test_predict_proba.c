/* Soft memberships of new points (kindred_model_predict_proba_dense) and the capability flags that
 * say which algorithms have them or a transformation (KINDRED_USES_SOFT, KINDRED_USES_TRANSFORM). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testing.h"

enum { N = 60, D = 2, K = 3 };

static void three_blobs(double *x) {
    test_rng r = {7};
    for (int i = 0; i < N; ++i) {
        x[D * i] = 6.0 * (i % K) + 0.5 * test_rng_symmetric(&r);
        x[D * i + 1] = -4.0 * (i % K) + 0.5 * test_rng_symmetric(&r);
    }
}

static kindred_model *fitted(const char *algorithm, const double *x) {
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, algorithm));
    assert_ok(kindred_model_set_int(m, "k", K));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    return m;
}

static void gmm_memberships_sum_to_one_and_agree_with_predict(void **state) {
    (void)state;
    double x[N * D], p[N * K];
    int32_t labels[N];
    three_blobs(x);
    kindred_model *m = fitted("gmm", x);
    /* new points: the fitted ones in column-major order, so the layout is honoured too */
    double xc[N * D];
    for (int i = 0; i < N; ++i) for (int j = 0; j < D; ++j) xc[j * N + i] = x[D * i + j];
    assert_ok(kindred_model_predict_proba_dense(m, xc, N, D, KINDRED_COL_MAJOR, N, p, N * K));
    assert_ok(kindred_model_predict_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, labels, N));
    for (int i = 0; i < N; ++i) {
        double sum = 0.0;
        int best = 0;
        for (int c = 0; c < K; ++c) {
            assert_true(p[K * i + c] >= 0.0 && p[K * i + c] <= 1.0);
            sum += p[K * i + c];
            if (p[K * i + c] > p[K * i + best]) best = c;
        }
        assert_true(fabs(sum - 1.0) < 1e-12);
        assert_int_equal(best, labels[i]);
        assert_true(p[K * i + best] > 0.99); /* well separated blobs: sure memberships */
    }
    assert_fails_with(kindred_model_predict_proba_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, p, N * K - 1),
                      KINDRED_E_BUFFER_TOO_SMALL, "179 entries is too small; 60 x 3 needed");
    assert_fails_with(kindred_model_predict_proba_dense(m, x, N, 1, KINDRED_ROW_MAJOR, 1, p, N * K),
                      KINDRED_E_DIMENSION, "d = 2");
    assert_fails_with(kindred_model_predict_proba_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL, N * K),
                      KINDRED_E_INVALID, "out");
    kindred_model_free(m);
}

static void hard_assignments_have_no_memberships(void **state) {
    (void)state;
    double x[N * D], p[N * K];
    three_blobs(x);
    kindred_model *m = fitted("kmeans", x);
    assert_fails_with(kindred_model_predict_proba_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, p, N * K),
                      KINDRED_E_STATE, "no soft memberships");
    kindred_model_free(m);
    kindred_model *unfitted = NULL;
    assert_ok(kindred_model_new(&unfitted, "gmm"));
    assert_int_equal(kindred_model_predict_proba_dense(unfitted, x, N, D, KINDRED_ROW_MAJOR, D, p, N * K),
                     KINDRED_E_STATE);
    kindred_model_free(unfitted);
}

/* The flags follow what a fitted model of each algorithm really offers. */
static void capability_flags_match_the_models(void **state) {
    (void)state;
    int flags = 0;
    assert_ok(kindred_algorithm_uses("gmm", &flags));
    assert_true(flags & KINDRED_USES_SOFT);
    assert_false(flags & KINDRED_USES_TRANSFORM);
    assert_ok(kindred_algorithm_uses("kmeans", &flags));
    assert_false(flags & (KINDRED_USES_SOFT | KINDRED_USES_TRANSFORM));
    assert_ok(kindred_algorithm_uses("tcs-gm", &flags));
    assert_true(flags & KINDRED_USES_TRANSFORM);
    assert_true(flags & KINDRED_USES_PARTIAL_LABELS);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gmm_memberships_sum_to_one_and_agree_with_predict),
        cmocka_unit_test(hard_assignments_have_no_memberships),
        cmocka_unit_test(capability_flags_match_the_models),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
