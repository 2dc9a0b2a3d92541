#!/usr/bin/python3
"""Reproduction of the DCRC paper's experiments (Pei, Fern, Rosales, Tjahja,
"Discriminative Clustering with Relative Constraints"), through libkindred's C
API with ctypes. Run with /usr/bin/python3 (numpy).

figure4: for each data set, 0.05N .. 0.3N random triplets labelled by eq. (1)
  (kindred_sample_triplets), `--runs` independent samples per size; pairwise
  F-measure of DCRC (all triplets), DCRC-YN (don't-know triplets dropped),
  k-means, and the library's pairwise methods given one must-link and one
  cannot-link per yes/no triplet (yes: ML(a,b), CL(a,c); no: ML(a,c), CL(a,b)).
  Features are standardised (as in the paper) for every method.
noise: answers flipped with the confusion of Table IV(a) (rows: true answer,
  normalised), DCRC for several epsilon.
  --tune fixed (default): DCRC and DCRC-YN with kindred's defaults (tau = 1,
  lambda = 2^-6). --tune cv: the paper's section V-B2 protocol, per run and
  size: the triplets are split into five folds; for every (tau, lambda) of the
  paper's grid DCRC is fitted on four folds and the held-out triplets' answers
  are predicted by eq. (1) from the cluster labels of a, b, c (yes / no / dnk);
  the grid point with the best mean accuracy over the five folds is refitted on
  all triplets and scored by F-measure. DCRC-YN uses the same folds with the
  dnk triplets removed from training and validation ("removing dnk constraints
  ... when necessary"), so its accuracy is over held-out yes/no triplets (a
  predicted dnk counts as wrong). Ties go to the grid point nearest the
  default. The F-measure (the test metric) is never used to choose.
sensitivity: DCRC and DCRC-YN for a few (tau, lambda) of the paper's grid.

usage: repro_dcrc.py [--build DIR] [--data DIR] [--runs R] [--datasets a,b]
                     [--study figure4|noise|sensitivity|all] [--threads T]
                     [--tune fixed|cv] [--sizes 0.05,0.1,...]
                     [--first-run R0] [--save-runs FILE.jsonl] [--from-runs F1,F2]
"""
import argparse
import ctypes as C
import json
import os
import sys
import time

# One BLAS thread (set before numpy and libkindred load OpenBLAS): the
# problems are small and the machine is shared.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

ROW_MAJOR = 101
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

P_I64 = C.POINTER(C.c_int64)
P_I32 = C.POINTER(C.c_int32)
P_F64 = C.POINTER(C.c_double)


def load_library(build):
    lib = C.CDLL(os.path.join(build, "src", "libkindred.so"))
    lib.kindred_last_error.restype = C.c_char_p
    lib.kindred_algorithm_name.restype = C.c_char_p
    lib.kindred_algorithm_name.argtypes = [C.c_int64]
    lib.kindred_algorithm_count.restype = C.c_int64
    lib.kindred_model_new.argtypes = [C.POINTER(C.c_void_p), C.c_char_p]
    lib.kindred_model_free.argtypes = [C.c_void_p]
    lib.kindred_model_set_int.argtypes = [C.c_void_p, C.c_char_p, C.c_int64]
    lib.kindred_model_set_double.argtypes = [C.c_void_p, C.c_char_p, C.c_double]
    lib.kindred_model_fit_dense.argtypes = [C.c_void_p, P_F64, C.c_int64, C.c_int64, C.c_int, C.c_int64, C.c_void_p]
    lib.kindred_model_labels.argtypes = [C.c_void_p, P_I32, C.c_int64]
    lib.kindred_side_new.argtypes = [C.POINTER(C.c_void_p), C.c_int64]
    lib.kindred_side_free.argtypes = [C.c_void_p]
    lib.kindred_side_add_pairs.argtypes = [C.c_void_p, P_I64, P_I64, P_F64, C.c_int64]
    lib.kindred_side_add_triplets.argtypes = [C.c_void_p, P_I64, P_I64, P_I64, P_I32, C.c_int64]
    lib.kindred_side_triplets.argtypes = [C.c_void_p, P_I64, P_I64, P_I64, P_I32, C.c_int64]
    lib.kindred_sample_triplets.argtypes = [C.c_void_p, P_I32, C.c_int64, C.c_int64, C.c_double, C.c_uint64]
    lib.kindred_metric.argtypes = [C.c_char_p, P_I32, P_I32, C.c_int64, P_F64]
    return lib


