#!/usr/bin/env python3
"""`kindred-mpi fit` under mpirun against `kindred fit` in one process (standard-library Python).

    cli_mpi.py MPIRUN KINDRED_MPI KINDRED DATA_DIR P [MPIRUN_ARG ...]

On the bundled data sets, with P ranks: one file per rank (--data part-%r.csv, uneven row counts; the
CSV reader refuses a file without rows, so none is empty) and one file split by rows (--data X.csv); labels written one file
per rank (--out labels-%r.csv) and gathered (--out labels.csv); the labels, the saved model's
predictions and the --json summary (iterations, objective) must be those of `kindred fit`. Faults: a
file missing on the last rank, an algorithm without sharded fits and an unknown option end every rank
with the same exit code, and the one message names the rank when one rank alone failed. Every mpirun
runs under a timeout, so a rank left waiting fails the test instead of hanging it.
"""
import json
import os
import subprocess
import sys
import tempfile

TIMEOUT = 120


def run(cmd, cwd, expect=0):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
    if expect is not None and p.returncode != expect:
        sys.exit("FAILED: %s exited %d (expected %d)\n--- stdout\n%s--- stderr\n%s"
                 % (" ".join(cmd), p.returncode, expect, p.stdout, p.stderr))
    return p


def read_csv(path):
    with open(path) as f:
        return f.read().splitlines()


def main(argv):
    if len(argv) < 6:
        sys.stderr.write(__doc__)
        return 2
    mpirun, kindred_mpi, kindred, data_dir = (os.path.abspath(a) for a in argv[1:5])
    p = int(argv[5])
    launch = [mpirun] + argv[6:] + ["-np", str(p), kindred_mpi]
    checks = 0
    with tempfile.TemporaryDirectory() as work:
        for name, k in (("iris.csv", 3), ("wine.csv", 3), ("ionosphere.csv", 2), ("ecoli.csv", 5)):
            path = os.path.join(data_dir, name)
            fit = ["fit", "kmeans", "--k", str(k), "--seed", "3"]
            one = json.loads(run([kindred, *fit, "--data", path, "--out", "one.csv", "--model", "one.kdm", "--json"],
                                 work).stdout)
            expected = read_csv(os.path.join(work, "one.csv"))
            header, rows = expected[0], read_csv(path)

            # One file per rank: rows cut unevenly (squares: the first file the smallest).
            n = len(rows) - 1
            cuts = [n * r * r // (p * p) for r in range(p + 1)]
            for r in range(p):
                with open(os.path.join(work, "part-%d.csv" % r), "w") as f:
                    f.write("\n".join([rows[0]] + rows[1 + cuts[r]:1 + cuts[r + 1]]) + "\n")
            summary = json.loads(run(launch + fit + ["--data", "part-%r.csv", "--out", "labels-%r.csv",
                                                     "--model", "shard.kdm", "--json"], work).stdout)
            got = [header]
            for r in range(p):
                got += read_csv(os.path.join(work, "labels-%d.csv" % r))[1:]
            problems = []
            if got != expected:
                problems.append("labels (one file per rank)")
            for key in ("clusters", "iterations", "objective", "n", "d"):
                if summary[key] != one[key]:
                    problems.append("%s: %r, one process: %r" % (key, summary[key], one[key]))
            run([kindred, "predict", "--model", "shard.kdm", "--data", path, "--out", "again.csv"], work)
            if read_csv(os.path.join(work, "again.csv")) != expected:
                problems.append("the saved model's predictions")

            # One file, each rank its range of rows; the labels gathered on rank 0.
            run(launch + fit + ["--data", path, "--out", "gathered.csv"], work)
            if read_csv(os.path.join(work, "gathered.csv")) != expected:
                problems.append("labels (one file, gathered)")
            if problems:
                sys.exit("FAILED: %s, %d ranks: %s" % (name, p, "; ".join(problems)))
            print("ok: %s, %d ranks (rows per file %s): labels, model and summary those of `kindred fit`"
                  % (name, p, [cuts[r + 1] - cuts[r] for r in range(p)]))
            checks += 1

        # Faults: the same exit code on every rank, one message from rank 0.
        path = os.path.join(data_dir, "iris.csv")
        for r in range(p):
            with open(os.path.join(work, "part-%d.csv" % r), "w") as f:
                f.write("\n".join(read_csv(path)[:1 + 10 * (r + 1)]) + "\n")
        os.remove(os.path.join(work, "part-%d.csv" % (p - 1)))
        faults = [
            (["fit", "kmeans", "--k", "2", "--data", "part-%r.csv"], 1,
             "rank %d: cannot open part-%d.csv" % (p - 1, p - 1) if p > 1 else "cannot open part-0.csv"),
            (["fit", "mpckmeans", "--k", "2", "--data", path], 2, "mpckmeans has no sharded fit"),
            (["fit", "kmeans", "--kk", "2", "--data", path], 2, "unknown option 'kk'"),
        ]
        for args, code, needle in faults:
            out = run(launch + args, work, expect=code)
            said = [line for line in out.stderr.splitlines() if line.startswith("kindred-mpi:")]
            if len(said) != 1 or needle not in said[0]:
                sys.exit("FAILED: %s: expected one line with %r on stderr, got:\n%s" % (" ".join(args), needle, out.stderr))
            print("ok: %d ranks, %s: exit %d on every rank, %s" % (p, " ".join(args[:2]), code, said[0]))
            checks += 1
    print("%d passed, 0 failed" % checks)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
