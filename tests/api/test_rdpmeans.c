/* RDP-means through the public header: known answers with pairs, agreement
 * with DP-means without pairs, the objective (20) with fixed xi never
 * increases, the multinomial (KL) divergence on dense and CSR counts,
 * predict, determinism, and every bad-input path of the issue. */
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
#include "../../bench/rdpmeans_passes.h"

#define OK(call) assert_int_equal((call), KINDRED_OK)

/* Iris from the bundled CSV (150 x 4) and its labels 0, 1, 2. */
static int load_iris(double *x, int32_t *y) {
    char path[1024];
    snprintf(path, sizeof path, "%s/iris.csv", KINDRED_TEST_DATA);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[256];
    if (!fgets(line, sizeof line, f)) { fclose(f); return 0; }
    int n = 0;
    while (n < 150 && fgets(line, sizeof line, f)) {
        char name[64];
        if (sscanf(line, "%lf,%lf,%lf,%lf,%63s", &x[4 * n], &x[4 * n + 1], &x[4 * n + 2], &x[4 * n + 3], name) != 5) break;
        y[n] = strstr(name, "setosa") ? 0 : strstr(name, "versicolor") ? 1 : 2;
        ++n;
    }
    fclose(f);
    return n;
}

/* A new side-information handle with pairs sampled from the iris labels y
 * (kindred_sample_pairs: a fraction rate of all pairs, answers flipped with
 * probability noise). */
static kindred_side *iris_pairs(const int32_t *y, double rate, double noise, uint64_t seed) {
    kindred_side *side = NULL;
    OK(kindred_side_new(&side, 150));
    OK(kindred_sample_pairs(side, y, 150, -1, rate, noise, seed));
    return side;
}

/* The per-pass figures of the last fit of a model made by new_rdp(), from
 * its log lines (every fit of this file parses them; none may be malformed). */
static double pass_computed[400], pass_linked[400], pass_rows[400];
static rdpmeans_passes passes = {0, 400, pass_computed, pass_linked, pass_rows, 0};

static kindred_model *new_rdp(void) {
    kindred_model *m = NULL;
    OK(kindred_model_new(&m, "rdpmeans"));
    passes.count = 0;
    OK(kindred_model_set_log(m, rdpmeans_passes_log, &passes));
    return m;
}

/* Fits m to iris (x: 150 x 4) with side; its labels, and its objective
 * trace (at most 400 entries) into trace. Returns the trace's length. */
/* Fits m to the n x d row-major x, and returns the number of iterations,
 * with the labels and the objective trace (at most 400 entries). */
static int64_t fit_with_trace(kindred_model *m, const double *x, int64_t n, int64_t d, kindred_side *side,
                              int32_t *labels, double *trace) {
    int64_t length = 0, cols = 0;
    OK(kindred_model_fit_dense(m, x, n, d, KINDRED_ROW_MAJOR, d, side));
    OK(kindred_model_labels(m, labels, n));
    OK(kindred_model_array_shape(m, "objective_trace", &length, &cols));
    assert_true(length <= 400);
    OK(kindred_model_array(m, "objective_trace", trace, 400));
    assert_int_equal(passes.malformed, 0);
    assert_int_equal(passes.count, length); /* one pass record per iteration */
    return length;
}

static int64_t fit_iris_with_trace(kindred_model *m, const double *x, kindred_side *side, int32_t *labels,
                                   double *trace) {
    return fit_with_trace(m, x, 150, 4, side, labels, trace);
}

/* Two groups that are one blob for DP-means (lambda larger than the whole
 * spread) are split by may-links inside and may-not-links across, and the
 * split is exactly the groups. */
static void links_split_one_blob(void **state) {
    (void)state;
    enum { N = 20 };
    double x[N];
    for (int i = 0; i < N; ++i) x[i] = 0.1 * i;  /* 0 .. 1.9: one blob */
    kindred_side *side = NULL;
    OK(kindred_side_new(&side, N));
    int64_t pi[80], pj[80];
    double pv[80];
    int np = 0;
    for (int i = 0; i < 9; ++i) { pi[np] = i; pj[np] = i + 1; pv[np++] = 1.0; }            /* chain in A */
    for (int i = 10; i < 19; ++i) { pi[np] = i; pj[np] = i + 1; pv[np++] = 1.0; }          /* chain in B */
    for (int i = 0; i < 10; ++i) /* across: each point has 4 may-not-links, at most 2 may-links */
        for (int t = 0; t < 4; ++t) { pi[np] = i; pj[np] = 10 + (i + t) % 10; pv[np++] = -1.0; }
    OK(kindred_side_add_pairs(side, pi, pj, pv, np));

    kindred_model *m = new_rdp();
    OK(kindred_model_set_double(m, "lambda", 4.0));
    OK(kindred_model_fit_dense(m, x, N, 1, KINDRED_ROW_MAJOR, 1, NULL));
    int64_t k = 0;
    OK(kindred_model_summary(m, NULL, NULL, &k, NULL, NULL, NULL));
    assert_int_equal(k, 1); /* without pairs: DP-means, one cluster */

    OK(kindred_model_fit_dense(m, x, N, 1, KINDRED_ROW_MAJOR, 1, side));
    int converged = 0;
    OK(kindred_model_summary(m, NULL, NULL, &k, NULL, &converged, NULL));
    assert_int_equal(k, 2);
    assert_true(converged);
    int32_t labels[N];
    OK(kindred_model_labels(m, labels, N));
    for (int i = 0; i < 10; ++i) assert_int_equal(labels[i], labels[0]);
    for (int i = 10; i < N; ++i) assert_int_equal(labels[i], labels[10]);
    assert_int_not_equal(labels[0], labels[10]);

    /* centres are the group means; predict takes the nearest. */
    double centers[2];
    OK(kindred_model_array(m, "centers", centers, 2));
    assert_true(fabs(centers[labels[0]] - 0.45) < 1e-12);
    assert_true(fabs(centers[labels[10]] - 1.45) < 1e-12);
    double fresh[2] = {-3.0, 5.0};
    int32_t pred[2];
    OK(kindred_model_predict_dense(m, fresh, 2, 1, KINDRED_ROW_MAJOR, 1, pred, 2));
    assert_int_equal(pred[0], labels[0]);
    assert_int_equal(pred[1], labels[10]);
    kindred_model_free(m);
    kindred_side_free(side);
}

