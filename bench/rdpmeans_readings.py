#!/usr/bin/python3
"""An independent, plain-NumPy re-implementation of RDP-means (Khashabi et al.,
Algorithm 1) used to test readings of the paper that its text leaves open,
on the protocol of its Table 1 (five UCI sets, r in {0.01, 0.03, 0.05},
p in {1, 0.95, 0.9, 0.8}, five trials, lambda from the k-th farthest-first
pick with the true k, xi_0 = 0.001, xi_rate = 2, stop after 20 iterations
without a change).

It shares no code with the library: its default reading is the one kindred
implements, so its averages check the C++ version independently; each
--reading switches one open detail:
  random-order   visit the points in a fresh random order in every pass
  singleton      a point alone in its cluster is first removed from it (the
                 Gibbs conditional (13) with n_{-i,k} = 0), so it can only
                 rejoin another cluster or re-open one at cost lambda
  ties-open      open a cluster when the smallest augmented distance is >= lambda
                 (Algorithm 1 writes "if dmin < lambda assign"); default: > lambda
  max-iter-20    at most 20 passes ("did not change after 20 iterations" read
                 as an iteration budget)
  pick-k-1       lambda from the (k-1)-th farthest-first pick instead of the k-th

usage: /usr/bin/python3 bench/rdpmeans_readings.py [--data ../shared/data] [--reading NAME ...]
Prints per data set mean F / ARI / NMI / clusters, and the average.
"""
import argparse
import csv
import os

import numpy as np
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

DATASETS = ["iris", "wine", "ecoli", "glass", "balance"]


def load(path):
    rows = list(csv.reader(open(path)))[1:]
    names = sorted({r[-1] for r in rows})
    return np.array([[float(v) for v in r[:-1]] for r in rows]), np.array([names.index(r[-1]) for r in rows])


def pairwise_f(y, z):
    iu = np.triu_indices(len(y), 1)
    t, p = (y[:, None] == y[None, :])[iu], (z[:, None] == z[None, :])[iu]
    tp = np.sum(t & p)
    return 0.0 if tp == 0 else 2 * tp / (p.sum() + t.sum())


def farthest_first_lambda(x, picks):
    centre, closest, pick = x.mean(0), np.full(len(x), np.inf), 0.0
    for _ in range(picks):
        closest = np.minimum(closest, ((x - centre) ** 2).sum(1))
        far = int(np.argmax(closest))
        pick, centre = closest[far], x[far]
    return pick


def sample_links(y, r, p, rng):
    iu = np.triu_indices(len(y), 1)
    chosen = rng.choice(len(iu[0]), int(round(r * len(iu[0]))), replace=False)
    a, b = iu[0][chosen], iu[1][chosen]
    sign = np.where(y[a] == y[b], 1, -1) * np.where(rng.random(len(a)) < 1 - p, -1, 1)
    links = [[] for _ in y]
    for i, j, s in zip(a, b, sign):
        links[i].append((j, s))
        links[j].append((i, s))
    return links


def rdpmeans(x, links, lam, readings, rng, xi=0.001, xi_rate=2.0, stable_needed=20):
    n = len(x)
    z, centres = np.zeros(n, int), [x.mean(0)]
    max_iter = 20 if "max-iter-20" in readings else 300
    stable = 0
    for _ in range(max_iter):
        dist = ((x[:, None, :] - np.array(centres)[None]) ** 2).sum(2)
        sizes = list(np.bincount(z, minlength=len(centres)))
        changed = 0
        for i in (rng.permutation(n) if "random-order" in readings else range(n)):
            extra = ((x[i] - np.array(centres[dist.shape[1]:])) ** 2).sum(1) if len(centres) > dist.shape[1] else []
            aug = np.concatenate([dist[i], extra])
            for j, s in links[i]:
                aug[z[j]] += -xi if s > 0 else xi
            alone = "singleton" in readings and sizes[z[i]] == 1
            if alone:
                aug[z[i]] = np.inf
            best = int(np.argmin(aug))
            if aug[best] > lam or ("ties-open" in readings and aug[best] >= lam):
                if alone:
                    best = z[i]  # re-opening its own cluster: the same state
                else:
                    centres.append(x[i].copy())
                    sizes.append(0)
                    best = len(centres) - 1
            if best != z[i]:
                changed += 1
                sizes[z[i]] -= 1
                sizes[best] += 1
                z[i] = best
        kept = [c for c in range(len(centres)) if sizes[c] > 0]
        new_id = {c: t for t, c in enumerate(kept)}
        z = np.array([new_id[c] for c in z])
        centres = [x[z == t].mean(0) for t in range(len(kept))]
        stable = stable + 1 if changed == 0 else 0
        if stable >= stable_needed:
            break
        xi *= xi_rate
    return z


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))
    ap.add_argument("--reading", action="append", default=[],
                    choices=["random-order", "singleton", "ties-open", "max-iter-20", "pick-k-1"])
    args = ap.parse_args()
    averages = []
    for name in DATASETS:
        x, y = load(os.path.join(args.data, name + ".csv"))
        k = len(set(y))
        lam = farthest_first_lambda(x, k - 1 if "pick-k-1" in args.reading else k)
        rows = []
        for r in (0.01, 0.03, 0.05):
            for p in (1.0, 0.95, 0.9, 0.8):
                for trial in range(5):
                    rng = np.random.default_rng([trial, int(r * 100), int(p * 100)])
                    z = rdpmeans(x, sample_links(y, r, p, rng), lam, args.reading, rng)
                    rows.append((pairwise_f(y, z), adjusted_rand_score(y, z), normalized_mutual_info_score(y, z),
                                 len(set(z))))
        m = np.mean(rows, axis=0)
        averages.append(m[:3])
        print("%-8s F / ARI / NMI %.2f / %.2f / %.2f  clusters %.1f" % (name, *m), flush=True)
    print("average  F / ARI / NMI %.2f / %.2f / %.2f" % tuple(np.mean(averages, axis=0)))


if __name__ == "__main__":
    main()
