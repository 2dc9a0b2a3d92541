"""Loading libkindred and turning its status codes into Python exceptions."""
import glob
import os
import shutil
import subprocess

import cffi

from ._cdef import CDEF, CONSTANTS, HEADER_VERSION

ffi = cffi.FFI()
ffi.cdef(CDEF)

OK = CONSTANTS["KINDRED_OK"]
ROW_MAJOR = CONSTANTS["KINDRED_ROW_MAJOR"]
COL_MAJOR = CONSTANTS["KINDRED_COL_MAJOR"]
SONAME = "libkindred.so.%d" % HEADER_VERSION[0]


def _candidates():
    """Where to look for the shared library, most specific first.

    KINDRED_LIB: the library file itself, or a directory holding it (a build tree's src/).
    KINDRED_PREFIX: an install prefix (lib/, lib64/ or lib/<multiarch>/ below it).
    Otherwise pkg-config's libdir for kindred, then the dynamic loader's own search.
    """
    lib = os.environ.get("KINDRED_LIB")
    if lib:
        yield os.path.join(lib, SONAME) if os.path.isdir(lib) else lib
    prefix = os.environ.get("KINDRED_PREFIX")
    if prefix:
        for d in ["lib", "lib64"] + [os.path.relpath(p, prefix) for p in glob.glob(os.path.join(prefix, "lib", "*-linux-gnu*"))]:
            path = os.path.join(prefix, d, SONAME)
            if os.path.exists(path):
                yield path
    if shutil.which("pkg-config"):
        try:
            libdir = subprocess.run(["pkg-config", "--variable=libdir", "kindred"], capture_output=True,
                                    text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            libdir = ""
        if libdir and os.path.exists(os.path.join(libdir, SONAME)):
            yield os.path.join(libdir, SONAME)
    yield SONAME


def _load():
    errors = []
    for path in _candidates():
        try:
            return ffi.dlopen(path), path
        except OSError as e:
            errors.append("%s: %s" % (path, e))
    raise ImportError("kindred: cannot load the kindred C library (set KINDRED_LIB to the library or its "
                      "folder, or KINDRED_PREFIX to its install prefix, or make `pkg-config kindred` find it).\n  "
                      + "\n  ".join(errors))


lib, library_path = _load()


def has_function(name):
    """True when the loaded library exports the C function `name` (newer functions may be absent)."""
    try:
        getattr(lib, name)
        return True
    except (AttributeError, NotImplementedError):
        return False


class KindredError(Exception):
    """An error reported by the kindred library. `status` is the C status code, `status_name` its name."""

    def __init__(self, message, status=CONSTANTS["KINDRED_E_INTERNAL"]):
        super().__init__(message)
        self.message = message
        self.status = status
        self.status_name = ffi.string(lib.kindred_status_string(status)).decode()

    def __str__(self):
        return self.message


class InvalidArgumentError(KindredError, ValueError):
    """KINDRED_E_INVALID: an argument is invalid (NaN, bad value, ...)."""


class DimensionError(KindredError, ValueError):
    """KINDRED_E_DIMENSION: sizes do not agree."""


class BufferTooSmallError(KindredError, ValueError):
    """KINDRED_E_BUFFER_TOO_SMALL: an output buffer is too small (the binding sizes its buffers, so
    this means a bug in the binding)."""


class IndexOutOfRangeError(KindredError, IndexError):
    """KINDRED_E_INDEX: an index (e.g. in a constraint) is out of range."""


class InfeasibleError(KindredError):
    """KINDRED_E_INFEASIBLE: hard constraints cannot all be satisfied."""


class NumericalError(KindredError, ArithmeticError):
    """KINDRED_E_NUMERICAL: a numerical failure."""


class CancelledError(KindredError):
    """KINDRED_E_CANCELLED: the progress callback (or Ctrl-C) stopped the fit."""


class NotFoundError(KindredError, KeyError, TypeError):
    """KINDRED_E_NOT_FOUND: no option, algorithm, metric or result array of that name."""


class StateError(KindredError, ValueError, AttributeError):
    """KINDRED_E_STATE: e.g. the model is not fitted, or the algorithm cannot predict / transform."""


class CorruptFileError(KindredError, ValueError):
    """KINDRED_E_CORRUPT: a model file is truncated, corrupted or not a kindred file."""


class KindredIOError(KindredError, OSError):
    """KINDRED_E_IO: a file could not be read or written."""

    def __init__(self, message, status):  # OSError's own __init__ would reinterpret the arguments
        KindredError.__init__(self, message, status)


class KindredMemoryError(KindredError, MemoryError):
    """KINDRED_E_NOMEM."""


_ERRORS = {
    "KINDRED_E_INVALID": InvalidArgumentError,
    "KINDRED_E_DIMENSION": DimensionError,
    "KINDRED_E_INDEX": IndexOutOfRangeError,
    "KINDRED_E_INFEASIBLE": InfeasibleError,
    "KINDRED_E_NOMEM": KindredMemoryError,
    "KINDRED_E_NUMERICAL": NumericalError,
    "KINDRED_E_CANCELLED": CancelledError,
    "KINDRED_E_NOT_FOUND": NotFoundError,
    "KINDRED_E_STATE": StateError,
    "KINDRED_E_IO": KindredIOError,
    "KINDRED_E_CORRUPT": CorruptFileError,
    "KINDRED_E_BUFFER_TOO_SMALL": BufferTooSmallError,
}
_BY_CODE = {CONSTANTS[k]: v for k, v in _ERRORS.items()}


def error_for(status):
    """The exception for a non-OK status, carrying kindred_last_error() (read at once: it is per call)."""
    message = ffi.string(lib.kindred_last_error()).decode("utf-8", "replace")
    if not message:
        message = ffi.string(lib.kindred_status_string(status)).decode()
    return _BY_CODE.get(status, KindredError)(message, status)


def check(status):
    """Raise the matching KindredError when a C call did not return KINDRED_OK."""
    if status != OK:
        raise error_for(status)


def text(ptr):
    """A C string (borrowed) as str; NULL gives None."""
    return None if ptr == ffi.NULL else ffi.string(ptr).decode("utf-8", "replace")
