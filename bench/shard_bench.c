/* Sharded fits on one machine (docs/performance.md, "Sharded fits"): the
 * ranks are threads of this process joined by the in-process communicator of
 * tests/thread_comm.h, each calling kindred_model_fit_dense_shard on its
 * slice of the rows, one kindred thread each (OPENBLAS_NUM_THREADS=1).
 *
 * For an algorithm (kmeans or gmm) and p = 1, 2, 4 ranks it prints the wall
 * time of the whole fit against the single-process fit on one thread (the
 * strong-scaling speed-up; on 2 cores p = 4 is oversubscribed), the bytes one
 * rank receives per iteration against the formula of docs/distributed.md,
 * and whether the labels and centres equal the single-process fit bitwise.
 * p = 1 is a communicator of size 1, i.e. the single-process fit itself.
 *
 * Usage: shard_bench [--algorithm kmeans|gmm] [--n N] [--d D] [--k K]
 *                    [--iters I] [--repeat R]
 * Output: one line per (p, repetition), "key=value" fields. Exit status 0
 * only if every fit succeeded and equalled the single-process fit. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/thread_comm.h"
#include "bench_clock.h"
#include "kindred.h"

enum { CHUNK = 32768 };

typedef struct settings {
    const char *algorithm;
    int64_t n, d, k, iters;
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
    double *centers;
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

static kindred_model *new_model(const settings *s, reports *reports) {
    kindred_model *m = NULL;
    if (kindred_model_new(&m, s->algorithm) != KINDRED_OK) return NULL;
    kindred_model_set_int(m, "k", s->k);
    kindred_model_set_int(m, "n_init", 1);
    kindred_model_set_int(m, "max_iter", s->iters);
    kindred_model_set_double(m, "tol", 0.0);
    kindred_model_set_int(m, "threads", 1);
    kindred_model_set_int(m, "seed", 3);
    kindred_model_set_progress(m, count_report, reports);
    return m;
}

static void *run_rank(void *arg) {
    rank_job *j = (rank_job *)arg;
    kindred_model *m = new_model(j->s, &j->reports);
    const double c0 = thread_cpu_seconds();
    j->status = m ? kindred_model_fit_dense_shard(m, &j->comm, j->x + j->row_offset * j->s->d, j->n_local, j->s->d,
                                                  KINDRED_ROW_MAJOR, j->s->d, j->row_offset, j->s->n, NULL)
                  : KINDRED_E_NOMEM;
    j->cpu_s = thread_cpu_seconds() - c0;
    if (j->status == KINDRED_OK) {
        kindred_model_labels(m, j->labels + j->row_offset, j->n_local);
        kindred_model_array(m, "centers", j->centers, j->s->k * j->s->d);
    } else {
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

/* n points around 20 centres in [-10, 10]^d with uniform noise in [-2, 2). */
static void generate(double *x, int64_t n, int64_t d) {
    uint64_t state = 17;
    double centres[20 * 64];
    for (int64_t v = 0; v < 20 * d; ++v) centres[v] = 20.0 * (double)(splitmix64(&state) >> 11) / 9007199254740992.0 - 10.0;
    for (int64_t i = 0; i < n; ++i) {
        const double *c = centres + (int64_t)(splitmix64(&state) % 20) * d;
        for (int64_t j = 0; j < d; ++j) x[i * d + j] = c[j] + 4.0 * (double)(splitmix64(&state) >> 11) / 9007199254740992.0 - 2.0;
    }
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
    return other * 8.0 * (double)(s->k * s->d + s->k) + agree;
}

int main(int argc, char **argv) {
    settings s = {"kmeans", 400000, 16, 10, 20};
    int64_t repeat = 3;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--algorithm")) s.algorithm = argv[a + 1];
        else if (!strcmp(argv[a], "--n")) s.n = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--d")) s.d = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--k")) s.k = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--iters")) s.iters = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--repeat")) repeat = atoll(argv[a + 1]);
        else {
            fprintf(stderr, "shard_bench: unknown argument %s\n", argv[a]);
            return 2;
        }
    }
    if (s.d < 1 || s.d > 64 || s.n < 1 || s.k < 1 || s.iters < 1) {
        fprintf(stderr, "shard_bench: need 1 <= d <= 64, n >= 1, k >= 1, iters >= 1\n");
        return 2;
    }
    double *x = malloc((size_t)(s.n * s.d) * sizeof *x);
    int32_t *plain_labels = malloc((size_t)s.n * sizeof *plain_labels), *labels = malloc((size_t)s.n * sizeof *labels);
    double *plain_centers = malloc((size_t)(s.k * s.d) * sizeof(double));
    double *centers = malloc((size_t)(THREAD_COMM_MAX_RANKS * s.k * s.d) * sizeof(double));
    if (!x || !plain_labels || !labels || !plain_centers || !centers) return 1;
    generate(x, s.n, s.d);
    int ok = 1;
    for (int64_t rep = 0; rep < repeat; ++rep) {
        reports plain_reports = {0, NULL, 0, 0};
        kindred_model *m = new_model(&s, &plain_reports);
        const double t0 = now_seconds(), c0 = cpu_seconds();
        if (!m || kindred_model_fit_dense(m, x, s.n, s.d, KINDRED_ROW_MAJOR, s.d, NULL) != KINDRED_OK) {
            fprintf(stderr, "shard_bench: plain fit: %s\n", kindred_last_error());
            return 1;
        }
        const double plain_s = now_seconds() - t0, plain_cpu = cpu_seconds() - c0;
        kindred_model_labels(m, plain_labels, s.n);
        kindred_model_array(m, "centers", plain_centers, s.k * s.d);
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
                j->centers = centers + r * s.k * s.d;
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
                if (memcmp(jobs[r].centers, plain_centers, (size_t)(s.k * s.d) * sizeof(double))) equal = 0;
            }
            if (memcmp(labels, plain_labels, (size_t)s.n * sizeof(int32_t))) equal = 0;
            ok = ok && equal;
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
    free(x), free(plain_labels), free(labels), free(plain_centers), free(centers);
    return ok ? 0 : 1;
}