/* Separated blobs with correct pairs: the known partition, found with lambda
 * from the k hint. */
static void separated_blobs_with_pairs(void **state) {
    (void)state;
    enum { N = 60 };
    double x[2 * N];
    int32_t truth[N];
    srand(7);
    for (int i = 0; i < N; ++i) {
        truth[i] = i % 3;
        x[2 * i] = 10.0 * truth[i] + (rand() / (double)RAND_MAX - 0.5);
        x[2 * i + 1] = -5.0 * truth[i] + (rand() / (double)RAND_MAX - 0.5);
    }
    kindred_side *side = NULL;
    OK(kindred_side_new(&side, N));
    OK(kindred_sample_pairs(side, truth, N, 40, 0.0, 0.0, 3));
    kindred_model *m = new_rdp();
    OK(kindred_model_set_int(m, "k", 3));
    OK(kindred_model_fit_dense(m, x, N, 2, KINDRED_ROW_MAJOR, 2, side));
    int32_t labels[N];
    OK(kindred_model_labels(m, labels, N));
    double ari = 0;
    OK(kindred_metric("ari", truth, labels, N, &ari));
    assert_true(ari == 1.0);
    kindred_model_free(m);
    kindred_side_free(side);
}

/* No side information: RDP-means is DP-means (section 4.5, xi irrelevant). */
static void without_pairs_equals_dpmeans(void **state) {
    (void)state;
    double x[600];
    int32_t y[150];
    assert_int_equal(load_iris(x, y), 150);
    int32_t a[150], b[150];
    kindred_model *dp = NULL, *rdp = new_rdp();
    OK(kindred_model_new(&dp, "dpmeans"));
    OK(kindred_model_set_int(dp, "k", 3));
    OK(kindred_model_set_int(rdp, "k", 3));
    OK(kindred_model_fit_dense(dp, x, 150, 4, KINDRED_ROW_MAJOR, 4, NULL));
    OK(kindred_model_fit_dense(rdp, x, 150, 4, KINDRED_ROW_MAJOR, 4, NULL));
    OK(kindred_model_labels(dp, a, 150));
    OK(kindred_model_labels(rdp, b, 150));
    double ari = 0;
    OK(kindred_metric("ari", a, b, 150, &ari));
    assert_true(ari == 1.0);
    double l1 = 0, l2 = 0;
    OK(kindred_model_array(dp, "lambda", &l1, 1));
    OK(kindred_model_array(rdp, "lambda", &l2, 1));
    assert_true(l1 == l2);
    kindred_model_free(dp);
    kindred_model_free(rdp);
}

/* Theorem 4: for fixed xi (xi_rate = 1) no iteration increases objective
 * (20); checked with noisy pairs, where links and distances disagree. */
static void objective_never_increases_for_fixed_xi(void **state) {
    (void)state;
    double x[600];
    int32_t y[150];
    assert_int_equal(load_iris(x, y), 150);
    const double xis[3] = {0.05, 0.5, 5.0};
    for (int t = 0; t < 3; ++t) {
        kindred_side *side = iris_pairs(y, 0.05, 0.2, 11 + t);
        kindred_model *m = new_rdp();
        OK(kindred_model_set_int(m, "k", 3));
        OK(kindred_model_set_double(m, "xi_0", xis[t]));
        OK(kindred_model_set_double(m, "xi_rate", 1.0));
        OK(kindred_model_set_int(m, "stable_iterations", 2));
        OK(kindred_model_fit_dense(m, x, 150, 4, KINDRED_ROW_MAJOR, 4, side));
        int64_t rows = 0, cols = 0;
        OK(kindred_model_array_shape(m, "objective_trace", &rows, &cols));
        assert_true(rows >= 2);
        double trace[400];
        assert_true(rows <= 400);
        OK(kindred_model_array(m, "objective_trace", trace, 400));
        for (int64_t i = 1; i < rows; ++i) assert_true(trace[i] <= trace[i - 1] + 1e-9 * fabs(trace[i - 1]));
        double objective = 0;
        OK(kindred_model_summary(m, NULL, NULL, NULL, NULL, NULL, &objective));
        assert_true(objective == trace[rows - 1]);
        kindred_model_free(m);
        kindred_side_free(side);
    }
}

