/* Sharded fits (kindred_model_fit_dense_shard, kindred_model_fit_csr_shard)
 * over an in-process communicator of threads: for 1 to 4 ranks and uneven
 * shards (empty ones, shards inside one chunk of 32768 rows, slices given to
 * ranks in a permuted order), the labels, centres, objective trace,
 * iteration count and objective of kmeans, gmm (every covariance model),
 * dpmeans, copkmeans (with must-links and cannot-links across ranks), tcs-gm
 * and tcs-vmf (with partial labels; for these every result array) are bitwise
 * those of kindred_model_fit_dense on all the points (pckmeans too, with
 * penalty and propagation set or chosen by cross-validation over the pairs;
 * dpmeans with lambda chosen so; kmeans and dcrc with standardize = 1 and a
 * constant feature), and those of kmeans,
 * dpmeans and copkmeans on CSR rows bitwise those of kindred_model_fit_csr.
 * tvclust, an approximate sampler on several ranks, is the plain fit on one
 * rank, gives every rank the same model, and keeps the single-process mean
 * NMI within a stated tolerance.
 * Faults (a NaN on one rank, other options or side information on one rank,
 * a cancel on one rank (also between two fits of a cross-validation), rows that overlap, infeasible constraints, malformed
 * CSR arrays on one rank) give every rank the same status and message, and
 * no rank hangs (the meson timeout would say so). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kindred.h"
#include "testing.h"
#include "thread_comm.h"

/* Three chunks of 32768 rows, the last one partial. */
enum { N = 70000, D = 4, K = 5, MAX_CLUSTERS = 64, MESSAGE = 512 };
/* tvclust's statistical test: its pairs, and the largest difference of mean NMI it accepts
 * (chosen from measurements: tvclust_nmi_as_in_one_process). */
enum { TVCLUST_PAIRS = 20000 };
#define TVCLUST_NMI_TOLERANCE 0.15

static double points[N * D];
static double counts[N * D]; /* floor(|points|): counts for tvclust's multinomial likelihood */
static int32_t truth[N];
/* points as CSR (the entries with (i + j) % 3 == 0 left out; every fifth row
 * lists its columns in reverse, which the fits must keep). */
static int64_t csr_indptr[N + 1], csr_indices[N * D];
static double csr_values[N * D];
static int32_t partial[N]; /* tcs: the labels of classes 0-3 on one point in 8 of theirs, -1 elsewhere */
static double one_flat[N * D]; /* points with feature 2 constant, which standardize leaves at 0 */

/* ---- one rank's call and what it got */

typedef struct shard_run {
    thread_rank link;
    kindred_comm comm;
    const char *algorithm;
    const char *covariance; /* gmm's, or NULL */
    const char *extra;      /* an integer option set to extra_value, or NULL */
    int64_t extra_value;
    const char *text;       /* a string option set to text_value, or NULL */
    const char *text_value;
    const char *real;       /* a real option set to real_value, or NULL */
    double real_value;
    const char *distortion; /* mpckmeans' distortion option, or NULL */
    int64_t k, row_offset, n_local;
    const double *x;        /* this rank's rows */
    int csr;                /* 1: the rows of the CSR arrays above, by kindred_model_fit_csr_shard */
    int64_t *indptr;        /* this rank's indptr (from 0), or NULL for the global one's rows */
    const int64_t *indices; /* this rank's, or NULL for the global arrays' */
    const double *values;
    const kindred_side *side;
    const char *kernel;     /* dcrc's kernel option, or NULL */
    const char *likelihood; /* tvclust's likelihood option, or NULL */
    const double *all;      /* the N rows this rank's are taken from (NULL: points) */
    int cancel;             /* the progress callback cancels at iteration 2 (2: of dcrc's EM loop; 3: of a
                               cross-validation's fits) */
    /* results */
    int status;
    char message[MESSAGE];
    int32_t *labels;
    double centers[MAX_CLUSTERS * D], trace[1000];
    int64_t clusters, iterations, trace_rows;
    double objective;
    unsigned char *arrays;  /* every result array (arrays_blob) */
    size_t arrays_bytes;
} shard_run;

/* Every result array of a fitted model, one after another: its name, shape
 * and values (malloc'd; *bytes its length). A single-process fit keeps
 * "memberships" (n x k) where a rank of a sharded fit keeps only its labels:
 * that array is left out. */
static unsigned char *arrays_blob(const kindred_model *m, size_t *bytes) {
    int64_t count = 0;
    *bytes = 0;
    if (kindred_model_array_count(m, &count) != KINDRED_OK) return NULL;
    unsigned char *blob = NULL;
    for (int64_t a = 0; a < count; ++a) {
        const char *name = NULL;
        int64_t rows = 0, cols = 0;
        if (kindred_model_array_info(m, a, &name, &rows, &cols) != KINDRED_OK) break;
        if (strcmp(name, "memberships") == 0) continue;
        const size_t name_bytes = strlen(name) + 1, values = (size_t)(rows * cols);
        const size_t add = name_bytes + 2 * sizeof(int64_t) + values * sizeof(double);
        unsigned char *grown = realloc(blob, *bytes + add);
        if (!grown) break;
        blob = grown;
        unsigned char *at = blob + *bytes;
        memset(at, 0, add);
        memcpy(at, name, name_bytes);
        memcpy(at + name_bytes, &rows, sizeof rows);
        memcpy(at + name_bytes + sizeof rows, &cols, sizeof cols);
        double *values_at = malloc(values * sizeof(double) + 1);
        if (values_at && kindred_model_array(m, name, values_at, (int64_t)values) == KINDRED_OK)
            memcpy(at + name_bytes + 2 * sizeof(int64_t), values_at, values * sizeof(double));
        free(values_at);
        *bytes += add;
    }
    return blob;
}

/* The options of every fit here: k (dpmeans: the hint from which lambda is
 * derived), 2 restarts where the algorithm restarts, seed 7. dcrc: a short
 * fit (4 EM iterations of at most 15 L-BFGS iterations) on the features as
 * given (its own default, standardize = 1: dcrc_standardized_across_ranks). */
static kindred_status set_options(kindred_model *m, const char *algorithm, int64_t k) {
    if (strcmp(algorithm, "tvclust") == 0) { /* no k: 12 Gibbs sweeps, the MAP one among the last 8 */
        kindred_status s = kindred_model_set_int(m, "iterations", 12);
        if (s == KINDRED_OK) s = kindred_model_set_int(m, "burn_in", 4);
        if (s == KINDRED_OK) s = kindred_model_set_int(m, "seed", 7);
        return s;
    }
    if (strcmp(algorithm, "rdpmeans") == 0) /* k: the hint for lambda (k < 0: none; lambda set, or refused) */
        return k > 0 ? kindred_model_set_int(m, "k", k) : KINDRED_OK;
    /* k < 0: left unset (dpmeans then chooses lambda from the pairs). */
    kindred_status s = k > 0 ? kindred_model_set_int(m, "k", k) : KINDRED_OK;
    if (strcmp(algorithm, "dcrc") == 0) {
        if (s == KINDRED_OK) s = kindred_model_set_int(m, "init_restarts", 2);
        if (s == KINDRED_OK) s = kindred_model_set_int(m, "standardize", 0);
        if (s == KINDRED_OK) s = kindred_model_set_int(m, "max_iter", 4);
        if (s == KINDRED_OK) s = kindred_model_set_int(m, "lbfgs_max_iter", 15);
        if (s == KINDRED_OK) s = kindred_model_set_int(m, "seed", 7);
        return s;
    }
    if (s == KINDRED_OK && strcmp(algorithm, "dpmeans") != 0) s = kindred_model_set_int(m, "n_init", 2);
    /* mpckmeans: a few metric updates suffice to compare them, at a fraction of the time. */
    if (s == KINDRED_OK && strcmp(algorithm, "mpckmeans") == 0) s = kindred_model_set_int(m, "max_iter", 6);
    if (s == KINDRED_OK) s = kindred_model_set_int(m, "seed", 7);
    return s;
}

/* set_options, then the options a run names (the same for its plain fit). */
static kindred_status set_run_options(kindred_model *m, const shard_run *s) {
    kindred_status status = set_options(m, s->algorithm, s->k ? s->k : K);
    if (status == KINDRED_OK && s->covariance) status = kindred_model_set_string(m, "covariance", s->covariance);
    if (status == KINDRED_OK && s->kernel) status = kindred_model_set_string(m, "kernel", s->kernel);
    if (status == KINDRED_OK && s->likelihood) status = kindred_model_set_string(m, "likelihood", s->likelihood);
    if (status == KINDRED_OK && s->extra) status = kindred_model_set_int(m, s->extra, s->extra_value);
    if (status == KINDRED_OK && s->text) status = kindred_model_set_string(m, s->text, s->text_value);
    if (status == KINDRED_OK && s->real) status = kindred_model_set_double(m, s->real, s->real_value);
    if (status == KINDRED_OK && s->distortion) status = kindred_model_set_string(m, "distortion", s->distortion);
    return status;
}

static int cancel_at_two(void *user, int64_t iteration, double objective, const char *message) {
    (void)user, (void)objective, (void)message;
    return iteration >= 2;
}

/* Cancels at the second iteration of a message that starts with "dcrc:"
 * (its EM loop; not the k-means start's). */
static int cancel_at_em_two(void *user, int64_t iteration, double objective, const char *message) {
    (void)user, (void)objective;
    return iteration >= 2 && strncmp(message, "dcrc:", 5) == 0;
}

/* Cancels at the second fit of a cross-validation ("...: tuning ..."), between two fits of the folds. */
static int cancel_at_tuning_two(void *user, int64_t iteration, double objective, const char *message) {
    (void)user, (void)objective;
    return iteration >= 2 && strstr(message, ": tuning ") != NULL;
}

