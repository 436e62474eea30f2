"""The k-cops game in pure Python: the twin of ``cops.pxi``, the same rounds and tables.

The game (Aigner and Fromme): ``k`` cops stand on nodes of an undirected graph, several may
share one; on the cops' turn each moves along an edge or stays, on the robber's turn he does;
the cops win when one of them is on the robber's node.  The cops are interchangeable, so the
team is a *multiset* of ``k`` nodes, one row of a table of ``C(n+k-1, k)`` rows (colex order:
``rank(a_0 <= ... <= a_k-1) = sum C(a_i + i, i + 1)``); the robber's node is a bit of the row.

Two win sets per row, both growing round by round:

- ``cops[S]``: the robber's nodes from which the cops, to move on ``S``, capture him;
- ``robber[S]``: those from which the robber, to move against ``S``, is caught.  The robber
  is caught iff every node of his closed neighbourhood is in ``cops[S]`` (a node of ``S`` is
  in ``cops[S]``), so ``robber[S]`` is the complement of the neighbourhood of the complement
  of ``cops[S]``: one OR per node outside ``cops[S]``.

The cops' move is symmetric (each cop may walk back), so a row ``S'`` is a move of ``S`` iff
``S`` is a move of ``S'``: new bits of ``robber[S']`` are pushed into ``cops[S]`` of every move
``S`` of ``S'``.  Round 1 is ``cops[S] = N[S]``; then robber rounds (even) and cop rounds (odd)
alternate, each recomputing only the rows the previous round changed; a position decided in
round ``t`` has remoteness ``t`` (plies to capture; 0 when a cop stands on the robber).  A cop
start ``S`` wins iff ``cops[S]`` holds every node (the robber, placed second, may choose any).
"""

from __future__ import annotations

from itertools import product
from math import comb
from typing import Any

from . import cops_checks
from .cops_checks import (
    CAPTURED,
    ESCAPED,
    NO_CAPTURE_BYTE,
    PliesPastByte,
    check_cancel,
    check_cop_graph,
    check_cop_tables,
    check_cop_threads,
    check_cops,
    components,
    cops_rows,
    graph6_masks,
    too_big,
)

__all__ = ["cops_search", "cops_peak_bytes", "cop_number", "cop_numbers_graph6"]

def _multisets(n: int, k: int) -> list[tuple[int, ...]]:
    """Every multiset of ``k`` of ``n`` nodes, as sorted tuples in colex (rank) order."""
    if n == 0:
        return []
    rows = []
    a = [0] * k
    while True:
        rows.append(tuple(a))
        i = 0
        while i < k and a[i] == (a[i + 1] if i + 1 < k else n - 1):
            i += 1
        if i == k:
            return rows
        a[i] += 1
        for j in range(i):
            a[j] = 0


def _stop(cancel: Any) -> None:
    """KeyboardInterrupt if the caller's stop flag is set (see cops_checks.check_cancel)."""
    if cancel is not None and cancel[0]:
        raise KeyboardInterrupt