/* In passes after a pass in which nothing moved, the points whose
 * certificate proves that they keep their cluster are not computed
 * (stable.hpp): the logged pass_computed is the fraction of blocks computed
 * (1 for a full pass); the first pass and the one right after a change are
 * always full; the fit still stops after stable_iterations unchanged passes,
 * and a certified pass's objective follows eq. (20) with its own xi (the
 * divergence and link totals of the last pass).
 * With skip_certified off every pass is computed, and labels and the whole
 * objective trace are bitwise the same (several pair samples and noise
 * levels, xi annealed or capped). */
static void stable_passes_are_certified(void **state) {
    (void)state;
    double x[600];
    int32_t y[150];
    assert_int_equal(load_iris(x, y), 150);
    kindred_side *side = iris_pairs(y, 0.03, 0.1, 5);
    kindred_model *m = new_rdp();
    OK(kindred_model_set_int(m, "k", 3));
    OK(kindred_model_fit_dense(m, x, 150, 4, KINDRED_ROW_MAJOR, 4, side));
    int64_t rows = 0, cols = 0, it = 0;
    int converged = 0;
    OK(kindred_model_summary(m, NULL, NULL, NULL, &it, &converged, NULL));
    assert_true(converged);
    /* The per-pass figures are log records, not model arrays. */
    assert_int_equal(kindred_model_array_shape(m, "pass_computed", &rows, &cols), KINDRED_E_NOT_FOUND);
    assert_int_equal(passes.malformed, 0);
    rows = passes.count;
    assert_int_equal(rows, it);
    assert_true(rows <= 400);
    const double *computed = pass_computed;
    double trace[400], xi[400], clusters[400];
    OK(kindred_model_array(m, "objective_trace", trace, 400));
    OK(kindred_model_array(m, "xi_trace", xi, 400));
    OK(kindred_model_array(m, "clusters_trace", clusters, 400));
    assert_true(computed[0] == 1.0);
    int64_t skipped = 0;
    for (int64_t t = 1; t < rows; ++t) {
        assert_true(computed[t] >= 0.0 && computed[t] <= 1.0);
        if (computed[t] == 1.0) continue;
        ++skipped;
        assert_true(t >= 2);
        assert_true(clusters[t] == clusters[t - 1]);
        /* obj = divergences + lambda K + xi * links: the last two passes of
         * the same state differ only through xi, linearly. */
        if (computed[t - 1] < 1.0 && xi[t - 1] != xi[t - 2]) {
            const double slope = (trace[t - 1] - trace[t - 2]) / (xi[t - 1] - xi[t - 2]);
            const double expect = trace[t - 1] + slope * (xi[t] - xi[t - 1]);
            assert_true(fabs(trace[t] - expect) <= 1e-9 * (fabs(trace[t]) + fabs(slope * xi[t]) + 1.0));
        }
    }
    assert_true(skipped >= 10); /* most of the 20 stable passes */
    kindred_model_free(m);
    kindred_side_free(side);

    int64_t skipped_total = 0;
    for (int trial = 0; trial < 12; ++trial) {
        side = iris_pairs(y, 0.01 + 0.01 * (trial % 5), 0.05 * (trial % 4), 20 + trial);
        int32_t labels[2][150];
        double traces[2][400];
        int64_t lengths[2];
        for (int on = 0; on < 2; ++on) {
            m = new_rdp();
            OK(kindred_model_set_int(m, "k", 3 + trial % 3));
            if (trial % 3 == 2) OK(kindred_model_set_double(m, "xi_max", 2.0));
            /* Bitwise traces: the center bounds sum other roundings of the
             * same divergences (center_bounds_change_only_rounding). */
            OK(kindred_model_set_string(m, "center_bounds", "false"));
            OK(kindred_model_set_string(m, "skip_certified", on ? "true" : "false"));
            lengths[on] = fit_iris_with_trace(m, x, side, labels[on], traces[on]);
            for (int64_t t = 0; t < lengths[on]; ++t) {
                if (!on) assert_true(computed[t] == 1.0);
                skipped_total += computed[t] < 1.0;
            }
            kindred_model_free(m);
        }
        assert_int_equal(lengths[0], lengths[1]);
        assert_memory_equal(labels[0], labels[1], sizeof labels[0]);
        assert_memory_equal(traces[0], traces[1], (size_t)lengths[0] * sizeof(double));
        kindred_side_free(side);
    }
    assert_true(skipped_total >= 100);
}

/* 3000 points (6 dimensions) of eight overlapping blobs (unit variance,
 * centres 1.5 apart on the corners of a cube) and their blob labels. */
enum { kBlobN = 3000, kBlobD = 6 };
static void make_overlapping_blobs(double *blobs, int32_t *blob_y) {
    uint64_t s = 12345;
    for (int i = 0; i < kBlobN; ++i) {
        blob_y[i] = i % 8;
        for (int j = 0; j < kBlobD; ++j) {
            double u = 0.0; /* about normal: a sum of 12 uniforms - 6 */
            for (int r = 0; r < 12; ++r) {
                s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                u += (double)(s >> 11) / 9007199254740992.0;
            }
            blobs[i * kBlobD + j] = (u - 6.0) + 1.5 * (double)((blob_y[i] >> (j % 3)) & 1);
        }
    }
}

/* The centres are the means of their clusters' points (section 4.4), also
 * when a pass keeps the cluster sums through its moves instead of summing
 * them afresh: to 1e-12, under the squared Euclidean divergence and under
 * KL (the mean of the smoothed, normalised rows), over fits long enough for
 * many passes with few moves. */
