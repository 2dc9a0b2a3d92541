"""Side information: pairs, triplets and partial labels about n points (a kindred_side handle)."""
import numpy as np

from ._arrays import index_array, int32_array, ptr
from ._lib import check, ffi, lib

_ANSWERS = {"yes": 1, "no": -1, "dnk": 0, "y": 1, "n": -1, "?": 0}


_NAMES = {2: ("i", "j"), 3: ("i", "j", "value"), 4: ("a", "b", "c", "answer")}


def _rows(data, count, what):
    """The columns of side information given one row per entry: an (m, count) array-like.

    Rows are never guessed from the shape: a list of three pairs is three pairs, whatever its length.
    Columns are given by name only (a mapping such as {"i": ..., "j": ..., "value": ...}, or a pandas
    DataFrame with those columns). Anything else is an error naming the expected shape.
    """
    names = _NAMES[count]
    if hasattr(data, "keys") and all(k in data for k in names):
        cols = [np.asarray(data[k]) for k in names]
        if any(c.ndim != 1 for c in cols) or len({len(c) for c in cols}) != 1:
            raise ValueError("%s: the columns %s must be 1-D and of one length" % (what, ", ".join(names)))
        return cols
    if hasattr(data, "keys"):
        raise ValueError("%s: a mapping needs the columns %s" % (what, ", ".join(names)))
    a = np.asarray(data)
    if a.dtype.kind in "US":  # mixed rows such as [0, 1, 2, "yes"]: keep each entry's own type
        a = np.asarray(data, dtype=object)
    if a.size == 0 and a.ndim <= 2:
        a = a.reshape(0, count)
    if a.ndim != 2 or a.shape[1] != count:
        hint = ""
        if a.ndim == 1 and a.shape[0] == count:
            hint = "; for a single one write [[%s]]" % ", ".join(names)
        elif a.ndim == 2 and a.shape[0] == count:
            hint = "; these look like %d columns: pass np.column_stack(...) or a mapping {%s}" % (
                count, ", ".join("%r: ..." % n for n in names))
        raise ValueError("%s: expected an array of shape (m, %d), one row (%s) per entry, got shape %s%s"
                         % (what, count, ", ".join(names), a.shape, hint))
    return [a[:, k] for k in range(count)]


