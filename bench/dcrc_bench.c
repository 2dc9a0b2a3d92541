/* Times kindred's dcrc through the public C API on synthetic data shaped like
 * the paper's problems: Gaussian blobs (K classes, centres drawn with
 * standard deviation 2 per coordinate, noise of standard deviation --noise), triplets sampled from the classes by eq. (1)
 * with kindred_sample_triplets.
 *
 * Reported per repetition:
 * - fit     = wall time of kindred_model_fit_dense() (standardisation, the
 *             k-means initialisation, the logistic classifier, all EM iterations);
 * - em_iter = mean time of one EM iteration (mean-field E-step + L-BFGS
 *             M-step): dcrc reports progress once per EM iteration, so it is
 *             (time of the last dcrc callback - time of the first) /
 *             (last - first iteration); the initialisation is excluded.
 * - fit_cpu, em_iter_cpu: the same in process CPU time (with one thread, the
 *   cost of the work without the time spent waiting for a core on a busy machine);
 * - iterations, the final objective (lower bound (10)) and the pairwise
 *   F-measure against the classes;
 * - with --counts 1: the mean-field sweeps and L-BFGS evaluations of the whole
 *   fit (initial classifier included), from dcrc's debug log (--counts 2:
 *   dcrc's log itself too; 3: also the k-means initialisation's).
 *
 * --data FILE.csv replaces the blobs by a data set (CSV with a header, numeric
 * columns and a `label` column, e.g. ../shared/data/letters_ijlt.csv); K is
 * then the number of classes unless --k is given. --tau, --lambda,
 * --epsilon and --init-restarts set dcrc's options of the same names
 * (default: the library's).
 *
 * One core: run with --threads 1 and OPENBLAS_NUM_THREADS=1 in the environment.
 *
 * usage: dcrc_bench [--n N] [--d D] [--k K] [--triplets M] [--noise S] [--max-iter I]
 *                   [--threads T] [--repeat R] [--seed S] [--data F.csv] [--tau T]
 *                   [--lambda L] [--epsilon E] [--init-restarts R] [--counts 0|1|2] */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "kindred.h"

static int on_progress(void *user, int64_t iteration, double objective, const char *message) {
    (void)objective;
    if (strncmp(message, "dcrc:", 5) != 0) return 0; /* the k-means initialisation reports too */
    iteration_clock_tick((iteration_clock *)user, iteration);
    return 0;
}

typedef struct {
    int64_t sweeps, evaluations, print;
} fit_counts;

static void on_log(void *user, int level, const char *message) {
    fit_counts *c = (fit_counts *)user;
    const char *at;
    long long v = 0;
    (void)level;
    if (c->print > 1) printf("  %s\n", message);
    if (strncmp(message, "dcrc:", 5) != 0) return;
    if (c->print == 1) printf("  %s\n", message);
    if ((at = strstr(message, ": mean field ")) && sscanf(at, ": mean field %lld sweeps", &v) == 1) c->sweeps += v;
    if ((at = strstr(message, " iterations, ")) && sscanf(at, " iterations, %lld evaluations", &v) == 1)
        c->evaluations += v;
}

/* A CSV with a header: every column but `label` numeric (row-major n x d);
 * labels numbered by first appearance. Returns the number of classes. */
