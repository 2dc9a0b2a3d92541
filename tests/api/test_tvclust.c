/* TVClust through the public header: separated blobs with pairs, the traces
 * and the co-clustering matrix, the MAP labels have the highest log joint of
 * the kept sweeps, the multinomial likelihood, determinism, and the bad-input
 * paths (p or q outside (0, 1), burn_in >= iterations, negative counts, the
 * co-clustering limit, p <= 1 - q warns, identical points). The sampler's
 * correctness against exact enumeration is in test_tvclust_internals. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kindred.h"

#define OK(call) assert_int_equal((call), KINDRED_OK)
#define N 60

static void make_blobs(double *x, int32_t *truth) {
    srand(11);
    for (int i = 0; i < N; ++i) {
        truth[i] = i % 3;
        x[2 * i] = 8.0 * truth[i] + (rand() / (double)RAND_MAX - 0.5);
        x[2 * i + 1] = 3.0 * (truth[i] == 1) + (rand() / (double)RAND_MAX - 0.5);
    }
}

static kindred_model *new_tv(void) {
    kindred_model *m = NULL;
    OK(kindred_model_new(&m, "tvclust"));
    OK(kindred_model_set_int(m, "iterations", 60));
    OK(kindred_model_set_int(m, "burn_in", 10));
    return m;
}

static void blobs_with_pairs_and_outputs(void **state) {
    (void)state;
    double x[2 * N];
    int32_t truth[N], labels[N];
    make_blobs(x, truth);
    kindred_side *side = NULL;
    OK(kindred_side_new(&side, N));
    OK(kindred_sample_pairs(side, truth, N, 60, 0.0, 0.0, 4));
    kindred_model *m = new_tv();
    OK(kindred_model_set_string(m, "coclustering", "true"));
    OK(kindred_model_fit_dense(m, x, N, 2, KINDRED_ROW_MAJOR, 2, side));
    OK(kindred_model_labels(m, labels, N));
    double ari = 0;
    OK(kindred_metric("ari", truth, labels, N, &ari));
    assert_true(ari == 1.0);
    int64_t k = 0, it = 0;
    double objective = 0;
    OK(kindred_model_summary(m, NULL, NULL, &k, &it, NULL, &objective));
    assert_int_equal(k, 3);
    assert_int_equal(it, 60);

    int64_t rows = 0, cols = 0;
    double lj[60], kt[60];
    OK(kindred_model_array_shape(m, "log_joint_trace", &rows, &cols));
    assert_int_equal(rows, 60);
    OK(kindred_model_array(m, "log_joint_trace", lj, 60));
    OK(kindred_model_array(m, "clusters_trace", kt, 60));
    /* The MAP sample is the best kept sweep (after the burn-in). */
    double best = -INFINITY;
    for (int s = 10; s < 60; ++s) {
        assert_true(isfinite(lj[s]));
        assert_true(kt[s] >= 1);
        if (lj[s] > best) best = lj[s];
    }
    assert_true(objective == best);

    double *cc = malloc(sizeof(double) * N * N);
    OK(kindred_model_array(m, "coclustering", cc, N * N));
    for (int i = 0; i < N; ++i) {
        assert_true(cc[i * N + i] == 1.0);
        for (int j = 0; j < N; ++j) {
            assert_true(cc[i * N + j] == cc[j * N + i]);
            assert_true(cc[i * N + j] >= 0.0 && cc[i * N + j] <= 1.0);
        }
    }
    assert_true(cc[0 * N + 3] > 0.9); /* same blob */
    assert_true(cc[0 * N + 1] < 0.1); /* different blobs */
    free(cc);

    /* predict: nearest MAP mean. */
    int32_t pred[N];
    OK(kindred_model_predict_dense(m, x, N, 2, KINDRED_ROW_MAJOR, 2, pred, N));
    assert_memory_equal(pred, labels, sizeof pred);
    /* no p/q/alpha traces unless resampled, no co-clustering unless asked. */
    assert_int_equal(kindred_model_array_shape(m, "p_trace", &rows, &cols), KINDRED_E_NOT_FOUND);
    kindred_model_free(m);

    m = new_tv();
    OK(kindred_model_set_string(m, "resample_pq", "true"));
    OK(kindred_model_set_string(m, "resample_alpha", "true"));
    OK(kindred_model_fit_dense(m, x, N, 2, KINDRED_ROW_MAJOR, 2, side));
    double p[60], a[60];
    OK(kindred_model_array(m, "p_trace", p, 60));
    OK(kindred_model_array(m, "alpha_trace", a, 60));
    for (int s = 0; s < 60; ++s) assert_true(p[s] > 0 && p[s] < 1 && a[s] > 0);
    assert_int_equal(kindred_model_array_shape(m, "coclustering", &rows, &cols), KINDRED_E_NOT_FOUND);
    kindred_model_free(m);
    kindred_side_free(side);
}

