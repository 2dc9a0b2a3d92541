/* TCS-GM through the public API: Figure 1 of Gopal & Yang (2014) (six bimodal
 * Gaussians, generated here): trained on clusters 4-6, TCS-GM recovers
 * clusters 1-3 where GM on the raw points fails; the learned metric is PSD
 * and transform() / predict() of new points agree with it, also after
 * save / load; SVD reduction, gamma selection; every bad-input error path;
 * rank-deficient data gives no NaN. */
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

static uint64_t rng_state = 88172645463325252ull;
static double uniform01(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return ((rng_state >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void) { return sqrt(-2.0 * log(uniform01())) * cos(6.283185307179586 * uniform01()); }

#define PER 300
#define N6 (6 * PER)

/* Six clusters along x (centres 0..5, sd 0.15), each bimodal along y (modes +-1.5, sd 0.2). */
static void figure1(double *x, int32_t *truth) {
    rng_state = 88172645463325252ull;
    for (int c = 0; c < 6; ++c)
        for (int i = 0; i < PER; ++i) {
            const int p = c * PER + i;
            x[2 * p] = c + 0.15 * gauss();
            x[2 * p + 1] = (i % 2 ? 1.5 : -1.5) + 0.2 * gauss();
            truth[p] = c;
        }
}

static kindred_side *side_with(const int32_t *labels, int64_t n) {
    kindred_side *s = NULL;
    assert_int_equal(kindred_side_new(&s, n), KINDRED_OK);
    assert_int_equal(kindred_side_set_partial_labels(s, labels, n), KINDRED_OK);
    return s;
}

static double nmi(const int32_t *a, const int32_t *b, int64_t n) {
    double v = -1;
    assert_int_equal(kindred_metric("nmi", a, b, n, &v), KINDRED_OK);
    return v;
}

static void figure1_tcs_gm_recovers_clusters_gm_fails(void **state) {
    (void)state;
    static double x[2 * N6];
    static int32_t truth[N6], partial[N6], labels[N6];
    figure1(x, truth);
    for (int p = 0; p < N6; ++p) partial[p] = truth[p] >= 3 ? truth[p] : -1;

    /* GM on the raw points of clusters 1-3. */
    kindred_model *gm = NULL;
    assert_int_equal(kindred_model_new(&gm, "gmm"), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(gm, "k", 3), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(gm, "n_init", 10), KINDRED_OK);
    assert_int_equal(kindred_model_fit_dense(gm, x, 3 * PER, 2, KINDRED_ROW_MAJOR, 2, NULL), KINDRED_OK);
    assert_int_equal(kindred_model_labels(gm, labels, N6), KINDRED_OK);
    const double nmi_gm = nmi(truth, labels, 3 * PER);
    kindred_model_free(gm);

    kindred_side *side = side_with(partial, N6);
    kindred_model *m = NULL;
    assert_int_equal(kindred_model_new(&m, "tcs-gm"), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "k", 3), KINDRED_OK);
    assert_int_equal(kindred_model_set_double(m, "gamma", 3e-5), KINDRED_OK);
    assert_int_equal(kindred_model_fit_dense(m, x, N6, 2, KINDRED_ROW_MAJOR, 2, side), KINDRED_OK);
    assert_int_equal(kindred_model_labels(m, labels, N6), KINDRED_OK);
    const double nmi_tcs = nmi(truth, labels, 3 * PER); /* the unlabelled clusters come first */
    {
        double am[4];
        int64_t its = 0;
        kindred_model_array(m, "metric", am, 4);
        kindred_model_summary(m, NULL, NULL, NULL, &its, NULL, NULL);
        printf("# Figure 1: NMI GM = %.3f, TCS-GM = %.3f (A = [%.3g %.3g; %.3g %.3g], %d FISTA iterations)\n", nmi_gm, nmi_tcs, am[0], am[1], am[2], am[3], (int)its);
    }
    assert_true(nmi_gm < 0.5);
    assert_true(nmi_tcs > 0.85);
    /* Labelled points keep their class; new clusters are numbered after the largest class id. */
    for (int p = 3 * PER; p < N6; ++p) assert_int_equal(labels[p], truth[p]);
    for (int p = 0; p < 3 * PER; ++p) assert_true(labels[p] >= 6 && labels[p] < 9);
    int64_t clusters = 0, iterations = 0;
    int converged = 0;
    assert_int_equal(kindred_model_summary(m, NULL, NULL, &clusters, &iterations, &converged, NULL), KINDRED_OK);
    assert_int_equal(clusters, 6);
    assert_true(iterations >= 1);

    /* The metric is PSD (2 x 2: diagonal >= 0 and determinant >= 0) and stretches x against y. */
    double a[4], l[4];
    assert_int_equal(kindred_model_array(m, "metric", a, 4), KINDRED_OK);
    assert_int_equal(kindred_model_array(m, "transform", l, 4), KINDRED_OK);
    assert_true(a[0] >= 0 && a[3] >= 0 && a[0] * a[3] - a[1] * a[2] >= -1e-9);
    assert_true(a[0] > 5 * a[3]);
    /* A = L^T L. */
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c)
            assert_true(fabs(a[r * 2 + c] - (l[r] * l[c] + l[2 + r] * l[2 + c])) < 1e-9 * (1 + fabs(a[0])));

    /* transform() of new points is L x; predict() gives the nearest centre's label. */
    int64_t dim = 0;
    assert_int_equal(kindred_model_transform_dim(m, &dim), KINDRED_OK);
    assert_int_equal(dim, 2);
    const double q[4] = {4.0, 1.4, 5.05, -1.6};
    double z[4];
    assert_int_equal(kindred_model_transform_dense(m, q, 2, 2, KINDRED_ROW_MAJOR, 2, z, 4), KINDRED_OK);
    for (int i = 0; i < 2; ++i)
        for (int r = 0; r < 2; ++r)
            assert_true(fabs(z[i * 2 + r] - (l[r * 2] * q[i * 2] + l[r * 2 + 1] * q[i * 2 + 1])) < 1e-9 * (1 + fabs(z[i * 2 + r])));
    int32_t pred[2];
    assert_int_equal(kindred_model_predict_dense(m, q, 2, 2, KINDRED_ROW_MAJOR, 2, pred, 2), KINDRED_OK);
    assert_int_equal(pred[0], 4);
    assert_int_equal(pred[1], 5);

    /* save / load keeps transform and predict. */
    const char *path = "test_tcs_model.kdm";
    assert_int_equal(kindred_model_save(m, path), KINDRED_OK);
    kindred_model *back = NULL;
    assert_int_equal(kindred_model_load(&back, path), KINDRED_OK);
    double z2[4];
    int32_t pred2[2];
    assert_int_equal(kindred_model_transform_dense(back, q, 2, 2, KINDRED_ROW_MAJOR, 2, z2, 4), KINDRED_OK);
    assert_int_equal(kindred_model_predict_dense(back, q, 2, 2, KINDRED_ROW_MAJOR, 2, pred2, 2), KINDRED_OK);
    assert_memory_equal(z, z2, sizeof z);
    assert_memory_equal(pred, pred2, sizeof pred);
    kindred_model_free(back);
    remove(path);
    kindred_model_free(m);
    kindred_side_free(side);
}

