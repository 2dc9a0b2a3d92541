/* Sharded fits across MPI processes, through include/kindred_mpi.h (run by
 * tests/mpi/meson.build under `mpirun -np P`, P = 1..4).
 *
 *   shard_mpi fit     for kmeans, gmm, dpmeans (with k set), copkmeans (no
 *                     pairs: its restarts and chunked sums), tcs-gm and tcs-vmf
 *                     (with partial labels on every rank), dcrc (with 400
 *                     triplets on every rank), pckmeans (with 400 pairs on
 *                     every rank, penalty and propagation set, then its
 *                     defaults: both chosen by cross-validation over the
 *                     pairs), mpckmeans (the same pairs, constraint_weight
 *                     and propagation set; euclidean-diag, then
 *                     euclidean-full), rdpmeans (the same pairs, k
 *                     set: lambda from it; its pass rank after rank) and several uneven
 *                     splits of 70000 generated rows (three
 *                     chunks of 32768, the last partial; a shard inside one
 *                     chunk, an empty shard, slices given to ranks out of
 *                     order), every rank's labels (gathered on rank 0), centres,
 *                     objective trace, iteration count and objective are bitwise
 *                     those of kindred_model_fit_dense on all the rows (rank 0).
 *   shard_mpi faults  a NaN in the last rank's shard, other options on the last
 *                     rank, rows that leave a gap: every rank returns the same
 *                     status and message (gathered and compared on rank 0).
 *
 * Every rank exits with the same status (0: passed), decided on rank 0 and
 * broadcast, so that mpirun's own status is the verdict. Built twice: as it is,
 * and with KINDRED_MPI_MAX_COUNT = 4096 so that every message goes through the
 * adapter's pieces (the path of messages longer than INT_MAX bytes). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kindred_mpi.h"
#include "testing.h"

enum { N = 70000, D = 4, K = 5, MAX_RANKS = 4, MESSAGE = 512, TRACE = 1000 };

static double points[N * D];
static int rank, size;
/* tcs-gm, tcs-vmf: the labels of classes 0-3 on one point in 8 of theirs (the same on every rank). */
static kindred_side *partial_side;
/* dcrc: 400 triplets sampled from the blobs' truth (the same on every rank). */
static kindred_side *triplet_side;
/* pckmeans, mpckmeans: 400 must-links and cannot-links sampled from the blobs' truth (the same on every rank). */
static kindred_side *pair_side;
/* The algorithm fitted: shard_mpi fit runs every one with sharded fits (kindred_algorithm_uses). */
static const char *algorithm = "kmeans";
/* pckmeans: with its defaults (penalty and propagation chosen by cross-validation) rather than both set. */
static int pckmeans_defaults = 0;
/* mpckmeans' distortion when set (a second mpckmeans pass with euclidean-full), or NULL for its default. */
static const char *mpckmeans_distortion = NULL;

/* What one fit gives: on rank 0 for the plain fit, on every rank for its shard. */
typedef struct fit_result {
    int32_t status;
    char message[MESSAGE];
    double centers[2 * K * D], trace[TRACE], objective; /* tcs: K - 1 labelled classes and K new clusters */
    int64_t iterations, trace_rows;
} fit_result;

