"""Dask for the work that splits without any exchange between the parts (issue 27, item 5).

Nothing here is new C: every task calls the binding's own fit / predict / predict_proba / transform,
and a model travels as the bytes of its saved file (the binding's save / kindred.load format).

    import kindred.dask as kd
    labels = kd.predict("model.kdm", X)        # a dask array, row blocks of X; .compute() -> numpy
    models = kd.fit_many(client, "kmeans", X, [dict(k=3, seed=s) for s in range(8)])
    report = kd.evaluate(client, "pckmeans", X, y, repeats=10, pairs_count=100)

- predict, predict_proba, transform: each block of rows is labelled by a model loaded from the saved
  file's bytes, once per worker thread (a worker keeps its loaded copies for the next blocks and the
  next calls); a row's result does not depend on the other rows of its block, so the blocks' results
  are those of the model's own method on the whole array.
- fit_many: independent fits (restarts over seeds, a parameter sweep) side by side on a
  dask.distributed Client; the points are sent to each worker once. Each fitted model comes back
  through pickling, which goes through the library's own file format.
- evaluate: `kindred eval --repeats` (side information sampled from the classes with seeds seed,
  seed + 1, ..., k from the number of classes, NMI / ARI / F-measure), one task per repeat.

A fit itself is not split here: one fit runs on one worker (a fit across machines: docs/distributed.md).
Importing this module needs Dask (Debian: python3-dask; fit_many and evaluate take a Client of
python3-distributed); `import kindred` does not. The whole story: docs/dask.md.
"""
import collections
import hashlib
import os
import tempfile
import threading
import time

import numpy as np

try:
    import dask
    import dask.array as da
except ImportError as e:  # the message says what to install, whichever part of Dask is missing
    raise ImportError("kindred.dask needs Dask (Debian: python3-dask and python3-distributed; pip: "
                      "'dask[distributed]'): %s" % e) from e

from ._arrays import ptr
from ._estimator import Clusterer, _options, estimator_classes, load
from ._eval import metric
from ._lib import check, ffi, lib
from ._registry import algorithm_uses
from ._side import SideInfo

__all__ = ["ModelFile", "predict", "predict_proba", "transform", "fit_many", "evaluate"]


# ---- a saved model as bytes ---------------------------------------------------------------------
class ModelFile:
    """The bytes of a saved kindred model and their SHA-256, which names the model in a worker's cache.

    ModelFile.of(model) takes a path to a file written by .save() or by `kindred fit --model`, the
    bytes of such a file, a fitted estimator, or a ModelFile (returned as it is).
    """
    __slots__ = ("data", "digest")

    def __init__(self, data):
        self.data = bytes(data)
        self.digest = hashlib.sha256(self.data).hexdigest()

    @classmethod
    def of(cls, model):
        if isinstance(model, cls):
            return model
        if isinstance(model, (bytes, bytearray, memoryview)):
            return cls(model)
        if isinstance(model, (str, os.PathLike)):
            with open(model, "rb") as f:
                return cls(f.read())
        if isinstance(model, Clusterer):
            data = model.__getstate__()["model"]  # pickling's own bytes: the library's file format
            if data is None:
                model._fitted_model()  # raises NotFittedError
            return cls(data)
        raise TypeError("model: expected a path to a saved kindred model, its bytes, or a fitted estimator; got %s"
                        % type(model).__name__)

    def load(self):
        """A fitted estimator read from these bytes (kindred.load through a temporary file: the C API
        loads from a path)."""
        with tempfile.TemporaryDirectory(prefix="kindred-dask-") as tmp:
            path = os.path.join(tmp, "model.kdm")
            with open(path, "wb") as f:
                f.write(self.data)
            return load(path)

    # pickled by value: the digest is recomputed on arrival, never trusted from the sender
    def __reduce__(self):
        return (ModelFile, (self.data,))

    def __dask_tokenize__(self):  # the same file is the same key in every graph
        return ("kindred.ModelFile", self.digest)

    def __repr__(self):
        return "ModelFile(%d bytes, sha256 %s...)" % (len(self.data), self.digest[:12])


# ---- the per-process cache of loaded models -------------------------------------------------------
# {digest: [loaded estimators not in use]}, most recently used last; at most _KEEP models. A worker
# thread borrows a copy for one block and gives it back, so a worker with t threads loads a model at
# most t times however many blocks it labels (one C handle is used by one thread at a time).
_KEEP = 4
_cache = collections.OrderedDict()
_cache_lock = threading.Lock()
_loads = collections.Counter()  # {digest: how many times this process loaded it}, for tests and docs


