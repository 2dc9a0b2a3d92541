#!/usr/bin/python3
"""k-means speed: kindred against scikit-learn and FAISS, same data, same run.

Usage (from the repository root, after `ninja -C BUILD`):

    /usr/bin/python3 bench/compare_kmeans.py --bench-exe BUILD/bench/kmeans_bench
    /usr/bin/python3 bench/compare_kmeans.py --bench-exe BUILD/bench/kmeans_bench --quick

For every n in {1e4, 1e5, 1e6} and d in {16, 64} one data set is drawn here
(numpy, fixed seed), written once as raw float64 and read by kmeans_bench, so
that all three libraries cluster the same numbers. For every k in {10, 100}
and threads in {1, 2}, each repetition runs kindred, then scikit-learn, then
FAISS (interleaved, so that a burst of load on the shared machine hits all
three alike), and the table reports the median over the repetitions.

What is timed (wall clock):
- per iteration: the time of one Lloyd iteration (assignment + centre
  update), with tol = 0 and a fixed number of iterations M:
  * kindred: the interval between the first and last progress callbacks of a
    fit (kmeans_bench.c), divided by the number of iterations between them;
  * scikit-learn: (fit time with max_iter = M - fit time with max_iter = 1)
    / (n_iter_ - 1), from the same initial centres (init = array), so that the
    fixed costs of a fit (input checks, the copy that centres the data, the
    final assignment) cancel;
  * FAISS: (time of the last iteration - time of the first) / (niter - 1),
    from faiss' own iteration statistics, same initial centres.
  FAISS's CPU time per iteration is (CPU of a train with niter = M - CPU of
  one with niter = 1) / (M - 1), as for scikit-learn.
- whole fit: seeding + M Lloyd iterations + final labels, n_init = 1:
  kindred and scikit-learn seed with greedy k-means++; FAISS has no k-means++
  and seeds with k random points.

Threads: `threads` is kindred's option. By default (--blas-threads one) kindred
runs with OPENBLAS_NUM_THREADS=1 and its own threads take whole distance blocks,
each with its own single-threaded GEMM: the same plan as scikit-learn's, whose
OpenMP threads call a BLAS limited to one thread. With --blas-threads same,
OPENBLAS_NUM_THREADS equals `threads`; kindred then leaves the GEMM to
OpenBLAS's threads and calls it from one thread. scikit-learn's OpenMP and
BLAS pools are limited with threadpoolctl; FAISS with faiss.omp_set_num_threads
(plus threadpoolctl for its BLAS calls).

Wall-clock medians for threads 1 and 2 come first; then, for threads = 1,
process CPU times, which time-sharing with other jobs does not inflate (with 2
threads, CPU time would hide the speed-up, and OpenMP's spinning threads add
to it).

FAISS works in float32 (it has no float64 k-means); the others in float64,
unless --kindred-dtype float32 makes kindred read a float32 copy in place.
FAISS would by default cluster a subsample of 256 points per centre: that is
switched off (max_points_per_centroid = n) so that all three do the same work.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

try:
    from threadpoolctl import threadpool_limits
except ImportError:  # fall back to the environment (set before numpy loads in a fresh run)
    threadpool_limits = None

import sklearn
from sklearn.cluster import KMeans

try:
    import faiss
except ImportError:
    faiss = None


def make_data(n, d, seed):
    """Gaussian blobs that overlap enough that Lloyd does not converge in M iterations.

    50 centres drawn from N(0, 2^2 I), unit-variance points around them."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(0.0, 2.0, size=(50, d))
    x = centres[rng.integers(0, 50, size=n)] + rng.standard_normal((n, d))
    return np.ascontiguousarray(x, dtype=np.float64)


def limits(threads):
    if threadpool_limits is None:
        return _Nothing()
    return threadpool_limits(limits=threads)


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


BLAS_THREADS = "one"  # set from --blas-threads in main()
KINDRED_DTYPE = "float64"  # set from --kindred-dtype in main()


def run_kindred(exe, path, n, d, k, threads, iters, seed):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads if BLAS_THREADS == "same" else 1))
    cmd = [exe, "--data", path, "--n", str(n), "--d", str(d), "--k", str(k), "--threads", str(threads),
           "--iters", str(iters), "--repeat", "1", "--seed", str(seed), "--dtype", KINDRED_DTYPE]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    f = dict(kv.split("=", 1) for kv in out.strip().splitlines()[-1].split())
    return (float(f["iter_ms"]), float(f["fit_ms"]), float(f["iter_cpu_ms"]), float(f["fit_cpu_ms"]))


