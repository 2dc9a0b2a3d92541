/* Pairwise-constraint methods through the public API: COP-KMeans (hard
 * constraints, infeasibility errors), PCKMeans (soft penalties), MPCK-means /
 * HMRF-KMeans (objective trace never increases, distortions, sparse input,
 * bad input), and active selection (Explore / Consolidate with an oracle). */
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

enum { N = 120, D = 4, K = 3 };

static kindred_model *new_model(const char *algorithm, int64_t k) {
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, algorithm));
    assert_ok(kindred_model_set_int(m, "k", k));
    return m;
}

static kindred_side *side_with(int64_t n, const int64_t *i, const int64_t *j, const double *v, int64_t count) {
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, n));
    if (count > 0) assert_ok(kindred_side_add_pairs(s, i, j, v, count));
    return s;
}

static int64_t get_array(const kindred_model *m, const char *name, double *out, int64_t capacity) {
    int64_t rows = 0, cols = 0;
    assert_ok(kindred_model_array_shape(m, name, &rows, &cols));
    assert_true(rows * cols <= capacity);
    assert_ok(kindred_model_array(m, name, out, capacity));
    return rows * cols;
}

/* The length of a result array, or -1 when the model has none of that name. */
static int64_t array_length(const kindred_model *m, const char *name, double *out, int64_t capacity) {
    int64_t rows = 0, cols = 0;
    const kindred_status st = kindred_model_array_shape(m, name, &rows, &cols);
    if (st == KINDRED_E_NOT_FOUND) return -1;
    assert_ok(st);
    return get_array(m, name, out, capacity);
}

/* ---- COP-KMeans ---- */

static void copkmeans_satisfies_every_constraint(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], labels[N];
    make_blobs(x, truth, N, D, K, 3.0, 1.0, 7);
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, N));
    assert_ok(kindred_sample_pairs(s, truth, N, 150, -1, 0.0, 3));
    kindred_model *m = new_model("copkmeans", K);
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s));
    assert_ok(kindred_model_labels(m, labels, N));
    int64_t count = 0;
    assert_ok(kindred_side_counts(s, NULL, &count, NULL, NULL));
    int64_t *pi = malloc(sizeof(int64_t) * count), *pj = malloc(sizeof(int64_t) * count);
    double *pv = malloc(sizeof(double) * count);
    assert_ok(kindred_side_pairs(s, pi, pj, pv, count));
    for (int64_t p = 0; p < count; ++p) {
        if (pv[p] > 0) assert_int_equal(labels[pi[p]], labels[pj[p]]);
        else assert_int_not_equal(labels[pi[p]], labels[pj[p]]);
    }
    assert_true(same_partition(labels, truth, N));
    free(pi); free(pj); free(pv);
    kindred_model_free(m);
    kindred_side_free(s);
}

static void copkmeans_infeasible_names_point_and_constraint(void **state) {
    (void)state;
    double x[N * D];
    make_blobs(x, NULL, N, D, K, 3.0, 1.0, 7);
    /* Three points pairwise cannot-linked cannot fit in k = 2 clusters. */
    const int64_t i[] = {0, 0, 1}, j[] = {1, 2, 2};
    const double v[] = {-1, -1, -1};
    kindred_side *s = side_with(N, i, j, v, 3);
    kindred_model *m = new_model("copkmeans", 2);
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s), KINDRED_E_INFEASIBLE, "point 2");
    assert_non_null(strstr(kindred_last_error(), "cannot-link ("));
    /* No partial labelling: the model stays unfitted. */
    int32_t labels[N];
    assert_int_equal(kindred_model_labels(m, labels, N), KINDRED_E_STATE);
    kindred_model_free(m);
    kindred_side_free(s);
}

static void copkmeans_contradiction_inside_component(void **state) {
    (void)state;
    double x[N * D];
    make_blobs(x, NULL, N, D, K, 3.0, 1.0, 7);
    const int64_t i[] = {0, 1, 0}, j[] = {1, 2, 2};
    const double v[] = {1, 1, -1};
    kindred_side *s = side_with(N, i, j, v, 3);
    kindred_model *m = new_model("copkmeans", K);
    assert_fails_with(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s), KINDRED_E_INFEASIBLE,
                      "cannot-link (0, 2)");
    kindred_model_free(m);
    kindred_side_free(s);
}

