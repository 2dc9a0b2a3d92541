#!/usr/bin/env python3
"""Time of reading a large CSV by the `kindred` program, the current build against a
previous one, in the same run (docs/performance.md, "Reading CSV data").

Each round runs, for each program in turn (alternating which goes first),
`kindred fit kmeans --data FILE --k 2 --max-iter 1 --n-init 1 --json`; the reading time
is the wall time of the process minus the fit's own "seconds" (the fit is timed by
the program itself), so it holds starting the process, reading and parsing the
file. The data are drawn once (seed 7): n rows x d standard normal numbers written
with 7 significant digits, comma-separated, with a header row.

  python3 bench/csv_read_bench.py --previous PREV_EXE --current build/tools/kindred/kindred
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import tempfile
import time


def write_data(path, n, d, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        f.write(",".join("x%d" % (c + 1) for c in range(d)) + "\n")
        for _ in range(n):
            f.write(",".join("%.7g" % rng.gauss(0.0, 1.0) for _ in range(d)) + "\n")


def read_seconds(exe, path):
    start = time.perf_counter()
    out = subprocess.run([exe, "fit", "kmeans", "--data", path, "--k", "2", "--max-iter", "1", "--n-init", "1",
                          "--json"], check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    return wall - json.loads(out)["seconds"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--previous", required=True, help="kindred program of the previous build")
    p.add_argument("--current", required=True, help="kindred program of this build")
    p.add_argument("--n", type=int, default=1000000)
    p.add_argument("--d", type=int, default=20)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--data", help="use this CSV instead of drawing one (kept)")
    args = p.parse_args()

    tmp = tempfile.mkdtemp()
    path = args.data or os.path.join(tmp, "bench.csv")
    if not args.data:
        write_data(path, args.n, args.d, 7)
    size_mb = os.path.getsize(path) / 1e6
    times = {"previous": [], "current": []}
    for r in range(args.rounds):
        order = ["previous", "current"] if r % 2 == 0 else ["current", "previous"]
        for which in order:
            times[which].append(read_seconds(getattr(args, which), path))
        print("round %d: previous %.3f s, current %.3f s, ratio %.2f" % (
            r + 1, times["previous"][-1], times["current"][-1], times["previous"][-1] / times["current"][-1]))
    prev, cur = statistics.median(times["previous"]), statistics.median(times["current"])
    print("%s: %.0f MB; median read time previous %.3f s, current %.3f s; previous / current = %.2f" % (
        "drawn %d x %d" % (args.n, args.d) if not args.data else path, size_mb, prev, cur, prev / cur))
    if not args.data:
        os.remove(path)
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
