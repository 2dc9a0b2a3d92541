"""Active selection of pairwise constraints with the oracle as a Python callable."""
from ._arrays import DenseArg
from ._callbacks import Trampoline
from ._lib import check, ffi, has_function, lib
from ._side import SideInfo

# Returned to C when the oracle raised: not a valid answer, so the library stops at once
# (KINDRED_E_INVALID) and the oracle's own exception is raised instead.
_STOP = 2


def _answer(value):
    if value is None:
        return 0
    if value is True:
        return 1
    if value is False:
        return -1
    answer = int(value)
    if answer not in (-1, 0, 1):
        raise ValueError("oracle: answer %r is not +1 (same), -1 (different), 0 (don't know), True, False or None"
                         % (value,))
    return answer


def _options(strategy, k, budget, seed):
    """A kindred_active_options handle (freed with the returned cdata) holding the settings."""
    handle = ffi.new("kindred_active_options **")
    check(lib.kindred_active_options_new(handle))
    options = ffi.gc(handle[0], lib.kindred_active_options_free)
    if strategy is not None:
        check(lib.kindred_active_options_set_string(options, b"strategy", strategy.encode()))
    check(lib.kindred_active_options_set_int(options, b"k", -1 if k is None else int(k)))
    check(lib.kindred_active_options_set_int(options, b"budget", int(budget)))
    check(lib.kindred_active_options_set_int(options, b"seed", int(seed)))
    return options


def active_select(X, oracle, budget, k=None, strategy=None, seed=0, side=None):
    """Ask `oracle(i, j)` about chosen pairs of points and return the answers as a SideInfo.

    oracle(i, j) (0-based, i < j) answers +1 / True (same cluster), -1 / False (different) or
    0 / None (don't know). budget: maximum number of questions. k: number of clusters, None if
    unknown (then only Explore runs). strategy: a name from the range of the "strategy" entry of
    the library's active-selection options (kindred_active_option_info); None: its default.
    side: a SideInfo to add the pairs to
    (default: a new one). An exception raised by the oracle (KeyboardInterrupt included) stops the
    selection and is raised again here; `side` is then left unchanged.
    Experimental in the C API (its signature may change after 0.1).
    """
    if not has_function("kindred_active_select"):
        raise NotImplementedError("this libkindred has no kindred_active_select")
    data = DenseArg(X)
    options = _options(strategy, k, budget, seed)
    if side is None:
        side = SideInfo(data.n)
    trampoline = Trampoline("kindred_oracle_fn", lambda i, j: oracle(int(i), int(j)), _answer, _STOP)
    status = lib.kindred_active_select(options, data.ptr, data.n, data.d, data.layout, data.ld,
                                       trampoline.pointer, ffi.NULL, side.handle)
    trampoline.reraise()
    check(status)
    return side