static void copkmeans_k_larger_than_n(void **state) {
    (void)state;
    double x[4 * 2] = {0, 0, 1, 1, 2, 2, 3, 3};
    kindred_model *m = new_model("copkmeans", 5);
    assert_fails_with(kindred_model_fit_dense(m, x, 4, 2, KINDRED_ROW_MAJOR, 2, NULL), KINDRED_E_DIMENSION, "k = 5");
    kindred_model_free(m);
}

/* ---- PCKMeans ---- */

static void pckmeans_heavy_must_link_joins_blobs(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], labels[N];
    make_blobs(x, truth, N, D, K, 3.0, 1.0, 11);
    /* Points 0 and 1 are in different blobs (i % k); a huge weight joins them. */
    const int64_t i[] = {0}, j[] = {1};
    const double v[] = {1e9};
    kindred_side *s = side_with(N, i, j, v, 1);
    kindred_model *m = new_model("pckmeans", K);
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s));
    assert_ok(kindred_model_labels(m, labels, N));
    assert_int_equal(labels[0], labels[1]);
    /* Point-wise (the paper) with penalty 0 the constraint is ignored and the
     * blobs are found; propagated, a must-link keeps its points in one unit
     * whatever the weight (the weight prices cannot-links between units). */
    assert_ok(kindred_model_set_double(m, "penalty", 0.0));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s));
    assert_ok(kindred_model_labels(m, labels, N));
    assert_int_equal(labels[0], labels[1]);
    assert_ok(kindred_model_set_string(m, "propagation", "off"));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s));
    assert_ok(kindred_model_labels(m, labels, N));
    assert_true(same_partition(labels, truth, N));
    kindred_model_free(m);
    kindred_side_free(s);
}

static void pckmeans_rejects_sparse(void **state) {
    (void)state;
    const int64_t indptr[] = {0, 1, 2, 3}, indices[] = {0, 1, 0};
    const double values[] = {1, 1, 2};
    kindred_model *m = new_model("pckmeans", 2);
    assert_fails_with(kindred_model_fit_csr(m, 3, 2, indptr, indices, values, NULL), KINDRED_E_INVALID, "dense");
    kindred_model_free(m);
}

/* ---- MPCK-means ---- */

static int trace_never_increases(const double *t, int64_t len) {
    for (int64_t r = 1; r < len; ++r)
        if (t[r] > t[r - 1] + 1e-9 * (1.0 + fabs(t[r - 1]))) {
            print_error("objective rose at iteration %d: %.17g -> %.17g\n", (int)r, t[r - 1], t[r]);
            return 0;
        }
    return 1;
}

/* Stretched blobs: feature 3 carries noise 20x larger than the rest. */
static void stretched_blobs(double *x, int32_t *truth, uint64_t seed) {
    make_blobs(x, truth, N, D, K, 3.0, 1.0, seed);
    test_rng r = {seed + 1};
    for (int i = 0; i < N; ++i) x[i * D + 3] = 20.0 * test_rng_symmetric(&r);
    for (int i = 0; i < N; ++i) x[i * D + 0] += 5.0;  /* positive entries for the cosine check below */
}

static void mpckmeans_trace_never_increases(void **state) {
    (void)state;
    double x[N * D], trace[1000];
    int32_t truth[N];
    stretched_blobs(x, truth, 5);
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, N));
    assert_ok(kindred_sample_pairs(s, truth, N, 200, -1, 0.1, 9)); /* 10% noisy answers: violations happen */
    const char *distortions[] = {"euclidean-full", "euclidean-diag", "cosine"};
    const char *updates[] = {"closed-form", "gradient"};
    for (int dd = 0; dd < 3; ++dd)
        for (int u = 0; u < 2; ++u)
            for (int prior = 0; prior < 2; ++prior)
                for (int phimax = 0; phimax < 2; ++phimax) {
                    kindred_model *m = new_model("mpckmeans", K);
                    assert_ok(kindred_model_set_string(m, "distortion", distortions[dd]));
                    assert_ok(kindred_model_set_string(m, "metric_update", updates[u]));
                    assert_ok(kindred_model_set_string(m, "phi_max", phimax ? "sum" : "max"));
                    assert_ok(kindred_model_set_int(m, "prior", prior));
                    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s));
                    const int64_t len = get_array(m, "objective_trace", trace, 1000);
                    assert_true(len >= 2);
                    assert_true(trace_never_increases(trace, len));
                    kindred_model_free(m);
                }
    kindred_side_free(s);
}

