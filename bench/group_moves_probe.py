#!/usr/bin/env python3
"""Does moving must-linked groups help the point-wise PCKMeans objective? (a probe, not a method)

The point-wise HMRF (PCKMeans objective: squared distance to the centre plus w for each violated
pair) optimised by ICM moves one point at a time. This probe adds, after each ICM sweep, a pass
that moves whole groups of points joined by satisfied must-links (the objective is unchanged; a
group move is kept only when it lowers it), and compares both on clean and flipped random pairs.
docs/quality.md ("Against the goals of issue 21", noisy pairs) reports what it found. Pure numpy,
slow (minutes per data set); w is given in units of the data's spread, as kindred's weight_unit.

    /usr/bin/python3 bench/group_moves_probe.py DATA M NOISE REPEATS W1,W2,...
    /usr/bin/python3 bench/group_moves_probe.py letters_ijl_10pct 256 0.1 6 0.3,1,3
(DATA is a name in ../shared/data; M the number of pairs.)
"""
import csv
import os
import sys

import numpy as np

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")
from sklearn.metrics import normalized_mutual_info_score


def load(path):
    """z-scored features and integer classes of a CSV with a 'label' column."""
    with open(path) as f:
        rows = list(csv.reader(f))
    li = rows[0].index("label")
    x = np.array([[float(v) for j, v in enumerate(r) if j != li] for r in rows[1:]])
    raw = [r[li] for r in rows[1:]]
    classes = {c: i for i, c in enumerate(sorted(set(raw)))}
    sd = x.std(0)
    sd[sd == 0] = 1
    return (x - x.mean(0)) / sd, np.array([classes[c] for c in raw])


def random_pairs(y, m, noise, rng):
    """m distinct random pairs, must = same class, each answer flipped with probability noise."""
    n, chosen = len(y), set()
    while len(chosen) < m:
        i, j = rng.integers(0, n, 2)
        if i != j:
            chosen.add((min(i, j), max(i, j)))
    p = np.array(sorted(chosen))
    return p, (y[p[:, 0]] == y[p[:, 1]]) ^ (rng.random(m) < noise)


def constraint_costs(i, adj, lab, w, k, skip=()):
    """What each label would cost point i in violated pairs (partners in skip ignored)."""
    c = np.zeros(k)
    for j, must in adj[i]:
        if j in skip:
            continue
        if must:
            c += w
            c[lab[j]] -= w
        else:
            c[lab[j]] += w
    return c


def group_pass(pairs, must, adj, lab, dist, w, k):
    """Moves each group joined by satisfied must-links to its best label; returns the moves."""
    n = len(lab)
    parent = list(range(n))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for (i, j), m in zip(pairs, must):
        if m and lab[i] == lab[j]:
            parent[find(i)] = find(j)
    groups = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    moved = 0
    for members in groups.values():
        if len(members) < 2:
            continue
        inside = set(members)
        cost = dist[members].sum(0)
        for i in members:
            cost += constraint_costs(i, adj, lab, w, k, inside)
        now, best = lab[members[0]], int(np.argmin(cost))
        if best != now and cost[best] < cost[now] - 1e-12:
            lab[members] = best
            moved += 1
    return moved


def fit(x, k, pairs, must, w, rng, groups, restarts=3, iters=50):
    """PCKMeans objective by ICM (and group moves), k-means++ starts, lowest objective kept."""
    n = len(x)
    adj = [[] for _ in range(n)]
    for (i, j), m in zip(pairs, must):
        adj[i].append((j, m))
        adj[j].append((i, m))
    best = None
    for _ in range(restarts):
        centres = [x[rng.integers(n)]]
        for _ in range(1, k):
            d = np.min(((x[:, None, :] - np.array(centres)[None]) ** 2).sum(2), 1)
            centres.append(x[rng.choice(n, p=d / d.sum())])
        centres = np.array(centres)
        lab = np.argmin(((x[:, None, :] - centres[None]) ** 2).sum(2), 1)
        for _ in range(iters):
            dist = ((x[:, None, :] - centres[None]) ** 2).sum(2)
            for _ in range(10):
                moved = 0
                for i in rng.permutation(n):
                    c = dist[i] + constraint_costs(i, adj, lab, w, k)
                    h = int(np.argmin(c))
                    if h != lab[i] and c[h] < c[lab[i]] - 1e-12:
                        lab[i] = h
                        moved += 1
                if groups:
                    moved += group_pass(pairs, must, adj, lab, dist, w, k)
                if moved == 0:
                    break
            new = np.array([x[lab == h].mean(0) if (lab == h).any() else centres[h] for h in range(k)])
            if np.allclose(new, centres):
                break
            centres = new
        dist = ((x[:, None, :] - centres[None]) ** 2).sum(2)
        objective = dist[np.arange(n), lab].sum() + w * sum(m != (lab[i] == lab[j]) for (i, j), m in zip(pairs, must))
        if best is None or objective < best[0]:
            best = (objective, lab.copy())
    return best[1]


def main():
    name, m, noise, repeats = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    x, y = load(os.path.join(DATA_DIR, name + ".csv"))
    k = len(set(y))
    spread = ((x - x.mean(0)) ** 2).sum(1).mean()
    for unit_weight in [float(v) for v in sys.argv[5].split(",")]:
        for groups in (False, True):
            scores = []
            for seed in range(1, repeats + 1):
                pairs, must = random_pairs(y, m, noise, np.random.default_rng(seed))
                labels = fit(x, k, pairs, must, unit_weight * spread, np.random.default_rng(100 + seed), groups)
                scores.append(normalized_mutual_info_score(y, labels))
            print(name, noise, "w=%g" % unit_weight, "groups" if groups else "point-wise",
                  "%.3f +- %.3f" % (np.mean(scores), np.std(scores) / len(scores) ** 0.5), flush=True)


if __name__ == "__main__":
    main()
