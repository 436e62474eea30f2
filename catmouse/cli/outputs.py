"""Where the command line writes, so that a failure names what failed to be written.

Every write of a command (``-o``, ``--html``, standard output) goes through here: an OSError
while writing becomes :class:`WriteFailed`, which ``main`` reports as ``cannot write
<where>: <why>``, apart from the OSErrors of reading (``cannot read <file>``).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import stat
import sys
import warnings
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO, TextIO

from ..io.atomic import replacing, where

__all__ = ["STDOUT", "GuardedStdout", "WriteFailed", "check_target", "file_label",
           "report_stream", "write_page", "writing"]

STDOUT = "<stdout>"


class WriteFailed(Exception):
    """Writing ``where`` (a path, or ``<stdout>``) failed with ``error``."""

    def __init__(self, where: str, error: OSError):
        super().__init__(where, error)
        self.where, self.error = where, error

    def __str__(self) -> str:
        return f"cannot write {self.where}: {self.error.strerror or self.error}"


def file_label(path: str) -> str:
    """How messages name a graph file argument (``-`` is standard input)."""
    return "<stdin>" if path == "-" else path


@contextlib.contextmanager
def writing(path: str) -> Iterator[None]:
    """Any OSError in the block is a failure to write ``path`` (a reader that went away,
    BrokenPipeError, stays itself: ``main`` ends quietly on it)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as error:
        raise WriteFailed(path, error) from None


def check_target(path: str, reads: Iterable[str | None] = (), read: str = "the graph is read from"
                 ) -> None:
    """Refuse an output the write would refuse (a folder, a missing folder, a socket, a
    read-only file), or one that is a file the command reads (``reads``: its paths, by any
    name: a link, another spelling; ``read`` says what the command reads there), before any
    work is done."""
    with writing(path):
        where(path)
    for source in reads:
        if source is None:
            continue
        with contextlib.suppress(OSError):  # (either missing: nothing to overwrite)
            if _same_file(path, source):
                shown = "<stdin>" if source == "-" else source
                raise WriteFailed(path, OSError(errno.EINVAL, f"it is the file {shown} that "
                                                              f"{read}"))


def _same_file(path: str, source: str) -> bool:
    """Whether writing ``path`` would replace the file ``source`` reads: ``-`` is the regular
    file standard input reads, if it reads one (``< graph.edges``; a terminal or a pipe is
    none to keep)."""
    if source != "-":
        return os.path.samefile(path, source)
    try:
        read = os.fstat(sys.stdin.fileno())
    except (AttributeError, ValueError, io.UnsupportedOperation):  # (closed, or no descriptor)
        return False
    return stat.S_ISREG(read.st_mode) and os.path.samestat(os.stat(path), read)


def report_stream(path: str) -> TextIO:
    """Where a command's "wrote PATH" line goes: stderr when PATH is the process's standard
    output itself (``-o /dev/stdout``), so that the line does not join the file."""
    stdout = sys.__stdout__
    with contextlib.suppress(OSError, ValueError, AttributeError):
        if stdout is not None and os.path.samestat(os.stat(path), os.fstat(stdout.fileno())):
            return sys.stderr
    return sys.stdout


def write_page(path: str, text: str) -> tuple[str, TextIO]:
    """Write a page (``--html``) to ``path``, ``-`` being standard output (it was a file named
    ``-``); return how to name where it went and the stream its "wrote" line goes to."""
    if path == "-":
        with writing(STDOUT):
            sys.stdout.flush()
            sys.stdout.buffer.write(text.encode("utf-8"))  # (as the page's meta says)
            sys.stdout.buffer.flush()
        return STDOUT, sys.stderr
    with writing(path), replacing(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path, report_stream(path)


def _escapes(keep: str) -> dict[int, str]:
    """A str.translate table writing the C0 and C1 control characters and DEL as ``\\xNN``,
    but those in ``keep``."""
    codes = [*range(0x20), 0x7F, *range(0x80, 0xA0)]
    return {c: f"\\x{c:02x}" for c in codes if chr(c) not in keep}


# What a terminal is given of the text: a node's name from a file (JSON holds any character)
# is data, and ESC or BEL in it would drive the terminal (colours, its title, the screen
# cleared).  Standard output keeps newlines and tabs; standard error the progress bar's \r.
SHOWN_OUT = _escapes("\n\t")
SHOWN_ERR = _escapes("\n\t\r")


def on_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (False where it cannot say: closed, or no isatty)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


class _ShownText:
    """A text stream that writes control characters as escapes by ``table`` (None: the text
    as it is); anything else is the stream's."""

    def __init__(self, stream: TextIO, table: dict[int, str] | None):
        self._stream = stream
        self._shown = table

    def write(self, text: str) -> int:
        given = len(text)
        if self._shown is not None:
            text = text.translate(self._shown)
        self._put(text)
        return given  # (what the caller gave, as a stream's write says)

    def _put(self, text: str) -> None:
        self._stream.write(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class ShownStderr(_ShownText):
    """Standard error on a terminal: control characters written as escapes (SHOWN_ERR)."""

    def __init__(self, stream: TextIO):
        super().__init__(stream, SHOWN_ERR)


class ShownBytes:
    """Standard output's binary buffer on a terminal (``analyze -o -``'s table): the UTF-8
    text written with its control characters as escapes (SHOWN_OUT), as GuardedStdout
    writes text; a character cut between two writes is held until the next."""

    def __init__(self, stream: BinaryIO):
        self._stream = stream
        self._decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")

    def write(self, data: bytes) -> int:
        text = self._decoder.decode(data).translate(SHOWN_OUT)
        self._stream.write(text.encode("utf-8", "surrogateescape"))
        return len(data)

    def flush(self) -> None:
        tail = self._decoder.decode(b"", final=True)
        if tail:
            self._stream.write(tail.translate(SHOWN_OUT).encode("utf-8", "surrogateescape"))
        self._stream.flush()


class GuardedStdout(_ShownText):
    """Standard output whose write errors are :class:`WriteFailed` on ``<stdout>``; on a
    terminal, control characters are written as escapes (SHOWN_OUT), while a file or a
    pipe gets the text as it is (a CSV's names whole)."""

    def __init__(self, stream: TextIO):
        super().__init__(stream, SHOWN_OUT if on_terminal(stream) else None)

    def _put(self, text: str) -> None:
        with writing(STDOUT):
            try:
                self._stream.write(text)
            except UnicodeEncodeError:
                # A name the stream's encoding cannot hold (Windows gives a redirected stdout
                # the locale's code page, cp1252): Python's escapes, as stderr writes them.
                encoding = getattr(self._stream, "encoding", None) or "utf-8"
                self._stream.write(text.encode(encoding, "backslashreplace").decode(encoding))

    def flush(self) -> None:
        with writing(STDOUT):
            self._stream.flush()

    def silence(self) -> None:
        """After a failed write: point the descriptor at the null device, so that the
        interpreter's last flush of what is still buffered does not fail again."""
        with contextlib.suppress(OSError, ValueError, AttributeError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._stream.fileno())
            os.close(null)


@contextlib.contextmanager
def notes() -> Iterator[None]:
    """A reader's warning (an edge list's missing ids) as one line on stderr, in every command
    alike (not Python's warning with its file and line)."""
    def note(message: Warning | str, *_: object, **__: object) -> None:
        print(f"catmouse: note: {' '.join(str(message).split())}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = note
        yield
