"""Metrics comparing two labelings, and side information sampled from labels."""
import numpy as np

from ._arrays import category_codes, int32_array, ptr
from ._lib import check, ffi, lib
from ._side import SideInfo


def metric(name, truth, predicted):
    """Score a labeling against another with a metric of kindred.metrics() ("nmi", "ari", "f-measure", ...).

    Labels are compared as categories, so any values (ints, strings) are accepted.
    """
    t = category_codes(truth, "truth")
    p = category_codes(predicted, "predicted")
    if len(t) != len(p):
        raise ValueError("metric: truth has %d labels and predicted %d" % (len(t), len(p)))
    value = ffi.new("double *")
    check(lib.kindred_metric(name.encode(), ptr(t, "int32_t"), ptr(p, "int32_t"), len(t), value))
    return value[0]


def _label_vector(labels):
    lab = int32_array(labels, "labels")
    if len(lab) == 0:
        raise ValueError("labels: empty")
    return lab


def sample_pairs(labels, count=None, rate=None, noise=0.0, seed=0, side=None):
    """Sample must-link / cannot-link pairs from class labels (negative label = never drawn).

    Give `count` pairs or a `rate` (fraction of all n(n-1)/2 pairs); each answer is flipped with
    probability `noise`. Returns an (m, 3) array of rows (i, j, value), value +1 or -1; when `side`
    (a SideInfo) is given, the pairs are added to it as well.
    """
    lab = _label_vector(labels)
    if (count is None) == (rate is None):
        raise ValueError("sample_pairs: give exactly one of count and rate")
    target = side if side is not None else SideInfo(len(lab))
    scratch = SideInfo(len(lab))
    check(lib.kindred_sample_pairs(scratch.handle, ptr(lab, "int32_t"), len(lab),
                                   -1 if count is None else int(count), 0.0 if rate is None else float(rate),
                                   float(noise), int(seed)))
    pairs = scratch.pairs
    if side is not None:
        target.add_pairs(pairs)
    return pairs


def sample_triplets(labels, count, noise=0.0, seed=0, side=None):
    """Sample relative triplets from class labels. Returns an (m, 4) int64 array of rows
    (a, b, c, answer); when `side` is given they are added to it as well."""
    lab = _label_vector(labels)
    scratch = SideInfo(len(lab))
    check(lib.kindred_sample_triplets(scratch.handle, ptr(lab, "int32_t"), len(lab), int(count),
                                      float(noise), int(seed)))
    triplets = scratch.triplets
    if side is not None:
        side.add_triplets(triplets)
    return triplets
