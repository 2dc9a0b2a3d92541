/* Side information through the public API: the COO semantics of pairs
 * (DESIGN.md), triplet validation, partial labels, must-link components on a
 * known graph, and detection of cannot-links inside a component. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "kindred.h"
#include "testing.h"

static kindred_side *new_side(int64_t n) {
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, n));
    return s;
}

static int64_t pair_count(const kindred_side *s) {
    int64_t pairs = -1;
    assert_ok(kindred_side_counts(s, NULL, &pairs, NULL, NULL));
    return pairs;
}

static void pairs_are_unordered_summed_and_zero_sums_dropped(void **state) {
    (void)state;
    kindred_side *s = new_side(6);
    /* (0,1) twice in both orders -> 1 + 2 = 3; (2,3) +1 and (3,2) -1 -> dropped;
     * (4,5) -0.5 twice -> -1; (1,4) once, given as (4,1). */
    const int64_t i[7] = {0, 1, 2, 3, 4, 5, 4};
    const int64_t j[7] = {1, 0, 3, 2, 5, 4, 1};
    const double v[7] = {1.0, 2.0, 1.0, -1.0, -0.5, -0.5, 0.25};
    assert_ok(kindred_side_add_pairs(s, i, j, v, 7));
    assert_int_equal(pair_count(s), 3);
    int64_t oi[3], oj[3];
    double ov[3];
    assert_ok(kindred_side_pairs(s, oi, oj, ov, 3));
    /* Each once with i < j, sorted by (i, j). */
    assert_int_equal(oi[0], 0); assert_int_equal(oj[0], 1); assert_true(ov[0] == 3.0);
    assert_int_equal(oi[1], 1); assert_int_equal(oj[1], 4); assert_true(ov[1] == 0.25);
    assert_int_equal(oi[2], 4); assert_int_equal(oj[2], 5); assert_true(ov[2] == -1.0);
    /* A later batch sums with what is held; reaching 0 drops the pair. */
    const int64_t i2[2] = {1, 2}, j2[2] = {0, 5};
    const double v2[2] = {-3.0, 4.0};
    assert_ok(kindred_side_add_pairs(s, i2, j2, v2, 2));
    assert_int_equal(pair_count(s), 3);
    assert_ok(kindred_side_pairs(s, oi, oj, ov, 3));
    assert_int_equal(oi[0], 1); assert_int_equal(oj[0], 4);
    assert_int_equal(oi[1], 2); assert_int_equal(oj[1], 5); assert_true(ov[1] == 4.0);
    assert_int_equal(oi[2], 4); assert_int_equal(oj[2], 5);
    /* An empty batch is fine, with NULL arrays too. */
    assert_ok(kindred_side_add_pairs(s, NULL, NULL, NULL, 0));
    assert_int_equal(pair_count(s), 3);
    kindred_side_free(s);
}

static void bad_pairs_are_rejected_and_batch_is_atomic(void **state) {
    (void)state;
    kindred_side *s = new_side(5);
    const int64_t i0[1] = {0}, j0[1] = {1};
    const double v0[1] = {1.0};
    assert_ok(kindred_side_add_pairs(s, i0, j0, v0, 1));
    /* Good entries before the bad one: nothing of the batch is added. */
    const int64_t i[3] = {2, 3, 4}, j[3] = {3, 4, 4};
    const double v[3] = {1.0, -1.0, 1.0};
    assert_fails_with(kindred_side_add_pairs(s, i, j, v, 3), KINDRED_E_INVALID, "entry 2 joins point 4 to itself");
    assert_int_equal(pair_count(s), 1);
    const int64_t jn[3] = {3, 4, 0};
    const double vn[3] = {1.0, NAN, 1.0};
    assert_fails_with(kindred_side_add_pairs(s, i, jn, vn, 3), KINDRED_E_INVALID, "value at entry 1 (3, 4) is not finite");
    const double vi[3] = {1.0, 1.0, -INFINITY};
    assert_fails_with(kindred_side_add_pairs(s, i, jn, vi, 3), KINDRED_E_INVALID, "entry 2");
    const int64_t jo[3] = {3, 4, 5};
    assert_fails_with(kindred_side_add_pairs(s, i, jo, v, 3), KINDRED_E_INDEX, "index 5 out of range for n = 5 at entry 2");
    assert_fails_with(kindred_side_add_pairs(s, i, NULL, v, 3), KINDRED_E_INVALID, "must not be NULL");
    assert_fails_with(kindred_side_add_pairs(s, i, j, v, -1), KINDRED_E_INVALID, "count must be >= 0");
    assert_int_equal(pair_count(s), 1);
    int64_t comp[5], count = 0;
    assert_ok(kindred_side_components(s, comp, 5, &count));
    assert_int_equal(count, 4); /* only (0,1) joined */
    kindred_side_free(s);
}

