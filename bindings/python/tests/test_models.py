import pickle

import numpy as np
import pytest

import kindred


def _side_for(algorithm, y, seed=0):
    """Side information that the algorithm uses, sampled from the labels."""
    uses = kindred.algorithm_uses(algorithm)
    side = {}
    if "pairs" in uses:
        side["pairs"] = kindred.sample_pairs(y, count=60, seed=seed)
    if "triplets" in uses:
        side["triplets"] = kindred.sample_triplets(y, count=200, seed=seed)
    if "partial_labels" in uses:
        partial = np.full(len(y), -1, np.int32)
        partial[::5] = y[::5]
        side["partial_labels"] = partial
    return side


def _estimator(algorithm, **extra):
    est = kindred.Clusterer(algorithm, **extra)
    if "k" in est.get_params():
        est.set_params(k=3)
    return est


@pytest.mark.parametrize("algorithm", kindred.algorithms())
def test_every_algorithm_fits_predicts_saves_and_loads(algorithm, iris, tmp_path):
    X, y = iris
    est = _estimator(algorithm, seed=4).fit(X, **_side_for(algorithm, y))
    assert est.labels_.shape == (len(X),) and est.labels_.dtype == np.int32
    assert est.n_clusters_ >= 1 and est.n_features_in_ == X.shape[1]
    assert all(np.all(np.isfinite(a)) for a in est.arrays_.values())
    if "centers" in est.arrays_:
        assert est.cluster_centers_.shape == (est.n_clusters_, X.shape[1])
    path = tmp_path / "m.kdm"
    est.save(str(path))
    back = kindred.load(str(path))
    assert type(back).__name__ == type(getattr(kindred, kindred._registry.class_name(algorithm))()).__name__
    assert back.get_params() == {k: v for k, v in est.get_params().items() if k != "algorithm"}
    assert np.array_equal(back.labels_, est.labels_)
    for name, a in est.arrays_.items():
        assert np.array_equal(back.arrays_[name], a)
    try:
        mapped = est.transform(X)
    except AttributeError:
        assert "transform" not in kindred.algorithm_uses(algorithm)  # it learns no transformation
    else:
        assert mapped.shape[0] == len(X) and np.all(np.isfinite(mapped))
        assert np.array_equal(back.transform(X), mapped)
        assert np.array_equal(est.transform(np.asfortranarray(X)), mapped)
    try:
        predicted = est.predict(X)
    except kindred.StateError:
        return  # this algorithm does not predict
    assert np.array_equal(back.predict(X), predicted)
    clone = pickle.loads(pickle.dumps(est))
    assert np.array_equal(clone.predict(X), predicted)


def test_same_seed_same_result_any_threads(iris):
    X, y = iris
    a = kindred.KMeans(k=3, seed=9, threads=1).fit(X).labels_
    b = kindred.KMeans(k=3, seed=9, threads=2).fit(X).labels_
    assert np.array_equal(a, b)


def test_kmeans_finds_iris(iris):
    X, y = iris
    km = kindred.KMeans(k=3, seed=0).fit(X)
    assert kindred.metric("ari", y, km.labels_) > 0.6
    assert np.array_equal(km.predict(X), km.labels_)
    assert km.fit_predict(X).shape == y.shape


def test_metrics_known_answers():
    a = [0, 0, 1, 1, 2, 2]
    assert kindred.metric("nmi", a, [5, 5, 7, 7, 9, 9]) == pytest.approx(1.0)
    assert kindred.metric("ari", a, ["x", "x", "y", "y", "z", "z"]) == pytest.approx(1.0)
    assert kindred.metric("purity", a, [0, 0, 0, 0, 0, 0]) == pytest.approx(1 / 3)
    # Rand index: 15 pairs; predicted puts everything together -> agreements are the 3 same-class pairs
    assert kindred.metric("rand", a, [0] * 6) == pytest.approx(3 / 15)
    with pytest.raises(kindred.NotFoundError):
        kindred.metric("accuracy", a, a)
    with pytest.raises(ValueError):
        kindred.metric("nmi", a, a[:3])


