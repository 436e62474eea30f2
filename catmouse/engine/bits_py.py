"""The retrograde engine in pure Python: the twin of ``bits_c.pyx``.

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

Each round's new bits go into the other orientation, so each step reads its
children's sets in its own orientation.  Two searches do that:

- ``_search_small`` (n <= 64, every LeetCode board): a row is one int of four
  64-bit-or-less fields (both turns, both winners), the round's new rows are
  transposed all at once as one big int by delta swaps (a few dozen C-speed
  operations), and both players' steps are one OR and one AND per child;
- ``_search`` (bigger boards): rows of n bits, new bits scattered one by one
  into the other orientation, and only the rows with a child that gained bits
  recomputed, so long thin endgames cost about the positions they decide.

The outcome table is written row by row at the end (bit sets to code bytes
through ``format``/``bytes.translate``); remoteness is the round number.
"""

from __future__ import annotations

import itertools
import operator
import struct
import time
from array import array
from collections.abc import Callable
from typing import Any

from .checks import check_arrays, check_game, check_threads
from .facts import CAT_FORBIDDEN, CAT_GOAL, HOLE, LISTS_MAX_NODES, MAX_NODES, NO_POSITION
from .facts import CAT_WIN as _CAT_WIN
from .facts import MOUSE_WIN as _MOUSE_WIN

__all__ = ["propagate", "peak_bytes", "Board", "solve_boards", "csr_from_lists", "solve_lists"]


# progress() is called at most this often (seconds), and once at the end.
_PROGRESS_EVERY = 0.2

# Node ids below this are cached small ints in CPython: lists of them share
# the objects and cost one 8-byte slot per entry.
_SHARED_IDS = 257


def _neighbours(indptr: list[int], indices: memoryview | list[int], n: int) -> list:
    """Per-node sequences of a CSR graph's ids.

    Slices of a buffer are views: no memory per edge, and iterating one is as
    fast as iterating a list.  Indices given as a list are sliced into lists.
    """
    return [indices[a:b] for a, b in zip(indptr, indptr[1:])]


class _Game:
    """One game's move lists and masks, ready for searches (built once per Board).

    ``cat_moves_all`` / ``cat_from_all`` list every edge of the cat's graph,
    also those into nodes it may not enter: the searches make such moves
    harmless rather than filter them out (see ``_search``).
    """

    __slots__ = ("n", "flags", "mouse_moves", "mouse_from", "cat_moves_all", "cat_from_all",
                 "stand", "hole_mask", "goal_mask")

    def __init__(self, n: int, flags: bytes, arrays: list) -> None:
        m_ip, m_ix, m_rip, m_rix, c_ip, c_ix, c_rip, c_rix = arrays
        self.n = n
        self.flags = flags
        # Equal arrays give one set of lists (an undirected graph is its own
        # reverse; the cat often moves on the mouse's graph).
        built: list[tuple[list[int], Any, list[list[int]]]] = []

        def lists(indptr: list[int], indices: Any) -> list[list[int]]:
            for ip, ix, rows in built:
                if (ip is indptr and ix is indices) or (ip == indptr and ix == indices):
                    return rows
            rows = _neighbours(indptr, indices, n)
            built.append((indptr, indices, rows))
            return rows

        self.mouse_moves = lists(m_ip, m_ix)
        self.mouse_from = lists(m_rip, m_rix)
        self.cat_moves_all = lists(c_ip, c_ix)
        self.cat_from_all = lists(c_rip, c_rix)
        self.stand = _mask(flags, CAT_FORBIDDEN, n) ^ ((1 << n) - 1)
        self.hole_mask = _mask(flags, HOLE, n)
        self.goal_mask = _mask(flags, CAT_GOAL, n)


# bytes.translate tables: a flag byte to "1" where it has the flag, else "0".
_FLAG_DIGITS = {flag: bytes(b"01"[bool(x & flag)] for x in range(256))
                for flag in (HOLE, CAT_FORBIDDEN, CAT_GOAL)}


