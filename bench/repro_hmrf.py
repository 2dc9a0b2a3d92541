#!/usr/bin/python3
"""Learning curves of HMRF-KMeans (Basu, Bilenko, Banerjee & Mooney, figures
3.6-3.17): NMI on the test fold against the number of pairwise constraints
from the training fold, for the ablations KMEANS, KMEANS-C, KMEANS-C-D and
KMEANS-C-D-R of section 3.5.3, all through libkindred's `mpckmeans` with
options (constraints / learn_metric / prior), plus pckmeans / copkmeans and
Explore/Consolidate active selection against random pairs.

Protocol (section 3.5.3): in every run the points are split at random into
two halves; constraints are random pairs of training points labelled
must-link / cannot-link from the classes, with unit weights, and the
constraints they imply (transitive closure of the must-links, cannot-links
between the components they join: "unit constraint costs W were used for all
constraints (original and inferred)"; --no-inferred turns this off); the
x axis counts the sampled pairs; the algorithm clusters the whole data set;
NMI is computed on the test half only.

usage: /usr/bin/python3 bench/repro_hmrf.py [--build build-dir] [--data ../shared/data]
           [--runs 20] [--points 0,100,250,500,1000] [--sets iris,wine,...] [--active] [--no-inferred]

Needs numpy and scipy (Debian python3-numpy, python3-scipy) and a built
libkindred (meson setup build && ninja -C build).
"""
import argparse
import ctypes
import os
import sys
import time

import numpy as np

ROW_MAJOR = 101


