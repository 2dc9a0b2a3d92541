"""Minimal ctypes access to libkindred for the reproduction scripts of bench/.

Only what the scripts need: load a CSV with a `label` column, sample pairs
(kindred_sample_pairs), fit a model with options, read labels / arrays, and
score with kindred_metric. Run with /usr/bin/python3 (numpy).
"""
import ctypes
import os

import numpy as np

ROW_MAJOR = 101


def load_library(build_dir):
    for name in ("src/libkindred.so", "src/libkindred.so.0"):
        path = os.path.join(build_dir, name)
        if os.path.exists(path):
            lib = ctypes.CDLL(path)
            break
    else:
        raise SystemExit("libkindred not found under %s/src (build it first)" % build_dir)
    lib.kindred_last_error.restype = ctypes.c_char_p
    lib.kindred_model_new.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p]
    lib.kindred_model_free.argtypes = [ctypes.c_void_p]
    lib.kindred_model_set_int.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int64]
    lib.kindred_model_set_double.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_double]
    lib.kindred_model_set_string.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
    lib.kindred_model_fit_dense.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                                            ctypes.c_int, ctypes.c_int64, ctypes.c_void_p]
    lib.kindred_model_labels.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
    lib.kindred_model_summary.argtypes = [ctypes.c_void_p] + [ctypes.c_void_p] * 6
    lib.kindred_model_array_shape.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p]
    lib.kindred_model_array.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int64]
    lib.kindred_side_new.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int64]
    lib.kindred_side_free.argtypes = [ctypes.c_void_p]
    lib.kindred_sample_pairs.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                                         ctypes.c_double, ctypes.c_double, ctypes.c_uint64]
    lib.kindred_side_add_pairs.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                           ctypes.c_int64]
    lib.kindred_metric.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
                                   ctypes.POINTER(ctypes.c_double)]
    return lib


def check(lib, status):
    if status != 0:
        raise RuntimeError(lib.kindred_last_error().decode())


def read_csv(path):
    """Features (n x d float64, C order) and integer labels 0..c-1."""
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [line.strip().split(",") for line in f if line.strip()]
    li = header.index("label")
    x = np.array([[float(v) for j, v in enumerate(r) if j != li] for r in rows], dtype=np.float64)
    names = [r[li] for r in rows]
    index = {}
    y = np.array([index.setdefault(v, len(index)) for v in names], dtype=np.int32)
    return np.ascontiguousarray(x), y


class Side:
    def __init__(self, lib, n):
        self.lib = lib
        self.h = ctypes.c_void_p()
        check(lib, lib.kindred_side_new(ctypes.byref(self.h), n))

    def sample_pairs(self, labels, rate, noise, seed):
        check(self.lib, self.lib.kindred_sample_pairs(self.h, labels.ctypes.data, len(labels), -1, rate, noise, seed))

    def add_pairs(self, i, j, v):
        i = np.ascontiguousarray(i, dtype=np.int64)
        j = np.ascontiguousarray(j, dtype=np.int64)
        v = np.ascontiguousarray(v, dtype=np.float64)
        check(self.lib, self.lib.kindred_side_add_pairs(self.h, i.ctypes.data, j.ctypes.data, v.ctypes.data, len(i)))

    def __del__(self):
        self.lib.kindred_side_free(self.h)


def fit(lib, algorithm, x, side=None, **options):
    """Fits and returns (labels, summary dict, model handle wrapper)."""
    m = ctypes.c_void_p()
    check(lib, lib.kindred_model_new(ctypes.byref(m), algorithm.encode()))
    try:
        for name, value in options.items():
            if isinstance(value, str):
                check(lib, lib.kindred_model_set_string(m, name.encode(), value.encode()))
            elif isinstance(value, bool):
                check(lib, lib.kindred_model_set_string(m, name.encode(), b"true" if value else b"false"))
            elif isinstance(value, int):
                check(lib, lib.kindred_model_set_int(m, name.encode(), value))
            else:
                check(lib, lib.kindred_model_set_double(m, name.encode(), float(value)))
        n, d = x.shape
        check(lib, lib.kindred_model_fit_dense(m, x.ctypes.data, n, d, ROW_MAJOR, d, side.h if side else None))
        labels = np.zeros(n, dtype=np.int32)
        check(lib, lib.kindred_model_labels(m, labels.ctypes.data, n))
        nn, dd, k, it = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int64()
        conv, obj = ctypes.c_int(), ctypes.c_double()
        check(lib, lib.kindred_model_summary(m, ctypes.byref(nn), ctypes.byref(dd), ctypes.byref(k), ctypes.byref(it),
                                             ctypes.byref(conv), ctypes.byref(obj)))
        return labels, {"clusters": k.value, "iterations": it.value, "converged": conv.value, "objective": obj.value}
    finally:
        lib.kindred_model_free(m)


def metric(lib, name, truth, predicted):
    v = ctypes.c_double()
    check(lib, lib.kindred_metric(name.encode(), truth.ctypes.data, predicted.ctypes.data, len(truth), ctypes.byref(v)))
    return v.value
