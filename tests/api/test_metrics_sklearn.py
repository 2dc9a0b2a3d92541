#!/usr/bin/python3
"""kindred_metric against scikit-learn (and numpy pair counting) on many random
labelings, degenerate ones included, to 1e-9.

Usage: test_metrics_sklearn.py path/to/libkindred.so
Exits 77 (meson's "skipped") when numpy or scikit-learn is missing.
"""
import ctypes
import sys

try:
    import numpy as np
    from sklearn import metrics
    from sklearn.metrics.cluster import contingency_matrix
except ImportError as e:  # pragma: no cover
    print(f"skipped: {e}")
    sys.exit(77)

TOLERANCE = 1e-9


def load(path):
    lib = ctypes.CDLL(path)
    lib.kindred_metric.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int32),
                                   ctypes.POINTER(ctypes.c_int32), ctypes.c_int64,
                                   ctypes.POINTER(ctypes.c_double)]
    lib.kindred_metric.restype = ctypes.c_int
    lib.kindred_last_error.restype = ctypes.c_char_p
    return lib


def kindred_metric(lib, name, truth, predicted):
    t = np.ascontiguousarray(truth, dtype=np.int32)
    p = np.ascontiguousarray(predicted, dtype=np.int32)
    value = ctypes.c_double()
    status = lib.kindred_metric(name.encode(), t.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)),
                                p.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)), len(t),
                                ctypes.byref(value))
    if status != 0:
        raise RuntimeError(f"kindred_metric({name}) failed: {lib.kindred_last_error().decode()}")
    return value.value


def pair_counts(truth, predicted):
    """Pairs together in both, together in truth, together in predicted (numpy)."""
    table = contingency_matrix(truth, predicted).astype(np.float64)

    def choose2(x):
        return float(np.sum(x * (x - 1) / 2))

    return choose2(table), choose2(table.sum(axis=1)), choose2(table.sum(axis=0))


def pairwise_scores(truth, predicted):
    """Pairwise precision, recall and F-measure (Bilenko et al. 2004). With no
    predicted (truth) pairs, precision (recall) is 1 when there are none to
    find either, else 0."""
    both, in_truth, in_pred = pair_counts(truth, predicted)
    precision = both / in_pred if in_pred > 0 else (0.0 if in_truth > 0 else 1.0)
    recall = both / in_truth if in_truth > 0 else (0.0 if in_pred > 0 else 1.0)
    f = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return precision, recall, f


def purity(truth, predicted):
    table = contingency_matrix(truth, predicted)
    return float(table.max(axis=0).sum()) / len(truth)


def references(truth, predicted):
    precision, recall, f = pairwise_scores(truth, predicted)
    return {
        "nmi": metrics.normalized_mutual_info_score(truth, predicted, average_method="arithmetic"),
        "ari": metrics.adjusted_rand_score(truth, predicted),
        "rand": metrics.rand_score(truth, predicted),
        "mi": metrics.mutual_info_score(truth, predicted),
        "f-measure": f,
        "precision": precision,
        "recall": recall,
        "purity": purity(truth, predicted),
    }


def labelings(rng):
    """(description, truth, predicted) pairs: random ones of many shapes, and degenerate ones."""
    for n in (1, 2, 3, 5, 10, 37, 100, 1000, 5000):
        for k1, k2 in ((1, 1), (1, 3), (2, 2), (3, 7), (10, 4), (50, 50), (n, n), (n, 1)):
            for _ in range(3):
                truth = rng.integers(0, max(k1, 1), size=n)
                predicted = rng.integers(0, max(k2, 1), size=n)
                yield f"random n={n} k={k1}x{k2}", truth, predicted
        # Arbitrary label values, negative ones included.
        values = np.array([-7, -1, 0, 3, 2**31 - 1, -2**31], dtype=np.int64)
        yield f"odd values n={n}", rng.choice(values, size=n), rng.choice(values, size=n)
        # Degenerate partitions.
        one, singletons = np.zeros(n, dtype=np.int64), np.arange(n)
        yield f"one vs one n={n}", one, one
        yield f"singletons vs singletons n={n}", singletons, singletons
        yield f"one vs singletons n={n}", one, singletons
        yield f"singletons vs one n={n}", singletons, one
        random = rng.integers(0, 3, size=n)
        yield f"random vs one n={n}", random, one
        yield f"one vs random n={n}", one, random
        yield f"random vs itself renamed n={n}", random, 5 - 2 * random
        # A noisy copy: high agreement, the usual case of a good clustering.
        noisy = random.copy()
        flip = rng.random(n) < 0.1
        noisy[flip] = rng.integers(0, 3, size=int(flip.sum()))
        yield f"noisy copy n={n}", random, noisy


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    lib = load(sys.argv[1])
    rng = np.random.default_rng(20240611)
    checked, failures = 0, []
    for description, truth, predicted in labelings(rng):
        for name, expected in references(truth, predicted).items():
            got = kindred_metric(lib, name, truth, predicted)
            checked += 1
            if not abs(got - expected) <= TOLERANCE:
                failures.append(f"{name} on {description}: kindred {got!r}, reference {expected!r}")
    for f in failures[:30]:
        print("MISMATCH", f)
    print(f"{checked} comparisons, {len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