class Kindred:
    def __init__(self, build):
        for name in ("src/libkindred.so", "src/libkindred.so.0"):
            path = os.path.join(build, name)
            if os.path.exists(path):
                self.lib = ctypes.CDLL(path)
                break
        else:
            raise SystemExit("libkindred not found under %s/src: build it first" % build)
        L = self.lib
        vp, i64, dbl, cp = ctypes.c_void_p, ctypes.c_int64, ctypes.c_double, ctypes.c_char_p
        L.kindred_last_error.restype = cp
        L.kindred_model_new.argtypes = [ctypes.POINTER(vp), cp]
        L.kindred_model_free.argtypes = [vp]
        L.kindred_model_set_int.argtypes = [vp, cp, i64]
        L.kindred_model_set_double.argtypes = [vp, cp, dbl]
        L.kindred_model_set_string.argtypes = [vp, cp, cp]
        L.kindred_model_fit_dense.argtypes = [vp, vp, i64, i64, ctypes.c_int, i64, vp]
        L.kindred_model_fit_csr.argtypes = [vp, i64, i64, vp, vp, vp, vp]
        L.kindred_model_labels.argtypes = [vp, vp, i64]
        L.kindred_side_new.argtypes = [ctypes.POINTER(vp), i64]
        L.kindred_side_free.argtypes = [vp]
        L.kindred_side_add_pairs.argtypes = [vp, vp, vp, vp, i64]
        L.kindred_side_counts.argtypes = [vp, vp, vp, vp, vp]
        L.kindred_side_pairs.argtypes = [vp, vp, vp, vp, i64]
        L.kindred_metric.argtypes = [cp, vp, vp, i64, ctypes.POINTER(dbl)]
        self.oracle_type = ctypes.CFUNCTYPE(ctypes.c_int, vp, i64, i64)
        L.kindred_active_options_new.argtypes = [ctypes.POINTER(vp)]
        L.kindred_active_options_free.argtypes = [vp]
        L.kindred_active_options_set_string.argtypes = [vp, cp, cp]
        L.kindred_active_options_set_int.argtypes = [vp, cp, i64]
        L.kindred_active_select.argtypes = [vp, vp, i64, i64, ctypes.c_int, i64, self.oracle_type, vp, vp]

    def check(self, status):
        if status != 0:
            raise RuntimeError(self.lib.kindred_last_error().decode())

    def side(self, n, pairs):
        s = ctypes.c_void_p()
        self.check(self.lib.kindred_side_new(ctypes.byref(s), n))
        if len(pairs):
            i = np.ascontiguousarray(pairs[:, 0], dtype=np.int64)
            j = np.ascontiguousarray(pairs[:, 1], dtype=np.int64)
            v = np.ascontiguousarray(pairs[:, 2], dtype=np.float64)
            self.check(self.lib.kindred_side_add_pairs(s, i.ctypes.data, j.ctypes.data, v.ctypes.data, len(i)))
        return s

    def fit(self, data, algorithm, options, pairs):
        # The papers' procedures, not the library's defaults: pairs point-wise
        # (no propagation), one start, unit weights in absolute units, the
        # violated pairs in the metric update, and the distortion named (the
        # diagonal one unless the table says otherwise).
        if algorithm in PAPER_SETTINGS:
            options = dict(PAPER_SETTINGS[algorithm], **options)
        L = self.lib
        m = ctypes.c_void_p()
        self.check(L.kindred_model_new(ctypes.byref(m), algorithm.encode()))
        try:
            for key, value in options.items():
                if isinstance(value, str):
                    self.check(L.kindred_model_set_string(m, key.encode(), value.encode()))
                elif isinstance(value, float):
                    self.check(L.kindred_model_set_double(m, key.encode(), value))
                else:
                    self.check(L.kindred_model_set_int(m, key.encode(), int(value)))
            n = data.shape[0]
            s = self.side(n, pairs)
            try:
                if isinstance(data, np.ndarray):
                    x = np.ascontiguousarray(data, dtype=np.float64)
                    self.check(L.kindred_model_fit_dense(m, x.ctypes.data, n, x.shape[1], ROW_MAJOR, x.shape[1], s))
                else:
                    ip = np.ascontiguousarray(data.indptr, dtype=np.int64)
                    ix = np.ascontiguousarray(data.indices, dtype=np.int64)
                    vv = np.ascontiguousarray(data.data, dtype=np.float64)
                    self.check(L.kindred_model_fit_csr(m, n, data.shape[1], ip.ctypes.data, ix.ctypes.data,
                                                       vv.ctypes.data, s))
            finally:
                L.kindred_side_free(s)
            labels = np.zeros(n, dtype=np.int32)
            self.check(L.kindred_model_labels(m, labels.ctypes.data, n))
            return labels
        finally:
            L.kindred_model_free(m)

    def nmi(self, truth, predicted):
        v = ctypes.c_double()
        a = np.ascontiguousarray(truth, dtype=np.int32)
        b = np.ascontiguousarray(predicted, dtype=np.int32)
        self.check(self.lib.kindred_metric(b"nmi", a.ctypes.data, b.ctypes.data, len(a), ctypes.byref(v)))
        return v.value

    def active_pairs(self, strategy, x, y, k, budget, seed):
        """Pairs among the rows of x chosen by kindred_active_select, answered from y."""
        n, d = x.shape

        def answer(_user, i, j):
            return 1 if y[i] == y[j] else -1

        cb = self.oracle_type(answer)
        s = self.side(n, np.zeros((0, 3)))
        try:
            xx = np.ascontiguousarray(x, dtype=np.float64)
            options = ctypes.c_void_p()
            self.check(self.lib.kindred_active_options_new(ctypes.byref(options)))
            try:
                self.check(self.lib.kindred_active_options_set_string(options, b"strategy", strategy.encode()))
                for name, value in ((b"k", k), (b"budget", budget), (b"seed", seed)):
                    self.check(self.lib.kindred_active_options_set_int(options, name, value))
                self.check(self.lib.kindred_active_select(options, xx.ctypes.data, n, d, ROW_MAJOR, d, cb, None, s))
            finally:
                self.lib.kindred_active_options_free(options)
            count = ctypes.c_int64()
            self.check(self.lib.kindred_side_counts(s, None, ctypes.byref(count), None, None))
            i = np.zeros(count.value, np.int64)
            j = np.zeros(count.value, np.int64)
            v = np.zeros(count.value)
            self.check(self.lib.kindred_side_pairs(s, i.ctypes.data, j.ctypes.data, v.ctypes.data, count.value))
            return np.stack([i, j, v], axis=1) if count.value else np.zeros((0, 3))
        finally:
            self.lib.kindred_side_free(s)


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [line.strip().split(",") for line in f if line.strip()]
    li = header.index("label")
    x = np.array([[float(v) for j, v in enumerate(r) if j != li] for r in rows])
    index = {}
    y = np.array([index.setdefault(r[li], len(index)) for r in rows], dtype=np.int32)
    return x, y


