"""Estimators with the scikit-learn conventions, one generic class and one generated per algorithm."""
import inspect
import keyword
import numbers
import os
import re
import tempfile
import threading

import numpy as np

from . import _registry
from ._arrays import CsrArg, DenseArg, is_sparse, ptr
from ._callbacks import interrupt_cancels, log_trampoline, progress_trampoline
from ._lib import (CONSTANTS, CancelledError, StateError, NotFoundError, check, error_for, ffi, lib, text)
from ._shard import MpiComm
from ._side import SideInfo, make_side

try:  # scikit-learn is optional: with it, the estimators are its BaseEstimator / ClusterMixin
    from sklearn.base import BaseEstimator as _BaseEstimator, ClusterMixin as _ClusterMixin
    from sklearn.exceptions import NotFittedError as _NotFittedBase
except ImportError:
    class _BaseEstimator:
        pass

    class _ClusterMixin:
        _estimator_type = "clusterer"

    class _NotFittedBase(ValueError, AttributeError):
        pass


class NotFittedError(StateError, _NotFittedBase):
    """The estimator is not fitted yet (scikit-learn's NotFittedError when scikit-learn is installed)."""


# scikit-learn's spellings of a registry option, accepted as keywords and attributes (never listed by
# get_params, so that clone() and GridSearchCV see one parameter): a naming rule, like python_name.
_ALIASES = {"n_clusters": "k"}

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
        status = lib.kindred_model_option(model, name.encode(), buf, capacity)
        if status == CONSTANTS["KINDRED_E_BUFFER_TOO_SMALL"] and capacity < (1 << 20):
            capacity *= 16
            continue
        check(status)
        return ffi.string(buf).decode()


def _feature_names(X):
    """A DataFrame's column names when they are all strings (scikit-learn's feature_names_in_), else None."""
    columns = getattr(X, "columns", None)
    if columns is None or is_sparse(X):
        return None
    names = list(columns)
    return np.asarray(names, dtype=object) if names and all(isinstance(c, str) for c in names) else None


def _tags(algorithm):
    """scikit-learn's estimator tags: the checks of check_estimator an algorithm is known to fail, with
    the reason (docs: bindings/README.md). The reasons follow from the registry, not from names: an
    algorithm whose k must be at least 2 cannot take the n_clusters = 1 that some checks set."""
    uses = _registry.algorithm_uses(algorithm)
    xfail = {}
    k = {o.name: o for o in _registry.options(algorithm)}.get("k")
    low = re.match(r"\[\s*(\d+)", k.range) if k is not None else None
    if low and int(low.group(1)) > 1 and "no_k" not in uses:
        reason = "%s needs k >= %s; the check sets n_clusters = 1" % (algorithm, low.group(1))
        for check in ("check_dict_unchanged", "check_dont_overwrite_parameters", "check_fit2d_predict1d",
                      "check_methods_subset_invariance", "check_fit2d_1sample", "check_fit2d_1feature"):
            xfail[check] = reason
    return {"_xfail_checks": xfail} if xfail else {}


def _same(a, b):
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:
        return a is b


class _IfOffered:
    """A method that exists only where the algorithm offers it (a KINDRED_USES_* flag of the registry):
    elsewhere reading it raises AttributeError, so hasattr() is False and scikit-learn does not take a
    clusterer for a transformer, nor look for probabilities it does not have."""

    def __init__(self, flag, fn):
        self.flag, self.fn = flag, fn
        self.__doc__ = fn.__doc__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        algorithm = obj._algorithm or obj.__dict__.get("algorithm")
        if algorithm is None or self.flag not in _registry.algorithm_uses(algorithm):
            raise AttributeError("%s: %s has no %s" % (type(obj).__name__, algorithm, self.fn.__name__))
        return self.fn.__get__(obj, cls)


def _offered(flag):
    return lambda fn: _IfOffered(flag, fn)