static int64_t read_csv(const char *path, double **x, int32_t **truth, int64_t *n, int64_t *d) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "dcrc_bench: cannot open %s\n", path);
        exit(1);
    }
    static char line[1 << 16];
    static char names[256][64];
    int64_t cols = 0, label_col = -1, cap = 1024, rows = 0, classes = 0;
    if (!fgets(line, sizeof line, f)) exit(1);
    for (char *tok = strtok(line, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"), ++cols)
        if (!strcmp(tok, "label")) label_col = cols;
    if (label_col < 0) {
        fprintf(stderr, "dcrc_bench: %s has no label column\n", path);
        exit(1);
    }
    *d = cols - 1;
    *x = malloc(sizeof(double) * (size_t)(cap * *d));
    *truth = malloc(sizeof(int32_t) * (size_t)cap);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n' || line[0] == '\r') continue;
        if (rows == cap) {
            cap *= 2;
            *x = realloc(*x, sizeof(double) * (size_t)(cap * *d));
            *truth = realloc(*truth, sizeof(int32_t) * (size_t)cap);
        }
        int64_t c = 0, j = 0;
        for (char *tok = strtok(line, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"), ++c) {
            if (c != label_col) {
                (*x)[rows * *d + j++] = strtod(tok, NULL);
                continue;
            }
            int64_t l = 0;
            while (l < classes && strcmp(names[l], tok)) ++l;
            if (l == classes) snprintf(names[classes++], sizeof names[0], "%s", tok);
            (*truth)[rows] = (int32_t)l;
        }
        ++rows;
    }
    fclose(f);
    *n = rows;
    return classes;
}

/* splitmix64 and Box-Muller: the data does not depend on the library. */
static uint64_t rng_state;
static double uniform01(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}
static double normal01(void) { return sqrt(-2.0 * log(uniform01())) * cos(6.283185307179586 * uniform01()); }

static int check(kindred_status s, const char *what) {
    if (s == KINDRED_OK) return 0;
    fprintf(stderr, "dcrc_bench: %s: %s\n", what, kindred_last_error());
    exit(1);
}

int main(int argc, char **argv) {
    int64_t n = 5000, d = 38, k = 13, m = 1500, max_iter = 100, threads = 1, repeat = 3, seed = 1, counts = 0;
    int64_t init_restarts = 0;
    int k_given = 0;
    double noise = 2.0, tau = -1.0, lambda = -1.0, epsilon = -1.0;
    const char *data = NULL;
    for (int a = 1; a + 1 < argc; a += 2) {
        const int64_t v = strtoll(argv[a + 1], NULL, 10);
        if (!strcmp(argv[a], "--n")) n = v;
        else if (!strcmp(argv[a], "--noise")) noise = strtod(argv[a + 1], NULL);
        else if (!strcmp(argv[a], "--d")) d = v;
        else if (!strcmp(argv[a], "--k")) k = v, k_given = 1;
        else if (!strcmp(argv[a], "--data")) data = argv[a + 1];
        else if (!strcmp(argv[a], "--tau")) tau = strtod(argv[a + 1], NULL);
        else if (!strcmp(argv[a], "--lambda")) lambda = strtod(argv[a + 1], NULL);
        else if (!strcmp(argv[a], "--epsilon")) epsilon = strtod(argv[a + 1], NULL);
        else if (!strcmp(argv[a], "--counts")) counts = v;
        else if (!strcmp(argv[a], "--init-restarts")) init_restarts = v;
        else if (!strcmp(argv[a], "--triplets")) m = v;
        else if (!strcmp(argv[a], "--max-iter")) max_iter = v;
        else if (!strcmp(argv[a], "--threads")) threads = v;
        else if (!strcmp(argv[a], "--repeat")) repeat = v;
        else if (!strcmp(argv[a], "--seed")) seed = v;
        else {
            fprintf(stderr, "dcrc_bench: unknown flag %s\n", argv[a]);
            return 2;
        }
    }
    rng_state = (uint64_t)seed;
    double *x = NULL, *centres = NULL;
    int32_t *truth = NULL, *labels = NULL;
    if (data) {
        const int64_t classes = read_csv(data, &x, &truth, &n, &d);
        if (!k_given) k = classes;
        printf("data=%s ", data);
    } else {
        x = malloc(sizeof(double) * (size_t)(n * d));
        centres = malloc(sizeof(double) * (size_t)(k * d));
        truth = malloc(sizeof(int32_t) * (size_t)n);
        if (!x || !centres || !truth) return 1;
        for (int64_t v = 0; v < k * d; ++v) centres[v] = 2.0 * normal01();
        for (int64_t i = 0; i < n; ++i) {
            truth[i] = (int32_t)(i % k);
            for (int64_t j = 0; j < d; ++j) x[i * d + j] = centres[truth[i] * d + j] + noise * normal01();
        }
    }
    labels = malloc(sizeof(int32_t) * (size_t)n);
    if (!labels) return 1;
    kindred_side *side = NULL;
    check(kindred_side_new(&side, n), "side");
    check(kindred_sample_triplets(side, truth, n, m, 0.0, (uint64_t)seed), "sample triplets");
    printf("n=%lld d=%lld k=%lld triplets=%lld noise=%g threads=%lld\n", (long long)n, (long long)d, (long long)k,
           (long long)m, noise, (long long)threads);
    for (int64_t r = 0; r < repeat; ++r) {
        kindred_model *model = NULL;
        iteration_clock clk = {0};
        check(kindred_model_new(&model, "dcrc"), "model");
        check(kindred_model_set_int(model, "k", k), "k");
        check(kindred_model_set_int(model, "threads", threads), "threads");
        check(kindred_model_set_int(model, "max_iter", max_iter), "max_iter");
        check(kindred_model_set_int(model, "seed", r), "seed");
        if (tau >= 0.0) check(kindred_model_set_double(model, "tau", tau), "tau");
        if (lambda >= 0.0) check(kindred_model_set_double(model, "lambda", lambda), "lambda");
        if (epsilon >= 0.0) check(kindred_model_set_double(model, "epsilon", epsilon), "epsilon");
        if (init_restarts > 0) check(kindred_model_set_int(model, "init_restarts", init_restarts), "init_restarts");
        check(kindred_model_set_progress(model, on_progress, &clk), "progress");
        fit_counts fc = {0, 0, counts - 1};
        if (counts) check(kindred_model_set_log(model, on_log, &fc), "log");
        const double t0 = now_seconds(), c0 = cpu_seconds();
        check(kindred_model_fit_dense(model, x, n, d, KINDRED_ROW_MAJOR, d, side), "fit");
        const double fit = now_seconds() - t0, fit_cpu = cpu_seconds() - c0;
        int64_t iterations = 0;
        double objective = 0.0;
        check(kindred_model_summary(model, NULL, NULL, NULL, &iterations, NULL, &objective), "summary");
        check(kindred_model_labels(model, labels, n), "labels");
        double f = 0.0;
        check(kindred_metric("f-measure", truth, labels, n, &f), "metric");
        const double steps = (double)(clk.last_iter - clk.first_iter);
        const double per_iter = steps > 0 ? (clk.last_time - clk.first_time) / steps : NAN;
        const double per_iter_cpu = steps > 0 ? (clk.last_cpu - clk.first_cpu) / steps : NAN;
        printf("repeat=%lld fit=%.4f fit_cpu=%.4f em_iter=%.4f em_iter_cpu=%.4f iterations=%lld f_measure=%.4f "
               "objective=%.17g",
               (long long)r, fit, fit_cpu, per_iter, per_iter_cpu, (long long)iterations, f, objective);
        if (counts) printf(" sweeps=%lld evaluations=%lld", (long long)fc.sweeps, (long long)fc.evaluations);
        printf("\n");
        kindred_model_free(model);
    }
    kindred_side_free(side);
    free(x);
    free(centres);
    free(truth);
    free(labels);
    return 0;
}