static void centers_are_the_means_of_their_points(void **state) {
    (void)state;
    static double blobs[kBlobN * kBlobD], mapped[kBlobN * kBlobD];
    static int32_t blob_y[kBlobN], labels[kBlobN];
    make_overlapping_blobs(blobs, blob_y);
    for (int64_t v = 0; v < kBlobN * kBlobD; ++v) blobs[v] += 10.0; /* counts for KL: positive */
    for (int trial = 0; trial < 6; ++trial) {
        const int kl = trial % 2;
        const double smoothing = 0.3;
        for (int i = 0; i < kBlobN; ++i) { /* the points in the mean space */
            double z = 0.0;
            for (int j = 0; j < kBlobD; ++j) z += blobs[i * kBlobD + j] + smoothing;
            for (int j = 0; j < kBlobD; ++j)
                mapped[i * kBlobD + j] = kl ? (blobs[i * kBlobD + j] + smoothing) / z : blobs[i * kBlobD + j];
        }
        kindred_side *side = NULL;
        OK(kindred_side_new(&side, kBlobN));
        OK(kindred_sample_pairs(side, blob_y, kBlobN, (trial / 2 + 1) * kBlobN, 0.0, 0.1 * trial, 90 + trial));
        kindred_model *m = new_rdp();
        OK(kindred_model_set_int(m, "k", 8));
        OK(kindred_model_set_double(m, "xi_0", kl ? 1e-6 : 1e-3));
        OK(kindred_model_set_int(m, "max_iter", 60));
        if (kl) OK(kindred_model_set_string(m, "divergence", "kl"));
        OK(kindred_model_fit_dense(m, blobs, kBlobN, kBlobD, KINDRED_ROW_MAJOR, kBlobD, side));
        OK(kindred_model_labels(m, labels, kBlobN));
        int64_t k = 0, cols = 0;
        OK(kindred_model_array_shape(m, "centers", &k, &cols));
        assert_int_equal(cols, kBlobD);
        assert_true(k >= 2 && k <= 200);
        static double centers[200 * kBlobD], mean[200 * kBlobD];
        static int64_t count[200];
        OK(kindred_model_array(m, "centers", centers, 200 * kBlobD));
        memset(mean, 0, sizeof mean);
        memset(count, 0, sizeof count);
        for (int i = 0; i < kBlobN; ++i) {
            assert_true(labels[i] >= 0 && labels[i] < k);
            ++count[labels[i]];
            for (int j = 0; j < kBlobD; ++j) mean[labels[i] * kBlobD + j] += mapped[i * kBlobD + j];
        }
        for (int64_t c = 0; c < k; ++c) {
            assert_true(count[c] > 0); /* no empty cluster is kept */
            for (int j = 0; j < kBlobD; ++j) {
                const double expect = mean[c * kBlobD + j] / (double)count[c];
                assert_true(fabs(centers[c * kBlobD + j] - expect) <= 1e-12 * (1.0 + fabs(expect)));
            }
        }
        kindred_model_free(m);
        kindred_side_free(side);
    }
}

/* center_bounds skips the divergences of points whose distance bounds prove
 * they keep their clusters. The labels must be bitwise those of computing
 * every point, with and without link bounds and certified passes; the
 * objective agrees to rounding (a kept point's divergence to its centre is
 * computed alone, not in the block product). On iris, and on 3000 points of
 * eight overlapping blobs (several blocks of rows, moves in many passes).
 * The logged pass_rows says which share of the points a pass computed. */
static void center_bounds_change_only_rounding(void **state) {
    (void)state;
    static double blobs[kBlobN * kBlobD];
    static int32_t blob_y[kBlobN];
    make_overlapping_blobs(blobs, blob_y);
    double iris[600];
    int32_t iris_y[150];
    assert_int_equal(load_iris(iris, iris_y), 150);
    double skipped = 0.0;
    for (int trial = 0; trial < 12; ++trial) {
        const int on_blobs = trial >= 6;
        const int64_t n = on_blobs ? kBlobN : 150, d = on_blobs ? kBlobD : 4;
        kindred_side *side = NULL;
        OK(kindred_side_new(&side, n));
        OK(kindred_sample_pairs(side, on_blobs ? blob_y : iris_y, n, on_blobs ? 10 * n : -1,
                                on_blobs ? 0.0 : 0.02 + 0.01 * trial, 0.1 * (trial % 3), 70 + trial));
        static int32_t labels[4][kBlobN];
        static double traces[4][400];
        const double *rows = pass_rows, *computed = pass_computed;
        int64_t lengths[4];
        for (int v = 0; v < 4; ++v) {
            kindred_model *m = new_rdp();
            OK(kindred_model_set_int(m, "k", on_blobs ? 8 : 3));
            OK(kindred_model_set_double(m, "xi_0", pow(10.0, -4.0 + trial % 6)));
            OK(kindred_model_set_string(m, "center_bounds", v & 1 ? "true" : "false"));
            OK(kindred_model_set_string(m, "link_bounds", v & 2 ? "true" : "false"));
            OK(kindred_model_set_string(m, "skip_certified", v & 2 ? "false" : "true"));
            lengths[v] = fit_with_trace(m, on_blobs ? blobs : iris, n, d, side, labels[v], traces[v]);
            for (int64_t t = 0; t < lengths[v]; ++t) {
                assert_true(rows[t] >= 0.0 && rows[t] <= 1.0);
                if (!(v & 1) && computed[t] == 1.0) assert_true(rows[t] == 1.0);
                if ((v & 1) && computed[t] == 1.0) skipped += 1.0 - rows[t];
            }
            kindred_model_free(m);
        }
        for (int v = 1; v < 4; v += 2) { /* center bounds on against off, same other options */
            assert_int_equal(lengths[v], lengths[v - 1]);
            assert_memory_equal(labels[v], labels[v - 1], (size_t)n * sizeof(int32_t));
            for (int64_t t = 0; t < lengths[v]; ++t)
                assert_true(fabs(traces[v][t] - traces[v - 1][t]) <= 1e-12 * fabs(traces[v - 1][t]));
        }
        kindred_side_free(side);
    }
    assert_true(skipped > 10.0); /* points skipped, in passes worth 10 full ones */
}