def _search(closed: list[int], k: int, outcome: Any, remoteness: Any, stop: bool,
            cancel: Any = None) -> int:
    """The rounds of the module docstring on closed neighbourhood masks; see cops_search.
    The main thread's Ctrl-C lands between any two steps here; ``cancel`` is looked at
    every row."""
    n = len(closed)
    if n == 0:
        return -1
    everyone = (1 << n) - 1
    rows = _multisets(n, k)
    weight = [[comb(v + i, i + 1) for v in range(n)] for i in range(k)]
    moves_of = [[v for v in range(n) if (closed[u] >> v) & 1] for u in range(n)]
    count = len(rows)
    tables = outcome is not None or remoteness is not None
    # A byte table holds plies up to BYTE_PLIES, NO_CAPTURE_BYTE for never; int32 -1.
    rem = memoryview(remoteness) if remoteness is not None else None
    narrow = rem is not None and rem.itemsize == 1
    if rem is not None:
        rem = rem.cast("B") if narrow else rem.cast("B").cast("i")
    most = min(cops_checks.BYTE_PLIES, NO_CAPTURE_BYTE - 1) if narrow else None
    never = NO_CAPTURE_BYTE if narrow else -1
    turn1 = count * n
    cops = [0] * count
    robber = [0] * count
    for s, team in enumerate(rows):
        _stop(cancel)
        here = mask = 0
        for u in team:
            here |= 1 << u
            mask |= closed[u]
        cops[s] = mask
        robber[s] = here
        if rem is not None:
            base = s * n
            for r in range(n):
                if (here >> r) & 1:
                    rem[base + r] = rem[turn1 + base + r] = 0
                else:
                    rem[base + r] = never
                    rem[turn1 + base + r] = 1 if (mask >> r) & 1 else never
    full = [s for s in range(count) if cops[s] == everyone]
    if full and stop and not tables:
        return full[0]
    changed = list(range(count))
    t = 1
    while True:
        t += 1  # the robber's round: rows whose cop set grew
        fresh_rows = []
        fresh: dict[int, int] = {}
        for s in changed:
            _stop(cancel)
            outside = everyone & ~cops[s]
            reach = 0
            while outside:
                low = outside & -outside
                reach |= closed[low.bit_length() - 1]
                outside ^= low
            new = everyone & ~reach & ~robber[s]
            if new:
                robber[s] |= new
                fresh[s] = new
                fresh_rows.append(s)
                if rem is not None:
                    _write(rem, s * n, new, t, most)
        if not fresh_rows:
            break
        if most is not None and t > most:
            raise PliesPastByte(most)
        t += 1  # the cops' round: push each new robber loss to every move of its row
        grown: dict[int, None] = {}
        for s in fresh_rows:
            _stop(cancel)
            new = fresh[s]
            for team in product(*(moves_of[u] for u in rows[s])):
                row = sum(weight[i][v] for i, v in enumerate(sorted(team)))
                gain = new & ~cops[row]
                if gain:
                    cops[row] |= gain
                    grown[row] = None
                    if rem is not None:
                        _write(rem, turn1 + row * n, gain, t, most)
        changed = sorted(grown)
        if changed and most is not None and t > most:
            raise PliesPastByte(most)
        won = [s for s in changed if cops[s] == everyone]
        if won and not full:
            full = won
        if full and stop and not tables:
            return full[0]
    if outcome is not None:
        out = memoryview(outcome).cast("B")
        for turn, table in ((0, robber), (1, cops)):
            base = turn * turn1
            for s in range(count):
                _stop(cancel)
                bits = table[s]
                out[base + s * n:base + (s + 1) * n] = bytes(
                    CAPTURED if (bits >> r) & 1 else ESCAPED for r in range(n))
    return full[0] if full else -1


def _write(rem: memoryview, base: int, bits: int, t: int, most: int | None) -> None:
    """Ply ``t`` at the set bits of ``bits`` from ``base``; not past a byte's ``most``."""
    if most is not None and t > most:
        return
    while bits:
        low = bits & -bits
        rem[base + low.bit_length() - 1] = t
        bits ^= low


