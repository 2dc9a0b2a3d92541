import numpy as np
import pytest

import kindred
from kindred._arrays import DenseArg
from kindred._lib import COL_MAJOR, ROW_MAJOR


def test_c_and_fortran_order_are_read_in_place(iris):
    X, _ = iris
    c = np.ascontiguousarray(X)
    f = np.asfortranarray(X)
    a, b = DenseArg(c), DenseArg(f)
    assert (a.layout, a.ld, a.copied) == (ROW_MAJOR, X.shape[1], False)
    assert (b.layout, b.ld, b.copied) == (COL_MAJOR, X.shape[0], False)
    wide = np.zeros((X.shape[0], 10))
    wide[:, 2:6] = X
    s = DenseArg(wide[:, 2:6])  # a column slice: row-major with ld = 10, no copy
    assert (s.layout, s.ld, s.copied) == (ROW_MAJOR, 10, False)
    tall = np.asfortranarray(np.zeros((X.shape[0] + 7, 4)))
    tall[3:3 + X.shape[0]] = X
    t = DenseArg(tall[3:3 + X.shape[0]])  # a row slice of a Fortran array: column-major, ld = n + 7
    assert (t.layout, t.ld, t.copied) == (COL_MAJOR, X.shape[0] + 7, False)
    ref = kindred.KMeans(k=3, seed=2).fit(c).labels_
    for variant in (f, wide[:, 2:6], tall[3:3 + X.shape[0]], X[::-1][::-1], X.astype(np.float32).astype(np.float64)):
        assert np.array_equal(kindred.KMeans(k=3, seed=2).fit(variant).labels_, ref)


def test_other_dtypes_are_converted(iris):
    X, _ = iris
    Xi = np.round(X * 10).astype(np.int64)
    assert np.array_equal(kindred.KMeans(k=3, seed=1).fit(Xi).labels_,
                          kindred.KMeans(k=3, seed=1).fit(Xi.astype(float)).labels_)
    kindred.KMeans(k=2, seed=1).fit(X.tolist())  # lists are fine too
    with pytest.raises(TypeError):
        kindred.KMeans(k=2).fit(np.array([["a", "b"], ["c", "d"]]))
    with pytest.raises(TypeError):
        kindred.KMeans(k=2).fit(np.array([[object(), 1.0]], dtype=object))


def test_bad_shapes(iris):
    X, _ = iris
    with pytest.raises(ValueError, match="2-D"):
        kindred.KMeans(k=2).fit(X[:, 0])
    with pytest.raises(ValueError, match="0 sample"):
        kindred.KMeans(k=2).fit(np.zeros((0, 3)))
    km = kindred.KMeans(k=3, seed=1).fit(X)
    with pytest.raises(kindred.DimensionError):
        km.predict(X[:, :2])


def test_nan_is_an_error_with_the_library_message(iris):
    X, _ = iris
    Y = X.copy()
    Y[7, 2] = np.nan
    with pytest.raises(kindred.InvalidArgumentError) as e:
        kindred.KMeans(k=3).fit(Y)
    assert e.value.status_name and str(e.value)  # the library's own words
    assert "7" in str(e.value)


def test_option_errors(iris):
    X, _ = iris
    with pytest.raises(kindred.InvalidArgumentError) as e:
        kindred.KMeans(k=0).fit(X)
    assert "k" in str(e.value)
    with pytest.raises(kindred.InvalidArgumentError):
        kindred.KMeans(k=2.5).fit(X)
    with pytest.raises(TypeError):
        kindred.KMeans(k=[1]).fit(X)
    with pytest.raises(kindred.DimensionError):
        kindred.KMeans(k=1000).fit(X)
    assert kindred.KMeans(k="3", seed=1).fit(X).n_clusters_ == 3  # text form accepted, as the CLI does
    assert kindred.KMeans(k=np.int32(3), seed=np.uint8(1)).fit(X).n_clusters_ == 3