static void mpckmeans_learned_metric_beats_fixed_metric(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], labels[N];
    stretched_blobs(x, truth, 21);
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, N));
    assert_ok(kindred_sample_pairs(s, truth, N, 100, -1, 0.0, 4));
    double nmi_plain = 0, nmi_learned = 0;
    kindred_model *m = new_model("mpckmeans", K);
    /* The paper's metric learning on the points as given (whitening would
     * shrink the noise feature before A is learned). */
    assert_ok(kindred_model_set_string(m, "whitening", "off"));
    assert_ok(kindred_model_set_int(m, "learn_metric", 0));
    assert_ok(kindred_model_set_int(m, "constraints", 0));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s));
    assert_ok(kindred_model_labels(m, labels, N));
    assert_ok(kindred_metric("nmi", truth, labels, N, &nmi_plain));
    assert_ok(kindred_model_set_int(m, "learn_metric", 1));
    assert_ok(kindred_model_set_int(m, "constraints", 1));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s));
    assert_ok(kindred_model_labels(m, labels, N));
    assert_ok(kindred_metric("nmi", truth, labels, N, &nmi_learned));
    assert_true(nmi_learned > nmi_plain + 0.2);
    assert_true(nmi_learned > 0.9);
    /* The learned diagonal weights shrink the noise feature. */
    double a[D];
    assert_int_equal(get_array(m, "metric", a, D), D);
    assert_true(a[3] < 0.1 * a[1]);
    /* predict reproduces the labels of the training points' clusters mostly. */
    int32_t pred[N];
    assert_ok(kindred_model_predict_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, pred, N));
    double agree = 0;
    assert_ok(kindred_metric("ari", labels, pred, N, &agree));
    assert_true(agree > 0.9);
    kindred_model_free(m);
    kindred_side_free(s);
}

static void mpckmeans_euclidean_rejects_sparse_cosine_accepts(void **state) {
    (void)state;
    /* Two groups of documents over 6 terms. */
    enum { NS = 8, DS = 6 };
    const int64_t indptr[NS + 1] = {0, 2, 4, 6, 8, 10, 12, 14, 16};
    const int64_t indices[16] = {0, 1, 0, 2, 1, 2, 0, 1, 3, 4, 4, 5, 3, 5, 3, 4};
    const double values[16] = {1, 2, 2, 1, 1, 1, 3, 1, 1, 2, 2, 1, 1, 1, 3, 1};
    kindred_model *m = new_model("mpckmeans", 2);
    /* auto (the default) and the Euclidean distortions refuse CSR data and name the two that take it. */
    assert_fails_with(kindred_model_fit_csr(m, NS, DS, indptr, indices, values, NULL), KINDRED_E_INVALID,
                      "needs dense data; for sparse (CSR) data use distortion 'cosine' or 'idiv'");
    assert_ok(kindred_model_set_string(m, "distortion", "euclidean-full"));
    assert_fails_with(kindred_model_fit_csr(m, NS, DS, indptr, indices, values, NULL), KINDRED_E_INVALID, "dense");
    const char *kinds[] = {"cosine", "idiv"};
    for (int t = 0; t < 2; ++t) {
        assert_ok(kindred_model_set_string(m, "distortion", kinds[t]));
        assert_ok(kindred_model_fit_csr(m, NS, DS, indptr, indices, values, NULL));
        int32_t labels[NS], pred[NS];
        assert_ok(kindred_model_labels(m, labels, NS));
        for (int i = 1; i < 4; ++i) assert_int_equal(labels[i], labels[0]);
        for (int i = 5; i < 8; ++i) assert_int_equal(labels[i], labels[4]);
        assert_int_not_equal(labels[0], labels[4]);
        assert_ok(kindred_model_predict_csr(m, NS, DS, indptr, indices, values, pred, NS));
        assert_true(same_partition(labels, pred, NS));
        double code = -1;
        assert_int_equal(array_length(m, "chosen_distortion", &code, 1), -1); /* named: no choice recorded */
    }
    kindred_model_free(m);
}