class Kindred:
    def __init__(self, build, threads):
        self.lib = load_library(build)
        self.threads = threads
        self.algorithms = {self.lib.kindred_algorithm_name(i).decode() for i in range(self.lib.kindred_algorithm_count())}

    def check(self, status):
        if status != 0:
            raise RuntimeError(self.lib.kindred_last_error().decode())

    def side(self, n, triplets=None, pairs=None):
        s = C.c_void_p()
        self.check(self.lib.kindred_side_new(C.byref(s), n))
        if triplets is not None and len(triplets[0]):
            a, b, c, ans = [np.ascontiguousarray(v, dtype=np.int64) for v in triplets[:3]] + [
                np.ascontiguousarray(triplets[3], dtype=np.int32)]
            self.check(self.lib.kindred_side_add_triplets(s, a.ctypes.data_as(P_I64), b.ctypes.data_as(P_I64),
                                                          c.ctypes.data_as(P_I64), ans.ctypes.data_as(P_I32), len(a)))
        if pairs is not None and len(pairs[0]):
            i, j = [np.ascontiguousarray(v, dtype=np.int64) for v in pairs[:2]]
            v = np.ascontiguousarray(pairs[2], dtype=np.float64)
            self.check(self.lib.kindred_side_add_pairs(s, i.ctypes.data_as(P_I64), j.ctypes.data_as(P_I64),
                                                       v.ctypes.data_as(P_F64), len(i)))
        return s

    def sample_triplets(self, y, count, seed):
        n = len(y)
        s = C.c_void_p()
        self.check(self.lib.kindred_side_new(C.byref(s), n))
        try:
            self.check(self.lib.kindred_sample_triplets(s, y.ctypes.data_as(P_I32), n, count, 0.0, seed))
            a, b, c = (np.zeros(count, dtype=np.int64) for _ in range(3))
            ans = np.zeros(count, dtype=np.int32)
            self.check(self.lib.kindred_side_triplets(s, a.ctypes.data_as(P_I64), b.ctypes.data_as(P_I64),
                                                          c.ctypes.data_as(P_I64), ans.ctypes.data_as(P_I32), count))
        finally:
            self.lib.kindred_side_free(s)
        return a, b, c, ans

    def fit(self, algorithm, x, k, side=None, seed=0, **options):
        m = C.c_void_p()
        self.check(self.lib.kindred_model_new(C.byref(m), algorithm.encode()))
        try:
            self.check(self.lib.kindred_model_set_int(m, b"k", k))
            self.check(self.lib.kindred_model_set_int(m, b"seed", seed))
            self.check(self.lib.kindred_model_set_int(m, b"threads", self.threads))
            for name, value in options.items():
                self.check(self.lib.kindred_model_set_double(m, name.encode(), float(value)))
            n, d = x.shape
            self.check(self.lib.kindred_model_fit_dense(m, x.ctypes.data_as(P_F64), n, d, ROW_MAJOR, d, side))
            labels = np.zeros(n, dtype=np.int32)
            self.check(self.lib.kindred_model_labels(m, labels.ctypes.data_as(P_I32), n))
            return labels
        finally:
            self.lib.kindred_model_free(m)

    def fmeasure(self, truth, labels):
        v = C.c_double()
        self.check(self.lib.kindred_metric(b"f-measure", truth.ctypes.data_as(P_I32), labels.ctypes.data_as(P_I32),
                                           len(truth), C.byref(v)))
        return v.value


def load_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [line.strip().split(",") for line in f if line.strip()]
    li = header.index("label")
    x = np.array([[float(v) for j, v in enumerate(r) if j != li] for r in rows])
    names = [r[li] for r in rows]
    classes = sorted(set(names))
    y = np.array([classes.index(v) for v in names], dtype=np.int32)
    sd = x.std(axis=0)
    x = (x - x.mean(axis=0)) / np.where(sd > 0, sd, 1.0)  # the paper standardises every feature
    return np.ascontiguousarray(x), y, len(classes)


def yes_no_pairs(a, b, c, ans):
    """One must-link and one cannot-link per yes / no triplet (section V-B2)."""
    yes, no = ans == 1, ans == -1
    ml_i = np.concatenate([a[yes], a[no]]); ml_j = np.concatenate([b[yes], c[no]])
    cl_i = np.concatenate([a[yes], a[no]]); cl_j = np.concatenate([c[yes], b[no]])
    i = np.concatenate([ml_i, cl_i]); j = np.concatenate([ml_j, cl_j])
    v = np.concatenate([np.ones(len(ml_i)), -np.ones(len(cl_i))])
    return i, j, v