def timed(call):
    """(wall ms, process CPU ms, result) of call()."""
    t0, c0 = time.perf_counter(), time.process_time()
    result = call()
    return 1e3 * (time.perf_counter() - t0), 1e3 * (time.process_time() - c0), result


def run_sklearn(x, init, k, threads, iters, seed):
    with limits(threads):
        def fit(max_iter, how):
            km = KMeans(n_clusters=k, init=how, n_init=1, max_iter=max_iter, tol=0.0, algorithm="lloyd",
                        random_state=seed)
            wall, cpu, _ = timed(lambda: km.fit(x))
            return wall, cpu, km.n_iter_

        w_m, c_m, it_m = fit(iters, init)
        w_1, c_1, it_1 = fit(1, init)
        if it_m > it_1:
            per_iter, per_iter_cpu = (w_m - w_1) / (it_m - it_1), (c_m - c_1) / (it_m - it_1)
        else:
            per_iter, per_iter_cpu = w_m / it_m, c_m / it_m
        w_whole, c_whole, _ = fit(iters, "k-means++")
    return per_iter, w_whole, per_iter_cpu, c_whole


def run_faiss(x32, init32, k, threads, iters, seed):
    n, d = x32.shape
    with limits(threads):
        faiss.omp_set_num_threads(threads)

        def train(niter, init):
            km = faiss.Kmeans(d, k, niter=niter, nredo=1, seed=seed, max_points_per_centroid=n,
                              min_points_per_centroid=1, verbose=False)
            wall, cpu, _ = timed(lambda: km.train(x32, init_centroids=init))
            return wall, cpu, km.iteration_stats

        _, c_m, stats = train(iters, init32)
        _, c_1, _ = train(1, init32)
        per_iter = 1e3 * (stats[-1]["time"] - stats[0]["time"]) / (len(stats) - 1)
        per_iter_cpu = (c_m - c_1) / (iters - 1)
        w_whole, c_whole, _ = train(iters, None)
    return per_iter, w_whole, per_iter_cpu, c_whole


def machine_summary():
    lines = [f"python {platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
             f"faiss {faiss.__version__ if faiss else 'absent'}"]
    try:
        from threadpoolctl import threadpool_info
        for p in threadpool_info():
            lines.append(f"  pool: {p.get('internal_api')} {p.get('version')} {p.get('threading_layer', '')} "
                         f"{os.path.basename(p.get('filepath', ''))}")
    except ImportError:
        pass
    try:
        lines.append(f"kindred's OpenBLAS threads: {BLAS_THREADS} (--blas-threads); kindred reads {KINDRED_DTYPE}")
        lines.append("load average at start: " + open("/proc/loadavg").read().split(" ", 3)[:3].__str__())
    except OSError:
        pass
    return "\n".join(lines)


