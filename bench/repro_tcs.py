#!/usr/bin/python3
"""Reproduction of Gopal & Yang (2014), TCS-GM: Figure 1 and the protocol of Tables 3 / 4.

Figure 1: six bimodal Gaussians along x (generated here, 300 points each); GM clusters the
points of clusters 1-3 alone; TCS-GM learns A from clusters 4-6 and clusters 1-3 in the
transformed space. NMI of both.

Tables 3 / 4 protocol (section 4.3): for each restart the classes of a data set are split at
random into training (revealed as partial labels), validation (also labelled; used by
TCS-GM / TCS-GM-L2 to pick gamma on the grid by NMI, option validation_classes) and test
classes (unlabelled; clustered into as many clusters as test classes and scored by NMI).
GM is kindred's shared-spherical GM on the test points after the same preprocessing
(tcs-gm with learn_transform = 0: SVD to 30 dimensions when d > 200, as in section 4.2).
Split sizes (not given in the paper): test = max(2, round(C/3)), validation =
max(2, round(C/6)), training = the rest. Each method uses 10 k-means++ restarts of its
mixture and keeps the best likelihood (--n-init). --max-iter sets tcs-gm's FISTA iterations.

usage: /usr/bin/python3 bench/repro_tcs.py [--build build] [--data ../shared/data]
                                           [--restarts 50] [--sets vowel,segmentation,...]
                                           [--max-iter N] [--n-init 10] [--skip-figure1]
"""
import argparse
import ctypes
import os
import sys
import time

import numpy as np

ROW_MAJOR = 101
VP = ctypes.c_void_p

# Paper, Table 3 (unnormalised data): TCS-GM, TCS-GM-L2, GM; Table 4 (text, normalised): TCS-VM, VM.
PAPER = {
    "vowel": ("Vowel", 0.41, 0.39, 0.25),
    "segmentation": ("Image", 0.84, 0.40, 0.78),
    "libras": ("Libras", 0.61, 0.64, 0.51),
    "letter": ("Letter", 0.48, 0.50, 0.35),
    "pendigits": ("Penbased", 0.56, 0.60, 0.52),
    "optdigits": ("Optrec", 0.94, 0.73, 0.91),
    "cnae9": ("CNAE", 0.61, 0.24, 0.48),
}

# Table 4 (normalised text data): TCS-VM, VM.
PAPER_VM = {"cnae9": (0.905, 0.857)}


class Kindred:
    def __init__(self, build):
        path = os.path.join(build, "src", "libkindred.so")
        self.lib = ctypes.CDLL(path)
        self.lib.kindred_last_error.restype = ctypes.c_char_p

    def check(self, status):
        if status != 0:
            raise RuntimeError(self.lib.kindred_last_error().decode())

    def fit(self, algorithm, x, partial=None, **options):
        lib = self.lib
        model = VP()
        self.check(lib.kindred_model_new(ctypes.byref(model), algorithm.encode()))
        side = VP()
        try:
            for name, value in options.items():
                self.check(lib.kindred_model_set_string(model, name.encode(), str(value).encode()))
            x = np.ascontiguousarray(x, dtype=np.float64)
            n, d = x.shape
            if partial is not None:
                self.check(lib.kindred_side_new(ctypes.byref(side), ctypes.c_int64(n)))
                p = np.ascontiguousarray(partial, dtype=np.int32)
                self.check(lib.kindred_side_set_partial_labels(side, p.ctypes.data_as(VP), ctypes.c_int64(n)))
            self.check(lib.kindred_model_fit_dense(model, x.ctypes.data_as(VP), ctypes.c_int64(n), ctypes.c_int64(d),
                                                   ROW_MAJOR, ctypes.c_int64(d), side))
            labels = np.zeros(n, dtype=np.int32)
            self.check(lib.kindred_model_labels(model, labels.ctypes.data_as(VP), ctypes.c_int64(n)))
            return labels
        finally:
            lib.kindred_side_free(side)
            lib.kindred_model_free(model)

    def nmi(self, truth, predicted):
        t = np.ascontiguousarray(truth, dtype=np.int32)
        p = np.ascontiguousarray(predicted, dtype=np.int32)
        v = ctypes.c_double()
        self.check(self.lib.kindred_metric(b"nmi", t.ctypes.data_as(VP), p.ctypes.data_as(VP),
                                           ctypes.c_int64(len(t)), ctypes.byref(v)))
        return v.value


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [line.strip().split(",") for line in f if line.strip()]
    li = header.index("label")
    x = np.array([[float(v) for j, v in enumerate(r) if j != li] for r in rows], dtype=np.float64)
    index = {}
    y = np.array([index.setdefault(r[li], len(index)) for r in rows], dtype=np.int32)
    return x, y