static void *run_rank(void *arg) {
    shard_run *s = (shard_run *)arg;
    kindred_model *m = NULL;
    /* No cmocka asserts on these threads: a failure is recorded and checked on the main thread. */
    if (kindred_model_new(&m, s->algorithm) != KINDRED_OK) {
        s->status = -1;
        return NULL;
    }
    set_run_options(m, s);
    if (s->cancel)
        kindred_model_set_progress(
            m, s->cancel == 3 ? cancel_at_tuning_two : s->cancel == 2 ? cancel_at_em_two : cancel_at_two, NULL);
    if (s->csr) {
        /* This rank's CSR arrays, indptr counted from its first row. */
        int64_t *indptr = malloc((size_t)(s->n_local + 1) * sizeof(int64_t));
        const int64_t base = csr_indptr[s->row_offset];
        for (int64_t i = 0; i <= s->n_local; ++i) indptr[i] = csr_indptr[s->row_offset + i] - base;
        if (s->indptr) memcpy(indptr, s->indptr, (size_t)(s->n_local + 1) * sizeof(int64_t));
        s->status = kindred_model_fit_csr_shard(m, &s->comm, s->n_local, D, indptr,
                                                s->indices ? s->indices : csr_indices + base,
                                                s->values ? s->values : csr_values + base, s->row_offset, N, s->side);
        free(indptr);
    } else {
        s->status = kindred_model_fit_dense_shard(m, &s->comm, s->x, s->n_local, D, KINDRED_ROW_MAJOR, D, s->row_offset,
                                                  N, s->side);
    }
    snprintf(s->message, MESSAGE, "%s", kindred_last_error());
    if (s->status == KINDRED_OK) {
        s->labels = malloc((size_t)(s->n_local > 0 ? s->n_local : 1) * sizeof(int32_t));
        kindred_model_labels(m, s->labels, s->n_local);
        kindred_model_array(m, "centers", s->centers, MAX_CLUSTERS * D);
        int64_t cols = 0;
        kindred_model_array_shape(m, "objective_trace", &s->trace_rows, &cols);
        kindred_model_array(m, "objective_trace", s->trace, 1000);
        kindred_model_summary(m, NULL, NULL, &s->clusters, &s->iterations, NULL, &s->objective);
        s->arrays = arrays_blob(m, &s->arrays_bytes);
    }
    kindred_model_free(m);
    return NULL;
}

/* Ranks r = 0..p-1 take the slices [cuts[slice[r]], cuts[slice[r] + 1]). */
static void run_world(shard_run *runs, int p, const int64_t *cuts, const int *slice, const char *algorithm) {
    thread_world w;
    thread_world_init(&w, p);
    pthread_t threads[THREAD_COMM_MAX_RANKS];
    for (int r = 0; r < p; ++r) {
        shard_run *s = &runs[r];
        thread_comm(&w, r, &s->link, &s->comm);
        s->algorithm = algorithm;
        if (!s->k) s->k = K;
        s->row_offset = cuts[slice[r]];
        s->n_local = cuts[slice[r] + 1] - cuts[slice[r]];
        if (!s->x) s->x = (s->all ? s->all : points) + s->row_offset * D;
        pthread_create(&threads[r], NULL, run_rank, s);
    }
    for (int r = 0; r < p; ++r) pthread_join(threads[r], NULL);
    thread_world_destroy(&w);
}

static void free_runs(shard_run *runs, int p) {
    for (int r = 0; r < p; ++r) {
        free(runs[r].labels);
        free(runs[r].arrays);
    }
}

/* ---- the single-process fit to compare with */

typedef struct reference {
    int32_t labels[N];
    double centers[MAX_CLUSTERS * D], trace[1000];
    int64_t clusters, iterations, trace_rows;
    double objective;
    unsigned char *arrays; /* every result array (arrays_blob), when asked for */
    size_t arrays_bytes;
} reference;

static reference plain_kmeans;

/* csr: on the CSR rows; side, extra: as in shard_run; with partial labels
 * in side (tcs-*), every result array is kept too. */
static void plain_fit_with(const char *algorithm, const char *covariance, int csr, const kindred_side *side,
                           const char *extra, int64_t extra_value, reference *out) {
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, algorithm));
    assert_ok(set_options(m, algorithm, K));
    if (covariance) assert_ok(kindred_model_set_string(m, "covariance", covariance));
    if (extra) assert_ok(kindred_model_set_int(m, extra, extra_value));
    if (csr)
        assert_ok(kindred_model_fit_csr(m, N, D, csr_indptr, csr_indices, csr_values, side));
    else
        assert_ok(kindred_model_fit_dense(m, points, N, D, KINDRED_ROW_MAJOR, D, side));
    free(out->arrays);
    const int keep_arrays = strncmp(algorithm, "tcs-", 4) == 0;
    out->arrays = keep_arrays ? arrays_blob(m, &out->arrays_bytes) : NULL;
    if (keep_arrays) assert_non_null(out->arrays);
    assert_ok(kindred_model_labels(m, out->labels, N));
    assert_ok(kindred_model_summary(m, NULL, NULL, &out->clusters, &out->iterations, NULL, &out->objective));
    assert_true(out->clusters <= MAX_CLUSTERS);
    assert_ok(kindred_model_array(m, "centers", out->centers, MAX_CLUSTERS * D));
    int64_t cols = 0;
    assert_ok(kindred_model_array_shape(m, "objective_trace", &out->trace_rows, &cols));
    assert_ok(kindred_model_array(m, "objective_trace", out->trace, 1000));
    kindred_model_free(m);
}

static void plain_fit_of(const char *algorithm, const char *covariance, int csr, const kindred_side *side,
                         reference *out) {
    plain_fit_with(algorithm, covariance, csr, side, NULL, 0, out);
}

static void plain_fit(const char *algorithm, const char *covariance, reference *out) {
    plain_fit_of(algorithm, covariance, 0, NULL, out);
}

/* Must-links and cannot-links from the blobs' truth, about all N points: most
 * join rows of different ranks in every split below. */
static kindred_side *pairs_side;
static kindred_side *noisy_pairs_side; /* the same count, a fifth of the answers flipped */

static int setup(void **state) {
    (void)state;
    make_blobs(points, truth, N, D, K, 3.0, 2.0, 11);
    for (int64_t e = 0; e < N * D; ++e) counts[e] = floor(fabs(points[e]));
    for (int64_t e = 0; e < N * D; ++e) one_flat[e] = e % D == 2 ? 1.25 : points[e];
    /* About 5600 labelled points; the unlabelled ones (about 64400) are two
     * chunks of their own sequence, whose boundary falls inside a shard. */
    for (int64_t i = 0; i < N; ++i) partial[i] = (truth[i] == K - 1 || (i / K) % 8 != 0) ? -1 : truth[i];
    int64_t e = 0;
    for (int64_t i = 0; i < N; ++i) {
        csr_indptr[i] = e;
        for (int64_t t = 0; t < D; ++t) {
            const int64_t j = i % 5 == 0 ? D - 1 - t : t;
            if ((i + j) % 3 == 0) continue;
            csr_indices[e] = j;
            csr_values[e++] = points[i * D + j];
        }
    }
    csr_indptr[N] = e;
    if (kindred_side_new(&pairs_side, N) != KINDRED_OK) return -1;
    if (kindred_sample_pairs(pairs_side, truth, N, 400, 0.0, 0.0, 5) != KINDRED_OK) return -1;
    if (kindred_side_new(&noisy_pairs_side, N) != KINDRED_OK) return -1;
    if (kindred_sample_pairs(noisy_pairs_side, truth, N, 400, 0.0, 0.2, 5) != KINDRED_OK) return -1;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    kindred_side_free(pairs_side);
    kindred_side_free(noisy_pairs_side);
    return 0;
}

static void check_equal_to(const reference *plain, shard_run *runs, int p) {
    for (int r = 0; r < p; ++r) {
        shard_run *s = &runs[r];
        if (s->status != KINDRED_OK) print_error("rank %d: %s\n", r, s->message);
        assert_int_equal(s->status, KINDRED_OK);
        assert_string_equal(s->message, "");
        assert_memory_equal(s->labels, plain->labels + s->row_offset, (size_t)s->n_local * sizeof(int32_t));
        assert_int_equal(s->clusters, plain->clusters);
        assert_memory_equal(s->centers, plain->centers, (size_t)(plain->clusters * D) * sizeof(double));
        assert_int_equal(s->trace_rows, plain->trace_rows);
        assert_memory_equal(s->trace, plain->trace, (size_t)plain->trace_rows * sizeof(double));
        assert_int_equal(s->iterations, plain->iterations);
        assert_memory_equal(&s->objective, &plain->objective, sizeof(double));
        if (plain->arrays) {
            assert_int_equal(s->arrays_bytes, plain->arrays_bytes);
            assert_memory_equal(s->arrays, plain->arrays, plain->arrays_bytes);
        }
    }
}

static void bitwise_equal_for_any_split(int p, const int64_t *cuts, const int *slice) {
    if (plain_kmeans.trace_rows == 0) plain_fit("kmeans", NULL, &plain_kmeans);
    shard_run runs[THREAD_COMM_MAX_RANKS];
    memset(runs, 0, sizeof runs);
    run_world(runs, p, cuts, slice, "kmeans");
    check_equal_to(&plain_kmeans, runs, p);
    free_runs(runs, p);
}

static void one_rank(void **state) {
    (void)state;
    const int64_t cuts[] = {0, N};
    const int slice[] = {0};
    bitwise_equal_for_any_split(1, cuts, slice);
}

static void two_ranks(void **state) {
    (void)state;
    const int64_t aligned[] = {0, 65536, N}, uneven[] = {0, 40001, N};
    const int in_order[] = {0, 1}, swapped[] = {1, 0};
    bitwise_equal_for_any_split(2, aligned, in_order);
    bitwise_equal_for_any_split(2, uneven, swapped);
}

static void three_ranks(void **state) {
    (void)state;
    /* A shard inside one chunk (rows 1000..1999 start no chunk), one holding the rest but one row. */
    const int64_t cuts[] = {0, 1000, 69999, N};
    const int slice[] = {2, 0, 1};
    bitwise_equal_for_any_split(3, cuts, slice);
}

static void four_ranks(void **state) {
    (void)state;
    const int64_t middle_empty[] = {0, 20000, 20000, 65537, N}, last_empty[] = {0, 30000, 50000, N, N};
    const int in_order[] = {0, 1, 2, 3}, permuted[] = {3, 1, 0, 2};
    bitwise_equal_for_any_split(4, middle_empty, in_order);
    bitwise_equal_for_any_split(4, last_empty, permuted);
}

