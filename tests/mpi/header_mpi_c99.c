/* kindred_mpi.h compiles as strict C99 (-std=c99 -pedantic -Werror -Wall -Wextra,
 * MPI's own headers as system headers), and a communicator built from
 * MPI_COMM_WORLD has this rank and size (run under mpirun -np 1). */
#include "kindred_mpi.h"

int main(int argc, char **argv) {
    kindred_mpi_link link;
    kindred_comm comm;
    int rank = -1, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int ok = kindred_mpi_comm(MPI_COMM_WORLD, &link, &comm) == MPI_SUCCESS && comm.struct_size == sizeof comm &&
             comm.rank == rank && comm.size == size && comm.user == &link && link.error == MPI_SUCCESS &&
             kindred_mpi_comm(MPI_COMM_WORLD, NULL, &comm) == MPI_ERR_ARG;
    kindred_mpi_link_free(&link);
    kindred_mpi_link_free(&link); /* twice: a released link is accepted */
    kindred_mpi_link_free(NULL);
    ok = ok && link.comm == MPI_COMM_NULL;
    MPI_Finalize();
    return ok ? 0 : 1;
}