/* link_bounds decides a point by its divergences alone when its nearest
 * centre wins by more than xi times the sum of its |link terms|; the labels
 * and objective traces must be bitwise those of reading every point's link
 * terms, with and without certified passes, from small xi (most points
 * decided by the bound) to large (most read their links). The logged pass_linked says
 * which share of the points read them. */
static void link_bounds_change_nothing(void **state) {
    (void)state;
    double x[600];
    int32_t y[150];
    assert_int_equal(load_iris(x, y), 150);
    double least = 1.0, most = 0.0;
    for (int trial = 0; trial < 16; ++trial) {
        kindred_side *side = iris_pairs(y, 0.01 + 0.01 * (trial % 5), 0.1 * (trial % 3), 40 + trial);
        const double xi_0 = pow(10.0, -4.0 + 0.4 * trial); /* 1e-4 ... 1e2 */
        int32_t labels[4][150];
        double traces[4][400];
        const double *linked = pass_linked;
        int64_t lengths[4];
        for (int v = 0; v < 4; ++v) {
            kindred_model *m = new_rdp();
            OK(kindred_model_set_int(m, "k", 3 + trial % 3));
            OK(kindred_model_set_double(m, "xi_0", xi_0));
            if (trial % 4 == 3) OK(kindred_model_set_double(m, "xi_rate", 1.0));
            /* The generic divergences find the rows' minima apart from the
             * rows. Their values on iris are small: so is xi_0 there. */
            if (trial % 8 == 1 || trial % 8 == 5) {
                OK(kindred_model_set_string(m, "divergence", trial % 8 == 1 ? "kl" : "idiv"));
                OK(kindred_model_set_double(m, "xi_0", xi_0 * 1e-4));
            }
            OK(kindred_model_set_string(m, "center_bounds", "false")); /* as in stable_passes_are_certified */
            OK(kindred_model_set_string(m, "link_bounds", v & 1 ? "true" : "false"));
            OK(kindred_model_set_string(m, "skip_certified", v & 2 ? "true" : "false"));
            lengths[v] = fit_iris_with_trace(m, x, side, labels[v], traces[v]);
            for (int64_t t = 0; t < lengths[v]; ++t) {
                assert_true(linked[t] >= 0.0 && linked[t] <= 1.0);
                if (v == 0) assert_true(linked[t] == 1.0 || t > 0); /* without bounds: every point of a full pass */
                if (v == 1 && t > 0) {
                    least = fmin(least, linked[t]);
                    most = fmax(most, linked[t]);
                }
            }
            kindred_model_free(m);
        }
        for (int v = 1; v < 4; ++v) {
            assert_int_equal(lengths[v], lengths[0]);
            assert_memory_equal(labels[v], labels[0], sizeof labels[0]);
            assert_memory_equal(traces[v], traces[0], (size_t)lengths[0] * sizeof(double));
        }
        kindred_side_free(side);
    }
    assert_true(least < 0.2); /* both ways of deciding were used */
    assert_true(most > 0.8);
}

/* The annealed xi doubles every iteration from xi_0 (section 4.5). */
static void xi_is_annealed(void **state) {
    (void)state;
    double x[600];
    int32_t y[150];
    assert_int_equal(load_iris(x, y), 150);
    kindred_model *m = new_rdp();
    OK(kindred_model_set_int(m, "k", 3));
    OK(kindred_model_set_int(m, "max_iter", 5));
    OK(kindred_model_fit_dense(m, x, 150, 4, KINDRED_ROW_MAJOR, 4, NULL));
    double xi[5];
    OK(kindred_model_array(m, "xi_trace", xi, 5));
    for (int i = 0; i < 5; ++i) assert_true(fabs(xi[i] - 0.001 * pow(2.0, i)) < 1e-15);
    int converged = 1;
    int64_t it = 0;
    OK(kindred_model_summary(m, NULL, NULL, NULL, &it, &converged, NULL));
    assert_int_equal(it, 5); /* 20 stable iterations were not reached */
    assert_false(converged);
    kindred_model_free(m);
}

/* Counts from two "topics": KL with smoothing separates them; the CSR form
 * gives the same labels as the dense one; negative counts are refused. */
