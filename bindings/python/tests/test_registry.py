import inspect

import pytest

import kindred
from kindred import _registry


def test_every_algorithm_has_a_generated_class():
    names = kindred.algorithms()
    assert "kmeans" in names
    for name in names:
        cls = getattr(kindred, _registry.class_name(name))
        assert cls._algorithm == name
        est = cls()
        params = est.get_params()
        assert set(params) == {kindred._estimator.python_name(o.name) for o in kindred.options(name)}
        # the signature is the option table, so help() and scikit-learn's introspection see the options
        sig = inspect.signature(cls)
        assert list(sig.parameters) == list(params)


def test_class_name_rule():
    cases = {"kmeans": "KMeans", "mpckmeans": "MPCKMeans", "copkmeans": "COPKMeans", "tcs-gm": "TCSGM",
             "tcs-vmf": "TCSVMF", "tvclust": "TVClust", "gmm": "GMM", "dcrc": "DCRC", "rdpmeans": "RDPMeans"}
    for algorithm, cls in cases.items():
        assert _registry.class_name(algorithm) == cls


def test_options_come_from_the_registry():
    opts = {o.name: o for o in kindred.options("kmeans")}
    assert opts["k"].type == "int"
    assert isinstance(opts["k"].default, int)
    assert opts["seed"].doc
    assert kindred.KMeans().k == opts["k"].default


def test_unknown_algorithm_and_option():
    with pytest.raises(kindred.NotFoundError) as e:
        kindred.Clusterer("no-such-algorithm")
    assert "no-such-algorithm" in str(e.value)
    with pytest.raises(kindred.NotFoundError) as e:
        kindred.KMeans(kk=3)
    assert "kk" in str(e.value) and "k" in str(e.value)
    with pytest.raises(TypeError):  # an unknown keyword is also a TypeError, as in Python at large
        kindred.KMeans(kk=3)


def test_metrics_and_summaries():
    assert {"nmi", "ari", "f-measure"} <= set(kindred.metrics())
    for name in kindred.algorithms():
        assert kindred.algorithm_summary(name)
        assert kindred.algorithm_uses(name) <= {"pairs", "triplets", "partial_labels", "sparse", "no_k", "transform", "soft",
                                              "shards", "shards_approx"}


def test_params_roundtrip_and_clone():
    est = kindred.KMeans(k=4, seed=3)
    assert est.get_params()["k"] == 4
    assert est.set_params(k=5) is est and est.k == 5
    generic = kindred.Clusterer("kmeans", k=2)
    assert generic.get_params()["algorithm"] == "kmeans"
    assert repr(est) == "KMeans(k=5, seed=3)"
    sklearn_base = pytest.importorskip("sklearn.base")
    copy = sklearn_base.clone(est)
    assert copy.get_params() == est.get_params() and copy is not est
    copy = sklearn_base.clone(generic)
    assert copy.get_params() == generic.get_params()