/* Two long parallel clusters along the diagonal x0 = x1, 1 apart across it:
 * along each axis they overlap completely, so a diagonal metric cannot
 * separate them and a full one (which can stretch the x0 - x1 direction)
 * can. distortion = auto must see that in the held-out pairs. */
static void elongated_diagonal_clusters(double *x, int32_t *truth, int64_t n, uint64_t seed) {
    test_rng r = {seed};
    for (int64_t i = 0; i < n; ++i) {
        truth[i] = (int32_t)(i % 2);
        const double along = 10.0 * test_rng_symmetric(&r), across = (truth[i] ? 0.5 : -0.5) + 0.1 * test_rng_symmetric(&r);
        x[i * 2 + 0] = along + across;
        x[i * 2 + 1] = along - across;
    }
}

static void mpckmeans_auto_distortion_chooses_full_when_it_predicts_better(void **state) {
    (void)state;
    enum { NE = 200 };
    double x[NE * 2];
    int32_t truth[NE], labels[NE], pred[NE];
    elongated_diagonal_clusters(x, truth, NE, 31);
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, NE));
    assert_ok(kindred_sample_pairs(s, truth, NE, 100, -1, 0.0, 5));
    double code = -1, nmi = 0, a[4];
    kindred_model *m = new_model("mpckmeans", 2);
    assert_ok(kindred_model_fit_dense(m, x, NE, 2, KINDRED_ROW_MAJOR, 2, s));
    assert_int_equal(array_length(m, "chosen_distortion", &code, 1), 1);
    assert_true(code == 1.0); /* euclidean-full */
    assert_int_equal(get_array(m, "metric", a, 4), 4);
    assert_ok(kindred_model_labels(m, labels, NE));
    assert_ok(kindred_metric("nmi", truth, labels, NE, &nmi));
    assert_true(nmi > 0.9);
    /* predict uses the full A the model records. */
    assert_ok(kindred_model_predict_dense(m, x, NE, 2, KINDRED_ROW_MAJOR, 2, pred, NE));
    assert_true(same_partition(labels, pred, NE));
    /* Named, the diagonal one is fitted as asked, and the model records no choice. */
    assert_ok(kindred_model_set_string(m, "distortion", "euclidean-diag"));
    assert_ok(kindred_model_fit_dense(m, x, NE, 2, KINDRED_ROW_MAJOR, 2, s));
    assert_int_equal(array_length(m, "chosen_distortion", &code, 1), -1);
    assert_int_equal(get_array(m, "metric", a, 4), 2);
    kindred_model_free(m);
    kindred_side_free(s);
}

/* Where the full A is not tried (d(d+1)/2 > n, or fewer than 10 pairs), auto is the diagonal one. */
static void mpckmeans_auto_distortion_keeps_diagonal_when_full_is_not_tried(void **state) {
    (void)state;
    double x[N * D], code = -1, a[D * D];
    int32_t truth[N];
    stretched_blobs(x, truth, 41);
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, N));
    assert_ok(kindred_sample_pairs(s, truth, N, 5, -1, 0.0, 3)); /* too few to tune on */
    kindred_model *m = new_model("mpckmeans", K);
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s));
    assert_int_equal(array_length(m, "chosen_distortion", &code, 1), 1);
    assert_true(code == 0.0);
    assert_int_equal(get_array(m, "metric", a, D * D), D);
    /* 8 points in 4 dimensions: 10 parameters of a full A for 8 points. */
    kindred_side *s8 = NULL;
    assert_ok(kindred_side_new(&s8, 8));
    assert_ok(kindred_sample_pairs(s8, truth, 8, 20, -1, 0.0, 3));
    assert_ok(kindred_model_set_int(m, "k", 2));
    assert_ok(kindred_model_fit_dense(m, x, 8, D, KINDRED_ROW_MAJOR, D, s8));
    assert_int_equal(array_length(m, "chosen_distortion", &code, 1), 1);
    assert_true(code == 0.0);
    kindred_model_free(m);
    kindred_side_free(s);
    kindred_side_free(s8);
}