static void l2_regulariser_collapses_y(void **state) {
    (void)state;
    static double x[2 * N6];
    static int32_t truth[N6], partial[N6], labels[N6];
    figure1(x, truth);
    for (int p = 0; p < N6; ++p) partial[p] = truth[p] >= 3 ? truth[p] : -1;
    kindred_side *side = side_with(partial, N6);
    const char *regs[] = {"frobenius", "nuclear", "logdet", "l1-identity"};
    for (int r = 0; r < 4; ++r) {
        kindred_model *m = NULL;
        assert_int_equal(kindred_model_new(&m, "tcs-gm"), KINDRED_OK);
        assert_int_equal(kindred_model_set_int(m, "k", 3), KINDRED_OK);
        assert_int_equal(kindred_model_set_string(m, "regularizer", regs[r]), KINDRED_OK);
        assert_int_equal(kindred_model_set_double(m, "gamma", 1e-3), KINDRED_OK);
        assert_int_equal(kindred_model_fit_dense(m, x, N6, 2, KINDRED_ROW_MAJOR, 2, side), KINDRED_OK);
        assert_int_equal(kindred_model_labels(m, labels, N6), KINDRED_OK);
        double a[4];
        assert_int_equal(kindred_model_array(m, "metric", a, 4), KINDRED_OK);
        for (int e = 0; e < 4; ++e) assert_false(isnan(a[e]));
        assert_true(a[0] * a[3] - a[1] * a[2] >= -1e-9 && a[0] >= 0 && a[3] >= 0);
        const double v = nmi(truth, labels, 3 * PER);
        printf("# %s: NMI = %.3f, A = [%.3g %.3g; %.3g %.3g]\n", regs[r], v, a[0], a[1], a[2], a[3]);
        if (r == 0) assert_true(v > 0.9); /* ||A||^2 pulls A_yy to 0: all points collapse onto the x axis */
        kindred_model_free(m);
    }
    kindred_side_free(side);
}