def _mask(flags: bytes, flag: int, n: int) -> int:
    """The nodes with ``flag`` as a bit set (bit u = node u), built in C."""
    if not n:
        return 0
    return int(flags[::-1].translate(_FLAG_DIGITS[flag]), 2)


def _terminal_rows(game: _Game, r: int, barred: set[int]) -> tuple[int, ...]:
    """Round 0 at node r, rule by rule in order of precedence.

    Returns six rows: the mouse to move at mouse r (bits by cat): won by the
    mouse, won by the cat, undecided; the cat to move at cat r (bits by mouse):
    won by the cat, won by the mouse, undecided.  ``barred``: the nodes the cat
    may not enter.
    """
    n, stand = game.n, game.stand
    holes, goals = game.hole_mask, game.goal_mask
    everyone = (1 << n) - 1
    bit = 1 << r
    # The mouse to move at (r, c): the cat on the mouse, the mouse in a hole,
    # the cat on a goal, the mouse stuck.
    on_mouse = bit & stand
    if holes & bit:
        mouse0, cat0, undecided0 = stand & ~bit, on_mouse, 0
    elif game.mouse_moves[r]:
        mouse0, cat0, undecided0 = 0, on_mouse | (stand & goals), stand & ~goals & ~bit
    else:
        mouse0, cat0, undecided0 = 0, stand, 0
    # The cat to move at (m, r): the cat on the mouse, the mouse in a hole, the
    # cat on a goal, the cat stuck (no move to a node it may enter).
    moves = game.cat_moves_all[r]
    if not stand & bit:
        cat1 = mouse1 = undecided1 = 0
    elif goals & bit:
        cat1, mouse1, undecided1 = everyone & ~(holes & ~bit), holes & ~bit, 0
    elif not barred.issuperset(moves):  # moves may repeat a node: no length shortcut
        cat1, mouse1, undecided1 = bit, holes & ~bit, everyone & ~holes & ~bit
    else:
        cat1, mouse1, undecided1 = bit, everyone & ~bit, 0
    return mouse0, cat0, undecided0, cat1, mouse1, undecided1


def _barred(game: _Game) -> set[int]:
    """The nodes the cat may not enter."""
    stand = game.stand
    return {u for u in range(game.n) if not stand >> u & 1}


def _terminals(game: _Game) -> tuple[list[int], ...]:
    """Round 0 at every node: the six row lists of ``_terminal_rows``."""
    barred = _barred(game)
    rows = [_terminal_rows(game, r, barred) for r in range(game.n)]
    return tuple(list(column) for column in zip(*rows)) if rows else ([],) * 6


# Boards of at most this many nodes take the whole-board path (_search_small).
_SMALL_NODES = 64

# Per block width and block count: the delta swaps of _swaps, made once.
_SWAPS: dict[tuple[int, int], list[tuple[int, int]]] = {}


def _swaps(width: int, blocks: int = 4) -> list[tuple[int, int]]:
    """Delta swaps transposing ``blocks`` ``width`` x ``width`` bit blocks at once.

    The blocks sit side by side: bit ``r*blocks*width + k*width + c`` is (row
    r, column c) of block k.  Step j swaps (r, c) with (r + j, c - j) wherever bit
    j of r is clear and bit j of c is set: ``log2(width)`` steps of four big-int
    operations turn every block into its transpose.
    """
    swaps = _SWAPS.get((width, blocks))
    if swaps is None:
        line = blocks * width
        swaps = []
        j = width // 2
        while j:
            # Columns with bit j set, in each of the four blocks of one row.
            row = 0
            for c in range(width):
                if c & j:
                    row |= 1 << c
            row *= sum(1 << (k * width) for k in range(blocks))
            rows = sum(row << (r * line) for r in range(width) if not r & j)
            swaps.append((j * (line - 1), rows))
            j //= 2
        _SWAPS[width, blocks] = swaps
    return swaps