/* gmm, every covariance model, on 3 uneven ranks in a permuted order. */
static void gmm_any_covariance(void **state) {
    (void)state;
    const char *covariances[] = {"shared-spherical", "spherical", "diagonal", "full"};
    const int64_t cuts[] = {0, 33000, 33001, N};
    const int slice[] = {1, 2, 0};
    static reference plain;
    for (int c = 0; c < 4; ++c) {
        plain_fit("gmm", covariances[c], &plain);
        shard_run runs[THREAD_COMM_MAX_RANKS];
        memset(runs, 0, sizeof runs);
        for (int r = 0; r < 3; ++r) runs[r].covariance = covariances[c];
        run_world(runs, 3, cuts, slice, "gmm");
        check_equal_to(&plain, runs, 3);
        free_runs(runs, 3);
    }
}

/* dpmeans with lambda derived from k (farthest-first over all ranks): its
 * pass opens centres in sequence, each rank in turn. */
static void dpmeans_with_a_k_hint(void **state) {
    (void)state;
    const int64_t cuts[] = {0, 5000, 40000, 40000, N};
    const int slice[] = {3, 0, 2, 1};
    static reference plain;
    plain_fit("dpmeans", NULL, &plain);
    assert_true(plain.clusters > 1);
    assert_true(plain.iterations > 1);
    shard_run runs[THREAD_COMM_MAX_RANKS];
    memset(runs, 0, sizeof runs);
    run_world(runs, 4, cuts, slice, "dpmeans");
    check_equal_to(&plain, runs, 4);
    free_runs(runs, 4);
}

/* copkmeans with pairs across ranks: the constrained components are placed
 * by every rank from the gathered distances, the other points where they lie. */
static void copkmeans_with_pairs_across_ranks(void **state) {
    (void)state;
    static reference plain;
    plain_fit_of("copkmeans", NULL, 0, pairs_side, &plain);
    assert_true(plain.iterations > 1);
    const int64_t one[] = {0, N}, two[] = {0, 40001, N}, three[] = {0, 1000, 69999, N},
                  four[] = {0, 20000, 20000, 65537, N};
    const int64_t *cuts[] = {one, two, three, four};
    const int slices[4][4] = {{0}, {1, 0}, {2, 0, 1}, {3, 1, 0, 2}};
    for (int p = 1; p <= 4; ++p) {
        shard_run runs[THREAD_COMM_MAX_RANKS];
        memset(runs, 0, sizeof runs);
        for (int r = 0; r < p; ++r) runs[r].side = pairs_side;
        run_world(runs, p, cuts[p - 1], slices[p - 1], "copkmeans");
        check_equal_to(&plain, runs, p);
        free_runs(runs, p);
    }
}

/* Without side information copkmeans is nearest-centre k-means with its own restarts. */
static void copkmeans_without_pairs(void **state) {
    (void)state;
    static reference plain;
    plain_fit("copkmeans", NULL, &plain);
    const int64_t cuts[] = {0, 32768, 32768, N};
    const int slice[] = {2, 0, 1};
    shard_run runs[THREAD_COMM_MAX_RANKS];
    memset(runs, 0, sizeof runs);
    run_world(runs, 3, cuts, slice, "copkmeans");
    check_equal_to(&plain, runs, 3);
    free_runs(runs, 3);
}

/* CSR rows: kmeans on 1 to 4 ranks, dpmeans and copkmeans on uneven ones. */
static void csr_bitwise_equal(const char *algorithm, const kindred_side *side, int p, const int64_t *cuts,
                              const int *slice) {
    static reference plain;
    plain_fit_of(algorithm, NULL, 1, side, &plain);
    shard_run runs[THREAD_COMM_MAX_RANKS];
    memset(runs, 0, sizeof runs);
    for (int r = 0; r < p; ++r) {
        runs[r].csr = 1;
        runs[r].side = side;
    }
    run_world(runs, p, cuts, slice, algorithm);
    check_equal_to(&plain, runs, p);
    free_runs(runs, p);
}

static void csr_kmeans_any_split(void **state) {
    (void)state;
    const int64_t one[] = {0, N}, two[] = {0, 40001, N}, three[] = {0, 1000, 69999, N},
                  four[] = {0, 20000, 20000, 65537, N}, aligned[] = {0, 32768, 65536, N, N};
    const int in_order[] = {0, 1, 2, 3}, swapped[] = {1, 0}, three_slices[] = {2, 0, 1}, permuted[] = {3, 1, 0, 2};
    csr_bitwise_equal("kmeans", NULL, 1, one, in_order);
    csr_bitwise_equal("kmeans", NULL, 2, two, swapped);
    csr_bitwise_equal("kmeans", NULL, 3, three, three_slices);
    csr_bitwise_equal("kmeans", NULL, 4, four, permuted);
    csr_bitwise_equal("kmeans", NULL, 4, aligned, in_order);
}

static void csr_dpmeans_and_copkmeans(void **state) {
    (void)state;
    const int64_t cuts[] = {0, 5000, 40000, 40000, N};
    const int slice[] = {3, 0, 2, 1};
    csr_bitwise_equal("dpmeans", NULL, 4, cuts, slice);
    csr_bitwise_equal("copkmeans", pairs_side, 4, cuts, slice);
}

static void csr_without_comm_is_the_plain_fit(void **state) {
    (void)state;
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "kmeans"));
    assert_ok(set_options(m, "kmeans", K));
    assert_ok(kindred_model_fit_csr_shard(m, NULL, N, D, csr_indptr, csr_indices, csr_values, 0, N, NULL));
    static int32_t labels[N];
    assert_ok(kindred_model_labels(m, labels, N));
    static reference plain;
    plain_fit_of("kmeans", NULL, 1, NULL, &plain);
    assert_memory_equal(labels, plain.labels, sizeof labels);
    assert_fails_with(kindred_model_fit_csr_shard(m, NULL, 100, D, csr_indptr, csr_indices, csr_values, 5, N, NULL),
                      KINDRED_E_DIMENSION, "row_offset = 5");
    assert_fails_with(kindred_model_fit_csr_shard(m, NULL, N, D, NULL, csr_indices, csr_values, 0, N, NULL),
                      KINDRED_E_INVALID, "indptr");
    assert_fails_with(kindred_model_fit_csr_shard(NULL, NULL, N, D, csr_indptr, csr_indices, csr_values, 0, N, NULL),
                      KINDRED_E_INVALID, "model");
    kindred_model_free(m);
    assert_ok(kindred_model_new(&m, "gmm"));
    assert_fails_with(kindred_model_fit_csr_shard(m, NULL, N, D, csr_indptr, csr_indices, csr_values, 0, N, NULL),
                      KINDRED_E_INVALID, "does not accept sparse");
    kindred_model_free(m);
}

/* ---- fits with side information over the same splits: 1 to 4 ranks,
 * uneven and permuted slices, an empty one, one inside a chunk */

/* The splits of these fits: ranks r = 0..p-1 take the slices [cuts[slice[r]], cuts[slice[r] + 1]). */
static const struct {
    int p;
    int64_t cuts[THREAD_COMM_MAX_RANKS + 1];
    int slice[THREAD_COMM_MAX_RANKS];
} splits[] = {
    {1, {0, N}, {0}},
    {2, {0, 40001, N}, {1, 0}},
    {3, {0, 33000, 33001, N}, {1, 2, 0}},
    {4, {0, 20000, 20000, 65537, N}, {3, 1, 0, 2}},
};
enum { SPLITS = sizeof splits / sizeof splits[0] };

/* KINDRED_SHARD_RANKS: the rank counts whose splits the loops over splits run, as digits ("4": the
 * 4-rank split only, with its permuted slices, an empty one and one inside a chunk); unset: every
 * split. For ThreadSanitizer (.ci/run), where a fit costs about 40 times a release one and races
 * need threads, not every split; main says when it is set. */
static int split_selected(size_t c) {
    const char *ranks = getenv("KINDRED_SHARD_RANKS");
    return !ranks || strchr(ranks, '0' + splits[c].p) != NULL;
}

/* Every rank of split c called as `like` says (side information, kernel, extra option). */
static void run_split(size_t c, const char *algorithm, const shard_run *like, shard_run *runs) {
    memset(runs, 0, THREAD_COMM_MAX_RANKS * sizeof *runs);
    for (int r = 0; r < splits[c].p; ++r) {
        runs[r].k = like->k;
        runs[r].side = like->side;
        runs[r].kernel = like->kernel;
        runs[r].likelihood = like->likelihood;
        runs[r].all = like->all;
        runs[r].extra = like->extra;
        runs[r].extra_value = like->extra_value;
        runs[r].text = like->text;
        runs[r].text_value = like->text_value;
        runs[r].real = like->real;
        runs[r].real_value = like->real_value;
        runs[r].distortion = like->distortion;
        runs[r].csr = like->csr;
        runs[r].k = like->k;
    }
    run_world(runs, splits[c].p, splits[c].cuts, splits[c].slice, algorithm);
}

/* Compared with plain for each split. */
static void bitwise_for_splits(const char *algorithm, const reference *plain, const shard_run *like) {
    for (size_t c = 0; c < SPLITS; ++c) {
        if (!split_selected(c)) continue;
        shard_run runs[THREAD_COMM_MAX_RANKS];
        run_split(c, algorithm, like, runs);
        check_equal_to(plain, runs, splits[c].p);
        free_runs(runs, splits[c].p);
    }
}

/* The single-process fit of an algorithm called as `like` says (its
 * options, side information, its rows: `all`, points, or with csr the CSR
 * arrays): labels, trace, summary and every result array. */
static void plain_fit_like(const char *algorithm, const shard_run *like, reference *out) {
    shard_run s = *like;
    s.algorithm = algorithm;
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, algorithm));
    assert_ok(set_run_options(m, &s));
    if (like->csr)
        assert_ok(kindred_model_fit_csr(m, N, D, csr_indptr, csr_indices, csr_values, like->side));
    else
        assert_ok(kindred_model_fit_dense(m, like->all ? like->all : points, N, D, KINDRED_ROW_MAJOR, D, like->side));
    free(out->arrays);
    out->arrays = arrays_blob(m, &out->arrays_bytes);
    assert_non_null(out->arrays);
    assert_ok(kindred_model_labels(m, out->labels, N));
    assert_ok(kindred_model_summary(m, NULL, NULL, &out->clusters, &out->iterations, NULL, &out->objective));
    int64_t rows = 0, cols = 0;
    memset(out->centers, 0, sizeof out->centers); /* dcrc has none: the ranks' copies stay 0 too */
    if (kindred_model_array_shape(m, "centers", &rows, &cols) == KINDRED_OK)
        assert_ok(kindred_model_array(m, "centers", out->centers, MAX_CLUSTERS * D));
    assert_ok(kindred_model_array_shape(m, "objective_trace", &out->trace_rows, &cols));
    assert_ok(kindred_model_array(m, "objective_trace", out->trace, 1000));
    kindred_model_free(m);
}