def mean_ci(values):
    v = np.array(values, dtype=float)
    if len(v) == 0:
        return "   -   "
    half = 1.96 * v.std(ddof=1) / np.sqrt(len(v)) if len(v) > 1 else 0.0
    return "%.3f±%.3f" % (v.mean(), half)


# Section V-B2: "we search for the optimal tau in {0.5, 1, 1.5} and lambda in
# {2^-10, 2^-8, 2^-6, 2^-4, 2^-2}"; epsilon stays at 0.05 (kindred's default).
TAU_GRID = (0.5, 1.0, 1.5)
LAMBDA_GRID = tuple(2.0 ** e for e in (-10, -8, -6, -4, -2))
DEFAULT = (1.0, 2.0 ** -6)
CV_FOLDS = 5


def grid_in_tie_order():
    """The 15 grid points, nearest the default (tau 1, lambda 2^-6) first, so
    that np.argmax (first maximum) breaks ties towards the default."""
    points = [(t, l) for t in TAU_GRID for l in LAMBDA_GRID]
    return sorted(points, key=lambda p: (abs(p[0] - DEFAULT[0]) / 0.5 + abs(np.log2(p[1] / DEFAULT[1])) / 2,
                                         p[0], p[1]))


def predict_answers(labels, a, b, c):
    """Eq. (1) applied to cluster labels: yes (1) if y_a = y_b != y_c, no (-1)
    if y_a = y_c != y_b, don't know (0) otherwise."""
    la, lb, lc = labels[a], labels[b], labels[c]
    out = np.zeros(len(a), dtype=np.int32)
    out[(la == lb) & (la != lc)] = 1
    out[(la == lc) & (la != lb)] = -1
    return out


def select_by_cv(kd, x, k, n, triplets, folds, seed):
    """Five-fold cross-validation of section V-B2 on constraint prediction
    accuracy. `folds` gives each triplet's fold (the same for DCRC and
    DCRC-YN; the caller drops dnk triplets for DCRC-YN, from both sides).
    Returns (tau, lambda), its mean validation accuracy."""
    a, b, c, ans = triplets
    # Fit once per (fold, grid point); the sides do not depend on the grid point.
    sides = []
    for f in range(CV_FOLDS):
        train, held = folds != f, folds == f
        sides.append((kd.side(n, triplets=(a[train], b[train], c[train], ans[train])), held))
    grid = grid_in_tie_order()
    means = []
    try:
        for tau, lam in grid:
            acc = []
            for side, held in sides:
                if not held.any():
                    continue  # a fold with no held-out triplet (tiny samples after dropping dnk)
                labels = kd.fit("dcrc", x, k, side, seed=seed, tau=tau, **{"lambda": lam})
                acc.append(np.mean(predict_answers(labels, a[held], b[held], c[held]) == ans[held]))
            means.append(np.mean(acc) if acc else 0.0)
    finally:
        for side, _ in sides:
            kd.lib.kindred_side_free(side)
    best = int(np.argmax(means))
    return grid[best], means[best]


def assign_folds(count, seed):
    """Each triplet's fold in 0..4: a random permutation cut into five near-equal parts."""
    folds = np.empty(count, dtype=np.int64)
    order = np.random.default_rng(seed).permutation(count)
    for f, part in enumerate(np.array_split(order, CV_FOLDS)):
        folds[part] = f
    return folds


def figure4_methods(kd):
    pairwise = [a for a in ("copkmeans", "pckmeans", "mpckmeans") if a in kd.algorithms]
    return ["dcrc", "dcrc-yn", "kmeans"] + pairwise


