"""Argument checks and sizes of the k-cops game that both engine twins share.

The cops' team stands on a multiset of ``k`` nodes; the positions of one turn form a table of
``C(n+k-1, k)`` rows (one per multiset, in colex order) of ``n`` robber nodes.  Both twins call
these checks first, so they refuse the same arguments with the same words.  Standard library
only, nothing of catmouse above the engine.
"""

from __future__ import annotations

import operator
from math import comb
from typing import Any

from .checks import _buffer, _ids, _offsets, thread_count
from .cpus import free_cpus, usable_cpus

__all__ = ["MAX_COP_NODES", "MAX_GRAPH6_NODES", "MAX_COPS", "CAPTURED", "ESCAPED",
           "components", "cops_text", "csr_of", "cops_rows", "check_cop_graph", "check_cops",
           "check_cop_tables", "check_cancel", "check_cop_threads", "most_cops_searched", "too_big",
           "graph6_masks", "BYTE_PLIES", "NO_CAPTURE_BYTE", "PliesPastByte"]

# The most nodes a search takes: rows of one 64-bit word up to 64 nodes, of several above.
MAX_COP_NODES = 1024
# graph6 lines (the census path) hold at most 64 nodes: one word.
MAX_GRAPH6_NODES = 64
# What a graph6 line past them is told (the graph itself is not too big: only the line).
TOO_MANY_FOR_GRAPH6 = ("cop-number and census read graph6 lines of at most 64 nodes: give a "
                       "bigger graph as JSON or an edge list (components of up to 1024 nodes)")
# The most cops one search takes (fixed-size arrays in the compiled twin); far more than any
# table that fits in memory needs on 64 nodes but a handful.
MAX_COPS = 16
# Outcome codes of the cops' tables: the engine's CAT_WIN (the cops are the cats) and
# MOUSE_WIN (the robber, the mouse, escapes forever).
CAPTURED = 2
ESCAPED = 1
# The most threads a search may be asked for: solve_many's bound (catmouse.rules.MAX_THREADS,
# which the engine cannot import), with its words.
MAX_COP_THREADS = 1024
# threads=None hires a crew for a search of this many rows or more (fewer: the rounds are over
# before the helpers' start and barriers pay back), and below it does not look at the CPUs.
AUTO_CREW_ROWS = 1 << 14
# The most plies a remoteness table of a byte a position holds (255 is its "never"): a
# search that decides a position further from capture raises PliesPastByte, and is then run
# again with an int32 table (CopsGame.analyze).  Tests lower it to reach that path.
BYTE_PLIES = 254
NO_CAPTURE_BYTE = 255


class PliesPastByte(OverflowError):
    """A search given a byte remoteness table met a capture more than ``most`` plies away."""

    def __init__(self, most: int):
        super().__init__(f"a capture more than {most} plies away: a byte table cannot hold it")
        self.most = most


def check_cop_threads(threads: Any, rows: int = -1) -> tuple[int, bool]:
    """The threads of a search and whether they were left to the engine (``None``).

    ``None`` gives every CPU this process may use (``usable_cpus``: its affinity and cgroup
    quota) less those other threads are running on right now (``free_cpus``, as the general
    search's ``None``), and the compiled twin then hires them only for a big enough search and
    sends them home when they are starved (cops_crew.pxi).  ``rows``, when known (0 or more):
    the most rows a search of the call can have; below AUTO_CREW_ROWS, None is one thread
    without a look at the CPUs (which cost 36 us on Linux, a third of the Petersen graph's
    cop number then).
    Else an int from 1 to 1024, or TypeError or ValueError, solve_many's words.

    >>> check_cop_threads(2)
    (2, False)
    >>> check_cop_threads(None, rows=55)
    (1, True)
    >>> check_cop_threads(0)
    Traceback (most recent call last):
    ...
    ValueError: threads must be from 1 to 1024, not 0
    """
    if threads is None:
        if 0 <= rows < AUTO_CREW_ROWS:
            return 1, True
        return min(free_cpus(usable_cpus()), MAX_COP_THREADS), True
    return thread_count(threads, MAX_COP_THREADS), False


