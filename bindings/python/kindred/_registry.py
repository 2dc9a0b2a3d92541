"""The library's algorithm and option registry, read at import time (nothing here is per algorithm)."""
from collections import namedtuple

from ._lib import CONSTANTS, check, ffi, lib, text

Option = namedtuple("Option", "name type default range doc")
Option.__doc__ = "One option of an algorithm: name, type ('int', 'double', 'bool', 'choice'), typed default, range text, doc."

_TYPES = {CONSTANTS["KINDRED_OPTION_INT"]: "int", CONSTANTS["KINDRED_OPTION_DOUBLE"]: "double",
          CONSTANTS["KINDRED_OPTION_BOOL"]: "bool", CONSTANTS["KINDRED_OPTION_CHOICE"]: "choice"}
_USES = {"pairs": "KINDRED_USES_PAIRS", "triplets": "KINDRED_USES_TRIPLETS",
         "partial_labels": "KINDRED_USES_PARTIAL_LABELS", "sparse": "KINDRED_USES_SPARSE",
         "no_k": "KINDRED_USES_NO_K", "transform": "KINDRED_USES_TRANSFORM", "soft": "KINDRED_USES_SOFT",
         "shards": "KINDRED_USES_SHARDS", "shards_approx": "KINDRED_USES_SHARDS_APPROX"}


def typed_value(kind, value_text):
    """An option's text form as a Python value of its type ('' -> None)."""
    if value_text is None or value_text == "":
        return None
    try:
        if kind == "int":
            return int(value_text)
        if kind == "double":
            return float(value_text)
        if kind == "bool":
            return value_text.strip().lower() in ("1", "true", "yes", "on")
    except ValueError:
        return value_text
    return value_text


def algorithms():
    """Names of all algorithms of the loaded library, in registry order."""
    return [text(lib.kindred_algorithm_name(k)) for k in range(lib.kindred_algorithm_count())]


def algorithm_summary(name):
    out = ffi.new("const char **")
    check(lib.kindred_algorithm_summary(name.encode(), out))
    return text(out[0])


def algorithm_uses(name):
    """What an algorithm uses and offers, as a set of words: pairs, triplets, partial_labels, sparse, no_k,
    transform (learns a transformation), soft (soft memberships of new points), shards (Clusterer.fit_shard
    gives bitwise the result of fit), shards_approx (fit_shard runs, its result is not fit's)."""
    flags = ffi.new("int *")
    check(lib.kindred_algorithm_uses(name.encode(), flags))
    return {word for word, const in _USES.items() if flags[0] & CONSTANTS[const]}


def options(name):
    """The option table of an algorithm, as a list of Option tuples."""
    count = ffi.new("int64_t *")
    check(lib.kindred_option_count(name.encode(), count))
    result = []
    for k in range(count[0]):
        oname, odef, orange, odoc = (ffi.new("const char **") for _ in range(4))
        otype = ffi.new("int *")
        check(lib.kindred_option_info(name.encode(), k, oname, otype, odef, orange, odoc))
        kind = _TYPES.get(otype[0], "choice")
        result.append(Option(text(oname[0]), kind, typed_value(kind, text(odef[0])), text(orange[0]), text(odoc[0])))
    return result


def metrics():
    """Names of the metrics known to kindred.metric()."""
    return [text(lib.kindred_metric_name(k)) for k in range(lib.kindred_metric_count())]


def class_name(algorithm):
    """Python class name for an algorithm: 'mpckmeans' -> 'MPCKMeans', 'tcs-gm' -> 'TCSGM', 'tvclust' -> 'TVClust'.

    A naming rule, not a table: acronyms are upper case, and the common English endings
    'means' and 'clust' keep their capital only.
    """
    parts = []
    for part in algorithm.replace("_", "-").split("-"):
        for ending in ("means", "clust"):
            if part.endswith(ending) and len(part) > len(ending):
                parts.append(part[: -len(ending)].upper() + ending.capitalize())
                break
        else:
            parts.append(part.upper())
    name = "".join(p for p in parts if p)
    return name if name.isidentifier() else None