/* ---- tcs-gm and tcs-vmf, with partial labels on every rank */

static kindred_side *partial_labels(void) {
    kindred_side *side = NULL;
    assert_ok(kindred_side_new(&side, N));
    assert_ok(kindred_side_set_partial_labels(side, partial, N));
    return side;
}

/* Every result array (transform, metric, centres, cluster ids, gamma, ...),
 * labels, trace and iterations bitwise those of one process, for several
 * splits. extra: an option (validation_classes: gamma chosen on a grid). */
static void tcs_bitwise_for_splits(const char *algorithm, const char *extra, int64_t extra_value) {
    kindred_side *side = partial_labels();
    static reference plain;
    plain_fit_with(algorithm, NULL, 0, side, extra, extra_value, &plain);
    assert_true(plain.trace_rows >= 1); /* one FISTA step when warm-started from the grid's A */
    assert_int_equal(plain.clusters, (K - 1) + K);
    shard_run like;
    memset(&like, 0, sizeof like);
    like.side = side;
    like.extra = extra;
    like.extra_value = extra_value;
    bitwise_for_splits(algorithm, &plain, &like);
    free(plain.arrays);
    plain.arrays = NULL;
    kindred_side_free(side);
}

static void tcs_gm_with_partial_labels(void **state) {
    (void)state;
    tcs_bitwise_for_splits("tcs-gm", NULL, 0);
}

static void tcs_gm_gamma_chosen_on_a_grid(void **state) {
    (void)state;
    tcs_bitwise_for_splits("tcs-gm", "validation_classes", 2);
}

static void tcs_vmf_with_partial_labels(void **state) {
    (void)state;
    tcs_bitwise_for_splits("tcs-vmf", NULL, 0);
}

static void tcs_vmf_gamma_chosen_on_a_grid(void **state) {
    (void)state;
    tcs_bitwise_for_splits("tcs-vmf", "validation_classes", 2);
}

/* ---- dcrc, with triplets in full on every rank */

static kindred_side *sampled_triplets(void) {
    kindred_side *side = NULL;
    assert_ok(kindred_side_new(&side, N));
    assert_ok(kindred_sample_triplets(side, truth, N, 400, 0.0, 3));
    return side;
}

/* Labels, weights (and the rbf basis, feature scaling and gamma), objective
 * trace, objective and iterations bitwise those of one process, for 1-4
 * ranks, uneven and permuted slices and an empty one. The 400 triplets join
 * rows of different ranks in every split. */
static void dcrc_bitwise_for_splits(const char *kernel) {
    kindred_side *side = sampled_triplets();
    static reference plain;
    shard_run like;
    memset(&like, 0, sizeof like);
    like.side = side;
    like.kernel = kernel;
    if (kernel) {
        like.extra = "kernel_basis";
        like.extra_value = 25;
    }
    plain_fit_like("dcrc", &like, &plain);
    assert_int_equal(plain.clusters, K);
    assert_true(plain.trace_rows >= 2);
    bitwise_for_splits("dcrc", &plain, &like);
    free(plain.arrays);
    plain.arrays = NULL;
    kindred_side_free(side);
}

static void dcrc_linear_with_triplets(void **state) {
    (void)state;
    dcrc_bitwise_for_splits(NULL);
}

static void dcrc_rbf_with_triplets(void **state) {
    (void)state;
    dcrc_bitwise_for_splits("rbf");
}

/* ---- tvclust: on several ranks an approximate sampler (KINDRED_USES_SHARDS_APPROX) */

/* With one rank it is the plain fit, bit for bit (labels, centres, log joint trace, objective). */
static void tvclust_one_rank_is_the_plain_fit(void **state) {
    (void)state;
    static reference plain;
    plain_fit_of("tvclust", NULL, 0, pairs_side, &plain);
    shard_run like, runs[THREAD_COMM_MAX_RANKS];
    memset(&like, 0, sizeof like);
    like.side = pairs_side;
    run_split(0, "tvclust", &like, runs);
    check_equal_to(&plain, runs, 1);
    free_runs(runs, 1);
}

/* Each rank's labels in the array of all N points; the NMI against the truth. */
static double nmi_of_runs(const shard_run *runs, int p) {
    static int32_t all[N];
    for (int r = 0; r < p; ++r) {
        if (runs[r].status != KINDRED_OK) print_error("rank %d: %s\n", r, runs[r].message);
        assert_int_equal(runs[r].status, KINDRED_OK);
        memcpy(all + runs[r].row_offset, runs[r].labels, (size_t)runs[r].n_local * sizeof(int32_t));
    }
    double nmi = 0;
    assert_ok(kindred_metric("nmi", truth, all, N, &nmi));
    return nmi;
}

/* On 2 to 4 ranks (uneven shards, an empty one, one inside a chunk), fits called as `like` says:
 * every rank gets the same model (every result array, the trace, the objective, the number of
 * clusters), labels within it, and the same again when run twice (the random streams depend on
 * the seed and the split). */
static void tvclust_ranks_agree(const shard_run *like) {
    for (size_t c = 1; c < SPLITS; ++c) {
        if (!split_selected(c)) continue;
        const int p = splits[c].p;
        shard_run runs[THREAD_COMM_MAX_RANKS], again[THREAD_COMM_MAX_RANKS];
        run_split(c, "tvclust", like, runs);
        run_split(c, "tvclust", like, again);
        const double nmi = nmi_of_runs(runs, p); /* every rank succeeded */
        assert_true(nmi > 0.5);
        for (int r = 0; r < p; ++r) {
            assert_string_equal(runs[r].message, "");
            assert_int_equal(runs[r].clusters, runs[0].clusters);
            assert_true(runs[r].clusters >= 1 && runs[r].clusters <= MAX_CLUSTERS);
            assert_int_equal(runs[r].trace_rows, 12);
            assert_int_equal(runs[r].arrays_bytes, runs[0].arrays_bytes);
            assert_memory_equal(runs[r].arrays, runs[0].arrays, runs[0].arrays_bytes);
            assert_memory_equal(&runs[r].objective, &runs[0].objective, sizeof(double));
            for (int64_t i = 0; i < runs[r].n_local; ++i)
                assert_true(runs[r].labels[i] >= 0 && runs[r].labels[i] < runs[0].clusters);
            assert_memory_equal(runs[r].labels, again[r].labels, (size_t)runs[r].n_local * sizeof(int32_t));
            assert_memory_equal(runs[r].arrays, again[r].arrays, runs[0].arrays_bytes);
        }
        assert_float_equal(nmi, nmi_of_runs(again, p), 0.0);
        free_runs(runs, p);
        free_runs(again, p);
    }
}

static void tvclust_ranks_hold_one_model(void **state) {
    (void)state;
    shard_run like;
    memset(&like, 0, sizeof like);
    like.side = pairs_side;
    tvclust_ranks_agree(&like);
}

/* The multinomial likelihood's sums (count, total, summed counts) on the ranks: counts, with the pairs. */
static void tvclust_multinomial_ranks_hold_one_model(void **state) {
    (void)state;
    shard_run like;
    memset(&like, 0, sizeof like);
    like.side = pairs_side;
    like.likelihood = "multinomial";
    like.all = counts;
    tvclust_ranks_agree(&like);
}

/* The mean NMI over seeds of the fit on the ranks of split (p, cuts, slice), with side. */
enum { TVCLUST_SEEDS = 6 };
static double tvclust_mean_nmi(int p, const int64_t *cuts, const int *slice, const kindred_side *side) {
    double sum = 0;
    for (int64_t seed = 1; seed <= TVCLUST_SEEDS; ++seed) {
        shard_run runs[THREAD_COMM_MAX_RANKS];
        memset(runs, 0, sizeof runs);
        for (int r = 0; r < p; ++r) {
            runs[r].side = side;
            runs[r].extra = "seed";
            runs[r].extra_value = seed;
        }
        run_world(runs, p, cuts, slice, "tvclust");
        sum += nmi_of_runs(runs, p);
        free_runs(runs, p);
    }
    return sum / TVCLUST_SEEDS;
}

/* The sharded sampler is not the sequential one, but on these blobs, with pairs between most
 * ranks' rows, its mean NMI over seeds must be that of one process within TVCLUST_NMI_TOLERANCE.
 * The ranks compute on whole chunks of 32768 rows, so p = 2 and p = 3 here are splits at chunk
 * boundaries, where every rank samples points.
 *
 * The tolerance, from measurements (12 sweeps, seeds 1-6): one process 0.9275, 2 ranks 0.8356,
 * 3 ranks 0.8218. Single seeds land in one of a few modes (4 or 5 clusters found, NMI 0.90 or
 * 1.00; on several ranks also 3, NMI 0.66-0.79), a standard deviation of about 0.09 per seed,
 * so about 0.05 for a difference of two means of 6 seeds. The sharded sampler is worse here by
 * about 0.1 (it mixes more slowly: clusters opened on two ranks in one sweep are two clusters
 * until one drains into the other); 0.15 is that gap and one standard error. It can fail:
 * with the link factors left out on the ranks (the pairs ignored, as a transport that lost
 * them would) it measured 0.7373 on 2 ranks and 0.7847 on 3. With the label exchange left out
 * the mean NMI hardly moves on these blobs (about 0.80 on 2 ranks over the first 4 seeds): that fault is caught by
 * tvclust_ranks_hold_one_model, whose ranks then disagree on the log joint. The seeds are
 * fixed, so the test gives the same answer on every run of one build. */
