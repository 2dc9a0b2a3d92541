"""Estimators with the scikit-learn conventions, one generic class and one generated per algorithm."""
import inspect
import keyword
import numbers
import os
import tempfile
import threading

import numpy as np

from . import _registry
from ._arrays import CsrArg, DenseArg, is_sparse, ptr
from ._callbacks import log_trampoline, progress_trampoline
from ._lib import (CONSTANTS, CancelledError, StateError, UnknownOptionError, check, error_for, ffi, lib, text)
from ._side import make_side

_option_cache = {}


def _options(algorithm):
    if algorithm not in _option_cache:
        _option_cache[algorithm] = {python_name(o.name): o for o in _registry.options(algorithm)}
    return _option_cache[algorithm]


def python_name(option_name):
    """The keyword for an option: '-' becomes '_', and a Python keyword gets a trailing '_' ('lambda_')."""
    name = option_name.replace("-", "_")
    return name + "_" if keyword.iskeyword(name) else name


def _new_model(algorithm):
    out = ffi.new("kindred_model **")
    check(lib.kindred_model_new(out, algorithm.encode()))
    return ffi.gc(out[0], lib.kindred_model_free)


def _set_option(model, option, value):
    name = option.name.encode()
    if isinstance(value, (bool, np.bool_)):
        status = lib.kindred_model_set_int(model, name, int(value))
    elif isinstance(value, str):
        status = lib.kindred_model_set_string(model, name, value.encode())
    elif isinstance(value, numbers.Integral):
        if not -2 ** 63 <= int(value) < 2 ** 63:
            raise ValueError("option %s: %d does not fit in 64 bits" % (option.name, value))
        status = lib.kindred_model_set_int(model, name, int(value))
    elif isinstance(value, numbers.Real):
        status = lib.kindred_model_set_double(model, name, float(value))
    else:
        raise TypeError("option %s: expected a number, bool or string, got %r" % (option.name, type(value).__name__))
    check(status)


def _get_option(model, name):
    capacity = 256
    while True:
        buf = ffi.new("char[]", capacity)
        status = lib.kindred_model_get_option(model, name.encode(), buf, capacity)
        if status == CONSTANTS["KINDRED_E_DIMENSION"] and capacity < (1 << 20):
            capacity *= 16
            continue
        check(status)
        return ffi.string(buf).decode()


def _same(a, b):
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:
        return a is b