static kindred_model *new_model(int64_t k) {
    kindred_model *m = NULL;
    /* dpmeans with k set (its lambda then follows from k): the sharded form of dpmeans. */
    /* dcrc: a short fit (as in tests/api/test_shard.c), with its default standardize = 1 (the scaling of all
     * the ranks' points). */
    const int dcrc = strcmp(algorithm, "dcrc") == 0;
    const int restarts = strcmp(algorithm, "dpmeans") != 0 && strcmp(algorithm, "rdpmeans") != 0 && !dcrc;
    if (kindred_model_new(&m, algorithm) != KINDRED_OK || kindred_model_set_int(m, "k", k) != KINDRED_OK ||
        (restarts && kindred_model_set_int(m, "n_init", 2) != KINDRED_OK) ||
        (dcrc && (kindred_model_set_int(m, "init_restarts", 2) != KINDRED_OK ||
                  kindred_model_set_int(m, "max_iter", 4) != KINDRED_OK ||
                  kindred_model_set_int(m, "lbfgs_max_iter", 15) != KINDRED_OK)) ||
        /* pckmeans: penalty and propagation set, unless its defaults are fitted. */
        (strcmp(algorithm, "pckmeans") == 0 && !pckmeans_defaults && (kindred_model_set_double(m, "penalty", 1.0) != KINDRED_OK ||
                                                kindred_model_set_string(m, "propagation", "robust") != KINDRED_OK)) ||
        /* mpckmeans: the same, point-wise, with the violated pairs in the metric update (their rows gathered). */
        (strcmp(algorithm, "mpckmeans") == 0 &&
         (kindred_model_set_double(m, "constraint_weight", 1.0) != KINDRED_OK ||
          kindred_model_set_string(m, "propagation", "off") != KINDRED_OK ||
          kindred_model_set_int(m, "metric_constraints", 1) != KINDRED_OK ||
          kindred_model_set_int(m, "max_iter", 6) != KINDRED_OK ||
          (mpckmeans_distortion && kindred_model_set_string(m, "distortion", mpckmeans_distortion) != KINDRED_OK))) ||
        kindred_model_set_int(m, "seed", 7) != KINDRED_OK || kindred_model_set_int(m, "threads", 1) != KINDRED_OK) {
        fprintf(stderr, "rank %d: cannot make the model: %s\n", rank, kindred_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return m;
}

/* The status, message and (on success) the whole-model results of the fit just made. */
static void record(kindred_model *m, int status, fit_result *out) {
    memset(out, 0, sizeof *out);
    out->status = status;
    snprintf(out->message, MESSAGE, "%s", kindred_last_error());
    if (status != KINDRED_OK) return;
    int64_t cols = 0;
    /* dcrc has no centres (its weights are compared by tests/api/test_shard.c): they stay 0. */
    if ((strcmp(algorithm, "dcrc") != 0 && kindred_model_array(m, "centers", out->centers, 2 * K * D) != KINDRED_OK) ||
        kindred_model_array_shape(m, "objective_trace", &out->trace_rows, &cols) != KINDRED_OK ||
        kindred_model_array(m, "objective_trace", out->trace, TRACE) != KINDRED_OK ||
        kindred_model_summary(m, NULL, NULL, NULL, &out->iterations, NULL, &out->objective) != KINDRED_OK) {
        out->status = -1;
        snprintf(out->message, MESSAGE, "reading the results: %s", kindred_last_error());
    }
}

static int same_results(const fit_result *a, const fit_result *b) {
    return a->status == b->status && a->trace_rows == b->trace_rows && a->iterations == b->iterations &&
           memcmp(a->centers, b->centers, sizeof a->centers) == 0 &&
           memcmp(a->trace, b->trace, (size_t)a->trace_rows * sizeof(double)) == 0 &&
           memcmp(&a->objective, &b->objective, sizeof a->objective) == 0;
}

/* The side information of the algorithm fitted: partial labels for tcs-*, triplets for dcrc, pairs for
 * pckmeans and mpckmeans, none for the others. */
static const kindred_side *side_of_algorithm(void) {
    if (strcmp(algorithm, "dcrc") == 0) return triplet_side;
    if (strcmp(algorithm, "pckmeans") == 0 || strcmp(algorithm, "mpckmeans") == 0 || strcmp(algorithm, "rdpmeans") == 0)
        return pair_side;
    return strncmp(algorithm, "tcs-", 4) == 0 ? partial_side : NULL;
}

/* One sharded fit: rank r takes the rows [cuts[slice[r]], cuts[slice[r] + 1]) of x. */
static int shard_fit(const kindred_comm *comm, const double *x, const int64_t *cuts, const int *slice, int64_t k,
                     fit_result *out, int32_t **labels, int64_t *row_offset, int64_t *n_local) {
    *row_offset = cuts[slice[rank]];
    *n_local = cuts[slice[rank] + 1] - cuts[slice[rank]];
    kindred_model *m = new_model(k);
    const int status = kindred_model_fit_dense_shard(m, comm, x + *row_offset * D, *n_local, D, KINDRED_ROW_MAJOR, D,
                                                     *row_offset, N, side_of_algorithm());
    record(m, status, out);
    if (labels) {
        *labels = (int32_t *)malloc((size_t)(*n_local > 0 ? *n_local : 1) * sizeof(int32_t));
        if (status == KINDRED_OK && kindred_model_labels(m, *labels, *n_local) != KINDRED_OK) out->status = -1;
    }
    kindred_model_free(m);
    return status;
}

/* ---- shard_mpi fit */

static int check_split(const kindred_comm *comm, const char *name, const int64_t *cuts, const int *slice,
                       const int32_t *plain_labels, const fit_result *plain) {
    fit_result mine;
    int32_t *labels = NULL;
    int64_t row_offset = 0, n_local = 0;
    shard_fit(comm, points, cuts, slice, K, &mine, &labels, &row_offset, &n_local);
    int ok = mine.status == KINDRED_OK && same_results(&mine, plain);
    if (!ok)
        printf("%s, rank %d, split %s: status %d (%s), iterations %lld (plain %lld), trace rows %lld (plain %lld): "
               "not the plain fit's results\n",
               algorithm, rank, name, (int)mine.status, mine.message, (long long)mine.iterations, (long long)plain->iterations,
               (long long)mine.trace_rows, (long long)plain->trace_rows);

    /* The labels, gathered on rank 0 at their global rows. */
    int counts[MAX_RANKS], displs[MAX_RANKS], oks[MAX_RANKS];
    int n_mine = (int)n_local, offset_mine = (int)row_offset;
    MPI_Gather(&n_mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Gather(&offset_mine, 1, MPI_INT, displs, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Gather(&ok, 1, MPI_INT, oks, 1, MPI_INT, 0, MPI_COMM_WORLD);
    static int32_t gathered[N];
    memset(gathered, 0xff, sizeof gathered);
    MPI_Gatherv(labels, n_mine, MPI_INT32_T, gathered, counts, displs, MPI_INT32_T, 0, MPI_COMM_WORLD);
    free(labels);
    int verdict = 1;
    if (rank == 0) {
        for (int r = 0; r < size; ++r) verdict &= oks[r];
        const int labels_equal = memcmp(gathered, plain_labels, sizeof gathered) == 0;
        verdict &= labels_equal;
        printf("%s, %d ranks, split %s (rows", algorithm, size, name);
        for (int r = 0; r < size; ++r) printf(" %d:[%d, %d)", r, displs[r], displs[r] + counts[r]);
        printf("): labels %s, centres / trace / iterations / objective %s\n",
               labels_equal ? "bitwise equal" : "DIFFER", verdict ? "bitwise equal on every rank" : "DIFFER");
    }
    MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return verdict;
}

static int run_fit(const kindred_comm *comm) {
    static int32_t plain_labels[N];
    fit_result plain;
    if (rank == 0) {
        kindred_model *m = new_model(K);
        const int status = kindred_model_fit_dense(m, points, N, D, KINDRED_ROW_MAJOR, D, side_of_algorithm());
        record(m, status, &plain);
        if (status == KINDRED_OK) kindred_model_labels(m, plain_labels, N);
        kindred_model_free(m);
        if (plain.status != KINDRED_OK) printf("%s: the plain fit failed: %s\n", algorithm, plain.message);
    }
    MPI_Bcast(&plain, (int)sizeof plain, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (plain.status != KINDRED_OK) return 0;

    int64_t uneven[MAX_RANKS + 1], aligned[MAX_RANKS + 1], small_first[MAX_RANKS + 1];
    int in_order[MAX_RANKS], rotated[MAX_RANKS];
    for (int r = 0; r <= size; ++r) {
        /* Shards growing as r^2: the first ones inside one chunk. */
        uneven[r] = (int64_t)N * r * r / ((int64_t)size * size);
        /* Whole chunks, used in place; with 4 ranks the last shard is empty. */
        aligned[r] = r == size ? N : (int64_t)r * 32768 < N ? (int64_t)r * 32768 : N;
        /* 1000 rows, then the rest cut evenly. */
        small_first[r] = r == 0 ? 0 : size == 1 ? N : 1000 + (int64_t)(N - 1000) * (r - 1) / (size - 1);
    }
    for (int r = 0; r < size; ++r) {
        in_order[r] = r;
        rotated[r] = (r + 1) % size; /* rank r holds the slice after its own */
    }
    int passed = 1;
    passed &= check_split(comm, "uneven", uneven, in_order, plain_labels, &plain);
    passed &= check_split(comm, "chunk-aligned", aligned, in_order, plain_labels, &plain);
    passed &= check_split(comm, "small-first-rotated", small_first, rotated, plain_labels, &plain);
    return passed;
}

/* ---- shard_mpi faults */

/* Every rank's status and message gathered on rank 0: all must be the first's,
 * with the expected code and words. */
static int same_failure_everywhere(const char *name, const fit_result *mine, int code, const char *needle) {
    printf("rank %d, %s: status %d, message \"%s\"\n", rank, name, (int)mine->status, mine->message);
    fflush(stdout);
    static fit_result all[MAX_RANKS];
    MPI_Gather(mine, (int)sizeof *mine, MPI_BYTE, all, (int)sizeof *mine, MPI_BYTE, 0, MPI_COMM_WORLD);
    int verdict = 1;
    if (rank == 0) {
        for (int r = 0; r < size; ++r)
            if (all[r].status != all[0].status || strcmp(all[r].message, all[0].message) != 0) {
                printf("%s: rank %d returned %d \"%s\", rank 0 returned %d \"%s\"\n", name, r, (int)all[r].status,
                       all[r].message, (int)all[0].status, all[0].message);
                verdict = 0;
            }
        if (all[0].status != code || !strstr(all[0].message, needle)) {
            printf("%s: expected status %d and a message with \"%s\"\n", name, code, needle);
            verdict = 0;
        }
        printf("%d ranks, %s: %s\n", size, name, verdict ? "every rank returned the same status and message" : "FAILED");
    }
    MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return verdict;
}

static int run_faults(const kindred_comm *comm) {
    int64_t cuts[MAX_RANKS + 1];
    int in_order[MAX_RANKS];
    for (int r = 0; r <= size; ++r) cuts[r] = (int64_t)N * r / size;
    for (int r = 0; r < size; ++r) in_order[r] = r;
    const int last = size - 1;
    char needle[64];
    fit_result mine;
    int64_t row_offset = 0, n_local = 0;
    int passed = 1;

    /* A NaN in the last rank's shard. */
    static double spoiled[N * D];
    memcpy(spoiled, points, sizeof spoiled);
    if (rank == last) spoiled[(cuts[last] + 3) * D + 1] = strtod("nan", NULL);
    shard_fit(comm, spoiled, cuts, in_order, K, &mine, NULL, &row_offset, &n_local);
    snprintf(needle, sizeof needle, size > 1 ? "rank %d: " : "", last);
    passed &= same_failure_everywhere("a NaN on the last rank", &mine, KINDRED_E_INVALID, needle);

    /* k differs on the last rank (with one rank there is nobody to differ from). */
    if (size > 1) {
        shard_fit(comm, points, cuts, in_order, rank == last ? K + 1 : K, &mine, NULL, &row_offset, &n_local);
        snprintf(needle, sizeof needle, "rank %d has other options", last);
        passed &= same_failure_everywhere("other options on the last rank", &mine, KINDRED_E_INVALID, needle);
    }

    /* The last rank's rows are missing: rows [cuts[last], N) on no rank. */
    int64_t gap[MAX_RANKS + 1];
    memcpy(gap, cuts, sizeof gap);
    gap[size] = gap[last];
    if (size == 1) gap[1] = N / 2;
    shard_fit(comm, points, gap, in_order, K, &mine, NULL, &row_offset, &n_local);
    passed &= same_failure_everywhere("rows that leave a gap", &mine, KINDRED_E_DIMENSION, size > 1 ? "rows together" : "n_local");
    return passed;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "fit";
    if (size > MAX_RANKS || (strcmp(mode, "fit") != 0 && strcmp(mode, "faults") != 0)) {
        if (rank == 0) fprintf(stderr, "usage: mpirun -np 1..%d shard_mpi [fit|faults]\n", MAX_RANKS);
        MPI_Finalize();
        return 2;
    }
    static int32_t partial[N];
    make_blobs(points, partial, N, D, K, 3.0, 2.0, 11);
    if (kindred_side_new(&triplet_side, N) != KINDRED_OK ||
        kindred_sample_triplets(triplet_side, partial, N, 400, 0.0, 3) != KINDRED_OK) {
        fprintf(stderr, "rank %d: cannot sample the triplets: %s\n", rank, kindred_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (kindred_side_new(&pair_side, N) != KINDRED_OK ||
        kindred_sample_pairs(pair_side, partial, N, 400, 0.0, 0.0, 5) != KINDRED_OK) {
        fprintf(stderr, "rank %d: cannot sample the pairs: %s\n", rank, kindred_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int64_t i = 0; i < N; ++i)
        if (partial[i] == K - 1 || (i / K) % 8 != 0) partial[i] = -1;
    if (kindred_side_new(&partial_side, N) != KINDRED_OK ||
        kindred_side_set_partial_labels(partial_side, partial, N) != KINDRED_OK) {
        fprintf(stderr, "rank %d: cannot make the partial labels: %s\n", rank, kindred_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    kindred_mpi_link link;
    kindred_comm comm;
    const int rc = kindred_mpi_comm(MPI_COMM_WORLD, &link, &comm);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "rank %d: kindred_mpi_comm failed with MPI error %d\n", rank, rc);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int passed = 1;
    if (strcmp(mode, "fit") == 0) {
        const char *const sharded[] = {"kmeans", "gmm", "dpmeans", "copkmeans", "tcs-gm", "tcs-vmf", "dcrc", "pckmeans",
                                       "mpckmeans", "rdpmeans"};
        for (size_t a = 0; a < sizeof sharded / sizeof sharded[0]; ++a) {
            int flags = 0;
            algorithm = sharded[a];
            if (kindred_algorithm_uses(algorithm, &flags) != KINDRED_OK || !(flags & KINDRED_USES_SHARDS)) {
                if (rank == 0) printf("%s: no KINDRED_USES_SHARDS flag\n", algorithm);
                passed = 0;
                continue;
            }
            passed &= run_fit(&comm);
        }
        algorithm = "pckmeans";
        pckmeans_defaults = 1;
        if (rank == 0) printf("pckmeans with its defaults:\n");
        passed &= run_fit(&comm);
        /* The full metric: each chunk's d x d scatter (SYRK), the chunks added in order. */
        algorithm = "mpckmeans";
        mpckmeans_distortion = "euclidean-full";
        if (rank == 0) printf("mpckmeans with euclidean-full:\n");
        passed &= run_fit(&comm);
    } else {
        passed = run_faults(&comm);
    }
    if (link.error != MPI_SUCCESS) {
        printf("rank %d: an MPI call of the adapter failed (%d)\n", rank, link.error);
        passed = 0;
    }
    int all_passed = 0;
    MPI_Allreduce(&passed, &all_passed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    kindred_mpi_link_free(&link);
    kindred_side_free(partial_side);
    kindred_side_free(triplet_side);
    kindred_side_free(pair_side);
    if (rank == 0) printf("%s: %s (max count per MPI call %lld bytes)\n", mode, all_passed ? "passed" : "FAILED",
                          (long long)KINDRED_MPI_MAX_COUNT);
    MPI_Finalize();
    return all_passed ? 0 : 1;
}