def _search_small(game: _Game, target: int, outcome: Any, remoteness: Any,
                  progress: Callable[[int], Any] | None) -> int:
    """The search for n <= 64: each row is one int of four ``P``-bit fields.

    Row r of a round's *new* positions holds, from the lowest field: the mouse
    to move at mouse r, won by the mouse / by the cat (bits by cat), then the
    cat to move at cat r, won by the mouse / by the cat (bits by mouse).  The
    whole board, halves swapped and every field transposed (``_swaps``), says
    in row x what a mover *arriving* on node x finds, in the same field order:
    so one OR over a row's children gathers both players' candidate wins and
    losses, each in the field of its own result, and one AND over the
    children's cumulative rows confirms the losses.
    """
    n = game.n
    nn = n * n
    width = 8
    while width < n:
        width *= 2
    field = (1 << width) - 1
    shift2, shift3 = 2 * width, 3 * width
    # The mover wins (mouse, field 0; cat, field 3) or loses (fields 1, 2).
    wins_mask = field | field << shift3
    losses_mask = field << width | field << shift2
    mouse_fields = field | field << width
    cat_fields = mouse_fields << shift2
    line = width // 2  # bytes per row: four fields of width bits
    lengths = itertools.repeat(line)
    big = itertools.repeat("big")
    unpack = _row_splitter(line, n)
    word = {4: "I", 8: "Q"}.get(line, "")  # an array typecode of one row, if any
    swaps = _swaps(width)
    halves = _low_halves(width)
    mouse_moves = game.mouse_moves
    cat_moves = game.cat_moves_all
    same_moves = cat_moves is mouse_moves
    stand = game.stand

    new, free = _terminals_packed(game, width)
    # Cumulative arrived rows, read by the AND.  The cat's moves into a node it
    # may not enter are not moves: all ones in that node's cat field leave the
    # AND over the cat's children to the nodes it may enter.
    seen = [0 if stand >> x & 1 else field << shift2 for x in range(n)]
    tables = outcome is not None
    if tables:
        decided_rows = [0] * n
    rem = _undecided_remoteness(remoteness, 2 * nn)

    if target >= 0:
        turn, rest = divmod(target, nn)
        t_mouse, t_cat = divmod(rest, n)
        if not stand >> t_cat & 1:
            return NO_POSITION
        # The target's row and bit; the bit one field up is "won by the cat".
        t_row, t_bit = (t_mouse, t_cat) if turn == 0 else (t_cat, shift2 + t_mouse)
    else:
        turn = -1
        t_row = t_bit = 0

    depth = 0
    last_report = time.monotonic()
    while True:
        if turn >= 0 and not free[t_row] >> t_bit & 1:
            return _CAT_WIN if new[t_row] >> (t_bit + width) & 1 else _MOUSE_WIN
        if not any(new):
            break
        if tables:
            decided_rows = list(map(operator.or_, decided_rows, new))
            if rem is not None:
                _stamp(rem, new, n, width, depth)
        # Move the round's new bits into the other orientation.
        # Rows to bytes and back in C: an array when a row is a machine word,
        # else big-endian bytes, where the last row comes first.
        if word:
            board = int.from_bytes(array(word, new), "little")
        else:
            # (typeshed types byteorder as a Literal, which map() cannot see through)
            board = int.from_bytes(b"".join(map(int.to_bytes, reversed(new), lengths,  # type: ignore[arg-type]
                                                big)), "big")
        board = (board >> shift2 & halves) | (board & halves) << shift2
        for shift, mask in swaps:
            swap = ((board >> shift) ^ board) & mask
            board ^= swap ^ (swap << shift)
        if word:
            arrived = array(word, board.to_bytes(line * n, "little")).tolist()
        else:
            arrived = list(map(int.from_bytes,  # type: ignore[arg-type]
                               unpack(board.to_bytes(line * n, "big")), big))
            arrived.reverse()
        seen = list(map(operator.or_, seen, arrived))
        if progress is not None:
            now = time.monotonic()
            if now - last_report >= _PROGRESS_EVERY:
                progress(2 * n * stand.bit_count() - sum(map(int.bit_count, free)))
                last_report = now
        depth += 1

        # Both steps at once: (m, c) with the mouse to move is won if a move
        # reaches a (m', c) the mouse won last round, lost if every move reaches
        # one the cat won, one of them last round; the same for the cat.
        new = [0] * n
        if same_moves:
            for r, open_ in enumerate(free):
                if not open_:
                    continue
                moves = mouse_moves[r]
                found = 0
                for child in moves:
                    found |= arrived[child]
                found &= open_ | open_ << width
                if not found:
                    continue
                lost = found & losses_mask
                if lost:
                    # A child won by the mover is not won by the opponent, so
                    # the AND also drops the positions won.
                    for child in moves:
                        lost &= seen[child]
                        if not lost:
                            break  # early exit: nothing left to lose
                    done = found & wins_mask | lost
                else:
                    done = found & wins_mask
                if done:
                    new[r] = done
                    free[r] = open_ & ~(done | done >> width)
        else:
            for r, open_ in enumerate(free):
                if not open_:
                    continue
                found = 0
                for child in mouse_moves[r]:
                    found |= arrived[child]
                found &= mouse_fields
                for child in cat_moves[r]:
                    found |= arrived[child] & cat_fields
                found &= open_ | open_ << width
                if not found:
                    continue
                lost = found & losses_mask
                if lost:
                    lost_mouse = lost & mouse_fields
                    for child in mouse_moves[r]:
                        lost_mouse &= seen[child]
                    lost_cat = lost & cat_fields
                    for child in cat_moves[r]:
                        lost_cat &= seen[child]
                    lost = lost_mouse | lost_cat
                done = found & wins_mask | lost
                if done:
                    new[r] = done
                    free[r] = open_ & ~(done | done >> width)

    decided = 2 * n * stand.bit_count() - sum(map(int.bit_count, free))
    if progress is not None:
        progress(decided)
    if turn >= 0:
        return 0  # never decided: a draw
    # The tables, in mouse rows: the mouse to move from the rows decided, the
    # cat to move from the arrived ones (fields 0 and 1 of both).
    absent = ((1 << n) - 1) & ~stand
    out = memoryview(outcome).cast("B")
    for m in range(n):
        row = decided_rows[m]
        out[m * n : m * n + n] = _codes(n, row & field, row >> width & field, absent)
        row = seen[m]
        out[nn + m * n : nn + m * n + n] = _codes(n, row & field, row >> width & field,
                                                 absent)
    return decided


