"""Clusterer.fit_shard over mpi4py, run by mpirun (not by pytest: tests/mpi/meson.build and
bindings/run_tests.sh start it):

    mpirun -np P python3 bindings/python/tests/mpi_fit_shard.py [--pieces]

On the bundled data sets and on 70000 generated rows (three chunks of 32768, the last partial), for
several uneven splits (an empty shard, a shard inside one chunk, slices given to ranks out of order),
every rank's labels (gathered on rank 0), cluster centres, objective trace, iteration count and
objective are bitwise those of fit() on all the rows; the generated rows again as a scipy.sparse CSR
matrix (when scipy is installed). Faults: a NaN on the last rank, other options
on the last rank, and an exception inside the communicator's callbacks make every rank raise the
same error, with the same message (gathered and compared on rank 0), and nobody hangs.
--pieces: every message goes in pieces of 4096 bytes (the path of messages above 2^31 - 1 bytes).
Every rank exits with the same status: 0 when every check passed on every rank.
"""
import os
import sys

import numpy as np
from mpi4py import MPI

import kindred
from kindred import _shard

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("KINDRED_TEST_DATA", os.path.join(HERE, "..", "..", "..", "data"))

world = MPI.COMM_WORLD
rank, size = world.Get_rank(), world.Get_size()
results = []  # (name, passed), on rank 0


def load(name):
    path = os.path.join(DATA, name)
    with open(path) as f:
        header = f.readline().strip().split(",")
    cols = [k for k, h in enumerate(header) if h != "label"]
    return np.loadtxt(path, delimiter=",", skiprows=1, usecols=cols)


def blobs(n, d, k, seed):
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-10, 10, size=(k, d))
    return centres[np.arange(n) % k] + rng.uniform(-2, 2, size=(n, d))


