/* Constraint propagation and tuning through the public header: the
 * five-point example whose unit penalties can be checked by hand, noisy
 * answers outvoted, contradictions that are not errors for the soft
 * methods, and hyperparameters chosen from the pairs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kindred.h"
#include "testing.h"

static kindred_model *pck(int64_t k) {
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "pckmeans"));
    assert_ok(kindred_model_set_int(m, "k", k));
    return m;
}

static double objective_of(const kindred_model *m) {
    int64_t n, d, clusters, iterations;
    int converged;
    double objective;
    assert_ok(kindred_model_summary(m, &n, &d, &clusters, &iterations, &converged, &objective));
    return objective;
}

/* Five points on a line, units {0, 1, 2} (must-links 0-1, 1-2) and {3, 4}
 * (must-link 3-4), one cannot-link 0-3 between them. With k = 1 both units
 * share the one cluster: the closure counts every point of one unit as
 * cannot-linked to every point of the other, 3 x 2 = 6 pairs, each at the
 * penalty 2 (absolute units): J = sum (x - 4.08)^2 + 12 = 118.828 + 12. */
static void five_points_pay_the_closure(void **state) {
    (void)state;
    const double x[5] = {0, 0.1, 0.2, 10, 10.1};
    const int64_t i[] = {0, 1, 3, 0}, j[] = {1, 2, 4, 3};
    const double v[] = {1, 1, 1, -1};
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 5));
    assert_ok(kindred_side_add_pairs(s, i, j, v, 4));
    kindred_model *m = pck(1);
    assert_ok(kindred_model_set_string(m, "propagation", "robust"));
    assert_ok(kindred_model_set_string(m, "weight_unit", "absolute"));
    assert_ok(kindred_model_set_string(m, "whitening", "off"));  /* the points as given */
    assert_ok(kindred_model_set_int(m, "cleaning_rounds", 0));    /* the objective of the pairs as given */
    assert_ok(kindred_model_set_double(m, "penalty", 2.0));
    assert_ok(kindred_model_fit_dense(m, x, 5, 1, KINDRED_ROW_MAJOR, 1, s));
    assert_true(fabs(objective_of(m) - (118.828 + 12.0)) < 1e-9);
    /* k = 2: the units go to different clusters, no penalty, and each unit
     * is whole: J = the within-unit scatter 0.02 + 0.005. */
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_fit_dense(m, x, 5, 1, KINDRED_ROW_MAJOR, 1, s));
    int32_t labels[5];
    assert_ok(kindred_model_labels(m, labels, 5));
    assert_int_equal(labels[0], labels[1]);
    assert_int_equal(labels[1], labels[2]);
    assert_int_equal(labels[3], labels[4]);
    assert_true(labels[0] != labels[3]);
    assert_true(fabs(objective_of(m) - 0.025) < 1e-9);
    kindred_model_free(m);
    kindred_side_free(s);
}

/* The unit penalty moves a whole unit: points 0-2 sit at 0 and point 3 at
 * 1, must-linked to 2 (unit {2, 3}) and cannot-linked to 0. With k = 2 and
 * centres free, the best split keeps {2, 3} together away from 0: 2 leaves
 * its neighbours at 0 because its unit must follow the cannot-link. */
static void a_cannot_link_separates_whole_units(void **state) {
    (void)state;
    const double x[6] = {0, 0, 0, 1, 5, 5};
    const int64_t i[] = {2, 0}, j[] = {3, 3};
    const double v[] = {1, -1};
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 6));
    assert_ok(kindred_side_add_pairs(s, i, j, v, 2));
    kindred_model *m = pck(2);
    assert_ok(kindred_model_set_string(m, "propagation", "robust"));
    assert_ok(kindred_model_set_double(m, "penalty", 1000.0));
    assert_ok(kindred_model_fit_dense(m, x, 6, 1, KINDRED_ROW_MAJOR, 1, s));
    int32_t labels[6];
    assert_ok(kindred_model_labels(m, labels, 6));
    assert_int_equal(labels[2], labels[3]);
    assert_true(labels[0] != labels[3]);
    assert_true(labels[0] != labels[2]);
    kindred_model_free(m);
    kindred_side_free(s);
}

