"""Pictures of a clustering and of a learning curve, drawn with matplotlib when it is installed.

The library itself has no plotting dependency; these are the Python counterparts of `kindred plot`
and `kindred eval ... --curve ... --plot` of the command-line program.
"""
import numpy as np

from ._estimator import Clusterer, _options
from ._eval import metric, sample_pairs, sample_triplets
from ._registry import algorithm_uses

# The palette of the command-line program's pictures (tools/kindred/svg_document.cpp).
PALETTE = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#882255", "#44aa99",
           "#999933"]


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("kindred's plots need matplotlib (Debian: python3-matplotlib; pip: matplotlib)") from e
    return plt


def principal_components(X):
    """The points' coordinates on their first two principal components (centred), an (n, 2) array."""
    X = np.asarray(X, dtype=float)
    centred = X - X.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    vt = vt[:2]
    # The same sign rule as the command-line program: each component's largest entry is positive.
    signs = np.sign(vt[np.arange(len(vt)), np.abs(vt).argmax(axis=1)])
    out = centred @ (vt * signs[:, None]).T
    return out if out.shape[1] == 2 else np.column_stack([out, np.zeros(len(out))])


def broken_pairs(labels, pairs):
    """The rows of `pairs` (i, j, value) that `labels` breaks: must-links (value > 0) across clusters
    and cannot-links (value < 0) within one."""
    labels = np.asarray(labels)
    pairs = np.asarray(pairs, dtype=float).reshape(-1, 3)
    i, j, v = pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64), pairs[:, 2]
    same = labels[i] == labels[j]
    return pairs[((v > 0) & ~same) | ((v < 0) & same)]


def plot_clusters(X, labels, pairs=None, columns=None, ax=None, title=None):
    """Draw the points coloured by cluster, on their first two principal components or on the two
    `columns` (indices) given, with the pairs the clustering breaks as lines (solid: must-link,
    dashed: cannot-link). Returns the matplotlib Axes."""
    plt = _pyplot()
    X = np.asarray(X, dtype=float)
    labels = np.asarray(labels)
    xy = X[:, list(columns)] if columns is not None else principal_components(X)
    if ax is None:
        ax = plt.figure(figsize=(7, 5.4)).add_subplot()
    if pairs is not None:
        for i, j, v in broken_pairs(labels, pairs):
            a, b = xy[int(i)], xy[int(j)]
            ax.plot([a[0], b[0]], [a[1], b[1]], color="#222222", linewidth=1, linestyle="-" if v > 0 else "--")
    for c in np.unique(labels):
        at = labels == c
        ax.scatter(xy[at, 0], xy[at, 1], s=14, color=PALETTE[int(c) % len(PALETTE)] if c >= 0 else "#bbbbbb",
                   label="cluster %d" % c)
    ax.set_xlabel("column %d" % columns[0] if columns is not None else "first principal component")
    ax.set_ylabel("column %d" % columns[1] if columns is not None else "second principal component")
    if title:
        ax.set_title(title)
    ax.legend(loc="best", fontsize="small")
    return ax


def learning_curve(X, y, algorithms, counts, repeats=1, seed=0, **options):
    """Quality against the number of constraints sampled from the classes `y`, as `kindred eval ...
    --curve` computes it: for each algorithm and count, `repeats` fits with seeds seed, seed + 1, ...,
    each given `count` pairs (an algorithm that uses pairs) or triplets (one that uses triplets) drawn
    with the same seed; k is the number of classes unless given. Returns {"counts": [...],
    "algorithms": {name: {"nmi" | "ari" | "f_measure": {"mean": [...], "std": [...]}}}}."""
    names, y = np.unique(np.asarray(y), return_inverse=True)  # any class labels (words too)
    y = y.astype(np.int32)
    classes = len(names)
    result = {"counts": list(counts), "algorithms": {}}
    for algorithm in algorithms:
        uses = algorithm_uses(algorithm)
        series = {m: {"mean": [], "std": []} for m in ("nmi", "ari", "f_measure")}
        for count in counts:
            scores = {m: [] for m in series}
            for r in range(repeats):
                args = dict(options, seed=seed + r)
                if "k" in _options(algorithm) and "k" not in options:
                    args["k"] = classes
                side = {}
                if "pairs" in uses:
                    side["pairs"] = sample_pairs(y, count=count, seed=seed + r)
                elif "triplets" in uses:
                    side["triplets"] = sample_triplets(y, count, seed=seed + r)
                predicted = Clusterer(algorithm, **args).fit(X, **side).labels_
                for m, name in (("nmi", "nmi"), ("ari", "ari"), ("f_measure", "f-measure")):
                    scores[m].append(metric(name, y, predicted))
            for m in series:
                series[m]["mean"].append(float(np.mean(scores[m])))
                series[m]["std"].append(float(np.std(scores[m], ddof=1)) if repeats > 1 else 0.0)
        result["algorithms"][algorithm] = series
    return result


def plot_curve(curve, axes=None):
    """Draw a learning_curve() result: NMI, ARI and F-measure against the number of constraints, one
    line per algorithm with error bars of one standard deviation. Returns the three Axes."""
    plt = _pyplot()
    if axes is None:
        axes = plt.figure(figsize=(12, 4)).subplots(1, 3)
    for ax, (measure, title) in zip(axes, (("nmi", "NMI"), ("ari", "ARI"), ("f_measure", "F-measure"))):
        for k, (algorithm, series) in enumerate(curve["algorithms"].items()):
            ax.errorbar(curve["counts"], series[measure]["mean"], yerr=series[measure]["std"], marker="o",
                        capsize=3, color=PALETTE[k % len(PALETTE)], label=algorithm)
        ax.set_xlabel("number of constraints")
        ax.set_ylabel(title)
    axes[0].legend(fontsize="small")
    return axes
