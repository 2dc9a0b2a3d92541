/* Per-rank peak memory of a sharded fit across MPI processes (docs/performance.md, "Sharded fits:
 * memory per rank"). Each of the p ranks generates only its own rows of the same n_total points
 * (blobs around 20 centres; a row is a function of its index, so no rank ever holds another's rows),
 * reads its resident set (VmRSS) before the fit, fits through include/kindred_mpi.h, and reads its
 * peak resident set (VmHWM) after it. Rank 0 prints one line per rank:
 *
 *   algorithm=kmeans p=2 rank=0 n_local=2000000 rows_mb=256.0 rss_before_mb=... peak_mb=... fit_mb=...
 *
 * fit_mb = peak - rss before: what the fit added to the process (its per-point arrays for its own rows,
 * the chunk sums, and, with --pairs, whatever it builds from the side information). With --pairs M the
 * side information (M pairs drawn from the blobs' classes, in full on every rank, as the library asks)
 * is built before the fit, so its store is part of rss_before_mb: that is the term that does not fall
 * as 1/p (docs/distributed.md, "Side information on every rank").
 *
 * Usage: mpirun -np P shard_memory_mpi [--algorithm NAME] [--n N] [--d D] [--k K] [--iters I] [--pairs M]
 *                                      [--aligned 1|0] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kindred_mpi.h"

enum { CLASSES = 20 };

static uint64_t splitmix64(uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double unit(uint64_t bits) { return (double)(bits >> 11) / 9007199254740992.0; }

/* The class of global row i, and its d features: a centre in [-10, 10]^d plus noise in [-2, 2). */
static int32_t class_of(int64_t i) { return (int32_t)(splitmix64(0x5eedull ^ (uint64_t)i * 2654435761ull) % CLASSES); }

static void row_of(int64_t i, int64_t d, double *out) {
    const int32_t c = class_of(i);
    for (int64_t j = 0; j < d; ++j) {
        const double centre = 20.0 * unit(splitmix64(((uint64_t)c << 32) ^ (uint64_t)j)) - 10.0;
        out[j] = centre + 4.0 * unit(splitmix64(((uint64_t)i << 8) ^ (uint64_t)j ^ 0xabcdefull)) - 2.0;
    }
}

/* A field of /proc/self/status in MB ("VmRSS:", "VmHWM:"); -1 when it cannot be read. */
static double status_mb(const char *field) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1.0;
    char line[256];
    double kb = -1.0;
    const size_t len = strlen(field);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, len) == 0) kb = atof(line + len);
    fclose(f);
    return kb / 1024.0;
}

static int set_if_known(kindred_model *m, const char *name, const char *value) {
    const kindred_status status = kindred_model_set_string(m, name, value);
    return status == KINDRED_OK || status == KINDRED_E_NOT_FOUND;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *algorithm = "kmeans";
    int64_t n = 1000000, d = 16, k = 10, iters = 5, pairs = 0, aligned = 1;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--algorithm")) algorithm = argv[a + 1];
        else if (!strcmp(argv[a], "--n")) n = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--d")) d = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--k")) k = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--iters")) iters = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--pairs")) pairs = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--aligned")) aligned = atoll(argv[a + 1]);
        else {
            if (rank == 0) fprintf(stderr, "shard_memory_mpi: unknown argument %s\n", argv[a]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    /* --aligned 1 (the default): the shards cut at multiples of the 32768-row chunks, so that every rank
     * computes on its rows in place; 0: even shards, whose ranks copy their rows to hold whole chunks. */
    const int64_t unit = aligned ? 32768 : 1, units = (n + unit - 1) / unit;
    const int64_t cut0 = units * rank / size * unit, cut1 = units * (rank + 1) / size * unit;
    const int64_t begin = cut0 < n ? cut0 : n, n_local = (cut1 < n ? cut1 : n) - begin;
    double *x = malloc((size_t)(n_local > 0 ? n_local : 1) * (size_t)d * sizeof *x);
    if (!x) MPI_Abort(MPI_COMM_WORLD, 1);
    for (int64_t i = 0; i < n_local; ++i) row_of(begin + i, d, x + i * d);

    kindred_side *side = NULL;
    if (pairs > 0) { /* the classes of all n points are needed only to draw the pairs, then freed */
        int32_t *classes = malloc((size_t)n * sizeof *classes);
        if (!classes) MPI_Abort(MPI_COMM_WORLD, 1);
        for (int64_t i = 0; i < n; ++i) classes[i] = class_of(i);
        if (kindred_side_new(&side, n) != KINDRED_OK ||
            kindred_sample_pairs(side, classes, n, pairs, 0.0, 0.0, 5) != KINDRED_OK) {
            fprintf(stderr, "rank %d: pairs: %s\n", rank, kindred_last_error());
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        free(classes);
    }

    char k_text[32], iters_text[32];
    snprintf(k_text, sizeof k_text, "%lld", (long long)k);
    snprintf(iters_text, sizeof iters_text, "%lld", (long long)iters);
    kindred_model *m = NULL;
    if (kindred_model_new(&m, algorithm) != KINDRED_OK || !set_if_known(m, "k", k_text) ||
        !set_if_known(m, "max_iter", iters_text) || !set_if_known(m, "n_init", "1") || !set_if_known(m, "tol", "0") ||
        !set_if_known(m, "threads", "1") || !set_if_known(m, "penalty", "1") ||
        !set_if_known(m, "constraint_weight", "1") || !set_if_known(m, "propagation", "robust")) {
        fprintf(stderr, "rank %d: model: %s\n", rank, kindred_last_error());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    kindred_mpi_link link;
    kindred_comm comm;
    if (kindred_mpi_comm(MPI_COMM_WORLD, &link, &comm) != 0) MPI_Abort(MPI_COMM_WORLD, 1);
    double mine[5] = {(double)n_local, (double)n_local * (double)d * 8.0 / 1048576.0, status_mb("VmRSS:"), 0.0, 0.0};
    const kindred_status status =
        kindred_model_fit_dense_shard(m, &comm, x, n_local, d, KINDRED_ROW_MAJOR, d, begin, n, side);
    mine[3] = status_mb("VmHWM:");
    mine[4] = mine[3] - mine[2];
    if (status != KINDRED_OK) {
        fprintf(stderr, "rank %d: fit: %s\n", rank, kindred_last_error());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double *all = rank == 0 ? malloc((size_t)size * sizeof mine) : NULL;
    MPI_Gather(mine, 5, MPI_DOUBLE, all, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < size; ++r)
        printf("algorithm=%s n=%lld d=%lld k=%lld pairs=%lld aligned=%lld p=%d rank=%d n_local=%.0f rows_mb=%.1f rss_before_mb=%.1f "
               "peak_mb=%.1f fit_mb=%.1f\n",
               algorithm, (long long)n, (long long)d, (long long)k, (long long)pairs, (long long)aligned, size, r, all[5 * r],
               all[5 * r + 1], all[5 * r + 2], all[5 * r + 3], all[5 * r + 4]);
    free(all);
    kindred_model_free(m);
    kindred_side_free(side);
    kindred_mpi_link_free(&link);
    free(x);
    MPI_Finalize();
    return 0;
}