def cops_peak_bytes(n: int, k: int, tables: bool = False, threads: int | None = 1) -> int:
    """An upper bound on the bytes one search of ``k`` cops on ``n`` nodes allocates.

    Per row: two ints of n bits and their list slots (28 + 4 per 30 bits, + 8 bytes each),
    its multiset tuple (56 + 8k), slots in the changed lists and in the two dicts of a round
    (``fresh`` and ``grown`` can each hold every row at once, up to about 90 bytes an entry
    just after a dict grows: 200 in all) and the new bits of the row (an int of n bits).  Not
    counted: the caller's tables, and the list copy of ``indices`` made while they are
    checked when they are not an int buffer (8 bytes an entry).  tests/engine/test_cops.py
    checks it against the peak tracemalloc measures.  This twin runs one thread whatever
    ``threads`` says (checked as the compiled twin checks it).

    >>> cops_peak_bytes(10, 2) > 55 * 200
    True
    """
    rows = cops_rows(n, check_cops(k))
    check_cop_threads(threads, rows=0)  # (checked only: one thread here)
    word = 36 + 4 * (n // 30)
    return 4096 + rows * (3 * word + 16 + 56 + 8 * k + 200) + 8 * n * n


def cops_search(n: int, indptr: Any, indices: Any, k: int, outcome: Any = None,
                remoteness: Any = None, *, stop: bool = True,
                max_bytes: int | None = None, threads: int | None = 1, cancel: Any = None) -> int:
    """Solve the game of ``k`` cops on an undirected graph (CSR, at most 1024 nodes).

    Returns the rank of a winning cop start (the smallest of those found in the first round
    that found any), or -1 if the robber escapes every start.  With ``stop`` the search ends
    at that round; given tables (``outcome`` uint8, ``remoteness`` int32, both
    ``2 * C(n+k-1, k) * n`` long, index ``turn * rows * n + row * n + robber``, turn 0 the
    robber's) it always runs to the end and fills them: code 2 where the cops capture, 1 where
    the robber escapes; remoteness in plies, -1 where he escapes.  MemoryError, before any
    allocation, when the search needs more than ``max_bytes``.  ``threads``: the compiled
    twin splits each round over that many threads (n <= 64), with the same tables byte for
    byte; None leaves the count to it (``check_cop_threads``); this twin checks it and runs
    one.  ``cancel``: a stop flag another thread may set
    (``check_cancel``); the search then raises KeyboardInterrupt, as on Ctrl-C.

    >>> cops_search(4, [0, 2, 4, 6, 8], [1, 3, 0, 2, 1, 3, 0, 2], 1)   # C4: one cop loses
    -1
    >>> cops_search(4, [0, 2, 4, 6, 8], [1, 3, 0, 2, 1, 3, 0, 2], 2)   # two win from {0, 1}
    1
    """
    closed = check_cop_graph(n, indptr, indices)
    k = check_cops(k)
    check_cop_threads(threads, rows=0)  # (checked only: one thread here)
    cancel = check_cancel(cancel)
    check_cop_tables(len(closed), k, outcome, remoteness)
    need = cops_peak_bytes(len(closed), k)
    if max_bytes is not None and need > max_bytes:
        raise too_big(len(closed), k, need, max_bytes)
    return _search(closed, k, outcome, remoteness, bool(stop), cancel)


def _cop_number_masks(closed: list[int], max_cops: int, max_bytes: int | None,
                      cancel: Any = None) -> int:
    """Sum over components of the fewest cops that win; -1 once the sum passes max_cops."""
    total = 0
    for part in components(closed):
        k = 1
        while total + k <= max_cops:
            if len(part) == 1:
                break
            need = cops_peak_bytes(len(part), k)
            if max_bytes is not None and need > max_bytes:
                raise too_big(len(part), k, need, max_bytes)
            if _search(part, k, None, None, True, cancel) >= 0:
                break
            k += 1
        total += k
        if total > max_cops:
            return -1
    return total


def cop_number(n: int, indptr: Any, indices: Any, max_cops: int,
               max_bytes: int | None = None, threads: int | None = 1, cancel: Any = None) -> int:
    """The cop number of an undirected graph (CSR), or -1 if it exceeds ``max_cops``.

    A disconnected graph needs the sum over its components; one node needs one cop; no node
    none.

    >>> cop_number(4, [0, 2, 4, 6, 8], [1, 3, 0, 2, 1, 3, 0, 2], 5)   # the 4-cycle
    2
    """
    closed = check_cop_graph(n, indptr, indices)
    check_cop_threads(threads, rows=0)  # (checked only: one thread here, as in cops_search)
    return _cop_number_masks(closed, max(0, max_cops), max_bytes, check_cancel(cancel))


def cop_numbers_graph6(data: bytes, max_cops: int, max_bytes: int | None = None,
                       cancel: Any = None) -> bytes:
    """One byte per line of graph6 ``data``: the cop number, 255 where it passes ``max_cops``.

    Lines end in ``\\n`` (an ``\\r`` before it is dropped); a last line without one counts.
    ValueError names the first bad line (numbered from 1 within ``data``).

    >>> list(cop_numbers_graph6(b"Bw\\nCl\\n", 3))          # the triangle, the 4-cycle
    [1, 2]
    """
    cancel = check_cancel(cancel)
    lines = bytes(data).split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out = bytearray()
    for number, line in enumerate(lines, 1):
        if line.endswith(b"\r"):
            line = line[:-1]
        try:
            closed = graph6_masks(line)
        except ValueError as error:
            raise ValueError(f"line {number}: {error}") from None
        c = _cop_number_masks(closed, max(0, min(max_cops, 254)), max_bytes, cancel)
        out.append(255 if c < 0 else c)
    return bytes(out)
