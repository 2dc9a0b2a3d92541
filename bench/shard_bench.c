/* Sharded fits on one machine (docs/performance.md, "Sharded fits"): the
 * ranks are threads of this process joined by the in-process communicator of
 * tests/common/thread_comm.h, each calling kindred_model_fit_dense_shard on its
 * slice of the rows, one kindred thread each (OPENBLAS_NUM_THREADS=1).
 *
 * For an algorithm (any with a sharded fit; the side information it uses -- pairs,
 * triplets or partial labels -- is drawn from the classes) and p = 1, 2, 4 ranks it prints the wall
 * time of the whole fit against the single-process fit on one thread (the
 * strong-scaling speed-up; on 2 cores p = 4 is oversubscribed), the bytes one
 * rank receives per iteration against the formula of docs/distributed.md,
 * and whether the labels and the fitted array (centres; dcrc's weights) equal
 * the single-process fit bitwise (equal=-1: an approximate sharded fit, tvclust).
 * The side information is drawn from the
 * blobs' classes and given in full to every rank, as the library asks:
 * --side M pairs or triplets (sampled with kindred_sample_pairs / _triplets),
 * or for tcs-gm the class of every M-th point of the first half of the classes
 * (k is then the number of clusters among the other points, as tcs-gm means it).
 * p = 1 is a communicator of size 1, i.e. the single-process fit itself.
 *
 * Usage: shard_bench [--algorithm NAME] [--n N] [--d D] [--k K]
 *                    [--iters I] [--repeat R] [--side M] [--distortion NAME] [--propagation NAME]
 * Output: one line per (p, repetition), "key=value" fields. Exit status 0
 * only if every fit succeeded and equalled the single-process fit. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/common/thread_comm.h"
#include "bench_clock.h"
#include "kindred.h"

enum { CHUNK = 32768 };

enum { CLASSES = 20 }; /* the blobs' centres, and the classes the side information is drawn from */

typedef struct settings {
    const char *algorithm;
    int64_t n, d, k, iters;
    int64_t side_count;       /* --side: pairs, triplets, or the stride of tcs-gm's labelled points */
    const kindred_side *side; /* about all n points, the same for every rank; NULL for kmeans and gmm */
    const char *array;        /* the fitted array compared bitwise: "centers", or dcrc's "weights" */
    int64_t array_size;       /* its entries, from the single-process fit */
    int approximate;          /* KINDRED_USES_SHARDS_APPROX (tvclust): timed, not compared */
    const char *distortion;   /* --distortion: mpckmeans's distortion (its default when NULL) */
    const char *propagation;  /* --propagation: pckmeans's and mpckmeans's (robust unless given) */
} settings;

/* The progress reports of one rank, and the bytes it had received at the
 * first and the last one: their difference over the reports between is the
 * traffic of an iteration, without the row exchange and the seeding. */
typedef struct reports {
    int64_t count;
    const thread_rank *link; /* NULL for the single-process fit */
    uint64_t first_bytes, last_bytes;
} reports;

typedef struct rank_job {
    const settings *s;
    const double *x;
    thread_rank link;
    kindred_comm comm;
    int64_t row_offset, n_local;
    reports reports;
    int32_t *labels;
    double *array;
    int status;
    double cpu_s; /* this rank's thread CPU time for its fit */
} rank_job;

static double thread_cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int count_report(void *user, int64_t iteration, double objective, const char *message) {
    (void)iteration, (void)objective, (void)message;
    reports *r = (reports *)user;
    const uint64_t now = r->link ? r->link->received : 0;
    if (r->count++ == 0) r->first_bytes = now;
    r->last_bytes = now;
    return 0;
}

/* 1 for KINDRED_OK; else prints the library's message (a refused option names itself) and returns 0. */
static int accepted(kindred_status status) {
    if (status == KINDRED_OK) return 1;
    fprintf(stderr, "shard_bench: %s\n", kindred_last_error());
    return 0;
}

/* 1 when `name` is set to `value` (its text form), or when the algorithm has no option of that name (the
 * settings below are the union of what the algorithms call them); else prints the library's message. */
static int set_if_known(kindred_model *m, const char *name, const char *value) {
    const kindred_status status = kindred_model_set_string(m, name, value);
    return status == KINDRED_E_NOT_FOUND || accepted(status);
}

