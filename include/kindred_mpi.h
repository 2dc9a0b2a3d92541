/**
 * @file kindred_mpi.h
 * @brief A ::kindred_comm over an MPI communicator, for kindred_model_fit_dense_shard().
 *
 * Header-only and outside the library: libkindred does not include it and
 * does not link MPI. A program that fits across MPI ranks includes it after
 * (or instead of) kindred.h and is compiled by its MPI's compiler wrapper:
 *
 *     mpicc prog.c $(pkg-config --cflags --libs kindred)
 *     mpirun -np 4 ./a.out
 *
 * The callbacks move bytes with MPI_Allgather, MPI_Allgatherv and MPI_Bcast
 * on MPI_BYTE; kindred does every sum itself, in a fixed order, so that the
 * result does not depend on the MPI implementation or the number of ranks
 * (docs/distributed.md). MPI counts and displacements are int: a message
 * longer than INT_MAX bytes, or placed beyond INT_MAX bytes, is sent in
 * pieces of at most ::KINDRED_MPI_MAX_COUNT bytes, never truncated.
 *
 * Every function here is static inline and C99; it compiles as C++ too (a
 * C++ program that uses only MPI's C API may define OMPI_SKIP_MPICXX and
 * MPICH_SKIP_MPICXX, as the tests do). See docs/distributed.md.
 */
#ifndef KINDRED_MPI_H
#define KINDRED_MPI_H

