/* RDP-means' per-pass figures, read back from its log: a fit sends one line
 * per iteration to the callback of kindred_model_set_log (level 0),
 *     "rdpmeans: iteration N: pass_computed=C pass_linked=L pass_rows=R"
 * (src/algorithms/rdpmeans/rdpmeans.cpp, docs/algorithms/rdpmeans-tvclust.md);
 * libraries before 2026-11-28 added " pass_bytes=B", which is read past, so
 * that one benchmark program times either library. They
 * describe the implementation, not the clustering, so a model does not keep
 * them. Shared by the benchmark and tests/api/test_rdpmeans.c. Header-only, C99. */
#ifndef KINDRED_BENCH_RDPMEANS_PASSES_H
#define KINDRED_BENCH_RDPMEANS_PASSES_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Caller-allocated arrays of `capacity` entries each; entry t is iteration t + 1
 * of the last fit. */
typedef struct rdpmeans_passes {
    int64_t count, capacity;
    double *computed, *linked, *rows;
    int64_t malformed; /* record lines that did not parse, or came out of order or past capacity */
} rdpmeans_passes;

/* A kindred_log_fn; user is an rdpmeans_passes. Other lines are passed over. */
static inline void rdpmeans_passes_log(void *user, int level, const char *message) {
    static const char prefix[] = "rdpmeans: iteration ";
    rdpmeans_passes *p = (rdpmeans_passes *)user;
    long long it = 0;
    double c = 0.0, l = 0.0, r = 0.0, b = 0.0;
    int end = 0, older = 0;
    (void)level;
    if (!message || strncmp(message, prefix, sizeof prefix - 1) != 0) return;
    if (sscanf(message, "rdpmeans: iteration %lld: pass_computed=%lf pass_linked=%lf pass_rows=%lf%n", &it, &c, &l,
               &r, &end) != 4)
        end = -1;
    else if (message[end] != '\0' && sscanf(message + end, " pass_bytes=%lf%n", &b, &older) == 1)
        end += older;
    if (end < 0 || message[end] != '\0') {
        ++p->malformed;
        return;
    }
    /* A fit that chooses lambda by cross-validation logs every trial fit, each
     * from iteration 1; the last is the final fit's. */
    if (it == 1) p->count = 0;
    if (it != p->count + 1 || p->count >= p->capacity) {
        ++p->malformed;
        return;
    }
    p->computed[p->count] = c;
    p->linked[p->count] = l;
    p->rows[p->count] = r;
    ++p->count;
}

#endif
