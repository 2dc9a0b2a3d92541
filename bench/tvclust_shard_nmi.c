/* The NMI of tvclust's sharded fit (an approximate sampler,
 * KINDRED_USES_SHARDS_APPROX) against that of one process, on a CSV data set
 * (docs/algorithms/rdpmeans-tvclust.md, "On several ranks"). The ranks are
 * threads joined by the in-process communicator of tests/common/thread_comm.h, each
 * holding an even slice of the rows; the pairs are sampled from the last
 * column (the class) with kindred_sample_pairs and given to every rank.
 *
 * Usage: tvclust_shard_nmi --data X.csv [--pairs N] [--seeds S] [--iterations I] [--burn-in B]
 * The CSV has a header, numeric columns, then the class (any text).
 * Output: one line per (p, seed) and one mean per p, for p = 1, 2, 4. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/common/thread_comm.h"
#include "kindred.h"

typedef struct rank_fit {
    thread_rank link;
    kindred_comm comm;
    const double *x;
    int64_t d, row_offset, n_local, n_total, seed, iterations, burn_in;
    const kindred_side *side;
    int32_t *labels; /* of all the points: this rank writes its rows */
    int status;
} rank_fit;

static void *fit_rank(void *arg) {
    rank_fit *f = (rank_fit *)arg;
    kindred_model *m = NULL;
    f->status = kindred_model_new(&m, "tvclust");
    if (f->status == KINDRED_OK) f->status = kindred_model_set_int(m, "seed", f->seed);
    if (f->status == KINDRED_OK) f->status = kindred_model_set_int(m, "iterations", f->iterations);
    if (f->status == KINDRED_OK) f->status = kindred_model_set_int(m, "burn_in", f->burn_in);
    if (f->status == KINDRED_OK)
        f->status = kindred_model_fit_dense_shard(m, &f->comm, f->x + f->row_offset * f->d, f->n_local, f->d,
                                                  KINDRED_ROW_MAJOR, f->d, f->row_offset, f->n_total, f->side);
    if (f->status == KINDRED_OK) f->status = kindred_model_labels(m, f->labels + f->row_offset, f->n_local);
    if (f->status != KINDRED_OK) fprintf(stderr, "rank: %s\n", kindred_last_error());
    kindred_model_free(m);
    return NULL;
}

/* Reads the CSV: rows x d values, and the classes numbered by first appearance. */
static int64_t read_csv(const char *path, double **x, int32_t **truth, int64_t *d) {
    FILE *in = fopen(path, "r");
    if (!in) return -1;
    static char line[1 << 16];
    if (!fgets(line, sizeof line, in)) return -1;
    *d = 0;
    for (const char *c = line; *c; ++c) *d += *c == ',';
    int64_t n = 0, cap = 1024, classes = 0;
    char names[1024][32];
    *x = malloc((size_t)(cap * *d) * sizeof(double));
    *truth = malloc((size_t)cap * sizeof(int32_t));
    while (fgets(line, sizeof line, in)) {
        if (n == cap) {
            cap *= 2;
            *x = realloc(*x, (size_t)(cap * *d) * sizeof(double));
            *truth = realloc(*truth, (size_t)cap * sizeof(int32_t));
        }
        char *at = line;
        for (int64_t j = 0; j < *d; ++j) {
            (*x)[n * *d + j] = strtod(at, &at);
            ++at; /* the comma */
        }
        at[strcspn(at, "\r\n")] = 0;
        int64_t c = 0;
        while (c < classes && strcmp(names[c], at) != 0) ++c;
        if (c == classes && classes < 1024) snprintf(names[classes++], sizeof names[0], "%s", at);
        (*truth)[n++] = (int32_t)c;
    }
    fclose(in);
    return n;
}

int main(int argc, char **argv) {
    const char *data = NULL;
    int64_t pairs = 1000, seeds = 5, iterations = 100, burn_in = 50;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--data")) data = argv[a + 1];
        else if (!strcmp(argv[a], "--pairs")) pairs = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--seeds")) seeds = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--iterations")) iterations = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--burn-in")) burn_in = atoll(argv[a + 1]);
    }
    double *x = NULL;
    int32_t *truth = NULL;
    int64_t d = 0;
    const int64_t n = data ? read_csv(data, &x, &truth, &d) : -1;
    if (n < 1) {
        fprintf(stderr, "usage: tvclust_shard_nmi --data X.csv [--pairs N] [--seeds S] [--iterations I] [--burn-in B]\n");
        return 2;
    }
    int32_t *labels = malloc((size_t)n * sizeof(int32_t));
    const int ranks[] = {1, 2, 4};
    int failed = 0;
    for (size_t t = 0; t < sizeof ranks / sizeof ranks[0]; ++t) {
        const int p = ranks[t];
        double sum = 0;
        for (int64_t seed = 1; seed <= seeds; ++seed) {
            kindred_side *side = NULL;
            kindred_side_new(&side, n);
            kindred_sample_pairs(side, truth, n, pairs, 0.0, 0.0, (uint64_t)seed);
            thread_world w;
            thread_world_init(&w, p);
            rank_fit fits[THREAD_COMM_MAX_RANKS];
            pthread_t threads[THREAD_COMM_MAX_RANKS];
            for (int r = 0; r < p; ++r) {
                rank_fit *f = &fits[r];
                memset(f, 0, sizeof *f);
                thread_comm(&w, r, &f->link, &f->comm);
                f->x = x;
                f->d = d;
                f->row_offset = n * r / p;
                f->n_local = n * (r + 1) / p - f->row_offset;
                f->n_total = n;
                f->seed = seed;
                f->iterations = iterations;
                f->burn_in = burn_in;
                f->side = side;
                f->labels = labels;
                pthread_create(&threads[r], NULL, fit_rank, f);
            }
            for (int r = 0; r < p; ++r) pthread_join(threads[r], NULL);
            thread_world_destroy(&w);
            kindred_side_free(side);
            double nmi = 0;
            for (int r = 0; r < p; ++r) failed |= fits[r].status != KINDRED_OK;
            kindred_metric("nmi", truth, labels, n, &nmi);
            printf("p=%d seed=%lld nmi=%.4f\n", p, (long long)seed, nmi);
            sum += nmi;
        }
        printf("p=%d mean_nmi=%.4f\n", p, sum / (double)seeds);
        fflush(stdout);
    }
    free(labels);
    free(x);
    free(truth);
    return failed;
}