def figure4_run(kd, x, y, k, frac, r, methods, tune):
    """One run r at one size: every method on the same triplet sample. Returns
    a record (JSON-ready): scores per method (None = failed), the dnk share and,
    with --tune cv, the chosen (tau, log2 lambda) and validation accuracy.
    Deterministic in (data set, frac, r): runs can be computed in any order or
    in separate processes and merged (--save-runs / --from-runs)."""
    n = len(y)
    count = int(round(frac * n))
    seed = 1000 * r + int(frac * 100)
    a, b, c, ans = kd.sample_triplets(y, count, seed)
    keep = ans != 0
    record = {"frac": frac, "run": r, "count": count, "dnk": float(np.mean(ans == 0)),
              "scores": {}, "chosen": {}, "cv_acc": {}}
    params = {"dcrc": {}, "dcrc-yn": {}}
    if tune == "cv":
        folds = assign_folds(count, seed)
        for m, sel in (("dcrc", np.ones(count, dtype=bool)), ("dcrc-yn", keep)):
            (tau, lam), acc = select_by_cv(kd, x, k, n, (a[sel], b[sel], c[sel], ans[sel]), folds[sel], r)
            params[m] = {"tau": tau, "lambda": lam}
            record["chosen"][m] = [tau, int(round(np.log2(lam)))]
            record["cv_acc"][m] = float(acc)
    sides = {
        "dcrc": kd.side(n, triplets=(a, b, c, ans)),
        "dcrc-yn": kd.side(n, triplets=(a[keep], b[keep], c[keep], ans[keep])),
        "kmeans": None,
    }
    pair_side = kd.side(n, pairs=yes_no_pairs(a, b, c, ans))
    try:
        for m in methods:
            side = sides.get(m, pair_side)
            alg = "dcrc" if m.startswith("dcrc") else m
            try:
                labels = kd.fit(alg, x, k, side, seed=r, **params.get(m, {}))
                record["scores"][m] = kd.fmeasure(y, labels)
            except RuntimeError:
                record["scores"][m] = None
    finally:
        for s in list(sides.values()) + [pair_side]:
            if s is not None:
                kd.lib.kindred_side_free(s)
    return record


def figure4_row(records, methods, tune):
    """One table row from the records of one size (any number of runs)."""
    runs = len(records)
    scores = {m: [rec["scores"][m] for rec in records if rec["scores"].get(m) is not None] for m in methods}
    failures = {m: sum(1 for rec in records if rec["scores"].get(m, 0) is None) for m in methods}
    cells = [mean_ci(scores[m]) + (" (%d failed)" % failures[m] if failures[m] else "") for m in methods]
    if tune == "cv":
        modes = []
        for m in ("dcrc", "dcrc-yn"):
            values, counts = np.unique(np.array([rec["chosen"][m] for rec in records]), axis=0, return_counts=True)
            tau, e = values[int(np.argmax(counts))]
            modes.append("%g, %d (%d/%d)" % (tau, e, counts.max(), runs))
        # Same triplet sample and seed for both in each run: the paired difference.
        diff = np.array([rec["scores"]["dcrc"] - rec["scores"]["dcrc-yn"] for rec in records])
        half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else 0.0
        cells += ["%+.3f±%.3f" % (diff.mean(), half), " / ".join(modes),
                  "%.2f / %.2f" % (np.mean([rec["cv_acc"]["dcrc"] for rec in records]),
                                   np.mean([rec["cv_acc"]["dcrc-yn"] for rec in records]))]
    frac, count = records[0]["frac"], records[0]["count"]
    dnk = np.mean([rec["dnk"] for rec in records])
    return "| %d (%.2fN) | %.2f | %s |" % (count, frac, dnk, " | ".join(cells))


def figure4_header(methods, runs, tune):
    print("## Figure 4 protocol: pairwise F-measure, mean ± 95%% CI over %s runs" % runs)
    print("methods: %s; pairwise methods get 1 ML + 1 CL per yes/no triplet" % ", ".join(methods))
    if tune == "cv":
        print("DCRC and DCRC-YN: tau, lambda by five-fold CV on constraint prediction accuracy (section V-B2);"
              " 'chosen' = most frequent (tau, log2 lambda) over the runs, DCRC / DCRC-YN; 'cv acc' = mean"
              " validation accuracy of the chosen point, DCRC / DCRC-YN; 'paired' = mean ± 95% CI of the per-run"
              " difference (same triplets, same seed)")


def figure4_table(name, shape, records, methods, tune):
    n, d, k = shape
    print("\n### %s (n = %d, d = %d, K = %d)\n" % (name, n, d, k))
    extra = " dcrc - dcrc-yn (paired) | chosen | cv acc |" if tune == "cv" else ""
    print("| triplets | dnk share | " + " | ".join(methods) + " |" + extra)
    print("|---:|---:|" + "---:|" * len(methods) + ("---:|---|---|" if extra else ""))
    for frac in sorted({rec["frac"] for rec in records}):
        rows = sorted((rec for rec in records if rec["frac"] == frac), key=lambda rec: rec["run"])
        print(figure4_row(rows, methods, tune) + ("  <!-- runs %s -->" % compact_runs([rec["run"] for rec in rows])
                                                  if len(rows) != rows[-1]["run"] + 1 else ""))