static void mpckmeans_bad_input(void **state) {
    (void)state;
    double x[3 * 2] = {1, 2, 0, 0, 3, 1};
    kindred_model *m = new_model("mpckmeans", 2);
    assert_ok(kindred_model_set_string(m, "distortion", "cosine"));
    assert_fails_with(kindred_model_fit_dense(m, x, 3, 2, KINDRED_ROW_MAJOR, 2, NULL), KINDRED_E_INVALID,
                      "row 1 is a zero vector");
    x[2] = -1.0;
    assert_ok(kindred_model_set_string(m, "distortion", "idiv"));
    assert_fails_with(kindred_model_fit_dense(m, x, 3, 2, KINDRED_ROW_MAJOR, 2, NULL), KINDRED_E_INVALID,
                      "row 1, column 0");
    assert_ok(kindred_model_set_int(m, "k", 4));
    assert_ok(kindred_model_set_string(m, "distortion", "euclidean-full"));
    assert_fails_with(kindred_model_fit_dense(m, x, 3, 2, KINDRED_ROW_MAJOR, 2, NULL), KINDRED_E_DIMENSION, "k = 4");
    assert_int_equal(kindred_model_set_string(m, "distortion", "manhattan"), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "rayleigh_s", 0.0), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "smoothing", 0.0), KINDRED_E_INVALID);
    kindred_model_free(m);
}

static void soft_methods_accept_contradictions_and_any_weights(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], labels[N];
    make_blobs(x, truth, N, D, K, 3.0, 1.0, 13);
    /* A cannot-link inside a must-link component, tiny and huge weights, and
     * more mutually cannot-linked points than k: soft methods still return a
     * labelling, every point labelled in [0, k). */
    const int64_t i[] = {0, 1, 0, 3, 4, 5, 6, 6, 7};
    const int64_t j[] = {1, 2, 2, 4, 5, 3, 7, 8, 8};
    const double v[] = {1, 1, -1, -1e-12, -1e12, -3, -1, -1, -1};
    kindred_side *s = side_with(N, i, j, v, 9);
    const char *algos[] = {"pckmeans", "mpckmeans", "mpckmeans"};
    for (int a = 0; a < 3; ++a) {
        kindred_model *m = new_model(algos[a], 2);
        if (a == 2) assert_ok(kindred_model_set_string(m, "distortion", "euclidean-full"));
        assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s));
        assert_ok(kindred_model_labels(m, labels, N));
        for (int p = 0; p < N; ++p) assert_true(labels[p] == 0 || labels[p] == 1);
        kindred_model_free(m);
    }
    kindred_side_free(s);
}

static void mpckmeans_same_labels_for_any_thread_count(void **state) {
    (void)state;
    double x[N * D];
    int32_t truth[N], a[N], b[N];
    stretched_blobs(x, truth, 3);
    kindred_side *s = NULL;
    assert_ok(kindred_side_new(&s, N));
    assert_ok(kindred_sample_pairs(s, truth, N, 80, -1, 0.0, 2));
    kindred_model *m = new_model("mpckmeans", K);
    assert_ok(kindred_model_set_string(m, "distortion", "cosine"));
    assert_ok(kindred_model_set_int(m, "threads", 1));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s));
    assert_ok(kindred_model_labels(m, a, N));
    assert_ok(kindred_model_set_int(m, "threads", 2));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s));
    assert_ok(kindred_model_labels(m, b, N));
    assert_memory_equal(a, b, sizeof(a));
    kindred_model_free(m);
    kindred_side_free(s);
}

/* ---- Active selection ---- */

typedef struct oracle_state {
    const int32_t *truth;
    int64_t n;
    int64_t calls;
    int dont_know_mod; /* answer 0 when (i + j) % mod == 0; 0 = never */
    int bad_answer;    /* answer this on the 3rd call when non-zero */
    unsigned char *seen; /* n x n: pair asked before */
} oracle_state;

static int truth_oracle(void *user, int64_t i, int64_t j) {
    oracle_state *o = (oracle_state *)user;
    assert_true(i >= 0 && i < j && j < o->n);
    assert_int_equal(o->seen[i * o->n + j], 0); /* never asked twice */
    o->seen[i * o->n + j] = 1;
    ++o->calls;
    if (o->bad_answer && o->calls == 3) return o->bad_answer;
    if (o->dont_know_mod && (i + j) % o->dont_know_mod == 0) return 0;
    return o->truth[i] == o->truth[j] ? 1 : -1;
}

