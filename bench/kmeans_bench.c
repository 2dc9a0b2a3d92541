/* Times kindred's kmeans through the public C API: the time of one Lloyd
 * iteration and of a whole fit (k-means++ seeding + a fixed number of Lloyd
 * iterations + the final assignment).
 *
 * One fit per repetition, with n_init = 1, tol = 0 and max_iter = ITERS:
 * - whole fit  = wall time of kindred_model_fit_dense();
 * - iteration  = (time of the last progress callback - time of the first) /
 *                (last iteration - first iteration). kmeans reports progress
 *                once per Lloyd iteration, after the centre update, so the
 *                interval between two callbacks is exactly one iteration
 *                (assignment by GEMM + argmin, centre sums, update) and the
 *                seeding is excluded without a second fit.
 *
 * Data: a raw little-endian float64 file, n x d row-major (written by
 * compare_kmeans.py, so that every library sees the same numbers), or, with
 * --generate, Gaussian blobs made here from a fixed seed.
 *
 * Both wall-clock and process CPU times are printed (the machine the figures
 * in docs/performance.md come from is shared, and CPU time is what other
 * jobs' load does not inflate when one thread is used).
 *
 * The memory-read floor: before each fit, the fastest of 5 streaming sums
 * over the points' buffer (read_bandwidth.h) gives the read bandwidth of
 * that moment, read_gbs; floor_ms is the time to read the points once at
 * that rate and floor_ratio = iter_ms / floor_ms, how many reads of the
 * points one Lloyd iteration costs; the same by CPU time in read_cpu_gbs,
 * floor_cpu_ms, floor_cpu_ratio (docs/performance.md, "k-means: the
 * memory-read floor, one pass per iteration").
 *
 * Output: one line per repetition, "key=value" fields, parsed by
 * compare_kmeans.py. Exit status 0 only if every fit succeeded.
 *
 * BLAS threads: kindred reads OpenBLAS's thread count (OPENBLAS_NUM_THREADS)
 * and plans its own threads with it (docs/performance.md, "k-means: Lloyd
 * iteration and whole fit against scikit-learn and FAISS", "What is measured");
 * the driver runs this program with OPENBLAS_NUM_THREADS=1 by default. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "kindred.h"
#include "read_bandwidth.h"

static int on_progress(void *user, int64_t iteration, double objective, const char *message) {
    (void)objective;
    (void)message;
    iteration_clock_tick((iteration_clock *)user, iteration);
    return 0;
}

/* splitmix64: a small generator of our own so that --generate gives the same
 * data on every machine. */
static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform01(uint64_t *state) { return ((double)(splitmix64(state) >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

/* n points around 20 centres drawn uniformly in [-10, 10]^d, unit variance. */
static void generate_blobs(double *x, int64_t n, int64_t d, uint64_t seed) {
    const int64_t blobs = 20;
    double *centres = malloc((size_t)(blobs * d) * sizeof *centres);
    uint64_t state = seed;
    if (!centres) return;
    for (int64_t v = 0; v < blobs * d; ++v) centres[v] = 20.0 * uniform01(&state) - 10.0;
    for (int64_t i = 0; i < n; ++i) {
        const double *c = centres + (int64_t)(splitmix64(&state) % (uint64_t)blobs) * d;
        for (int64_t j = 0; j < d; ++j) {
            /* Box-Muller; one normal per pair of uniforms keeps the code short. */
            const double u1 = uniform01(&state), u2 = uniform01(&state);
            x[i * d + j] = c[j] + sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
        }
    }
    free(centres);
}

static int read_raw(const char *path, double *x, int64_t n, int64_t d) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "kmeans_bench: cannot open %s\n", path);
        return 0;
    }
    const size_t want = (size_t)(n * d);
    const size_t got = fread(x, sizeof *x, want, f);
    const int extra = fgetc(f) != EOF;
    fclose(f);
    if (got != want || extra) {
        fprintf(stderr, "kmeans_bench: %s does not hold exactly %lld x %lld float64 values\n", path, (long long)n,
                (long long)d);
        return 0;
    }
    return 1;
}

static int check(kindred_status s, const char *what) {
    if (s == KINDRED_OK) return 1;
    fprintf(stderr, "kmeans_bench: %s failed: %s\n", what, kindred_last_error());
    return 0;
}

