#!/usr/bin/env python3
"""Quality regression: the defaults' NMI on small bundled data sets, fixed
seeds, clean and noisy pairs, must not drop below the values recorded here
(measured when the defaults were set; docs/quality.md has the full tables).
The protocol is that of docs/quality.md: --standardize, m = min(1% of all
pairs, 2n) random pairs, k = number of classes (not given to dpmeans /
rdpmeans, which choose lambda from the pairs). The data sets are the copies
in data/ of ../shared/data's (UCI; letters_ijl_10pct is the 10 % sample of
the letters I, J and L of UCI letter-recognition).

usage: quality_regression.py KINDRED DATA_DIR [--record]
"""
import json
import subprocess
import sys

# (data set, algorithm, noise) -> recorded mean NMI over 10 repeats, seed 1.
RECORDED = {
    ("iris", "kmeans", 0.0): 0.659,
    ("iris", "pckmeans", 0.0): 0.925,
    ("iris", "mpckmeans", 0.0): 0.929,
    ("iris", "copkmeans", 0.0): 0.930,
    ("iris", "mpckmeans", 0.1): 0.824,
    ("iris", "rdpmeans", 0.0): 0.703,
    ("wine", "pckmeans", 0.0): 0.969,
    ("wine", "mpckmeans", 0.1): 0.956,
    ("ionosphere", "pckmeans", 0.0): 0.962,
    ("ionosphere", "mpckmeans", 0.0): 0.956,
    ("ionosphere", "pckmeans", 0.1): 0.699,
    ("ecoli", "mpckmeans", 0.0): 0.772,
    ("ecoli", "pckmeans", 0.1): 0.674,
    ("ecoli", "mpckmeans", 0.1): 0.712,
    # (0.696 with Algorithm 1's start: 7 clusters for 8 classes, three of
    # them of 2-5 points; the dsquared start finds 5-7.)
    ("ecoli", "dpmeans", 0.0): 0.658,
    # What a full metric (mpckmeans distortion = auto) gains on correlated features.
    ("wine", "mpckmeans", 0.0): 0.980,
    ("letters_ijl_10pct", "mpckmeans", 0.0): 0.878,
    # What the whitening by the must-link groups (whitening = rca) gains.
    ("letters_ijl_10pct", "pckmeans", 0.0): 0.912,
    ("letters_ijl_10pct", "pckmeans", 0.1): 0.701,
    # What the calibrated choice of lambda gains (0.683 before, 4-9
    # clusters; 0.856 with the grid above the reach; 0.741, 2-5 clusters,
    # since the dsquared start, which gains on iris: 0.661 before it).
    ("ionosphere", "rdpmeans", 0.0): 0.741,
    # What the dsquared start (best of 5 seedings) gains: 0.781 and 0.761
    # before, 3-8 clusters for 3 classes; now 3.
    ("wine", "rdpmeans", 0.0): 0.952,
    ("wine", "dpmeans", 0.0): 0.883,
    # What xi_max chosen from the pairs gains with wrong answers (0.723 and
    # 0.497 with the paper's unbounded annealing).
    ("wine", "rdpmeans", 0.1): 0.861,
    ("ecoli", "rdpmeans", 0.1): 0.611,
    # What the cleaning refits (cleaning_rounds = 1) gain with wrong answers.
    ("iris", "pckmeans", 0.1): 0.800,
    ("wine", "pckmeans", 0.1): 0.900,
}
TOLERANCE = 0.01  # rounding of the recorded values and BLAS differences between machines


def pairs_for(n):
    return min(n * (n - 1) // 200, 2 * n)


def nmi(kindred, data_dir, name, algorithm, noise):
    path = "%s/%s.csv" % (data_dir, name)
    with open(path) as f:
        n = sum(1 for _ in f) - 1
    cmd = [kindred, "eval", algorithm, "--data", path, "--standardize", "--repeats", "10", "--seed", "1", "--json"]
    if algorithm != "kmeans":
        cmd += ["--pairs-count", str(pairs_for(n)), "--noise", str(noise)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("FAIL: %s: %s" % (" ".join(cmd), out.stderr.strip()))
    return json.loads(out.stdout)["nmi"]["mean"]


def main():
    kindred, data_dir = sys.argv[1], sys.argv[2]
    record = "--record" in sys.argv
    failed = 0
    for (name, algorithm, noise), floor in RECORDED.items():
        got = nmi(kindred, data_dir, name, algorithm, noise)
        if record:
            print('    ("%s", "%s", %s): %.3f,' % (name, algorithm, noise, got))
            continue
        ok = got >= floor - TOLERANCE
        failed += not ok
        print("%s %-10s %-10s noise %.1f: NMI %.4f, recorded %.3f" % ("ok  " if ok else "FAIL", name, algorithm, noise,
                                                                      got, floor))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