static void triplets_are_validated_and_kept_in_order(void **state) {
    (void)state;
    kindred_side *s = new_side(4);
    const int64_t a[3] = {0, 1, 3}, b[3] = {1, 2, 0}, c[3] = {2, 3, 1};
    const int32_t answer[3] = {1, 0, -1};
    assert_ok(kindred_side_add_triplets(s, a, b, c, answer, 3));
    const int64_t rep_b[3] = {0, 2, 0}; /* entry 0 repeats a in b */
    assert_fails_with(kindred_side_add_triplets(s, a, rep_b, c, answer, 3), KINDRED_E_INVALID,
                      "entry 0 (0, 0, 2) repeats an index");
    const int64_t rep_c[3] = {2, 2, 1}; /* entry 1: b == c */
    assert_fails_with(kindred_side_add_triplets(s, a, b, rep_c, answer, 3), KINDRED_E_INVALID, "entry 1");
    const int32_t bad_answer[3] = {1, 2, -1};
    assert_fails_with(kindred_side_add_triplets(s, a, b, c, bad_answer, 3), KINDRED_E_INVALID,
                      "answer at entry 1 is 2");
    const int32_t bad_answer2[3] = {1, 0, -2};
    assert_fails_with(kindred_side_add_triplets(s, a, b, c, bad_answer2, 3), KINDRED_E_INVALID, "is -2");
    const int64_t out_c[3] = {2, 4, 1};
    assert_fails_with(kindred_side_add_triplets(s, a, b, out_c, answer, 3), KINDRED_E_INDEX, "at entry 1 (c)");
    assert_fails_with(kindred_side_add_triplets(s, a, b, c, NULL, 3), KINDRED_E_INVALID, "must not be NULL");
    int64_t count = 0;
    assert_ok(kindred_side_counts(s, NULL, NULL, &count, NULL));
    assert_int_equal(count, 3);
    /* A second batch appends; triplets come back in the order added (no merging). */
    assert_ok(kindred_side_add_triplets(s, a, b, c, answer, 1));
    int64_t oa[4], ob[4], oc[4];
    int32_t oans[4];
    assert_fails_with(kindred_side_triplets(s, oa, ob, oc, oans, 3), KINDRED_E_BUFFER_TOO_SMALL, "4 needed");
    assert_ok(kindred_side_triplets(s, oa, ob, oc, oans, 4));
    for (int e = 0; e < 4; ++e) {
        const int src = e % 3;
        assert_int_equal(oa[e], a[src]);
        assert_int_equal(ob[e], b[src]);
        assert_int_equal(oc[e], c[src]);
        assert_int_equal(oans[e], answer[src]);
    }
    /* Triplets are not pairs: no pair, no component joined. */
    assert_int_equal(pair_count(s), 0);
    kindred_side_free(s);
}

static void partial_labels(void **state) {
    (void)state;
    kindred_side *s = new_side(5);
    int64_t labelled = -1;
    assert_ok(kindred_side_counts(s, NULL, NULL, NULL, &labelled));
    assert_int_equal(labelled, 0);
    const int32_t first[5] = {0, -1, 2, -1, 0};
    assert_ok(kindred_side_set_partial_labels(s, first, 5));
    assert_ok(kindred_side_counts(s, NULL, NULL, NULL, &labelled));
    assert_int_equal(labelled, 3);
    const int32_t bad[5] = {0, -1, -2, -1, 0};
    assert_fails_with(kindred_side_set_partial_labels(s, bad, 5), KINDRED_E_INVALID, "label -2 at point 2");
    assert_fails_with(kindred_side_set_partial_labels(s, first, 4), KINDRED_E_DIMENSION, "4 labels for n = 5");
    assert_fails_with(kindred_side_set_partial_labels(s, NULL, 5), KINDRED_E_INVALID, "NULL");
    /* A failed call keeps the old labels; a good one replaces them. */
    assert_ok(kindred_side_counts(s, NULL, NULL, NULL, &labelled));
    assert_int_equal(labelled, 3);
    const int32_t second[5] = {-1, -1, -1, -1, 7};
    assert_ok(kindred_side_set_partial_labels(s, second, 5));
    assert_ok(kindred_side_counts(s, NULL, NULL, NULL, &labelled));
    assert_int_equal(labelled, 1);
    kindred_side_free(s);
}