def test_sampling_is_seeded_and_follows_labels(iris):
    _, y = iris
    p1 = kindred.sample_pairs(y, count=50, seed=3)
    p2 = kindred.sample_pairs(y, count=50, seed=3)
    assert np.array_equal(p1, p2) and p1.shape == (50, 3)
    i, j = p1[:, 0].astype(int), p1[:, 1].astype(int)
    assert np.array_equal(np.where(y[i] == y[j], 1.0, -1.0), p1[:, 2])
    assert len(kindred.sample_pairs(y, rate=0.001, seed=1)) == int(0.001 * len(y) * (len(y) - 1) / 2)
    t = kindred.sample_triplets(y, count=40, seed=2)
    assert t.shape == (40, 4) and set(np.unique(t[:, 3])) <= {-1, 0, 1}
    side = kindred.SideInfo(len(y))
    kindred.sample_pairs(y, count=10, seed=1, side=side)
    assert side.counts()["pairs"] == 10
    with pytest.raises(ValueError):
        kindred.sample_pairs(y)
    with pytest.raises(kindred.InvalidArgumentError):
        kindred.sample_pairs(y, count=5, noise=2.0)


def test_progress_callback_and_cancel(iris):
    X, _ = iris
    seen = []
    kindred.KMeans(k=3, n_init=1, seed=1).fit(X, progress=lambda it, obj, msg: seen.append((it, obj, msg)))
    assert seen and seen[0][0] == 1 and isinstance(seen[0][2], str)
    km = kindred.KMeans(k=3, seed=1)
    with pytest.raises(kindred.CancelledError):
        km.fit(X, progress=lambda it, obj, msg: it >= 2)
    with pytest.raises(AttributeError):
        km.labels_  # a cancelled fit leaves the estimator unfitted


def test_exceptions_in_callbacks_come_back_after_the_call(iris):
    X, _ = iris

    class Boom(Exception):
        pass

    def bad(it, obj, msg):
        raise Boom("from the callback")

    with pytest.raises(Boom):
        kindred.KMeans(k=3, seed=1).fit(X, progress=bad)

    def interrupt(it, obj, msg):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        kindred.KMeans(k=3, seed=1).fit(X, progress=interrupt)
    # and the library is still usable afterwards
    assert kindred.KMeans(k=3, seed=1).fit(X).n_clusters_ == 3


def test_progress_bar_without_tqdm(iris, capsys, monkeypatch):
    X, _ = iris
    import builtins
    real_import = builtins.__import__

    def no_tqdm(name, *args, **kwargs):
        if name.startswith("tqdm"):
            raise ImportError("no tqdm here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tqdm)
    kindred.KMeans(k=3, seed=1, n_init=1).fit(X, progress=True)
    err = capsys.readouterr().err
    assert "kindred kmeans" in err and "iteration" in err


def test_sparse_input_when_scipy_is_there(iris):
    sparse = pytest.importorskip("scipy.sparse")
    X, _ = iris
    algorithm = next((a for a in kindred.algorithms() if "sparse" in kindred.algorithm_uses(a)), None)
    if algorithm is None:
        pytest.skip("no algorithm accepts sparse data")
    est = _estimator(algorithm, seed=1)
    dense = est.fit(X).labels_
    assert np.array_equal(est.fit(sparse.csr_matrix(X)).labels_, dense)
    assert np.array_equal(est.predict(sparse.csr_matrix(X)), est.predict(X))


def test_log_messages_go_to_logging(iris, caplog):
    X, _ = iris
    import logging
    with caplog.at_level(logging.DEBUG, logger="kindred"):
        kindred.KMeans(k=3, seed=1, n_init=2).fit(X)
    # kmeans logs its restarts at debug level; any algorithm may log nothing, so only check the plumbing
    assert all(r.name == "kindred" for r in caplog.records)


def test_one_estimator_used_from_several_threads(iris):
    from concurrent.futures import ThreadPoolExecutor
    X, _ = iris
    km = kindred.KMeans(k=3, seed=1).fit(X)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: km.predict(X), range(16)))
    assert all(np.array_equal(r, km.labels_) for r in results)