def read_news(data_dir, name, weighting):
    """Raw counts -> TF-IDF, rows normalised to unit L2 (cosine) or L1 (I-divergence)."""
    import scipy.io
    import scipy.sparse as sp
    counts = sp.csr_matrix(scipy.io.mmread(os.path.join(data_dir, name + ".mtx"))).astype(np.float64)
    with open(os.path.join(data_dir, name + ".labels.txt")) as f:
        names = [line.strip() for line in f if line.strip()]
    index = {}
    y = np.array([index.setdefault(v, len(index)) for v in names], dtype=np.int32)
    n = counts.shape[0]
    df = np.asarray((counts > 0).sum(axis=0)).ravel()
    t = sp.csr_matrix(counts.multiply(np.log(n / np.maximum(df, 1))[None, :]))
    t.eliminate_zeros()
    if weighting == "l2":
        s = np.sqrt(np.asarray(t.multiply(t).sum(axis=1)).ravel())
    else:
        s = np.asarray(t.sum(axis=1)).ravel()
    s[s == 0] = 1.0
    t = sp.csr_matrix(sp.diags(1.0 / s) @ t)
    t.sort_indices()
    return t, y


def random_pairs(y, pool, count, rng):
    seen, out = set(), []
    limit = len(pool) * (len(pool) - 1) // 2
    while len(out) < min(count, limit):
        i, j = rng.choice(pool, 2, replace=False)
        key = (min(i, j), max(i, j))
        if key in seen:
            continue
        seen.add(key)
        out.append((key[0], key[1], 1.0 if y[i] == y[j] else -1.0))
    return np.array(out, dtype=np.float64).reshape(-1, 3)


def with_inferred(pairs):
    """The given pairs plus the constraints they imply (section 3.5.3: "unit
    constraint costs W were used for all constraints (original and
    inferred)"): every pair inside a must-link component is a must-link, and
    every pair across two components joined by a cannot-link is a cannot-link.
    Contradictions (a cannot-link inside a component) cannot occur here: the
    answers come from the classes."""
    if len(pairs) == 0:
        return pairs
    parent = {}

    def find(a):
        parent.setdefault(a, a)
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a
    ends = set(int(v) for v in pairs[:, :2].ravel())
    for i, j, v in pairs:
        if v > 0:
            parent[find(int(i))] = find(int(j))
    members = {}
    for a in ends:
        members.setdefault(find(a), []).append(a)
    out = {}
    for group in members.values():
        group.sort()
        for x in range(len(group)):
            for y in range(x + 1, len(group)):
                out[(group[x], group[y])] = 1.0
    joined = set()
    for i, j, v in pairs:
        if v < 0:
            ri, rj = find(int(i)), find(int(j))
            joined.add((min(ri, rj), max(ri, rj)))
    for ri, rj in joined:
        for a in members[ri]:
            for b in members[rj]:
                out[(min(a, b), max(a, b))] = -1.0
    return np.array([(i, j, v) for (i, j), v in sorted(out.items())], dtype=np.float64).reshape(-1, 3)


PAPER_SETTINGS = {
    "pckmeans": dict(propagation="off", n_init=1, weight_unit="absolute", penalty=1.0, whitening="off",
                     cleaning_rounds=0),
    "mpckmeans": dict(propagation="off", n_init=1, weight_unit="absolute", constraint_weight=1.0,
                      metric_constraints="true", distortion="euclidean-diag", whitening="off", cleaning_rounds=0),
    "copkmeans": dict(order="index", n_init=1, whitening="off"),
}

# The ablations of section 3.5.3 as option sets of mpckmeans.
ABLATIONS = [
    ("KMEANS", "mpckmeans", dict(constraints=0, learn_metric=0)),
    ("KMEANS-C", "mpckmeans", dict(learn_metric=0)),
    ("KMEANS-C-D", "mpckmeans", dict(prior=0)),
    ("KMEANS-C-D-R", "mpckmeans", dict()),
]
EUCLIDEAN_EXTRA = [
    ("C-D full A", "mpckmeans", dict(prior=0, distortion="euclidean-full")),
    ("C-D, phi_max = sum (3.3.3.1)", "mpckmeans", dict(prior=0, phi_max="sum")),
    ("PCKMeans", "pckmeans", dict()),
]

