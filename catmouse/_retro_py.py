"""The retrograde engine in pure Python: the twin of ``_retro_c.pyx``.

Same entry points, same checks, same tables, bit for bit.  A position is the
integer ``turn * n*n + mouse * n + cat``; tables are flat, indexed by it.

The search is round-synchronous and bit-parallel.  Round 0 decides the terminal
positions (the cat on the mouse, the mouse in a hole, the cat on a goal, a mover
with no legal move); round k decides exactly the positions of remoteness k: a
position is won for its mover if some move reaches a position decided in round
k-1 as won for the mover, and lost if every move reaches a position won for the
opponent, one of them decided in round k-1.  What no round decides is a draw.

Sets of positions are Python ints used as bit sets, whose ``|``, ``&`` and
``~`` run in C over a whole row at once:

- the mouse's positions (turn 0) live in *mouse rows*: row ``m`` holds bit
  ``c`` for the position (mouse m, cat c).  The mouse's step from (m, c) goes to
  (m', c), so "some move wins" is an OR and "every move loses" an AND of whole
  mouse rows of the cat's positions;
- the cat's positions (turn 1) live in *cat rows*: row ``c`` holds bit ``m``;
  the cat's step from (m, c) goes to (m, c'), an OR/AND of whole cat rows of
  the mouse's positions.

Each round's new bits are scattered into the other orientation, so each step
reads its children's sets in its own orientation, and only the rows with a
child that gained bits are recomputed.
"""

from __future__ import annotations

import operator
import sys
import time
from array import array
from collections.abc import Callable
from typing import Any

__all__ = [
    "propagate", "peak_bytes", "Board", "solve_boards", "csr_from_lists", "solve_lists",
    "HOLE", "CAT_FORBIDDEN", "CAT_GOAL", "NO_POSITION", "MAX_NODES", "LISTS_LIMIT",
]

# Per-node flags.
HOLE = 1  # the mouse wins on entering
CAT_FORBIDDEN = 2  # the cat may not enter (positions with the cat here do not exist)
CAT_GOAL = 4  # the cat wins on entering

# Outcome codes in the table: 0 draw, 1 mouse wins, 2 cat wins, and
NO_POSITION = 3  # the cat stands on a node it may not enter

_MOUSE_WIN = 1
_CAT_WIN = 2

# The largest graph: node ids fit the int32 CSR arrays, and positions (up to
# 2 * 65535**2) are Python ints, so 64-bit position counts come for free.
MAX_NODES = 65535

# solve_lists takes graphs up to this many nodes (bigger ones take the Graph path).
LISTS_LIMIT = 1024

# progress() is called at most this often (seconds), and once at the end.
_PROGRESS_EVERY = 0.2

_INT_FORMATS = frozenset("bBhHiIlLqQnN")


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


def _ints(values: Any) -> list[int]:
    """``values`` as a list of Python ints (each item through ``operator.index``)."""
    if isinstance(values, (memoryview, array)):
        view = memoryview(values)
        if view.ndim == 1 and view.format.lstrip("@=<>!") in _INT_FORMATS:
            return view.tolist()  # already ints, converted in C
    return list(map(operator.index, values))


def check_arrays(
    n: int,
    flags: Any,
    csr: tuple[Any, ...],
    outcome: Any,
    remoteness: Any,
    target: int,
) -> tuple[int, bytes, list[list[int]], int]:
    """Reject arrays the engine cannot read safely (the C engine checks the same).

    Returns ``n``, the flags as bytes, the eight CSR arrays as lists of ints and
    the target, for the engine to use without converting them again.
    """
    n = operator.index(n)
    if not 0 <= n <= MAX_NODES:
        raise ValueError(f"n = {n} is out of range: at most {MAX_NODES} nodes")
    # Buffers as the C engine's typed memoryviews take them: a float, a wider int or a
    # list read as bytes would give a silently wrong table.
    flags = _buffer(flags, "flags", ("B", "b", "c"), 1, writable=False)
    if len(flags) != n:
        raise ValueError(f"flags has {len(flags)} entries for {n} nodes")
    arrays: list[list[int]] = []
    for name, (indptr, indices) in zip(("mouse", "mouse reverse", "cat", "cat reverse"),
                                       zip(csr[0::2], csr[1::2])):
        if len(indptr) != n + 1:
            raise ValueError(f"{name} indptr has {len(indptr)} entries, expected {n + 1}")
        offsets = _ints(indptr)
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
        ids = _ints(indices)
        if ids and not (0 <= min(ids) and max(ids) < n):
            k = next(k for k, v in enumerate(ids) if not 0 <= v < n)
            raise ValueError(f"{name} indices[{k}] = {ids[k]} is not a node")
        arrays += (offsets, ids)
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
    return n, bytes(flags), arrays, target


