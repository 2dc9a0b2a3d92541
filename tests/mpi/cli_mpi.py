#!/usr/bin/env python3
"""`kindred-mpi fit` under mpirun against `kindred fit` in one process (standard-library Python).

    cli_mpi.py MPIRUN KINDRED_MPI KINDRED DATA_DIR P [MPIRUN_ARG ...]

On the bundled data sets, with P ranks: one file per rank (--data part-%r.csv, uneven row counts; the
CSV reader refuses a file without rows, so none is empty) and one file split by rows (--data X.csv); labels written one file
per rank (--out labels-%r.csv) and gathered (--out labels.csv); the labels, the saved model's
predictions and the --json summary (iterations, objective) must be those of `kindred fit`. With side
information (copkmeans --pairs, tcs-gm --partial-labels, dcrc --triplets with its default standardize, files
drawn here from the label column, global row numbers) the same, one file per rank and one file split.
Faults: a file missing on the last rank, rdpmeans without lambda or k and an unknown option end
every rank with the same exit code, and the one message names the rank when one rank alone failed;
side information for other data (more points than n_total: the message names both counts, or a row
out of range) and a missing side file end every rank (each rank's exit code is checked) with one
message. Every mpirun runs under a timeout, so a rank left waiting fails the test instead of hanging it.
"""
import json
import os
import re
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