/* One restart, `iters` iterations of the loop the algorithm repeats (tol 0: no early stop), one thread.
 * The names differ: tcs-gm's EM loop is em_max_iter (its max_iter is the FISTA of the transformation);
 * tvclust's are Gibbs sweeps (a quarter of them burn-in); copkmeans has no tol (it stops when no label
 * changes), nor has rdpmeans (it runs its `iters` passes: stable_iterations above them); dcrc restarts only its k-means start; the weights of pckmeans / mpckmeans are fixed (1 in
 * the spread unit; propagation robust unless --propagation says otherwise) so that the benchmark times
 * iterations, not the cross-validation that chooses them. NULL on a refused option, with the library's
 * message printed. */
static kindred_model *new_model(const settings *s, reports *reports) {
    kindred_model *m = NULL;
    if (!accepted(kindred_model_new(&m, s->algorithm))) return NULL;
    const int tcs = strcmp(s->algorithm, "tcs-gm") == 0, tvclust = strcmp(s->algorithm, "tvclust") == 0;
    char k[32], iters[32], burn_in[32], stable[32];
    snprintf(k, sizeof k, "%lld", (long long)s->k);
    snprintf(iters, sizeof iters, "%lld", (long long)s->iters);
    snprintf(burn_in, sizeof burn_in, "%lld", (long long)(s->iters / 4));
    snprintf(stable, sizeof stable, "%lld", (long long)(s->iters + 1));
    const char *settings_of_all[][2] = {
        {"k", k}, {"n_init", "1"}, {"init_restarts", "1"}, {tcs ? "em_max_iter" : tvclust ? "iterations" : "max_iter", iters},
        {"burn_in", burn_in}, {"threads", "1"}, {"seed", "3"}, {"standardize", "0"}, {tcs ? "em_tol" : "tol", "0"},
        {"penalty", "1"}, {"constraint_weight", "1"}, {"propagation", s->propagation},
        {"distortion", s->distortion ? s->distortion : "euclidean-diag"}, {"stable_iterations", stable},
    };
    for (size_t i = 0; i < sizeof settings_of_all / sizeof settings_of_all[0]; ++i)
        if (!set_if_known(m, settings_of_all[i][0], settings_of_all[i][1])) {
            kindred_model_free(m);
            return NULL;
        }
    kindred_model_set_progress(m, count_report, reports);
    return m;
}

static void *run_rank(void *arg) {
    rank_job *j = (rank_job *)arg;
    kindred_model *m = new_model(j->s, &j->reports);
    const double c0 = thread_cpu_seconds();
    j->status = m ? kindred_model_fit_dense_shard(m, &j->comm, j->x + j->row_offset * j->s->d, j->n_local, j->s->d,
                                                  KINDRED_ROW_MAJOR, j->s->d, j->row_offset, j->s->n, j->s->side)
                  : KINDRED_E_NOMEM;
    j->cpu_s = thread_cpu_seconds() - c0;
    if (j->status == KINDRED_OK) {
        kindred_model_labels(m, j->labels + j->row_offset, j->n_local);
        if (!j->s->approximate && kindred_model_array(m, j->s->array, j->array, j->s->array_size) != KINDRED_OK) j->status = KINDRED_E_STATE;
    }
    if (j->status != KINDRED_OK) {
        fprintf(stderr, "shard_bench: rank %d: %s\n", j->comm.rank, kindred_last_error());
    }
    kindred_model_free(m);
    return NULL;
}

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* n points around CLASSES centres in [-10, 10]^d with uniform noise in [-2, 2); class[i] is point i's centre. */
static void generate(double *x, int32_t *class, int64_t n, int64_t d) {
    uint64_t state = 17;
    double centres[CLASSES * 64];
    for (int64_t v = 0; v < CLASSES * d; ++v) centres[v] = 20.0 * (double)(splitmix64(&state) >> 11) / 9007199254740992.0 - 10.0;
    for (int64_t i = 0; i < n; ++i) {
        class[i] = (int32_t)(splitmix64(&state) % CLASSES);
        const double *c = centres + (int64_t)class[i] * d;
        for (int64_t j = 0; j < d; ++j) x[i * d + j] = c[j] + 4.0 * (double)(splitmix64(&state) >> 11) / 9007199254740992.0 - 2.0;
    }
}

/* The side information the algorithm uses (kindred_algorithm_uses), drawn from the classes: pairs,
 * triplets or partial labels; NULL for an algorithm without side information (kmeans, gmm), or on
 * failure (the message printed, *failed set). */
