/* Clocks shared by the benchmark programs. */
#ifndef KINDRED_BENCH_CLOCK_H
#define KINDRED_BENCH_CLOCK_H

#include <stdint.h>
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

/* Timestamps (wall and CPU) of the first and last progress callbacks of one
 * fit: (last - first) / (last_iter - first_iter) is the time per iteration
 * without the setup before the first report. Zero-initialise before a fit. */
typedef struct {
    int64_t first_iter, last_iter, calls;
    double first_time, last_time, first_cpu, last_cpu;
} iteration_clock;

static inline void iteration_clock_tick(iteration_clock *clk, int64_t iteration) {
    const double t = now_seconds(), cpu = cpu_seconds();
    if (clk->calls == 0) {
        clk->first_iter = iteration;
        clk->first_time = t;
        clk->first_cpu = cpu;
    }
    clk->last_iter = iteration;
    clk->last_time = t;
    clk->last_cpu = cpu;
    ++clk->calls;
}

#endif