static void tvclust_nmi_as_in_one_process(void **state) {
    (void)state;
    kindred_side *side = NULL;
    assert_ok(kindred_side_new(&side, N));
    assert_ok(kindred_sample_pairs(side, truth, N, TVCLUST_PAIRS, 0.0, 0.0, 13));
    const int64_t one[] = {0, N}, two[] = {0, 32768, N}, three[] = {0, 32768, 65536, N};
    const int order[] = {0, 1, 2};
    const double single = tvclust_mean_nmi(1, one, order, side);
    const double on_two = tvclust_mean_nmi(2, two, order, side), on_three = tvclust_mean_nmi(3, three, order, side);
    print_message("tvclust mean NMI over %d seeds: one process %.4f, 2 ranks %.4f, 3 ranks %.4f\n", TVCLUST_SEEDS,
                  single, on_two, on_three);
    assert_true(fabs(on_two - single) <= TVCLUST_NMI_TOLERANCE);
    assert_true(fabs(on_three - single) <= TVCLUST_NMI_TOLERANCE);
    kindred_side_free(side);
}

/* ---- pckmeans, with must-links and cannot-links across ranks */

/* Labels, centres, metric, objective trace, objective, iterations and every
 * result array bitwise those of one process for the 400 pairs of pairs_side
 * (most of them join rows of two ranks), 2 restarts (the second from
 * k-means++ over units or points), and an extra integer option when given.
 * propagation: robust, transitive, off, or NULL for its default auto; the
 * weight option (pckmeans' penalty, mpckmeans' constraint_weight): > 0, or 0
 * for unset. Unset, they are chosen by cross-validation over the pairs (6
 * candidates x 3 folds of fits on the ranks, the held-out pairs' end labels
 * gathered): the chosen values (result arrays chosen_weight,
 * chosen_propagation) and the fit made with them are compared too. */
static void like_bitwise_for_splits(const char *algorithm, const shard_run *like, const char *expect_array) {
    static reference plain;
    plain_fit_like(algorithm, like, &plain);
    assert_int_equal(plain.clusters, K);
    assert_true(plain.trace_rows >= 2);
    if (expect_array) {
        const size_t length = strlen(expect_array) + 1;
        int found = 0;
        for (size_t b = 0; b + length <= plain.arrays_bytes && !found; ++b)
            found = memcmp(plain.arrays + b, expect_array, length) == 0;
        assert_true(found);
    }
    bitwise_for_splits(algorithm, &plain, like);
    free(plain.arrays);
    plain.arrays = NULL;
}

/* side: the pairs (pairs_side; noisy_pairs_side for the cleaning refit).
 * expect_array: a result array the one-process fit must hold, or NULL. */
static void hmrf_bitwise_for_splits(const char *algorithm, const kindred_side *side, const char *propagation,
                                    const char *weight, double weight_value, const char *extra, int64_t extra_value,
                                    const char *expect_array) {
    shard_run like;
    memset(&like, 0, sizeof like);
    like.side = side;
    if (propagation) {
        like.text = "propagation";
        like.text_value = propagation;
    }
    if (weight_value > 0.0) {
        like.real = weight;
        like.real_value = weight_value;
    }
    like.extra = extra;
    like.extra_value = extra_value;
    like_bitwise_for_splits(algorithm, &like, expect_array);
}

static void pckmeans_bitwise_for_splits(const char *propagation, double penalty) {
    hmrf_bitwise_for_splits("pckmeans", pairs_side, propagation, "penalty", penalty, NULL, 0, NULL);
}

static void pckmeans_robust_units_across_ranks(void **state) {
    (void)state;
    pckmeans_bitwise_for_splits("robust", 1.0);
}

static void pckmeans_transitive_units_across_ranks(void **state) {
    (void)state;
    pckmeans_bitwise_for_splits("transitive", 1.0);
}

static void pckmeans_pointwise_across_ranks(void **state) {
    (void)state;
    pckmeans_bitwise_for_splits("off", 1.0);
}

/* The cleaning refit (cleaning_rounds 1, the default) of a point-wise fit
 * that violates wrong answers: the pairs it satisfies are found from the end
 * labels gathered from the ranks, and the refit on them is bitwise that of
 * one process too (the result chosen_pairs_kept among the arrays compared). */
static void pckmeans_cleaning_across_ranks(void **state) {
    (void)state;
    hmrf_bitwise_for_splits("pckmeans", noisy_pairs_side, "off", "penalty", 1.0, NULL, 0, "chosen_pairs_kept");
}

/* pckmeans's defaults: penalty and propagation both chosen by cross-validation. */
static void pckmeans_defaults_across_ranks(void **state) {
    (void)state;
    pckmeans_bitwise_for_splits(NULL, 0.0);
}

/* One of the two chosen, the other set: the penalty for robust units, the
 * propagation for penalty 1. */
static void pckmeans_one_value_chosen_across_ranks(void **state) {
    (void)state;
    pckmeans_bitwise_for_splits("robust", 0.0);
    pckmeans_bitwise_for_splits(NULL, 1.0);
}

/* ---- dpmeans, with the same pairs */

/* dpmeans with neither lambda nor k, the pairs on every rank: lambda chosen
 * by cross-validation over the pairs (12 candidates x 3 folds of fits on the
 * ranks) from the reach, the largest distance from the mean over all the
 * ranks' points; the chosen lambda and the fit made with it bitwise one
 * process over the splits. */
static void dpmeans_lambda_chosen_across_ranks(void **state) {
    (void)state;
    static reference plain;
    shard_run like;
    memset(&like, 0, sizeof like);
    like.side = pairs_side;
    like.k = -1;
    like.extra = "max_iter"; /* 37 fits a split: 2 passes each (the small lambdas open many clusters) */
    like.extra_value = 2;
    plain_fit_like("dpmeans", &like, &plain);
    assert_true(plain.clusters > 1);
    bitwise_for_splits("dpmeans", &plain, &like);
    free(plain.arrays);
    plain.arrays = NULL;
}

/* ---- standardize: the scaling of all the ranks' points */

/* standardize = 1 on one_flat: the per-feature mean and deviation are chunk
 * sums over the ranks' rows, so the stored scaling (standardize_mean,
 * standardize_scale; the constant feature's scale 0), labels, trace and
 * every result array are bitwise those of one process over the splits. */
static void standardized_bitwise_for_splits(const char *algorithm, const kindred_side *side, reference *plain) {
    shard_run like;
    memset(&like, 0, sizeof like);
    like.side = side;
    like.all = one_flat;
    like.extra = "standardize";
    like.extra_value = 1;
    plain_fit_like(algorithm, &like, plain);
    bitwise_for_splits(algorithm, plain, &like);
    free(plain->arrays);
    plain->arrays = NULL;
}

static void kmeans_standardized_across_ranks(void **state) {
    (void)state;
    static reference plain;
    standardized_bitwise_for_splits("kmeans", NULL, &plain);
    assert_int_equal(plain.clusters, K);
    for (int c = 0; c < K; ++c) assert_true(plain.centers[c * D + 2] == 0.0); /* the constant feature */
}

/* dcrc's default standardize = 1 (its own design scaled once more, as in one process). */
static void dcrc_standardized_across_ranks(void **state) {
    (void)state;
    static reference plain;
    kindred_side *side = sampled_triplets();
    standardized_bitwise_for_splits("dcrc", side, &plain);
    assert_int_equal(plain.clusters, K);
    kindred_side_free(side);
}

/* ---- mpckmeans (euclidean-diag), with the same pairs */

/* Labels, centres, the learned weights (metric), objective trace, objective
 * and iterations bitwise those of one process, constraint_weight 1 (or
 * chosen by cross-validation: mpckmeans_defaults_across_ranks), 2 restarts; the diagonal
 * scatter, the log-determinant's n and the metric's start A_0 = n / S_mm are
 * taken over all the ranks' rows. metric_constraints: the violated pairs'
 * rows enter the metric update and the potentials phi (point-wise fits),
 * read from the pair ends gathered on every rank. */
static void mpckmeans_bitwise_for_splits(const char *propagation, int metric_constraints) {
    hmrf_bitwise_for_splits("mpckmeans", pairs_side, propagation, "constraint_weight", propagation ? 1.0 : 0.0,
                            "metric_constraints", metric_constraints, NULL);
}

static void mpckmeans_robust_units_across_ranks(void **state) {
    (void)state;
    mpckmeans_bitwise_for_splits("robust", 0);
}

static void mpckmeans_pointwise_across_ranks(void **state) {
    (void)state;
    mpckmeans_bitwise_for_splits("off", 0);
}

static void mpckmeans_pairs_in_the_metric_across_ranks(void **state) {
    (void)state;
    mpckmeans_bitwise_for_splits("off", 1);
}

/* mpckmeans's defaults (euclidean-diag): constraint_weight and propagation
 * chosen by cross-validation over the pairs, on the ranks as for pckmeans. */
static void mpckmeans_defaults_across_ranks(void **state) {
    (void)state;
    mpckmeans_bitwise_for_splits(NULL, 0);
}

/* ---- mpckmeans with the other distortions: point-wise, constraint_weight 1,
 * the violated pairs in the metric update (metric_constraints), so that the
 * gathered pair ends enter phi and the gradient. euclidean-full: the d x d
 * scatter of each global chunk by SYRK, the chunks' matrices added in chunk
 * order; cosine and idiv: their centroids' and gradients' sums over the
 * points one pass over the ranks in index order (idiv on the counts,
 * non-negative; cosine on the CSR rows, which have negative entries and
 * rows listing their columns in reverse). */
static void mpckmeans_distortion_bitwise_for_splits(const char *distortion, const double *all, int csr) {
    shard_run like;
    memset(&like, 0, sizeof like);
    like.side = pairs_side;
    like.text = "propagation";
    like.text_value = "off";
    like.real = "constraint_weight";
    like.real_value = 1.0;
    like.extra = "metric_constraints";
    like.extra_value = 1;
    like.distortion = distortion;
    like.all = all;
    like.csr = csr;
    like_bitwise_for_splits("mpckmeans", &like, NULL);
}

static void mpckmeans_full_metric_across_ranks(void **state) {
    (void)state;
    mpckmeans_distortion_bitwise_for_splits("euclidean-full", NULL, 0);
}

static void mpckmeans_cosine_across_ranks(void **state) {
    (void)state;
    mpckmeans_distortion_bitwise_for_splits("cosine", NULL, 1);
}

static void mpckmeans_idiv_across_ranks(void **state) {
    (void)state;
    mpckmeans_distortion_bitwise_for_splits("idiv", counts, 0);
}

/* ---- without other ranks */