static kindred_side *new_side(const settings *s, const int32_t *class, int *failed) {
    int uses = 0;
    *failed = 1;
    if (!accepted(kindred_algorithm_uses(s->algorithm, &uses))) return NULL;
    *failed = 0;
    if (!(uses & (KINDRED_USES_PAIRS | KINDRED_USES_TRIPLETS | KINDRED_USES_PARTIAL_LABELS))) return NULL;
    kindred_side *side = NULL;
    kindred_status status = kindred_side_new(&side, s->n);
    if (status == KINDRED_OK && (uses & KINDRED_USES_PAIRS))
        status = kindred_sample_pairs(side, class, s->n, s->side_count, 0.0, 0.0, 5);
    if (status == KINDRED_OK && (uses & KINDRED_USES_TRIPLETS))
        status = kindred_sample_triplets(side, class, s->n, s->side_count, 0.0, 5);
    if (status == KINDRED_OK && (uses & KINDRED_USES_PARTIAL_LABELS)) {
        int32_t *partial = malloc((size_t)s->n * sizeof *partial);
        if (!partial) status = KINDRED_E_NOMEM;
        for (int64_t i = 0; partial && i < s->n; ++i)
            partial[i] = i % s->side_count == 0 && class[i] < CLASSES / 2 ? class[i] : -1;
        if (partial) status = kindred_side_set_partial_labels(side, partial, s->n);
        free(partial);
    }
    if (status != KINDRED_OK) {
        fprintf(stderr, "shard_bench: side information for %s: %s\n", s->algorithm, kindred_last_error());
        kindred_side_free(side);
        *failed = 1;
        return NULL;
    }
    return side;
}

/* The bytes one rank receives per iteration, by the formula of
 * docs/distributed.md: the chunk sums of every chunk but its own, plus the
 * agreement on the progress report. kmeans: k x d sums and k counts per
 * chunk; gmm (shared-spherical): k weights, k x d sums, then k squared-norm
 * sums per chunk, and one log-likelihood per chunk. */
static double formula_bytes(const settings *s, int p) {
    const double chunks = (double)((s->n + CHUNK - 1) / CHUNK);
    const double other = chunks * (double)(p - 1) / (double)p;
    const double agree = 16.0 * (p - 1);
    if (strcmp(s->algorithm, "gmm") == 0) return other * 8.0 * (double)(s->k + s->k * s->d + s->k + 1) + agree;
    if (strcmp(s->algorithm, "kmeans") == 0) return other * 8.0 * (double)(s->k * s->d + s->k) + agree;
    return -1.0; /* no formula here: the side information's share depends on where its points fall */
}

