"""kindred.dask (issue 27, item 5) on a LocalCluster of this machine: 2 worker processes
(processes=True), 1 thread each. Blocks of rows labelled by a saved model equal the model's own
predict / predict_proba / transform on the whole array, bitwise; fits run as tasks equal fits run in a
plain loop (labels, objective, iterations, every result array); evaluate equals the serial loop and
`kindred eval --json`; the example of docs/dask.md runs and prints what the page shows.
python3-dask and python3-distributed are installed by tools/quickstart.sh: without them this file
fails with a message saying so, it is never skipped."""
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

import kindred
from conftest import DATA, REPO, load_csv
from test_cli import _cli

try:
    import dask.array as da
    from distributed import Client, LocalCluster
except ImportError as e:
    raise ImportError("the Dask tests need python3-dask and python3-distributed (tools/quickstart.sh test "
                      "installs them; Debian: apt-get install python3-dask python3-distributed): %s" % e) from e

import kindred.dask as kd

# tornado (under distributed 2022.12) warns about its own event loop API; nothing of ours
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")


def _side_for(algorithm, y, seed=0):
    """Side information of the kinds the algorithm uses, sampled from the classes."""
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


def _k3(algorithm):
    return {"k": 3} if any(o.name == "k" for o in kindred.options(algorithm)) else {}


@pytest.fixture(scope="module")
def client():
    # Worker processes inherit this environment (PYTHONPATH, KINDRED_LIB or PKG_CONFIG_PATH, ...), so they
    # load the binding and the library under test.
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def iris_noisy():
    """iris and 20 noisy copies of it: 3150 rows, so that blocks are many."""
    X, y = load_csv("iris.csv")
    rng = np.random.default_rng(0)
    return X, y, np.vstack([X] + [X + rng.normal(scale=0.3, size=X.shape) for _ in range(20)])


def _same_fit(a, b):
    assert type(a) is type(b)
    assert np.array_equal(a.labels_, b.labels_)
    assert a.objective_ == b.objective_ and a.n_iter_ == b.n_iter_ and a.converged_ == b.converged_
    assert a.n_clusters_ == b.n_clusters_
    assert a.arrays_.keys() == b.arrays_.keys()
    for name in a.arrays_:
        assert np.array_equal(a.arrays_[name], b.arrays_[name]), name
    assert a.get_params() == b.get_params()


def test_import_kindred_needs_no_dask_and_kindred_dask_names_the_packages():
    code = ("import sys; sys.modules['dask'] = None; sys.modules['distributed'] = None\n"
            "import kindred\n"
            "assert 'kindred.dask' not in sys.modules\n"
            "try:\n    import kindred.dask\n"
            "except ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ,
                         check=True).stdout
    assert "python3-dask" in out and "python3-distributed" in out


@pytest.mark.parametrize("algorithm", kindred.algorithms())
def test_predict_by_blocks_equals_predict_on_the_whole_array(algorithm, client, iris_noisy, tmp_path):
    X, y, big = iris_noisy
    model = kindred.Clusterer(algorithm, seed=4, **_k3(algorithm)).fit(X, **_side_for(algorithm, y))
    path = tmp_path / "model.kdm"
    model.save(str(path))
    labels = kd.predict(str(path), big, block_rows=200)
    assert isinstance(labels, da.Array) and labels.numblocks == (16,)
    got = labels.compute()
    assert isinstance(got, np.ndarray) and got.dtype == np.int32
    assert np.array_equal(got, model.predict(big))
    # uneven blocks of a dask array, its columns split in two (joined again for whole rows), float32 kept
    blocks = da.from_array(big.astype(np.float32), chunks=(777, 2))
    assert np.array_equal(kd.predict(model, blocks).compute(), model.predict(big.astype(np.float32)))
    # each worker loaded the file once (one thread each), however many blocks it labelled
    digest = kd.ModelFile.of(str(path)).digest
    loads = [w.get(digest, 0) for w in client.run(kd.worker_loads).values()]
    assert max(loads) == 1 and sum(loads) >= 1, loads


@pytest.mark.parametrize("algorithm,method", [(a, m) for a in kindred.algorithms()
                                              for m, flag in (("predict_proba", "soft"), ("transform", "transform"))
                                              if flag in kindred.algorithm_uses(a)])
def test_predict_proba_and_transform_by_blocks_are_bitwise_those_of_the_whole_array(algorithm, method, client,
                                                                                      iris_noisy):
    X, y, big = iris_noisy
    model = kindred.Clusterer(algorithm, seed=4, **_k3(algorithm)).fit(X, **_side_for(algorithm, y))
    out = getattr(kd, method)(model, big, block_rows=333)
    assert out.shape == (len(big), getattr(model, method)(big[:2]).shape[1])
    got = out.compute()
    assert got.dtype == np.float64 and np.array_equal(got, getattr(model, method)(big))
    got32 = getattr(kd, method)(model, da.from_array(big.astype(np.float32), chunks=(500, 4))).compute()
    assert np.array_equal(got32, getattr(model, method)(big.astype(np.float32)))


def test_a_method_the_algorithm_lacks_or_a_wrong_width_fails_before_anything_runs(iris):
    X, _ = iris
    model = kindred.KMeans(k=3, seed=1).fit(X)
    with pytest.raises(AttributeError, match="predict_proba"):
        kd.predict_proba(model, X)
    with pytest.raises(ValueError, match="3 columns; the model was fitted on 4"):
        kd.predict(model, X[:, :3])
    with pytest.raises(kindred.NotFittedError):
        kd.predict(kindred.KMeans(k=3), X)
    with pytest.raises(kindred.CorruptFileError):
        kd.predict(b"not a model file", X)


