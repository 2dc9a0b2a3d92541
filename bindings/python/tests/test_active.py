import numpy as np
import pytest

import kindred

pytestmark = pytest.mark.skipif(not kindred.has_function("kindred_active_select"),
                                reason="this libkindred has no kindred_active_select")


def test_oracle_answers_become_pairs(iris):
    X, y = iris
    asked = []

    def oracle(i, j):
        asked.append((i, j))
        return 1 if y[i] == y[j] else -1

    side = kindred.active_select(X, oracle, budget=30, k=3, seed=1)
    assert 0 < len(asked) <= 30
    assert all(isinstance(i, int) and i < j for i, j in asked)
    pairs = side.pairs
    assert len(pairs) >= 1
    for i, j, v in pairs:  # every stored answer agrees with the labels (inferred ones included)
        assert v == (1.0 if y[int(i)] == y[int(j)] else -1.0)
    # the same seed and oracle give the same questions
    again = []
    kindred.active_select(X, lambda i, j: (again.append((i, j)), 1 if y[i] == y[j] else -1)[1], budget=30, k=3, seed=1)
    assert again == asked
    # ready for a fit
    est = kindred.Clusterer(next(a for a in kindred.algorithms() if "pairs" in kindred.algorithm_uses(a)))
    if "k" in est.get_params():
        est.set_params(k=3)
    est.fit(X, side=side)


def test_bools_and_none_are_answers(iris):
    X, y = iris
    side = kindred.active_select(X, lambda i, j: None if (i + j) % 3 == 0 else bool(y[i] == y[j]), budget=20,
                                 k=None, strategy="explore")
    assert side.n == len(X)


def test_oracle_exceptions_come_back_and_leave_the_side_unchanged(iris):
    X, y = iris

    class Boom(Exception):
        pass

    calls = []

    def oracle(i, j):
        calls.append(1)
        if len(calls) == 3:
            raise Boom("from the oracle")
        return 1

    side = kindred.SideInfo(len(X))
    with pytest.raises(Boom):
        kindred.active_select(X, oracle, budget=50, k=3, side=side)
    assert len(calls) == 3 and side.counts()["pairs"] == 0
    with pytest.raises(ValueError, match="answer"):
        kindred.active_select(X, lambda i, j: 7, budget=5, k=3)
    with pytest.raises(KeyboardInterrupt):
        kindred.active_select(X, lambda i, j: (_ for _ in ()).throw(KeyboardInterrupt), budget=5, k=3)


def test_bad_arguments(iris):
    X, y = iris
    with pytest.raises(kindred.InvalidArgumentError, match="explore-consolidate"):
        kindred.active_select(X, lambda i, j: 1, budget=5, strategy="psychic")
    with pytest.raises(kindred.DimensionError):
        kindred.active_select(X, lambda i, j: 1, budget=5, k=len(X) + 1)
    with pytest.raises(kindred.InvalidArgumentError):
        kindred.active_select(X, lambda i, j: 1, budget=-1, k=3)
    with pytest.raises(kindred.DimensionError):
        kindred.active_select(X, lambda i, j: 1, budget=5, k=3, side=kindred.SideInfo(10))