#include <limits.h>
#include <mpi.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kindred.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @def KINDRED_MPI_MAX_COUNT
 * @brief The most bytes one MPI call of the adapter sends or places at once
 *        (INT_MAX, MPI's limit for an int count). Longer messages go in
 *        pieces. Define it smaller before including this header to exercise
 *        the pieces with small data (the tests do).
 */
#ifndef KINDRED_MPI_MAX_COUNT
#define KINDRED_MPI_MAX_COUNT INT_MAX
#endif

/**
 * @brief What the callbacks of kindred_mpi_comm() work with. Owned by the
 *        caller (on the stack, say); set up by kindred_mpi_comm(), released
 *        by kindred_mpi_link_free(). Its members are for reading only.
 */
typedef struct kindred_mpi_link {
    MPI_Comm comm;  /**< kindred's own duplicate of the caller's communicator, errors returned (not fatal). */
    int size;       /**< number of ranks of @c comm. */
    int *counts;    /**< scratch for MPI_Allgatherv: @c size counts. */
    int *displs;    /**< scratch for MPI_Allgatherv: @c size displacements. */
    int error;      /**< the MPI error code of the first MPI call that failed, or MPI_SUCCESS. */
} kindred_mpi_link;

/** @cond KINDRED_MPI_INTERNAL */

/* Remembers the first MPI error and passes the code on (non-zero: kindred
 * reports the callback as failed, ::KINDRED_E_IO naming the rank). */
static inline int kindred_mpi_check_(kindred_mpi_link *link, int rc) {
    if (rc != MPI_SUCCESS && link->error == MPI_SUCCESS) link->error = rc;
    return rc;
}

/* bytes of buffer on root to every rank, in pieces of at most KINDRED_MPI_MAX_COUNT. */
static inline int kindred_mpi_bcast_pieces_(kindred_mpi_link *link, char *buffer, size_t bytes, int root) {
    size_t done = 0;
    while (done < bytes) {
        const size_t piece = bytes - done < (size_t)KINDRED_MPI_MAX_COUNT ? bytes - done : (size_t)KINDRED_MPI_MAX_COUNT;
        const int rc = kindred_mpi_check_(link, MPI_Bcast(buffer + done, (int)piece, MPI_BYTE, root, link->comm));
        if (rc != MPI_SUCCESS) return rc;
        done += piece;
    }
    return MPI_SUCCESS;
}

/* The ::kindred_comm callbacks. A send of no bytes may come with a NULL
 * pointer, which not every MPI accepts: it is given a valid one. */
static inline int kindred_mpi_allgather_(void *user, const void *send, size_t bytes, void *recv) {
    kindred_mpi_link *link = (kindred_mpi_link *)user;
    static const char nothing = 0;
    if (!send) send = &nothing;
    /* bytes is the same on every rank, so every rank takes the same branch. */
    if (bytes <= (size_t)KINDRED_MPI_MAX_COUNT && (size_t)link->size * bytes <= (size_t)KINDRED_MPI_MAX_COUNT)
        return kindred_mpi_check_(link, MPI_Allgather(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, link->comm));
    /* Too long for one call: each rank in turn broadcasts its part from its place in recv. */
    int rank = 0;
    int rc = kindred_mpi_check_(link, MPI_Comm_rank(link->comm, &rank));
    if (rc != MPI_SUCCESS) return rc;
    memmove((char *)recv + (size_t)rank * bytes, send, bytes);
    for (int r = 0; r < link->size; ++r) {
        rc = kindred_mpi_bcast_pieces_(link, (char *)recv + (size_t)r * bytes, bytes, r);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

static inline int kindred_mpi_allgatherv_(void *user, const void *send, size_t bytes, void *recv, const size_t *counts,
                                          const size_t *displs) {
    kindred_mpi_link *link = (kindred_mpi_link *)user;
    static const char nothing = 0;
    if (!send) send = &nothing;
    /* counts and displs are the same on every rank, so every rank takes the same branch. */
    int fits = 1;
    for (int r = 0; r < link->size; ++r)
        if (counts[r] > (size_t)KINDRED_MPI_MAX_COUNT || displs[r] > (size_t)KINDRED_MPI_MAX_COUNT ||
            counts[r] > (size_t)KINDRED_MPI_MAX_COUNT - displs[r])
            fits = 0;
    if (fits) {
        for (int r = 0; r < link->size; ++r) {
            link->counts[r] = (int)counts[r];
            link->displs[r] = (int)displs[r];
        }
        return kindred_mpi_check_(link, MPI_Allgatherv(send, (int)bytes, MPI_BYTE, recv, link->counts, link->displs,
                                                       MPI_BYTE, link->comm));
    }
    int rank = 0;
    int rc = kindred_mpi_check_(link, MPI_Comm_rank(link->comm, &rank));
    if (rc != MPI_SUCCESS) return rc;
    memmove((char *)recv + displs[rank], send, bytes);
    for (int r = 0; r < link->size; ++r) {
        rc = kindred_mpi_bcast_pieces_(link, (char *)recv + displs[r], counts[r], r);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

static inline int kindred_mpi_broadcast_(void *user, void *buffer, size_t bytes, int root) {
    return kindred_mpi_bcast_pieces_((kindred_mpi_link *)user, (char *)buffer, bytes, root);
}

/** @endcond */

/**
 * @brief Build a ::kindred_comm over the ranks of an MPI communicator.
 *
 * Collective over @p comm (it calls MPI_Comm_dup): every rank calls it.
 * kindred talks on its own duplicate of @p comm, so its messages never
 * mix with the caller's, and with MPI_ERRORS_RETURN on it, so that an MPI
 * failure inside a fit becomes a status (::KINDRED_E_IO from the fit, the
 * MPI code in @c link->error) rather than the end of the job.
 * MPI must be initialised; the thread that calls the fit must be allowed to
 * call MPI (MPI_THREAD_SINGLE suffices when it is the only one that does).
 * @param comm the ranks of the fit (e.g. MPI_COMM_WORLD); not kept.
 * @param link [out] state of the callbacks, owned by the caller; it must
 *             outlive every fit that uses @p out, and be released with
 *             kindred_mpi_link_free().
 * @param out [out] the communicator to pass to kindred_model_fit_dense_shard();
 *            its @c user is @p link.
 * @return MPI_SUCCESS (0), or an MPI error code: MPI_ERR_ARG for a NULL
 *         @p link or @p out, MPI_ERR_OTHER when MPI is not initialised,
 *         MPI_ERR_NO_MEM, or the code of the MPI call that failed. On
 *         failure nothing needs to be released.
 * Thread-safety: as MPI_Comm_dup on @p comm.
 */
static inline int kindred_mpi_comm(MPI_Comm comm, kindred_mpi_link *link, kindred_comm *out) {
    if (!link || !out) return MPI_ERR_ARG;
    memset(link, 0, sizeof *link);
    link->comm = MPI_COMM_NULL;
    memset(out, 0, sizeof *out);
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized) return MPI_ERR_OTHER;
    int rank = 0, size = 0;
    int rc = MPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = MPI_Comm_size(comm, &size);
    if (rc == MPI_SUCCESS) rc = MPI_Comm_dup(comm, &link->comm);
    if (rc != MPI_SUCCESS) {
        link->comm = MPI_COMM_NULL;
        return rc;
    }
    rc = MPI_Comm_set_errhandler(link->comm, MPI_ERRORS_RETURN);
    link->size = size;
    link->counts = (int *)malloc((size_t)size * sizeof(int));
    link->displs = (int *)malloc((size_t)size * sizeof(int));
    if (rc == MPI_SUCCESS && (!link->counts || !link->displs)) rc = MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        free(link->counts);
        free(link->displs);
        MPI_Comm_free(&link->comm);
        memset(link, 0, sizeof *link);
        link->comm = MPI_COMM_NULL;
        return rc;
    }
    link->error = MPI_SUCCESS;
    out->struct_size = sizeof(kindred_comm);
    out->rank = rank;
    out->size = size;
    out->user = link;
    out->allgather = kindred_mpi_allgather_;
    out->allgatherv = kindred_mpi_allgatherv_;
    out->broadcast = kindred_mpi_broadcast_;
    return MPI_SUCCESS;
}

/**
 * @brief Release what kindred_mpi_comm() set up (kindred's duplicate communicator,
 *        the scratch arrays).
 *
 * Collective over the ranks (it calls MPI_Comm_free), before MPI_Finalize.
 * Accepts NULL and a link that was already released or whose
 * kindred_mpi_comm() failed.
 * @param link [in, out] the link; zeroed afterwards (its @c comm is MPI_COMM_NULL).
 */
static inline void kindred_mpi_link_free(kindred_mpi_link *link) {
    if (!link) return;
    if (link->comm != MPI_COMM_NULL) MPI_Comm_free(&link->comm);
    free(link->counts);
    free(link->displs);
    memset(link, 0, sizeof *link);
    link->comm = MPI_COMM_NULL;
}

#ifdef __cplusplus
}
#endif

#endif /* KINDRED_MPI_H */
