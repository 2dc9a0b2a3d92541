/* Times RDP-means and TVClust through the public C API (docs/performance.md,
 * "RDP-means and TVClust").
 *
 * --alg rdpmeans: n points in 20 Gaussian blobs (d dims, unit variance, centres
 *   uniform in [-S, S]^d, --spread S, 10 by default), --pairs-per-point P
 *   pairs per point (P n in all) sampled from the blob labels with
 *   kindred_sample_pairs (noise --noise); RDP-means with lambda from the k hint
 *   20 runs --iters iterations (stable_iterations set above it, so every
 *   iteration is a full pass). Then kmeans on the same data with k = the number
 *   of clusters RDP-means found, tol = 0, at most the same number of
 *   iterations (and as many restarts, since a kmeans run stops when no centre
 *   moves, after 2-3 iterations on these blobs). The two fits alternate
 *   --repeats times (interleaved, so that a change of load on a shared machine
 *   hits both). Per-iteration time =
 *   interval between progress callbacks (both algorithms report once per
 *   iteration), the first iteration of every run excluded; for each algorithm
 *   the median and the mean over all these intervals of all repeats, in
 *   process CPU time (what other jobs on a shared machine do not inflate) and
 *   wall clock, and the ratios rdpmeans / kmeans. RDP-means iterations are not
 *   all alike: the first ones move many points (their link terms are gathered
 *   again), the later ones few; the median is a steady-state iteration, the
 *   mean includes the early ones.
 * --alg tvclust: seconds per Gibbs sweep (interval between callbacks).
 * Peak resident memory (ru_maxrss) after the data, after the side information
 * and after the fits, and the largest resident memory seen during each fit.
 *
 * usage: rdpmeans_bench --alg rdpmeans|tvclust --n N --d D [--pairs-per-point P]
 *                       [--iters I] [--repeats R] [--threads T] [--noise E]
 *                       [--skip-certified 0|1] [--link-bounds 0|1] [--center-bounds 0|1] [--xi-0 X] [--spread S]
 *                       [--per-iteration 0|1] [--kmeans 0|1]
 * --kmeans 0: RDP-means fits only (no kmeans reference, no ratios): for a
 *   profile of RDP-means alone, and its CPU time per iteration. */
#define _POSIX_C_SOURCE 200112L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench_clock.h"
#include "kindred.h"
#include "rdpmeans_passes.h"

static double peak_mb(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_maxrss / 1024.0;
}

/* Resident memory now (Linux /proc/self/statm), NAN elsewhere. */
static double resident_mb(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    const int got = f ? fscanf(f, "%ld %ld", &pages, &resident) : 0;
    if (f) fclose(f);
    return got == 2 ? (double)resident * (double)sysconf(_SC_PAGESIZE) / 1048576.0 : NAN;
}

/* Clock readings at every progress callback of one fit, and the largest
 * resident memory seen at a callback (the memory held during the fit, which
 * the peak after the sampling of the pairs may hide). */
typedef struct {
    int64_t calls, capacity;
    int64_t *iteration;
    double *wall, *cpu;
    double max_resident_mb;
} clock_state;

static int on_progress(void *user, int64_t iteration, double objective, const char *message) {
    clock_state *c = (clock_state *)user;
    (void)objective;
    (void)message;
    const double t = now_seconds(), cpu = cpu_seconds();
    const double mb = resident_mb();
    if (mb > c->max_resident_mb) c->max_resident_mb = mb;
    if (c->calls < c->capacity) {
        c->iteration[c->calls] = iteration;
        c->wall[c->calls] = t;
        c->cpu[c->calls] = cpu;
        ++c->calls;
    }
    return 0;
}

/* Per-iteration intervals of all fits of one algorithm: between callbacks of
 * consecutive iterations of one run (the first iteration of a run, which
 * follows the setup or the seeding of a restart, is excluded). */
typedef struct {
    int64_t count, capacity;
    double *wall, *cpu;
} intervals;

/* computed: NULL, or per iteration (from 1) the fraction of the pass that
 * was computed (RDP-means' logged pass_computed: 1 for a full pass, less where
 * points were certified unchanged); only the full passes are kept then. */
static void add_intervals(intervals *out, const clock_state *c, const double *computed) {
    for (int64_t t = 1; t < c->calls && out->count < out->capacity; ++t) {
        if (c->iteration[t] != c->iteration[t - 1] + 1) continue;
        if (computed && computed[c->iteration[t] - 1] < 1.0) continue;
        out->wall[out->count] = c->wall[t] - c->wall[t - 1];
        out->cpu[out->count] = c->cpu[t] - c->cpu[t - 1];
        ++out->count;
    }
}