/* Robust units: points 0, 1, 2 are must-linked in a triangle, point 3 is
 * must-linked to 2 (a wrong answer) but cannot-linked to 0 and 1. The
 * closure glues 3 to the triangle; the robust units outvote the one
 * must-link (3 agrees with the triangle by 1 - 2 < 0), so 3 can join the
 * far points 4, 5 while the must-link closure keeps it at 0. */
static void one_wrong_must_link_is_outvoted(void **state) {
    (void)state;
    const double x[6] = {0, 0.1, 0.2, 5, 5.1, 5.2};
    const int64_t i[] = {0, 0, 1, 2, 0, 1}, j[] = {1, 2, 2, 3, 3, 3};
    const double v[] = {1, 1, 1, 1, -1, -1};
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 6));
    assert_ok(kindred_side_add_pairs(s, i, j, v, 6));
    int32_t labels[6];
    kindred_model *m = pck(2);
    assert_ok(kindred_model_set_string(m, "propagation", "robust"));
    assert_ok(kindred_model_fit_dense(m, x, 6, 1, KINDRED_ROW_MAJOR, 1, s));
    assert_ok(kindred_model_labels(m, labels, 6));
    assert_int_equal(labels[3], labels[4]);
    assert_true(labels[3] != labels[0]);
    assert_ok(kindred_model_set_string(m, "propagation", "transitive"));
    assert_ok(kindred_model_fit_dense(m, x, 6, 1, KINDRED_ROW_MAJOR, 1, s));
    assert_ok(kindred_model_labels(m, labels, 6));
    assert_int_equal(labels[3], labels[0]);
    /* Contradictions are never an error for the soft methods. */
    kindred_model_free(m);
    kindred_model *mp = NULL;
    assert_ok(kindred_model_new(&mp, "mpckmeans"));
    assert_ok(kindred_model_set_int(mp, "k", 2));
    assert_ok(kindred_model_fit_dense(mp, x, 6, 1, KINDRED_ROW_MAJOR, 1, s));
    kindred_model_free(mp);
    /* The hard method keeps its error, naming the contradiction. */
    kindred_model *cop = NULL;
    assert_ok(kindred_model_new(&cop, "copkmeans"));
    assert_ok(kindred_model_set_int(cop, "k", 2));
    assert_fails_with(kindred_model_fit_dense(cop, x, 6, 1, KINDRED_ROW_MAJOR, 1, s), KINDRED_E_INFEASIBLE,
                      "cannot-link");
    kindred_model_free(cop);
    kindred_side_free(s);
}

/* Only must-links, or only cannot-links: both fit. */
static void one_kind_of_pair_only(void **state) {
    (void)state;
    double x[40];
    for (int p = 0; p < 40; ++p) x[p] = (p < 20 ? 0.0 : 10.0) + 0.01 * p;
    for (int kind = 0; kind < 2; ++kind) {
        int64_t i[15], j[15];
        double v[15];
        for (int e = 0; e < 15; ++e) {
            i[e] = e;
            j[e] = kind == 0 ? e + 1 : e + 20;
            v[e] = kind == 0 ? 1.0 : -1.0;
        }
        kindred_side *s = NULL;
        assert_ok(kindred_side_new(&s, 40));
        assert_ok(kindred_side_add_pairs(s, i, j, v, 15));
        const char *names[] = {"pckmeans", "mpckmeans", "copkmeans", "rdpmeans", "dpmeans"};
        for (int a = 0; a < 5; ++a) {
            kindred_model *m = NULL;
            assert_ok(kindred_model_new(&m, names[a]));
            if (a < 3) assert_ok(kindred_model_set_int(m, "k", 2));
            int32_t labels[40];
            assert_ok(kindred_model_fit_dense(m, x, 40, 1, KINDRED_ROW_MAJOR, 1, s));
            assert_ok(kindred_model_labels(m, labels, 40));
            /* With one kind of answer only, the methods with k must still
             * separate the far blobs; dpmeans / rdpmeans may find one
             * cluster from must-links alone (nothing says to split). */
            if (a < 3 || kind == 1) assert_true(labels[0] != labels[39]);
            kindred_model_free(m);
        }
        kindred_side_free(s);
    }
}

static char last_log[1024], lambda_log[1024];
static void keep_log(void *user, int level, const char *message) {
    (void)user;
    (void)level;
    if (strstr(message, "too few") || strstr(message, "chose")) snprintf(last_log, sizeof last_log, "%s", message);
    if (strstr(message, "chose lambda")) snprintf(lambda_log, sizeof lambda_log, "%s", message);
}