class Clusterer:
    """A kindred model with the scikit-learn conventions.

    Clusterer(algorithm, **options): `algorithm` is any name of kindred.algorithms(); the options are
    those of kindred.options(algorithm) (an option left at None keeps the library's default). The
    generated classes (kindred.KMeans, kindred.MPCKMeans, ...) are the same with the algorithm fixed.

    After fit: labels_, n_clusters_, n_iter_, converged_, objective_, n_features_in_, arrays_ (every
    named result array, e.g. "centers", "objective_trace", "memberships", "metric") and, for each of
    them, an attribute NAME_ (cluster_centers_ for "centers").
    """

    _algorithm = None  # fixed by the generated subclasses
    _estimator_type = "clusterer"  # scikit-learn's tag for clustering estimators

    def __init__(self, algorithm=None, **options):
        if self._algorithm is not None:
            if algorithm is not None:
                raise TypeError("%s() takes no algorithm argument" % type(self).__name__)
            algorithm = self._algorithm
        elif not isinstance(algorithm, str):
            raise TypeError("Clusterer(algorithm, **options): algorithm must be a name from kindred.algorithms()")
        table = _options(algorithm)  # raises UnknownOptionError (with the library's message) for a bad name
        object.__setattr__(self, "_params", {name: o.default for name, o in table.items()})
        object.__setattr__(self, "_fitted_algorithm", None)
        object.__setattr__(self, "_lock", threading.Lock())
        if self._algorithm is None:
            object.__setattr__(self, "algorithm", algorithm)
        self.set_params(**options)

    # ---- parameters -------------------------------------------------------------------------
    @property
    def _table(self):
        return _options(self._algorithm or self.algorithm)

    def __getattr__(self, name):
        params = self.__dict__.get("_params")
        if params is not None and name in params:
            return params[name]
        raise AttributeError("%r object has no attribute %r" % (type(self).__name__, name))

    def __setattr__(self, name, value):
        if name in self.__dict__.get("_params", ()):
            self._params[name] = value
        elif name == "algorithm" and self._algorithm is None:
            if value not in _registry.algorithms():
                _options(value)  # library error naming the unknown algorithm
            object.__setattr__(self, "algorithm", value)
            object.__setattr__(self, "_params", {n: o.default for n, o in _options(value).items()})
        else:
            object.__setattr__(self, name, value)

    def get_params(self, deep=True):
        """The estimator's parameters (the algorithm's options; `algorithm` too for Clusterer)."""
        params = dict(self._params)
        if self._algorithm is None:
            params = dict(algorithm=self.algorithm, **params)
        return params

    def set_params(self, **params):
        """Set options by name; unknown names raise UnknownOptionError listing the valid ones. Returns self."""
        if "algorithm" in params:
            if self._algorithm is not None:
                raise UnknownOptionError("%s: the algorithm is fixed; use kindred.Clusterer for another one" % type(self).__name__)
            self.algorithm = params.pop("algorithm")
        table = self._table
        for name, value in params.items():
            if name not in table and python_name(name) in table:
                name = python_name(name)  # the library's spelling, e.g. "lambda"
            if name not in table:
                raise UnknownOptionError("%s: unknown option %r; valid options: %s"
                                         % (self._algorithm or self.algorithm, name, ", ".join(table)),
                                         CONSTANTS["KINDRED_E_UNKNOWN_OPTION"])
            self._params[name] = value
        return self

    def __repr__(self):
        table = self._table
        changed = ["%s=%r" % (k, v) for k, v in self._params.items() if not _same(v, table[k].default)]
        if self._algorithm is None:
            changed.insert(0, repr(self.algorithm))
        return "%s(%s)" % (type(self).__name__, ", ".join(changed))

    # ---- fitting ------------------------------------------------------------------------------
    def _configured_model(self):
        algorithm = self._algorithm or self.algorithm
        model = _new_model(algorithm)
        for name, value in self._params.items():
            if value is not None:
                _set_option(model, self._table[name], value)
        return model

    def fit(self, X, y=None, pairs=None, triplets=None, partial_labels=None, side=None, progress=None):
        """Cluster the rows of X, using whatever side information is given.

        X: (n, d) array-like (C or Fortran order float64 is read in place) or a scipy.sparse matrix
           for algorithms that accept sparse data.
        y: ignored (scikit-learn convention).
        pairs: (m, 3) rows (i, j, value): value > 0 must-link of that weight, < 0 cannot-link.
        triplets: (m, 4) rows (a, b, c, answer), answer +1 / -1 / 0 (don't know).
        partial_labels: length-n labels, -1 where unknown.
        side: a kindred.SideInfo instead of the three above.
        progress: None, True (a progress bar: tqdm if installed, else a line on stderr), or a
           callable(iteration, objective, message) whose truthy return cancels the fit.
        Returns self.
        """
        model = self._configured_model()
        sparse = is_sparse(X)
        data = CsrArg(X) if sparse else DenseArg(X)
        side_info = make_side(data.n, side, pairs, triplets, partial_labels)
        side_handle = side_info.handle if side_info is not None else ffi.NULL
        progress_cb, display = progress_trampoline(progress, "kindred " + (self._algorithm or self.algorithm))
        logger = log_trampoline()
        check(lib.kindred_model_set_log(model, logger.pointer, ffi.NULL))
        if progress_cb is not None:
            check(lib.kindred_model_set_progress(model, progress_cb.pointer, ffi.NULL))
        try:
            if sparse:
                status = lib.kindred_model_fit_csr(model, data.n, data.d, data.p_indptr, data.p_indices,
                                                   data.p_values, side_handle)
            else:
                status = lib.kindred_model_fit_dense(model, data.ptr, data.n, data.d, data.layout, data.ld,
                                                     side_handle)
            err = error_for(status) if status != CONSTANTS["KINDRED_OK"] else None
        finally:
            # The callbacks die with this frame: the model must not keep pointers to them.
            lib.kindred_model_set_progress(model, ffi.NULL, ffi.NULL)
            lib.kindred_model_set_log(model, ffi.NULL, ffi.NULL)
            if display is not None:
                display.close()
        if progress_cb is not None and progress_cb.error is not None:
            progress_cb.reraise()  # the callback's own exception (KeyboardInterrupt included)
        if err is not None:
            raise err
        self._adopt(model)
        return self

    def fit_predict(self, X, y=None, **fit_args):
        """fit(X, **fit_args) and return labels_."""
        return self.fit(X, y, **fit_args).labels_

    def _adopt(self, model):
        """Keep a fitted model handle and copy its results into attributes."""
        for key in [k for k in self.__dict__ if k.endswith("_") and not k.startswith("_")]:
            del self.__dict__[key]
        object.__setattr__(self, "_model", model)
        object.__setattr__(self, "_fitted_algorithm", text(lib.kindred_model_algorithm(model)))
        n, d, k, it = (ffi.new("int64_t *") for _ in range(4))
        conv = ffi.new("int *")
        obj = ffi.new("double *")
        check(lib.kindred_model_summary(model, n, d, k, it, conv, obj))
        labels = np.empty(n[0], np.int32)
        check(lib.kindred_model_labels(model, ptr(labels, "int32_t"), n[0]))
        arrays = {}
        count = ffi.new("int64_t *")
        check(lib.kindred_model_array_count(model, count))
        for index in range(count[0]):
            name, rows, cols = ffi.new("const char **"), ffi.new("int64_t *"), ffi.new("int64_t *")
            check(lib.kindred_model_array_info(model, index, name, rows, cols))
            a = np.empty((rows[0], cols[0]), np.float64)
            check(lib.kindred_model_get_array(model, name[0], ptr(a, "double"), a.size))
            arrays[text(name[0])] = a
        values = dict(labels_=labels, n_clusters_=int(k[0]), n_iter_=int(it[0]), converged_=bool(conv[0]),
                      objective_=float(obj[0]), n_features_in_=int(d[0]), arrays_=arrays)
        for name, a in arrays.items():
            attr = ("cluster_" + name if name == "centers" else name).replace("-", "_") + "_"
            # an array that would shadow an option's keyword (dpmeans' "lambda" -> lambda_) stays in arrays_ only
            if attr.isidentifier() and attr not in values and not hasattr(type(self), attr) and attr not in self._params:
                values[attr] = a
        self.__dict__.update(values)

    def _fitted_model(self):
        model = self.__dict__.get("_model")
        if model is None:
            raise StateError("this %s is not fitted yet; call fit first" % type(self).__name__,
                             CONSTANTS["KINDRED_E_STATE"])
        return model

    # ---- using a fitted model -----------------------------------------------------------------
    def predict(self, X):
        """Assign new points to the fitted clusters (int32 labels)."""
        with self._lock:  # the C API allows one thread at a time per model
            return self._predict(X)

    def _predict(self, X):
        model = self._fitted_model()
        if is_sparse(X):
            data = CsrArg(X)
            labels = np.empty(data.n, np.int32)
            check(lib.kindred_model_predict_csr(model, data.n, data.d, data.p_indptr, data.p_indices,
                                                data.p_values, ptr(labels, "int32_t"), data.n))
            return labels
        data = DenseArg(X)
        labels = np.empty(data.n, np.int32)
        check(lib.kindred_model_predict_dense(model, data.ptr, data.n, data.d, data.layout, data.ld,
                                              ptr(labels, "int32_t"), data.n))
        return labels

    def transform(self, X):
        """Map new points through the learned transformation (for the algorithms that learn one)."""
        with self._lock:
            return self._transform(X)

    def _transform(self, X):
        model = self._fitted_model()
        dim = ffi.new("int64_t *")
        check(lib.kindred_model_transform_dim(model, dim))
        if is_sparse(X):
            raise TypeError("transform: the C API transforms dense points only; pass X.toarray()")
        data = DenseArg(X)
        out = np.empty((data.n, dim[0]), np.float64)
        check(lib.kindred_model_transform_dense(model, data.ptr, data.n, data.d, data.layout, data.ld,
                                                ptr(out, "double"), out.size))
        return out

    def fit_transform(self, X, y=None, **fit_args):
        return self.fit(X, y, **fit_args).transform(X)

    def save(self, path):
        """Save the fitted model (options and results) to a file; kindred.load(path) reads it back."""
        with self._lock:
            check(lib.kindred_model_save(self._fitted_model(), os.fsencode(path)))

    # ---- pickling goes through the library's own file format -----------------------------------
    def __getstate__(self):
        state = {"params": dict(self._params), "algorithm": self._algorithm or self.algorithm, "model": None}
        if self.__dict__.get("_model") is not None:
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "model.kdm")
                self.save(path)
                with open(path, "rb") as f:
                    state["model"] = f.read()
        return state

    def __setstate__(self, state):
        object.__setattr__(self, "_lock", threading.Lock())
        object.__setattr__(self, "_params", dict(state["params"]))
        object.__setattr__(self, "_fitted_algorithm", None)
        if self._algorithm is None:
            object.__setattr__(self, "algorithm", state["algorithm"])
        if state["model"] is not None:
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "model.kdm")
                with open(path, "wb") as f:
                    f.write(state["model"])
                self._adopt(_load_handle(path))


