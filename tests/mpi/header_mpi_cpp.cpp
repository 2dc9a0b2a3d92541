// kindred_mpi.h compiles as C++17 (-pedantic -Werror -Wall -Wextra). MPI's C++
// bindings (Open MPI's mpicxx.h, deprecated) are left out as a C++ program that
// uses only MPI's C API leaves them out: OMPI_SKIP_MPICXX / MPICH_SKIP_MPICXX.
#include "kindred_mpi.h"

int main(int argc, char **argv) {
    kindred_mpi_link link;
    kindred_comm comm;
    MPI_Init(&argc, &argv);
    const bool ok = kindred_mpi_comm(MPI_COMM_WORLD, &link, &comm) == MPI_SUCCESS && comm.size >= 1;
    kindred_mpi_link_free(&link);
    MPI_Finalize();
    return ok ? 0 : 1;
}
