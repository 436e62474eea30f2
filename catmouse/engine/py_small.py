"""The pure twin's one-word path: games of at most 64 nodes, a row of four fields per
node, the round's new rows transposed at once by delta swaps, the moves gathered slot
by slot."""

from __future__ import annotations

import itertools
import operator
import sys
import time
from array import array
from collections.abc import Callable
from typing import Any

from .facts import CAT_WIN as _CAT_WIN
from .facts import MOUSE_WIN as _MOUSE_WIN
from .facts import NO_POSITION
from .py_game import (
    _PROGRESS_EVERY,
    _barred,
    _codes,
    _every_row,
    _Game,
    _low_halves,
    _Relabelled,
    _row_splitter,
    _stamp,
    _terminals_board,
    _undecided_remoteness,
)
from .py_planes import write_layers

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


# Per (n, width): the boards of _field_boards, made once.
_FIELD_BOARDS: dict[tuple[int, int], tuple[int, int, int]] = {}


def _field_boards(n: int, width: int) -> tuple[int, int, int]:
    """Whole boards of one mask in every row: the mover's losses (the mouse's field 1, the
    cat's field 2), the mouse's fields (0 and 1), and the first field of each turn (0 and 2)."""
    boards = _FIELD_BOARDS.get((n, width))
    if boards is None:
        field = (1 << width) - 1
        boards = _FIELD_BOARDS[n, width] = (
            _every_row(field << width | field << 2 * width, n, width),
            _every_row(field | field << width, n, width),
            _every_row(field | field << 2 * width, n, width))
    return boards


# Per field width: spare buffers for _read_rows, given back by the searches that took them
# (making the 51 views of a 50-node search anew costs about 7 us, a quarter of a round).
_SPARE_READS: dict[int, list[tuple[memoryview, list[memoryview]]]] = {}


def _read_rows(width: int) -> tuple[memoryview, list[memoryview]]:
    """A buffer of ``width + 1`` four-field rows and a view of each row: a spare if one is
    left (each search takes its own, so searches on other threads never share one)."""
    try:
        return _SPARE_READS.setdefault(width, []).pop()
    except IndexError:
        line = width // 2  # bytes per row
        buffer = memoryview(bytearray(line * (width + 1)))
        return buffer, [buffer[at : at + line] for at in range(0, len(buffer), line)]


def _give_back(width: int, reads: tuple[memoryview, list[memoryview]]) -> None:
    """Keep a search's buffer of ``_read_rows`` for the next search (one spare per width)."""
    spares = _SPARE_READS.setdefault(width, [])
    if not spares:
        spares.append(reads)


def _move_slots(moves: list, rows: list[memoryview], n: int) -> list[tuple[memoryview, ...]]:
    """Per slot k, the rows of every node's k-th move, up to the last node with a k-th move.

    ``rows[n]`` is the filler row past the board's, all zeros: a node before that last one
    with at most k moves reads it.  The rows are views of one buffer, so a slot's tuple is
    made once and reads each round's board.
    """
    slots: list[tuple[memoryview, ...]] = []
    degrees = list(map(len, moves))
    if max(degrees, default=0) > n:
        # A row of more than n moves repeats some; a repeat changes no OR, and without
        # them there are at most n slots.
        moves = [tuple(dict.fromkeys(row)) for row in moves]
        degrees = list(map(len, moves))
    last = n - 1
    for k, picks in enumerate(itertools.zip_longest(*moves, fillvalue=n)):
        while degrees[last] <= k:
            last -= 1
        # (the filler picked last keeps itemgetter's answer a tuple for one row)
        slots.append(operator.itemgetter(*picks[: last + 1], n)(rows)[:-1])
    return slots


def _reached(slots: list[tuple[memoryview, ...]]) -> int:
    """In every row, the OR of the rows its moves arrive on, from the slots' rows."""
    reached = 0
    join, from_bytes = b"".join, int.from_bytes
    # Slot k + 1 is no longer than slot k (a node with a (k+1)-th move has a k-th): an OR
    # takes as long as its longer board, so the short slots go first, while the reach is
    # short too.
    for rows in reversed(slots):
        reached |= from_bytes(join(rows), "little")
    return reached


