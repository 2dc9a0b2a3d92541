"""Clusterer.fit_shard without MPI (comm=None: the plain fit) and its argument checks. The fits
across MPI processes are tests/mpi's (mpirun -np 1..4 on mpi_fit_shard.py)."""
import numpy as np
import pytest

import kindred


def test_without_comm_is_fit(iris):
    X, _ = iris
    plain = kindred.KMeans(k=3, seed=2).fit(X)
    sharded = kindred.KMeans(k=3, seed=2).fit_shard(X, row_offset=0, n_total=len(X))
    assert sharded.labels_.tobytes() == plain.labels_.tobytes()
    assert sharded.cluster_centers_.tobytes() == plain.cluster_centers_.tobytes()
    assert sharded.n_iter_ == plain.n_iter_ and sharded.objective_ == plain.objective_
    assert np.array_equal(sharded.predict(X), plain.predict(X))


def test_without_comm_takes_all_the_rows(iris):
    X, _ = iris
    with pytest.raises(kindred.DimensionError, match="row_offset = 10"):
        kindred.KMeans(k=3).fit_shard(X[10:], row_offset=10, n_total=len(X))
    with pytest.raises(kindred.DimensionError, match="n_local = 0"):
        kindred.KMeans(k=3).fit_shard(np.empty((0, 4)), row_offset=0, n_total=len(X))


def test_sparse_rows_without_comm_are_fit_csr(iris):
    sparse = pytest.importorskip("scipy.sparse")
    X, _ = iris
    Xs = sparse.csr_matrix(np.where(X > 1.5, X, 0.0))
    for estimator in (lambda: kindred.KMeans(k=3, seed=2), lambda: kindred.COPKMeans(k=3, seed=2)):
        plain = estimator().fit(Xs)
        sharded = estimator().fit_shard(Xs, row_offset=0, n_total=Xs.shape[0])
        assert sharded.labels_.tobytes() == plain.labels_.tobytes()
        assert sharded.cluster_centers_.tobytes() == plain.cluster_centers_.tobytes()
        assert sharded.objective_trace_.tobytes() == plain.objective_trace_.tobytes()
    with pytest.raises(kindred.DimensionError, match="row_offset = 10"):
        kindred.KMeans(k=3).fit_shard(Xs[10:], row_offset=10, n_total=Xs.shape[0])
    with pytest.raises(kindred.InvalidArgumentError, match="does not accept sparse"):
        kindred.GMM(k=3).fit_shard(Xs, 0, Xs.shape[0])


def test_comm_must_be_a_communicator(iris):
    X, _ = iris  # refused before mpi4py is imported (which would start MPI in this process)
    with pytest.raises(TypeError, match="mpi4py communicator"):
        kindred.KMeans(k=3).fit_shard(X, 0, len(X), comm=object())


def test_shards_flag():
    assert "shards" in kindred.algorithm_uses("kmeans")
    assert "shards" in kindred.algorithm_uses("copkmeans")
    assert "shards" in kindred.algorithm_uses("mpckmeans")
    assert "shards" in kindred.algorithm_uses("rdpmeans")
