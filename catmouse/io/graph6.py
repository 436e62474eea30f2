"""graph6, one grammar for every reader (Python's and the command line's).

A file is lines split on ``\\n``; a byte-order mark may open the file; a line may end in
ASCII spaces, tabs and ``\\r`` (dropped); a line of nothing else is blank and skipped.  Any
other line is one graph: an optional ``>>graph6<<`` header, then characters ``?`` to ``~``
only, exactly as many as the node count at its start says (nauty's formats.txt).

A line is read in bounded pieces, and reading stops as soon as a line holds more than its
node count allows: a huge line whose count says 2 nodes fails after one piece.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..graph import Graph
from ..graph_checks import check_node_count

__all__ = ["HEADER", "TRAILING", "decode_line", "line_size", "numbered_graphs"]

HEADER = ">>graph6<<"
#: What may end a line, after its graph: ASCII space, tab and carriage return.
TRAILING = " \t\r"
_OTHER_FORMATS = {":": "sparse6", ";": "incremental sparse6", "&": "digraph6"}


def line_size(head: str) -> tuple[int, int] | None:
    """``(nodes, characters)`` a graph6 line must hold, from its first characters.

    ``characters`` counts the header (if any), the node count and the edges; None while
    ``head`` is too short to tell or does not start as graph6 (the decoder says why)."""
    start = len(HEADER) if head.startswith(HEADER) else 0
    data = [ord(ch) - 63 for ch in head[start:start + 8]]
    if not data or any(not 0 <= x < 64 for x in data):
        return None
    if data[0] < 63:
        n, count = data[0], 1
    elif len(data) >= 4 and data[1] < 63:
        n, count = data[1] << 12 | data[2] << 6 | data[3], 4
    elif len(data) >= 8:
        n = 0
        for x in data[2:8]:
            n = (n << 6) | x
        count = 8
    else:
        return None
    return n, start + count + -(-(n * (n - 1) // 2) // 6)


def _read_line(pieces: Iterator[tuple[str, bool]], first: tuple[str, bool]) -> str:
    """One line's text, trailing whitespace dropped, read piece by piece: ValueError once it
    holds more than its node count allows (the rest of the line is never read)."""
    text, ends = first
    size: tuple[int, int] | None = None
    while not ends:
        if size is None:
            size = line_size(text)
            if size is None:
                text = _unreadable_start(text)
        if size is not None and len(text) > size[1]:
            if text[size[1]:].strip(TRAILING):
                raise ValueError(f"graph6 for {size[0]} nodes needs {size[1]} characters in "
                                 "all, and the line holds more")
            text = text[:size[1] + 1]  # keep one blank: a character after it is refused
        piece = next(pieces, None)
        if piece is None:
            break
        text += piece[0]
        ends = piece[1]
    return text.removesuffix("\n").rstrip(TRAILING)


def _unreadable_start(text: str) -> str:
    """An unfinished line whose start gives no node count: ValueError once that is for good
    (an endless line of NULs, ``/dev/zero``, was read for ever), else the text to go on with.

    With the header's room and eight characters read, no count means a character outside
    ``?``..``~`` among the eight: the line is refused whatever follows, with the words the
    whole line gets (the first such character), unless only blanks follow it (a short graph
    then blanks: one blank is kept, so that a character after them is still refused)."""
    start = len(HEADER) if text.startswith(HEADER) else 0
    if len(text) < len(HEADER) + 8:
        return text  # too short to tell yet
    bad = next(k for k in range(start, start + 8) if not 63 <= ord(text[k]) <= 126)
    if text[bad:].strip(TRAILING):
        decode_line(text[:bad + 1])  # raises: the first character outside '?'..'~'
    return text[:bad + 1]


def numbered_graphs(pieces: Iterable[tuple[str, bool]]) -> Iterator[tuple[int, Graph]]:
    """``(line number, graph)`` for each graph6 line, yielded as soon as its line is read.

    Errors name their line when the text holds more than one graph (a bad first graph
    looks ahead for a second line to know)."""
    stream = iter(pieces)
    number, graphs = 0, 0
    for piece in stream:
        number += 1
        try:
            line = _read_line(stream, piece)
            if not line:
                continue
            graphs += 1
            graph = decode_line(line)
        except ValueError as error:
            if str(error).startswith("line "):  # the text's own error (not UTF-8) is numbered
                raise
            if number > 1 or _more_graphs(stream):
                raise ValueError(f"line {number}: {error}") from None
            raise
        yield number, graph
    if not graphs:
        raise ValueError("the graph6 file is empty")


def _more_graphs(stream: Iterator[tuple[str, bool]]) -> bool:
    """Whether a graph line follows (to number the first line's error); reads little."""
    for text, _ in stream:
        if text.strip(TRAILING + "\n"):
            return True
    return False


def decode_line(line: str) -> Graph:
    """Decode one graph6 line (no trailing whitespace; an optional ``>>graph6<<`` header)."""
    line = line.removeprefix(HEADER)
    if not line:
        raise ValueError("the graph6 line is empty")
    if line[0] in _OTHER_FORMATS:
        raise ValueError(f"{_OTHER_FORMATS[line[0]]} is not supported; give graph6, an edge "
                         "list or JSON")
    data = [ord(ch) - 63 for ch in line]
    if any(not 0 <= x < 64 for x in data):
        bad = next(ch for ch in line if not 63 <= ord(ch) <= 126)
        raise ValueError(f"graph6 holds the character {bad!r}, outside '?'..'~'")

    def number(values: list[int]) -> int:
        n = 0
        for x in values:
            n = (n << 6) | x
        return n

    # The node count: one byte, or 63 then three bytes, or 63, 63 then six bytes.
    if data[0] < 63:
        n, body = data[0], data[1:]
    elif len(data) >= 4 and data[1] < 63:
        n, body = number(data[1:4]), data[4:]
    elif len(data) >= 8:
        n, body = number(data[2:8]), data[8:]
    else:
        raise ValueError("graph6 node count is cut short")
    check_node_count(n, "the graph6 graph")
    bits_needed = n * (n - 1) // 2
    if len(body) != -(-bits_needed // 6):
        raise ValueError(
            f"graph6 for {n} nodes needs {-(-bits_needed // 6)} bytes of edges, got {len(body)}"
        )
    rows: list[list[int]] = [[] for _ in range(n)]
    k = 0
    # Upper triangle, column by column: (0,1), (0,2), (1,2), (0,3), ...
    for v in range(1, n):
        for u in range(v):
            if body[k // 6] >> (5 - k % 6) & 1:
                rows[u].append(v)
                rows[v].append(u)
            k += 1
    # The last byte's unused bits are zero in graph6; other bits mean another text, not this graph.
    if body and body[-1] & ((1 << (6 * len(body) - bits_needed)) - 1):
        raise ValueError("graph6 padding bits after the last edge must be zero")
    return Graph(rows)
