#!/usr/bin/env python3
"""NMI of kindred's kmeans and gmm against scikit-learn's on the same data (issue 2).

Usage: /usr/bin/python3 bench/repro_baselines.py [--kindred build/tools/kindred/kindred]
       [--data ../shared/data] [--repeats 10]

kindred is run through `kindred eval ... --json` (seeds 0..repeats-1); scikit-learn with its
defaults and random_state 0..repeats-1. Both see the raw features (no scaling)."""
import argparse
import json
import os
import subprocess

import numpy as np
from sklearn.cluster import KMeans
from sklearn.metrics import normalized_mutual_info_score
from sklearn.mixture import GaussianMixture


def load(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [line.strip().split(",") for line in f if line.strip()]
    li = header.index("label")
    x = np.array([[float(v) for j, v in enumerate(r) if j != li] for r in rows])
    names = {}
    y = np.array([names.setdefault(r[li], len(names)) for r in rows])
    return x, y


def kindred_nmi(cli, path, algorithm, repeats, options):
    cmd = [cli, "eval", algorithm, "--data", path, "--repeats", str(repeats), "--json"] + options
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    return out["nmi"]["mean"], out["nmi"]["std"]


def sklearn_nmi(make, x, y, repeats):
    scores = [normalized_mutual_info_score(y, make(seed).fit(x).predict(x)) for seed in range(repeats)]
    return float(np.mean(scores)), float(np.std(scores))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--kindred", default=os.path.join(root, "build/tools/kindred/kindred"))
    ap.add_argument("--data", default=os.path.join(root, "../shared/data"))
    ap.add_argument("--repeats", type=int, default=10)
    a = ap.parse_args()
    rows = []
    for name in ["iris", "wine"]:
        path = os.path.join(a.data, name + ".csv")
        x, y = load(path)
        k = len(set(y))
        cases = [
            ("kmeans", [], lambda s: KMeans(n_clusters=k, n_init=10, random_state=s), "KMeans(n_init=10)"),
            ("gmm", ["--covariance", "spherical"], lambda s: GaussianMixture(k, covariance_type="spherical", random_state=s),
             "GaussianMixture(spherical)"),
            ("gmm", ["--covariance", "diagonal"], lambda s: GaussianMixture(k, covariance_type="diag", random_state=s),
             "GaussianMixture(diag)"),
            ("gmm", ["--covariance", "full"], lambda s: GaussianMixture(k, covariance_type="full", random_state=s),
             "GaussianMixture(full)"),
            ("gmm", [], None, "(no shared-spherical model in scikit-learn)"),
        ]
        for alg, opts, make, peer in cases:
            km, ks = kindred_nmi(a.kindred, path, alg, a.repeats, opts)
            if make:
                sm, ss = sklearn_nmi(make, x, y, a.repeats)
                rows.append((name, " ".join([alg] + opts), km, ks, peer, sm, ss, km - sm))
            else:
                rows.append((name, " ".join([alg] + opts) + " (shared-spherical)", km, ks, peer, float("nan"), float("nan"), float("nan")))
    print("| data | kindred | NMI (mean ± std) | scikit-learn | NMI (mean ± std) | difference |")
    print("|---|---|---|---|---|---|")
    for name, alg, km, ks, peer, sm, ss, diff in rows:
        sk = "–" if np.isnan(sm) else f"{sm:.4f} ± {ss:.4f}"
        df = "–" if np.isnan(diff) else f"{diff:+.4f}"
        print(f"| {name} | `{alg}` | {km:.4f} ± {ks:.4f} | {peer} | {sk} | {df} |")


if __name__ == "__main__":
    main()