class Clusterer(_ClusterMixin, _BaseEstimator):
    """A kindred model with the scikit-learn conventions.

    Clusterer(algorithm, **options): `algorithm` is any name of kindred.algorithms(); the options are
    those of kindred.options(algorithm) (an option left at None keeps the library's default), stored
    as attributes of the same names. The generated classes (kindred.KMeans, kindred.MPCKMeans, ...)
    are the same with the algorithm fixed; they are scikit-learn estimators (BaseEstimator,
    ClusterMixin) when scikit-learn is installed. `n_clusters` is accepted for `k`.

    After fit: labels_, n_clusters_, n_iter_, converged_, objective_, n_features_in_,
    feature_names_in_ (for a DataFrame with string column names), arrays_ (every named result array,
    e.g. "centers", "objective_trace", "memberships", "metric") and, for each of them, an attribute
    NAME_ (cluster_centers_ for "centers"). predict_proba exists for the algorithms with soft
    memberships of new points, transform for those that learn a transformation.
    """

    _algorithm = None  # fixed by the generated subclasses

    def __init__(self, algorithm=None, **options):
        if self._algorithm is not None:
            if algorithm is not None:
                raise TypeError("%s() takes no algorithm argument" % type(self).__name__)
        else:
            if not isinstance(algorithm, str):
                raise TypeError("Clusterer(algorithm, **options): algorithm must be a name from kindred.algorithms()")
            _options(algorithm)  # raises NotFoundError (with the library's message) for a bad name
            self.algorithm = algorithm
        for name, option in self._table.items():
            setattr(self, name, option.default)
        self._set_options(options)

    # ---- parameters -------------------------------------------------------------------------
    @property
    def _table(self):
        return _options(self._algorithm or self.__dict__["algorithm"])

    @property
    def _params(self):
        return {name: getattr(self, name) for name in self._table}

    @classmethod
    def _get_param_names(cls):
        if cls._algorithm is None:
            raise TypeError("Clusterer's parameters depend on its algorithm; use get_params()")
        return sorted(_options(cls._algorithm))

    def get_params(self, deep=True):
        """The estimator's parameters (the algorithm's options; `algorithm` too for Clusterer)."""
        params = self._params
        if self._algorithm is None:
            params = dict(algorithm=self.algorithm, **params)
        return params

    def set_params(self, **params):
        """Set options by name; unknown names raise NotFoundError listing the valid ones. Returns self."""
        if "algorithm" in params:
            if self._algorithm is not None:
                raise NotFoundError("%s: the algorithm is fixed; use kindred.Clusterer for another one" % type(self).__name__)
            algorithm = params.pop("algorithm")
            if algorithm != self.algorithm:
                new_table = _options(algorithm)  # library error naming an unknown algorithm
                for name in self._table:
                    self.__dict__.pop(name, None)
                self.algorithm = algorithm
                for name, option in new_table.items():
                    setattr(self, name, option.default)
        self._set_options(params)
        return self

    def _aliases(self):
        """The aliases that apply: n_clusters only where k is the number of clusters, not a hint to an
        algorithm that finds the number itself (no_k)."""
        algorithm = self._algorithm or self.__dict__.get("algorithm")
        if algorithm is None or "no_k" in _registry.algorithm_uses(algorithm):
            return {}
        return {a: t for a, t in _ALIASES.items() if t in _options(algorithm)}

    def _set_options(self, params):
        table = self._table
        aliases = self._aliases()
        for name, value in params.items():
            if name in aliases:
                name = aliases[name]
            if name not in table and python_name(name) in table:
                name = python_name(name)  # the library's spelling, e.g. "lambda"
            if name not in table:
                raise NotFoundError("%s: unknown option %r; valid options: %s"
                                         % (self._algorithm or self.algorithm, name, ", ".join(table)),
                                         CONSTANTS["KINDRED_E_NOT_FOUND"])
            setattr(self, name, value)

    def __getattr__(self, name):  # only called when normal lookup fails: the aliases
        if name in _ALIASES:
            target = self._aliases().get(name)
            if target is not None and target in self.__dict__:
                return self.__dict__[target]
        raise AttributeError("%r object has no attribute %r" % (type(self).__name__, name))

    def __setattr__(self, name, value):
        if name in _ALIASES:
            name = self._aliases().get(name, name)
        object.__setattr__(self, name, value)

    def __repr__(self):
        table = self._table
        params = self._params
        changed = ["%s=%r" % (k, v) for k, v in params.items() if not _same(v, table[k].default)]
        if self._algorithm is None:
            changed.insert(0, repr(self.algorithm))
        return "%s(%s)" % (type(self).__name__, ", ".join(changed))

    def __sklearn_is_fitted__(self):
        return self.__dict__.get("_model") is not None

    def _more_tags(self):
        return _tags(self._algorithm or self.algorithm)

    # ---- fitting ------------------------------------------------------------------------------
    def _configured_model(self):
        algorithm = self._algorithm or self.algorithm
        model = _new_model(algorithm)
        for name, value in self._params.items():
            if value is not None:
                _set_option(model, self._table[name], value)
        return model

    def fit(self, X, y=None, pairs=None, triplets=None, partial_labels=None, side=None, progress=None,
            ml=None, cl=None):
        """Cluster the rows of X, using whatever side information is given.

        X: (n, d) array-like (C or Fortran order float64 is read in place), a pandas DataFrame, or a
           scipy.sparse matrix for algorithms that accept sparse data.
        y: ignored, unless it is a kindred.SideInfo (then it is the side information: the way to give
           it through scikit-learn's cross-validation, which hands each fold its own rows of y).
        pairs: (m, 3) rows (i, j, value): value > 0 must-link of that weight, < 0 cannot-link.
        ml, cl: (m, 2) index pairs: must-links and cannot-links of weight 1.
        triplets: (m, 4) rows (a, b, c, answer), answer +1 / -1 / 0 (don't know).
        partial_labels: length-n labels, -1 where unknown.
        side: a kindred.SideInfo instead of the arrays above.
        progress: None, True (a progress bar: tqdm if installed, else a line on stderr), or a
           callable(iteration, objective, message) whose truthy return cancels the fit.
        Ctrl-C cancels the fit at the library's next progress report and raises KeyboardInterrupt.
        Returns self.
        """
        if isinstance(y, SideInfo):
            if side is not None:
                raise ValueError("give the side information once: as y or as side=, not both")
            side, y = y, None
        names = _feature_names(X)
        model = self._configured_model()
        sparse = is_sparse(X)
        data = CsrArg(X) if sparse else DenseArg(X, float32=True)
        if data.n < 2:
            raise ValueError("X: n_samples = %d; clustering needs at least 2 points" % data.n)
        side_info = make_side(data.n, side, pairs, triplets, partial_labels, ml, cl)
        side_handle = side_info.handle if side_info is not None else ffi.NULL
        if sparse:
            self._call(model, progress, lambda: lib.kindred_model_fit_csr(
                model, data.n, data.d, data.p_indptr, data.p_indices, data.p_values, side_handle))
        else:
            fit_dense = getattr(lib, "kindred_model_fit_dense" + data.suffix)
            self._call(model, progress, lambda: fit_dense(model, data.ptr, data.n, data.d, data.layout, data.ld,
                                                          side_handle))
        self._adopt(model)
        if names is not None:
            self.feature_names_in_ = names
        return self

    def _call(self, model, progress, fit, comm=None):
        """Run fit() (a C call returning a status) with the progress and log callbacks set on the model
        (and, for a sharded fit, the MpiComm whose callbacks it may call); raise what went wrong once
        C has returned: KeyboardInterrupt after Ctrl-C, a callback's own exception, or the library's
        error."""
        progress_cb, display = progress_trampoline(progress, "kindred " + (self._algorithm or self.algorithm))
        logger = log_trampoline()
        check(lib.kindred_model_set_log(model, logger.pointer, ffi.NULL))
        check(lib.kindred_model_set_progress(model, progress_cb.pointer, ffi.NULL))
        try:
            with interrupt_cancels(progress_cb):
                status = fit()
                err = error_for(status) if status != CONSTANTS["KINDRED_OK"] else None
        finally:
            # The callbacks die with this frame: the model must not keep pointers to them.
            lib.kindred_model_set_progress(model, ffi.NULL, ffi.NULL)
            lib.kindred_model_set_log(model, ffi.NULL, ffi.NULL)
            if display is not None:
                display.close()
        if progress_cb.interrupted:
            raise KeyboardInterrupt
        if progress_cb.error is not None:
            progress_cb.reraise()  # the callback's own exception
        if comm is not None and err is not None:
            comm.reraise()  # a communicator callback's exception (mpi4py's), with the fit's error as context
        if err is not None:
            raise err

    def fit_shard(self, X, row_offset, n_total, comm=None, side=None, pairs=None, triplets=None, partial_labels=None,
                  ml=None, cl=None, progress=None):
        """Fit on points split by rows over the processes of an MPI communicator (collective).

        Every rank of `comm` calls fit_shard with the same options, n_total and side information, and
        its own rows: X holds the rows [row_offset, row_offset + n_local) of the n_total points (float64
        (n_local, d), read in place when C- or Fortran-ordered, or a scipy.sparse matrix for the
        algorithms that accept sparse data (kindred_model_fit_csr_shard); n_local may be 0). The ranks'
        rows cover [0, n_total) exactly once, in any sizes and any assignment of slices to ranks.
        comm: an mpi4py communicator (e.g. mpi4py.MPI.COMM_WORLD); None (or one rank) is fit() on all
           the points, then row_offset must be 0 and len(X) == n_total.
        side, pairs, ml, cl, triplets, partial_labels: side information about all n_total points, the
           same on every rank (as in fit()).
        progress: as in fit(); a cancel on one rank cancels every rank.

        Afterwards every rank holds the whole model (cluster_centers_, objective_trace_, n_iter_, ...)
        and labels_ of its own rows only; predict works on any rank. For the algorithms whose
        kindred.algorithm_uses() has "shards" (kmeans, gmm, dpmeans, copkmeans) the results are bitwise
        those of fit() on all the points, for any number of ranks and any split. Every rank raises the same error (an
        error found on one rank names it). Returns self. See docs/distributed.md.
        """
        names = _feature_names(X)
        model = self._configured_model()
        row_offset, n_total = int(row_offset), int(n_total)
        if is_sparse(X):
            keep = CsrArg(X)  # int64 / float64 CSR arrays of this rank's rows, indptr from 0

            def fit(comm_pointer):
                return lib.kindred_model_fit_csr_shard(model, comm_pointer, keep.n, keep.d, keep.p_indptr,
                                                       keep.p_indices, keep.p_values, row_offset, n_total,
                                                       side_handle)
        else:
            x = np.asarray(X)
            if x.ndim == 2 and x.shape[0] == 0:  # an empty shard: no rows to point to
                n_local, d = 0, x.shape[1]
                x_ptr, layout, ld, keep = ffi.NULL, CONSTANTS["KINDRED_ROW_MAJOR"], max(d, 1), None
            else:
                keep = DenseArg(X)  # float64: the sharded fit has no float32 entry point
                n_local, d, x_ptr, layout, ld = keep.n, keep.d, keep.ptr, keep.layout, keep.ld

            def fit(comm_pointer):
                return lib.kindred_model_fit_dense_shard(model, comm_pointer, x_ptr, n_local, d, layout, ld,
                                                         row_offset, n_total, side_handle)
        side_info = make_side(n_total, side, pairs, triplets, partial_labels, ml, cl)
        side_handle = side_info.handle if side_info is not None else ffi.NULL
        if comm is None:
            self._call(model, progress, lambda: fit(ffi.NULL))
        else:
            with MpiComm(comm) as c:
                self._call(model, progress, lambda: fit(c.pointer), comm=c)
        del keep
        self._adopt(model)
        if names is not None:
            self.feature_names_in_ = names
        return self

    def fit_predict(self, X, y=None, **fit_args):
        """fit(X, **fit_args) and return labels_."""
        return self.fit(X, y, **fit_args).labels_

    def _adopt(self, model):
        """Keep a fitted model handle and copy its results into attributes."""
        table = self._table  # an option may end in "_" too (lambda_): it stays
        for key in [k for k in self.__dict__ if k.endswith("_") and not k.startswith("_") and k not in table]:
            del self.__dict__[key]
        object.__setattr__(self, "_model", model)
        object.__setattr__(self, "_lock", threading.Lock())  # the C API allows one thread at a time per model
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
            check(lib.kindred_model_array(model, name[0], ptr(a, "double"), a.size))
            arrays[text(name[0])] = a
        values = dict(labels_=labels, n_clusters_=int(k[0]), n_iter_=int(it[0]), converged_=bool(conv[0]),
                      objective_=float(obj[0]), n_features_in_=int(d[0]), arrays_=arrays)
        for name, a in arrays.items():
            attr = ("cluster_" + name if name == "centers" else name).replace("-", "_") + "_"
            # an array that would shadow an option's keyword (dpmeans' "lambda" -> lambda_) stays in arrays_ only
            if (attr.isidentifier() and attr not in values and not hasattr(type(self), attr) and attr not in self._table
                    and attr not in _ALIASES):
                values[attr] = a
        self.__dict__.update(values)

    def _fitted_model(self):
        model = self.__dict__.get("_model")
        if model is None:
            raise NotFittedError("this %s is not fitted yet; call fit first" % type(self).__name__,
                                 CONSTANTS["KINDRED_E_STATE"])
        return model

    def _guard(self):
        """The fitted model's lock (NotFittedError before fit)."""
        self._fitted_model()
        return self.__dict__["_lock"]

    def _check_names(self, X):
        fitted, given = self.__dict__.get("feature_names_in_"), _feature_names(X)
        if fitted is not None and given is not None and list(fitted) != list(given):
            raise ValueError("X: the feature names differ from those seen in fit: %s instead of %s"
                             % (list(given), list(fitted)))

    # ---- using a fitted model -----------------------------------------------------------------
    def predict(self, X):
        """Assign new points to the fitted clusters (int32 labels)."""
        with self._guard():  # the C API allows one thread at a time per model
            return self._predict(X)

    def _predict(self, X):
        model = self._fitted_model()
        self._check_names(X)
        if is_sparse(X):
            data = CsrArg(X)
            labels = np.empty(data.n, np.int32)
            check(lib.kindred_model_predict_csr(model, data.n, data.d, data.p_indptr, data.p_indices,
                                                data.p_values, ptr(labels, "int32_t"), data.n))
            return labels
        data = DenseArg(X, float32=True)
        labels = np.empty(data.n, np.int32)
        check(getattr(lib, "kindred_model_predict_dense" + data.suffix)(model, data.ptr, data.n, data.d, data.layout,
                                                                        data.ld, ptr(labels, "int32_t"), data.n))
        return labels

    @_offered("soft")
    def predict_proba(self, X):
        """Soft memberships of new points in the fitted clusters: (n, n_clusters_), rows summing to 1."""
        with self._guard():
            model = self._fitted_model()
            self._check_names(X)
            data = DenseArg(X, float32=True)
            out = np.empty((data.n, self.n_clusters_), np.float64)
            check(getattr(lib, "kindred_model_predict_proba_dense" + data.suffix)(
                model, data.ptr, data.n, data.d, data.layout, data.ld, ptr(out, "double"), out.size))
            return out

    @_offered("transform")
    def transform(self, X):
        """Map new points through the learned transformation."""
        with self._guard():
            return self._transform(X)

    def _transform(self, X):
        model = self._fitted_model()
        self._check_names(X)
        dim = ffi.new("int64_t *")
        check(lib.kindred_model_transform_dim(model, dim))
        if is_sparse(X):
            raise TypeError("transform: the C API transforms dense points only; pass X.toarray()")
        data = DenseArg(X, float32=True)
        out = np.empty((data.n, dim[0]), np.float64)
        check(getattr(lib, "kindred_model_transform_dense" + data.suffix)(model, data.ptr, data.n, data.d, data.layout,
                                                                          data.ld, ptr(out, "double"), out.size))
        return out

    @_offered("transform")
    def fit_transform(self, X, y=None, **fit_args):
        """fit(X, **fit_args), then transform(X)."""
        return self.fit(X, y, **fit_args).transform(X)

    def score(self, X, y=None, pairs=None, ml=None, cl=None, side=None):
        """How well the fitted model explains X; higher is better.

        With side information about the rows of X (y a kindred.SideInfo, or pairs / ml / cl / side):
        the weighted share of its must-links that predict(X) keeps inside one cluster and that of its
        cannot-links it keeps apart, averaged, in [0, 1]: a score on held-out constraints, which never
        looks at labels. Without it: minus the mean squared Euclidean distance from each point to the centre
        of its predicted cluster (scikit-learn's KMeans.score, per point); for a model without centres in
        the space of X, to the mean of the points of X predicted in that cluster.
        """
        if isinstance(y, SideInfo):
            side = y
        labels = self.predict(X)
        held_out = make_side(len(labels), side, pairs, None, None, ml, cl)
        if held_out is not None:
            p = held_out.pairs
            if not len(p):
                raise ValueError("score: the side information has no pairs among these rows")
            same = labels[p[:, 0].astype(np.int64)] == labels[p[:, 1].astype(np.int64)]
            # the must-links' and the cannot-links' shares count alike, or the more numerous kind (often
            # the cannot-links) would favour too many clusters (or too few)
            shares = [np.sum(p[kind, 2] * keep[kind]) / np.sum(p[kind, 2])
                      for kind, keep in ((p[:, 2] > 0, same), (p[:, 2] < 0, ~same)) if kind.any()]
            return float(np.mean(shares))
        x = X.toarray() if is_sparse(X) else DenseArg(X).array
        centers = self.__dict__.get("cluster_centers_")
        if centers is None or centers.shape != (self.n_clusters_, x.shape[1]) or labels.min() < 0:
            # no centres in the space of X: the means of the points of X given to each cluster
            ids, labels = np.unique(labels, return_inverse=True)
            centers = np.zeros((len(ids), x.shape[1]))
            np.add.at(centers, labels, x)
            centers /= np.bincount(labels)[:, None]
        diff = x - centers[labels]
        return -float(np.mean(np.einsum("ij,ij->i", diff, diff)))

    def save(self, path):
        """Save the fitted model (options and results) to a file; kindred.load(path) reads it back."""
        with self._guard():
            check(lib.kindred_model_save(self._fitted_model(), os.fsencode(path)))

    # ---- pickling goes through the library's own file format -----------------------------------
    def __getstate__(self):
        state = {"params": dict(self._params), "algorithm": self._algorithm or self.algorithm, "model": None,
                 "feature_names_in_": self.__dict__.get("feature_names_in_")}
        if self.__dict__.get("_model") is not None:
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "model.kdm")
                self.save(path)
                with open(path, "rb") as f:
                    state["model"] = f.read()
        return state

    def __setstate__(self, state):
        if self._algorithm is None:
            object.__setattr__(self, "algorithm", state["algorithm"])
        for name, value in state["params"].items():
            object.__setattr__(self, name, value)
        if state.get("feature_names_in_") is not None:
            object.__setattr__(self, "feature_names_in_", state["feature_names_in_"])
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
        setattr(est, name, _registry.typed_value(option.type, _get_option(model, option.name)))
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
