#!/usr/bin/python3
"""Reproduction of Tables 1-3 and Figure 3 of Khashabi, Wieting, Liu, Liang,
"Clustering With Side Information: From a Probabilistic Model to a
Deterministic Algorithm" (arXiv 1508.06235) with the `kindred` CLI.

Protocol (section 5.2): data sets iris, wine, ecoli, glass, balance; a fraction
r in {0.01, 0.03, 0.05} of all pairs is sampled from the true labels, each
answer flipped with probability 1 - p, p in {1, 0.95, 0.9, 0.8}; five trials
per setting (seeds 0..4, sampling and fit); k-means, DP-means and RDP-means
get the true k (DP-means / RDP-means turn it into lambda by the farthest-first
heuristic); TVClust is given no k. F-measure (pairwise, Bilenko et al. 2004),
ARI and NMI over all points. Figure 3: p = 1, r = 0.03, the number of clusters
declared is k - deviation, deviation in {-3, ..., 3} (k - deviation >= 1).

usage: /usr/bin/python3 bench/repro_rdpmeans.py [--kindred build/tools/kindred/kindred]
           [--data ../shared/data] [--trials 5] [--only tables|figure3] [--tvclust-option NAME=VALUE ...]
           [--rdpmeans-option NAME=VALUE ...] [--algorithms kmeans,dpmeans,rdpmeans,tvclust] [--rate-scale 1]
Prints Markdown tables (ours beside the paper's numbers).
"""
import argparse
import json
import os
import subprocess
import sys

DATASETS = ["iris", "wine", "ecoli", "glass", "balance"]
RATES = [0.01, 0.03, 0.05]
PS = [1.0, 0.95, 0.9, 0.8]
ALGS = ["kmeans", "dpmeans", "rdpmeans", "tvclust"]
NAMES = {"kmeans": "K-means", "dpmeans": "DP-means", "rdpmeans": "RDP-means", "tvclust": "TVClust (Gibbs)"}
METRICS = [("f_measure", "F"), ("ari", "ARI"), ("nmi", "NMI")]