def test_restarts_as_tasks_equal_the_same_fits_in_a_loop(client, iris):
    X, y = iris
    sets = [dict(k=7, seed=s, n_init=1) for s in range(6)]
    models = kd.fit_many(client, "kmeans", X, sets)
    assert len(models) == 6 and len({m.objective_ for m in models}) > 1  # the seeds do differ
    for options, model in zip(sets, models):
        _same_fit(model, kindred.KMeans(**options).fit(X))
    assert models[0].threads == 0  # the default, as the caller's options had it (the fit ran on 1 thread)


def test_a_sweep_with_side_information_equals_the_loop(client, iris):
    X, y = iris
    pairs = kindred.sample_pairs(y, count=80, seed=2)
    sets = [dict(k=k, seed=1) for k in (2, 3, 4, 5)]
    for fit_args in (dict(pairs=pairs), dict(side=kindred.SideInfo(len(X), pairs=pairs))):
        models = kd.fit_many(client, "pckmeans", X, sets, **fit_args)
        for options, model in zip(sets, models):
            _same_fit(model, kindred.PCKMeans(**options).fit(X, pairs=pairs))
    triplets = kindred.sample_triplets(y, 150, seed=3)
    sets = [dict(k=3, seed=s, lambda_=lam) for s in (1, 2) for lam in (0.5, 2.0)]
    for options, model in zip(sets, kd.fit_many(client, "dcrc", X, sets, triplets=triplets)):
        _same_fit(model, kindred.DCRC(**options).fit(X, triplets=triplets))


def test_a_failing_fit_raises_the_library_error_and_bad_options_fail_before_any_task(client, iris):
    X, y = iris
    with pytest.raises(kindred.NotFoundError, match="unknown option"):
        kd.fit_many(client, "kmeans", X, [dict(k=3), dict(kay=3)])
    # copkmeans with a cannot-link inside a must-link group: infeasible, found by the library on a worker
    with pytest.raises(kindred.InfeasibleError, match="contradictory"):
        kd.fit_many(client, "copkmeans", X, [dict(k=3, seed=1)], ml=[(0, 1), (1, 2)], cl=[(0, 2)])
    # a value out of range is the library's error too, raised by the fit on a worker
    with pytest.raises(kindred.InvalidArgumentError, match="option 'k'"):
        kd.fit_many(client, "kmeans", X, [dict(k=3), dict(k=-3)])


@pytest.mark.parametrize("algorithm,flags,kwargs", [
    ("pckmeans", ["--pairs-count", "50"], dict(pairs_count=50)),
    ("dcrc", ["--triplets-count", "200", "--noise", "0.1"], dict(triplets_count=200, noise=0.1)),
    ("rdpmeans", ["--pairs-rate", "0.01", "--seed", "5"], dict(pairs_rate=0.01, seed=5)),
    ("gmm", ["--k", "4"], dict(k=4)),
])
def test_evaluate_equals_the_serial_loop_and_kindred_eval(algorithm, flags, kwargs, client, iris_path):
    X, y = load_csv("iris.csv")
    parallel = kd.evaluate(client, algorithm, X, y, repeats=4, **kwargs)
    serial = kd.evaluate(None, algorithm, X, y, repeats=4, **kwargs)
    for key in serial:
        if key == "labels":
            assert all(np.array_equal(a, b) for a, b in zip(parallel[key], serial[key]))
        elif key != "seconds":
            assert parallel[key] == serial[key], key
    # each repeat is the plain fit with that seed, given the side information sampled with it
    for r, seed in enumerate(range(serial["seed"], serial["seed"] + 4)):
        side = {}
        if "pairs_count" in kwargs:
            side["pairs"] = kindred.sample_pairs(y, count=kwargs["pairs_count"], seed=seed)
        if "pairs_rate" in kwargs:
            side["pairs"] = kindred.sample_pairs(y, rate=kwargs["pairs_rate"], seed=seed)
        if "triplets_count" in kwargs:
            side["triplets"] = kindred.sample_triplets(y, kwargs["triplets_count"], noise=kwargs["noise"],
                                                       seed=seed ^ 0x5DEECE66D)
        options = {"k": serial["k"]} if serial["k_from_classes"] or "k" in kwargs else {}
        model = kindred.Clusterer(algorithm, seed=seed, **options).fit(X, **side)
        assert np.array_equal(model.labels_, serial["labels"][r])
        assert model.objective_ == serial["objective"]["values"][r]
    command = [_cli(), "eval", algorithm, "--data", iris_path, "--repeats", "4", "--json"] + flags
    cli = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    for measure in ("nmi", "ari", "f_measure", "clusters", "pairs", "triplets"):
        assert np.allclose(parallel[measure]["values"], cli[measure]["values"], rtol=1e-12, atol=0), measure
    assert (parallel["seed"], parallel["k_from_classes"]) == (cli["seed"], cli["k_from_classes"])


def test_the_example_of_docs_dask_md_runs_and_prints_what_the_page_shows(tmp_path):
    with open(os.path.join(REPO, "docs", "dask.md")) as f:
        page = f.read()
    code = re.search(r"```python\n(.*?)```", page, re.S).group(1)
    shown = re.search(r"```text\n(.*?)```", page, re.S).group(1)
    (tmp_path / "data").mkdir()
    shutil.copy(os.path.join(DATA, "iris.csv"), tmp_path / "data" / "iris.csv")
    (tmp_path / "example.py").write_text(code)
    # a file, not python -c: the worker processes import the main script (its `points` function)
    run = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True,
                         env=os.environ, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout == shown