def _load_handle(path):
    out = ffi.new("kindred_model **")
    check(lib.kindred_model_load(out, os.fsencode(path)))
    return ffi.gc(out[0], lib.kindred_model_free)


def load(path):
    """Load a model saved by .save() (or by the CLI's --model): a fitted estimator of the right class."""
    model = _load_handle(path)
    algorithm = text(lib.kindred_model_algorithm(model))
    cls = estimator_classes().get(algorithm)
    est = cls() if cls is not None else Clusterer(algorithm)
    for name, option in _options(algorithm).items():
        est._params[name] = _registry.typed_value(option.type, _get_option(model, option.name))
    est._adopt(model)
    return est


_classes = {}


def _make_class(algorithm, name):
    table = _options(algorithm)
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += [inspect.Parameter(p, inspect.Parameter.KEYWORD_ONLY, default=o.default) for p, o in table.items()]

    def __init__(self, **options):
        Clusterer.__init__(self, **options)

    __init__.__signature__ = inspect.Signature(params)
    summary = _registry.algorithm_summary(algorithm)
    uses = sorted(_registry.algorithm_uses(algorithm))
    doc = ["%s: %s." % (algorithm, summary), "",
           "Side information used: %s." % (", ".join(uses) if uses else "none"), "", "Options:"]
    doc += ["    %s : %s, default %r, range %s -- %s" % (p, o.type, o.default, o.range, o.doc) for p, o in table.items()]
    doc += ["", Clusterer.__doc__]
    return type(name, (Clusterer,), {"_algorithm": algorithm, "__init__": __init__, "__doc__": "\n".join(doc),
                                     "__module__": "kindred"})


def estimator_classes():
    """{algorithm name: generated estimator class}, built from the registry of the loaded library."""
    if not _classes:
        for algorithm in _registry.algorithms():
            name = _registry.class_name(algorithm)
            if name is not None:
                _classes[algorithm] = _make_class(algorithm, name)
    return _classes