def _terminals_packed(game: _Game, width: int) -> tuple[list[int], list[int]]:
    """Round 0 in the four-field rows of ``_search_small``: new rows and undecided rows.

    Most nodes are plain (no flag, and both players can move from them): their
    rows differ only in the node's own bit, so they are one expression each;
    the few others go through ``_terminals``' rule-by-rule logic.
    """
    n, stand = game.n, game.stand
    holes, goals = game.hole_mask, game.goal_mask
    everyone = (1 << n) - 1
    shift2, shift3 = 2 * width, 3 * width
    # A plain node r: the cat on the mouse (cat wins, both turns), the cat on a
    # goal with the mouse to move, the mouse in a hole with the cat to move.
    base_new = (stand & goals) << width | holes << shift2
    base_free = (stand & ~goals) | (everyone & ~holes) << shift2
    own_new = 1 << width | 1 << shift3
    own_free = 1 | 1 << shift2
    new = [base_new | own_new << r for r in range(n)]
    free = [base_free & ~(own_free << r) for r in range(n)]
    special = holes | goals | (everyone & ~stand)
    if not all(game.mouse_moves):
        special |= sum(1 << r for r, moves in enumerate(game.mouse_moves) if not moves)
    if not all(game.cat_moves_all) or stand != everyone:
        barred = {u for u in range(n) if not stand >> u & 1}
        special |= sum(1 << r for r, moves in enumerate(game.cat_moves_all)
                       if barred.issuperset(moves))
    if special:
        barred = _barred(game)
        while special:
            low = special & -special
            r = low.bit_length() - 1
            special ^= low
            mouse0, cat0, undecided0, cat1, mouse1, undecided1 = _terminal_rows(game, r, barred)
            new[r] = mouse0 | cat0 << width | mouse1 << shift2 | cat1 << shift3
            free[r] = undecided0 | undecided1 << shift2
    return new, free


