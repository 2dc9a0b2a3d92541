/* Clocks shared by the benchmark programs. */
#ifndef KINDRED_BENCH_CLOCK_H
#define KINDRED_BENCH_CLOCK_H

#include <time.h>

/* Wall-clock seconds (monotonic). */
static inline double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds of the whole process (all threads): on a machine shared with
 * other jobs, the figure that time-sharing does not inflate (for one thread). */
static inline double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
