/* Hand-computed known answers for kindred_metric on a tiny contingency table,
 * invariance to the label values, and the degenerate labelings. (Agreement
 * with scikit-learn on many random labelings: test_metrics_sklearn.py.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "kindred.h"
#include "testing.h"

static double metric(const char *name, const int32_t *truth, const int32_t *predicted, int64_t n) {
    double v = NAN;
    assert_ok(kindred_metric(name, truth, predicted, n, &v));
    return v;
}

#define assert_close(a, b) assert_true(fabs((a) - (b)) < 1e-12)

/* truth     0 0 0 1 1 1
 * predicted 0 0 1 1 2 2
 * Contingency (rows: classes, columns: clusters): [2 1 0; 0 1 2].
 * Pairs: 15 in all, 6 together in truth, 3 together in predicted, 2 in both.
 * precision 2/3, recall 2/6, F = 2 p r / (p + r) = 4/9;
 * Rand (2 + 8) / 15 = 2/3 (8 pairs apart in both: 15 - 6 - 3 + 2);
 * ARI (2 - 6*3/15) / ((6 + 3)/2 - 6*3/15) = 0.8 / 3.3 = 8/33;
 * purity (2 + 1 + 2) / 6 = 5/6;
 * MI = 2 * (2/6) ln(6*2 / (3*2)) + 2 * (1/6) ln(6*1 / (3*2)) = (2/3) ln 2;
 * NMI = MI / ((H(truth) + H(pred)) / 2) = (2/3) ln 2 / ((ln 2 + ln 3) / 2). */
static void known_answers_on_a_small_table(void **state) {
    (void)state;
    const int32_t truth[6] = {0, 0, 0, 1, 1, 1};
    const int32_t predicted[6] = {0, 0, 1, 1, 2, 2};
    assert_close(metric("precision", truth, predicted, 6), 2.0 / 3.0);
    assert_close(metric("recall", truth, predicted, 6), 1.0 / 3.0);
    assert_close(metric("f-measure", truth, predicted, 6), 4.0 / 9.0);
    assert_close(metric("rand", truth, predicted, 6), 2.0 / 3.0);
    assert_close(metric("ari", truth, predicted, 6), 8.0 / 33.0);
    assert_close(metric("purity", truth, predicted, 6), 5.0 / 6.0);
    assert_close(metric("mi", truth, predicted, 6), 2.0 / 3.0 * log(2.0));
    assert_close(metric("nmi", truth, predicted, 6), (2.0 / 3.0 * log(2.0)) / (0.5 * (log(2.0) + log(3.0))));
    /* Swapping the roles: symmetric metrics stay, precision and recall swap,
     * purity becomes (2 + 2) / 6 (each class's best cluster). */
    assert_close(metric("nmi", predicted, truth, 6), metric("nmi", truth, predicted, 6));
    assert_close(metric("ari", predicted, truth, 6), 8.0 / 33.0);
    assert_close(metric("precision", predicted, truth, 6), 1.0 / 3.0);
    assert_close(metric("recall", predicted, truth, 6), 2.0 / 3.0);
    assert_close(metric("purity", predicted, truth, 6), 4.0 / 6.0);
}

static void label_values_do_not_matter(void **state) {
    (void)state;
    const int32_t truth[6] = {0, 0, 0, 1, 1, 1}, predicted[6] = {0, 0, 1, 1, 2, 2};
    const int32_t truth2[6] = {-5, -5, -5, INT32_MAX, INT32_MAX, INT32_MAX};
    const int32_t predicted2[6] = {7, 7, -1, -1, INT32_MIN, INT32_MIN};
    for (int64_t k = 0; k < kindred_metric_count(); ++k) {
        const char *name = kindred_metric_name(k);
        assert_true(metric(name, truth, predicted, 6) == metric(name, truth2, predicted2, 6));
    }
}

static void identical_labelings_score_perfectly(void **state) {
    (void)state;
    const int32_t a[7] = {3, 1, 1, 2, 3, 3, 0};
    const int32_t renamed[7] = {0, 5, 5, 9, 0, 0, 4};
    const char *perfect[] = {"nmi", "ari", "f-measure", "precision", "recall", "purity", "rand"};
    for (int k = 0; k < 7; ++k) assert_close(metric(perfect[k], a, renamed, 7), 1.0);
    /* MI of a labeling with itself is its entropy: counts 3, 2, 1, 1 of 7. */
    const double h = -(3.0 / 7 * log(3.0 / 7) + 2.0 / 7 * log(2.0 / 7) + 2 * (1.0 / 7 * log(1.0 / 7)));
    assert_close(metric("mi", a, renamed, 7), h);
}

static void degenerate_labelings(void **state) {
    (void)state;
    enum { M = 5 };
    const int32_t one[M] = {4, 4, 4, 4, 4}, singletons[M] = {0, 1, 2, 3, 4};
    const int32_t halves[M] = {0, 0, 0, 1, 1};
    /* Same trivial partition on both sides: perfect agreement. */
    assert_close(metric("nmi", one, one, M), 1.0);
    assert_close(metric("ari", one, one, M), 1.0);
    assert_close(metric("nmi", singletons, singletons, M), 1.0);
    assert_close(metric("ari", singletons, singletons, M), 1.0);
    assert_close(metric("f-measure", singletons, singletons, M), 1.0);
    /* One cluster against singletons: no information shared. */
    assert_close(metric("nmi", one, singletons, M), 0.0);
    assert_close(metric("ari", one, singletons, M), 0.0);
    assert_close(metric("mi", one, singletons, M), 0.0);
    assert_close(metric("rand", one, singletons, M), 0.0);
    assert_close(metric("f-measure", one, singletons, M), 0.0);
    assert_close(metric("purity", one, singletons, M), 1.0);  /* each singleton is pure */
    assert_close(metric("purity", singletons, one, M), 1.0 / M); /* one cluster, majority 1 */
    /* Everything in one cluster against two classes 3 + 2: precision 4/10, recall 1. */
    assert_close(metric("precision", halves, one, M), 4.0 / 10.0);
    assert_close(metric("recall", halves, one, M), 1.0);
    assert_close(metric("ari", halves, one, M), 0.0);
    assert_close(metric("rand", halves, one, M), 4.0 / 10.0);
    /* A single point. */
    const int32_t p[1] = {2}, q[1] = {9};
    assert_close(metric("nmi", p, q, 1), 1.0);
    assert_close(metric("ari", p, q, 1), 1.0);
    assert_close(metric("rand", p, q, 1), 1.0);
    assert_close(metric("purity", p, q, 1), 1.0);
    assert_close(metric("mi", p, q, 1), 0.0);
}

static void metric_names_are_listed(void **state) {
    (void)state;
    const char *expected[] = {"nmi", "ari", "f-measure", "purity", "rand", "mi", "precision", "recall"};
    assert_int_equal(kindred_metric_count(), 8);
    for (int e = 0; e < 8; ++e) {
        int found = 0;
        for (int64_t k = 0; k < kindred_metric_count(); ++k) found |= strcmp(kindred_metric_name(k), expected[e]) == 0;
        assert_true(found);
    }
    assert_null(kindred_metric_name(-1));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(known_answers_on_a_small_table),
        cmocka_unit_test(label_values_do_not_matter),
        cmocka_unit_test(identical_labelings_score_perfectly),
        cmocka_unit_test(degenerate_labelings),
        cmocka_unit_test(metric_names_are_listed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