def figure1(k):
    rng = np.random.default_rng(1)
    per = 300
    x = np.zeros((6 * per, 2))
    y = np.repeat(np.arange(6), per).astype(np.int32)
    for c in range(6):
        i = np.arange(per)
        x[c * per:(c + 1) * per, 0] = c + 0.15 * rng.standard_normal(per)
        x[c * per:(c + 1) * per, 1] = np.where(i % 2, 1.5, -1.5) + 0.2 * rng.standard_normal(per)
    test = y < 3
    gm = k.fit("gmm", x[test], k=3, n_init=10)
    partial = np.where(y >= 3, y, -1)
    rows = []
    for reg, g in (("frobenius-identity", 3e-5), ("frobenius", 1e-3)):
        lab = k.fit("tcs-gm", x, partial, k=3, gamma=g, regularizer=reg)
        rows.append((reg, g, k.nmi(y[test], lab[test])))
    print("## Figure 1 (six bimodal Gaussians, 300 points each; train on clusters 4-6, cluster 1-3)\n")
    print("| method | NMI on clusters 1-3 |")
    print("|---|---:|")
    print("| GM (raw points of clusters 1-3) | %.3f |" % k.nmi(y[test], gm))
    for reg, g, v in rows:
        print("| TCS-GM, %s, gamma = %g | %.3f |" % (reg, g, v))
    print()


def split_sizes(c):
    test = max(2, int(round(c / 3.0)))
    val = max(2, int(round(c / 6.0)))
    return c - test - val, val, test


TEXT = {"cnae9"}