static void kl_on_counts_dense_and_csr(void **state) {
    (void)state;
    enum { N = 40, D = 6 };
    double x[N * D];
    memset(x, 0, sizeof x);
    srand(3);
    for (int i = 0; i < N; ++i)
        for (int t = 0; t < 60; ++t) {
            const int word = (i < N / 2 ? 0 : 3) + rand() % 3;
            x[i * D + word] += 1.0;
        }
    kindred_model *m = new_rdp();
    OK(kindred_model_set_string(m, "divergence", "kl"));
    OK(kindred_model_set_double(m, "lambda", 0.4));
    OK(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    int32_t dense[N], sparse[N];
    OK(kindred_model_labels(m, dense, N));
    int64_t k = 0;
    OK(kindred_model_summary(m, NULL, NULL, &k, NULL, NULL, NULL));
    assert_int_equal(k, 2);
    for (int i = 1; i < N; ++i) assert_int_equal(dense[i], dense[i < N / 2 ? 0 : N / 2]);
    assert_int_not_equal(dense[0], dense[N / 2]);

    int64_t indptr[N + 1], indices[N * D];
    double values[N * D];
    int64_t nnz = 0;
    for (int i = 0; i < N; ++i) {
        indptr[i] = nnz;
        for (int j = 0; j < D; ++j)
            if (x[i * D + j] != 0) { indices[nnz] = j; values[nnz++] = x[i * D + j]; }
    }
    indptr[N] = nnz;
    OK(kindred_model_fit_csr(m, N, D, indptr, indices, values, NULL));
    OK(kindred_model_labels(m, sparse, N));
    for (int i = 0; i < N; ++i) assert_int_equal(sparse[i], dense[i]);
    int32_t pred[N];
    OK(kindred_model_predict_csr(m, N, D, indptr, indices, values, pred, N));
    for (int i = 0; i < N; ++i) assert_int_equal(pred[i], dense[i]);

    x[5] = -1.0;
    assert_int_equal(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID);
    assert_non_null(strstr(kindred_last_error(), "counts must be >= 0"));
    OK(kindred_model_set_string(m, "divergence", "idiv"));
    assert_int_equal(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL), KINDRED_E_INVALID);
    kindred_model_free(m);
}

/* All points identical: documented behaviour is one cluster, objective 0
 * with lambda from k (the heuristic gives lambda = 0), lambda * 1 otherwise. */
static void identical_points_give_one_cluster(void **state) {
    (void)state;
    double x[30];
    for (int i = 0; i < 30; ++i) x[i] = 2.5;
    kindred_side *side = NULL;
    OK(kindred_side_new(&side, 15));
    int64_t a[2] = {0, 3}, b[2] = {1, 4};
    double v[2] = {1.0, -1.0};
    OK(kindred_side_add_pairs(side, a, b, v, 2));
    kindred_model *m = new_rdp();
    OK(kindred_model_set_int(m, "k", 3));
    OK(kindred_model_fit_dense(m, x, 15, 2, KINDRED_ROW_MAJOR, 2, NULL));
    int64_t k = 0;
    double obj = -1;
    OK(kindred_model_summary(m, NULL, NULL, &k, NULL, NULL, &obj));
    assert_int_equal(k, 1);
    assert_true(obj == 0.0);
    kindred_model_free(m);
    m = new_rdp();
    OK(kindred_model_set_double(m, "lambda", 2.0));
    OK(kindred_model_fit_dense(m, x, 15, 2, KINDRED_ROW_MAJOR, 2, NULL));
    OK(kindred_model_summary(m, NULL, NULL, &k, NULL, NULL, &obj));
    assert_int_equal(k, 1);
    assert_true(obj == 2.0);
    kindred_model_free(m);
    kindred_side_free(side);
}

static void same_result_for_any_threads(void **state) {
    (void)state;
    double x[600];
    int32_t y[150];
    assert_int_equal(load_iris(x, y), 150);
    kindred_side *side = iris_pairs(y, 0.03, 0.1, 5);
    int32_t a[150], b[150];
    for (int t = 1; t <= 2; ++t) {
        kindred_model *m = new_rdp();
        OK(kindred_model_set_int(m, "k", 3));
        OK(kindred_model_set_int(m, "threads", t));
        OK(kindred_model_fit_dense(m, x, 150, 4, KINDRED_ROW_MAJOR, 4, side));
        OK(kindred_model_labels(m, t == 1 ? a : b, 150));
        kindred_model_free(m);
    }
    assert_memory_equal(a, b, sizeof a);
    kindred_side_free(side);
}