def _rows_of(board: int, n: int, width: int) -> list[int]:
    """A board's n rows of four ``width``-bit fields, row 0 first (rows past n are 0 on every
    board here)."""
    line = width // 2  # bytes per row
    data = board.to_bytes(line * n, "little")
    # An array's bytes are the machine's, and this reads them as little-endian words.
    word = {4: "I", 8: "Q"}.get(line) if sys.byteorder == "little" else None
    if word:
        return array(word, data).tolist()
    # (typeshed types byteorder as a Literal, which map() cannot see through)
    return list(map(int.from_bytes, _row_splitter(line, n)(data),  # type: ignore[arg-type]
                    itertools.repeat("little")))


def _search_small(game: _Game, target: int, outcome: Any, remoteness: Any,
                  progress: Callable[[int], Any] | None, planes: Any = None,
                  more_planes: Any = None, more_bytes: int = -1) -> int:
    """The search for n <= 64: each row is one int of four ``P``-bit fields.

    Row r of a round's *new* positions holds, from the lowest field: the mouse
    to move at mouse r, won by the mouse / by the cat (bits by cat), then the
    cat to move at cat r, won by the mouse / by the cat (bits by mouse).  The
    whole board, halves swapped and every field transposed (``_swaps``), says
    in row x what a mover *arriving* on node x finds, in the same field order.
    The steps read its win fields (won by the mover last round) and, in the loss
    fields, the positions the opponent has not won so far: one OR over a row's
    children sets a win field where the mover wins, and leaves a loss field clear
    where every move loses.

    Every step works on whole boards (one int, row r at bit ``r * 4P``).  The
    children are gathered slot by slot (``_move_slots``): the board's bytes go into
    one buffer, whose row views every node's k-th move picks (the tuples of views
    are made once per search), joined in C and read back as one board.  The
    undecided positions (each in both fields of its turn) mask a round's finds at
    once, and the new board goes straight into the next transpose.
    """
    n = game.n
    nn = n * n
    stand = game.stand
    width = 8
    while width < n:
        width *= 2
    field = (1 << width) - 1
    shift2 = 2 * width
    stride = 4 * width  # bits per row
    if target >= 0:
        turn, rest = divmod(target, nn)
        t_mouse, t_cat = divmod(rest, n)
        if not stand >> t_cat & 1:
            return NO_POSITION
        # The target's bit; the bit one field up is "won by the cat".
        t_row, t_bit = (t_mouse, t_cat) if turn == 0 else (t_cat, shift2 + t_mouse)
        t_mask = 1 << (t_row * stride + t_bit)
    else:
        turn = -1
        t_mask = 0

    losses, mouse_board, first_fields = _field_boards(n, width)
    line = width // 2  # bytes per row
    size = line * n
    swaps = _swaps(width)
    halves = _low_halves(width)
    mouse_moves = game.mouse_moves
    cat_moves = game.cat_moves_all
    same_moves = cat_moves is mouse_moves

    new, free = _terminals_board(game, width)
    # In the loss fields of the arrived orientation, the positions not won by the
    # opponent so far: a mover loses if none of its moves reaches one.  The cat's moves
    # into a node it may not enter are not moves: that node's cat loss field is empty.
    not_lost = losses
    for x in _barred(game):
        not_lost ^= field << (shift2 + x * stride)
    # What the steps read: a board's rows and the filler row past them, each row a view.
    buffer, read_rows = spare = _read_rows(width)
    reads = buffer[: size + line]
    if type(game) is _Relabelled:
        # Its moves name the old labels: under each, the view of the new label's row.
        read_rows = [read_rows[x] for x in game.ids[: n + 1]]
    mouse_slots = _move_slots(mouse_moves, read_rows, n)
    if not same_moves:
        cat_slots = _move_slots(cat_moves, read_rows, n)
        cat_board = mouse_board << shift2
    arrived = 0  # every arrived board, for the outcome table
    tables = outcome is not None
    decided = 0
    rem = _undecided_remoteness(remoteness, 2 * nn)
    # Planes mode: plane p is the board of every position whose remoteness has bit p.
    stamp = planes is not None
    plane_boards: list[int] = []

    depth = 0
    last_report = time.monotonic()
    while True:
        if turn >= 0 and not free & t_mask:
            _give_back(width, spare)
            return _CAT_WIN if new & t_mask << width else _MOUSE_WIN
        if not new:
            break
        if tables:
            decided |= new
            if rem is not None:
                _stamp(rem, _rows_of(new, n, width), n, width, depth)
            if stamp and depth:
                plane_boards += [0] * (depth.bit_length() - len(plane_boards))
                for p in range(depth.bit_length()):
                    if depth >> p & 1:
                        plane_boards[p] |= new
        # Move the round's new bits into the other orientation.
        board = (new >> shift2 & halves) | (new & halves) << shift2
        for shift, mask in swaps:
            swap = ((board >> shift) ^ board) & mask
            board ^= swap ^ (swap << shift)
        if tables:
            arrived |= board
        # What the steps read, row by row: the new wins, and the moves not lost yet.
        # not_lost is clear in the win fields and holds every new win of the opponent in
        # the loss fields (a position is new once, and never has the cat on a node it may
        # not enter): one XOR adds the first and drops the second.
        board ^= not_lost
        not_lost = board & losses
        reads[:] = board.to_bytes(size + line, "little")
        if progress is not None:
            now = time.monotonic()
            if now - last_report >= _PROGRESS_EVERY:
                progress(2 * n * stand.bit_count() - free.bit_count() // 2)
                last_report = now
        depth += 1

        # Both steps at once: (m, c) with the mouse to move is won if a move
        # reaches a (m', c) the mouse won last round, lost if no move reaches one the
        # cat has not won; the same for the cat.  Any such loss not decided before had
        # its last move decided last round.  So in one OR over the moves, a win field
        # set is a win, and a loss field clear is a loss; the undecided board drops
        # the positions decided before.
        if same_moves:
            reached = _reached(mouse_slots)
        else:
            reached = _reached(mouse_slots) & mouse_board | _reached(cat_slots) & cat_board
        new = (reached ^ losses) & free
        # Each new position is one bit (won or lost): both of its undecided bits go.
        once = (new | new >> width) & first_fields
        free ^= once | once << width

    _give_back(width, spare)
    count = 2 * n * stand.bit_count() - free.bit_count() // 2
    if progress is not None:
        progress(count)
    if turn >= 0:
        return 0  # never decided: a draw
    # The tables, in mouse rows: the mouse to move from the rows decided, the
    # cat to move from the arrived ones (fields 0 and 1 of both).
    absent = ((1 << n) - 1) & ~stand
    out = memoryview(outcome).cast("B")
    arrived_rows = _rows_of(arrived, n, width)
    for m, row in enumerate(_rows_of(decided, n, width)):
        out[m * n : m * n + n] = _codes(n, row & field, row >> width & field, absent)
        row = arrived_rows[m]
        out[nn + m * n : nn + m * n + n] = _codes(n, row & field, row >> width & field,
                                                 absent)
    if stamp:
        write_layers(n, _plane_halves(plane_boards, n, width), planes, more_planes, depth,
                     more_bytes)
    return count


def _plane_halves(boards: list[int], n: int, width: int
                  ) -> tuple[list[list[int]], list[list[int]]]:
    """Plane boards (``_search_small``'s rows of four fields) as py_planes' plane lists: half 0
    from fields 0 and 1 (the mouse to move at mouse r), half 1 from fields 2 and 3."""
    field = (1 << width) - 1
    first_fields = _field_boards(n, width)[2]
    halves: tuple[list[list[int]], list[list[int]]] = ([], [])
    for board in boards:
        rows = _rows_of((board | board >> width) & first_fields, n, width)
        halves[0].append([row & field for row in rows])
        halves[1].append([row >> 2 * width for row in rows])
    return halves