/* Tuning: three far blobs and clean pairs; the lambda of dpmeans and
 * rdpmeans (neither lambda nor k set) is chosen from the pairs and finds
 * the three blobs; the choice is a result and is logged. Fewer than 10
 * pairs: dpmeans says what to set; pckmeans uses its defaults and says so. */
static void lambda_chosen_from_pairs(void **state) {
    (void)state;
    enum { n = 90 };
    double x[n * 2];
    int32_t truth[n];
    for (int p = 0; p < n; ++p) {
        truth[p] = p % 3;
        x[2 * p] = 20.0 * truth[p] + 0.3 * sin(p * 1.7);
        x[2 * p + 1] = 0.3 * cos(p * 2.3);
    }
    int64_t i[40], j[40];
    double v[40];
    for (int e = 0; e < 40; ++e) {
        i[e] = (e * 7) % n;
        j[e] = (e * 13 + 5) % n;
        if (i[e] == j[e]) j[e] = (j[e] + 1) % n;
        v[e] = truth[i[e]] == truth[j[e]] ? 1.0 : -1.0;
    }
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, n));
    assert_ok(kindred_side_add_pairs(s, i, j, v, 40));
    const char *names[] = {"dpmeans", "rdpmeans"};
    for (int a = 0; a < 2; ++a) {
        kindred_model *m = NULL;
        assert_ok(kindred_model_new(&m, names[a]));
        lambda_log[0] = 0;
        assert_ok(kindred_model_set_log(m, keep_log, NULL));
        assert_ok(kindred_model_fit_dense(m, x, n, 2, KINDRED_ROW_MAJOR, 2, s));
        int32_t labels[n];
        assert_ok(kindred_model_labels(m, labels, n));
        if (!same_partition(labels, truth, n)) fail_msg("%s: %s", names[a], lambda_log);
        double lambda = 0;
        assert_ok(kindred_model_array(m, "chosen_lambda", &lambda, 1));
        assert_true(lambda > 0);
        assert_non_null(strstr(lambda_log, "chose lambda"));
        kindred_model_free(m);
    }
    kindred_side *few = NULL;
    assert_ok(kindred_side_new(&few, n));
    assert_ok(kindred_side_add_pairs(few, i, j, v, 5));
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "dpmeans"));
    assert_fails_with(kindred_model_fit_dense(m, x, n, 2, KINDRED_ROW_MAJOR, 2, few), KINDRED_E_INVALID,
                      "at least 10 pairs");
    kindred_model_free(m);
    m = pck(3);
    last_log[0] = 0;
    assert_ok(kindred_model_set_log(m, keep_log, NULL));
    assert_ok(kindred_model_fit_dense(m, x, n, 2, KINDRED_ROW_MAJOR, 2, few));
    assert_non_null(strstr(last_log, "too few"));
    kindred_model_free(m);
    kindred_side_free(few);
    kindred_side_free(s);
}

/* Wrong answers that the rigid units cannot outvote: two far blobs of 30
 * points, must-link stars 0-{1..9} and 30-{31..39} (right), the wrong
 * must-links 0-30 and 1-31 and the right cannot-link 2-32 between them,
 * and right cannot-links 10+e - 40+e. On balance the answers between the
 * stars say "same" (+2 - 1), so the robust units glue the two stars into
 * one unit of 20 points, which the cannot-link 2-32 contradicts; forced,
 * propagation puts both stars in one cluster. With the default
 * (propagation auto) a contradiction proves wrong answers, the rigid units
 * are not tried (the logged cross-validation table has none), and the
 * point-wise fit lets the features outvote the two wrong must-links: the
 * blobs are found. */