static void bad_options_are_refused(void **state) {
    (void)state;
    kindred_model *m = new_rdp();
    assert_int_equal(kindred_model_set_double(m, "lambda", 0.0), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "lambda", -1.0), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "lambda", INFINITY), KINDRED_E_INVALID); /* lambda K would be inf */
    assert_int_equal(kindred_model_set_double(m, "xi_0", -0.1), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "xi_rate", 0.5), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "xi_1", -1.0), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "xi_2", -1.0), KINDRED_E_INVALID);
    /* infinite weights would make the objective inf or NaN */
    assert_int_equal(kindred_model_set_double(m, "xi_0", INFINITY), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "xi_rate", INFINITY), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "xi_1", INFINITY), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "xi_2", INFINITY), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_double(m, "smoothing", 0.0), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_string(m, "divergence", "cosine"), KINDRED_E_INVALID);
    assert_int_equal(kindred_model_set_int(m, "k", 0), KINDRED_E_INVALID);
    double x[4] = {0, 1, 2, 3};
    /* neither lambda nor k */
    assert_int_equal(kindred_model_fit_dense(m, x, 4, 1, KINDRED_ROW_MAJOR, 1, NULL), KINDRED_E_INVALID);
    assert_non_null(strstr(kindred_last_error(), "lambda"));
    OK(kindred_model_set_int(m, "k", 5));
    assert_int_equal(kindred_model_fit_dense(m, x, 4, 1, KINDRED_ROW_MAJOR, 1, NULL), KINDRED_E_DIMENSION);
    kindred_model_free(m);

    /* Huge but finite weights: xi stops growing before xi times the link
     * terms overflows, so every objective stays finite; weights whose terms
     * alone overflow the objective are refused by name. */
    double xs[600];
    int32_t y[150];
    assert_int_equal(load_iris(xs, y), 150);
    kindred_side *side = iris_pairs(y, 0.02, 0.1, 3);
    m = new_rdp();
    OK(kindred_model_set_int(m, "k", 3));
    OK(kindred_model_set_double(m, "xi_0", 1e300));
    OK(kindred_model_set_double(m, "xi_rate", 1e100));
    OK(kindred_model_fit_dense(m, xs, 150, 4, KINDRED_ROW_MAJOR, 4, side));
    double trace[400];
    int64_t rows = 0, cols = 0;
    OK(kindred_model_array_shape(m, "objective_trace", &rows, &cols));
    assert_true(rows <= 400);
    OK(kindred_model_array(m, "objective_trace", trace, 400));
    for (int64_t t = 0; t < rows; ++t) assert_true(isfinite(trace[t]));
    kindred_model_free(m);
    m = new_rdp();
    OK(kindred_model_set_int(m, "k", 3));
    OK(kindred_model_set_double(m, "xi_2", 1e300));
    assert_int_equal(kindred_model_fit_dense(m, xs, 150, 4, KINDRED_ROW_MAJOR, 4, side), KINDRED_E_INVALID);
    assert_non_null(strstr(kindred_last_error(), "xi_2"));
    kindred_model_free(m);
    kindred_side_free(side);
}

/* init "spectral" (section 4.7): on iris with noise-free pairs it starts
 * from several clusters, fits, and never does worse than ARI 0.6; with a
 * non-Euclidean divergence or CSR input it is refused with a message. */
static void spectral_initialiser(void **state) {
    (void)state;
    static double x[150 * 4];
    int32_t y[150];
    assert_int_equal(load_iris(x, y), 150);
    kindred_side *side = NULL;
    OK(kindred_side_new(&side, 150));
    OK(kindred_sample_pairs(side, y, 150, 300, 0.0, 0.0, 5));
    kindred_model *m = new_rdp();
    OK(kindred_model_set_int(m, "k", 3));
    OK(kindred_model_set_string(m, "init", "spectral"));
    OK(kindred_model_fit_dense(m, x, 150, 4, KINDRED_ROW_MAJOR, 4, side));
    int32_t labels[150];
    OK(kindred_model_labels(m, labels, 150));
    double ari = 0;
    OK(kindred_metric("ari", y, labels, 150, &ari));
    assert_true(ari > 0.6);
    OK(kindred_model_set_string(m, "divergence", "kl"));
    assert_int_equal(kindred_model_fit_dense(m, x, 150, 4, KINDRED_ROW_MAJOR, 4, side), KINDRED_E_INVALID);
    assert_non_null(strstr(kindred_last_error(), "spectral"));
    OK(kindred_model_set_string(m, "divergence", "euclidean"));
    OK(kindred_model_set_double(m, "lambda", 1.0));
    const int64_t indptr[3] = {0, 1, 2}, indices[2] = {0, 1};
    const double values[2] = {1.0, 2.0};
    assert_int_equal(kindred_model_fit_csr(m, 2, 2, indptr, indices, values, NULL), KINDRED_E_INVALID);
    assert_non_null(strstr(kindred_last_error(), "spectral"));
    assert_int_equal(kindred_model_set_string(m, "init", "eigen"), KINDRED_E_INVALID);
    kindred_model_free(m);
    kindred_side_free(side);
}

/* init "dsquared" (dp_seed_centers): three tight blobs 10 apart on a line
 * (50 points each, within 0.5 of their centres) and lambda = 150. No point
 * lies farther than 150 (squared) from the mean, so Algorithm 1's single
 * cluster (init one-cluster, and auto with lambda given) never splits;
 * each blob's centre lowers the squared distances by about 5000, so the
 * seeding finds the three blobs, for dpmeans and rdpmeans alike. With a
 * divergence other than the squared Euclidean it is refused. */
static void dsquared_start(void **state) {
    (void)state;
    enum { per = 50, n = 3 * per };
    double x[n * 2];
    int32_t y[n];
    for (int i = 0; i < n; ++i) {
        y[i] = i / per;
        x[2 * i] = 10.0 * y[i] + 0.5 * sin(1.7 * i) + 1.0; /* positive: counts for kl */
        x[2 * i + 1] = 0.5 * cos(2.3 * i) + 1.0;
    }
    const char *names[] = {"dpmeans", "rdpmeans"};
    const char *inits[] = {"auto", "one-cluster", "dsquared"};
    for (int a = 0; a < 2; ++a)
        for (int s = 0; s < 3; ++s) {
            kindred_model *m = NULL;
            OK(kindred_model_new(&m, names[a]));
            OK(kindred_model_set_double(m, "lambda", 150.0));
            OK(kindred_model_set_string(m, "init", inits[s]));
            OK(kindred_model_fit_dense(m, x, n, 2, KINDRED_ROW_MAJOR, 2, NULL));
            int32_t labels[n];
            OK(kindred_model_labels(m, labels, n));
            double ari = 0;
            OK(kindred_metric("ari", y, labels, n, &ari));
            if (s == 2)
                assert_true(ari > 0.999);
            else
                assert_true(fabs(ari) < 1e-12); /* one cluster */
            kindred_model_free(m);
        }
    kindred_model *m = new_rdp();
    OK(kindred_model_set_double(m, "lambda", 150.0));
    OK(kindred_model_set_string(m, "init", "dsquared"));
    OK(kindred_model_set_string(m, "divergence", "kl"));
    assert_int_equal(kindred_model_fit_dense(m, x, n, 2, KINDRED_ROW_MAJOR, 2, NULL), KINDRED_E_INVALID);
    assert_non_null(strstr(kindred_last_error(), "dsquared"));
    kindred_model_free(m);
}