class SideInfo:
    """Side information about `n` points, reusable across fits.

    pairs: (m, 3) array-like of rows (i, j, value) -- value > 0 must-link of that weight, value < 0
           cannot-link -- or a mapping of columns {"i": ..., "j": ..., "value": ...}.
    ml, cl: (m, 2) array-likes of index pairs, must-links and cannot-links of weight 1 (as in
           metric-learn and active-semi-supervised-clustering).
    triplets: (m, 4) array-like of rows (a, b, c, answer), answer +1 (a closer to b), -1 (closer
           to c), 0 (don't know), or "yes"/"no"/"dnk"; or a mapping of columns a, b, c, answer.
    partial_labels: length-n labels, -1 where unknown.

    Shapes are never guessed: a list of three pairs is three pairs, and an array of another shape
    is an error naming the expected one.

    A SideInfo behaves as a sequence of its n points for scikit-learn: len(side) == side.shape[0] == n,
    and side[rows] is the side information among those rows, renumbered 0..len(rows)-1 (the pairs
    and triplets with every point inside; the partial labels of those rows). So given to
    GridSearchCV (as a fit parameter `side=` or as `y`), each fold fits on its own rows' constraints.
    """

    def __init__(self, n, pairs=None, triplets=None, partial_labels=None, ml=None, cl=None):
        n = int(n)
        out = ffi.new("kindred_side **")
        check(lib.kindred_side_new(out, n))
        self._handle = ffi.gc(out[0], lib.kindred_side_free)
        self._partial = None
        if pairs is not None:
            self.add_pairs(pairs)
        if ml is not None:
            self.add_pairs(ml, value=1.0)
        if cl is not None:
            self.add_pairs(cl, value=-1.0)
        if triplets is not None:
            self.add_triplets(triplets)
        if partial_labels is not None:
            self.set_partial_labels(partial_labels)

    @property
    def handle(self):
        return self._handle

    def add_pairs(self, pairs, value=None):
        """Add pairs (see the class doc); duplicates are summed by the library. Returns self."""
        if value is not None:
            cols = _rows(pairs, 2, "pairs")
            cols.append(np.broadcast_to(np.asarray(value, dtype=np.float64), cols[0].shape))
        else:
            cols = _rows(pairs, 3, "pairs")
        i = index_array(cols[0], "pairs: i")
        j = index_array(cols[1], "pairs: j")
        try:
            v = np.ascontiguousarray(cols[2], dtype=np.float64).reshape(-1)
        except (TypeError, ValueError) as e:
            raise TypeError("pairs: values must be numbers: %s" % e) from None
        check(lib.kindred_side_add_pairs(self._handle, ptr(i, "int64_t"), ptr(j, "int64_t"),
                                         ptr(v, "double"), len(i)))
        return self

    def add_triplets(self, triplets):
        """Add triplets (see the class doc). Returns self."""
        cols = _rows(triplets, 4, "triplets")
        a, b, c = (index_array(cols[k], "triplets: " + "abc"[k]) for k in range(3))
        ans = cols[3]
        if np.asarray(ans).dtype.kind in "USO":
            try:
                ans = [_ANSWERS[str(x).strip().lower()] if not isinstance(x, (int, np.integer)) else int(x)
                       for x in np.asarray(ans).tolist()]
            except KeyError as e:
                raise ValueError("triplets: answer %s is not yes/no/dnk or 1/-1/0" % e) from None
        answer = int32_array(ans, "triplets: answer")
        check(lib.kindred_side_add_triplets(self._handle, ptr(a, "int64_t"), ptr(b, "int64_t"),
                                            ptr(c, "int64_t"), ptr(answer, "int32_t"), len(a)))
        return self

    def set_partial_labels(self, labels):
        """Replace the partial labels (length n, -1 where unknown). Returns self."""
        lab = int32_array(labels, "partial_labels")
        check(lib.kindred_side_set_partial_labels(self._handle, ptr(lab, "int32_t"), len(lab)))
        self._partial = lab.copy()  # the C API has no getter; kept for side[rows]
        return self

    def counts(self):
        """dict(n=..., pairs=..., triplets=..., labelled=...)."""
        v = ffi.new("int64_t[4]")
        check(lib.kindred_side_counts(self._handle, v, v + 1, v + 2, v + 3))
        return dict(n=v[0], pairs=v[1], triplets=v[2], labelled=v[3])

    @property
    def n(self):
        return self.counts()["n"]

    @property
    def pairs(self):
        """The distinct pairs as an (m, 3) float array of rows (i, j, value), i < j, sorted."""
        m = self.counts()["pairs"]
        i, j = np.empty(m, np.int64), np.empty(m, np.int64)
        v = np.empty(m, np.float64)
        check(lib.kindred_side_pairs(self._handle, ptr(i, "int64_t"), ptr(j, "int64_t"), ptr(v, "double"), m))
        return np.column_stack([i, j, v]) if m else np.empty((0, 3))

    @property
    def triplets(self):
        """The triplets as an (m, 4) int64 array of rows (a, b, c, answer), in the order added."""
        m = self.counts()["triplets"]
        a, b, c = (np.empty(m, np.int64) for _ in range(3))
        ans = np.empty(m, np.int32)
        check(lib.kindred_side_triplets(self._handle, ptr(a, "int64_t"), ptr(b, "int64_t"),
                                            ptr(c, "int64_t"), ptr(ans, "int32_t"), m))
        return np.column_stack([a, b, c, ans.astype(np.int64)]) if m else np.empty((0, 4), np.int64)

    @property
    def partial_labels(self):
        """The partial labels (int32, -1 where unknown), or None when none were set."""
        return None if self._partial is None else self._partial.copy()

    # ---- a sequence of n points, for scikit-learn's per-fold slicing ----------------------------
    @property
    def shape(self):
        return (self.n,)

    def __len__(self):
        return self.n

    def __getitem__(self, rows):
        """The side information among `rows` (indices or a boolean mask), renumbered in their order."""
        n = self.n
        rows = np.arange(n)[np.asarray(rows) if not isinstance(rows, slice) else rows].reshape(-1)
        if len(np.unique(rows)) != len(rows):
            raise ValueError("SideInfo[rows]: rows repeat a point; side information cannot be resampled")
        new_index = np.full(n, -1, np.int64)
        new_index[rows] = np.arange(len(rows))
        sub = SideInfo(len(rows))
        p = self.pairs
        if len(p):
            i, j = new_index[p[:, 0].astype(np.int64)], new_index[p[:, 1].astype(np.int64)]
            keep = (i >= 0) & (j >= 0)
            if keep.any():
                sub.add_pairs(np.column_stack([i[keep], j[keep], p[keep, 2]]))
        t = self.triplets
        if len(t):
            abc = new_index[t[:, :3]]
            keep = (abc >= 0).all(axis=1)
            if keep.any():
                sub.add_triplets(np.column_stack([abc[keep], t[keep, 3]]))
        if self._partial is not None:
            sub.set_partial_labels(self._partial[rows])
        return sub

    def components(self):
        """Must-link components: an int64 array giving each point's component id."""
        n = self.n
        comp = np.empty(n, np.int64)
        check(lib.kindred_side_components(self._handle, ptr(comp, "int64_t"), n, ffi.NULL))
        return comp

    def check_consistent(self):
        """Raise InfeasibleError when a cannot-link joins two points of one must-link component."""
        check(lib.kindred_side_check_consistent(self._handle))

    def __repr__(self):
        c = self.counts()
        return "SideInfo(n=%d, pairs=%d, triplets=%d, labelled=%d)" % (c["n"], c["pairs"], c["triplets"], c["labelled"])


def make_side(n, side=None, pairs=None, triplets=None, partial_labels=None, ml=None, cl=None):
    """The SideInfo for a fit: `side` as given, or one built from the arrays, or None."""
    given = [a is not None for a in (pairs, triplets, partial_labels, ml, cl)]
    if side is not None:
        if any(given):
            raise ValueError("give either side= or pairs/ml/cl/triplets/partial_labels, not both")
        if not isinstance(side, SideInfo):
            raise TypeError("side: expected a kindred.SideInfo")
        return side
    if not any(given):
        return None
    return SideInfo(n, pairs=pairs, triplets=triplets, partial_labels=partial_labels, ml=ml, cl=cl)