def compact_runs(runs):
    return ",".join(str(r) for r in runs)


def figure4(kd, data_dir, datasets, run_ids, tune="fixed", sizes=(0.05, 0.10, 0.15, 0.20, 0.25, 0.30),
            save_path=None):
    """Runs are the outer loop (every size of run r before run r + 1), so that a
    run stopped early leaves whole runs behind in --save-runs."""
    methods = figure4_methods(kd)
    figure4_header(methods, len(run_ids), tune)
    for name in datasets:
        x, y, k = load_csv(os.path.join(data_dir, name + ".csv"))
        t0 = time.time()
        records = []
        for r in run_ids:
            for frac in sizes:
                rec = figure4_run(kd, x, y, k, frac, r, methods, tune)
                records.append(rec)
                if save_path:
                    with open(save_path, "a") as out:
                        out.write(json.dumps(dict(rec, dataset=name, tune=tune, shape=[len(y), x.shape[1], k])) + "\n")
        figure4_table(name, (len(y), x.shape[1], k), records, methods, tune)
        print("\n(%.0f s)" % (time.time() - t0))
        sys.stdout.flush()


def figure4_from_runs(paths, tune):
    """Tables from the records of earlier --save-runs files (one table per data
    set; a record seen twice, same data set, size and run, is counted once)."""
    seen, by_set = set(), {}
    for path in paths:
        with open(path) as f:
            for line in f:
                rec = json.loads(line)
                key = (rec["dataset"], rec["frac"], rec["run"])
                if rec["tune"] != tune or key in seen:
                    continue
                seen.add(key)
                by_set.setdefault(rec["dataset"], []).append(rec)
    methods = None
    for name, records in by_set.items():
        if methods is None:
            methods = [m for m in ("dcrc", "dcrc-yn", "kmeans", "copkmeans", "pckmeans", "mpckmeans")
                       if m in records[0]["scores"]]
            figure4_header(methods, "the listed", tune)
        figure4_table(name, records[0]["shape"], records, methods, tune)


# Table IV(a): average confusion of the human answers (columns) given the
# answer eq. (1) gives (rows), order yes, no, dnk.
TABLE_IV_A = np.array([[18.50, 0.33, 4.83], [0.33, 16.50, 4.50], [3.50, 3.00, 98.50]])


def noisy_answers(ans, rng):
    code = {1: 0, -1: 1, 0: 2}
    value = np.array([1, -1, 0], dtype=np.int32)
    p = TABLE_IV_A / TABLE_IV_A.sum(axis=1, keepdims=True)
    out = ans.copy()
    for t, a in enumerate(ans):
        out[t] = value[rng.choice(3, p=p[code[int(a)]])]
    return out


def noise_study(kd, data_dir, datasets, runs, epsilons=(0.0, 0.05, 0.15, 0.3, 0.5)):
    p = TABLE_IV_A / TABLE_IV_A.sum(axis=1, keepdims=True)
    print("## Noisy answers: Table IV(a) confusion, 0.2N triplets, mean ± 95%% CI over %d runs" % runs)
    print("P(given answer | true answer), rows/columns yes, no, dnk: %s" %
          "; ".join(", ".join("%.3f" % v for v in row) for row in p))
    for name in datasets:
        x, y, k = load_csv(os.path.join(data_dir, name + ".csv"))
        n = len(y)
        count = int(round(0.2 * n))
        cols = ["eps=%g" % e for e in epsilons]
        print("\n### %s (n = %d, K = %d, %d triplets)\n" % (name, n, k, count))
        print("| answers | wrong answers | " + " | ".join(cols) + " | kmeans |")
        print("|---|---:|" + "---:|" * (len(cols) + 1))
        for noisy in (False, True):
            scores = {e: [] for e in epsilons}
            km, wrong = [], []
            for r in range(runs):
                a, b, c, ans = kd.sample_triplets(y, count, 5000 + r)
                if noisy:
                    given = noisy_answers(ans, np.random.default_rng(r))
                else:
                    given = ans
                wrong.append(np.mean(given != ans))
                side = kd.side(n, triplets=(a, b, c, given))
                for e in epsilons:
                    scores[e].append(kd.fmeasure(y, kd.fit("dcrc", x, k, side, seed=r, epsilon=e)))
                kd.lib.kindred_side_free(side)
                km.append(kd.fmeasure(y, kd.fit("kmeans", x, k, None, seed=r)))
            print("| %s | %.2f | %s | %s |" % ("Table IV(a) noise" if noisy else "noise-free", np.mean(wrong),
                                              " | ".join(mean_ci(scores[e]) for e in epsilons), mean_ci(km)))
            sys.stdout.flush()