static void active_explore_consolidate_finds_all_clusters(void **state) {
    (void)state;
    enum { NA = 200, KA = 4 };
    static double x[NA * D];
    int32_t truth[NA];
    make_blobs(x, truth, NA, D, KA, 4.0, 1.0, 17);
    static unsigned char seen[NA * NA];
    const int dk[] = {0, 5};
    for (int t = 0; t < 2; ++t) {
        memset(seen, 0, sizeof(seen));
        oracle_state o = {truth, NA, 0, dk[t], 0, seen};
        kindred_side *s = NULL;
        assert_ok(kindred_side_new(&s, NA));
        assert_ok(test_active_select("explore-consolidate", x, NA, D, KINDRED_ROW_MAJOR, D, KA, 60, 1, truth_oracle,
                                        &o, s));
        assert_true(o.calls <= 60);
        assert_true(o.calls >= 50); /* the budget is used */
        int64_t count = 0;
        assert_ok(kindred_side_counts(s, NULL, &count, NULL, NULL));
        int64_t pi[200], pj[200];
        double pv[200];
        assert_true(count <= 200);
        assert_ok(kindred_side_pairs(s, pi, pj, pv, count));
        int has_class[KA] = {0};
        int64_t must = 0;
        for (int64_t p = 0; p < count; ++p) {
            /* every stored answer (asked or inferred) is right */
            assert_int_equal(pv[p] > 0, truth[pi[p]] == truth[pj[p]]);
            has_class[truth[pi[p]]] = has_class[truth[pj[p]]] = 1;
            must += pv[p] > 0;
        }
        for (int c = 0; c < KA; ++c) assert_true(has_class[c]);
        assert_true(must >= 20); /* Consolidate adds points to the neighbourhoods */
        /* The side's must-link components: at most one neighbourhood per class
         * (Consolidate joins points to existing neighbourhoods, never starts one). */
        int64_t comp[NA], sizes[NA] = {0};
        int64_t ncomp = 0;
        assert_ok(kindred_side_components(s, comp, NA, &ncomp));
        int64_t big = 0;
        for (int i = 0; i < NA; ++i) ++sizes[comp[i]];
        for (int c = 0; c < NA; ++c) big += sizes[c] >= 2;
        assert_true(big <= KA && big >= KA - 1);
        /* and a fit with them is right */
        kindred_model *m = new_model("mpckmeans", KA);
        assert_ok(kindred_model_fit_dense(m, x, NA, D, KINDRED_ROW_MAJOR, D, s));
        int32_t labels[NA];
        assert_ok(kindred_model_labels(m, labels, NA));
        assert_true(same_partition(labels, truth, NA));
        kindred_model_free(m);
        kindred_side_free(s);
    }
}

static void active_unknown_k_explores_only(void **state) {
    (void)state;
    enum { NA = 120, KA = 3 };
    static double x[NA * D];
    int32_t truth[NA];
    make_blobs(x, truth, NA, D, KA, 4.0, 1.0, 19);
    static unsigned char seen[NA * NA];
    const char *strategies[] = {"explore-consolidate", "explore", "random"};
    for (int t = 0; t < 3; ++t) {
        memset(seen, 0, sizeof(seen));
        oracle_state o = {truth, NA, 0, 3, 0, seen};
        kindred_side *s = NULL;
        assert_ok(kindred_side_new(&s, NA));
        assert_ok(test_active_select(strategies[t], x, NA, D, KINDRED_ROW_MAJOR, D, -1, 25, 2, truth_oracle, &o, s));
        assert_true(o.calls <= 25 && o.calls > 0);
        kindred_side_free(s);
    }
}

