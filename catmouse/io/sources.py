"""Where a reader's text comes from: a path, ``-`` (standard input) or an open file.

Text is read as UTF-8 in bounded pieces (never a whole line of unbounded length at once), a
byte-order mark at the start of a file is dropped, and bytes that are not UTF-8 are an error
naming their line.  Each piece is handed on as soon as it is read, so a reader of a slow
pipe sees each line when it is complete.
"""

from __future__ import annotations

import codecs
import os
import sys
from collections.abc import Iterator
from typing import IO, Any, Union

__all__ = ["PIECE", "Source", "check_source", "pieces", "read_text", "source_name"]

#: What a reader takes: a path, ``"-"`` (standard input) or an open file, text or binary.
Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]

#: The most characters (or bytes) read at once: a line longer than this comes in pieces.
PIECE = 1 << 16


def source_name(source: Any) -> str:
    """How messages name a source: its path, ``<stdin>`` for ``-``, else the stream's name."""
    if isinstance(source, (str, os.PathLike)):
        source = os.fspath(source)
        return "<stdin>" if source == "-" else source
    return str(getattr(source, "name", "<stream>"))


def check_source(source: Any) -> None:
    """TypeError now (not at the first read) for what is no path and no open file."""
    if not isinstance(source, (str, os.PathLike)) and not hasattr(source, "readline"):
        raise TypeError("a graph source is a path, '-' (standard input) or an open file, "
                        f"not {type(source).__name__}")


def pieces(source: Any) -> Iterator[tuple[str, bool]]:
    """``(text, ends_line)`` pieces of at most :data:`PIECE` characters, in order.

    ``ends_line`` is true when the piece ends with its line's ``\\n``; the end of the pieces
    ends the last line too.  The file is opened at the first piece asked for."""
    check_source(source)
    return _pieces(source)


def _pieces(source: Any) -> Iterator[tuple[str, bool]]:
    if isinstance(source, (str, os.PathLike)):
        if os.fspath(source) == "-":
            yield from _stream_pieces(getattr(sys.stdin, "buffer", sys.stdin))
            return
        with open(source, "rb") as handle:
            yield from _stream_pieces(handle)
        return
    yield from _stream_pieces(source)


def _stream_pieces(stream: Any) -> Iterator[tuple[str, bool]]:
    decoder = codecs.getincrementaldecoder("utf-8")()
    line, first = 1, True
    while True:
        raw = stream.readline(PIECE)
        if isinstance(raw, bytes):
            try:
                text = decoder.decode(raw, final=not raw)
            except UnicodeDecodeError as error:
                byte = error.object[error.start:error.start + 1].hex()
                raise ValueError(f"line {line}: not UTF-8 text (byte 0x{byte}); "
                                 "catmouse reads graph files as UTF-8") from None
        else:
            text = raw
        if not raw:
            return
        if first:
            text = text.removeprefix("\ufeff")
            first = False
        ends = text.endswith("\n")
        yield text, ends
        if ends:
            line += 1


def read_text(source: Source) -> str:
    """A text file's contents as UTF-8 (a byte-order mark is dropped); ``-`` is stdin."""
    return "".join(text for text, _ in pieces(source))
