"""The 0.1.0 queue engine, kept as an oracle for the tests.

This is catmouse's own pure-Python retrograde engine as it stood before the
round-synchronous bit-parallel engine replaced it (``catmouse/bits_py.py`` of
0.1.0, node limit 32767): a breadth-first queue over predecessors with a counter
of undecided moves per position.  It is written entirely differently from the
bit-set engine, and the two must produce byte-identical outcome and remoteness
tables; ``tests/engine/test_twin_vs_queue.py`` checks that on many random games.

Retrograde analysis starts from the decided positions (the cat on the mouse,
the mouse in a hole, the cat on a goal, a mover with no legal move) and walks
predecessors breadth first.  A predecessor is won for its mover as soon as one
move reaches a position won for that mover; it is lost once its counter of
undecided moves reaches zero.  Breadth-first order makes the first win found
the quickest and the last loss found the slowest, so the depth at which a
position is decided is its remoteness.  What is never decided is a draw.
"""

from __future__ import annotations

import operator
from array import array
from typing import Any

__all__ = ["propagate", "HOLE", "CAT_FORBIDDEN", "CAT_GOAL", "NO_POSITION"]

# Per-node flags.
HOLE = 1  # the mouse wins on entering
CAT_FORBIDDEN = 2  # the cat may not enter (positions with the cat here do not exist)
CAT_GOAL = 4  # the cat wins on entering

# Outcome codes in the table: 0 draw, 1 mouse wins, 2 cat wins, and
NO_POSITION = 3  # the cat stands on a node it may not enter

_MOUSE_WIN = 1
_CAT_WIN = 2


def _buffer(obj: Any, name: str, formats: tuple[str, ...], itemsize: int,
            writable: bool) -> memoryview:
    """A 1-D C-contiguous buffer of one of ``formats``, or TypeError/ValueError."""
    try:
        view = memoryview(obj)
    except TypeError:
        raise TypeError(f"{name} must be a buffer, not {type(obj).__name__}") from None
    if view.ndim != 1 or not view.c_contiguous:
        raise ValueError(f"{name} must be a one-dimensional contiguous buffer")
    if view.format.lstrip("@=") not in formats or view.itemsize != itemsize:
        raise ValueError(f"{name} has items of format {view.format!r}, expected {formats[0]!r}")
    if writable and view.readonly:
        raise TypeError(f"{name} is read-only")
    return view


def check_arrays(
    n: int,
    flags: Any,
    csr: tuple[Any, ...],
    outcome: Any,
    remoteness: Any,
    target: int,
) -> None:
    """Reject arrays the engine cannot read safely (the C engine checks the same)."""
    n = operator.index(n)
    if not 0 <= n <= 32767:
        raise ValueError(f"n = {n} is out of range: 2*n*n positions must fit in int32")
    # Buffers as the C engine's typed memoryviews take them: a float, a wider int or a
    # list read as bytes would give a silently wrong table.
    flags = _buffer(flags, "flags", ("B", "b", "c"), 1, writable=False)
    if len(flags) != n:
        raise ValueError(f"flags has {len(flags)} entries for {n} nodes")
    for name, (indptr, indices) in zip(("mouse", "mouse reverse", "cat", "cat reverse"),
                                       zip(csr[0::2], csr[1::2])):
        if len(indptr) != n + 1:
            raise ValueError(f"{name} indptr has {len(indptr)} entries, expected {n + 1}")
        offsets = list(map(operator.index, indptr))
        if offsets[0] != 0 or offsets != sorted(offsets):
            # Slow only on the way to the error: find where it goes wrong.
            prev = 0
            for u in range(n + 1):
                x = offsets[u]
                if x < prev or (u == 0 and x != 0):
                    raise ValueError(f"{name} indptr is not a monotone offset array at {u}")
                prev = x
        prev = offsets[n]
        if prev != len(indices):
            raise ValueError(f"{name} indptr ends at {prev}, but indices has {len(indices)}")
        ids = list(map(operator.index, indices))
        if ids and not (0 <= min(ids) and max(ids) < n):
            k = next(k for k, v in enumerate(ids) if not 0 <= v < n)
            raise ValueError(f"{name} indices[{k}] = {ids[k]} is not a node")
    size = 2 * n * n
    if outcome is not None:
        outcome = _buffer(outcome, "outcome", ("B", "b", "c"), 1, writable=True)
    if remoteness is not None:
        remoteness = _buffer(remoteness, "remoteness", ("i", "l"), 4, writable=True)
    target = operator.index(target)
    if outcome is not None and len(outcome) != size:
        raise ValueError(f"outcome buffer has {len(outcome)} entries, expected {size}")
    if remoteness is not None and len(remoteness) != size:
        raise ValueError(f"remoteness buffer has {len(remoteness)} entries, expected {size}")
    if (outcome is None) == (target < 0):
        raise ValueError("give either an outcome buffer or a target position")
    if remoteness is not None and outcome is None:
        raise ValueError("a remoteness buffer needs an outcome buffer")
    if target >= size:
        raise ValueError(f"target {target} is not a position (there are {size})")