static void active_bad_arguments(void **state) {
    (void)state;
    enum { NA = 30 };
    double x[NA * D];
    int32_t truth[NA];
    make_blobs(x, truth, NA, D, 3, 4.0, 1.0, 23);
    static unsigned char seen[NA * NA];
    oracle_state o = {truth, NA, 0, 0, 0, seen};
    kindred_side *s = NULL, *other = NULL;
    assert_ok(kindred_side_new(&s, NA));
    assert_ok(kindred_side_new(&other, NA + 1));
    assert_fails_with(test_active_select("nonsense", x, NA, D, KINDRED_ROW_MAJOR, D, 3, 10, 0, truth_oracle, &o, s),
                      KINDRED_E_INVALID, "'strategy' must be one of explore-consolidate|explore|random");
    assert_fails_with(kindred_active_select(NULL, x, NA, D, KINDRED_ROW_MAJOR, D, truth_oracle, &o, s),
                      KINDRED_E_INVALID, "options");
    assert_fails_with(test_active_select("explore", x, NA, D, KINDRED_ROW_MAJOR, D, 3, 10, 0, NULL, &o, s),
                      KINDRED_E_INVALID, "oracle");
    assert_fails_with(test_active_select("explore", x, NA, D, KINDRED_ROW_MAJOR, D, 3, 10, 0, truth_oracle, &o, NULL),
                      KINDRED_E_INVALID, "out_side");
    assert_fails_with(test_active_select("explore", x, NA, D, KINDRED_ROW_MAJOR, D, 3, -1, 0, truth_oracle, &o, s),
                      KINDRED_E_INVALID, "budget");
    assert_fails_with(test_active_select("explore", x, NA, D, KINDRED_ROW_MAJOR, D, 0, 10, 0, truth_oracle, &o, s),
                      KINDRED_E_INVALID, "k must be");
    assert_fails_with(test_active_select("explore", x, NA, D, KINDRED_ROW_MAJOR, D, NA + 1, 10, 0, truth_oracle, &o, s),
                      KINDRED_E_DIMENSION, "k = 31");
    assert_fails_with(test_active_select("explore", x, NA, D, KINDRED_ROW_MAJOR, D, 3, 10, 0, truth_oracle, &o, other),
                      KINDRED_E_DIMENSION, "out_side");
    x[5] = NAN;
    assert_int_equal(test_active_select("explore", x, NA, D, KINDRED_ROW_MAJOR, D, 3, 10, 0, truth_oracle, &o, s),
                     KINDRED_E_INVALID);
    x[5] = 0.0;
    /* An answer outside {-1, 0, 1}: an error, and the side is left unchanged. */
    o.bad_answer = 7;
    assert_fails_with(test_active_select("explore-consolidate", x, NA, D, KINDRED_ROW_MAJOR, D, 3, 10, 0, truth_oracle,
                                            &o, s),
                      KINDRED_E_INVALID, "answered 7");
    int64_t count = -1;
    assert_ok(kindred_side_counts(s, NULL, &count, NULL, NULL));
    assert_int_equal(count, 0);
    /* budget 0: no call, no pair */
    o.calls = 0;
    o.bad_answer = 0;
    assert_ok(test_active_select("explore-consolidate", x, NA, D, KINDRED_ROW_MAJOR, D, 3, 0, 0, truth_oracle, &o, s));
    assert_int_equal(o.calls, 0);
    kindred_side_free(s);
    kindred_side_free(other);
}

/* The options handle of active selection: the same checks and messages as a
 * model's options, and its table listed by kindred_active_option_info. */