def write_parts(rows, p, work):
    """One file per rank, the rows cut unevenly (squares: the first file the smallest); the cut points."""
    n = len(rows) - 1
    cuts = [n * r * r // (p * p) for r in range(p + 1)]
    for r in range(p):
        with open(os.path.join(work, "part-%d.csv" % r), "w") as f:
            f.write("\n".join([rows[0]] + rows[1 + cuts[r]:1 + cuts[r + 1]]) + "\n")
    return cuts


def write_side_files(path, work):
    """pairs.csv, triplets.csv and partial.csv about the points of the CSV `path`, drawn from its label
    column by a fixed rule (every point of a pair or triplet from strides over all rows, so that most of
    them join rows of different ranks); returns the number of points."""
    rows = read_csv(path)
    column = rows[0].split(",").index("label")
    labels = [r.split(",")[column] for r in rows[1:]]
    n, classes = len(labels), sorted(set(labels))
    with open(os.path.join(work, "pairs.csv"), "w") as f:
        f.write("i,j,value\n")
        for t in range(n // 2):
            i, j = t * 37 % n, (t * 53 + 11) % n
            if i != j:
                f.write("%d,%d,%d\n" % (i, j, 1 if labels[i] == labels[j] else -1))
    with open(os.path.join(work, "triplets.csv"), "w") as f:
        f.write("a,b,c,answer\n")
        for t in range(n // 2):
            a, b, c = t * 29 % n, (t * 41 + 7) % n, (t * 67 + 3) % n
            if len({a, b, c}) == 3:
                answer = "yes" if labels[a] == labels[b] else "no" if labels[a] == labels[c] else "dnk"
                f.write("%d,%d,%d,%s\n" % (a, b, c, answer))
    with open(os.path.join(work, "partial.csv"), "w") as f:
        f.write("label\n" + "".join("%d\n" % classes.index(labels[i]) if i % 4 == 0 else "-1\n" for i in range(n)))
    return n


def sharded_problems(launch, kindred, fit, path, p, work, saved_model=False):
    """`kindred fit` on the CSV `path` in one process against `kindred-mpi fit` on part-0..p-1.csv (labels one
    file per rank, and the --json summary) and on `path` split by rows (labels gathered); with saved_model,
    also the predictions of the model rank 0 saved. Returns what differs (empty when nothing does)."""
    one = json.loads(run([kindred, *fit, "--data", path, "--out", "one.csv", "--json"], work).stdout)
    expected = read_csv(os.path.join(work, "one.csv"))
    model = ["--model", "shard.kdm"] if saved_model else []
    summary = json.loads(run(launch + fit + ["--data", "part-%r.csv", "--out", "labels-%r.csv", "--json"] + model,
                             work).stdout)
    got = expected[:1]
    for r in range(p):
        got += read_csv(os.path.join(work, "labels-%d.csv" % r))[1:]
    problems = []
    if got != expected:
        problems.append("labels (one file per rank)")
    for key in ("clusters", "iterations", "objective", "n", "d"):
        if summary[key] != one[key]:
            problems.append("%s: %r, one process: %r" % (key, summary[key], one[key]))
    if saved_model:
        run([kindred, "predict", "--model", "shard.kdm", "--data", path, "--out", "again.csv"], work)
        if read_csv(os.path.join(work, "again.csv")) != expected:
            problems.append("the saved model's predictions")
    # One file, each rank its range of rows; the labels gathered on rank 0.
    run(launch + fit + ["--data", path, "--out", "gathered.csv"], work)
    if read_csv(os.path.join(work, "gathered.csv")) != expected:
        problems.append("labels (one file, gathered)")
    return problems


def exit_codes(launch, args, work, p):
    """Runs `launch args` with each rank's exit code written to exit-RANK.txt; returns them in rank order
    (None for a rank that wrote none) and the run. mpirun itself says only the first failing rank's code."""
    for r in range(p):
        if os.path.exists(os.path.join(work, "exit-%d.txt" % r)):
            os.remove(os.path.join(work, "exit-%d.txt" % r))
    wrapped = launch[:-1] + ["sh", "-c", '"$0" "$@"; echo $? > exit-${OMPI_COMM_WORLD_RANK:-$PMI_RANK}.txt', launch[-1]]
    out = run(wrapped + args, work, expect=None)
    codes = []
    for r in range(p):
        name = os.path.join(work, "exit-%d.txt" % r)
        codes.append(int(open(name).read()) if os.path.exists(name) else None)
    return codes, out


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
            cuts = write_parts(read_csv(path), p, work)
            problems = sharded_problems(launch, kindred, ["fit", "kmeans", "--k", str(k), "--seed", "3"], path, p, work,
                                        saved_model=True)
            if problems:
                sys.exit("FAILED: %s, %d ranks: %s" % (name, p, "; ".join(problems)))
            print("ok: %s, %d ranks (rows per file %s): labels, model and summary those of `kindred fit`"
                  % (name, p, [cuts[r + 1] - cuts[r] for r in range(p)]))
            checks += 1

        # Side information, about all the points by global row number, read in full by every rank.
        side_fits = [
            ["copkmeans", "--k", "3", "--pairs", "pairs.csv"],
            ["tcs-gm", "--k", "3", "--partial-labels", "partial.csv"],
            ["dcrc", "--k", "3", "--triplets", "triplets.csv"],
        ]
        for name in ("iris.csv", "wine.csv"):
            path = os.path.join(data_dir, name)
            n = write_side_files(path, work)
            cuts = write_parts(read_csv(path), p, work)
            for side in side_fits:
                problems = sharded_problems(launch, kindred, ["fit"] + side + ["--seed", "5"], path, p, work)
                if problems:
                    sys.exit("FAILED: %s on %s, %d ranks: %s" % (" ".join(side), name, p, "; ".join(problems)))
                print("ok: %s on %s (n = %d), %d ranks (rows per file %s): labels and summary those of `kindred fit`"
                      % (" ".join(side), name, n, p, [cuts[r + 1] - cuts[r] for r in range(p)]))
                checks += 1

        # Side information for other data, or missing: every rank fails with the same code, rank 0 says it once.
        # The side files are those of wine.csv (178 points) from the loop above; the data is iris.csv (150).
        path = os.path.join(data_dir, "iris.csv")
        cuts = write_parts(read_csv(path), p, work)
        side_faults = [
            (["fit", "tcs-gm", "--k", "3", "--data", "part-%r.csv", "--partial-labels", "partial.csv"], 1,
             "partial.csv: 178 labels, but the data has 150 points"),
            (["fit", "tcs-gm", "--k", "3", "--data", path, "--partial-labels", "partial.csv"], 1,
             "partial.csv: 178 labels, but the data has 150 points"),
            (["fit", "copkmeans", "--k", "3", "--data", "part-%r.csv", "--pairs", "pairs.csv"], 1,
             "out of range for n = 150"),
            (["fit", "dcrc", "--k", "3", "--data", path, "--triplets", "missing.csv"], 1,
             "cannot open missing.csv"),
            (["fit", "copkmeans", "--k", "3", "--data", "part-%r.csv", "--pairs", "pairs-%r.csv"], 2,
             "its file names take no %r"),
        ]
        for args, code, needle in side_faults:
            codes, out = exit_codes(launch, args, work, p)
            said = [line for line in out.stderr.splitlines() if line.startswith("kindred-mpi:")]
            if codes != [code] * p or len(said) != 1 or needle not in said[0] or re.search(r"rank \d+:", said[0]):
                sys.exit("FAILED: %s: expected exit %d on each of %d ranks (got %s) and one line with %r, naming no "
                         "rank, on stderr, got:\n%s" % (" ".join(args), code, p, codes, needle, out.stderr))
            print("ok: %d ranks, %s: exit %d on every rank, %s" % (p, " ".join(args[1:2] + args[-2:]), code, said[0]))
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
            (["fit", "rdpmeans", "--data", path], 1, "rdpmeans: set lambda, or k"),
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