_SPLITTERS: dict[tuple[int, int], Callable[[bytes], tuple[bytes, ...]]] = {}


def _row_splitter(line: int, n: int) -> Callable[[bytes], tuple[bytes, ...]]:
    """A C function cutting ``n * line`` bytes into n rows of ``line`` bytes."""
    split = _SPLITTERS.get((line, n))
    if split is None:
        split = _SPLITTERS[line, n] = struct.Struct(f"{line}s" * n).unpack
    return split


_HALVES: dict[int, int] = {}


def _low_halves(width: int) -> int:
    """The two low fields of every row of a four-field board of ``width`` rows."""
    halves = _HALVES.get(width)
    if halves is None:
        line = 4 * width
        halves = ((1 << 2 * width) - 1) * sum(1 << (r * line) for r in range(width))
        _HALVES[width] = halves
    return halves


def _stamp(rem: memoryview, new: list[int], n: int, width: int, depth: int) -> None:
    """Write ``depth`` into the remoteness table at a round's new positions."""
    nn = n * n
    field = (1 << width) - 1
    for r, row in enumerate(new):
        if not row:
            continue
        # The mouse to move at mouse r: bit c is position r*n + c.
        bits = (row | row >> width) & field
        base = r * n - 1
        while bits:
            low = bits & -bits
            rem[base + low.bit_length()] = depth
            bits ^= low
        # The cat to move at cat r: bit m is position nn + m*n + r.
        bits = (row >> 2 * width | row >> 3 * width) & field
        base = nn + r - n
        while bits:
            low = bits & -bits
            rem[base + low.bit_length() * n] = depth
            bits ^= low


# Entries of -1 written at a time when the remoteness table is cleared.
_FILL_BLOCK = 1 << 16


def _undecided_remoteness(remoteness: Any, size: int) -> memoryview | None:
    """The remoteness table as int32 entries, all -1 (undecided), or None."""
    if remoteness is None:
        return None
    rem = memoryview(remoteness).cast("B").cast("i")
    block = array("i", [-1]) * min(size, _FILL_BLOCK)
    for start in range(0, size, _FILL_BLOCK):
        rem[start : start + _FILL_BLOCK] = block[: min(_FILL_BLOCK, size - start)]
    return rem


def _search(game: _Game, target: int, outcome: Any, remoteness: Any,
            progress: Callable[[int], Any] | None) -> int:
    """Run the rounds; fill the tables when given, or stop at ``target``."""
    n = game.n
    nn = n * n
    mouse_moves, mouse_from = game.mouse_moves, game.mouse_from
    cat_moves, cat_from = game.cat_moves_all, game.cat_from_all
    mouse0, cat0, undecided0, cat1, mouse1, undecided1 = _terminals(game)
    new0 = [(m, w, b) for m, (w, b) in enumerate(zip(mouse0, cat0)) if w or b]
    new1 = [(c, w, b) for c, (w, b) in enumerate(zip(cat1, mouse1)) if w or b]
    del mouse0, cat0, cat1, mouse1

    # Cumulative sets the AND steps read: cat wins with the cat to move, in
    # mouse rows; mouse wins with the mouse to move, in cat rows.  The cat's
    # moves into a node it may not enter are not moves: that node's row of
    # "mouse wins" is full, so the AND over the cat's children ignores it, and
    # no position there is ever decided, so the OR gets nothing from it.
    stand = game.stand
    everyone = (1 << n) - 1  # the row of a node the cat may not enter
    cat_won1 = [0] * n
    mouse_won0 = [0 if stand >> x & 1 else everyone for x in range(n)]
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
    rem = _undecided_remoteness(remoteness, 2 * nn)

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
                        break  # early exit: nothing left to lose
            if won or lost:
                undecided0[m] = free & ~(won | lost)
                new0.append((m, won, lost))

        # The cat's step, in cat rows: (m, c) is won if a move reaches a
        # (m, c') the cat won last round, lost if every move reaches one the
        # mouse won, one of them last round.  (touched is 0 again: the loop above emptied it.)
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
                        break  # early exit: nothing left to lose
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
    search = _search_small if n <= _SMALL_NODES else _search
    return search(_Game(n, flag_bytes, arrays), target, outcome, remoteness, progress)