def protocol(k, name, x, y, restarts, seed0, max_iter=None, n_init=10):
    c = int(y.max()) + 1
    n_train, n_val, n_test = split_sizes(c)
    common = dict(k=n_test, n_init=n_init)
    learn = dict(max_iter=max_iter) if max_iter else {}  # FISTA iterations of tcs-gm (library default: 500)
    scores = {"GM": [], "TCS-GM": [], "TCS-GM-L2": [], "VM": [], "TCS-VM": []}
    t0 = time.process_time()
    for r in range(restarts):
        rng = np.random.default_rng(seed0 + r)
        perm = rng.permutation(c)
        labelled = perm[:n_train + n_val]
        is_lab = np.isin(y, labelled)
        partial = np.where(is_lab, y, -1).astype(np.int32)
        test = ~is_lab
        seed = seed0 + r
        lab = k.fit("tcs-gm", x, partial, learn_transform=0, seed=seed, **common)
        scores["GM"].append(k.nmi(y[test], lab[test]))
        for method, reg in (("TCS-GM", "frobenius-identity"), ("TCS-GM-L2", "frobenius")):
            lab = k.fit("tcs-gm", x, partial, regularizer=reg, validation_classes=n_val, seed=seed, **common, **learn)
            scores[method].append(k.nmi(y[test], lab[test]))
        if name in TEXT:
            # Table 4: vMF models on the unit sphere (G(x) = Lx/|Lx|), same SVD reduction.
            lab = k.fit("tcs-vmf", x, partial, learn_transform=0, seed=seed, **common)
            scores["VM"].append(k.nmi(y[test], lab[test]))
            lab = k.fit("tcs-vmf", x, partial, validation_classes=n_val, seed=seed, **common)
            scores["TCS-VM"].append(k.nmi(y[test], lab[test]))
    # Process CPU seconds per restart (all three / five fits; the wall clock is noisy on a shared machine).
    stats = {m: (np.mean(v), np.std(v)) for m, v in scores.items() if v}
    # Paired differences against the baseline on the same splits: mean, its standard error, wins.
    for m, base in (("TCS-GM", "GM"), ("TCS-GM-L2", "GM"), ("TCS-VM", "VM")):
        if scores[m]:
            diff = np.array(scores[m]) - np.array(scores[base])
            se = np.std(diff, ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else float("nan")
            stats[m + "-" + base] = (np.mean(diff), se, int(np.sum(diff > 0)), int(np.sum(diff < 0)))
    return (c, n_train, n_val, n_test), stats, (time.process_time() - t0) / restarts


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(here, "..", "build"))
    ap.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data"))
    ap.add_argument("--restarts", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-iter", type=int, default=0, help="tcs-gm max_iter (0: the library's default)")
    ap.add_argument("--n-init", type=int, default=10, help="k-means++ restarts of every mixture (best likelihood kept)")
    ap.add_argument("--skip-figure1", action="store_true")
    ap.add_argument("--sets", default="vowel,segmentation,libras,cnae9,optdigits,pendigits,letter")
    args = ap.parse_args()
    k = Kindred(args.build)
    if not args.skip_figure1:
        figure1(k)
    print("## Tables 3 / 4 protocol: NMI on the test classes, mean +- sd over %d restarts (paper: 50)\n" % args.restarts)
    print("| data (paper name) | n x d | classes train/val/test | GM | TCS-GM | TCS-GM-L2 | paper GM | paper TCS-GM | paper TCS-GM-L2 | CPU s / restart |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    vm_rows, paired_rows = [], []
    for name in args.sets.split(","):
        path = os.path.join(args.data, name + ".csv")
        if not os.path.exists(path):
            print("| %s | missing | | | | | | | | |" % name)
            continue
        x, y = read_csv(path)
        sizes, s, secs = protocol(k, name, x, y, args.restarts, args.seed, args.max_iter, args.n_init)
        paper = PAPER.get(name, (name, float("nan"), float("nan"), float("nan")))
        print("| %s (%s) | %d x %d | %d/%d/%d | %.3f +- %.3f | %.3f +- %.3f | %.3f +- %.3f | %.2f | %.2f | %.2f | %.1f |" % (
            name, paper[0], x.shape[0], x.shape[1], sizes[1], sizes[2], sizes[3],
            s["GM"][0], s["GM"][1], s["TCS-GM"][0], s["TCS-GM"][1], s["TCS-GM-L2"][0], s["TCS-GM-L2"][1],
            paper[3], paper[1], paper[2], secs))
        paired_rows.append("| %s | %d | %s |" % (name, args.restarts, " | ".join(
            "%+.3f +- %.3f (%d / %d)" % s[m] for m in ("TCS-GM-GM", "TCS-GM-L2-GM"))))
        if "VM" in s:
            vm_rows.append("| %s (%s) | %.3f +- %.3f | %.3f +- %.3f | %.3f | %.3f |" % (
                name, paper[0], s["VM"][0], s["VM"][1], s["TCS-VM"][0], s["TCS-VM"][1],
                PAPER_VM[name][1], PAPER_VM[name][0]) + " %+.3f +- %.3f (%d / %d) |" % s["TCS-VM-VM"])
        sys.stdout.flush()
    print("\n## Paired differences on the same splits: mean +- standard error (restarts better / worse)\n")
    print("| data | restarts | TCS-GM - GM | TCS-GM-L2 - GM |")
    print("|---|---:|---:|---:|")
    print("\n".join(paired_rows))
    if vm_rows:
        print("\n## Table 4 protocol (text, vMF models): NMI on the test classes, same splits and restarts\n")
        print("| data (paper name) | VM | TCS-VM | paper VM | paper TCS-VM | TCS-VM - VM, paired |")
        print("|---|---:|---:|---:|---:|---:|")
        print("\n".join(vm_rows))


if __name__ == "__main__":
    main()