# The paper's numbers (F, AdjRnd, NMI). TVClust in the paper is its variational version.
PAPER_T1 = {
    "kmeans": {"iris": (0.81, 0.71, 0.74), "wine": (0.59, 0.36, 0.42), "ecoli": (0.61, 0.50, 0.63),
               "glass": (0.57, 0.47, 0.71), "balance": (0.47, 0.14, 0.12), "avg": (0.61, 0.44, 0.52)},
    "dpmeans": {"iris": (0.74, 0.57, 0.69), "wine": (0.63, 0.37, 0.44), "ecoli": (0.71, 0.61, 0.64),
                "glass": (0.53, 0.29, 0.45), "balance": (0.31, 0.12, 0.21), "avg": (0.58, 0.39, 0.48)},
    "tvclust": {"iris": (0.91, 0.85, 0.90), "wine": (0.56, 0.45, 0.53), "ecoli": (0.85, 0.79, 0.76),
                "glass": (0.42, 0.22, 0.42), "balance": (0.94, 0.92, 0.91), "avg": (0.74, 0.64, 0.70)},
    "rdpmeans": {"iris": (0.86, 0.80, 0.80), "wine": (0.81, 0.73, 0.72), "ecoli": (0.90, 0.86, 0.82),
                 "glass": (0.82, 0.76, 0.73), "balance": (0.94, 0.92, 0.88), "avg": (0.87, 0.81, 0.79)},
}
PAPER_T2 = {  # p -> (F, ARI, NMI)
    "kmeans": {1.0: (0.61, 0.44, 0.53), 0.95: (0.60, 0.43, 0.52), 0.9: (0.61, 0.43, 0.53), 0.8: (0.61, 0.43, 0.52)},
    "dpmeans": {1.0: (0.58, 0.39, 0.49), 0.95: (0.59, 0.39, 0.48), 0.9: (0.59, 0.40, 0.49), 0.8: (0.58, 0.38, 0.48)},
    "tvclust": {1.0: (0.77, 0.69, 0.74), 0.95: (0.75, 0.66, 0.72), 0.9: (0.73, 0.63, 0.69), 0.8: (0.68, 0.56, 0.64)},
    "rdpmeans": {1.0: (0.93, 0.90, 0.89), 0.95: (0.92, 0.89, 0.87), 0.9: (0.87, 0.82, 0.79), 0.8: (0.75, 0.65, 0.62)},
}
PAPER_T3 = {  # (r, p) -> (F, ARI, NMI)
    "kmeans": {(0.01, 1.0): (0.62, 0.45, 0.53), (0.01, 0.95): (0.62, 0.45, 0.53), (0.01, 0.9): (0.61, 0.44, 0.53), (0.01, 0.8): (0.60, 0.43, 0.52),
               (0.03, 1.0): (0.60, 0.43, 0.52), (0.03, 0.95): (0.60, 0.42, 0.52), (0.03, 0.9): (0.61, 0.44, 0.53), (0.03, 0.8): (0.61, 0.45, 0.53),
               (0.05, 1.0): (0.62, 0.45, 0.54), (0.05, 0.95): (0.59, 0.42, 0.52), (0.05, 0.9): (0.60, 0.43, 0.52), (0.05, 0.8): (0.60, 0.42, 0.51)},
    "dpmeans": {(0.01, 1.0): (0.58, 0.39, 0.48), (0.01, 0.95): (0.59, 0.39, 0.48), (0.01, 0.9): (0.58, 0.38, 0.48), (0.01, 0.8): (0.58, 0.38, 0.48),
                (0.03, 1.0): (0.59, 0.39, 0.49), (0.03, 0.95): (0.58, 0.39, 0.49), (0.03, 0.9): (0.59, 0.39, 0.48), (0.03, 0.8): (0.58, 0.38, 0.47),
                (0.05, 1.0): (0.58, 0.39, 0.49), (0.05, 0.95): (0.59, 0.39, 0.48), (0.05, 0.9): (0.60, 0.42, 0.50), (0.05, 0.8): (0.58, 0.38, 0.48)},
    "tvclust": {(0.01, 1.0): (0.72, 0.62, 0.69), (0.01, 0.95): (0.69, 0.57, 0.65), (0.01, 0.9): (0.66, 0.52, 0.60), (0.01, 0.8): (0.58, 0.43, 0.53),
                (0.03, 1.0): (0.78, 0.70, 0.75), (0.03, 0.95): (0.77, 0.69, 0.74), (0.03, 0.9): (0.76, 0.68, 0.73), (0.03, 0.8): (0.70, 0.59, 0.67),
                (0.05, 1.0): (0.81, 0.74, 0.79), (0.05, 0.95): (0.79, 0.72, 0.77), (0.05, 0.9): (0.78, 0.70, 0.75), (0.05, 0.8): (0.74, 0.66, 0.72)},
    "rdpmeans": {(0.01, 1.0): (0.84, 0.77, 0.76), (0.01, 0.95): (0.79, 0.71, 0.68), (0.01, 0.9): (0.69, 0.58, 0.57), (0.01, 0.8): (0.56, 0.39, 0.41),
                 (0.03, 1.0): (0.98, 0.98, 0.96), (0.03, 0.95): (0.98, 0.97, 0.94), (0.03, 0.9): (0.93, 0.90, 0.86), (0.03, 0.8): (0.77, 0.69, 0.63),
                 (0.05, 1.0): (0.96, 0.96, 0.95), (0.05, 0.95): (0.99, 0.99, 0.98), (0.05, 0.9): (0.98, 0.97, 0.94), (0.05, 0.8): (0.91, 0.87, 0.82)},
}


def run_eval(args, alg, dataset, rate, p, extra):
    cmd = [args.kindred, "eval", alg, "--data", os.path.join(args.data, dataset + ".csv"),
           "--pairs-rate", str(rate * args.rate_scale),
           "--noise", str(round(1.0 - p, 6)), "--repeats", str(args.trials), "--seed", "0", "--json"] + extra
    for kv in {"tvclust": args.tvclust_option, "rdpmeans": args.rdpmeans_option}.get(alg, []):
        name, value = kv.split("=", 1)
        cmd += ["--" + name, value]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), out.stderr))
    j = json.loads(out.stdout)
    return {m: j[m]["mean"] for m, _ in METRICS} | {"clusters": j["clusters"]["mean"], "seconds": j["seconds"]["mean"]}


def mean(rows):
    return {m: sum(r[m] for r in rows) / len(rows) for m, _ in METRICS}


def fmt(v):
    return "%.2f" % v