def check_threads(threads: Any) -> int:
    """``threads`` as a positive int, or TypeError/ValueError (the twin runs one thread)."""
    if type(threads) is not int:
        if isinstance(threads, bool) or not hasattr(threads, "__index__"):
            raise TypeError(f"threads must be a positive integer, not {threads!r}")
        threads = operator.index(threads)
    if threads < 1:
        raise ValueError(f"threads must be a positive integer, not {threads!r}")
    return threads


def _neighbours(indptr: list[int], indices: list[int], n: int) -> list[list[int]]:
    """Per-node lists of a CSR graph (list slices, copied in C)."""
    return [indices[indptr[u] : indptr[u + 1]] for u in range(n)]


class _Game:
    """One game's move lists and masks, ready for searches (built once per Board)."""

    __slots__ = ("n", "flags", "mouse_moves", "mouse_from", "cat_moves", "cat_from",
                 "stand", "hole_mask", "goal_mask")

    def __init__(self, n: int, flags: bytes, arrays: list[list[int]]) -> None:
        m_ip, m_ix, m_rip, m_rix, c_ip, c_ix, c_rip, c_rix = arrays
        self.n = n
        self.flags = flags
        self.mouse_moves = _neighbours(m_ip, m_ix, n)
        self.mouse_from = _neighbours(m_rip, m_rix, n)
        forbidden = [u for u in range(n) if flags[u] & CAT_FORBIDDEN]
        if c_ip == m_ip and c_ix == m_ix:
            cat_moves = self.mouse_moves
        else:
            cat_moves = _neighbours(c_ip, c_ix, n)
        if c_rip == m_rip and c_rix == m_rix:
            cat_from = self.mouse_from
        else:
            cat_from = _neighbours(c_rip, c_rix, n)
        if forbidden:
            # The cat's moves into a node it may not enter are not moves, and it
            # never stands on such a node, so it never moves from one either.
            allowed = [not flags[u] & CAT_FORBIDDEN for u in range(n)]
            cat_moves = [[v for v in row if allowed[v]] if allowed[u] else []
                         for u, row in enumerate(cat_moves)]
            cat_from = [[v for v in row if allowed[v]] if allowed[u] else []
                        for u, row in enumerate(cat_from)]
        self.cat_moves = cat_moves
        self.cat_from = cat_from
        self.stand = ((1 << n) - 1) & ~sum(1 << u for u in forbidden)
        self.hole_mask = sum(1 << u for u in range(n) if flags[u] & HOLE)
        self.goal_mask = sum(1 << u for u in range(n) if flags[u] & CAT_GOAL)


def _terminals(game: _Game) -> tuple[list, list, list[int], list[int]]:
    """Round 0: the terminal positions, rule by rule in order of precedence.

    Returns the new bits of the mouse's rows ``(m, mouse wins, cat wins)``, of the
    cat's rows ``(c, cat wins, mouse wins)``, and the undecided bits left in each
    mouse row (over cats) and each cat row (over mice).
    """
    n, stand = game.n, game.stand
    holes, goals = game.hole_mask, game.goal_mask
    everyone = (1 << n) - 1
    new0 = []
    undecided0 = []
    for m in range(n):
        # The mouse to move at (m, c): the cat on the mouse, the mouse in a
        # hole, the cat on a goal, the mouse stuck.  Rows keep bits by cat.
        cat = (1 << m) & stand
        rest = stand & ~cat
        mouse = 0
        if holes >> m & 1:
            mouse, rest = rest, 0
        else:
            cat |= rest & goals
            rest &= ~goals
            if not game.mouse_moves[m]:
                cat |= rest
                rest = 0
        undecided0.append(rest)
        if mouse or cat:
            new0.append((m, mouse, cat))
    new1 = []
    undecided1 = []
    for c in range(n):
        if not stand >> c & 1:
            undecided1.append(0)
            continue
        # The cat to move at (m, c); rows keep bits by mouse.
        cat = 1 << c
        rest = everyone & ~cat
        mouse = rest & holes
        rest &= ~holes
        if goals >> c & 1:
            cat |= rest
            rest = 0
        elif not game.cat_moves[c]:
            mouse |= rest
            rest = 0
        undecided1.append(rest)
        new1.append((c, cat, mouse))
    return new0, new1, undecided0, undecided1