static void null_comm_is_the_plain_fit(void **state) {
    (void)state;
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "kmeans"));
    assert_ok(kindred_model_set_int(m, "k", K));
    assert_ok(kindred_model_set_int(m, "n_init", 2));
    assert_ok(kindred_model_set_int(m, "seed", 7));
    assert_ok(kindred_model_fit_dense_shard(m, NULL, points, N, D, KINDRED_ROW_MAJOR, D, 0, N, NULL));
    static int32_t labels[N];
    assert_ok(kindred_model_labels(m, labels, N));
    if (plain_kmeans.trace_rows == 0) plain_fit("kmeans", NULL, &plain_kmeans);
    assert_memory_equal(labels, plain_kmeans.labels, sizeof labels);
    assert_fails_with(kindred_model_fit_dense_shard(m, NULL, points, 100, D, KINDRED_ROW_MAJOR, D, 5, N, NULL),
                      KINDRED_E_DIMENSION, "row_offset = 5");
    kindred_comm bad;
    memset(&bad, 0, sizeof bad);
    bad.struct_size = sizeof bad;
    bad.size = 0;
    assert_fails_with(kindred_model_fit_dense_shard(m, &bad, points, N, D, KINDRED_ROW_MAJOR, D, 0, N, NULL),
                      KINDRED_E_INVALID, "rank 0 of size 0");
    bad.size = 2;
    assert_fails_with(kindred_model_fit_dense_shard(m, &bad, points, N, D, KINDRED_ROW_MAJOR, D, 0, N, NULL),
                      KINDRED_E_INVALID, "callbacks must not be NULL");
    bad.struct_size = 8;
    assert_fails_with(kindred_model_fit_dense_shard(m, &bad, points, N, D, KINDRED_ROW_MAJOR, D, 0, N, NULL),
                      KINDRED_E_INVALID, "struct_size");
    assert_fails_with(kindred_model_fit_dense_shard(NULL, NULL, points, N, D, KINDRED_ROW_MAJOR, D, 0, N, NULL),
                      KINDRED_E_INVALID, "model");
    kindred_model_free(m);
}

static void flags_say_which_algorithms_shard(void **state) {
    (void)state;
    int flags = 0;
    assert_ok(kindred_algorithm_uses("kmeans", &flags));
    assert_true(flags & KINDRED_USES_SHARDS);
    assert_ok(kindred_algorithm_uses("copkmeans", &flags));
    assert_true(flags & KINDRED_USES_SHARDS);
    assert_ok(kindred_algorithm_uses("tcs-gm", &flags));
    assert_true(flags & KINDRED_USES_SHARDS);
    assert_ok(kindred_algorithm_uses("tcs-vmf", &flags));
    assert_true(flags & KINDRED_USES_SHARDS);
    assert_ok(kindred_algorithm_uses("dcrc", &flags));
    assert_true(flags & KINDRED_USES_SHARDS);
    assert_ok(kindred_algorithm_uses("tvclust", &flags));
    assert_true(flags & KINDRED_USES_SHARDS_APPROX);
    assert_false(flags & KINDRED_USES_SHARDS);
    assert_ok(kindred_algorithm_uses("pckmeans", &flags));
    assert_true(flags & KINDRED_USES_SHARDS);
    assert_ok(kindred_algorithm_uses("mpckmeans", &flags));
    assert_true(flags & KINDRED_USES_SHARDS);
    assert_ok(kindred_algorithm_uses("rdpmeans", &flags));
    assert_true(flags & KINDRED_USES_SHARDS);
    /* Every registered algorithm has a sharded fit, exact or approximate:
     * kindred_model_fit_dense_shard's refusal of an algorithm without one
     * stays as a guard for the next algorithm added, which must set one of
     * the flags or be refused there. */
    for (int64_t a = 0; a < kindred_algorithm_count(); ++a) {
        const char *name = kindred_algorithm_name(a);
        assert_ok(kindred_algorithm_uses(name, &flags));
        if (!(flags & (KINDRED_USES_SHARDS | KINDRED_USES_SHARDS_APPROX))) print_error("%s has no sharded fit\n", name);
        assert_true(flags & (KINDRED_USES_SHARDS | KINDRED_USES_SHARDS_APPROX));
    }
}

/* ---- faults: every rank returns the same status and message */

static void same_failure_everywhere(shard_run *runs, int p, int code, const char *needle) {
    for (int r = 0; r < p; ++r) {
        assert_int_equal(runs[r].status, code);
        assert_string_equal(runs[r].message, runs[0].message);
    }
    if (!strstr(runs[0].message, needle)) print_error("message: %s\n", runs[0].message);
    assert_non_null(strstr(runs[0].message, needle));
    free_runs(runs, p);
}

/* ---- rdpmeans: its pass runs rank after rank, the labels of linked rows sent after each turn */

/* Pairs for rdpmeans: 20000 of them (10% flipped), so that most points that
 * read their link terms read some on other ranks, and the flipped ones make
 * links decide against the nearest centre. */
static kindred_side *rdpmeans_pairs(void) {
    kindred_side *side = NULL;
    assert_ok(kindred_side_new(&side, N));
    assert_ok(kindred_sample_pairs(side, truth, N, 20000, 0.0, 0.1, 17));
    return side;
}

/* Labels, centres, objective trace and every result array (xi, clusters and
 * lambda traces), objective and iterations bitwise those of one process for
 * the splits (1-4 ranks, uneven and permuted, an empty one, one inside a
 * chunk), called as `like` says. The plain fit must have opened clusters and
 * iterated, or the comparison proves little. */
static void rdpmeans_bitwise_for_splits(const shard_run *like) {
    static reference plain;
    plain_fit_like("rdpmeans", like, &plain);
    print_message("rdpmeans plain fit: %lld clusters, %lld iterations\n", (long long)plain.clusters,
                  (long long)plain.iterations);
    assert_true(plain.clusters > 1);
    assert_true(plain.iterations > 2);
    bitwise_for_splits("rdpmeans", &plain, like);
    free(plain.arrays);
    plain.arrays = NULL;
}

static void rdpmeans_with_lambda_and_pairs_across_ranks(void **state) {
    (void)state;
    kindred_side *side = rdpmeans_pairs();
    shard_run like;
    memset(&like, 0, sizeof like);
    like.side = side;
    like.k = -1;
    like.real = "lambda";
    like.real_value = 60.0;
    like.text = "xi_0"; /* the links weigh from the first pass (a string option's setter parses it) */
    like.text_value = "2";
    like.extra = "stable_iterations"; /* 8 repeats of an unchanged pass (certified by every rank at once) */
    like.extra_value = 8;
    rdpmeans_bitwise_for_splits(&like);
    kindred_side_free(side);
}

/* lambda from the hint k (farthest-first over all ranks' rows), the 400 pairs of pairs_side. */
static void rdpmeans_with_a_k_hint_across_ranks(void **state) {
    (void)state;
    shard_run like;
    memset(&like, 0, sizeof like);
    like.side = pairs_side;
    rdpmeans_bitwise_for_splits(&like);
}

/* Neither lambda nor k: lambda chosen by cross-validation over the 400 pairs
 * (16 candidates x 3 folds of sharded fits from the dsquared start, whose
 * seeding and the grid's top are sums over every rank's rows), then xi_max
 * (4 values x 3 folds, in units of the spread, a sum over the ranks); the
 * choices (chosen_lambda and chosen_xi_max, among every result array) and
 * the fit made with them. 61 fits each time: only on the 4 ranks of the last split
 * (uneven, permuted, an empty one), and of 4 passes each (CI runs this file
 * under ThreadSanitizer). */
static void rdpmeans_lambda_chosen_across_ranks(void **state) {
    (void)state;
    shard_run like, runs[THREAD_COMM_MAX_RANKS];
    memset(&like, 0, sizeof like);
    like.side = pairs_side;
    like.k = -1;
    like.extra = "max_iter";
    like.extra_value = 4;
    static reference plain;
    plain_fit_like("rdpmeans", &like, &plain);
    assert_true(plain.clusters > 1);
    run_split(SPLITS - 1, "rdpmeans", &like, runs);
    check_equal_to(&plain, runs, splits[SPLITS - 1].p);
    free_runs(runs, splits[SPLITS - 1].p);
    free(plain.arrays);
    plain.arrays = NULL;
}

/* CSR rows on 4 uneven ranks in a permuted order, the 20000 pairs. */
static void rdpmeans_csr_rows(void **state) {
    (void)state;
    kindred_side *side = rdpmeans_pairs();
    const int64_t cuts[] = {0, 5000, 40000, 40000, N};
    const int slice[] = {3, 0, 2, 1};
    csr_bitwise_equal("rdpmeans", side, 4, cuts, slice);
    kindred_side_free(side);
}

/* A cancel on one rank stops all (in a fit, and between two fits of the
 * cross-validation); neither lambda nor k without pairs, and the spectral
 * start, are refused on every rank. */