def most_cops_searched(n: int, most: int) -> int:
    """The most cops a cop number on ``n`` nodes (up to ``most`` cops) searches with: a
    component's cop number is at most half its nodes, and at least 1, since as many cops as
    a dominating set win and a graph without isolated nodes has one of at most half its
    nodes (Ore).  Sizes the biggest search of such a call before any runs.

    >>> most_cops_searched(10, 16), most_cops_searched(10, 2), most_cops_searched(1, 0)
    (5, 2, 1)
    """
    return max(1, min(most, n // 2))


def cops_rows(n: int, k: int) -> int:
    """Rows of one turn's table: the multisets of ``k`` of ``n`` nodes.

    >>> cops_rows(10, 3)
    220
    """
    return comb(n + k - 1, k)


def check_cancel(cancel: Any) -> Any:
    """A search's stop flag: None, or a writable buffer of C ints (``array('i', [0])``)
    whose first item another thread sets non-zero to stop the search (it then raises
    KeyboardInterrupt).  The searches look at it every few thousand steps."""
    if cancel is None:
        return None
    try:
        view = memoryview(cancel)
    except TypeError:
        raise TypeError("cancel must be array('i', [0]) or None, not "
                        f"{type(cancel).__name__}") from None
    with view:
        if view.format != "i" or view.ndim != 1 or view.readonly or len(view) < 1 \
                or not view.c_contiguous:
            raise ValueError("cancel must be a writable buffer of C ints (array('i', [0]))")
    return cancel


def check_cops(k: Any) -> int:
    """The number of cops as an int in 1..MAX_COPS, or TypeError/ValueError."""
    if isinstance(k, bool):
        raise TypeError("the number of cops must be an int, not bool")
    try:
        k = operator.index(k)
    except TypeError:
        raise TypeError(f"the number of cops must be an int, not {type(k).__name__}") from None
    if not 1 <= k <= MAX_COPS:
        raise ValueError(f"the number of cops must be 1 to {MAX_COPS}, not {k}")
    return k


def check_cop_graph(n: Any, indptr: Any, indices: Any) -> list[int]:
    """The closed neighbourhood of each node as a bit mask, from an undirected CSR graph.

    Self-loops are allowed and change nothing (every piece may stay).  Raises
    ValueError for more than MAX_COP_NODES nodes or a directed graph.

    >>> check_cop_graph(3, [0, 1, 3, 4], [1, 0, 2, 1])        # the path 0 - 1 - 2
    [3, 7, 6]
    """
    n = operator.index(n)
    if not 0 <= n <= MAX_COP_NODES:
        raise ValueError(f"n = {n} is out of range: the cops' engine takes 0 to "
                         f"{MAX_COP_NODES} nodes")
    if len(indptr) != n + 1:
        raise ValueError(f"indptr has {len(indptr)} entries, expected {n + 1}")
    offsets = _offsets(indptr)
    if offsets[0] != 0 or offsets != sorted(offsets):
        raise ValueError("indptr is not a monotone offset array from 0")
    ids = _ids(indices)
    if offsets[n] != len(ids):
        raise ValueError(f"indptr ends at {offsets[n]}, but indices has {len(ids)}")
    masks = [1 << u for u in range(n)]
    for u in range(n):
        for v in ids[offsets[u]:offsets[u + 1]]:
            if not 0 <= v < n:
                raise ValueError(f"node {u} has neighbour {v}, which is not a node")
            masks[u] |= 1 << v
    for u in range(n):
        bits = masks[u]
        while bits:
            low = bits & -bits
            v = low.bit_length() - 1
            if not (masks[v] >> u) & 1:
                raise ValueError(f"the cops' graph must be undirected: {u} -> {v} without "
                                 f"{v} -> {u}")
            bits ^= low
    return masks


def components(closed: list[int]) -> list[list[int]]:
    """The connected components as closed masks over their own nodes 0..m-1 (in id order).

    >>> components([3, 3, 4])                                 # an edge and a lone node
    [[3, 3], [1]]
    """
    left = (1 << len(closed)) - 1
    parts = []
    while left:
        seen = left & -left
        grow = seen
        while grow:
            reach = 0
            bits = grow
            while bits:
                low = bits & -bits
                reach |= closed[low.bit_length() - 1]
                bits ^= low
            grow = reach & ~seen
            seen |= reach
        left &= ~seen
        nodes = [u for u in range(len(closed)) if (seen >> u) & 1]
        where = {u: i for i, u in enumerate(nodes)}
        parts.append([sum(1 << where[v] for v in nodes if (closed[u] >> v) & 1)
                      for u in nodes])
    return parts


def csr_of(closed: list[int]) -> tuple[list[int], list[int]]:
    """``(indptr, indices)`` of the graph whose closed neighbourhoods are ``closed``.

    >>> csr_of([3, 3, 4])
    ([0, 1, 2, 2], [1, 0])
    """
    indptr, indices = [0], []
    for u, mask in enumerate(closed):
        indices += [v for v in range(len(closed)) if v != u and (mask >> v) & 1]
        indptr.append(len(indices))
    return indptr, indices


def check_cop_tables(n: int, k: int, outcome: Any, remoteness: Any) -> None:
    """Tables of ``2 * rows * n`` entries (uint8 outcome; remoteness int32, or uint8 as
    capture plies up to BYTE_PLIES and NO_CAPTURE_BYTE for never), or an error."""
    size = 2 * cops_rows(n, k) * n
    if outcome is not None:
        view = _buffer(outcome, "outcome", ("B",), 1, writable=True)
        if len(view) != size:
            raise ValueError(f"outcome buffer has {len(view)} entries, expected {size}")
    if remoteness is not None:
        try:
            narrow = memoryview(remoteness).itemsize == 1
        except TypeError:
            narrow = False  # (_buffer says what it is)
        view = (_buffer(remoteness, "remoteness", ("B",), 1, writable=True) if narrow
                else _buffer(remoteness, "remoteness", ("i",), 4, writable=True))
        if len(view) != size:
            raise ValueError(f"remoteness buffer has {len(view)} entries, expected {size}")


def cops_text(k: int) -> str:
    """``1 cop``, ``2 cops``: a team in words."""
    return f"{k} cop{'' if k == 1 else 's'}"


def too_big(n: int, k: int, need: int, max_bytes: int) -> MemoryError:
    """The refusal both twins raise before allocating more than ``max_bytes``."""
    return MemoryError(
        f"{cops_text(k)} on {n} nodes need {cops_rows(n, k):,} rows of positions, about "
        f"{need:,} bytes: more than the {max_bytes:,} bytes allowed")


_OTHER_FORMATS = {ord(":"): "sparse6", ord(";"): "incremental sparse6", ord("&"): "digraph6"}


def _character_at(line: bytes, k: int) -> str:
    """The character whose UTF-8 starts at byte ``k`` (after ASCII bytes), as the graphs'
    reader names it: a byte alone named the first of its character's bytes (a no-break space
    was 'Â'); bytes that are no UTF-8 are the reader's error.

    >>> _character_at("Bw\\u00a0".encode(), 2)
    '\\xa0'
    """
    for size in range(1, 5):
        try:
            return line[k:k + size].decode("utf-8")
        except UnicodeDecodeError as error:
            if error.reason != "unexpected end of data" or k + size >= len(line):
                break
    raise ValueError(f"not UTF-8 text (byte 0x{line[k]:02x}); catmouse reads graph files as "
                     "UTF-8")


def graph6_masks(line: bytes) -> list[int]:
    """The closed neighbourhoods of a graph6 line of at most 64 nodes (ValueError if bad).

    Strict: the right length, characters 63..126, zero padding bits; an optional
    ``>>graph6<<`` header.  The compiled twin decodes in C with the same rules.

    >>> graph6_masks(b"Bw")                                   # the triangle
    [7, 7, 7]
    """
    if line.startswith(b">>graph6<<"):
        line = line[10:]
    # The words of the graphs' reader (catmouse.io.graph6) where the rule is the same.
    if not line:
        raise ValueError("the graph6 line is empty")
    if line[0] in _OTHER_FORMATS:
        raise ValueError(f"{_OTHER_FORMATS[line[0]]} is not supported; give graph6, an edge "
                         "list or JSON")
    bad = next((k for k, c in enumerate(line) if not 63 <= c <= 126), None)
    if bad is not None:
        raise ValueError(f"graph6 holds the character {_character_at(line, bad)!r}, outside "
                         "'?'..'~'")
    if line[0] != 126:
        n, body = line[0] - 63, line[1:]
    elif len(line) >= 4 and line[1] != 126:
        n = (line[1] - 63) << 12 | (line[2] - 63) << 6 | (line[3] - 63)
        body = line[4:]
    elif len(line) < 8:
        raise ValueError("graph6 node count is cut short")
    else:
        raise ValueError(f"graph6 line of more than 64 nodes; {TOO_MANY_FOR_GRAPH6}")
    if n > MAX_GRAPH6_NODES:
        raise ValueError(f"graph6 line of {n} nodes; {TOO_MANY_FOR_GRAPH6}")
    pairs = n * (n - 1) // 2
    if len(body) != (pairs + 5) // 6:
        raise ValueError(f"graph6 for {n} nodes needs {(pairs + 5) // 6} bytes of edges, got "
                         f"{len(body)}")
    masks = [1 << u for u in range(n)]
    bit = 0
    for j in range(1, n):
        for i in range(j):
            if (body[bit // 6] - 63) >> (5 - bit % 6) & 1:
                masks[i] |= 1 << j
                masks[j] |= 1 << i
            bit += 1
    if body and (body[-1] - 63) & ((1 << (6 * len(body) - pairs)) - 1):
        raise ValueError("graph6 padding bits after the last edge must be zero")
    return masks