# -- memory -----------------------------------------------------------------------


def _int_bytes(bits: int) -> int:
    """Bytes an int of up to ``bits`` bits takes: 24 of header, 4 per 30-bit digit,
    rounded up to the allocator's 16 bytes, plus 16 for a malloc header."""
    return (24 + 4 * max(1, -(-bits // 30)) + 15) // 16 * 16 + 16


def _list_bytes(items: int) -> int:
    """A list of ``items`` slots, with its GC header and growth slack of 1/8."""
    return 72 + 9 * items + 32


def peak_bytes(n: int, outcome: bool, remoteness: bool, target: bool, threads: int = 1) -> int:
    """An upper bound on the bytes one ``propagate`` call allocates itself.

    Not counting the caller's outcome/remoteness buffers, for CSR arrays given
    as int buffers (what ``Graph`` holds).  The bound follows the layout:

    - the checks: four indptr lists of n + 1 ints (offsets above 256 are int
      objects of 32 bytes) and one sorted copy;
    - the graph: per node and per distinct CSR array one memoryview (200 bytes
      with its GC header) in a list; no memory per edge;
    - n <= 64: 24 lists of at most 64 rows, each row an int of four 64-bit
      fields (256 bits), and the whole board (64 rows of 256 bits) about 16
      times over: itself, the swap temporaries, its bytes, the delta-swap masks
      cached on first use;
    - n > 64: 22 lists of n rows of n bits (ten of the search, three for the
      tables, six of round 0 and three of (row, bits, bits) tuples), at most
      ``n`` of each kind alive;
    - the remoteness table is cleared through a block of at most 65536 ints,
      and the outcome table is written row by row (a few strings of n chars).

    ``threads`` is checked and does not change the bound (the twin runs one
    thread).

    >>> peak_bytes(50, outcome=False, remoteness=False, target=True) < 2 * 50 * 50
    False
    """
    n = operator.index(n)
    if not 0 <= n <= MAX_NODES:
        raise ValueError(f"n = {n} is out of range: the engine takes 0 to {MAX_NODES} nodes")
    check_threads(threads)
    total = 4096  # frames, small ints and masks, iterators
    total += 5 * _list_bytes(n + 1) + 4 * (n + 1) * 32
    total += 4 * (_list_bytes(n) + 200 * n)
    total += 3 * _int_bytes(n) + n + 64  # flags and the flag masks
    if n <= _SMALL_NODES:
        width = 8
        while width < n:
            width *= 2
        row = _int_bytes(4 * width)
        total += 24 * (_list_bytes(n) + n * row)
        total += 16 * (_int_bytes(4 * width * width) + 64)
    else:
        row = _int_bytes(n)
        total += 22 * (_list_bytes(n) + n * row)
        total += 3 * n * (80 + 2 * row)  # tuples of new rows
        total += 8 * row  # temporaries of a step
    if remoteness:
        total += 4 * min(2 * n * n, _FILL_BLOCK) + 64
    if outcome:
        total += 8 * (5 * n + 128)  # _codes' strings and ints of one row
    return total


# -- boards, batches and plain lists ------------------------------------------------


def _private(view: Any) -> Any:
    """A copy of an int buffer (the Board owns it), or the list itself (already a copy)."""
    if isinstance(view, memoryview):
        return memoryview(bytes(view)).cast(view.format)  # type: ignore[call-overload]
    return view


class Board:
    """A game's arrays, checked once, for solving many positions.

    ``Board(n, flags, mouse_indptr, ..., cat_rindices)`` takes the first ten
    arguments of :func:`propagate` and makes the same checks; it keeps private
    copies, so later changes to the caller's buffers do not reach it.

    >>> from array import array
    >>> line = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])  # 0 - 1 - 2
    >>> board = Board(3, bytes([3, 0, 0]), *line * 4)
    >>> board.n, board.solve(2, 1), board.solve(1, 0)
    (3, 2, -1)
    """

    __slots__ = ("_game",)

    def __init__(self, n: int, flags: Any, mouse_indptr: Any, mouse_indices: Any,
                 mouse_rindptr: Any, mouse_rindices: Any, cat_indptr: Any, cat_indices: Any,
                 cat_rindptr: Any, cat_rindices: Any) -> None:
        n, flag_bytes, arrays = check_game(
            n, flags, (mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
                       cat_indptr, cat_indices, cat_rindptr, cat_rindices))
        copies: dict[int, Any] = {}
        arrays = [copies.setdefault(id(a), _private(a)) if k % 2 else a
                  for k, a in enumerate(arrays)]
        self._game = _Game(n, flag_bytes, arrays)

    @property
    def n(self) -> int:
        """The number of nodes."""
        return self._game.n

    def solve(self, mouse: Any, cat: Any, turn: Any = 0) -> int:
        """Outcome code of one position (stopping early); -1 if it is not a position."""
        game = self._game
        n = game.n
        if type(mouse) is not int or type(cat) is not int or type(turn) is not int:
            return -1
        if not (0 <= mouse < n and 0 <= cat < n and 0 <= turn <= 1):
            return -1
        if not game.stand >> cat & 1:
            return -1
        search = _search_small if n <= _SMALL_NODES else _search
        return search(game, (turn * n + mouse) * n + cat, None, None, None)


def solve_boards(boards: list[Board], mouse: Any, cat: Any, turn: Any = 0) -> bytearray:
    """Outcome codes of one position on each board (255 where it is not a position).

    >>> from array import array
    >>> line = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])  # 0 - 1 - 2
    >>> list(solve_boards([Board(3, bytes([3, 0, 0]), *line * 4)] * 2, 2, 1))
    [2, 2]
    """
    if type(boards) is not list:
        raise TypeError(f"boards must be a list, not {type(boards).__name__}")
    for board in boards:
        if not isinstance(board, Board):
            raise TypeError(f"boards must hold Board objects, not {type(board).__name__}")
    codes = bytearray(len(boards))
    for i, board in enumerate(boards):
        code = board.solve(mouse, cat, turn)
        codes[i] = 255 if code < 0 else code
    return codes


def _rows_of(adjacency: Any) -> list[list[int]] | None:
    """Copies of plain lists of in-range ints without self-loops or repeats, or None."""
    if type(adjacency) is not list:
        return None
    n = len(adjacency)
    if n > MAX_NODES or any(type(row) is not list for row in adjacency):
        return None
    rows = [row[:] for row in adjacency]
    flat = [v for row in rows for v in row]
    if flat:
        if any(type(v) is not int for v in flat) or min(flat) < 0 or max(flat) >= n:
            return None
    for u, row in enumerate(rows):
        # A self-loop counts as a repeat: u is in the set once more.
        if len(set(row)) != len(row) or u in row:
            return None
    return rows


_POWERS = [1 << u for u in range(64)]


def _small_rows_of(adjacency: list) -> list[list[int]] | None:
    """``_rows_of`` for at most 64 nodes, and undirected: each step a C loop.

    Each row becomes a bit mask of its neighbours; a repeat shows as fewer bits
    than entries (the sum carries), a self-loop as the node's own bit, and a
    one-way edge as a mask matrix that is not its own transpose.
    """
    n = len(adjacency)
    if not set(map(type, adjacency)) <= {list}:
        return None
    rows = list(map(list.copy, adjacency))
    flat = list(itertools.chain.from_iterable(rows))
    if flat and (not set(map(type, flat)) <= {int} or min(flat) < 0 or max(flat) >= n):
        return None
    bit = _POWERS.__getitem__
    masks = list(map(sum, map(map, itertools.repeat(bit), rows)))
    if list(map(int.bit_count, masks)) != list(map(len, rows)):
        return None  # a neighbour listed twice
    if any(map(operator.and_, masks, _POWERS)):
        return None  # a self-loop
    if masks != _transpose(masks, n):
        return None  # a one-way edge
    return rows


def _transpose(masks: list[int], n: int) -> list[int]:
    """The transpose of an n x n bit matrix (n <= 64), row r = bits of masks[r]."""
    board = int.from_bytes(array("Q", masks + [0] * (64 - n)), "little")
    for shift, mask in _swaps(64, 1):
        swap = ((board >> shift) ^ board) & mask
        board ^= swap ^ (swap << shift)
    return array("Q", board.to_bytes(512, "little")).tolist()[:n]


def _reverse(rows: list[list[int]], n: int) -> list[list[int]]:
    """Predecessor lists: for each node, the nodes with an edge into it, in order."""
    into: list[list[int]] = [[] for _ in range(n)]
    for u, row in enumerate(rows):
        for v in row:
            into[v].append(u)
    return into


def _csr(rows: list[list[int]]) -> tuple[array, array]:
    indptr = array("i", [0])
    total = 0
    for row in rows:
        total += len(row)
        indptr.append(total)
    return indptr, array("i", [v for row in rows for v in row])


def csr_from_lists(adjacency: Any, directed: bool) -> tuple[int, array, array, array,
                                                             array] | None:
    """``(n, indptr, indices, rindptr, rindices)`` as ``array('i')``, or None to decline.

    The fast path of ``Graph(lists)``: it takes only a list of lists of plain
    ints that the Python validator would accept, and declines everything else
    (non-int, bool, bad id, self-loop, repeat, a one-way edge in an undirected
    graph) so that the validator, the one source of error messages, handles it.
    An undirected graph's reverse arrays are its own.

    >>> n, indptr, indices, rindptr, rindices = csr_from_lists([[1], [0]], False)
    >>> n, list(indptr), list(indices), rindptr is indptr
    (2, [0, 1, 2], [1, 0], True)
    """
    rows = _rows_of(adjacency)
    if rows is None:
        return None
    n = len(rows)
    into = _reverse(rows, n)
    indptr, indices = _csr(rows)
    if directed:
        rindptr, rindices = _csr(into)
        return n, indptr, indices, rindptr, rindices
    if any(sorted(row) != back for row, back in zip(rows, into)):
        return None  # a one-way edge
    return n, indptr, indices, indptr, indices


def solve_lists(adjacency: Any, mouse: Any, cat: Any, hole: Any) -> int:
    """LeetCode 913 straight from adjacency lists: the outcome code, or -1 to decline.

    Takes a list of lists of plain ints forming an undirected graph of at most
    LISTS_MAX_NODES nodes, the mouse to move from ``(mouse, cat)`` and the hole the
    cat may not enter; declines anything else (the Python path then builds a
    ``Graph`` and reports any error).

    >>> solve_lists([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]], 1, 2, 0)
    0
    """
    if type(adjacency) is not list or len(adjacency) > LISTS_MAX_NODES:
        return -1
    if type(mouse) is not int or type(cat) is not int or type(hole) is not int:
        return -1
    n = len(adjacency)
    if not (0 <= mouse < n and 0 <= cat < n and 0 <= hole < n) or cat == hole:
        return -1
    rows = _small_rows_of(adjacency) if n <= _SMALL_NODES else _rows_of(adjacency)
    if rows is None:
        return -1
    if n > _SMALL_NODES and any(sorted(row) != back
                                for row, back in zip(rows, _reverse(rows, n))):
        return -1  # a one-way edge
    flags = bytearray(n)
    flags[hole] = HOLE | CAT_FORBIDDEN
    game = _Game.__new__(_Game)
    game.n = n
    game.flags = bytes(flags)
    game.mouse_moves = game.mouse_from = game.cat_moves_all = game.cat_from_all = rows
    game.stand = ((1 << n) - 1) ^ (1 << hole)
    game.hole_mask = 1 << hole
    game.goal_mask = 0
    search = _search_small if n <= _SMALL_NODES else _search
    return search(game, mouse * n + cat, None, None, None)