/* Seconds of one fit, wall clock and process CPU time. */
typedef struct {
    double iter_s, fit_s, iter_cpu_s, fit_cpu_s;
} fit_times;

/* One fit; writes the per-iteration and whole-fit seconds. With x32 set, the
 * fit reads those float32 points in place (kindred_model_fit_dense_f32)
 * instead of x. */
static int time_fit(const double *x, const float *x32, int64_t n, int64_t d, int64_t k, int64_t threads, int64_t iters,
                    uint64_t seed, fit_times *out, int64_t *iterations, double *inertia) {
    kindred_model *m = NULL;
    iteration_clock clk = {0};
    int ok = check(kindred_model_new(&m, "kmeans"), "kindred_model_new") &&
             check(kindred_model_set_int(m, "k", k), "set k") &&
             check(kindred_model_set_int(m, "n_init", 1), "set n_init") &&
             check(kindred_model_set_int(m, "max_iter", iters), "set max_iter") &&
             check(kindred_model_set_double(m, "tol", 0.0), "set tol") &&
             check(kindred_model_set_int(m, "threads", threads), "set threads") &&
             check(kindred_model_set_int(m, "seed", (int64_t)seed), "set seed") &&
             check(kindred_model_set_progress(m, on_progress, &clk), "set progress");
    if (ok) {
        const double t0 = now_seconds(), c0 = cpu_seconds();
        ok = x32 ? check(kindred_model_fit_dense_f32(m, x32, n, d, KINDRED_ROW_MAJOR, d, NULL),
                         "kindred_model_fit_dense_f32")
                 : check(kindred_model_fit_dense(m, x, n, d, KINDRED_ROW_MAJOR, d, NULL), "kindred_model_fit_dense");
        out->fit_s = now_seconds() - t0;
        out->fit_cpu_s = cpu_seconds() - c0;
    }
    if (ok) {
        int64_t nn, dd, clusters;
        int converged;
        ok = check(kindred_model_summary(m, &nn, &dd, &clusters, iterations, &converged, inertia), "summary");
    }
    if (ok && clk.calls >= 2 && clk.last_iter > clk.first_iter) {
        out->iter_s = (clk.last_time - clk.first_time) / (double)(clk.last_iter - clk.first_iter);
        out->iter_cpu_s = (clk.last_cpu - clk.first_cpu) / (double)(clk.last_iter - clk.first_iter);
    } else if (ok) {
        fprintf(stderr, "kmeans_bench: only %lld progress report(s); use --iters >= 2\n", (long long)clk.calls);
        ok = 0;
    }
    kindred_model_free(m);
    return ok;
}

static void usage(void) {
    fprintf(stderr,
            "usage: kmeans_bench --n N --d D (--data FILE | --generate SEED) [--k K] [--threads T]\n"
            "                    [--iters M] [--repeat R] [--seed S] [--dtype float64|float32]\n"
            "  --data FILE      raw float64, N x D row-major (as numpy's tofile writes it)\n"
            "  --generate SEED  Gaussian blobs made here instead\n"
            "  --k K            clusters (default 10); may be repeated: --k 10 --k 100\n"
            "  --threads T      kindred's threads option (default 1); set OPENBLAS_NUM_THREADS too\n"
            "  --iters M        Lloyd iterations per fit, tol = 0 (default 10, at least 2)\n"
            "  --repeat R       fits per k (default 3)\n"
            "  --seed S         kmeans seed (default 1)\n"
            "  --dtype T        float32: the points are narrowed to float once, before any\n"
            "                   timing, and fitted by kindred_model_fit_dense_f32 (default float64)\n");
}