def worker_loads():
    """{model digest: how many times this process loaded that model file}. On a cluster:
    client.run(kindred.dask.worker_loads) gives it for every worker."""
    with _cache_lock:
        return dict(_loads)


def _borrow(model_file):
    with _cache_lock:
        free = _cache.get(model_file.digest)
        if free is not None:
            _cache.move_to_end(model_file.digest)
            if free:
                return free.pop()
    est = model_file.load()
    with _cache_lock:
        _loads[model_file.digest] += 1
    return est


def _give_back(model_file, est):
    with _cache_lock:
        _cache.setdefault(model_file.digest, []).append(est)
        _cache.move_to_end(model_file.digest)
        while len(_cache) > _KEEP:
            _cache.popitem(last=False)


def _set_threads(est, threads):
    """The library's own threads for predict / transform on a fitted handle (an option set after a fit
    is used by predict and transform only for `threads`; results do not depend on it)."""
    if threads is not None:
        with est._guard():
            check(lib.kindred_model_set_int(est._fitted_model(), b"threads", int(threads)))


def _apply_block(block, model_file, method, threads):
    est = _borrow(model_file)
    try:
        _set_threads(est, threads)
        return getattr(est, method)(block)
    finally:
        _give_back(model_file, est)


# ---- predict / predict_proba / transform by row blocks ----------------------------------------------
def _blocks(X, block_rows, d):
    """X as a dask array of row blocks holding all d columns each."""
    if isinstance(X, da.Array):
        if X.ndim != 2:
            raise ValueError("X: expected a 2-D array (n, d), got %d dimensions" % X.ndim)
        if block_rows is not None:
            X = X.rechunk({0: block_rows})
        if len(X.chunks[1]) != 1:
            X = X.rechunk({1: -1})  # a block must hold whole rows
    else:
        X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError("X: expected a 2-D array (n, d), got shape %s" % (X.shape,))
        X = da.from_array(X, chunks=(block_rows or "auto", -1))
    if X.shape[1] != d:
        raise ValueError("X has %d columns; the model was fitted on %d" % (X.shape[1], d))
    if X.dtype not in (np.float64, np.float32):
        X = X.astype(np.float64)
    return X


def _map(model, X, method, block_rows, threads):
    model_file = ModelFile.of(model)
    # Loaded here once: the file is checked, the output's shape known, and a missing method raises
    # AttributeError now; the copy then serves the blocks that run in this process.
    here = _borrow(model_file)
    try:
        getattr(here, method)
        d, k = here.n_features_in_, here.n_clusters_
        if method == "transform":
            dim = ffi.new("int64_t *")
            with here._guard():
                check(lib.kindred_model_transform_dim(here._fitted_model(), dim))
            width = int(dim[0])
        else:
            width = k
    finally:
        _give_back(model_file, here)
    X = _blocks(X, block_rows, d)
    # One key holds the model's bytes: each worker receives them once, not once per block.
    shared = dask.delayed(model_file, pure=True, traverse=False)
    # A unique name of our own: Dask 2022.12 adds its hash of the arguments to it, later ones take it whole.
    name = "kindred-%s-%s" % (method.replace("_", "-"), dask.base.tokenize(X.name, model_file.digest, threads))
    if method == "predict":
        return X.map_blocks(_apply_block, shared, method, threads, drop_axis=1, dtype=np.int32,
                            meta=np.empty((0,), np.int32), name=name)
    return X.map_blocks(_apply_block, shared, method, threads, chunks=(X.chunks[0], (width,)), dtype=np.float64,
                        meta=np.empty((0, 0), np.float64), name=name)


def predict(model, X, block_rows=None, threads=1):
    """The labels of the rows of X by a saved model, as a dask array of int32 (compute() gives numpy).

    model: a path to a saved model (.save(), `kindred fit --model`), its bytes, a fitted estimator or a
       ModelFile. X: a dask array (n, d), or a numpy array, which is cut into blocks of block_rows rows
       (default: Dask's "auto" size); a dask array's column blocks are joined so that each block holds
       whole rows. float32 blocks are read as float32, anything else becomes float64.
    threads: the library's threads inside each block (default 1: Dask runs the blocks side by side;
       None keeps the library's default, all cores). Results do not depend on it.
    Equal to the model's own predict(X) on the whole array (bitwise: a row's label depends on that row
    only). Runs on the current Dask scheduler (a distributed Client when one is active).
    """
    return _map(model, X, "predict", block_rows, threads)


def predict_proba(model, X, block_rows=None, threads=1):
    """Soft memberships (n, n_clusters_) of the rows of X, by blocks as predict(); for the algorithms
    that have predict_proba (AttributeError otherwise, before anything runs)."""
    return _map(model, X, "predict_proba", block_rows, threads)


