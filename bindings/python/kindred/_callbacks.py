"""Python callables behind the C callbacks (progress, log). Exceptions never unwind through C:
the trampoline catches everything (KeyboardInterrupt included), asks the library to cancel, and
the caller re-raises once the C call has returned."""
import contextlib
import logging
import signal
import sys
import threading
import time

from ._lib import ffi, text

log = logging.getLogger("kindred")
_LEVELS = {0: logging.DEBUG, 1: logging.INFO, 2: logging.WARNING}


class Trampoline:
    """Wraps a Python callable as a C function pointer of type `cdecl`.

    `cancel_value` is returned to C when the callable raises (the exception is kept in `.error`).
    Keep the Trampoline alive for as long as C may call it.
    """

    def __init__(self, cdecl, fn, convert, cancel_value):
        self.error = None

        def call(*args):
            if self.error is not None:
                return cancel_value
            try:
                return convert(fn(*args[1:]))  # args[0] is the C `user` pointer
            except BaseException as e:  # noqa: B902 -- nothing may unwind into C
                self.error = e
                return cancel_value

        self.pointer = ffi.callback(cdecl, call, error=cancel_value)

    def reraise(self):
        if self.error is not None:
            err, self.error = self.error, None
            raise err


class StderrLine:
    """A one-line progress display on stderr, used when tqdm is not installed: redrawn in place on a
    terminal, otherwise one plain line per second at most (so logs stay readable)."""

    def __init__(self, label):
        self.label = label
        self.tty = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
        self.last = None  # time of the last line drawn
        self.pending = None

    def __call__(self, iteration, objective, message):
        self.pending = "%s: iteration %d, objective %.6g  %s" % (self.label, iteration, objective, message or "")
        now = time.monotonic()
        if self.last is None or now - self.last >= (0.1 if self.tty else 1.0):
            self._draw()
            self.last = now

    def _draw(self):
        sys.stderr.write(("\r%s\x1b[K" if self.tty else "%s\n") % self.pending)
        sys.stderr.flush()
        self.pending = None

    def close(self):
        if self.pending is not None:
            self._draw()
        if self.tty and self.last is not None:
            sys.stderr.write("\n")
            sys.stderr.flush()


class TqdmBar:
    """Progress through tqdm (only constructed when tqdm imports)."""

    def __init__(self, label, tqdm):
        self.bar = tqdm(desc=label, unit="it", leave=False)

    def __call__(self, iteration, objective, message):
        self.bar.set_postfix_str("objective %.6g" % objective)
        self.bar.update(1)

    def close(self):
        self.bar.close()


def progress_display(label):
    """A progress display: tqdm if it can be imported, else a line on stderr."""
    try:
        from tqdm.auto import tqdm
    except Exception:  # absent or broken: fall back, never fail a fit for a progress bar
        return StderrLine(label)
    return TqdmBar(label, tqdm)


class ProgressTrampoline(Trampoline):
    """The progress callback of every fit, with or without a user's callable: besides calling it, it
    cancels the fit once Ctrl-C has been pressed (see interrupt_cancels)."""

    def __init__(self, fn):
        self.interrupted = False

        def call(iteration, objective, message):
            if self.interrupted:
                return True
            return fn(iteration, objective, text(message)) if fn is not None else False

        Trampoline.__init__(self, "kindred_progress_fn", call, lambda r: 1 if r else 0, 1)


def progress_trampoline(progress, label):
    """(ProgressTrampoline, display-to-close or None) for the fit(progress=...) argument.

    progress: None/False (none), True (a progress bar), or a callable(iteration, objective, message)
    whose truthy return value cancels the fit.
    """
    display = None
    if progress is None or progress is False:
        fn = None
    elif progress is True:
        display = progress_display(label)
        fn = display
    elif callable(progress):
        fn = progress
    else:
        raise TypeError("progress: expected None, True or a callable(iteration, objective, message)")
    return ProgressTrampoline(fn), display


@contextlib.contextmanager
def interrupt_cancels(trampoline):
    """While the C library fits, Ctrl-C only marks the fit as interrupted; the trampoline then cancels
    it at the next progress report and the caller raises KeyboardInterrupt once C has returned.

    Python's own handler would raise KeyboardInterrupt inside whichever callback happens to run,
    where cffi can only print it; so the handler is swapped for the duration of the call (only in
    the main thread, which is where Python delivers signals, and only when it is Python's default).
    """
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return

    def on_interrupt(signum, frame):
        trampoline.interrupted = True

    signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def log_trampoline():
    """Forward the library's diagnostics to the 'kindred' logger."""
    return Trampoline("kindred_log_fn", lambda level, msg: log.log(_LEVELS.get(level, logging.INFO), "%s", text(msg)),
                      lambda r: None, None)