def ratio(a, b):
    return a / b if b > 0 else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench-exe", default="build/bench/kmeans_bench", help="path to kmeans_bench")
    ap.add_argument("--quick", action="store_true", help="tiny smoke run (seconds)")
    ap.add_argument("--repeat", type=int, default=3, help="repetitions per configuration (median reported)")
    ap.add_argument("--repeat-large", type=int, default=None,
                    help="repetitions for n >= 1e6 (default: --repeat); a way to stay in time on a busy machine")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--n", default="10000,100000,1000000")
    ap.add_argument("--d", default="16,64")
    ap.add_argument("--k", default="10,100")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--blas-threads", choices=["one", "same"], default="one",
                    help="OpenBLAS threads for kindred: one (our threads split the blocks) or the same as --threads")
    ap.add_argument("--kindred-dtype", choices=["float64", "float32"], default="float64",
                    help="float32: kindred reads a float32 copy in place (kindred_model_fit_dense_f32), "
                         "as FAISS does; scikit-learn stays in float64")
    args = ap.parse_args()
    global BLAS_THREADS, KINDRED_DTYPE
    BLAS_THREADS = args.blas_threads
    KINDRED_DTYPE = args.kindred_dtype
    # scikit-learn warns when two of the given initial centres coincide on
    # heavily overlapping data; the timing is unaffected.
    warnings.filterwarnings("ignore", category=UserWarning)
    if args.quick:
        args.n, args.d, args.k, args.repeat = "3000", "8", "5", 1
    ns = [int(float(v)) for v in args.n.split(",")]
    ds = [int(v) for v in args.d.split(",")]
    ks = [int(v) for v in args.k.split(",")]
    thread_counts = [int(v) for v in args.threads.split(",")]
    if faiss is None:
        print("FAISS is not importable (Debian: python3-faiss); its columns are left empty", file=sys.stderr)
    exe = os.path.abspath(args.bench_exe)
    if not os.access(exe, os.X_OK):
        sys.exit(f"compare_kmeans: {exe} is not an executable; build it (ninja -C BUILD) and pass --bench-exe")

    print(machine_summary())
    print()

    def header(first, second):
        return (f"{'n':>8} {'d':>3} {'k':>4} {'thr':>3} {'M':>3} | {first:^26} | {'kindred /':^13} |"
                f" {second:^26} | {'kindred /':^13}")

    sub = (f"{'':>8} {'':>3} {'':>4} {'':>3} {'':>3} | {'kindred':>8} {'sklearn':>8} {'faiss':>8} |"
           f" {'sklearn':>6} {'faiss':>6} | {'kindred':>8} {'sklearn':>8} {'faiss':>8} | {'sklearn':>6} {'faiss':>6}")
    print(header("per-iteration ms", "whole fit ms"))
    print(sub)
    started = time.perf_counter()
    failures = 0
    cpu_rows = []
    with tempfile.TemporaryDirectory(prefix="kindred-bench-") as tmp:
        for n in ns:
            iters = 3 if args.quick else (5 if n >= 1_000_000 else 10)
            repeat = args.repeat_large if (n >= 1_000_000 and args.repeat_large) else args.repeat
            for d in ds:
                x = make_data(n, d, args.seed)
                path = os.path.join(tmp, f"x_{n}_{d}.f64")
                x.tofile(path)
                x32 = np.ascontiguousarray(x, dtype=np.float32)
                for k in ks:
                    init = x[np.random.default_rng(args.seed + k).choice(n, size=k, replace=False)]
                    init32 = np.ascontiguousarray(init, dtype=np.float32)
                    for t in thread_counts:
                        rows = {"kindred": [], "sklearn": [], "faiss": []}
                        for r in range(repeat):
                            try:
                                rows["kindred"].append(run_kindred(exe, path, n, d, k, t, iters, args.seed + r))
                            except subprocess.CalledProcessError as e:
                                print(f"kmeans_bench failed: {e.stderr.strip()}", file=sys.stderr)
                                failures += 1
                                continue
                            rows["sklearn"].append(run_sklearn(x, init, k, t, iters, args.seed + r))
                            if faiss is not None:
                                rows["faiss"].append(run_faiss(x32, init32, k, t, iters, args.seed + r))

                        def med(lib, col):
                            v = [row[col] for row in rows[lib]]
                            return statistics.median(v) if v else float("nan")

                        ki, si, fi = med("kindred", 0), med("sklearn", 0), med("faiss", 0)
                        kf, sf, ff = med("kindred", 1), med("sklearn", 1), med("faiss", 1)
                        print(f"{n:>8} {d:>3} {k:>4} {t:>3} {iters:>3} | {ki:8.2f} {si:8.2f} {fi:8.2f} |"
                              f" {ratio(ki, si):6.2f} {ratio(ki, fi):6.2f} | {kf:8.1f} {sf:8.1f} {ff:8.1f} |"
                              f" {ratio(kf, sf):6.2f} {ratio(kf, ff):6.2f}", flush=True)
                        if t == 1:
                            cpu_rows.append((n, d, k, iters, med("kindred", 2), med("sklearn", 2), med("faiss", 2),
                                             med("kindred", 3), med("sklearn", 3), med("faiss", 3)))
                del x, x32
    if cpu_rows:
        print()
        print("threads = 1, process CPU time (not inflated by other jobs' load on a shared machine):")
        print(header("per-iteration CPU ms", "whole fit CPU ms"))
        print(sub)
        for n, d, k, iters, ki, si, fi, kf, sf, ff in cpu_rows:
            print(f"{n:>8} {d:>3} {k:>4} {1:>3} {iters:>3} | {ki:8.2f} {si:8.2f} {fi:8.2f} |"
                  f" {ratio(ki, si):6.2f} {ratio(ki, fi):6.2f} | {kf:8.1f} {sf:8.1f} {ff:8.1f} |"
                  f" {ratio(kf, sf):6.2f} {ratio(kf, ff):6.2f}")
    print()
    print(f"median of {args.repeat} repetition(s) ({args.repeat_large or args.repeat} for n >= 1e6); total benchmark time {time.perf_counter() - started:.0f} s")
    try:
        print("load average at end: " + str(open("/proc/loadavg").read().split(" ", 3)[:3]))
    except OSError:
        pass
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
