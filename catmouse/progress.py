"""Progress reports for long work: a callback, or a text bar on stderr (stdlib only).

Every ``progress=`` argument in the package takes ``None`` (quiet), ``True`` (a bar
on stderr) or a callable ``progress(done)`` called with how much is done so far:
decided positions for ``analyze``, checked positions for ``Analysis.verify``,
solved graphs for ``solve_many``.  An exception the callable raises stops the work
and propagates, which is how a caller cancels.

>>> seen = []
>>> report = as_callback(seen.append, total=10)
>>> report(4); report(10)
>>> seen
[4, 10]
"""

from __future__ import annotations

import inspect
import sys
import time
from collections.abc import Callable
from typing import IO, Any

__all__ = ["Bar", "ProgressLike", "as_callback", "engine_takes_progress", "finish"]

ProgressLike = bool | Callable[[int], object] | None

_WIDTH = 30  # characters of bar


class Bar:
    """A one-line text bar: redrawn in place on a terminal, sparse lines elsewhere.

    On a terminal (``tty``; default: ask the stream) the line is redrawn in place
    at most ``rate`` times a second.  Into a file, a pipe or a CI log, where a
    carriage return does not go back, a whole line is printed each time another
    tenth of the work is done, and once at the end: at most eleven lines.
    Nothing is drawn before ``delay`` seconds have passed, so quick work stays
    silent; :meth:`close` ends the line (only if something was drawn).

    >>> import io
    >>> out = io.StringIO()
    >>> bar = Bar(4, "solving", stream=out)
    >>> bar(2); bar(4); bar.close()
    >>> print(out.getvalue(), end="")
    solving [###############...............]  50% 2/4
    solving [##############################] 100% 4/4
    """

    def __init__(self, total: int, label: str = "", *, stream: IO[str] | None = None,
                 delay: float = 0.0, rate: float = 10.0, tty: bool | None = None):
        self.total = max(int(total), 0)
        self.label = label
        self.stream = stream
        self.delay = delay
        self.interval = 1.0 / rate
        self.start = time.monotonic()
        self.drawn = False
        self.last_draw = float("-inf")
        self.done = 0
        self._tty = tty
        self._last_line = ""  # a line-by-line bar's last line, not printed twice
        self._tenth = -1  # the tenth of the work that line showed

    def _out(self) -> IO[str]:
        return self.stream if self.stream is not None else sys.stderr

    @property
    def tty(self) -> bool:
        """Whether the bar redraws in place (its stream is a terminal, or it was told so)."""
        if self._tty is None:
            isatty = getattr(self._out(), "isatty", None)
            try:
                self._tty = bool(isatty()) if isatty is not None else False
            except (ValueError, OSError):  # a closed stream
                self._tty = False
        return self._tty

    def __call__(self, done: int) -> None:
        self.done = int(done)
        now = time.monotonic()
        if now - self.start < self.delay:
            return
        if not self.tty:
            if self._share_tenth() > self._tenth:
                self._draw(now)
            return
        if self.drawn and now - self.last_draw < self.interval and self.done < self.total:
            return
        self._draw(now)

    def _share(self) -> float:
        return min(self.done / self.total, 1.0) if self.total else 1.0

    def _share_tenth(self) -> int:
        return int(self._share() * 10)

    def _frame(self) -> str:
        share = self._share()
        filled = int(share * _WIDTH)
        bar = "#" * filled + "." * (_WIDTH - filled)
        label = f"{self.label} " if self.label else ""
        # Floored, so that 100% means all of it.
        return f"{label}[{bar}] {int(share * 100):3d}% {self.done:,}/{self.total:,}"

    def _draw(self, now: float) -> None:
        frame = self._frame()
        if self.tty:
            self._write(f"\r{frame}")
        else:
            self._write(f"{frame}\n")
            self._last_line = frame
            self._tenth = self._share_tenth()
        self.drawn = True
        self.last_draw = now

    def _write(self, text: str) -> None:
        """``text`` on the stream, flushed; nothing where there is no stream to write.

        A bar only shows the work: a process without stderr (``None`` under pythonw or with
        descriptor 2 closed) or a closed or broken stream must not stop it.
        """
        stream = self._out()
        if stream is None:
            return
        try:
            stream.write(text)
            stream.flush()
        except (OSError, ValueError):  # closed (ValueError), or a broken pipe, a full disk
            pass

    def close(self, done: int | None = None) -> None:
        """Draw the final state and end the line (unless done before ``delay`` passed)."""
        if done is not None:
            self.done = int(done)
        now = time.monotonic()
        if not (self.drawn or now - self.start >= self.delay):
            return
        if not self.tty:
            if self._frame() != self._last_line:
                self._draw(now)
            return
        self._draw(now)
        self._write("\n")


def as_callback(progress: Any, total: int, label: str = "") -> Callable[[int], object] | None:
    """Normalize a ``progress=`` argument: None, a :class:`Bar` for True, or the callable."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return Bar(total, label)
    if callable(progress):
        return progress
    raise TypeError(
        "progress must be True, False, None or a callable progress(done), "
        f"not {type(progress).__name__}"
    )


def finish(callback: Callable[[int], object] | None, done: int) -> None:
    """Report the end: a last call with ``done``, and the bar's line ended."""
    if callback is None:
        return
    if isinstance(callback, Bar):
        callback.close(done)
    else:
        callback(done)


def engine_takes_progress() -> bool:
    """Whether the engine in use reports progress (its ``propagate`` takes ``progress=``)."""
    from . import engine as _engine

    try:
        return "progress" in inspect.signature(_engine.current.propagate).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return False