def splits(n):
    """{name: (cuts, slice)}: rank r holds the rows [cuts[slice[r]], cuts[slice[r] + 1])."""
    out = {"even": ([n * r // size for r in range(size + 1)], list(range(size)))}
    out["squares"] = ([n * r * r // (size * size) for r in range(size + 1)], list(range(size)))
    if size > 1:
        # an empty first slice and the others cut evenly, the slices handed out backwards
        cuts = [0, 0] + [n * r // (size - 1) for r in range(1, size)]
        out["empty-reversed"] = (cuts, list(reversed(range(size))))
    return out


def estimator():
    return kindred.KMeans(k=3, n_init=2, seed=7, threads=1)


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def check(name, passed_here, detail=""):
    """Every rank's verdict gathered on rank 0; recorded and printed there."""
    verdicts = world.gather((passed_here, detail), root=0)
    if rank == 0:
        passed = all(p for p, _ in verdicts)
        results.append((name, passed))
        print("%s %s%s" % ("ok  " if passed else "FAIL", name,
                           "".join("\n     rank %d: %s" % (r, d) for r, (p, d) in enumerate(verdicts) if d and not p)))
        sys.stdout.flush()


def compare_with_plain(data_name, X):
    n = X.shape[0]  # X: an array, or a scipy.sparse CSR matrix (kindred_model_fit_csr_shard)
    plain = estimator().fit(X) if rank == 0 else None
    plain = world.bcast(None if plain is None else {
        "labels": plain.labels_, "centers": plain.cluster_centers_, "trace": plain.objective_trace_,
        "n_iter": plain.n_iter_, "objective": plain.objective_}, root=0)
    for split, (cuts, slices) in splits(n).items():
        lo, hi = cuts[slices[rank]], cuts[slices[rank] + 1]
        try:
            est = estimator().fit_shard(X[lo:hi], row_offset=lo, n_total=n, comm=world)
        except kindred.KindredError as e:
            check("%s, %d ranks, split %s" % (data_name, size, split), False, "raised %r" % e)
            continue
        problems = [what for what, ok in (
            ("labels shape", est.labels_.shape == (hi - lo,)),
            ("centres", same_bits(est.cluster_centers_, plain["centers"])),
            ("objective trace", same_bits(est.objective_trace_, plain["trace"])),
            ("iterations", est.n_iter_ == plain["n_iter"]),
            ("objective", same_bits(est.objective_, plain["objective"]))) if not ok]
        # the labels of every rank, put back at their rows on rank 0
        parts = world.gather((lo, est.labels_), root=0)
        labels_ok = True
        if rank == 0:
            labels = np.full(n, -2, np.int32)
            for first, part in parts:
                labels[first:first + len(part)] = part
            labels_ok = same_bits(labels, plain["labels"])
            if not labels_ok:
                problems.append("gathered labels")
        check("%s, %d ranks, split %s (rows [%d, %d) on rank %d, ...): labels, centres, trace, iterations, "
              "objective bitwise those of fit()" % (data_name, size, split, lo, hi, rank),
              not problems, "differ: " + ", ".join(problems))


def same_error_everywhere(name, call, expected_type, needle):
    """call() must raise expected_type on every rank, with one message, containing needle."""
    try:
        call()
        mine = (None, "no error")
    except Exception as e:  # noqa: BLE001 -- which exception is the question
        mine = (type(e).__name__, str(e))
    print("rank %d, %s: %s: %s" % (rank, name, mine[0], mine[1]))
    sys.stdout.flush()
    every = world.gather(mine, root=0)
    ok, detail = True, ""
    if rank == 0:
        ok = all(e == every[0] for e in every) and every[0][0] == expected_type.__name__ and needle in every[0][1]
        detail = "; ".join("rank %d: %s: %s" % (r, t, m) for r, (t, m) in enumerate(every))
    check("%d ranks, %s: every rank raises the same %s" % (size, name, expected_type.__name__), ok, detail)


class FailingComm:
    """A communicator whose Allgather raises (on every rank): the fit must fail with that exception on
    every rank, raised by fit_shard after the C call returned, never unwinding through C."""

    Dup = None  # used as it is, not duplicated (fit_shard duplicates a communicator that has Dup)

    def __init__(self, comm):
        self.comm = comm

    def __getattr__(self, name):
        return getattr(self.comm, name)

    def Allgather(self, *args):
        raise RuntimeError("the host's network is down")


def faults():
    n = 70000
    X = blobs(n, 4, 5, seed=3)
    cuts = [n * r // size for r in range(size + 1)]
    lo, hi = cuts[rank], cuts[rank + 1]
    last = size - 1
    spoiled = X[lo:hi].copy()
    if rank == last:
        spoiled[3, 1] = np.nan
    same_error_everywhere("a NaN on the last rank",
                          lambda: estimator().fit_shard(spoiled, lo, n, comm=world),
                          kindred.InvalidArgumentError, "rank %d: " % last if size > 1 else "NaN")
    if size > 1:
        k = 4 if rank == last else 3
        same_error_everywhere("other options on the last rank",
                              lambda: kindred.KMeans(k=k, n_init=2, seed=7).fit_shard(X[lo:hi], lo, n, comm=world),
                              kindred.InvalidArgumentError, "rank %d has other options" % last)
        same_error_everywhere("an exception inside the communicator",
                              lambda: estimator().fit_shard(X[lo:hi], lo, n, comm=FailingComm(world)),
                              RuntimeError, "network is down")
    same_error_everywhere("fit_shard without comm takes all the rows",
                          lambda: estimator().fit_shard(X[:10], 5, n),
                          kindred.DimensionError, "row_offset = 5")


def main():
    if "--pieces" in sys.argv[1:]:
        _shard.MAX_COUNT = 4096
    if rank == 0:
        print("fit_shard over mpi4py %s, %d ranks, kindred %s (%s), at most %d bytes per MPI call"
              % (__import__("mpi4py").__version__, size, kindred.__version__, kindred.library_path, _shard.MAX_COUNT))
    if "shards" not in kindred.algorithm_uses("kmeans"):
        check("kmeans has KINDRED_USES_SHARDS", False, "algorithm_uses(kmeans) = %s" % kindred.algorithm_uses("kmeans"))
    for name in ("iris.csv", "wine.csv", "ionosphere.csv"):
        compare_with_plain(name, load(name))
    generated = blobs(70000, 4, 5, seed=11)
    compare_with_plain("70000 generated rows", generated)
    try:
        from scipy import sparse
    except ImportError:
        sparse = None
    if sparse is not None:  # the CSR rows of the positive entries, against fit() on the same CSR matrix
        compare_with_plain("70000 generated rows as CSR", sparse.csr_matrix(np.where(generated > 0, generated, 0.0)))
    faults()
    passed = world.bcast(all(p for _, p in results) if rank == 0 else None, root=0)
    if rank == 0:
        failed = sum(not p for _, p in results)
        print("%d passed, %d failed" % (len(results) - failed, failed))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
