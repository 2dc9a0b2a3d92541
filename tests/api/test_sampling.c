/* Sampling side information from a label vector (kindred_sample_pairs,
 * kindred_sample_triplets): counts honoured, distinct pairs, answers that
 * agree with the labels at noise 0, a flipped fraction close to the noise,
 * unlabelled points never drawn, and equal seeds giving equal samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kindred.h"
#include "testing.h"

enum { N = 200, CLASSES = 4 };

typedef struct pairs {
    int64_t count;
    int64_t *i, *j;
    double *value;
} pairs;

static void make_labels(int32_t *labels) {
    for (int p = 0; p < N; ++p) labels[p] = (int32_t)((p * 7) % CLASSES);
}

static pairs sample_pairs(const int32_t *labels, int64_t count, double rate, double noise, uint64_t seed) {
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, N));
    assert_ok(kindred_sample_pairs(s, labels, N, count, rate, noise, seed));
    pairs out;
    assert_ok(kindred_side_counts(s, NULL, &out.count, NULL, NULL));
    out.i = malloc(sizeof(int64_t) * (size_t)(out.count + 1));
    out.j = malloc(sizeof(int64_t) * (size_t)(out.count + 1));
    out.value = malloc(sizeof(double) * (size_t)(out.count + 1));
    assert_ok(kindred_side_pairs(s, out.i, out.j, out.value, out.count));
    kindred_side_free(s);
    return out;
}

static void release(pairs *p) {
    free(p->i);
    free(p->j);
    free(p->value);
}

static int64_t disagreements(const pairs *p, const int32_t *labels) {
    int64_t wrong = 0;
    for (int64_t e = 0; e < p->count; ++e) {
        assert_true(p->value[e] == 1.0 || p->value[e] == -1.0);
        const double expected = labels[p->i[e]] == labels[p->j[e]] ? 1.0 : -1.0;
        wrong += p->value[e] != expected;
    }
    return wrong;
}

static void pair_count_is_honoured_with_distinct_pairs(void **state) {
    (void)state;
    int32_t labels[N];
    make_labels(labels);
    const int64_t counts[] = {0, 1, 500, 19900}; /* 19900 = every pair of 200 points */
    for (int c = 0; c < 4; ++c) {
        pairs p = sample_pairs(labels, counts[c], 0.0, 0.0, 5);
        /* The side merges duplicates: count equal means all distinct. */
        assert_int_equal(p.count, counts[c]);
        for (int64_t e = 0; e < p.count; ++e) {
            assert_true(p.i[e] < p.j[e]);
            assert_in_range(p.j[e], 0, N - 1);
        }
        assert_int_equal(disagreements(&p, labels), 0);
        release(&p);
    }
    /* A rate of all pairs: round(0.1 * 19900) = 1990. */
    pairs p = sample_pairs(labels, -1, 0.1, 0.0, 6);
    assert_int_equal(p.count, 1990);
    release(&p);
}

static void flipped_fraction_is_close_to_noise(void **state) {
    (void)state;
    int32_t labels[N];
    make_labels(labels);
    const double noises[] = {0.1, 0.3, 0.5};
    for (int k = 0; k < 3; ++k) {
        pairs p = sample_pairs(labels, 5000, 0.0, noises[k], 11);
        const double flipped = (double)disagreements(&p, labels) / (double)p.count;
        /* Binomial standard deviation <= sqrt(0.25 / 5000) = 0.0071; allow 5 of them. */
        assert_true(fabs(flipped - noises[k]) < 0.036);
        release(&p);
    }
    pairs all_flipped = sample_pairs(labels, 300, 0.0, 1.0, 12);
    assert_int_equal(disagreements(&all_flipped, labels), 300);
    release(&all_flipped);
}

static void same_seed_same_sample(void **state) {
    (void)state;
    int32_t labels[N];
    make_labels(labels);
    pairs a = sample_pairs(labels, 700, 0.0, 0.2, 99), b = sample_pairs(labels, 700, 0.0, 0.2, 99);
    pairs c = sample_pairs(labels, 700, 0.0, 0.2, 100);
    assert_int_equal(a.count, b.count);
    assert_memory_equal(a.i, b.i, sizeof(int64_t) * 700);
    assert_memory_equal(a.j, b.j, sizeof(int64_t) * 700);
    assert_memory_equal(a.value, b.value, sizeof(double) * 700);
    assert_true(memcmp(a.i, c.i, sizeof(int64_t) * 700) != 0 || memcmp(a.j, c.j, sizeof(int64_t) * 700) != 0);
    release(&a);
    release(&b);
    release(&c);
}