def transform(model, X, block_rows=None, threads=1):
    """The rows of X through the model's learned transformation (n, dim), by blocks as predict(); for
    the algorithms that have transform (AttributeError otherwise, before anything runs)."""
    return _map(model, X, "transform", block_rows, threads)


# ---- independent fits -----------------------------------------------------------------------------
class _Side:
    """Side information as arrays (a SideInfo holds a C handle, which does not pickle); rebuilt on the
    worker the way fit() builds it."""

    def __init__(self, side=None, pairs=None, ml=None, cl=None, triplets=None, partial_labels=None):
        if side is not None:
            if not isinstance(side, SideInfo):
                raise TypeError("side: expected a kindred.SideInfo")
            if any(a is not None for a in (pairs, ml, cl, triplets, partial_labels)):
                raise ValueError("give either side= or pairs/ml/cl/triplets/partial_labels, not both")
            counts = side.counts()
            self.args = {"pairs": side.pairs if counts["pairs"] else None,
                         "triplets": side.triplets if counts["triplets"] else None,
                         "partial_labels": side.partial_labels}
            self.n = counts["n"]
        else:
            self.args = dict(pairs=pairs, ml=ml, cl=cl, triplets=triplets, partial_labels=partial_labels)
            self.n = None
        self.args = {k: v for k, v in self.args.items() if v is not None}

    def fit_args(self, n):
        if self.n is None:
            return self.args
        if self.n != n:
            raise ValueError("side: the SideInfo is about %d points, X has %d" % (self.n, n))
        return {"side": SideInfo(n, **self.args)}


def _estimator(algorithm, options):
    cls = estimator_classes().get(algorithm)
    return cls(**options) if cls is not None else Clusterer(algorithm, **options)


def _fit_task(algorithm, X, side, options, threads):
    own = dict(options)
    if threads is not None and "threads" not in own:
        own["threads"] = threads
    est = _estimator(algorithm, own)
    fit_args = side.fit_args(X.shape[0] if hasattr(X, "shape") else len(X)) if side.args else {}
    est.fit(X, **fit_args)
    if "threads" not in options:
        est.threads = _options(algorithm)["threads"].default  # as the caller's options had it
    return est


def _client(client):
    if client is None:
        from distributed import get_client  # python3-distributed
        return get_client()
    return client


def fit_many(client, algorithm, X, option_sets, side=None, pairs=None, ml=None, cl=None, triplets=None,
             partial_labels=None, threads=1):
    """Fit `algorithm` once for each dict of options in option_sets, as tasks of a dask.distributed
    Client; the fitted estimators, in the order of option_sets.

    client: a distributed.Client (None: the current one, distributed.get_client()).
    X: the points (a numpy array, scipy.sparse matrix, ...: whatever fit() takes), sent once to every
       worker. side / pairs / ml / cl / triplets / partial_labels: side information as fit() takes it,
       the same for every fit (a SideInfo travels as its pairs, triplets and partial labels).
    option_sets: e.g. [dict(k=3, seed=s) for s in range(8)] (restarts) or
       [dict(k=k, seed=1) for k in (2, 3, 4, 5)] (a sweep); each dict is all the options of one fit.
    threads: the library's threads inside each fit unless its options name `threads` (default 1: Dask
       runs the fits side by side). Results do not depend on it; the returned estimators keep the
       options as given.
    Each result equals Clusterer(algorithm, **options).fit(X, ...) run here: the same labels_,
    objective_, n_iter_ and arrays_, bit for bit. The first failing fit's error is raised here.
    """
    option_sets = [dict(o) for o in option_sets]
    for options in option_sets:
        _estimator(algorithm, options)  # unknown algorithm or option: raised here, before any task
    client = _client(client)
    # hash=False: keys of their own. Equal data scattered again by the next call would get the same key
    # while the scheduler is still releasing it, and that call's tasks would be cancelled.
    shared_x, shared_side = client.scatter([X, _Side(side, pairs, ml, cl, triplets, partial_labels)],
                                           broadcast=True, hash=False)
    futures = [client.submit(_fit_task, algorithm, shared_x, shared_side, options, threads, pure=False)
               for options in option_sets]
    return client.gather(futures)


# ---- kindred eval --repeats ---------------------------------------------------------------------
_TRIPLET_SEED = 0x5DEECE66D  # tools/kindred/eval_protocol.cpp: triplets are sampled with seed ^ this