static void rdpmeans_faults(void **state) {
    (void)state;
    const int64_t cuts[] = {0, 40000, N};
    const int slice[] = {0, 1};
    shard_run runs[THREAD_COMM_MAX_RANKS];
    memset(runs, 0, sizeof runs);
    for (int r = 0; r < 2; ++r) runs[r].side = pairs_side;
    runs[1].cancel = 1;
    run_world(runs, 2, cuts, slice, "rdpmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_CANCELLED, "rank 1: cancelled by the progress callback at iteration 2");
    memset(runs, 0, sizeof runs);
    for (int r = 0; r < 2; ++r) {
        runs[r].side = pairs_side;
        runs[r].k = -1;
    }
    runs[1].cancel = 3;
    run_world(runs, 2, cuts, slice, "rdpmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_CANCELLED, "rank 1: cancelled by the progress callback at iteration 2");
    memset(runs, 0, sizeof runs);
    for (int r = 0; r < 2; ++r) runs[r].k = -1;
    run_world(runs, 2, cuts, slice, "rdpmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_INVALID, "rdpmeans: set lambda, or k");
    memset(runs, 0, sizeof runs);
    for (int r = 0; r < 2; ++r) {
        runs[r].text = "init";
        runs[r].text_value = "spectral";
    }
    run_world(runs, 2, cuts, slice, "rdpmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_INVALID, "init 'spectral' is not available in a sharded fit");
}

static void a_nan_on_one_rank(void **state) {
    (void)state;
    static double spoiled[N * D];
    memcpy(spoiled, points, sizeof spoiled);
    spoiled[(50000 + 3) * D + 1] = 0.0 / 0.0;
    const int64_t cuts[] = {0, 40000, N};
    const int slice[] = {0, 1};
    shard_run runs[THREAD_COMM_MAX_RANKS];
    memset(runs, 0, sizeof runs);
    runs[1].x = spoiled + 40000 * D;
    run_world(runs, 2, cuts, slice, "kmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_INVALID, "row 10003, column 1 is NaN (rows of this rank counted from 0; its first row is row 40000");
}

static void other_options_on_one_rank(void **state) {
    (void)state;
    const int64_t cuts[] = {0, 10000, 40000, N};
    const int slice[] = {0, 1, 2};
    shard_run runs[THREAD_COMM_MAX_RANKS];
    memset(runs, 0, sizeof runs);
    runs[2].k = K + 1;
    run_world(runs, 3, cuts, slice, "kmeans");
    same_failure_everywhere(runs, 3, KINDRED_E_INVALID, "rank 2 has other options");
}

static void other_side_information_on_one_rank(void **state) {
    (void)state;
    kindred_side *side = NULL;
    assert_ok(kindred_side_new(&side, N));
    const int64_t i[] = {0}, j[] = {1};
    const double v[] = {1.0};
    assert_ok(kindred_side_add_pairs(side, i, j, v, 1));
    const int64_t cuts[] = {0, 40000, N};
    const int slice[] = {0, 1};
    shard_run runs[THREAD_COMM_MAX_RANKS];
    memset(runs, 0, sizeof runs);
    runs[0].side = side;
    run_world(runs, 2, cuts, slice, "kmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_INVALID, "other side information");
    kindred_side_free(side);
}

static void a_cancel_on_one_rank(void **state) {
    (void)state;
    const int64_t cuts[] = {0, 40000, N};
    const int slice[] = {0, 1};
    shard_run runs[THREAD_COMM_MAX_RANKS];
    memset(runs, 0, sizeof runs);
    runs[1].cancel = 1;
    run_world(runs, 2, cuts, slice, "kmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_CANCELLED, "rank 1: ");
}

static void rows_that_overlap_or_leave_a_gap(void **state) {
    (void)state;
    const int slice[] = {0, 1};
    shard_run runs[THREAD_COMM_MAX_RANKS];
    const int64_t overlap[] = {0, 40000, 39000};  /* slices [0, 40000) and [40000, 39000): n_local < 0 */
    memset(runs, 0, sizeof runs);
    run_world(runs, 2, overlap, slice, "kmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_DIMENSION, "rank 1: ");
    const int64_t gap[] = {0, 30000, 30000};  /* rows [30000, N) on no rank */
    memset(runs, 0, sizeof runs);
    run_world(runs, 2, gap, slice, "kmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_DIMENSION, "the ranks hold 30000 rows together");
}


/* Rows a distortion refuses on one rank only (cosine: a zero row; idiv: a
 * negative entry): every rank fails with that rank's message, none waits. */
static void mpckmeans_distortion_refuses_rows_on_one_rank(void **state) {
    (void)state;
    static double spoiled[N * D];
    const char *const names[] = {"cosine", "idiv"};
    const char *const needles[] = {"is a zero vector", "needs non-negative data"};
    const int64_t cuts[] = {0, 40000, N};
    const int slice[] = {0, 1};
    for (size_t c = 0; c < sizeof names / sizeof names[0]; ++c) {
        memcpy(spoiled, c == 0 ? points : counts, sizeof spoiled);
        /* Rank 1 holds the rows from 65536 (its slice starts inside rank 0's last chunk). */
        for (int64_t m = 0; m < D; ++m) spoiled[(66000 + 3) * D + m] = c == 0 ? 0.0 : -1.0;
        shard_run runs[THREAD_COMM_MAX_RANKS];
        memset(runs, 0, sizeof runs);
        for (int r = 0; r < 2; ++r) {
            runs[r].side = pairs_side;
            runs[r].distortion = names[c];
            runs[r].real = "constraint_weight";
            runs[r].real_value = 1.0;
            runs[r].all = spoiled;
        }
        run_world(runs, 2, cuts, slice, "mpckmeans");
        same_failure_everywhere(runs, 2, KINDRED_E_INVALID, needles[c]);
        assert_non_null(strstr(runs[0].message, "rank 1: "));
        assert_non_null(strstr(runs[0].message, "row 66003"));
    }
}

/* A cannot-link triangle across three ranks with k = 2: every run fails, on
 * every rank at the same point, with the message of the single-process fit. */
/* tvclust's co-clustering matrix needs every label on every rank: refused by all. */
static void tvclust_coclustering_refused(void **state) {
    (void)state;
    shard_run like, runs[THREAD_COMM_MAX_RANKS];
    memset(&like, 0, sizeof like);
    like.side = pairs_side;
    like.extra = "coclustering";
    like.extra_value = 1;
    run_split(1, "tvclust", &like, runs);
    same_failure_everywhere(runs, splits[1].p, KINDRED_E_INVALID, "not available in a sharded fit");
}

static void copkmeans_infeasible_on_every_rank(void **state) {
    (void)state;
    kindred_side *side = NULL;
    assert_ok(kindred_side_new(&side, N));
    const int64_t i[] = {3, 3, 40000}, j[] = {40000, 69998, 69998};
    const double v[] = {-1.0, -1.0, -1.0};
    assert_ok(kindred_side_add_pairs(side, i, j, v, 3));
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "copkmeans"));
    assert_ok(set_options(m, "copkmeans", 2));
    assert_int_equal(kindred_model_fit_dense(m, points, N, D, KINDRED_ROW_MAJOR, D, side), KINDRED_E_INFEASIBLE);
    char plain[MESSAGE];
    snprintf(plain, MESSAGE, "%s", kindred_last_error());
    kindred_model_free(m);
    const int64_t cuts[] = {0, 30000, 50000, N};
    const int slice[] = {1, 2, 0};
    shard_run runs[THREAD_COMM_MAX_RANKS];
    memset(runs, 0, sizeof runs);
    for (int r = 0; r < 3; ++r) {
        runs[r].side = side;
        runs[r].k = 2;
    }
    run_world(runs, 3, cuts, slice, "copkmeans");
    assert_string_equal(runs[0].message, plain);
    same_failure_everywhere(runs, 3, KINDRED_E_INFEASIBLE, "(all 2 runs failed)");
    /* A cannot-link inside a must-link component: refused before any work. */
    const int64_t a[] = {5, 5}, b[] = {50000, 60000};
    const double w[] = {1.0, 1.0};
    assert_ok(kindred_side_add_pairs(side, a, b, w, 2));
    const int64_t c[] = {50000}, e[] = {60000};
    const double u[] = {-1.0};
    assert_ok(kindred_side_add_pairs(side, c, e, u, 1));
    memset(runs, 0, sizeof runs);
    for (int r = 0; r < 3; ++r) runs[r].side = side;
    run_world(runs, 3, cuts, slice, "copkmeans");
    same_failure_everywhere(runs, 3, KINDRED_E_INFEASIBLE, "the hard constraints are contradictory");
    kindred_side_free(side);
}

/* An algorithm with pairs (400, pairs_side) on two ranks, rank 1 holding rows
 * [40000, N); propagation (pckmeans) and penalty (> 0) set when given, rank 1
 * cancelling at iteration 2 when cancel (as shard_run.cancel says). */
static void pairs_on_two_ranks(shard_run *runs, const char *algorithm, const char *propagation, double penalty,
                               int cancel) {
    const int64_t cuts[] = {0, 40000, N};
    const int slice[] = {0, 1};
    memset(runs, 0, THREAD_COMM_MAX_RANKS * sizeof *runs);
    for (int r = 0; r < 2; ++r) {
        runs[r].side = pairs_side;
        if (propagation) {
            runs[r].text = "propagation";
            runs[r].text_value = propagation;
        }
        if (penalty > 0.0) {
            runs[r].real = "penalty";
            runs[r].real_value = penalty;
        }
    }
    runs[1].cancel = cancel;
    run_world(runs, 2, cuts, slice, algorithm);
}

/* copkmeans and pckmeans (propagated, point-wise, tuned), with pairs: a cancel on one rank is every rank's. */
static void pairwise_cancel_on_one_rank(void **state) {
    (void)state;
    shard_run runs[THREAD_COMM_MAX_RANKS];
    pairs_on_two_ranks(runs, "copkmeans", NULL, 0.0, 1);
    same_failure_everywhere(runs, 2, KINDRED_E_CANCELLED, "rank 1: ");
    pairs_on_two_ranks(runs, "pckmeans", "robust", 1.0, 1);
    same_failure_everywhere(runs, 2, KINDRED_E_CANCELLED, "rank 1: ");
    pairs_on_two_ranks(runs, "pckmeans", "off", 1.0, 1);
    same_failure_everywhere(runs, 2, KINDRED_E_CANCELLED, "rank 1: ");
    /* penalty and propagation chosen by cross-validation: cancelled between two fits of the folds */
    pairs_on_two_ranks(runs, "pckmeans", NULL, 0.0, 3);
    same_failure_everywhere(runs, 2, KINDRED_E_CANCELLED, "rank 1: cancelled by the progress callback at iteration 2");
}

static void csr_faults_on_one_rank(void **state) {
    (void)state;
    const int64_t cuts[] = {0, 40000, N};
    const int slice[] = {0, 1};
    shard_run runs[THREAD_COMM_MAX_RANKS];
    const int64_t base = csr_indptr[40000], n1 = N - 40000;
    static int64_t indptr[N + 1], indices[N * D];
    static double values[N * D];
    for (int64_t i = 0; i <= n1; ++i) indptr[i] = csr_indptr[40000 + i] - base;
    memcpy(indices, csr_indices + base, (size_t)indptr[n1] * sizeof(int64_t));
    memcpy(values, csr_values + base, (size_t)indptr[n1] * sizeof(double));

    indptr[0] = 1; /* does not start at 0 */
    memset(runs, 0, sizeof runs);
    runs[0].csr = runs[1].csr = 1;
    runs[1].indptr = indptr;
    run_world(runs, 2, cuts, slice, "kmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_INVALID, "rank 1: CSR indptr[0] must be 0, got 1");
    indptr[0] = 0;

    const int64_t saved = indptr[11];
    indptr[11] = indptr[12] + 1; /* decreases at row 11 */
    memset(runs, 0, sizeof runs);
    runs[0].csr = runs[1].csr = 1;
    runs[1].indptr = indptr;
    run_world(runs, 2, cuts, slice, "kmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_INVALID, "rank 1: CSR indptr decreases at row 11");
    indptr[11] = saved;

    memset(runs, 0, sizeof runs); /* standardize of CSR rows: refused on every rank, not by one rank's scaling */
    for (int r = 0; r < 2; ++r) {
        runs[r].csr = 1;
        runs[r].extra = "standardize";
        runs[r].extra_value = 1;
    }
    run_world(runs, 2, cuts, slice, "kmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_INVALID, "kmeans: standardize needs dense data");

    indices[indptr[7]] = D + 3; /* a column out of range */
    memset(runs, 0, sizeof runs);
    runs[0].csr = runs[1].csr = 1;
    runs[1].indptr = indptr;
    runs[1].indices = indices;
    run_world(runs, 2, cuts, slice, "kmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_INDEX, "CSR column index 7 out of range for d = 4 at row 7");
    indices[indptr[7]] = csr_indices[base + indptr[7]];

    values[indptr[9] + 1] = 0.0 / 0.0; /* a NaN */
    memset(runs, 0, sizeof runs);
    runs[0].csr = runs[1].csr = 1;
    runs[1].indptr = indptr;
    runs[1].values = values;
    run_world(runs, 2, cuts, slice, "kmeans");
    same_failure_everywhere(runs, 2, KINDRED_E_INVALID, "is NaN (rows of this rank counted from 0; its first row is row 40000");

    /* gmm shards but takes no CSR rows. */
    memset(runs, 0, sizeof runs);
    runs[0].csr = runs[1].csr = 1;
    run_world(runs, 2, cuts, slice, "gmm");
    same_failure_everywhere(runs, 2, KINDRED_E_INVALID, "gmm does not accept sparse (CSR) data");
}

/* The SVD reduction (d > svd_threshold) is refused on every rank, by name;
 * a cancel on one rank while the transformation is learned stops all. */
static void tcs_faults(void **state) {
    (void)state;
    kindred_side *side = partial_labels();
    const int64_t cuts[] = {0, 40000, N};
    const int slice[] = {0, 1};
    const char *algorithms[] = {"tcs-gm", "tcs-vmf"};
    for (int a = 0; a < 2; ++a) {
        shard_run runs[THREAD_COMM_MAX_RANKS];
        memset(runs, 0, sizeof runs);
        for (int r = 0; r < 2; ++r) {
            runs[r].side = side;
            runs[r].extra = "svd_threshold";
            runs[r].extra_value = 2;
        }
        run_world(runs, 2, cuts, slice, algorithms[a]);
        same_failure_everywhere(runs, 2, KINDRED_E_INVALID, "SVD reduction (d = 4 > svd_threshold = 2) is not available in a sharded fit");
        memset(runs, 0, sizeof runs);
        for (int r = 0; r < 2; ++r) runs[r].side = side;
        runs[1].cancel = 1;
        run_world(runs, 2, cuts, slice, algorithms[a]);
        same_failure_everywhere(runs, 2, KINDRED_E_CANCELLED, "rank 1: ");
        /* Without partial labels: the same refusal on every rank. */
        memset(runs, 0, sizeof runs);
        run_world(runs, 2, cuts, slice, algorithms[a]);
        same_failure_everywhere(runs, 2, KINDRED_E_INVALID, "needs partial labels");
    }
    kindred_side_free(side);
}

/* dcrc: a cancel on one rank (in the k-means start, and in the EM loop) stops all. */
static void dcrc_faults(void **state) {
    (void)state;
    kindred_side *side = sampled_triplets();
    const int64_t cuts[] = {0, 40000, N};
    const int slice[] = {0, 1};
    shard_run runs[THREAD_COMM_MAX_RANKS];
    memset(runs, 0, sizeof runs);
    for (int r = 0; r < 2; ++r) runs[r].side = side;
    runs[1].cancel = 1;
    run_world(runs, 2, cuts, slice, "dcrc");
    same_failure_everywhere(runs, 2, KINDRED_E_CANCELLED, "rank 1: ");
    /* A cancel at dcrc's second EM iteration (after the k-means start). */
    memset(runs, 0, sizeof runs);
    for (int r = 0; r < 2; ++r) runs[r].side = side;
    runs[0].cancel = 2;
    run_world(runs, 2, cuts, slice, "dcrc");
    same_failure_everywhere(runs, 2, KINDRED_E_CANCELLED, "rank 0: cancelled by the progress callback at iteration 2");
    kindred_side_free(side);
}

/* Whether name is one of the comma-separated names of list. */
static int name_listed(const char *list, const char *name) {
    const size_t length = strlen(name);
    for (const char *at = list; *at;) {
        const char *end = strchr(at, ',');
        const size_t token = end ? (size_t)(end - at) : strlen(at);
        if (token == length && strncmp(at, name, length) == 0) return 1;
        if (!end) break;
        at = end + 1;
    }
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_rank),
        cmocka_unit_test(two_ranks),
        cmocka_unit_test(three_ranks),
        cmocka_unit_test(four_ranks),
        cmocka_unit_test(gmm_any_covariance),
        cmocka_unit_test(dpmeans_with_a_k_hint),
        cmocka_unit_test(dpmeans_lambda_chosen_across_ranks),
        cmocka_unit_test(tcs_gm_with_partial_labels),
        cmocka_unit_test(tcs_gm_gamma_chosen_on_a_grid),
        cmocka_unit_test(tcs_vmf_with_partial_labels),
        cmocka_unit_test(tcs_vmf_gamma_chosen_on_a_grid),
        cmocka_unit_test(copkmeans_with_pairs_across_ranks),
        cmocka_unit_test(copkmeans_without_pairs),
        cmocka_unit_test(csr_kmeans_any_split),
        cmocka_unit_test(csr_dpmeans_and_copkmeans),
        cmocka_unit_test(csr_without_comm_is_the_plain_fit),
        cmocka_unit_test(tvclust_one_rank_is_the_plain_fit),
        cmocka_unit_test(tvclust_ranks_hold_one_model),
        cmocka_unit_test(tvclust_multinomial_ranks_hold_one_model),
        cmocka_unit_test(tvclust_nmi_as_in_one_process),
        cmocka_unit_test(tvclust_coclustering_refused),
        cmocka_unit_test(null_comm_is_the_plain_fit),
        cmocka_unit_test(flags_say_which_algorithms_shard),
        cmocka_unit_test(a_nan_on_one_rank),
        cmocka_unit_test(other_options_on_one_rank),
        cmocka_unit_test(other_side_information_on_one_rank),
        cmocka_unit_test(a_cancel_on_one_rank),
        cmocka_unit_test(rows_that_overlap_or_leave_a_gap),
        cmocka_unit_test(copkmeans_infeasible_on_every_rank),
        cmocka_unit_test(pairwise_cancel_on_one_rank),
        cmocka_unit_test(csr_faults_on_one_rank),
        cmocka_unit_test(tcs_faults),
        cmocka_unit_test(dcrc_linear_with_triplets),
        cmocka_unit_test(dcrc_rbf_with_triplets),
        cmocka_unit_test(kmeans_standardized_across_ranks),
        cmocka_unit_test(dcrc_standardized_across_ranks),
        cmocka_unit_test(pckmeans_robust_units_across_ranks),
        cmocka_unit_test(pckmeans_transitive_units_across_ranks),
        cmocka_unit_test(pckmeans_pointwise_across_ranks),
        cmocka_unit_test(pckmeans_cleaning_across_ranks),
        cmocka_unit_test(pckmeans_defaults_across_ranks),
        cmocka_unit_test(pckmeans_one_value_chosen_across_ranks),
        cmocka_unit_test(mpckmeans_robust_units_across_ranks),
        cmocka_unit_test(mpckmeans_pointwise_across_ranks),
        cmocka_unit_test(mpckmeans_pairs_in_the_metric_across_ranks),
        cmocka_unit_test(mpckmeans_defaults_across_ranks),
        cmocka_unit_test(mpckmeans_full_metric_across_ranks),
        cmocka_unit_test(mpckmeans_cosine_across_ranks),
        cmocka_unit_test(mpckmeans_idiv_across_ranks),
        cmocka_unit_test(mpckmeans_distortion_refuses_rows_on_one_rank),
        cmocka_unit_test(dcrc_faults),
        cmocka_unit_test(rdpmeans_with_lambda_and_pairs_across_ranks),
        cmocka_unit_test(rdpmeans_with_a_k_hint_across_ranks),
        cmocka_unit_test(rdpmeans_lambda_chosen_across_ranks),
        cmocka_unit_test(rdpmeans_csr_rows),
        cmocka_unit_test(rdpmeans_faults),
    };
    /* KINDRED_TEST_FILTER: run only the tests whose names match (cmocka's pattern), to time a few.
     * KINDRED_TEST_SKIP: names of tests not to run, separated by commas (each said below). */
    if (getenv("KINDRED_TEST_FILTER")) cmocka_set_test_filter(getenv("KINDRED_TEST_FILTER"));
    const char *skip = getenv("KINDRED_TEST_SKIP");
    struct CMUnitTest chosen[sizeof tests / sizeof tests[0]];
    size_t count = 0;
    for (size_t t = 0; t < sizeof tests / sizeof tests[0]; ++t) {
        if (skip && name_listed(skip, tests[t].name))
            printf("test_shard: %s not run (KINDRED_TEST_SKIP)\n", tests[t].name);
        else
            chosen[count++] = tests[t];
    }
    /* (a misspelt name would skip nothing, silently) */
    size_t listed = skip && *skip ? 1 : 0;
    for (const char *at = skip; at && *at; ++at) listed += *at == ',';
    if (listed != sizeof tests / sizeof tests[0] - count) {
        fprintf(stderr, "test_shard: KINDRED_TEST_SKIP names %zu tests, %zu of them exist\n", listed,
                sizeof tests / sizeof tests[0] - count);
        return 1;
    }
    if (getenv("KINDRED_SHARD_RANKS"))
        printf("test_shard: only the splits over %s ranks (KINDRED_SHARD_RANKS)\n", getenv("KINDRED_SHARD_RANKS"));
    return _cmocka_run_group_tests("test_shard", chosen, count, setup, teardown);
}