int main(int argc, char **argv) {
    int64_t n = 0, d = 0, threads = 1, iters = 10, repeat = 3, gen_seed = -1;
    int64_t ks[16];
    int nk = 0;
    uint64_t seed = 1;
    const char *data_path = NULL;
    int f32 = 0;
    for (int a = 1; a < argc; ++a) {
        const char *opt = argv[a];
        if (a + 1 >= argc) {
            usage();
            return 2;
        }
        const char *val = argv[++a];
        if (!strcmp(opt, "--n")) n = atoll(val);
        else if (!strcmp(opt, "--d")) d = atoll(val);
        else if (!strcmp(opt, "--k") && nk < 16) ks[nk++] = atoll(val);
        else if (!strcmp(opt, "--threads")) threads = atoll(val);
        else if (!strcmp(opt, "--iters")) iters = atoll(val);
        else if (!strcmp(opt, "--repeat")) repeat = atoll(val);
        else if (!strcmp(opt, "--seed")) seed = (uint64_t)atoll(val);
        else if (!strcmp(opt, "--data")) data_path = val;
        else if (!strcmp(opt, "--generate")) gen_seed = atoll(val);
        else if (!strcmp(opt, "--dtype") && (!strcmp(val, "float32") || !strcmp(val, "float64")))
            f32 = !strcmp(val, "float32");
        else {
            usage();
            return 2;
        }
    }
    if (nk == 0) ks[nk++] = 10;
    if (n < 1 || d < 1 || iters < 2 || repeat < 1 || threads < 0 || (!data_path && gen_seed < 0)) {
        usage();
        return 2;
    }
    double *x = malloc((size_t)(n * d) * sizeof *x);
    if (!x) {
        fprintf(stderr, "kmeans_bench: out of memory for %lld x %lld\n", (long long)n, (long long)d);
        return 1;
    }
    if (data_path) {
        if (!read_raw(data_path, x, n, d)) {
            free(x);
            return 1;
        }
    } else {
        generate_blobs(x, n, d, (uint64_t)gen_seed);
    }
    float *x32 = NULL;
    if (f32) {
        x32 = malloc((size_t)(n * d) * sizeof *x32);
        if (!x32) {
            fprintf(stderr, "kmeans_bench: out of memory for the float32 copy\n");
            free(x);
            return 1;
        }
        for (int64_t i = 0; i < n * d; ++i) x32[i] = (float)x[i];
    }
    const char *blas_threads = getenv("OPENBLAS_NUM_THREADS");
    int status = 0;
    for (int q = 0; q < nk && status == 0; ++q) {
        for (int64_t r = 0; r < repeat; ++r) {
            fit_times ft = {0.0, 0.0, 0.0, 0.0};
            double inertia = 0.0;
            int64_t iterations = 0;
            double checksum = 0.0, bandwidth = 0.0, bandwidth_cpu = 0.0;
            read_bandwidth(x, n * d, 5, &bandwidth, &bandwidth_cpu, &checksum);
            /* The floor is the time to read the points the fit reads: 4 or 8 bytes a value. */
            const double bytes = (double)(n * d) * (f32 ? sizeof *x32 : sizeof *x);
            const double floor_ms = bandwidth > 0.0 ? 1e3 * bytes / bandwidth : 0.0;
            const double floor_cpu_ms = bandwidth_cpu > 0.0 ? 1e3 * bytes / bandwidth_cpu : 0.0;
            if (!time_fit(x, x32, n, d, ks[q], threads, iters, seed, &ft, &iterations, &inertia)) {
                status = 1;
                break;
            }
            printf("lib=kindred dtype=%s n=%lld d=%lld k=%lld threads=%lld blas_threads=%s rep=%lld iter_ms=%.4f fit_ms=%.4f "
                   "iter_cpu_ms=%.4f fit_cpu_ms=%.4f iterations=%lld inertia=%.10g read_gbs=%.2f floor_ms=%.3f "
                   "floor_ratio=%.2f read_cpu_gbs=%.2f floor_cpu_ms=%.3f floor_cpu_ratio=%.2f read_checksum=%.6g\n",
                   f32 ? "float32" : "float64", (long long)n, (long long)d, (long long)ks[q], (long long)threads, blas_threads ? blas_threads : "unset",
                   (long long)r, 1e3 * ft.iter_s, 1e3 * ft.fit_s, 1e3 * ft.iter_cpu_s, 1e3 * ft.fit_cpu_s, (long long)iterations,
                   inertia, 1e-9 * bandwidth, floor_ms, floor_ms > 0.0 ? 1e3 * ft.iter_s / floor_ms : 0.0, 1e-9 * bandwidth_cpu,
                   floor_cpu_ms, floor_cpu_ms > 0.0 ? 1e3 * ft.iter_cpu_s / floor_cpu_ms : 0.0, checksum);
            fflush(stdout);
        }
    }
    free(x32);
    free(x);
    return status;
}