static void components_of_a_known_graph(void **state) {
    (void)state;
    /* n = 10. Must-links 7-3, 3-0, 5-0 (a chain given out of order), 1-2,
     * 8-9 (as 9-8), a cannot-link 0-1, a must-link 4-6 that sums to 0,
     * and a pair 2-6 that sums to a cannot-link.
     * Components, numbered by smallest member: {0,3,5,7}=0, {1,2}=1, {4}=2,
     * {6}=3, {8,9}=4. */
    kindred_side *s = new_side(10);
    const int64_t i[10] = {7, 3, 5, 1, 9, 0, 4, 6, 2, 6};
    const int64_t j[10] = {3, 0, 0, 2, 8, 1, 6, 4, 6, 2};
    const double v[10] = {1, 1, 2, 1, 1, -1, 1, -1, 1, -2};
    assert_ok(kindred_side_add_pairs(s, i, j, v, 10));
    int64_t comp[10], count = 0;
    assert_ok(kindred_side_components(s, comp, 10, &count));
    const int64_t expected[10] = {0, 1, 1, 0, 2, 0, 3, 0, 4, 4};
    assert_int_equal(count, 5);
    for (int p = 0; p < 10; ++p) assert_int_equal(comp[p], expected[p]);
    assert_ok(kindred_side_check_consistent(s));
    /* Either output may be NULL. */
    count = 0;
    assert_ok(kindred_side_components(s, NULL, 0, &count));
    assert_int_equal(count, 5);
    assert_ok(kindred_side_components(s, comp, 10, NULL));
    /* A new must-link 4-8 merges {4} and {8,9}: ids shift. */
    const int64_t i2[1] = {8}, j2[1] = {4};
    const double v2[1] = {0.5};
    assert_ok(kindred_side_add_pairs(s, i2, j2, v2, 1));
    assert_ok(kindred_side_components(s, comp, 10, &count));
    const int64_t expected2[10] = {0, 1, 1, 0, 2, 0, 3, 0, 2, 2};
    assert_int_equal(count, 4);
    for (int p = 0; p < 10; ++p) assert_int_equal(comp[p], expected2[p]);
    kindred_side_free(s);
}

static void no_pairs_means_singletons(void **state) {
    (void)state;
    kindred_side *s = new_side(4);
    int64_t comp[4], count = 0;
    assert_ok(kindred_side_components(s, comp, 4, &count));
    assert_int_equal(count, 4);
    for (int p = 0; p < 4; ++p) assert_int_equal(comp[p], p);
    assert_ok(kindred_side_check_consistent(s));
    kindred_side_free(s);
}

static void inconsistency_detection(void **state) {
    (void)state;
    kindred_side *s = new_side(8);
    /* Must-link path 0-1-2-3 and 4-5; cannot-links 1-4 (between components: fine). */
    const int64_t i[5] = {0, 1, 2, 4, 1}, j[5] = {1, 2, 3, 5, 4};
    const double v[5] = {1, 1, 1, 1, -1};
    assert_ok(kindred_side_add_pairs(s, i, j, v, 5));
    assert_ok(kindred_side_check_consistent(s));
    /* A cannot-link 3-0 inside the path (given in reverse order) is named as (0, 3). */
    const int64_t ci[1] = {3}, cj[1] = {0};
    const double cv[1] = {-2};
    assert_ok(kindred_side_add_pairs(s, ci, cj, cv, 1));
    assert_fails_with(kindred_side_check_consistent(s), KINDRED_E_INFEASIBLE, "cannot-link (0, 3) joins two points");
    assert_non_null(strstr(kindred_last_error(), "1 such cannot-links"));
    /* A must-link 5-1 merges the components: cannot-link 1-4 becomes inconsistent too. */
    const int64_t mi[1] = {5}, mj[1] = {1};
    const double mv[1] = {1};
    assert_ok(kindred_side_add_pairs(s, mi, mj, mv, 1));
    assert_fails_with(kindred_side_check_consistent(s), KINDRED_E_INFEASIBLE, "2 such cannot-links");
    /* Cancelling the cannot-link (0,3) with +2 drops the pair... but 1-4 remains. */
    const double undo[1] = {2};
    assert_ok(kindred_side_add_pairs(s, ci, cj, undo, 1));
    assert_fails_with(kindred_side_check_consistent(s), KINDRED_E_INFEASIBLE, "cannot-link (1, 4)");
    /* Outweighing the cannot-link 1-4 turns it into a must-link: consistent. */
    const int64_t oi[1] = {4}, oj[1] = {1};
    const double ov[1] = {3};
    assert_ok(kindred_side_add_pairs(s, oi, oj, ov, 1));
    assert_ok(kindred_side_check_consistent(s));
    int64_t count = 0;
    assert_ok(kindred_side_components(s, NULL, 0, &count));
    assert_int_equal(count, 3); /* {0..5}, {6}, {7} */
    kindred_side_free(s);
}

static void side_must_match_data(void **state) {
    (void)state;
    /* A side about n points is accepted by a fit on n points (methods that
     * ignore side information still check the size). */
    double x[8 * 2];
    make_blobs(x, NULL, 8, 2, 2, 10.0, 0.1, 5);
    kindred_side *s = new_side(8);
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "kmeans"));
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_fit_dense(m, x, 8, 2, KINDRED_ROW_MAJOR, 2, s));
    assert_fails_with(kindred_model_fit_dense(m, x, 7, 2, KINDRED_ROW_MAJOR, 2, s), KINDRED_E_DIMENSION, "8 points");
    kindred_model_free(m);
    kindred_side_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pairs_are_unordered_summed_and_zero_sums_dropped),
        cmocka_unit_test(bad_pairs_are_rejected_and_batch_is_atomic),
        cmocka_unit_test(triplets_are_validated_and_kept_in_order),
        cmocka_unit_test(partial_labels),
        cmocka_unit_test(components_of_a_known_graph),
        cmocka_unit_test(no_pairs_means_singletons),
        cmocka_unit_test(inconsistency_detection),
        cmocka_unit_test(side_must_match_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