def _search(game: _Game, target: int, outcome: Any, remoteness: Any,
            progress: Callable[[int], Any] | None) -> int:
    """Run the rounds; fill the tables when given, or stop at ``target``."""
    n = game.n
    nn = n * n
    mouse_moves, mouse_from = game.mouse_moves, game.mouse_from
    cat_moves, cat_from = game.cat_moves, game.cat_from
    new0, new1, undecided0, undecided1 = _terminals(game)

    # Cumulative sets the AND steps read: cat wins with the cat to move, in
    # mouse rows; mouse wins with the mouse to move, in cat rows.
    cat_won1 = [0] * n
    mouse_won0 = [0] * n
    # Scatter targets: the round's new bits in the other orientation.
    cat_new1 = [0] * n  # cat to move, cat won: mouse rows (bits by cat)
    mouse_new1 = [0] * n  # cat to move, mouse won: mouse rows
    cat_new0 = [0] * n  # mouse to move, cat won: cat rows (bits by mouse)
    mouse_new0 = [0] * n  # mouse to move, mouse won: cat rows
    # Accumulators of a step: wins and loss candidates per row.
    wins = [0] * n
    losses = [0] * n
    # The tables: outcome rows in mouse-row layout, both turns.
    tables = outcome is not None
    if tables:
        mouse_won_rows0 = [0] * n
        cat_won_rows0 = [0] * n
        mouse_won_rows1 = [0] * n
    rem = memoryview(remoteness).cast("B").cast("i") if remoteness is not None else None
    if rem is not None:
        rem[:] = array("i", [-1]) * (2 * nn)

    if target >= 0:
        turn, rest = divmod(target, nn)
        t_mouse, t_cat = divmod(rest, n)
        if not game.stand >> t_cat & 1:
            return NO_POSITION
        t_bit = 1 << (t_cat if turn == 0 else t_mouse)
        t_row = t_mouse if turn == 0 else t_cat
    else:
        turn = -1
        t_bit = t_row = 0

    decided = 0
    depth = 0
    last_report = time.monotonic()
    while True:
        if turn >= 0:
            undecided = undecided0 if turn == 0 else undecided1
            if not undecided[t_row] & t_bit:
                # Decided this round: find its row among the new ones.
                for row, win, loss in new0 if turn == 0 else new1:
                    if row == t_row:
                        code = win & t_bit and (_CAT_WIN if turn else _MOUSE_WIN)
                        return code or (_MOUSE_WIN if turn else _CAT_WIN)
        # The round's new bits, into the tables and scattered into the other
        # orientation.
        rows1 = 0  # mouse rows that gained cat-to-move bits
        for c, cat, mouse in new1:
            bit = 1 << c
            both = cat | mouse
            rows1 |= both
            decided += both.bit_count()
            if rem is not None:
                base = nn + c
                while both:
                    low = both & -both
                    rem[base + (low.bit_length() - 1) * n] = depth
                    both ^= low
            while cat:
                low = cat & -cat
                cat_new1[low.bit_length() - 1] |= bit
                cat ^= low
            while mouse:
                low = mouse & -mouse
                mouse_new1[low.bit_length() - 1] |= bit
                mouse ^= low
        rows0 = 0  # cat rows that gained mouse-to-move bits
        for m, mouse, cat in new0:
            bit = 1 << m
            both = mouse | cat
            rows0 |= both
            decided += both.bit_count()
            if tables:
                mouse_won_rows0[m] |= mouse
                cat_won_rows0[m] |= cat
                if rem is not None:
                    base = m * n - 1
                    while both:
                        low = both & -both
                        rem[base + low.bit_length()] = depth
                        both ^= low
            while mouse:
                low = mouse & -mouse
                mouse_new0[low.bit_length() - 1] |= bit
                mouse ^= low
            while cat:
                low = cat & -cat
                cat_new0[low.bit_length() - 1] |= bit
                cat ^= low
        if not rows0 and not rows1:
            break
        if progress is not None:
            now = time.monotonic()
            if now - last_report >= _PROGRESS_EVERY:
                progress(decided)
                last_report = now
        depth += 1

        # The mouse's step, in mouse rows: (m, c) is won if a move reaches a
        # (m', c) the mouse won last round, lost if every move reaches one the
        # cat won, one of them last round.
        touched = 0
        x = rows1
        while x:
            low = x & -x
            child = low.bit_length() - 1
            x ^= low
            won = mouse_new1[child]
            lost = cat_new1[child]
            mouse_new1[child] = cat_new1[child] = 0
            if tables:
                mouse_won_rows1[child] |= won
            if lost:
                cat_won1[child] |= lost
                for m in mouse_from[child]:
                    wins[m] |= won
                    losses[m] |= lost
                    touched |= 1 << m
            else:
                for m in mouse_from[child]:
                    wins[m] |= won
                    touched |= 1 << m
        new0 = []
        while touched:
            low = touched & -touched
            m = low.bit_length() - 1
            touched ^= low
            free = undecided0[m]
            won = wins[m] & free
            lost = losses[m] & free & ~won
            wins[m] = losses[m] = 0
            if lost:
                for child in mouse_moves[m]:
                    lost &= cat_won1[child]
                    if not lost:
                        break
            if won or lost:
                undecided0[m] = free & ~(won | lost)
                new0.append((m, won, lost))

        # The cat's step, in cat rows: (m, c) is won if a move reaches a
        # (m, c') the cat won last round, lost if every move reaches one the
        # mouse won, one of them last round.
        touched = 0
        x = rows0
        while x:
            low = x & -x
            child = low.bit_length() - 1
            x ^= low
            won = cat_new0[child]
            lost = mouse_new0[child]
            cat_new0[child] = mouse_new0[child] = 0
            if lost:
                mouse_won0[child] |= lost
                for c in cat_from[child]:
                    wins[c] |= won
                    losses[c] |= lost
                    touched |= 1 << c
            else:
                for c in cat_from[child]:
                    wins[c] |= won
                    touched |= 1 << c
        new1 = []
        while touched:
            low = touched & -touched
            c = low.bit_length() - 1
            touched ^= low
            free = undecided1[c]
            won = wins[c] & free
            lost = losses[c] & free & ~won
            wins[c] = losses[c] = 0
            if lost:
                for child in cat_moves[c]:
                    lost &= mouse_won0[child]
                    if not lost:
                        break
            if won or lost:
                undecided1[c] = free & ~(won | lost)
                new1.append((c, won, lost))

    if progress is not None:
        progress(decided)
    if turn >= 0:
        return 0  # never decided: a draw
    # The outcome table, row by row: each bit set becomes a code byte.
    absent = ((1 << n) - 1) & ~game.stand
    out = memoryview(outcome).cast("B")
    for m in range(n):
        out[m * n : m * n + n] = _codes(n, mouse_won_rows0[m], cat_won_rows0[m], absent)
        out[nn + m * n : nn + m * n + n] = _codes(n, mouse_won_rows1[m], cat_won1[m], absent)
    return decided