def sensitivity(kd, data_dir, datasets, runs,
                grid=((1.0, 2 ** -6), (0.5, 2 ** -6), (0.5, 2 ** -10), (1.0, 2 ** -10), (1.5, 2 ** -10))):
    """DCRC and DCRC-YN for a few (tau, lambda) of the paper's grid, at 0.1N and 0.3N."""
    print("## Sensitivity to tau and lambda: mean F-measure DCRC / DCRC-YN over %d runs" % runs)
    print("\n| data | triplets | " + " | ".join("tau %g, lambda 2^%d" % (t, round(np.log2(l))) for t, l in grid) + " |")
    print("|---|---:|" + "---|" * len(grid))
    for name in datasets:
        x, y, k = load_csv(os.path.join(data_dir, name + ".csv"))
        n = len(y)
        for frac in (0.1, 0.3):
            samples = [kd.sample_triplets(y, int(frac * n), 1000 * r + int(frac * 100)) for r in range(runs)]
            cells = []
            for tau, lam in grid:
                fs, fy = [], []
                for r, (a, b, c, ans) in enumerate(samples):
                    keep = ans != 0
                    s_all = kd.side(n, triplets=(a, b, c, ans))
                    s_yn = kd.side(n, triplets=(a[keep], b[keep], c[keep], ans[keep]))
                    opts = {"tau": tau, "lambda": lam}
                    fs.append(kd.fmeasure(y, kd.fit("dcrc", x, k, s_all, seed=r, **opts)))
                    fy.append(kd.fmeasure(y, kd.fit("dcrc", x, k, s_yn, seed=r, **opts)))
                    kd.lib.kindred_side_free(s_all)
                    kd.lib.kindred_side_free(s_yn)
                cells.append("%.3f / %.3f" % (np.mean(fs), np.mean(fy)))
            print("| %s | %d (%.1fN) | %s |" % (name, int(frac * n), frac, " | ".join(cells)))
            sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data"))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--datasets", default="ionosphere,pima,balance,digits389,letters_ijlt")
    ap.add_argument("--noise-datasets", default="ionosphere,balance,letters_ijlt")
    ap.add_argument("--study", default="all", choices=["figure4", "noise", "sensitivity", "all"])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--tune", default="fixed", choices=["fixed", "cv"],
                    help="figure4: DCRC's tau / lambda fixed at the defaults, or chosen by the paper's 5-fold CV")
    ap.add_argument("--sizes", default="0.05,0.1,0.15,0.2,0.25,0.3",
                    help="figure4: numbers of triplets as fractions of N")
    ap.add_argument("--first-run", type=int, default=0,
                    help="figure4: compute runs first-run .. first-run + runs - 1 (runs are deterministic)")
    ap.add_argument("--save-runs", metavar="FILE.jsonl",
                    help="figure4: append every run's record to FILE (to merge runs made in several processes)")
    ap.add_argument("--from-runs", metavar="F1,F2",
                    help="figure4: print the tables from saved records instead of computing")
    args = ap.parse_args()
    if args.from_runs:
        figure4_from_runs(args.from_runs.split(","), args.tune)
        return
    kd = Kindred(args.build, args.threads)
    if args.study in ("figure4", "all"):
        figure4(kd, args.data, args.datasets.split(","), list(range(args.first_run, args.first_run + args.runs)),
                args.tune, [float(v) for v in args.sizes.split(",")], args.save_runs)
    if args.study in ("noise", "all"):
        print()
        noise_study(kd, args.data, args.noise_datasets.split(","), args.runs)
    if args.study == "sensitivity":
        sensitivity(kd, args.data, args.datasets.split(","), args.runs)


if __name__ == "__main__":
    main()