static void contradicted_units_are_not_propagated(void **state) {
    (void)state;
    enum { n = 60, pairs = 18 + 3 + 10 };
    double x[n * 2];
    int32_t truth[n];
    for (int p = 0; p < n; ++p) {
        truth[p] = p < 30 ? 0 : 1;
        x[2 * p] = 10.0 * truth[p] + 0.5 * sin(p * 1.7);
        x[2 * p + 1] = 0.5 * cos(p * 2.3);
    }
    int64_t i[pairs], j[pairs];
    double v[pairs];
    int e = 0;
    for (int q = 1; q < 10; ++q) {
        i[e] = 0, j[e] = q, v[e++] = 1;
        i[e] = 30, j[e] = 30 + q, v[e++] = 1;
    }
    i[e] = 0, j[e] = 30, v[e++] = 1;  /* wrong */
    i[e] = 1, j[e] = 31, v[e++] = 1;  /* wrong */
    i[e] = 2, j[e] = 32, v[e++] = -1;
    for (int q = 0; q < 10; ++q) i[e] = 10 + q, j[e] = 40 + q, v[e++] = -1;
    assert_int_equal(e, pairs);
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, n));
    assert_ok(kindred_side_add_pairs(s, i, j, v, pairs));
    const char *names[] = {"pckmeans", "mpckmeans"};
    for (int a = 0; a < 2; ++a) {
        kindred_model *m = NULL;
        int32_t labels[n];
        assert_ok(kindred_model_new(&m, names[a]));
        assert_ok(kindred_model_set_int(m, "k", 2));
        assert_ok(kindred_model_set_string(m, "propagation", "robust"));
        /* The distortion named, so that the last log is the table of the weights. */
        if (a == 1) assert_ok(kindred_model_set_string(m, "distortion", "euclidean-diag"));
        assert_ok(kindred_model_fit_dense(m, x, n, 2, KINDRED_ROW_MAJOR, 2, s));
        assert_ok(kindred_model_labels(m, labels, n));
        assert_int_equal(labels[0], labels[30]); /* the glued unit */
        assert_ok(kindred_model_set_string(m, "propagation", "auto"));
        last_log[0] = 0;
        assert_ok(kindred_model_set_log(m, keep_log, NULL));
        assert_ok(kindred_model_fit_dense(m, x, n, 2, KINDRED_ROW_MAJOR, 2, s));
        assert_ok(kindred_model_labels(m, labels, n));
        if (!same_partition(labels, truth, n)) fail_msg("%s: %s", names[a], last_log);
        double chosen = -1;
        assert_ok(kindred_model_array(m, "chosen_propagation", &chosen, 1));
        assert_true(chosen == 0.0);
        /* The cross-validation table (logged) has no propagated candidate;
         * mpckmeans also tries the weights with A fixed at A_0. */
        assert_non_null(strstr(last_log, "point-wise"));
        if (strstr(last_log, "propagated")) fail_msg("%s: %s", names[a], last_log);
        if (a == 1) {
            assert_non_null(strstr(last_log, "A fixed at A_0"));
            assert_ok(kindred_model_array(m, "chosen_metric_learned", &chosen, 1));
            assert_true(chosen == 0.0 || chosen == 1.0);
        }
        kindred_model_free(m);
    }
    kindred_side_free(s);
}

/* Side information about another n is an error naming both sizes. */
static void side_for_another_n(void **state) {
    (void)state;
    const double x[4] = {0, 1, 2, 3};
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 5));
    kindred_model *m = pck(2);
    assert_fails_with(kindred_model_fit_dense(m, x, 4, 1, KINDRED_ROW_MAJOR, 1, s), KINDRED_E_DIMENSION, "5 points");
    kindred_model_free(m);
    kindred_side_free(s);
}

/* standardize: the model keeps the scaling, predict applies it; a feature
 * in other units does not change the labels. */
static void standardize_is_kept_for_predict(void **state) {
    (void)state;
    double x[40 * 2], y[40 * 2];
    for (int p = 0; p < 40; ++p) {
        x[2 * p] = (p < 20 ? 0.0 : 1.0) + 0.01 * (p % 7);
        x[2 * p + 1] = 1000.0 * ((p % 5) - 2);
        y[2 * p] = x[2 * p];
        y[2 * p + 1] = x[2 * p + 1] / 1000.0;
    }
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "kmeans"));
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_set_string(m, "standardize", "true"));
    int32_t a[40], b[40], c[40];
    assert_ok(kindred_model_fit_dense(m, x, 40, 2, KINDRED_ROW_MAJOR, 2, NULL));
    assert_ok(kindred_model_labels(m, a, 40));
    assert_ok(kindred_model_predict_dense(m, x, 40, 2, KINDRED_ROW_MAJOR, 2, b, 40));
    assert_memory_equal(a, b, sizeof a);
    assert_ok(kindred_model_fit_dense(m, y, 40, 2, KINDRED_ROW_MAJOR, 2, NULL));
    assert_ok(kindred_model_labels(m, c, 40));
    assert_true(same_partition(a, c, 40));
    double scale[2];
    assert_ok(kindred_model_array(m, "standardize_scale", scale, 2));
    assert_true(scale[0] > 0 && scale[1] > 0);
    kindred_model_free(m);
}