# Hex digits to outcome codes (see _codes).
_HEX_CODES = bytes.maketrans(b"0123", bytes([0, _MOUSE_WIN, _CAT_WIN, NO_POSITION]))


def _codes(n: int, mouse: int, cat: int, absent: int) -> bytes:
    """One table row: ``n`` code bytes from three disjoint bit sets (bit i = entry i).

    Read as hex, a binary numeral puts each bit in its own 4-bit digit; the
    digits add up to the codes (1, 2, 3) without carries, and ``format``
    writes them back as hex digits, most significant first.
    """
    binary = f"0{n}b"
    digits = (int(format(mouse, binary), 16) + 2 * int(format(cat, binary), 16)
              + 3 * int(format(absent, binary), 16))
    return format(digits, f"0{n}x")[::-1].encode().translate(_HEX_CODES)


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
    *,
    threads: int = 1,
    progress: Callable[[int], Any] | None = None,
) -> int:
    """Solve every position of the game; see the module docstring.

    ``outcome`` (uint8, 2*n*n) and ``remoteness`` (int32, 2*n*n, -1 where the game
    never ends) are filled when given.  With ``target >= 0`` the search stops as
    soon as that position is decided and its outcome code is returned (0 if it
    is a draw); otherwise the number of decided positions is returned.
    ``threads`` is checked and ignored (the twin runs in one thread);
    ``progress(decided)`` is called between rounds and once at the end.

    >>> from array import array
    >>> line = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])  # 0 - 1 - 2
    >>> propagate(3, bytes([3, 0, 0]), *line * 4, target=7)  # mouse 2, cat 1
    2
    """
    csr = (mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
           cat_indptr, cat_indices, cat_rindptr, cat_rindices)
    n, flag_bytes, arrays, target = check_arrays(n, flags, csr, outcome, remoteness, target)
    check_threads(threads)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable or None, not {type(progress).__name__}")
    return _search(_Game(n, flag_bytes, arrays), target, outcome, remoteness, progress)