def propagate(
    n: int,
    flags: Any,
    mouse_indptr: Any,
    mouse_indices: Any,
    mouse_rindptr: Any,
    mouse_rindices: Any,
    cat_indptr: Any,
    cat_indices: Any,
    cat_rindptr: Any,
    cat_rindices: Any,
    outcome: Any = None,
    remoteness: Any = None,
    target: int = -1,
) -> int:
    """Solve every position of the game; see the module docstring.

    ``outcome`` (uint8, 2*n*n) and ``remoteness`` (int32, 2*n*n, -1 where the game
    never ends) are filled when given.  With ``target >= 0`` the search stops as
    soon as that position is decided and its outcome code is returned (0 if it
    is a draw); otherwise the number of decided positions is returned.
    """
    csr = (mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
           cat_indptr, cat_indices, cat_rindptr, cat_rindices)
    check_arrays(n, flags, csr, outcome, remoteness, target)
    flags = bytes(flags)
    m_ip = list(mouse_indptr)
    m_rip, m_rix = list(mouse_rindptr), list(mouse_rindices)
    c_ip, c_ix = list(cat_indptr), list(cat_indices)
    c_rip, c_rix = list(cat_rindptr), list(cat_rindices)
    nn = n * n
    want_remoteness = remoteness is not None

    # Predecessor lists, pre-scaled so a position index is one addition away.
    # The mouse came to ``m`` from ``pm``: position (pm, c, MOUSE) = pm*n + c.
    mouse_from = [[pm * n for pm in m_rix[m_rip[m] : m_rip[m + 1]]] for m in range(n)]
    # The cat came to ``c`` from ``pc``: position (m, pc, CAT) = nn + m*n + pc;
    # a ``pc`` the cat may not stand on is no position at all.
    cat_from = [
        [pc for pc in c_rix[c_rip[c] : c_rip[c + 1]] if not flags[pc] & CAT_FORBIDDEN]
        for c in range(n)
    ]

    # Counters of undecided moves: the mover's legal moves in each position.
    mouse_moves = [m_ip[m + 1] - m_ip[m] for m in range(n)]
    cat_moves = [
        sum(1 for x in c_ix[c_ip[c] : c_ip[c + 1]] if not flags[x] & CAT_FORBIDDEN)
        for c in range(n)
    ]
    undecided = []
    for moves in mouse_moves:
        undecided += [moves] * n
    undecided += cat_moves * n

    # Terminal positions, rule by rule in order of precedence (a rule never
    # overrides an earlier one): the cat on a node it may not enter (no
    # position), the cat on the mouse, the mouse in a hole, the cat on a goal,
    # and a mover with no legal move, who loses.
    state = bytearray(2 * nn)
    absent = bytes([NO_POSITION]) * n
    for c in range(n):
        if flags[c] & CAT_FORBIDDEN:
            state[c:nn:n] = absent
            state[nn + c :: n] = absent
    frontier = []

    def seed(positions, value):
        for s in positions:
            if not state[s]:
                state[s] = value
                frontier.append(s)

    seed([s for c in range(n) for s in (c * n + c, nn + c * n + c)], _CAT_WIN)
    for node in range(n):
        if flags[node] & HOLE:
            seed(range(node * n, node * n + n), _MOUSE_WIN)
            seed(range(nn + node * n, nn + node * n + n), _MOUSE_WIN)
    for node in range(n):
        if flags[node] & CAT_GOAL:
            seed(range(node, nn, n), _CAT_WIN)
            seed(range(nn + node, 2 * nn, n), _CAT_WIN)
    for node in range(n):
        if not mouse_moves[node]:
            seed(range(node * n, node * n + n), _CAT_WIN)
        if not cat_moves[node]:
            seed(range(nn + node, 2 * nn, n), _MOUSE_WIN)
    rem = [-1] * (2 * nn) if want_remoteness else None
    if rem is not None:
        for s in frontier:
            rem[s] = 0

    decided = len(frontier)
    depth = 0
    # Level by level is FIFO order: every position at depth d before any at d+1.
    while frontier and not (target >= 0 and state[target]):
        depth += 1
        found: list[int] = []
        push = found.append
        for s in frontier:
            value = state[s]
            if s >= nn:
                # Cat to move here, so the mouse just moved: (pm, c, MOUSE).
                m, c = divmod(s - nn, n)
                wins = value == _MOUSE_WIN
                for base in mouse_from[m]:
                    p = base + c
                    if state[p]:
                        continue
                    if not wins:
                        left = undecided[p] - 1
                        undecided[p] = left
                        if left:
                            continue
                    state[p] = value
                    push(p)
            else:
                # Mouse to move here, so the cat just moved: (m, pc, CAT).
                m, c = divmod(s, n)
                wins = value == _CAT_WIN
                row = nn + m * n
                for pc in cat_from[c]:
                    p = row + pc
                    if state[p]:
                        continue
                    if not wins:
                        left = undecided[p] - 1
                        undecided[p] = left
                        if left:
                            continue
                    state[p] = value
                    push(p)
        if rem is not None:
            for p in found:
                rem[p] = depth
        decided += len(found)
        frontier = found

    if outcome is not None:
        memoryview(outcome).cast("B")[:] = state
    if rem is not None:
        memoryview(remoteness).cast("B").cast("i")[:] = array("i", rem)
    return state[target] if target >= 0 else decided