def _eval_repeat(algorithm, X, y, seed, sampling, options):
    """One repeat of `kindred eval` (tools/kindred/eval_protocol.cpp, without --reveal-classes and
    --active): side information sampled from the classes y with this seed, a fit with this seed, scores."""
    pairs_count, pairs_rate, triplets_count, noise = sampling
    side = None
    if pairs_count is not None or pairs_rate is not None or triplets_count is not None:
        side = SideInfo(len(y))
        # sampled straight into the fit's side information, as the command-line program does
        if pairs_count is not None or pairs_rate is not None:
            check(lib.kindred_sample_pairs(side.handle, ptr(y, "int32_t"), len(y),
                                           -1 if pairs_count is None else int(pairs_count),
                                           0.0 if pairs_rate is None else float(pairs_rate), float(noise), seed))
        if triplets_count is not None:
            check(lib.kindred_sample_triplets(side.handle, ptr(y, "int32_t"), len(y),
                                              int(triplets_count), float(noise), seed ^ _TRIPLET_SEED))
    est = _estimator(algorithm, dict(options, seed=seed))
    start = time.perf_counter()
    est.fit(X, side=side)
    seconds = time.perf_counter() - start
    counts = side.counts() if side is not None else {"pairs": 0, "triplets": 0}
    return {"nmi": metric("nmi", y, est.labels_), "ari": metric("ari", y, est.labels_),
            "f_measure": metric("f-measure", y, est.labels_), "clusters": est.n_clusters_,
            "objective": est.objective_, "n_iter": est.n_iter_, "labels": est.labels_,
            "pairs": counts["pairs"], "triplets": counts["triplets"], "seconds": seconds}


def _stat(values):
    values = [float(v) for v in values]
    std = float(np.std(values, ddof=1)) if len(values) > 1 else 0.0
    return {"mean": float(np.mean(values)), "std": std, "values": values}


def evaluate(client, algorithm, X, y, repeats=1, pairs_count=None, pairs_rate=None, triplets_count=None,
             noise=0.0, threads=1, **options):
    """`kindred eval ALGORITHM --repeats R` in Python, one Dask task per repeat.

    Repeat r samples its side information from the classes y (any labels) with seed s + r, where s is
    options' seed (the algorithm's default otherwise): pairs_count pairs or pairs at pairs_rate,
    triplets_count triplets (sampled with seed (s + r) ^ 0x5DEECE66D), each answer flipped with
    probability noise; it fits with seed s + r and k = the number of classes unless k is given or the
    algorithm finds k itself; it scores all points against y.
    client: a distributed.Client, or None to run the repeats here one after the other.
    Returns the command's JSON report's measures as dicts {"mean", "std", "values"} (std with n - 1):
    "nmi", "ari", "f_measure", "clusters", "pairs", "triplets", "seconds", and "objective", "n_iter",
    one list of labels per repeat ("labels"), and "algorithm", "n", "d", "classes", "repeats", "seed",
    "k", "k_from_classes". Everything but "seconds" is the same with and without a client, and the
    scores are those `kindred eval --json` prints for the same data, flags and seed.
    Not here: --reveal-classes, --active, --curve (kindred.learning_curve draws curves).
    """
    names, codes = np.unique(np.asarray(y), return_inverse=True)
    y = np.ascontiguousarray(codes, dtype=np.int32)
    repeats = int(repeats)
    if repeats < 1:
        raise ValueError("repeats: %d; at least 1" % repeats)
    table = _options(algorithm)
    options = dict(options)
    if threads is not None and "threads" not in options:
        options["threads"] = threads
    _estimator(algorithm, options)  # unknown option or bad value: raised here
    base = int(options.pop("seed", table["seed"].default))
    k_from_classes = "k" in table and "k" not in options and "no_k" not in algorithm_uses(algorithm)
    if k_from_classes:
        options["k"] = len(names)
    sampling = (pairs_count, pairs_rate, triplets_count, noise)
    seeds = [base + r for r in range(repeats)]
    if client is None:
        runs = [_eval_repeat(algorithm, X, y, s, sampling, options) for s in seeds]
    else:
        client = _client(client)
        shared_x, shared_y = client.scatter([X, y], broadcast=True, hash=False)  # hash=False: as in fit_many
        runs = client.gather([client.submit(_eval_repeat, algorithm, shared_x, shared_y, s, sampling, options,
                                            pure=False) for s in seeds])
    report = {"algorithm": algorithm, "n": len(y), "d": int(X.shape[1] if hasattr(X, "shape") else np.shape(X)[1]),
              "classes": len(names),
              "repeats": repeats, "seed": base,
              "k": options.get("k", table["k"].default if "k" in table else None), "k_from_classes": k_from_classes,
              "labels": [run["labels"] for run in runs]}
    for measure in ("nmi", "ari", "f_measure", "clusters", "pairs", "triplets", "seconds", "objective", "n_iter"):
        report[measure] = _stat([run[measure] for run in runs])
    return report