/* xi_max chosen from the pairs (neither lambda, k nor xi_max set): three
 * blobs 6 apart (spread about 1.2), 150 pairs. With clean answers every
 * candidate satisfies every held-out pair, and the tie goes to the first,
 * inf (the paper's annealing). With a fifth of the answers flipped, the
 * unbounded links let the wrong must-links pull points into other blobs;
 * the held-out pairs prefer a bound the features can overrule (s / 4 here,
 * s the mean squared distance from the mean: about 25), which finds the
 * blobs. A fit with lambda given and xi_max unset is the paper's: the
 * same as xi_max = inf. */
static void xi_max_chosen_from_pairs(void **state) {
    (void)state;
    enum { n = 150 };
    double x[n * 2], mean[2] = {0, 0};
    int32_t y[n];
    for (int i = 0; i < n; ++i) {
        y[i] = i % 3;
        x[2 * i] = 6.0 * y[i] + 1.2 * sin(1.7 * i);
        x[2 * i + 1] = 1.2 * cos(2.3 * i);
        mean[0] += x[2 * i] / n;
        mean[1] += x[2 * i + 1] / n;
    }
    double spread = 0;
    for (int i = 0; i < n; ++i)
        spread += ((x[2 * i] - mean[0]) * (x[2 * i] - mean[0]) + (x[2 * i + 1] - mean[1]) * (x[2 * i + 1] - mean[1])) / n;
    for (int noisy = 0; noisy < 2; ++noisy) {
        kindred_side *side = NULL;
        OK(kindred_side_new(&side, n));
        OK(kindred_sample_pairs(side, y, n, 150, 0.0, noisy ? 0.2 : 0.0, 1));
        double ari[2];
        for (int bounded = 0; bounded < 2; ++bounded) {
            kindred_model *m = new_rdp();
            OK(kindred_model_set_int(m, "seed", 1));
            if (!bounded) OK(kindred_model_set_double(m, "xi_max", INFINITY));
            OK(kindred_model_fit_dense(m, x, n, 2, KINDRED_ROW_MAJOR, 2, side));
            int32_t labels[n];
            OK(kindred_model_labels(m, labels, n));
            OK(kindred_metric("ari", y, labels, n, &ari[bounded]));
            double chosen = 0;
            if (bounded) {
                OK(kindred_model_array(m, "chosen_xi_max", &chosen, 1));
                if (noisy)
                    assert_true(fabs(chosen - 0.25 * spread) < 1e-9 * spread);
                else
                    assert_true(isinf(chosen));
            } else {
                /* Set by the user: not chosen. */
                assert_int_equal(kindred_model_array(m, "chosen_xi_max", &chosen, 1), KINDRED_E_NOT_FOUND);
            }
            kindred_model_free(m);
        }
        assert_true(ari[1] > 0.999);
        if (noisy) assert_true(ari[0] < 0.9);
        kindred_side_free(side);
    }
    /* lambda given, xi_max unset: the same fit as xi_max = inf. */
    kindred_side *side = NULL;
    OK(kindred_side_new(&side, n));
    OK(kindred_sample_pairs(side, y, n, 150, 0.0, 0.2, 1));
    double objective[2];
    int32_t labels[2][n];
    for (int set = 0; set < 2; ++set) {
        kindred_model *m = new_rdp();
        OK(kindred_model_set_double(m, "lambda", 50.0));
        if (set) OK(kindred_model_set_double(m, "xi_max", INFINITY));
        OK(kindred_model_fit_dense(m, x, n, 2, KINDRED_ROW_MAJOR, 2, side));
        OK(kindred_model_labels(m, labels[set], n));
        OK(kindred_model_summary(m, NULL, NULL, NULL, NULL, NULL, &objective[set]));
        kindred_model_free(m);
    }
    assert_memory_equal(labels[0], labels[1], sizeof labels[0]);
    assert_true(objective[0] == objective[1]);
    kindred_side_free(side);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(links_split_one_blob),
        cmocka_unit_test(stable_passes_are_certified),
        cmocka_unit_test(link_bounds_change_nothing),
        cmocka_unit_test(center_bounds_change_only_rounding),
        cmocka_unit_test(centers_are_the_means_of_their_points),
        cmocka_unit_test(separated_blobs_with_pairs),
        cmocka_unit_test(without_pairs_equals_dpmeans),
        cmocka_unit_test(objective_never_increases_for_fixed_xi),
        cmocka_unit_test(xi_is_annealed),
        cmocka_unit_test(kl_on_counts_dense_and_csr),
        cmocka_unit_test(identical_points_give_one_cluster),
        cmocka_unit_test(same_result_for_any_threads),
        cmocka_unit_test(bad_options_are_refused),
        cmocka_unit_test(spectral_initialiser),
        cmocka_unit_test(dsquared_start),
        cmocka_unit_test(xi_max_chosen_from_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