static void same_seed_same_result_for_any_threads(void **state) {
    (void)state;
    double x[2 * N];
    int32_t truth[N], a[N], b[N];
    make_blobs(x, truth);
    kindred_side *side = NULL;
    OK(kindred_side_new(&side, N));
    OK(kindred_sample_pairs(side, truth, N, 30, 0.0, 0.2, 9));
    for (int t = 1; t <= 2; ++t) {
        kindred_model *m = new_tv();
        OK(kindred_model_set_int(m, "threads", t));
        OK(kindred_model_set_int(m, "seed", 17));
        OK(kindred_model_fit_dense(m, x, N, 2, KINDRED_ROW_MAJOR, 2, side));
        OK(kindred_model_labels(m, t == 1 ? a : b, N));
        kindred_model_free(m);
    }
    assert_memory_equal(a, b, sizeof a);
    kindred_side_free(side);
}

static void multinomial_counts(void **state) {
    (void)state;
    enum { M = 30, D = 6 };
    double x[M * D];
    memset(x, 0, sizeof x);
    srand(5);
    for (int i = 0; i < M; ++i)
        for (int t = 0; t < 40; ++t) x[i * D + (i < M / 2 ? 0 : 3) + rand() % 3] += 1.0;
    kindred_model *m = new_tv();
    OK(kindred_model_set_string(m, "likelihood", "multinomial"));
    OK(kindred_model_fit_dense(m, x, M, D, KINDRED_ROW_MAJOR, D, NULL));
    int32_t labels[M];
    OK(kindred_model_labels(m, labels, M));
    for (int i = 0; i < M; ++i) assert_int_equal(labels[i], labels[i < M / 2 ? 0 : M / 2]);
    assert_int_not_equal(labels[0], labels[M / 2]);
    x[7] = -2.0;
    assert_int_equal(kindred_model_fit_dense(m, x, M, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID);
    assert_non_null(strstr(kindred_last_error(), "counts >= 0"));
    kindred_model_free(m);
}

static int warnings;
static void count_warnings(void *user, int level, const char *message) {
    (void)user;
    if (level == 2 && strstr(message, "1 - q")) ++warnings;
}

static void bad_input(void **state) {
    (void)state;
    kindred_model *m = new_tv();
    assert_int_equal(kindred_model_set_double(m, "p", 0.0), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "p", 1.0), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "q", 1.5), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "q", -0.1), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "alpha", 0.0), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "kappa_0", 0.0), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_string(m, "likelihood", "poisson"), KINDRED_E_INVALID);
    double x[2 * N];
    int32_t truth[N];
    make_blobs(x, truth);
    OK(kindred_model_set_int(m, "burn_in", 60));
    assert_int_equal(kindred_model_fit_dense(m, x, N, 2, KINDRED_ROW_MAJOR, 2, NULL), KINDRED_E_INVALID);
    assert_non_null(strstr(kindred_last_error(), "burn_in"));
    OK(kindred_model_set_int(m, "burn_in", 10));
    OK(kindred_model_set_double(m, "nu_0", 0.5)); /* must be > d - 1 = 1 */
    assert_int_equal(kindred_model_fit_dense(m, x, N, 2, KINDRED_ROW_MAJOR, 2, NULL), KINDRED_E_INVALID);
    assert_non_null(strstr(kindred_last_error(), "nu_0"));
    kindred_model_free(m);

    /* The co-clustering matrix is refused above the stated limit (n <= 2000). */
    m = new_tv();
    OK(kindred_model_set_string(m, "coclustering", "true"));
    double *big = calloc(2001 * 2, sizeof(double));
    assert_int_equal(kindred_model_fit_dense(m, big, 2001, 2, KINDRED_ROW_MAJOR, 2, NULL), KINDRED_E_DIMENSION);
    assert_non_null(strstr(kindred_last_error(), "2000"));
    free(big);
    kindred_model_free(m);

    /* p <= 1 - q is allowed and warned about through the log callback. */
    m = new_tv();
    OK(kindred_model_set_double(m, "p", 0.3));
    OK(kindred_model_set_double(m, "q", 0.6));
    OK(kindred_model_set_log(m, count_warnings, NULL));
    warnings = 0;
    OK(kindred_model_fit_dense(m, x, N, 2, KINDRED_ROW_MAJOR, 2, NULL));
    assert_int_equal(warnings, 1);
    kindred_model_free(m);
}

/* All points identical: documented behaviour is a valid fit (finite log
 * joint, every label in range); the prior's scale matrix has a floor. */
static void identical_points(void **state) {
    (void)state;
    double x[2 * 40];
    for (int i = 0; i < 80; ++i) x[i] = 3.0;
    kindred_model *m = new_tv();
    OK(kindred_model_fit_dense(m, x, 40, 2, KINDRED_ROW_MAJOR, 2, NULL));
    int64_t k = 0;
    double obj = 0;
    OK(kindred_model_summary(m, NULL, NULL, &k, NULL, NULL, &obj));
    assert_true(isfinite(obj));
    assert_true(k >= 1 && k <= 40);
    kindred_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blobs_with_pairs_and_outputs),
        cmocka_unit_test(same_seed_same_result_for_any_threads),
        cmocka_unit_test(multinomial_counts),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(identical_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