static void unlabelled_points_are_never_drawn(void **state) {
    (void)state;
    int32_t labels[N];
    make_labels(labels);
    for (int p = 0; p < N; p += 3) labels[p] = -1; /* 67 unlabelled, 133 labelled */
    pairs p = sample_pairs(labels, 133 * 132 / 2, 0.0, 0.0, 3);
    assert_int_equal(p.count, 133 * 132 / 2);
    for (int64_t e = 0; e < p.count; ++e) {
        assert_true(labels[p.i[e]] >= 0);
        assert_true(labels[p.j[e]] >= 0);
    }
    release(&p);
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, N));
    assert_fails_with(kindred_sample_pairs(s, labels, N, 133 * 132 / 2 + 1, 0.0, 0.0, 3), KINDRED_E_INVALID,
                      "distinct pairs of labelled points");
    assert_fails_with(kindred_sample_pairs(s, labels, N, -1, 1.5, 0.0, 3), KINDRED_E_INVALID, "rate");
    assert_fails_with(kindred_sample_pairs(s, labels, N, -2, 0.5, 0.0, 3), KINDRED_E_INVALID, "count");
    assert_fails_with(kindred_sample_pairs(s, NULL, N, 1, 0.0, 0.0, 3), KINDRED_E_INVALID, "labels");
    kindred_side_free(s);
}

/* Eq. (1) of the DCRC paper: yes if a shares b's class and not c's, no if the reverse, else don't know. */
static int32_t triplet_answer(const int32_t *labels, int64_t a, int64_t b, int64_t c) {
    if (labels[a] == labels[b] && labels[a] != labels[c]) return 1;
    if (labels[a] == labels[c] && labels[a] != labels[b]) return -1;
    return 0;
}

static void triplets_follow_the_labels(void **state) {
    (void)state;
    int32_t labels[N];
    make_labels(labels);
    labels[10] = -1;
    const double noises[] = {0.0, 0.25};
    for (int k = 0; k < 2; ++k) {
        enum { T = 4000 };
        kindred_side *s = NULL;
        assert_ok(kindred_side_new(&s, N));
        assert_ok(kindred_sample_triplets(s, labels, N, T, noises[k], 8));
        int64_t count = 0;
        assert_ok(kindred_side_counts(s, NULL, NULL, &count, NULL));
        assert_int_equal(count, T);
        int64_t *a = malloc(sizeof(int64_t) * T), *b = malloc(sizeof(int64_t) * T), *c = malloc(sizeof(int64_t) * T);
        int32_t *answer = malloc(sizeof(int32_t) * T);
        assert_ok(kindred_side_triplets(s, a, b, c, answer, T));
        int64_t decided = 0, flipped = 0, dnk = 0;
        for (int64_t e = 0; e < T; ++e) {
            assert_true(a[e] != b[e] && a[e] != c[e] && b[e] != c[e]);
            assert_true(labels[a[e]] >= 0 && labels[b[e]] >= 0 && labels[c[e]] >= 0);
            const int32_t truth = triplet_answer(labels, a[e], b[e], c[e]);
            if (truth == 0) {
                assert_int_equal(answer[e], 0); /* don't know is never flipped */
                ++dnk;
                continue;
            }
            ++decided;
            if (answer[e] != truth) {
                assert_int_equal(answer[e], -truth);
                ++flipped;
            }
        }
        assert_true(decided > 500 && dnk > 500);
        if (noises[k] == 0.0)
            assert_int_equal(flipped, 0);
        else
            assert_true(fabs((double)flipped / (double)decided - noises[k]) < 0.05);
        /* Same seed, same triplets. */
        kindred_side *again = NULL;
        assert_ok(kindred_side_new(&again, N));
        assert_ok(kindred_sample_triplets(again, labels, N, T, noises[k], 8));
        int64_t *a2 = malloc(sizeof(int64_t) * T), *b2 = malloc(sizeof(int64_t) * T), *c2 = malloc(sizeof(int64_t) * T);
        int32_t *answer2 = malloc(sizeof(int32_t) * T);
        assert_ok(kindred_side_triplets(again, a2, b2, c2, answer2, T));
        assert_memory_equal(a, a2, sizeof(int64_t) * T);
        assert_memory_equal(b, b2, sizeof(int64_t) * T);
        assert_memory_equal(c, c2, sizeof(int64_t) * T);
        assert_memory_equal(answer, answer2, sizeof(int32_t) * T);
        free(a); free(b); free(c); free(answer);
        free(a2); free(b2); free(c2); free(answer2);
        kindred_side_free(again);
        kindred_side_free(s);
    }
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, 3));
    const int32_t two_labelled[3] = {0, -1, 1};
    assert_fails_with(kindred_sample_triplets(s, two_labelled, 3, 1, 0.0, 1), KINDRED_E_INVALID, "at least 3 labelled");
    assert_fails_with(kindred_sample_triplets(s, two_labelled, 3, -1, 0.0, 1), KINDRED_E_INVALID, "count");
    kindred_side_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pair_count_is_honoured_with_distinct_pairs),
        cmocka_unit_test(flipped_fraction_is_close_to_noise),
        cmocka_unit_test(same_seed_same_sample),
        cmocka_unit_test(unlabelled_points_are_never_drawn),
        cmocka_unit_test(triplets_follow_the_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
