#!/usr/bin/env python3
"""The quality protocol of docs/quality.md, through the CLI as a user runs it.

For each data set and algorithm: `kindred eval ALG --data X --standardize
--pairs-count m --noise p --repeats R --json`, m = min(floor(0.01 n(n-1)/2), 2n)
random pairs (scaled by --scale for learning curves), all options at their
defaults, k = number of classes. Prints one markdown table row per data set:
the mean NMI (and its standard error) of each algorithm.

  python3 bench/quality_suite.py --kindred build/tools/kindred/kindred \\
      --data-dir ../shared/data --algorithms kmeans,pckmeans,mpckmeans --noise 0 --repeats 20
"""
import argparse
import json
import math
import os
import subprocess
import sys

ISSUE_SETS = ["pima", "ionosphere", "balance", "wine", "iris", "ecoli", "glass", "vowel",
              "letters_ijl_10pct", "digits389_10pct", "optdigits"]


def rows_of(path):
    with open(path) as f:
        return sum(1 for _ in f) - 1


def pairs_for(n, scale):
    return max(1, int(round(scale * min(n * (n - 1) // 200, 2 * n))))


def evaluate(kindred, path, algorithm, pairs, noise, repeats, seed, extra):
    cmd = [kindred, "eval", algorithm, "--data", path, "--standardize", "--repeats", str(repeats),
           "--seed", str(seed), "--json"]
    if pairs > 0 and algorithm not in ("kmeans", "gmm"):
        cmd += ["--pairs-count", str(pairs), "--noise", str(noise)]
    cmd += extra
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "exit %d" % p.returncode
    r = json.loads(p.stdout)
    return r, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kindred", required=True)
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--datasets", default=",".join(ISSUE_SETS))
    ap.add_argument("--algorithms", default="kmeans,pckmeans,mpckmeans")
    ap.add_argument("--noise", type=float, default=0.0)
    ap.add_argument("--scale", default="1", help="comma-separated multiples of m (learning curve)")
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--extra", default="", help="extra flags for every eval, space-separated")
    a = ap.parse_args()
    algorithms = a.algorithms.split(",")
    scales = [float(s) for s in a.scale.split(",")]
    extra = a.extra.split() if a.extra else []
    cols = [(alg, s) for alg in algorithms for s in scales]
    head = ["data", "n", "m"] + [alg if len(scales) == 1 else "%s x%g" % (alg, s) for alg, s in cols]
    if any(alg in ("rdpmeans", "dpmeans") for alg in algorithms):
        head += ["clusters (%s)" % alg for alg in algorithms if alg in ("rdpmeans", "dpmeans")]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    # Per column: the mean NMI of each data set; per DP-type method: the
    # runs whose number of clusters lies within [k/2, 2k] (issue 21's goal).
    means = {c: [] for c in cols}
    within = {alg: [0, 0] for alg in algorithms}
    for name in a.datasets.split(","):
        path = os.path.join(a.data_dir, name + ".csv")
        n = rows_of(path)
        m = pairs_for(n, 1.0)
        cells, clusters = [], []
        for alg, s in cols:
            r, err = evaluate(a.kindred, path, alg, pairs_for(n, s), a.noise, a.repeats, a.seed, extra)
            if r is None:
                cells.append("error: " + err[:60])
                if alg in ("rdpmeans", "dpmeans"):
                    clusters.append("-")
                continue
            v = r["nmi"]["values"]
            se = (r["nmi"]["std"] / math.sqrt(len(v))) if len(v) > 1 else 0.0
            cells.append("%.3f ± %.3f" % (r["nmi"]["mean"], se))
            means[(alg, s)].append(r["nmi"]["mean"])
            if alg in ("rdpmeans", "dpmeans"):
                c = r["clusters"]["values"]
                clusters.append("%d-%d (classes %d)" % (min(c), max(c), r["classes"]))
                within[alg][0] += sum(1 for v in c if r["classes"] / 2 <= v <= 2 * r["classes"])
                within[alg][1] += len(c)
        print("| " + " | ".join([name, str(n), str(m)] + cells + clusters) + " |", flush=True)
    print()
    print("mean NMI over the data sets: " + ", ".join(
        "%s %.3f" % (head[3 + i], sum(means[c]) / len(means[c])) for i, c in enumerate(cols) if means[c]))
    counted = ["%s %d of %d" % (alg, w[0], w[1]) for alg, w in within.items() if w[1]]
    if counted:
        print("runs with a number of clusters within [k/2, 2k]: " + ", ".join(counted))


if __name__ == "__main__":
    sys.exit(main())
