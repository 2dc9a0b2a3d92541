"""A kindred_comm over an mpi4py communicator, for Clusterer.fit_shard (docs/distributed.md).

The library asks the host to move bytes (allgather, allgatherv, broadcast) and does every sum itself,
in a fixed order; here the moves are mpi4py's Allgather, Allgatherv and Bcast on MPI.BYTE buffers
that view the library's memory (no copy). As in include/kindred_mpi.h, a message that MPI's int
counts cannot describe (above 2^31 - 1 bytes, or placed beyond that) goes as broadcasts of pieces,
never truncated. Nothing is compiled: the callbacks are cffi callbacks, and no exception ever
unwinds through C (a failing callback returns non-zero; the fit then fails with KINDRED_E_IO and
the Python exception is raised after the C call has returned).
"""
from ._callbacks import Trampoline
from ._lib import ffi

# MPI counts and displacements are C ints. Smaller in the tests, to exercise the pieces.
MAX_COUNT = 2 ** 31 - 1


def _view(pointer, nbytes):
    """A writable buffer over nbytes of C memory (an empty bytearray for none: the pointer may be NULL)."""
    return ffi.buffer(pointer, nbytes) if nbytes else bytearray(0)


class MpiComm:
    """The kindred_comm of one collective call over `comm` (an mpi4py Intracomm, or an object with
    its Get_rank / Get_size / Allgather / Allgatherv / Bcast).

    Collective: every rank of `comm` makes one. The library talks on a duplicate of `comm` (when it
    has Dup), so its messages never mix with the caller's. Use it as a context manager: the
    duplicate is freed, and the callbacks stay alive, for exactly as long as the C call may use them.
    `.pointer` is the `const kindred_comm *` to pass; `.reraise()` raises the first exception a
    callback caught.
    """

    def __init__(self, comm):
        for method in ("Get_rank", "Get_size", "Allgather", "Allgatherv", "Bcast"):
            if not callable(getattr(comm, method, None)):
                raise TypeError("comm: expected an mpi4py communicator (e.g. MPI.COMM_WORLD), got %r" % (comm,))
        try:
            from mpi4py import MPI
        except ImportError as e:
            raise ImportError("fit_shard(comm=...) needs mpi4py (Debian: python3-mpi4py)") from e
        self._byte = MPI.BYTE
        self._owned = comm.Dup() if callable(getattr(comm, "Dup", None)) else None
        self.comm = self._owned if self._owned is not None else comm
        self.rank, self.size = self.comm.Get_rank(), self.comm.Get_size()
        self._callbacks = [
            Trampoline("int(void *, const void *, size_t, void *)", self._allgather, int, 1),
            Trampoline("int(void *, const void *, size_t, void *, const size_t *, const size_t *)",
                       self._allgatherv, int, 1),
            Trampoline("int(void *, void *, size_t, int)", self._broadcast, int, 1),
        ]
        self._struct = ffi.new("kindred_comm *")
        self._struct.struct_size = ffi.sizeof("kindred_comm")
        self._struct.rank = self.rank
        self._struct.size = self.size
        self._struct.user = ffi.NULL
        self._struct.allgather = self._callbacks[0].pointer
        self._struct.allgatherv = self._callbacks[1].pointer
        self._struct.broadcast = self._callbacks[2].pointer
        self.pointer = self._struct

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        """Free the duplicate communicator (collective); the struct must not be used afterwards."""
        if self._owned is not None:
            owned, self._owned = self._owned, None
            owned.Free()

    def reraise(self):
        """Raise the first exception a callback caught, if any."""
        for callback in self._callbacks:
            callback.reraise()

    # ---- the callbacks (the C `user` pointer is dropped by Trampoline) ---------------------------
    def _bcast_pieces(self, buffer, root):
        """A memoryview's bytes from root to every rank, in pieces of at most MAX_COUNT."""
        for start in range(0, len(buffer), MAX_COUNT):
            self.comm.Bcast([buffer[start:start + MAX_COUNT], self._byte], root=root)

    def _allgather(self, send, nbytes, recv):
        out = memoryview(_view(recv, nbytes * self.size))
        # nbytes is the same on every rank: every rank takes the same branch
        if nbytes * self.size <= MAX_COUNT:
            self.comm.Allgather([_view(send, nbytes), self._byte], [out, self._byte])
            return 0
        out[self.rank * nbytes:(self.rank + 1) * nbytes] = _view(send, nbytes)
        for r in range(self.size):
            self._bcast_pieces(out[r * nbytes:(r + 1) * nbytes], r)
        return 0

    def _allgatherv(self, send, nbytes, recv, counts, displs):
        counts = [int(counts[r]) for r in range(self.size)]
        displs = [int(displs[r]) for r in range(self.size)]
        out = memoryview(_view(recv, max((d + c for c, d in zip(counts, displs)), default=0)))
        # counts and displs are the same on every rank: every rank takes the same branch
        if all(c <= MAX_COUNT and d + c <= MAX_COUNT for c, d in zip(counts, displs)):
            self.comm.Allgatherv([_view(send, nbytes), self._byte], [out, counts, displs, self._byte])
            return 0
        out[displs[self.rank]:displs[self.rank] + nbytes] = _view(send, nbytes)
        for r in range(self.size):
            self._bcast_pieces(out[displs[r]:displs[r] + counts[r]], r)
        return 0

    def _broadcast(self, buffer, nbytes, root):
        self._bcast_pieces(memoryview(_view(buffer, nbytes)), root)
        return 0