/* whitening = rca (relevant component analysis of the must-link groups), by
 * hand (pckmeans, then copkmeans): eight points in two dimensions, must-links 0-1, 2-3, 4-5, each
 * joining two points 2 apart in x. Their scatter about the group means is
 * C = diag(6, 0), t = tr(C) / d = 3, and W = (C / t + 0.1 I)^{-1/2} =
 * diag(1 / sqrt(2.1), 1 / sqrt(0.1)): the direction in which grouped points
 * differ shrinks, the other stretches, and k = 2 splits the points by y
 * (0 / 5) instead of by x (0-2 / 10-12, the split without the map). Two
 * must-links (2 degrees of freedom, fewer than d + 1) are too few: no map. */
static void whitening_by_the_must_link_groups(void **state) {
    (void)state;
    const double x[16] = {0, 0, 2, 0, 0, 5, 2, 5, 10, 0, 12, 0, 10, 5, 12, 5};
    const int64_t i[] = {0, 2, 4}, j[] = {1, 3, 5};
    const double v[] = {1, 1, 1};
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 8));
    assert_ok(kindred_side_add_pairs(s, i, j, v, 3));
    kindred_model *m = pck(2);
    assert_ok(kindred_model_fit_dense(m, x, 8, 2, KINDRED_ROW_MAJOR, 2, s));
    double w[4];
    assert_ok(kindred_model_array(m, "whitening", w, 4));
    assert_true(fabs(w[0] - 1.0 / sqrt(2.1)) < 1e-12 && fabs(w[3] - 1.0 / sqrt(0.1)) < 1e-12);
    assert_true(fabs(w[1]) < 1e-12 && fabs(w[2]) < 1e-12);
    int32_t labels[8], predicted[8];
    assert_ok(kindred_model_labels(m, labels, 8));
    assert_int_equal(labels[0], labels[4]);
    assert_true(labels[0] != labels[2]);
    /* predict maps new points with the stored W */
    assert_ok(kindred_model_predict_dense(m, x, 8, 2, KINDRED_ROW_MAJOR, 2, predicted, 8));
    assert_memory_equal(labels, predicted, sizeof labels);
    assert_ok(kindred_model_set_string(m, "whitening", "off"));
    assert_ok(kindred_model_fit_dense(m, x, 8, 2, KINDRED_ROW_MAJOR, 2, s));
    assert_ok(kindred_model_labels(m, labels, 8));
    assert_int_equal(labels[0], labels[2]);
    assert_true(labels[0] != labels[4]);
    assert_fails_with(kindred_model_array(m, "whitening", w, 4), KINDRED_E_NOT_FOUND, "whitening");
    kindred_side *two = NULL;
    assert_ok(kindred_side_new(&two, 8));
    assert_ok(kindred_side_add_pairs(two, i, j, v, 2));
    assert_ok(kindred_model_set_string(m, "whitening", "rca"));
    assert_ok(kindred_model_fit_dense(m, x, 8, 2, KINDRED_ROW_MAJOR, 2, two));
    assert_fails_with(kindred_model_array(m, "whitening", w, 4), KINDRED_E_NOT_FOUND, "whitening");
    kindred_model_free(m);
    /* copkmeans takes the same map (its hard constraints hold either way). */
    assert_ok(kindred_model_new(&m, "copkmeans"));
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_fit_dense(m, x, 8, 2, KINDRED_ROW_MAJOR, 2, s));
    assert_ok(kindred_model_array(m, "whitening", w, 4));
    assert_true(fabs(w[0] - 1.0 / sqrt(2.1)) < 1e-12 && fabs(w[3] - 1.0 / sqrt(0.1)) < 1e-12);
    assert_ok(kindred_model_labels(m, labels, 8));
    assert_int_equal(labels[0], labels[4]);
    assert_true(labels[0] != labels[2]);
    kindred_model_free(m);
    kindred_side_free(two);
    kindred_side_free(s);
}