def test_side_information_errors(iris):
    X, y = iris
    n = len(X)
    with pytest.raises(kindred.IndexOutOfRangeError) as e:
        kindred.KMeans(k=3).fit(X, pairs=[[0, n, 1.0]])
    assert str(n) in str(e.value)
    with pytest.raises(kindred.IndexOutOfRangeError):
        kindred.KMeans(k=3).fit(X, pairs=[[-1, 3, 1.0]])
    with pytest.raises(kindred.InvalidArgumentError):
        kindred.KMeans(k=3).fit(X, pairs=[[2, 2, 1.0]])
    with pytest.raises(kindred.InvalidArgumentError):
        kindred.KMeans(k=3).fit(X, pairs=[[0, 1, np.nan]])
    with pytest.raises(ValueError):
        kindred.KMeans(k=3).fit(X, pairs=[[0.5, 1, 1.0]])
    with pytest.raises(ValueError):
        kindred.KMeans(k=3).fit(X, pairs=[[0, 1]])
    with pytest.raises(kindred.DimensionError):
        kindred.KMeans(k=3).fit(X, partial_labels=y[:10])
    with pytest.raises(kindred.InvalidArgumentError):
        kindred.KMeans(k=3).fit(X, triplets=[[0, 0, 1, 1]])
    with pytest.raises(ValueError):
        kindred.KMeans(k=3).fit(X, triplets=[[0, 2, 1, "maybe"]])
    with pytest.raises(kindred.DimensionError):
        side = kindred.SideInfo(10, pairs=[[0, 1, 1.0]])
        kindred.KMeans(k=3).fit(X, side=side)


def test_side_info_object():
    side = kindred.SideInfo(6, pairs={"i": [0, 1, 1, 4], "j": [1, 0, 2, 5], "value": [1.0, 0.5, 1.0, -2.0]})
    assert side.counts() == dict(n=6, pairs=3, triplets=0, labelled=0)
    assert np.array_equal(side.pairs, [[0, 1, 1.5], [1, 2, 1.0], [4, 5, -2.0]])
    side.add_triplets([[0, 1, 2, "yes"], [3, 4, 5, "dnk"]])
    assert np.array_equal(side.triplets, [[0, 1, 2, 1], [3, 4, 5, 0]])
    assert list(side.components()) == [0, 0, 0, 1, 2, 3]
    side.check_consistent()
    side.add_pairs([[0, 2]], value=-1.0)
    with pytest.raises(kindred.InfeasibleError):
        side.check_consistent()
    side.set_partial_labels([0, -1, -1, 1, -1, -1])
    assert side.counts()["labelled"] == 2


def test_not_fitted_and_no_transform(iris, tmp_path):
    X, _ = iris
    km = kindred.KMeans(k=3)
    with pytest.raises(kindred.StateError):
        km.predict(X)
    with pytest.raises(AttributeError):
        km.labels_
    km.fit(X)
    assert not hasattr(km, "transform")  # kmeans learns no transformation
    with pytest.raises(AttributeError):
        km.transform(X)


def test_file_errors(iris, tmp_path):
    X, _ = iris
    with pytest.raises(kindred.KindredIOError):
        kindred.load(str(tmp_path / "missing.kdm"))
    bad = tmp_path / "bad.kdm"
    bad.write_bytes(b"not a model at all" * 10)
    with pytest.raises(kindred.CorruptFileError):
        kindred.load(str(bad))
    km = kindred.KMeans(k=3, seed=1).fit(X)
    good = tmp_path / "good.kdm"
    km.save(str(good))
    data = good.read_bytes()
    (tmp_path / "cut.kdm").write_bytes(data[: len(data) // 2])
    with pytest.raises(kindred.CorruptFileError):
        kindred.load(str(tmp_path / "cut.kdm"))
    with pytest.raises(kindred.KindredIOError):
        km.save(str(tmp_path / "no" / "such" / "dir.kdm"))