static void gamma_selection_and_svd_reduction(void **state) {
    (void)state;
    /* 8 classes in d = 240 (> svd_threshold 200): 6 labelled, 2 of them held out for gamma. */
    enum { C = 8, P = 30, N = C * P, D = 240 };
    static double x[N * D];
    static int32_t truth[N], partial[N], labels[N];
    rng_state = 12345;
    double centre[C][D];
    for (int c = 0; c < C; ++c)
        for (int j = 0; j < D; ++j) centre[c][j] = 3.0 * gauss();
    for (int p = 0; p < N; ++p) {
        truth[p] = p % C;
        for (int j = 0; j < D; ++j) x[p * D + j] = centre[truth[p]][j] + gauss();
        partial[p] = truth[p] < 6 ? truth[p] : -1;
    }
    kindred_side *side = side_with(partial, N);
    kindred_model *m = NULL;
    assert_int_equal(kindred_model_new(&m, "tcs-gm"), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "k", 2), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "validation_classes", 2), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "gamma_grid", 3), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "svd_dim", 10), KINDRED_OK);
    assert_int_equal(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, side), KINDRED_OK);
    int64_t rows = 0, cols = 0, dim = 0;
    assert_int_equal(kindred_model_array_shape(m, "svd_basis", &rows, &cols), KINDRED_OK);
    assert_int_equal(rows, D);
    assert_int_equal(cols, 10);
    assert_int_equal(kindred_model_array_shape(m, "gamma_scores", &rows, &cols), KINDRED_OK);
    assert_int_equal(rows, 3);
    assert_int_equal(cols, 2);
    double scores[6], gamma = -1;
    assert_int_equal(kindred_model_array(m, "gamma_scores", scores, 6), KINDRED_OK);
    assert_int_equal(kindred_model_array(m, "gamma", &gamma, 1), KINDRED_OK);
    int found = 0;
    for (int g = 0; g < 3; ++g) {
        assert_true(scores[2 * g + 1] >= 0 && scores[2 * g + 1] <= 1 + 1e-12);
        if (scores[2 * g] == gamma) found = 1;
    }
    assert_true(found);
    assert_int_equal(kindred_model_transform_dim(m, &dim), KINDRED_OK);
    assert_int_equal(dim, 10);
    assert_int_equal(kindred_model_labels(m, labels, N), KINDRED_OK);
    /* Well separated blobs: the two unlabelled classes are found. */
    int32_t t_u[2 * P], l_u[2 * P];
    int q = 0;
    for (int p = 0; p < N; ++p)
        if (partial[p] < 0) { t_u[q] = truth[p]; l_u[q] = labels[p]; ++q; }
    assert_true(nmi(t_u, l_u, q) > 0.9);
    /* predict on new points of the original dimension goes through the SVD basis. */
    int32_t pred[N];
    assert_int_equal(kindred_model_predict_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, pred, N), KINDRED_OK);
    int agree = 0;
    for (int p = 0; p < N; ++p) agree += pred[p] == labels[p];
    assert_true(agree > 0.95 * N);
    kindred_model_free(m);
    kindred_side_free(side);
}

static void rank_deficient_data_gives_no_nan(void **state) {
    (void)state;
    /* Column 2 is a copy of column 0, column 3 is constant, and a huge nuclear weight drives A to 0. */
    enum { N = 60, D = 4 };
    double x[N * D];
    int32_t partial[N], labels[N];
    rng_state = 99;
    for (int p = 0; p < N; ++p) {
        x[p * D] = (p % 3) + 0.1 * gauss();
        x[p * D + 1] = gauss();
        x[p * D + 2] = x[p * D];
        x[p * D + 3] = 7.0;
        partial[p] = p < 40 ? p % 2 : -1;
    }
    kindred_side *side = side_with(partial, N);
    const char *regs[] = {"frobenius-identity", "nuclear", "logdet", "frobenius", "l1-identity"};
    for (int r = 0; r < 5; ++r)
        for (int big = 0; big < 2; ++big) {
            kindred_model *m = NULL;
            assert_int_equal(kindred_model_new(&m, "tcs-gm"), KINDRED_OK);
            assert_int_equal(kindred_model_set_int(m, "k", 2), KINDRED_OK);
            assert_int_equal(kindred_model_set_string(m, "regularizer", regs[r]), KINDRED_OK);
            assert_int_equal(kindred_model_set_double(m, "gamma", big ? 1e6 : 0.0), KINDRED_OK);
            assert_int_equal(kindred_model_set_int(m, "max_iter", 50), KINDRED_OK);
            assert_int_equal(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, side), KINDRED_OK);
            double a[D * D], z[N * D], obj = 0;
            assert_int_equal(kindred_model_array(m, "metric", a, D * D), KINDRED_OK);
            for (int e = 0; e < D * D; ++e) assert_false(isnan(a[e]) || isinf(a[e]));
            assert_int_equal(kindred_model_transform_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, z, N * D), KINDRED_OK);
            for (int e = 0; e < N * D; ++e) assert_false(isnan(z[e]));
            assert_int_equal(kindred_model_summary(m, NULL, NULL, NULL, NULL, NULL, &obj), KINDRED_OK);
            assert_false(isnan(obj));
            assert_int_equal(kindred_model_labels(m, labels, N), KINDRED_OK);
            for (int p = 40; p < N; ++p) assert_true(labels[p] == 2 || labels[p] == 3);
            kindred_model_free(m);
        }
    kindred_side_free(side);
}