def tables(args):
    res = {}  # (alg, dataset, r, p) -> metrics
    for alg in ALGS:
        for ds in DATASETS:
            for r in RATES:
                for p in PS:
                    res[(alg, ds, r, p)] = run_eval(args, alg, ds, r, p, [])
            print("done %s %s" % (alg, ds), file=sys.stderr)

    print("### Table 1: per data set, averaged over r and p (ours | paper)\n")
    print("| method | " + " | ".join("%s F / ARI / NMI" % ds for ds in DATASETS + ["average"]) + " |")
    print("|---" * (len(DATASETS) + 2) + "|")
    for alg in ALGS:
        cells = []
        per = []
        for ds in DATASETS:
            m = mean([res[(alg, ds, r, p)] for r in RATES for p in PS])
            per.append(m)
            pp = PAPER_T1[alg][ds]
            cells.append("%s / %s / %s (%s / %s / %s)" % (fmt(m["f_measure"]), fmt(m["ari"]), fmt(m["nmi"]), *map(fmt, pp)))
        m = mean(per)
        pp = PAPER_T1[alg]["avg"]
        cells.append("**%s / %s / %s** (%s / %s / %s)" % (fmt(m["f_measure"]), fmt(m["ari"]), fmt(m["nmi"]), *map(fmt, pp)))
        print("| %s | %s |" % (NAMES[alg], " | ".join(cells)))
    print("\nClusters found (mean over r, p, trials): " + "; ".join(
        "%s: %s" % (NAMES[alg], ", ".join("%s %.1f" % (ds, sum(res[(alg, ds, r, p)]["clusters"] for r in RATES for p in PS) / 12)
                                          for ds in DATASETS)) for alg in ALGS) + "\n")

    print("### Table 2: per noise level p, averaged over data sets and r (ours | paper)\n")
    print("| method | " + " | ".join("p = %g F / ARI / NMI" % p for p in PS) + " |")
    print("|---" * (len(PS) + 1) + "|")
    for alg in ALGS:
        cells = []
        for p in PS:
            m = mean([res[(alg, ds, r, p)] for ds in DATASETS for r in RATES])
            cells.append("%s / %s / %s (%s / %s / %s)" % (fmt(m["f_measure"]), fmt(m["ari"]), fmt(m["nmi"]), *map(fmt, PAPER_T2[alg][p])))
        print("| %s | %s |" % (NAMES[alg], " | ".join(cells)))

    print("\n### Table 3: per r and p, averaged over data sets (ours | paper)\n")
    print("| r | method | " + " | ".join("p = %g F / ARI / NMI" % p for p in PS) + " |")
    print("|---" * (len(PS) + 2) + "|")
    for r in RATES:
        for alg in ALGS:
            cells = []
            for p in PS:
                m = mean([res[(alg, ds, r, p)] for ds in DATASETS])
                cells.append("%s / %s / %s (%s / %s / %s)" % (fmt(m["f_measure"]), fmt(m["ari"]), fmt(m["nmi"]),
                                                              *map(fmt, PAPER_T3[alg][(r, p)])))
            print("| %g | %s | %s |" % (r, NAMES[alg], " | ".join(cells)))
    print()


def figure3(args):
    classes = {"iris": 3, "wine": 3, "ecoli": 8, "glass": 6, "balance": 3}
    devs = [-3, -2, -1, 0, 1, 2, 3]
    print("### Figure 3: F-measure against the deviation from the true k (p = 1, r = 0.03; k declared = k - deviation)\n")
    print("| data set | method | " + " | ".join("%+d" % d for d in devs) + " |")
    print("|---" * (len(devs) + 2) + "|")
    for ds in DATASETS:
        for alg in ALGS:
            cells = []
            tv = None
            for dev in devs:
                k = classes[ds] - dev
                if k < 1:
                    cells.append("-")
                    continue
                if alg == "tvclust":  # no k: one value for every deviation
                    tv = tv or run_eval(args, alg, ds, 0.03, 1.0, [])
                    cells.append(fmt(tv["f_measure"]))
                    continue
                m = run_eval(args, alg, ds, 0.03, 1.0, ["--k", str(k)])
                cells.append(fmt(m["f_measure"]))
            print("| %s | %s | %s |" % (ds, NAMES[alg], " | ".join(cells)))
        print("done figure3 %s" % ds, file=sys.stderr)
    print()


def main():
    ap = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--kindred", default=os.path.join(root, "build", "tools", "kindred", "kindred"))
    ap.add_argument("--data", default=os.path.join(root, "..", "shared", "data"))
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--only", choices=["tables", "figure3"])
    ap.add_argument("--tvclust-option", action="append", default=[])
    ap.add_argument("--rdpmeans-option", action="append", default=[])
    ap.add_argument("--rate-scale", type=float, default=1.0,
                    help="diagnostic: sample rate_scale * r of the pairs (2 = r read as a fraction of the n^2 ordered "
                         "pairs, each symmetrised); the tables keep the labels r")
    ap.add_argument("--algorithms", default=",".join(ALGS), help="comma-separated subset of " + ",".join(ALGS))
    args = ap.parse_args()
    ALGS[:] = [a for a in args.algorithms.split(",") if a]
    if args.only in (None, "tables"):
        tables(args)
    if args.only in (None, "figure3"):
        figure3(args)


if __name__ == "__main__":
    main()
