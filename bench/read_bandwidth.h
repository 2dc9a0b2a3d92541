/* The memory-read floor of a pass over the points: the bandwidth of a plain
 * streaming sum over a buffer, measured in the same run as the timings it is
 * compared with (the machine is shared, so a figure from another run would
 * not say how fast memory was while the fits ran).
 *
 * The sum keeps kLanes independent running sums, acc[j] += x[i + j]: each
 * lane is its own chain of additions, so the compiler vectorises the loop
 * without reassociating anything, and the loop is limited by the reads,
 * not by the latency of one chain of additions (one scalar accumulator
 * reads about a third as fast on the machine of docs/performance.md). */
#ifndef KINDRED_BENCH_READ_BANDWIDTH_H
#define KINDRED_BENCH_READ_BANDWIDTH_H

#include <stdint.h>

#include "bench_clock.h"

enum { kReadLanes = 16 };

/* The sum of the n values of x (n any size); the result is returned so that
 * the compiler cannot drop the reads. */
static double read_bandwidth_sum(const double *x, int64_t n) {
    double acc[kReadLanes] = {0.0};
    int64_t i = 0;
    for (; i + kReadLanes <= n; i += kReadLanes)
        for (int j = 0; j < kReadLanes; ++j) acc[j] += x[i + j];
    for (; i < n; ++i) acc[0] += x[i];
    double s = 0.0;
    for (int j = 0; j < kReadLanes; ++j) s += acc[j];
    return s;
}

/* Bytes per second of the fastest of `passes` streaming sums over the n
 * values of x, by wall clock (*wall) and by process CPU time (*cpu: on a
 * shared machine, the figure time-sharing does not inflate; one thread
 * reads). The fastest, not the median: the floor is what memory can do, and
 * the ratio to it must not flatter the code measured against it. *checksum
 * receives the last sum (print it, so that the reads are not dropped). */
static void read_bandwidth(const double *x, int64_t n, int passes, double *wall, double *cpu, double *checksum) {
    const double bytes = (double)n * (double)sizeof *x;
    *wall = 0.0;
    *cpu = 0.0;
    for (int p = 0; p < passes; ++p) {
        const double t0 = now_seconds(), c0 = cpu_seconds();
        *checksum = read_bandwidth_sum(x, n);
        const double t = now_seconds() - t0, c = cpu_seconds() - c0;
        if (t > 0.0 && bytes / t > *wall) *wall = bytes / t;
        if (c > 0.0 && bytes / c > *cpu) *cpu = bytes / c;
    }
}

#endif
