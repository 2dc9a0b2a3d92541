#!/usr/bin/env python3
"""NMI of TVClust against the number of Gibbs sweeps, on several data sets (docs/performance.md,
"TVClust: the sweep count").

For each data set and each sweep count N, runs
  kindred eval tvclust --data FILE --repeats S --seed 1 --iterations N --burn_in N/4 [--pairs-rate R] --json
(burn-in a quarter of the sweeps, as the defaults 200 / 50) and prints the NMI, mean +- standard
error over the S repeats (each repeat its own seed for the sampled pairs and the sampler), the mean
number of clusters and the mean seconds per fit.

  python3 bench/tvclust_sweeps.py --kindred build/tools/kindred/kindred --data-dir ../shared/data \\
      --sets iris,wine,ecoli,glass,balance,segmentation --sweeps 25,50,100,200,400 --pairs-rate 0.01
"""
import argparse
import json
import math
import os
import subprocess
import tempfile


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kindred", required=True)
    p.add_argument("--data-dir", required=True)
    p.add_argument("--sets", default="iris,wine,ecoli,glass,balance,segmentation")
    p.add_argument("--sweeps", default="25,50,100,200,400")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--pairs-rate", type=float, default=0.0, help="0: no side information")
    p.add_argument("--rows", type=int, default=0, help="use only the first ROWS rows of each set (0: all)")
    args = p.parse_args()
    tmp = tempfile.mkdtemp()
    print("| data | n | " + " | ".join("%s sweeps" % s for s in args.sweeps.split(",")) + " |")
    print("|---|---:|" + "---:|" * len(args.sweeps.split(",")))
    for name in args.sets.split(","):
        path = os.path.join(args.data_dir, name + ".csv")
        if args.rows:
            cut = os.path.join(tmp, name + ".csv")
            with open(path) as f, open(cut, "w") as g:
                for t, line in enumerate(f):
                    if t > args.rows:
                        break
                    g.write(line)
            path = cut
        cells, n = [], 0
        for sweeps in (int(s) for s in args.sweeps.split(",")):
            cmd = [args.kindred, "eval", "tvclust", "--data", path, "--repeats", str(args.repeats), "--seed", "1",
                   "--iterations", str(sweeps), "--burn_in", str(sweeps // 4), "--json"]
            if args.pairs_rate > 0:
                cmd += ["--pairs-rate", str(args.pairs_rate)]
            rep = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            n = rep["n"]
            nmi = rep["nmi"]
            se = nmi["std"] / math.sqrt(len(nmi["values"]))
            clusters = rep["clusters"]
            k = clusters["mean"] if isinstance(clusters, dict) else clusters
            secs = rep["seconds"]
            s = secs["mean"] if isinstance(secs, dict) else secs
            cells.append("%.3f ± %.3f (K %.1f, %.2f s)" % (nmi["mean"], se, k, s))
        print("| %s | %d | %s |" % (name, n, " | ".join(cells)), flush=True)


if __name__ == "__main__":
    main()
