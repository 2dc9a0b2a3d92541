"""The binding and the `kindred` command-line program give the same labels on the same data and seed."""
import os
import shutil
import subprocess

import numpy as np
import pytest

import kindred
from conftest import REPO, load_csv


def _cli():
    if os.environ.get("KINDRED_CLI") == "":
        pytest.skip("KINDRED_CLI is empty: no CLI to compare with")
    cli = os.environ.get("KINDRED_CLI") or shutil.which("kindred")
    if not cli:
        for build in sorted(os.listdir(REPO)):
            path = os.path.join(REPO, build, "tools", "kindred", "kindred")
            if build.startswith("build") and os.access(path, os.X_OK):
                cli = path
                break
    if not cli or not os.access(cli, os.X_OK):
        pytest.skip("the kindred CLI was not found (set KINDRED_CLI)")
    return cli


def _read_labels(path):
    with open(path) as f:
        header = f.readline().strip()
        assert header == "cluster", header
        return np.array([int(line) for line in f if line.strip()], dtype=np.int32)


@pytest.mark.parametrize("algorithm", kindred.algorithms())
def test_fit_equals_cli(algorithm, iris_path, tmp_path):
    cli = _cli()
    X, y = load_csv("iris.csv")
    uses = kindred.algorithm_uses(algorithm)
    args = [cli, "fit", algorithm, "--data", iris_path, "--seed", "7", "--out", str(tmp_path / "labels.csv")]
    fit_args = {}
    if "pairs" in uses:
        pairs = kindred.sample_pairs(y, count=40, seed=5)
        with open(tmp_path / "pairs.csv", "w") as f:
            f.write("i,j,value\n")
            for i, j, v in pairs:
                f.write("%d,%d,%g\n" % (i, j, v))
        args += ["--pairs", str(tmp_path / "pairs.csv")]
        fit_args["pairs"] = pairs
    if "triplets" in uses:
        triplets = kindred.sample_triplets(y, count=100, seed=5)
        with open(tmp_path / "triplets.csv", "w") as f:
            f.write("a,b,c,answer\n")
            for row in triplets:
                f.write("%d,%d,%d,%d\n" % tuple(row))
        args += ["--triplets", str(tmp_path / "triplets.csv")]
        fit_args["triplets"] = triplets
    if "partial_labels" in uses:
        partial = np.full(len(y), -1, np.int32)
        partial[::4] = y[::4]
        with open(tmp_path / "partial.csv", "w") as f:
            f.write("label\n" + "".join("%d\n" % v for v in partial))
        args += ["--partial-labels", str(tmp_path / "partial.csv")]
        fit_args["partial_labels"] = partial
    est = kindred.Clusterer(algorithm, seed=7)
    if "k" in est.get_params():
        est.set_params(k=3)
        args += ["--k", "3"]
    r = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, "CLI failed: %s\n%s" % (" ".join(args), r.stderr)
    est.fit(X, **fit_args)
    assert np.array_equal(_read_labels(tmp_path / "labels.csv"), est.labels_)
