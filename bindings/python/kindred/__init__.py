"""kindred: clustering with side information (must-link / cannot-link pairs, triplets, partial labels).

Python binding over the libkindred C library. The estimators are generated from the library's
algorithm registry, so every algorithm of the installed library is here:

    >>> import kindred
    >>> kindred.algorithms()                  # names, e.g. ['kmeans', 'dpmeans', 'gmm', ...]
    >>> km = kindred.KMeans(k=3, seed=1).fit(X, pairs=P)
    >>> km.labels_, km.cluster_centers_, km.predict(X_new)
    >>> kindred.Clusterer("kmeans", k=3)      # the same through the generic class

The library is found through KINDRED_LIB (the file or its folder), KINDRED_PREFIX (install prefix),
pkg-config, or the system's loader, in that order.
"""
import numpy as _np

from . import _registry
from ._estimator import Clusterer, NotFittedError, estimator_classes, load
from ._eval import metric, sample_pairs, sample_triplets
from ._lib import (BufferTooSmallError, CancelledError, CorruptFileError, DimensionError, IndexOutOfRangeError,
                   InfeasibleError,
                   InvalidArgumentError, KindredError, KindredIOError, KindredMemoryError, NumericalError,
                   StateError, NotFoundError, has_function, lib as _lib, library_path, text as _text)
from ._registry import Option, algorithm_summary, algorithm_uses, algorithms, metrics, options
from ._side import SideInfo
from ._plot import broken_pairs, learning_curve, plot_clusters, plot_curve, principal_components

if has_function("kindred_active_select"):
    from ._active import active_select

__version__ = _text(_lib.kindred_version())

__all__ = ["Clusterer", "SideInfo", "Option", "load", "metric", "metrics", "sample_pairs", "sample_triplets",
           "algorithms", "algorithm_summary", "algorithm_uses", "options", "has_function", "library_path",
           "plot_clusters", "plot_curve", "learning_curve", "broken_pairs", "principal_components", "KindredError", "InvalidArgumentError", "DimensionError", "BufferTooSmallError", "IndexOutOfRangeError", "InfeasibleError",
           "NumericalError", "CancelledError", "NotFoundError", "StateError", "CorruptFileError",
           "KindredIOError", "KindredMemoryError", "NotFittedError"]

if has_function("kindred_active_select"):
    __all__.append("active_select")

for _algorithm, _cls in estimator_classes().items():
    globals()[_cls.__name__] = _cls
    __all__.append(_cls.__name__)
del _algorithm, _cls