int main(int argc, char **argv) {
    settings s = {"kmeans", 400000, 16, 10, 20, 2000, NULL, "centers", 0, 0, NULL, "robust"};
    int64_t repeat = 3;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--algorithm")) s.algorithm = argv[a + 1];
        else if (!strcmp(argv[a], "--n")) s.n = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--d")) s.d = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--k")) s.k = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--iters")) s.iters = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--repeat")) repeat = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--side")) s.side_count = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--distortion")) s.distortion = argv[a + 1];
        else if (!strcmp(argv[a], "--propagation")) s.propagation = argv[a + 1];
        else {
            fprintf(stderr, "shard_bench: unknown argument %s\n", argv[a]);
            return 2;
        }
    }
    if (s.d < 1 || s.d > 64 || s.n < 1 || s.k < 1 || s.iters < 1 || s.side_count < 1) {
        fprintf(stderr, "shard_bench: need 1 <= d <= 64, n >= 1, k >= 1, iters >= 1, side >= 1\n");
        return 2;
    }
    if (!strcmp(s.algorithm, "dcrc")) s.array = "weights";
    int uses = 0;
    if (!accepted(kindred_algorithm_uses(s.algorithm, &uses))) return 2;
    s.approximate = (uses & KINDRED_USES_SHARDS_APPROX) != 0;
    double *x = malloc((size_t)(s.n * s.d) * sizeof *x);
    int32_t *class = malloc((size_t)s.n * sizeof *class);
    int32_t *plain_labels = malloc((size_t)s.n * sizeof *plain_labels), *labels = malloc((size_t)s.n * sizeof *labels);
    if (!x || !class || !plain_labels || !labels) return 1;
    generate(x, class, s.n, s.d);
    int side_failed = 0;
    kindred_side *side = new_side(&s, class, &side_failed);
    if (side_failed) return 1;
    s.side = side;
    double *plain_array = NULL, *arrays = NULL;
    int ok = 1;
    for (int64_t rep = 0; rep < repeat; ++rep) {
        reports plain_reports = {0, NULL, 0, 0};
        kindred_model *m = new_model(&s, &plain_reports);
        const double t0 = now_seconds(), c0 = cpu_seconds();
        if (!m || kindred_model_fit_dense(m, x, s.n, s.d, KINDRED_ROW_MAJOR, s.d, s.side) != KINDRED_OK) {
            fprintf(stderr, "shard_bench: plain fit: %s\n", kindred_last_error());
            return 1;
        }
        const double plain_s = now_seconds() - t0, plain_cpu = cpu_seconds() - c0;
        kindred_model_labels(m, plain_labels, s.n);
        if (!plain_array) { /* the array's size is known after the first fit (tcs-gm: K labelled classes + k) */
            int64_t rows = 0, cols = 0;
            if (kindred_model_array_shape(m, s.array, &rows, &cols) != KINDRED_OK) {
                fprintf(stderr, "shard_bench: %s: %s\n", s.array, kindred_last_error());
                return 1;
            }
            s.array_size = rows * cols;
            plain_array = malloc((size_t)s.array_size * sizeof(double));
            arrays = malloc((size_t)(THREAD_COMM_MAX_RANKS * s.array_size) * sizeof(double));
            if (!plain_array || !arrays) return 1;
        }
        kindred_model_array(m, s.array, plain_array, s.array_size);
        kindred_model_free(m);
        printf("algorithm=%s n=%lld d=%lld k=%lld p=plain rep=%lld wall_s=%.4f cpu_s=%.4f iterations=%lld\n", s.algorithm,
               (long long)s.n, (long long)s.d, (long long)s.k, (long long)rep, plain_s, plain_cpu,
               (long long)plain_reports.count);
        const int ranks[] = {1, 2, 4};
        for (int q = 0; q < 3; ++q) {
            const int p = ranks[q];
            thread_world w;
            thread_world_init(&w, p);
            rank_job jobs[THREAD_COMM_MAX_RANKS];
            pthread_t threads[THREAD_COMM_MAX_RANKS];
            const double t1 = now_seconds();
            for (int r = 0; r < p; ++r) {
                rank_job *j = &jobs[r];
                memset(j, 0, sizeof *j);
                j->s = &s;
                j->x = x;
                thread_comm(&w, r, &j->link, &j->comm);
                j->reports.link = &j->link;
                /* Even shards, not aligned to the chunks: the worst case of the row exchange. */
                j->row_offset = s.n * r / p;
                j->n_local = s.n * (r + 1) / p - j->row_offset;
                j->labels = labels;
                j->array = arrays + r * s.array_size;
                pthread_create(&threads[r], NULL, run_rank, j);
            }
            for (int r = 0; r < p; ++r) pthread_join(threads[r], NULL);
            const double wall = now_seconds() - t1;
            thread_world_destroy(&w);
            int equal = 1;
            double max_cpu = 0.0, sum_cpu = 0.0;
            for (int r = 0; r < p; ++r) {
                max_cpu = jobs[r].cpu_s > max_cpu ? jobs[r].cpu_s : max_cpu;
                sum_cpu += jobs[r].cpu_s;
                if (jobs[r].status != KINDRED_OK) ok = equal = 0;
                if (!s.approximate && memcmp(jobs[r].array, plain_array, (size_t)s.array_size * sizeof(double))) equal = 0;
            }
            if (memcmp(labels, plain_labels, (size_t)s.n * sizeof(int32_t))) equal = 0;
            if (s.approximate) equal = -1; /* an approximate sharded fit: not the single-process result */
            ok = ok && equal != 0;
            const reports *r0 = &jobs[0].reports;
            const double per_iter =
                r0->count > 1 ? (double)(r0->last_bytes - r0->first_bytes) / (double)(r0->count - 1) : 0.0;
            /* cpu_speedup: the plain fit's CPU time over the busiest rank's, the speed-up on p idle cores
             * (wall_s and speedup are the wall times on this machine, as loaded as it is). */
            printf("algorithm=%s n=%lld d=%lld k=%lld p=%d rep=%lld wall_s=%.4f speedup=%.2f max_rank_cpu_s=%.4f "
                   "sum_rank_cpu_s=%.4f cpu_speedup=%.2f bytes_per_iter=%.0f formula_bytes_per_iter=%.0f bytes_total=%llu "
                   "equal=%d\n",
                   s.algorithm, (long long)s.n, (long long)s.d, (long long)s.k, p, (long long)rep, wall, plain_s / wall,
                   max_cpu, sum_cpu, plain_cpu / max_cpu,
                   per_iter, p > 1 ? formula_bytes(&s, p) : 0.0, (unsigned long long)jobs[0].link.received, equal);
            fflush(stdout);
        }
    }
    kindred_side_free(side);
    free(x), free(class), free(plain_labels), free(labels), free(plain_array), free(arrays);
    return ok ? 0 : 1;
}
