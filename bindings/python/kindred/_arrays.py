"""NumPy arrays in and out of the C API: no copy where the C layout allows it."""
import numpy as np

from ._lib import COL_MAJOR, ROW_MAJOR, ffi


class DenseArg:
    """A float64 (or float32) matrix as the C API sees it: pointer, n, d, layout flag and leading
    dimension.

    C-ordered and Fortran-ordered float64 arrays, and slices of them whose rows (or columns) are
    evenly spaced, are passed in place; so are float32 ones when `float32` is true (the C API's
    `_f32` entry points read them in place, widened to double where read: the result is that of
    the float64 array with the same values). Anything else (other dtypes, negative or odd strides)
    is converted once. `array` keeps the memory alive for as long as the argument is used; `f32`
    says which entry point takes it, and `suffix` is that entry point's name suffix.
    """

    def __init__(self, X, what="X", float32=False):
        try:
            a = np.asarray(X)
            if a.dtype.kind == "c":
                raise ValueError("%s: Complex data not supported; kindred clusters real points" % what)
            if a.dtype != np.float64 and not (float32 and a.dtype == np.float32):
                if a.dtype.kind not in "biufO":  # object arrays of numbers convert; numpy names what does not
                    raise TypeError("%s: expected a numeric array, got dtype %s" % (what, a.dtype))
                a = a.astype(np.float64)
        except TypeError as e:
            raise TypeError("%s: cannot convert to a float64 array: %s" % (what, e)) from None
        if a.ndim != 2:
            raise ValueError("%s: expected a 2-D array (points x features), got shape %s. Reshape your data: "
                             "X.reshape(-1, 1) for one feature, X.reshape(1, -1) for one point" % (what, a.shape))
        n, d = a.shape
        # scikit-learn's wording, which its checks (and its users) look for
        if n == 0:
            raise ValueError("%s: 0 sample(s) (shape=%s) while a minimum of 1 is required." % (what, a.shape))
        if d == 0:
            raise ValueError("%s: 0 feature(s) (shape=%s) while a minimum of 1 is required." % (what, a.shape))
        layout, ld = _layout(a)
        if layout is None or not a.flags.aligned:
            a = np.ascontiguousarray(a)
            layout, ld = ROW_MAJOR, d
        self.array = a  # keeps the buffer alive
        self.f32 = a.dtype == np.float32
        self.suffix = "_f32" if self.f32 else ""
        self.ptr = ffi.cast("const float *" if self.f32 else "const double *", a.__array_interface__["data"][0])
        self.n, self.d, self.layout, self.ld = n, d, layout, ld
        self.copied = not np.shares_memory(a, X) if isinstance(X, np.ndarray) else True


def _layout(a):
    """(layout, ld) under which the C API reads `a` in place, or (None, None)."""
    n, d = a.shape
    item = a.itemsize
    s0, s1 = a.strides
    if s1 == item or d == 1:  # rows contiguous: row-major with ld = row stride
        if n == 1:
            return ROW_MAJOR, d
        if s0 > 0 and s0 % item == 0 and s0 // item >= d:
            return ROW_MAJOR, s0 // item
    if s0 == item or n == 1:  # columns contiguous: column-major with ld = column stride
        if d == 1:
            return COL_MAJOR, n
        if s1 > 0 and s1 % item == 0 and s1 // item >= n:
            return COL_MAJOR, s1 // item
    return None, None


class CsrArg:
    """A scipy.sparse matrix (anything with indptr / indices / data) as CSR arrays of int64 / float64."""

    def __init__(self, X, what="X"):
        X = X.tocsr()
        self.n, self.d = X.shape
        self.indptr = np.ascontiguousarray(X.indptr, dtype=np.int64)
        self.indices = np.ascontiguousarray(X.indices, dtype=np.int64)
        self.values = np.ascontiguousarray(X.data, dtype=np.float64)
        self.p_indptr = ptr(self.indptr, "int64_t")
        self.p_indices = ptr(self.indices, "int64_t")
        self.p_values = ptr(self.values, "double")


def is_sparse(X):
    return hasattr(X, "tocsr") and hasattr(X, "shape") and not isinstance(X, np.ndarray)


def ptr(a, ctype):
    """Pointer to a contiguous array's data (the caller keeps `a` alive)."""
    return ffi.cast(ctype + " *", a.__array_interface__["data"][0])


def index_array(values, what):
    """1-D int64 indices; floats must be integral, anything else is an error (never silently truncated)."""
    a = np.asarray(values)
    if a.dtype.kind == "O":
        a = np.asarray(a.tolist())
    if a.dtype.kind in "iu":
        if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
            raise IndexError("%s: index too large" % what)
        return np.ascontiguousarray(a, dtype=np.int64).reshape(-1)
    if a.dtype.kind == "f" or a.dtype.kind == "b":
        a = a.astype(np.float64)
        if not np.all(np.isfinite(a)) or np.any(a != np.round(a)):
            raise ValueError("%s: indices must be whole numbers" % what)
        if a.size and np.max(np.abs(a)) >= 2.0 ** 62:
            raise IndexError("%s: index out of range" % what)
        return np.ascontiguousarray(a, dtype=np.int64).reshape(-1)
    raise TypeError("%s: expected integer indices, got dtype %s" % (what, a.dtype))


def int32_array(values, what):
    """1-D int32 values; values that do not fit are an error rather than wrapped."""
    a = index_array(values, what)
    if a.size and (a.min() < np.iinfo(np.int32).min or a.max() > np.iinfo(np.int32).max):
        raise ValueError("%s: values do not fit in 32 bits" % what)
    return np.ascontiguousarray(a, dtype=np.int32)


def category_codes(labels, what):
    """Any labels (ints, strings, ...) as int32 category codes, for metrics that compare categories."""
    a = np.asarray(labels)
    if a.ndim != 1:
        a = a.reshape(-1)
    if a.dtype.kind in "iu" and (a.size == 0 or (a.min() >= np.iinfo(np.int32).min and a.max() <= np.iinfo(np.int32).max)):
        return np.ascontiguousarray(a, dtype=np.int32)
    _, codes = np.unique(a, return_inverse=True)
    return np.ascontiguousarray(codes.reshape(-1), dtype=np.int32)