static int compare_doubles(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static double median(double *v, int64_t m) {
    if (m == 0) return NAN;
    qsort(v, (size_t)m, sizeof *v, compare_doubles);
    return m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
}
static double mean(const double *v, int64_t m) {
    double s = 0;
    for (int64_t t = 0; t < m; ++t) s += v[t];
    return m ? s / (double)m : NAN;
}

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double uniform01(uint64_t *s) { return ((double)(splitmix64(s) >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

/* 20 blobs with centres uniform in [-spread, spread]^d, unit variance. */
static void blobs(double *x, int32_t *truth, int64_t n, int64_t d, double spread, uint64_t seed) {
    const int64_t k = 20;
    double *c = malloc((size_t)(k * d) * sizeof *c);
    uint64_t s = seed;
    for (int64_t v = 0; v < k * d; ++v) c[v] = 2.0 * spread * uniform01(&s) - spread; /* 20 u - 10 by default */
    for (int64_t i = 0; i < n; ++i) {
        truth[i] = (int32_t)(splitmix64(&s) % (uint64_t)k);
        for (int64_t j = 0; j < d; ++j) {
            const double u1 = uniform01(&s), u2 = uniform01(&s);
            x[i * d + j] = c[truth[i] * d + j] + sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
        }
    }
    free(c);
}

#define CHECK(call)                                                                  \
    do {                                                                             \
        if ((call) != KINDRED_OK) {                                                  \
            fprintf(stderr, "rdpmeans_bench: %s: %s\n", #call, kindred_last_error()); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

int main(int argc, char **argv) {
    const char *alg = "rdpmeans";
    int64_t n = 100000, d = 16, iters = 10, threads = 1, repeats = 1;
    double ppp = 1.0, noise = 0.0;
    int skip_certified = 1; /* RDP-means' option of that name (0: compute every pass) */
    int per_iteration = 0;  /* 1: also print RDP-means' median CPU time of each iteration */
    int link_bounds = 1;    /* RDP-means' option of that name (0: read every point's link terms) */
    int center_bounds = 1;  /* RDP-means' option of that name (0: compute every point's divergences) */
    int with_kmeans = 1;    /* 0: no kmeans reference fits */
    double xi_0 = -1.0;     /* RDP-means' xi_0 (< 0: its default) */
    double spread = 10.0;   /* blob centres uniform in [-spread, spread]^d: 10 separates them, 2 overlaps them */
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--alg")) alg = argv[a + 1];
        else if (!strcmp(argv[a], "--n")) n = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--d")) d = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--iters")) iters = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--repeats")) repeats = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--threads")) threads = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--pairs-per-point")) ppp = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "--noise")) noise = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "--skip-certified")) skip_certified = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--per-iteration")) per_iteration = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--link-bounds")) link_bounds = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--center-bounds")) center_bounds = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--xi-0")) xi_0 = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "--spread")) spread = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "--kmeans")) with_kmeans = atoi(argv[a + 1]);
        else {
            fprintf(stderr, "rdpmeans_bench: unknown flag %s\n", argv[a]);
            return 2;
        }
    }
    if (iters < 2 || repeats < 1) {
        fprintf(stderr, "rdpmeans_bench: need --iters >= 2 and --repeats >= 1\n");
        return 2;
    }
    double *x = malloc((size_t)(n * d) * sizeof *x);
    int32_t *truth = malloc((size_t)n * sizeof *truth);
    int32_t *labels = malloc((size_t)n * sizeof *labels);
    /* kmeans runs iters restarts of at most iters iterations (see below). */
    const int64_t cap = iters * iters + 2, all = repeats * cap;
    double *buf = malloc((size_t)(2 * cap + 6 * all) * sizeof *buf);
    double *pass_buf = malloc((size_t)(3 * cap) * sizeof *pass_buf);
    int64_t *iteration = malloc((size_t)cap * sizeof *iteration);
    if (!x || !truth || !labels || !buf || !iteration || !pass_buf) return 1;
    /* RDP-means' per-pass figures, from its log lines (rdpmeans_passes.h). */
    rdpmeans_passes passes = {0, cap, pass_buf, pass_buf + cap, pass_buf + 2 * cap, 0};
    clock_state c = {0, cap, iteration, buf, buf + cap, 0.0};
    double rss_rdp = 0.0, rss_kmeans = 0.0;
    intervals ri = {0, all, buf + 2 * cap, buf + 2 * cap + all};
    intervals ki = {0, all, buf + 2 * cap + 2 * all, buf + 2 * cap + 3 * all};
    intervals ci = {0, all, buf + 2 * cap + 4 * all, buf + 2 * cap + 5 * all}; /* RDP-means, computed passes */
    int64_t skipped = 0, timed = 0, linked_count = 0;
    double linked_sum = 0.0, rows_sum = 0.0;
    blobs(x, truth, n, d, spread, 12345);
    const double mb_data = peak_mb();
    kindred_side *side = NULL;
    CHECK(kindred_side_new(&side, n));
    const int64_t pairs = (int64_t)(ppp * (double)n);
    double t0 = now_seconds();
    if (pairs > 0) CHECK(kindred_sample_pairs(side, truth, n, pairs, 0.0, noise, 7));
    const double side_s = now_seconds() - t0;
    const double mb_side = peak_mb();

    int64_t k = 0;
    double ari = 0, fit_s = 0;
    for (int64_t r = 0; r < repeats; ++r) {
        kindred_model *m = NULL;
        c.calls = 0;
        CHECK(kindred_model_new(&m, alg));
        CHECK(kindred_model_set_int(m, "threads", threads));
        CHECK(kindred_model_set_progress(m, on_progress, &c));
        if (!strcmp(alg, "rdpmeans")) {
            passes.count = 0;
            CHECK(kindred_model_set_log(m, rdpmeans_passes_log, &passes));
            CHECK(kindred_model_set_int(m, "k", 20));
            CHECK(kindred_model_set_int(m, "max_iter", iters));
            CHECK(kindred_model_set_int(m, "stable_iterations", iters + 1));
            CHECK(kindred_model_set_string(m, "skip_certified", skip_certified ? "true" : "false"));
            CHECK(kindred_model_set_string(m, "link_bounds", link_bounds ? "true" : "false"));
            CHECK(kindred_model_set_string(m, "center_bounds", center_bounds ? "true" : "false"));
            if (xi_0 >= 0.0) CHECK(kindred_model_set_double(m, "xi_0", xi_0));
        } else {
            CHECK(kindred_model_set_int(m, "iterations", iters));
            CHECK(kindred_model_set_int(m, "burn_in", 0));
        }
        t0 = now_seconds();
        CHECK(kindred_model_fit_dense(m, x, n, d, KINDRED_ROW_MAJOR, d, side));
        fit_s = now_seconds() - t0;
        add_intervals(&ri, &c, NULL);
        if (!strcmp(alg, "rdpmeans")) {
            int64_t fit_iterations = 0;
            CHECK(kindred_model_summary(m, NULL, NULL, NULL, &fit_iterations, NULL, NULL));
            if (passes.malformed || passes.count != fit_iterations) {
                fprintf(stderr, "rdpmeans_bench: %lld pass records for %lld iterations (%lld malformed)\n",
                        (long long)passes.count, (long long)fit_iterations, (long long)passes.malformed);
                return 1;
            }
            const int64_t before = ci.count;
            add_intervals(&ci, &c, passes.computed);
            timed += c.calls - 1;
            skipped += c.calls - 1 - (ci.count - before);
            /* The share of points whose link terms a pass read (the others
             * were decided by the distance bound, or certified unchanged). */
            for (int64_t t = 1; t < passes.count; ++t) linked_sum += passes.linked[t], ++linked_count;
            /* The share of points whose divergences a pass computed (the
             * others were kept by the center bounds, or certified unchanged). */
            for (int64_t t = 1; t < passes.count; ++t) rows_sum += passes.rows[t];
        }
        rss_rdp = c.max_resident_mb;
        c.max_resident_mb = 0.0;
        CHECK(kindred_model_summary(m, NULL, NULL, &k, NULL, NULL, NULL));
        CHECK(kindred_model_labels(m, labels, n));
        CHECK(kindred_metric("ari", truth, labels, n, &ari));
        kindred_model_free(m);
        if (strcmp(alg, "rdpmeans") || !with_kmeans) continue;

        c.calls = 0;
        CHECK(kindred_model_new(&m, "kmeans"));
        CHECK(kindred_model_set_int(m, "threads", threads));
        CHECK(kindred_model_set_int(m, "k", k));
        /* tol = 0 stops a run when no centre moves, which on these blobs
         * happens after 2-3 iterations: restarts give more iterations to
         * time (the seeding of each restart is not timed, see add_intervals). */
        CHECK(kindred_model_set_int(m, "n_init", iters));
        CHECK(kindred_model_set_double(m, "tol", 0.0));
        CHECK(kindred_model_set_int(m, "max_iter", iters));
        CHECK(kindred_model_set_progress(m, on_progress, &c));
        CHECK(kindred_model_fit_dense(m, x, n, d, KINDRED_ROW_MAJOR, d, NULL));
        add_intervals(&ki, &c, NULL);
        rss_kmeans = c.max_resident_mb;
        c.max_resident_mb = 0.0;
        kindred_model_free(m);
    }
    const double mb_fit = peak_mb();
    if (per_iteration && !strcmp(alg, "rdpmeans") && ri.count == repeats * (iters - 1)) {
        /* RDP-means CPU ms per iteration (2..iters), the median over the rounds,
         * against the kmeans median: which iterations make the mean. */
        double *v = malloc((size_t)repeats * sizeof *v);
        double *kc = malloc((size_t)(ki.count + 1) * sizeof *kc);
        memcpy(kc, ki.cpu, (size_t)ki.count * sizeof *kc);
        const double k_med = median(kc, ki.count);
        for (int64_t t = 0; t < iters - 1; ++t) {
            for (int64_t r = 0; r < repeats; ++r) v[r] = ri.cpu[r * (iters - 1) + t];
            const double med = median(v, repeats);
            printf("iteration %lld: rdpmeans_cpu_ms=%.2f", (long long)(t + 2), 1e3 * med);
            if (with_kmeans) printf(" ratio_to_kmeans=%.2f", med / k_med);
            printf("\n");
        }
        free(v);
        free(kc);
    }
    const double r_mean_cpu = mean(ri.cpu, ri.count), r_mean_wall = mean(ri.wall, ri.count);
    const double r_med_cpu = median(ri.cpu, ri.count), r_med_wall = median(ri.wall, ri.count);
    printf("alg=%s n=%lld d=%lld pairs=%lld threads=%lld iters=%lld repeats=%lld clusters=%lld ari=%.4f "
           "per_iter_cpu_median=%.5f per_iter_cpu_mean=%.5f per_iter_wall_median=%.5f per_iter_wall_mean=%.5f "
           "last_fit_s=%.3f sample_pairs_s=%.3f peak_mb_data=%.0f peak_mb_side=%.0f peak_mb_fit=%.0f "
           "resident_mb_during_fit=%.0f\n",
           alg, (long long)n, (long long)d, (long long)pairs, (long long)threads, (long long)iters, (long long)repeats,
           (long long)k, ari, r_med_cpu, r_mean_cpu, r_med_wall, r_mean_wall, fit_s, side_s, mb_data, mb_side, mb_fit,
           rss_rdp);
    if (!strcmp(alg, "rdpmeans") && with_kmeans) {
        const double k_mean_cpu = mean(ki.cpu, ki.count), k_mean_wall = mean(ki.wall, ki.count);
        const double k_med_cpu = median(ki.cpu, ki.count), k_med_wall = median(ki.wall, ki.count);
        printf("alg=kmeans n=%lld d=%lld k=%lld per_iter_cpu_median=%.5f per_iter_cpu_mean=%.5f "
               "per_iter_wall_median=%.5f per_iter_wall_mean=%.5f resident_mb_during_fit=%.0f\n",
               (long long)n, (long long)d, (long long)k, k_med_cpu, k_mean_cpu, k_med_wall, k_mean_wall, rss_kmeans);
        printf("ratio rdpmeans/kmeans: cpu_median=%.2f cpu_mean=%.2f wall_median=%.2f wall_mean=%.2f\n",
               r_med_cpu / k_med_cpu, r_mean_cpu / k_mean_cpu, r_med_wall / k_med_wall, r_mean_wall / k_mean_wall);
        /* The full passes of RDP-means (those with points certified unchanged excluded). */
        const double c_mean_cpu = mean(ci.cpu, ci.count), c_med_cpu = median(ci.cpu, ci.count);
        printf("full passes: %lld of %lld timed (%lld with points certified unchanged) per_iter_cpu_median=%.5f "
               "per_iter_cpu_mean=%.5f ratio_cpu_median=%.2f ratio_cpu_mean=%.2f\n",
               (long long)(timed - skipped), (long long)timed, (long long)skipped, c_med_cpu, c_mean_cpu,
               c_med_cpu / k_med_cpu, c_mean_cpu / k_mean_cpu);
        printf("points whose link terms were read, iterations 2-%lld: %.4f of n on average\n", (long long)iters,
               linked_count ? linked_sum / (double)linked_count : 0.0);
        printf("points whose divergences were computed, iterations 2-%lld: %.4f of n on average\n",
               (long long)iters, linked_count ? rows_sum / (double)linked_count : 0.0);
    }
    kindred_side_free(side);
    free(labels);
    free(x);
    free(truth);
    free(buf);
    free(iteration);
    free(pass_buf);
    return 0;
}
