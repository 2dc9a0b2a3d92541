"""float32 arrays go to the C API's _f32 entry points in place (no float64
copy), and give the result of the float64 array with the same values."""
import numpy as np
import pytest

import kindred
from kindred._arrays import DenseArg
from kindred._lib import COL_MAJOR, ROW_MAJOR

from conftest import load_csv


def test_float32_arrays_are_read_in_place():
    X = np.arange(60, dtype=np.float32).reshape(20, 3)
    a = DenseArg(X, float32=True)
    assert (a.f32, a.layout, a.ld, a.copied) == (True, ROW_MAJOR, 3, False)
    b = DenseArg(np.asfortranarray(X), float32=True)
    assert (b.f32, b.layout, b.ld) == (True, COL_MAJOR, 20)
    # where only float64 is taken (active selection), float32 is converted
    c = DenseArg(X)
    assert (c.f32, c.copied) == (False, True)


@pytest.mark.parametrize("algorithm", ["kmeans", "gmm", "pckmeans", "mpckmeans", "copkmeans"])
def test_float32_gives_the_float64_result(algorithm):
    X, y = load_csv("iris.csv")
    X32 = np.ascontiguousarray(X, dtype=np.float32)
    X64 = X32.astype(np.float64)  # the same values
    pairs = kindred.sample_pairs(y, count=100, seed=3)
    fits = []
    for data in (X64, X32):
        est = kindred.Clusterer(algorithm, k=3, seed=5, standardize=True)
        est.fit(data, pairs=None if algorithm in ("kmeans", "gmm") else pairs)
        fits.append(est)
    assert np.array_equal(fits[0].labels_, fits[1].labels_)
    assert np.array_equal(fits[0].predict(X64), fits[1].predict(X32))
    assert np.array_equal(fits[0].predict(X32), fits[0].predict(X64))
    if algorithm == "gmm":
        assert np.array_equal(fits[0].predict_proba(X32), fits[0].predict_proba(X64))


def test_float32_nan_names_row_and_column():
    X = np.ones((10, 2), dtype=np.float32)
    X[4, 1] = np.nan
    with pytest.raises(kindred.KindredError, match="row 4, column 1 is NaN"):
        kindred.Clusterer("kmeans", k=2).fit(X)