static kindred_status fit_with(const char *name, double value, const int32_t *partial, int64_t n, const double *x,
                               int64_t d) {
    kindred_model *m = NULL;
    assert_int_equal(kindred_model_new(&m, "tcs-gm"), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "k", 2), KINDRED_OK);
    if (name) assert_int_equal(kindred_model_set_double(m, name, value), KINDRED_OK);
    kindred_side *side = partial ? side_with(partial, n) : NULL;
    const kindred_status s = kindred_model_fit_dense(m, x, n, d, KINDRED_ROW_MAJOR, d, side);
    if (s != KINDRED_OK) assert_true(strlen(kindred_last_error()) > 0);
    kindred_side_free(side);
    kindred_model_free(m);
    return s;
}

static void bad_input_is_refused(void **state) {
    (void)state;
    enum { N = 20, D = 3 };
    double x[N * D];
    int32_t lab[N];
    for (int e = 0; e < N * D; ++e) x[e] = sin(e * 1.7);
    /* no side information at all; side without partial labels */
    assert_int_equal(fit_with(NULL, 0, NULL, N, x, D), KINDRED_E_INVALID);
    {
        kindred_model *m = NULL;
        kindred_side *s = NULL;
        assert_int_equal(kindred_model_new(&m, "tcs-gm"), KINDRED_OK);
        assert_int_equal(kindred_side_new(&s, N), KINDRED_OK);
        assert_int_equal(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s), KINDRED_E_INVALID);
        kindred_side_free(s);
        kindred_model_free(m);
    }
    /* no labelled point */
    for (int p = 0; p < N; ++p) lab[p] = -1;
    assert_int_equal(fit_with(NULL, 0, lab, N, x, D), KINDRED_E_INVALID);
    /* a single labelled cluster */
    for (int p = 0; p < 10; ++p) lab[p] = 4;
    assert_int_equal(fit_with(NULL, 0, lab, N, x, D), KINDRED_E_INVALID);
    /* a label out of range (class ids must be < n) */
    lab[0] = 0;
    lab[1] = N;
    assert_int_equal(fit_with(NULL, 0, lab, N, x, D), KINDRED_E_INDEX);
    lab[1] = 1;
    assert_int_equal(fit_with(NULL, 0, lab, N, x, D), KINDRED_OK);
    /* k larger than the unlabelled points */
    assert_int_equal(fit_with("k", 11, lab, N, x, D), KINDRED_E_DIMENSION);
    /* SVD dimension not below d when reduction applies */
    {
        kindred_model *m = NULL;
        kindred_side *s = side_with(lab, N);
        assert_int_equal(kindred_model_new(&m, "tcs-gm"), KINDRED_OK);
        assert_int_equal(kindred_model_set_int(m, "k", 2), KINDRED_OK);
        assert_int_equal(kindred_model_set_int(m, "svd_threshold", 2), KINDRED_OK);
        assert_int_equal(kindred_model_set_int(m, "svd_dim", 3), KINDRED_OK);
        assert_int_equal(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s), KINDRED_E_DIMENSION);
        assert_int_equal(kindred_model_set_int(m, "svd_dim", 2), KINDRED_OK);
        assert_int_equal(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, s), KINDRED_OK);
        kindred_side_free(s);
        kindred_model_free(m);
    }
    /* validation_classes needs 2 held out and 2 left */
    assert_int_equal(fit_with("validation_classes", 2, lab, N, x, D), KINDRED_E_INVALID);
    /* gamma < 0 and an unknown regulariser are refused when set */
    kindred_model *m = NULL;
    assert_int_equal(kindred_model_new(&m, "tcs-gm"), KINDRED_OK);
    assert_int_equal(kindred_model_set_double(m, "gamma", -1.0), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_string(m, "regularizer", "l3"), KINDRED_E_INVALID);
    kindred_model_free(m);
}

