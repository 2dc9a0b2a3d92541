/* side_store_bench: the time and memory of building a side-information store
 * (kindred_side_add_pairs: the sorted pairs, the adjacency, the must-link
 * components and the robust units of the propagated constraints).
 *
 *   side_store_bench --n N --pairs-per-point P [--classes C] [--noise F] [--seed S] [--repeats R]
 *
 * The points carry labels i mod C (C classes of equal size); P x N random
 * pairs (i != j, drawn uniformly; a pair drawn twice is merged by the store),
 * +1 for the same label and -1 otherwise, each flipped with probability F.
 * Each repeat builds a new store from the same arrays and frees it. Prints
 * the CPU seconds of each build, their median, and the peak resident set of
 * the process (the arrays themselves included: 24 bytes a pair).
 * Public C API only, so that one binary times two builds of the library
 * (LD_LIBRARY_PATH). docs/performance.md, "Building the side-information store". */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_clock.h"
#include "kindred.h"

static uint64_t next_random(uint64_t *s) {
    /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int by_value(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int64_t n = 100000, classes = 20, repeats = 3;
    double per_point = 10.0, noise = 0.0;
    uint64_t seed = 7;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--n")) n = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--pairs-per-point")) per_point = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "--classes")) classes = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--noise")) noise = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "--seed")) seed = strtoull(argv[a + 1], NULL, 10);
        else if (!strcmp(argv[a], "--repeats")) repeats = atoll(argv[a + 1]);
        else {
            fprintf(stderr, "side_store_bench: unknown flag %s\n", argv[a]);
            return 2;
        }
    }
    if (n < 2 || classes < 1 || per_point <= 0.0 || repeats < 1 || repeats > 100) {
        fprintf(stderr, "side_store_bench: need --n >= 2, --classes >= 1, --pairs-per-point > 0, 1 <= --repeats <= 100\n");
        return 2;
    }
    const int64_t m = (int64_t)(per_point * (double)n);
    int64_t *pi = malloc((size_t)m * sizeof *pi), *pj = malloc((size_t)m * sizeof *pj);
    double *pv = malloc((size_t)m * sizeof *pv);
    if (!pi || !pj || !pv) return 1;
    uint64_t state = seed;
    for (int64_t e = 0; e < m; ++e) {
        int64_t i = (int64_t)(next_random(&state) % (uint64_t)n), j;
        do j = (int64_t)(next_random(&state) % (uint64_t)n);
        while (j == i);
        const int same = i % classes == j % classes;
        const int flip = (double)(next_random(&state) >> 11) * 0x1.0p-53 < noise;
        pi[e] = i;
        pj[e] = j;
        pv[e] = (same != flip) ? 1.0 : -1.0;
    }
    double seconds[100];
    for (int64_t r = 0; r < repeats; ++r) {
        kindred_side *side = NULL;
        const double t0 = cpu_seconds();
        if (kindred_side_new(&side, n) != KINDRED_OK || kindred_side_add_pairs(side, pi, pj, pv, m) != KINDRED_OK) {
            fprintf(stderr, "side_store_bench: %s\n", kindred_last_error());
            return 1;
        }
        seconds[r] = cpu_seconds() - t0;
        kindred_side_free(side);
        printf("build %lld: %.3f s\n", (long long)r + 1, seconds[r]);
    }
    qsort(seconds, (size_t)repeats, sizeof seconds[0], by_value);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("n=%lld pairs=%lld classes=%lld noise=%g build_cpu_median=%.3f peak_rss_mb=%.0f\n", (long long)n,
           (long long)m, (long long)classes, noise, seconds[repeats / 2], (double)usage.ru_maxrss / 1024.0);
    free(pi);
    free(pj);
    free(pv);
    return 0;
}