/* Two groups of ten points on a line, 0-0.9 and 10-10.9, must-linked in a
 * chain inside each group and cannot-linked across (points 2 + q and
 * 12 + q), plus two wrong answers: a must-link 0-10 and a cannot-link 3-7.
 * Point-wise at penalty 1 (absolute units), the features outvote both: to
 * satisfy the must-link one point would travel 10 (a cost near 100), to
 * satisfy the cannot-link one point would leave its group. The fit violates
 * exactly those two, so the cleaning round refits on the other 23 pairs
 * ("chosen_pairs_kept"). With clean answers the fit
 * satisfies every pair and no round runs (no such result); with
 * cleaning_rounds = 0 none either. */
static void violated_pairs_are_set_aside(void **state) {
    (void)state;
    enum { n = 20, pairs = 18 + 5 + 2 };
    double x[n];
    for (int p = 0; p < n; ++p) x[p] = (p < 10 ? 0.0 : 10.0) + 0.1 * (p % 10);
    int64_t i[pairs], j[pairs];
    double v[pairs];
    int e = 0;
    for (int q = 0; q < 9; ++q) {
        i[e] = q, j[e] = q + 1, v[e++] = 1;
        i[e] = 10 + q, j[e] = 11 + q, v[e++] = 1;
    }
    for (int q = 0; q < 5; ++q) i[e] = 2 + q, j[e] = 12 + q, v[e++] = -1;
    i[e] = 0, j[e] = 10, v[e++] = 1;  /* wrong */
    i[e] = 3, j[e] = 7, v[e++] = -1;  /* wrong */
    assert_int_equal(e, pairs);
    kindred_side *noisy = NULL, *clean = NULL;
    assert_ok(kindred_side_new(&noisy, n));
    assert_ok(kindred_side_add_pairs(noisy, i, j, v, pairs));
    assert_ok(kindred_side_new(&clean, n));
    assert_ok(kindred_side_add_pairs(clean, i, j, v, pairs - 2));
    kindred_model *m = pck(2);
    assert_ok(kindred_model_set_string(m, "propagation", "off"));
    assert_ok(kindred_model_set_string(m, "weight_unit", "absolute"));
    assert_ok(kindred_model_set_string(m, "whitening", "off"));
    assert_ok(kindred_model_set_double(m, "penalty", 1.0));
    assert_ok(kindred_model_fit_dense(m, x, n, 1, KINDRED_ROW_MAJOR, 1, noisy));
    int32_t labels[n];
    assert_ok(kindred_model_labels(m, labels, n));
    for (int p = 0; p < n; ++p) assert_int_equal(labels[p] == labels[0], p < 10);
    double kept = -1;
    assert_ok(kindred_model_array(m, "chosen_pairs_kept", &kept, 1));
    if (kept != pairs - 2) fail_msg("kept %g", kept);
    assert_ok(kindred_model_fit_dense(m, x, n, 1, KINDRED_ROW_MAJOR, 1, clean));
    assert_fails_with(kindred_model_array(m, "chosen_pairs_kept", &kept, 1), KINDRED_E_NOT_FOUND, "chosen_pairs_kept");
    assert_ok(kindred_model_set_int(m, "cleaning_rounds", 0));
    assert_ok(kindred_model_fit_dense(m, x, n, 1, KINDRED_ROW_MAJOR, 1, noisy));
    assert_fails_with(kindred_model_array(m, "chosen_pairs_kept", &kept, 1), KINDRED_E_NOT_FOUND, "chosen_pairs_kept");
    kindred_model_free(m);
    kindred_side_free(clean);
    kindred_side_free(noisy);
}

/* A whitened pckmeans or copkmeans fit measures distances under M = W^T W
 * on the points as given, without a mapped copy of them: it must be the fit
 * of the points mapped by W (the model's array) with whitening off, up to
 * rounding. 240 points of 3 elongated, correlated blobs in 3 dimensions, 240
 * pairs from the truth; pckmeans tuned (penalty and propagation chosen by
 * cross-validation) and with the penalty set, then copkmeans. */