static void tcs_vmf_dense_and_csr(void **state) {
    (void)state;
    /* Six directions in d = 5; each point is a direction times a random length plus noise. */
    enum { C = 6, P = 40, N = C * P, D = 5 };
    static double x[N * D], z[N * D];
    static int32_t truth[N], partial[N], labels[N], labels_csr[N];
    static int64_t indptr[N + 1], indices[N * D];
    double dir[C][D];
    rng_state = 4242;
    for (int c = 0; c < C; ++c)
        for (int j = 0; j < D; ++j) dir[c][j] = gauss();
    for (int p = 0; p < N; ++p) {
        truth[p] = p % C;
        partial[p] = truth[p] < 4 ? truth[p] : -1;
        const double len = 1.0 + 9.0 * uniform01();
        for (int j = 0; j < D; ++j) x[p * D + j] = len * (dir[truth[p]][j] + 0.1 * gauss());
        indptr[p] = (int64_t)p * D;
        for (int j = 0; j < D; ++j) indices[p * D + j] = j;
    }
    indptr[N] = (int64_t)N * D;
    kindred_side *side = side_with(partial, N);
    kindred_model *m = NULL, *mc = NULL;
    assert_int_equal(kindred_model_new(&m, "tcs-vmf"), KINDRED_OK);
    assert_int_equal(kindred_model_new(&mc, "tcs-vmf"), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "k", 2), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(mc, "k", 2), KINDRED_OK);
    assert_int_equal(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, side), KINDRED_OK);
    assert_int_equal(kindred_model_fit_csr(mc, N, D, indptr, indices, x, side), KINDRED_OK);
    assert_int_equal(kindred_model_labels(m, labels, N), KINDRED_OK);
    assert_int_equal(kindred_model_labels(mc, labels_csr, N), KINDRED_OK);
    assert_memory_equal(labels, labels_csr, sizeof labels);
    int32_t t_u[2 * P], l_u[2 * P];
    int q = 0;
    for (int p = 0; p < N; ++p)
        if (partial[p] < 0) { t_u[q] = truth[p]; l_u[q] = labels[p]; ++q; }
        else assert_int_equal(labels[p], truth[p]);
    printf("# tcs-vmf: NMI of the two unlabelled classes = %.3f\n", nmi(t_u, l_u, q));
    assert_true(nmi(t_u, l_u, q) > 0.9);
    /* transform() gives unit vectors; predict() of the training points agrees with the fit. */
    int64_t dim = 0;
    assert_int_equal(kindred_model_transform_dim(m, &dim), KINDRED_OK);
    assert_int_equal(dim, D);
    assert_int_equal(kindred_model_transform_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, z, N * D), KINDRED_OK);
    for (int p = 0; p < N; ++p) {
        double s = 0;
        for (int j = 0; j < D; ++j) s += z[p * D + j] * z[p * D + j];
        assert_true(fabs(s - 1.0) < 1e-9);
    }
    int32_t pred[N];
    assert_int_equal(kindred_model_predict_csr(mc, N, D, indptr, indices, x, pred, N), KINDRED_OK);
    int agree = 0;
    for (int p = 0; p < N; ++p) agree += pred[p] == labels[p];
    assert_true(agree > 0.95 * N);
    double kappa = 0;
    assert_int_equal(kindred_model_array(m, "kappa", &kappa, 1), KINDRED_OK);
    assert_true(kappa > 0 && isfinite(kappa));
    /* the same bad-input checks as tcs-gm */
    for (int p = 0; p < N; ++p) partial[p] = p < P ? 0 : -1;
    kindred_side *one = side_with(partial, N);
    assert_int_equal(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, one), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID);
    kindred_side_free(one);
    kindred_model_free(m);
    kindred_model_free(mc);
    kindred_side_free(side);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(figure1_tcs_gm_recovers_clusters_gm_fails),
        cmocka_unit_test(l2_regulariser_collapses_y),
        cmocka_unit_test(gamma_selection_and_svd_reduction),
        cmocka_unit_test(rank_deficient_data_gives_no_nan),
        cmocka_unit_test(bad_input_is_refused),
        cmocka_unit_test(tcs_vmf_dense_and_csr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
