#!/usr/bin/env python3
"""Time and NMI of a TVClust fit, a previous `kindred` program against the current one, in
the same run (docs/performance.md, "TVClust: a whole fit on optdigits").

For each seed, both programs run `kindred fit tvclust --data FILE --seed S --threads 1
--out LABELS --json [EXTRA ...]` (which goes first alternates by seed), one process at a time.
Reported per program: the fit's own "seconds" (wall clock inside the program, reading the CSV
excluded), the process wall time and CPU time (user + system; the figure to read on a shared
machine), and the NMI (arithmetic-mean normalisation, as
`kindred eval` and src/eval/metrics.hpp) of the labels against the file's `label` column;
mean and standard error over the seeds, and the ratios of the mean fit seconds and CPU seconds.

  python3 bench/tvclust_speed.py --previous PREV/tools/kindred/kindred \\
      --current build/tools/kindred/kindred --data optdigits1800.csv --seeds 1,2,3,4,5

`--rows N` cuts the data to its first N rows (written to a temporary file); `--only current`
runs one program (e.g. for other data sets). Extra arguments after `--` go to both fits.
"""
import argparse
import csv
import json
import math
import os
import resource
import statistics
import subprocess
import tempfile
import time
from collections import Counter


def nmi(a, b):
    n = len(a)
    joint = Counter(zip(a, b))
    ca, cb = Counter(a), Counter(b)
    mi = sum(c / n * math.log(c * n / (ca[x] * cb[y])) for (x, y), c in joint.items())
    ha = -sum(c / n * math.log(c / n) for c in ca.values())
    hb = -sum(c / n * math.log(c / n) for c in cb.values())
    return 0.0 if ha + hb == 0 else 2.0 * mi / (ha + hb)


def read_truth(path, rows):
    with open(path) as f:
        r = csv.reader(f)
        col = next(r).index("label")
        return [line[col] for line, _ in zip(r, range(rows if rows else 1 << 62))]


def cut_rows(path, rows, tmp):
    out = os.path.join(tmp, "data.csv")
    with open(path) as f, open(out, "w") as g:
        for t, line in enumerate(f):
            if t > rows:
                break
            g.write(line)
    return out


def fit(exe, data, seed, extra, tmp):
    labels = os.path.join(tmp, "labels.csv")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([exe, "fit", "tvclust", "--data", data, "--seed", str(seed), "--threads", "1",
                          "--out", labels, "--json"] + extra, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    rep = json.loads(out)
    with open(labels) as f:
        pred = [line.strip() for line in f][1:]
    return rep["seconds"], wall, cpu, pred, rep["clusters"]


def summary(values):
    m = statistics.mean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    return m, se


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--previous", help="kindred program of the previous build")
    p.add_argument("--current", required=True, help="kindred program of this build")
    p.add_argument("--data", required=True)
    p.add_argument("--rows", type=int, default=0, help="use only the first ROWS rows (0: all)")
    p.add_argument("--seeds", default="1,2,3,4,5")
    p.add_argument("--only", choices=["current", "previous"], help="run one program only")
    p.add_argument("extra", nargs="*", help="options for both fits (after --)")
    args = p.parse_args()

    tmp = tempfile.mkdtemp()
    data = cut_rows(args.data, args.rows, tmp) if args.rows else args.data
    truth = read_truth(args.data, args.rows)
    seeds = [int(s) for s in args.seeds.split(",")]
    progs = ["previous", "current"] if not args.only else [args.only]
    if "previous" in progs and not args.previous:
        p.error("--previous is needed")
    res = {w: {"fit": [], "wall": [], "cpu": [], "nmi": [], "k": []} for w in progs}
    for t, seed in enumerate(seeds):
        order = progs if t % 2 == 0 else list(reversed(progs))
        for which in order:
            secs, wall, cpu, pred, k = fit(getattr(args, which), data, seed, args.extra, tmp)
            r = res[which]
            r["fit"].append(secs)
            r["wall"].append(wall)
            r["cpu"].append(cpu)
            r["nmi"].append(nmi(truth, pred))
            r["k"].append(k)
            print("seed %d %-8s fit %.3f s  wall %.3f s  process CPU %.3f s  NMI %.4f  clusters %d" % (
                seed, which, secs, wall, cpu, r["nmi"][-1], k), flush=True)
    for which in progs:
        r = res[which]
        f, fse = summary(r["fit"])
        c, cse = summary(r["cpu"])
        nm, nse = summary(r["nmi"])
        print("%-8s fit seconds %.3f +- %.3f  process CPU %.3f +- %.3f  NMI %.4f +- %.4f  clusters %s" % (
            which, f, fse, c, cse, nm, nse, ",".join(map(str, r["k"]))))
    if len(progs) == 2:
        for key, name in (("fit", "fit seconds"), ("cpu", "process CPU seconds")):
            print("ratio of mean %s (previous / current): %.2f" % (
                name, statistics.mean(res["previous"][key]) / statistics.mean(res["current"][key])))


if __name__ == "__main__":
    main()