static void whitening_is_the_fit_of_the_mapped_points(void **state) {
    (void)state;
    enum { n = 240, d = 3, k = 3 };
    double x[n * d], mapped[n * d], w[d * d];
    int32_t truth[n];
    uint64_t seed = 7;
    for (int p = 0; p < n; ++p) {
        double u[d];
        for (int m = 0; m < d; ++m) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            u[m] = (double)(seed >> 11) * (1.0 / 9007199254740992.0) - 0.5;
        }
        truth[p] = p % k;
        x[p * d + 0] = 8.0 * u[0] + 0.5 * u[1] + 1.5 * truth[p];
        x[p * d + 1] = 3.0 * u[0] + 0.5 * u[2] - 1.0 * truth[p];
        x[p * d + 2] = 2.0 * u[1] + u[2] + 0.7 * truth[p];
    }
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, n));
    assert_ok(kindred_sample_pairs(s, truth, n, n, 0.0, 0.0, 3));
    for (int run = 0; run < 3; ++run) {
        const char *algorithm = run < 2 ? "pckmeans" : "copkmeans";
        kindred_model *m = NULL;
        assert_ok(kindred_model_new(&m, algorithm));
        assert_ok(kindred_model_set_int(m, "k", k));
        assert_ok(kindred_model_set_int(m, "seed", 11));
        if (run == 1) assert_ok(kindred_model_set_double(m, "penalty", 1.0));
        /* A cleaning round would learn W again from the pairs kept. */
        if (run < 2) assert_ok(kindred_model_set_int(m, "cleaning_rounds", 0));
        assert_ok(kindred_model_fit_dense(m, x, n, d, KINDRED_ROW_MAJOR, d, s));
        assert_ok(kindred_model_array(m, "whitening", w, d * d));
        for (int p = 0; p < n; ++p)
            for (int a = 0; a < d; ++a) {
                mapped[p * d + a] = 0.0;
                for (int b = 0; b < d; ++b) mapped[p * d + a] += w[a * d + b] * x[p * d + b];
            }
        kindred_model *off = NULL;
        assert_ok(kindred_model_new(&off, algorithm));
        assert_ok(kindred_model_set_int(off, "k", k));
        assert_ok(kindred_model_set_int(off, "seed", 11));
        if (run == 1) assert_ok(kindred_model_set_double(off, "penalty", 1.0));
        if (run < 2) assert_ok(kindred_model_set_int(off, "cleaning_rounds", 0));
        assert_ok(kindred_model_set_string(off, "whitening", "off"));
        assert_ok(kindred_model_fit_dense(off, mapped, n, d, KINDRED_ROW_MAJOR, d, s));
        int32_t labels[n], expected[n];
        double centers[k * d], expected_centers[k * d];
        assert_ok(kindred_model_labels(m, labels, n));
        assert_ok(kindred_model_labels(off, expected, n));
        assert_memory_equal(labels, expected, sizeof labels);
        assert_ok(kindred_model_array(m, "centers", centers, k * d));
        assert_ok(kindred_model_array(off, "centers", expected_centers, k * d));
        for (int v = 0; v < k * d; ++v) assert_true(fabs(centers[v] - expected_centers[v]) < 1e-9);
        const double j = objective_of(m), j_off = objective_of(off);
        assert_true(fabs(j - j_off) <= 1e-9 * fabs(j_off));
        /* predict maps the new points by W and finds the same centres */
        int32_t predicted[n];
        assert_ok(kindred_model_predict_dense(m, x, n, d, KINDRED_ROW_MAJOR, d, predicted, n));
        assert_ok(kindred_model_predict_dense(off, mapped, n, d, KINDRED_ROW_MAJOR, d, expected, n));
        assert_memory_equal(predicted, expected, sizeof predicted);
        kindred_model_free(off);
        kindred_model_free(m);
    }
    kindred_side_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(five_points_pay_the_closure),
        cmocka_unit_test(a_cannot_link_separates_whole_units),
        cmocka_unit_test(one_wrong_must_link_is_outvoted),
        cmocka_unit_test(one_kind_of_pair_only),
        cmocka_unit_test(lambda_chosen_from_pairs),
        cmocka_unit_test(contradicted_units_are_not_propagated),
        cmocka_unit_test(side_for_another_n),
        cmocka_unit_test(standardize_is_kept_for_predict),
        cmocka_unit_test(whitening_by_the_must_link_groups),
        cmocka_unit_test(violated_pairs_are_set_aside),
        cmocka_unit_test(whitening_is_the_fit_of_the_mapped_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
