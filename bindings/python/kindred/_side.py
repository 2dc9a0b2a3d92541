"""Side information: pairs, triplets and partial labels about n points (a kindred_side handle)."""
import numpy as np

from ._arrays import index_array, int32_array, ptr
from ._lib import check, ffi, lib

_ANSWERS = {"yes": 1, "no": -1, "dnk": 0, "y": 1, "n": -1, "?": 0}


def _columns(data, count, what):
    """Accept an (m, count) array or a tuple of `count` 1-D arrays; return the columns."""
    if isinstance(data, (tuple, list)) and len(data) == count and all(np.ndim(c) == 1 for c in data):
        cols = [np.asarray(c) for c in data]
        if len({len(c) for c in cols}) != 1:
            raise ValueError("%s: the %d columns have different lengths" % (what, count))
        return cols
    a = np.asarray(data)
    if a.dtype.kind in "US":  # mixed rows such as [0, 1, 2, "yes"]: keep each entry's own type
        a = np.asarray(data, dtype=object)
    if a.ndim == 2 and a.shape[0] == 0:
        a = a.reshape(0, count)
    if a.ndim != 2 or a.shape[1] != count:
        raise ValueError("%s: expected an array of shape (m, %d) or a tuple of %d columns, got shape %s"
                         % (what, count, count, a.shape))
    return [a[:, k] for k in range(count)]


class SideInfo:
    """Side information about `n` points, reusable across fits.

    pairs: (m, 3) array of rows (i, j, value) -- value > 0 must-link of that weight, value < 0
           cannot-link -- or a tuple (i, j, value); (m, 2) index pairs with `value=` for all of them.
    triplets: (m, 4) array of rows (a, b, c, answer), answer +1 (a closer to b), -1 (closer to c),
           0 (don't know); a tuple of four columns also works, answers may be "yes"/"no"/"dnk".
    partial_labels: length-n labels, -1 where unknown.
    """

    def __init__(self, n, pairs=None, triplets=None, partial_labels=None):
        n = int(n)
        out = ffi.new("kindred_side **")
        check(lib.kindred_side_new(out, n))
        self._handle = ffi.gc(out[0], lib.kindred_side_free)
        if pairs is not None:
            self.add_pairs(pairs)
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
            cols = _columns(pairs, 2, "pairs")
            cols.append(np.broadcast_to(np.asarray(value, dtype=np.float64), cols[0].shape))
        else:
            cols = _columns(pairs, 3, "pairs")
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
        cols = _columns(triplets, 4, "triplets")
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
        check(lib.kindred_side_get_pairs(self._handle, ptr(i, "int64_t"), ptr(j, "int64_t"), ptr(v, "double"), m))
        return np.column_stack([i, j, v]) if m else np.empty((0, 3))

    @property
    def triplets(self):
        """The triplets as an (m, 4) int64 array of rows (a, b, c, answer), in the order added."""
        m = self.counts()["triplets"]
        a, b, c = (np.empty(m, np.int64) for _ in range(3))
        ans = np.empty(m, np.int32)
        check(lib.kindred_side_get_triplets(self._handle, ptr(a, "int64_t"), ptr(b, "int64_t"),
                                            ptr(c, "int64_t"), ptr(ans, "int32_t"), m))
        return np.column_stack([a, b, c, ans.astype(np.int64)]) if m else np.empty((0, 4), np.int64)

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


def make_side(n, side=None, pairs=None, triplets=None, partial_labels=None):
    """The SideInfo for a fit: `side` as given, or one built from the arrays, or None."""
    if side is not None:
        if pairs is not None or triplets is not None or partial_labels is not None:
            raise ValueError("give either side= or pairs/triplets/partial_labels, not both")
        if not isinstance(side, SideInfo):
            raise TypeError("side: expected a kindred.SideInfo")
        return side
    if pairs is None and triplets is None and partial_labels is None:
        return None
    return SideInfo(n, pairs=pairs, triplets=triplets, partial_labels=partial_labels)