EUCLIDEAN_SETS = ["iris", "wine", "ionosphere", "digits389_10pct", "letters_ijl_10pct"]
TEXT_SETS = ["news_different3", "news_related3", "news_similar3"]


def curve(kd, data, y, k, algorithm, options, points, runs, seed0, active=None, inferred=True):
    n = len(y)
    table = np.zeros((len(points), runs))
    for r in range(runs):
        rng = np.random.default_rng(seed0 + r)
        perm = rng.permutation(n)
        train, test = np.sort(perm[: n // 2]), np.sort(perm[n // 2:])
        for p, count in enumerate(points):
            if active is None:
                pairs = random_pairs(y, train, count, rng) if count else np.zeros((0, 3))
            else:
                sub = active(train, count, seed0 + r) if count else np.zeros((0, 3))
                pairs = sub.copy()
                if len(sub):
                    pairs[:, 0] = train[sub[:, 0].astype(np.int64)]
                    pairs[:, 1] = train[sub[:, 1].astype(np.int64)]
            if inferred:
                pairs = with_inferred(pairs)
            opts = dict(k=k, seed=seed0 + r, threads=1)
            opts.update(options)
            labels = kd.fit(data, algorithm, opts, pairs)
            table[p, r] = kd.nmi(y[test], labels[test])
    return table


def print_table(title, points, rows):
    print("\n" + title)
    print("| method | " + " | ".join(str(p) for p in points) + " |")
    print("|---|" + "---|" * len(points))
    for name, table in rows:
        cells = ["%.3f ± %.3f" % (table[p].mean(), table[p].std(ddof=1) if table.shape[1] > 1 else 0.0)
                 for p in range(len(points))]
        print("| %s | %s |" % (name, " | ".join(cells)))
    sys.stdout.flush()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(here, "..", "build"))
    ap.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data"))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--points", default="0,100,250,500,1000")
    ap.add_argument("--sets", default=",".join(EUCLIDEAN_SETS + TEXT_SETS))
    ap.add_argument("--active", action="store_true", help="also compare Explore/Consolidate with random pairs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-inferred", action="store_true",
                    help="give the algorithms only the sampled pairs, not the constraints they imply")
    args = ap.parse_args()
    kd = Kindred(args.build)
    points = [int(p) for p in args.points.split(",")]
    print("runs = %d, points = %s, two-fold protocol of section 3.5.3, NMI on the test half (mean ± std)"
          % (args.runs, points))
    for name in args.sets.split(","):
        t0 = time.time()
        if name in TEXT_SETS:
            for dist, weighting in (("cosine", "l2"), ("idiv", "l1")):
                x, y = read_news(args.data, name, weighting)
                k = int(y.max()) + 1
                rows = []
                for label, algorithm, options in ABLATIONS:
                    opts = dict(options, distortion=dist)
                    rows.append((label, curve(kd, x, y, k, algorithm, opts, points, args.runs, args.seed,
                                             inferred=not args.no_inferred)))
                print_table("%s, %s (n = %d, d = %d), %.0f s" % (name, dist, x.shape[0], x.shape[1], time.time() - t0),
                            points, rows)
                t0 = time.time()
            continue
        x, y = read_csv(os.path.join(args.data, name + ".csv"))
        k = int(y.max()) + 1
        rows = []
        for label, algorithm, options in ABLATIONS + EUCLIDEAN_EXTRA:
            rows.append((label, curve(kd, x, y, k, algorithm, options, points, args.runs, args.seed,
                                          inferred=not args.no_inferred)))
        if args.active:
            def explore_consolidate(train, budget, seed, x=x, y=y, k=k):
                return kd.active_pairs("explore-consolidate", x[train], y[train], k, budget, seed)
            rows.append(("C-D-R, Explore/Consolidate",
                         curve(kd, x, y, k, "mpckmeans", {}, points, args.runs, args.seed, explore_consolidate,
                               not args.no_inferred)))
            rows.append(("PCKMeans, Explore/Consolidate",
                         curve(kd, x, y, k, "pckmeans", {}, points, args.runs, args.seed, explore_consolidate,
                               not args.no_inferred)))
        print_table("%s, squared Euclidean, diagonal A unless said (n = %d, d = %d), %.0f s"
                    % (name, x.shape[0], x.shape[1], time.time() - t0), points, rows)


if __name__ == "__main__":
    main()
