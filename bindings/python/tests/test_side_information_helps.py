"""Side information through the Python binding as a user passes it (keyword
arguments from the library's registry): propagated pairs beat k-means, noisy
pairs never raise for the soft methods, the tuned values come back as
results, and dpmeans / rdpmeans run with neither lambda nor k."""
import numpy as np

import kindred

from conftest import load_csv


def _m(n):
    return min(n * (n - 1) // 200, 2 * n)


def test_clean_pairs_beat_kmeans_with_defaults():
    X, y = load_csv("ionosphere.csv")
    pairs = kindred.sample_pairs(y, count=_m(len(y)), seed=1)
    base = kindred.Clusterer("kmeans", k=2, standardize=True).fit(X).labels_
    for algorithm in ("pckmeans", "mpckmeans", "copkmeans"):
        est = kindred.Clusterer(algorithm, k=2, standardize=True).fit(X, pairs=pairs)
        assert kindred.metric("nmi", y, est.labels_) > kindred.metric("nmi", y, base) + 0.5, algorithm


def test_noisy_pairs_never_raise_and_report_the_choice():
    X, y = load_csv("wine.csv")
    pairs = kindred.sample_pairs(y, count=_m(len(y)), noise=0.2, seed=2)
    for algorithm in ("pckmeans", "mpckmeans"):
        est = kindred.Clusterer(algorithm, k=3, standardize=True).fit(X, pairs=pairs)
        assert est.arrays_["chosen_weight"].shape == (1, 1)
        assert est.arrays_["chosen_propagation"][0, 0] in (0.0, 1.0)
    # The paper's version stays reachable by keywords.
    paper = kindred.Clusterer("pckmeans", k=3, propagation="off", n_init=1, weight_unit="absolute", penalty=1.0,
                              whitening="off")
    paper.fit(X, pairs=pairs)
    assert "chosen_weight" not in paper.arrays_
    assert "whitening" not in paper.arrays_


def test_lambda_chosen_from_pairs():
    X, y = load_csv("iris.csv")
    pairs = kindred.sample_pairs(y, count=_m(len(y)), seed=3)
    for algorithm in ("dpmeans", "rdpmeans"):
        est = kindred.Clusterer(algorithm, standardize=True).fit(X, pairs=pairs)
        assert est.arrays_["chosen_lambda"][0, 0] > 0
        assert 2 <= len(np.unique(est.labels_)) <= 6, algorithm
