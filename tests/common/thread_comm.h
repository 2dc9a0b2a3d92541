/* An in-process communicator for sharded fits (kindred_comm): the ranks are
 * threads of one process. Each collective posts this rank's buffer, waits
 * for every rank (a barrier), copies, and waits again so that no buffer is
 * reused before all have read it. It counts the bytes each rank receives.
 * Used by tests/api/test_shard.c and bench/shard_bench.c. Header-only, C99 +
 * POSIX threads (define _POSIX_C_SOURCE 200809L before including). */
#ifndef KINDRED_TESTS_THREAD_COMM_H
#define KINDRED_TESTS_THREAD_COMM_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "kindred.h"

enum { THREAD_COMM_MAX_RANKS = 8 };

typedef struct thread_world {
    int size;
    pthread_barrier_t barrier;
    const void *posted[THREAD_COMM_MAX_RANKS];
    size_t bytes[THREAD_COMM_MAX_RANKS];
} thread_world;

typedef struct thread_rank {
    thread_world *w;
    int rank;
    uint64_t received; /* bytes this rank received from the collectives */
} thread_rank;

static inline void thread_world_init(thread_world *w, int size) {
    memset(w, 0, sizeof *w);
    w->size = size;
    pthread_barrier_init(&w->barrier, NULL, (unsigned)size);
}

static inline void thread_world_destroy(thread_world *w) { pthread_barrier_destroy(&w->barrier); }

static inline int thread_allgather(void *user, const void *send, size_t bytes, void *recv) {
    thread_rank *l = (thread_rank *)user;
    l->w->posted[l->rank] = send;
    pthread_barrier_wait(&l->w->barrier);
    for (int r = 0; r < l->w->size; ++r) memcpy((char *)recv + (size_t)r * bytes, l->w->posted[r], bytes);
    l->received += (uint64_t)bytes * (uint64_t)(l->w->size - 1);
    pthread_barrier_wait(&l->w->barrier);
    return 0;
}

static inline int thread_allgatherv(void *user, const void *send, size_t bytes, void *recv, const size_t *counts,
                                    const size_t *displs) {
    thread_rank *l = (thread_rank *)user;
    l->w->posted[l->rank] = send;
    l->w->bytes[l->rank] = bytes;
    pthread_barrier_wait(&l->w->barrier);
    int status = 0;
    for (int r = 0; r < l->w->size; ++r) {
        if (counts[r] != l->w->bytes[r]) status = 1; /* a rank's count differs from what it sent */
        else if (counts[r]) memcpy((char *)recv + displs[r], l->w->posted[r], counts[r]);
        if (r != l->rank) l->received += counts[r];
    }
    pthread_barrier_wait(&l->w->barrier);
    return status;
}

static inline int thread_broadcast(void *user, void *buffer, size_t bytes, int root) {
    thread_rank *l = (thread_rank *)user;
    if (l->rank == root) l->w->posted[root] = buffer;
    pthread_barrier_wait(&l->w->barrier);
    if (l->rank != root) {
        memcpy(buffer, l->w->posted[root], bytes);
        l->received += bytes;
    }
    pthread_barrier_wait(&l->w->barrier);
    return 0;
}

/* Rank `rank` of world w: fills link and comm (comm->user points at link). */
static inline void thread_comm(thread_world *w, int rank, thread_rank *link, kindred_comm *comm) {
    link->w = w;
    link->rank = rank;
    link->received = 0;
    memset(comm, 0, sizeof *comm);
    comm->struct_size = sizeof *comm;
    comm->rank = rank;
    comm->size = w->size;
    comm->user = link;
    comm->allgather = thread_allgather;
    comm->allgatherv = thread_allgatherv;
    comm->broadcast = thread_broadcast;
}

#endif
