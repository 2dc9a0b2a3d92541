#!/usr/bin/env python3
"""How much do noisy random pairs say about a two-class labelling, the features set aside?

For the two-class data sets of issue 21's table (pima, ionosphere), with the protocol of
bench/quality_suite.py (m = min(floor(0.01 n(n-1)/2), 2n) distinct random pairs, each answer flipped
with probability p), this runs belief propagation on the signed graph of the pairs alone (a Z2
synchronisation problem, the flip rate known): on sparse random graphs BP is the usual estimate of the
best any method can recover from the pairs. It is a yardstick for the noisy-pair rows of
docs/quality.md, not a method of kindred. Needs numpy and scikit-learn (/usr/bin/python3).

    /usr/bin/python3 bench/noise_bound.py --data-dir ../shared/data --repeats 20
"""
import argparse
import csv
import os

import numpy as np
from sklearn.metrics import normalized_mutual_info_score


def random_pairs(n, m, rng):
    pairs = set()
    while len(pairs) < m:
        i, j = rng.integers(0, n, 2)
        if i != j:
            pairs.add((min(i, j), max(i, j)))
    return np.array(sorted(pairs))


def bp_labels(n, pairs, sign, flip, rng, sweeps=200):
    """Two-class labels from signed pairs by damped belief propagation (messages as log-odds)."""
    m = len(pairs)
    src = np.concatenate([pairs[:, 0], pairs[:, 1]])
    dst = np.concatenate([pairs[:, 1], pairs[:, 0]])
    w = np.concatenate([sign, sign])
    reverse = np.concatenate([np.arange(m, 2 * m), np.arange(0, m)])
    t = 1.0 - 2.0 * flip  # how much an answer says: tanh of the coupling
    msg = rng.normal(0.0, 0.01, 2 * m)  # a small random start breaks the symmetry of the two labels
    for _ in range(sweeps):
        field = np.zeros(n)
        np.add.at(field, dst, msg)
        cavity = field[src] - msg[reverse]
        new = w * 2.0 * np.arctanh(np.clip(t * np.tanh(cavity / 2.0), -1 + 1e-12, 1 - 1e-12))
        msg = 0.5 * msg + 0.5 * new
    field = np.zeros(n)
    np.add.at(field, dst, msg)
    return (field > 0).astype(int)


def read_labels(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    raw = [r[-1] for r in rows[1:]]
    classes = {c: k for k, c in enumerate(sorted(set(raw)))}
    return np.array([classes[c] for c in raw])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))
    ap.add_argument("--data", default="pima,ionosphere")
    ap.add_argument("--noise", default="0.1,0.2")
    ap.add_argument("--repeats", type=int, default=20)
    args = ap.parse_args()
    print("| data | n | m | noise | NMI of BP on the pairs alone (mean +- s.e.) |")
    print("|---|---|---|---|---|")
    for name in args.data.split(","):
        y = read_labels(os.path.join(args.data_dir, name + ".csv"))
        n = len(y)
        if len(set(y)) != 2:
            raise SystemExit("%s has %d classes; this yardstick is for two" % (name, len(set(y))))
        m = min(n * (n - 1) // 200, 2 * n)
        for flip in (float(p) for p in args.noise.split(",")):
            scores = []
            for seed in range(1, args.repeats + 1):
                rng = np.random.default_rng(seed)
                pairs = random_pairs(n, m, rng)
                same = y[pairs[:, 0]] == y[pairs[:, 1]]
                sign = np.where(same ^ (rng.random(m) < flip), 1.0, -1.0)
                scores.append(normalized_mutual_info_score(y, bp_labels(n, pairs, sign, flip, rng)))
            se = np.std(scores, ddof=1) / np.sqrt(len(scores))
            print("| %s | %d | %d | %.1f | %.3f +- %.3f |" % (name, n, m, flip, np.mean(scores), se))


if __name__ == "__main__":
    main()