static void active_options_handle(void **state) {
    (void)state;
    assert_fails_with(kindred_active_options_new(NULL), KINDRED_E_INVALID, "out");
    kindred_active_options *a = NULL;
    assert_ok(kindred_active_options_new(&a));
    char text[32];
    assert_ok(kindred_active_options_option(a, "strategy", text, sizeof text));
    assert_string_equal(text, "explore-consolidate");
    assert_ok(kindred_active_options_option(a, "k", text, sizeof text));
    assert_string_equal(text, "-1");
    assert_ok(kindred_active_options_set_string(a, "strategy", "random"));
    assert_ok(kindred_active_options_set_int(a, "budget", 12));
    assert_ok(kindred_active_options_set_double(a, "seed", 3.0));
    assert_ok(kindred_active_options_option(a, "budget", text, sizeof text));
    assert_string_equal(text, "12");
    assert_fails_with(kindred_active_options_option(a, "strategy", text, 3), KINDRED_E_BUFFER_TOO_SMALL,
                      "buffer of 3 bytes is too small; 7 needed");
    assert_fails_with(kindred_active_options_option(a, "strategy", NULL, 3), KINDRED_E_INVALID, "buffer");
    assert_fails_with(kindred_active_options_set_int(a, "budgte", 3), KINDRED_E_NOT_FOUND,
                      "unknown option 'budgte'; valid options: strategy, k, budget, seed");
    assert_fails_with(kindred_active_options_set_int(a, "budget", -1), KINDRED_E_INVALID, "'budget' must be");
    assert_fails_with(kindred_active_options_set_int(a, "k", -2), KINDRED_E_INVALID, "'k' must be");
    assert_fails_with(kindred_active_options_set_double(a, "seed", 0.5), KINDRED_E_INVALID, "'seed' must be");
    assert_fails_with(kindred_active_options_set_int(a, "strategy", 1), KINDRED_E_INVALID, "not a number");
    assert_fails_with(kindred_active_options_set_string(a, "strategy", NULL), KINDRED_E_INVALID, "option value");
    assert_fails_with(kindred_active_options_set_string(a, NULL, "random"), KINDRED_E_INVALID, "option name");
    assert_fails_with(kindred_active_options_set_int(NULL, "k", 2), KINDRED_E_INVALID, "options");
    assert_fails_with(kindred_active_options_set_double(NULL, "k", 2), KINDRED_E_INVALID, "options");
    assert_fails_with(kindred_active_options_set_string(NULL, "k", "2"), KINDRED_E_INVALID, "options");
    assert_fails_with(kindred_active_options_option(NULL, "k", text, sizeof text), KINDRED_E_INVALID, "options");
    /* A refused setting leaves the value as it was. */
    assert_ok(kindred_active_options_option(a, "budget", text, sizeof text));
    assert_string_equal(text, "12");
    kindred_active_options_free(a);
    kindred_active_options_free(NULL);

    int64_t count = 0;
    assert_ok(kindred_active_option_count(&count));
    assert_int_equal(count, 4);
    assert_fails_with(kindred_active_option_count(NULL), KINDRED_E_INVALID, "count");
    const char *name = NULL, *def = NULL, *range = NULL, *doc = NULL;
    kindred_option_type type = KINDRED_OPTION_INT;
    assert_ok(kindred_active_option_info(0, &name, &type, &def, &range, &doc));
    assert_string_equal(name, "strategy");
    assert_int_equal(type, KINDRED_OPTION_CHOICE);
    assert_string_equal(def, "explore-consolidate");
    assert_string_equal(range, "explore-consolidate|explore|random");
    assert_true(strlen(doc) > 0);
    assert_ok(kindred_active_option_info(2, &name, NULL, NULL, NULL, NULL));
    assert_string_equal(name, "budget");
    assert_fails_with(kindred_active_option_info(count, &name, NULL, NULL, NULL, NULL), KINDRED_E_INDEX,
                      "out of range: active selection has 4 options");
    assert_fails_with(kindred_active_option_info(-1, &name, NULL, NULL, NULL, NULL), KINDRED_E_INDEX, "-1");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(copkmeans_satisfies_every_constraint),
        cmocka_unit_test(copkmeans_infeasible_names_point_and_constraint),
        cmocka_unit_test(copkmeans_contradiction_inside_component),
        cmocka_unit_test(copkmeans_k_larger_than_n),
        cmocka_unit_test(pckmeans_heavy_must_link_joins_blobs),
        cmocka_unit_test(pckmeans_rejects_sparse),
        cmocka_unit_test(mpckmeans_trace_never_increases),
        cmocka_unit_test(mpckmeans_learned_metric_beats_fixed_metric),
        cmocka_unit_test(mpckmeans_euclidean_rejects_sparse_cosine_accepts),
        cmocka_unit_test(mpckmeans_auto_distortion_chooses_full_when_it_predicts_better),
        cmocka_unit_test(mpckmeans_auto_distortion_keeps_diagonal_when_full_is_not_tried),
        cmocka_unit_test(mpckmeans_bad_input),
        cmocka_unit_test(soft_methods_accept_contradictions_and_any_weights),
        cmocka_unit_test(mpckmeans_same_labels_for_any_thread_count),
        cmocka_unit_test(active_explore_consolidate_finds_all_clusters),
        cmocka_unit_test(active_unknown_k_explores_only),
        cmocka_unit_test(active_bad_arguments),
        cmocka_unit_test(active_options_handle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
