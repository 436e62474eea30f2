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
    _row_splitter,
    _stamp,
    _terminals_board,
    _undecided_remoteness,
)

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
_FIELD_BOARDS: dict[tuple[int, int], tuple[int, int, int, int]] = {}


def _field_boards(n: int, width: int) -> tuple[int, int, int, int]:
    """Whole boards of one mask in every row: the mover's wins (the mouse's field 0, the
    cat's field 3), its losses (fields 1 and 2), the mouse's fields (0 and 1), and the
    first field of each turn (0 and 2)."""
    boards = _FIELD_BOARDS.get((n, width))
    if boards is None:
        field = (1 << width) - 1
        shift2, shift3 = 2 * width, 3 * width
        boards = _FIELD_BOARDS[n, width] = (
            _every_row(field | field << shift3, n, width),
            _every_row(field << width | field << shift2, n, width),
            _every_row(field | field << width, n, width),
            _every_row(field | field << shift2, n, width))
    return boards


# Picks every node's k-th move from a board's row chunks.
_Slot = Callable[[tuple[bytes, ...]], tuple[bytes, ...]]


def _move_slots(moves: list, n: int) -> list[_Slot]:
    """Per slot k, a C function picking every node's k-th move from a board's row chunks,
    up to the last node with a k-th move.

    Chunk ``n`` is the filler row past the board's, all zeros: a node before that last
    one with at most k moves picks it, and so does one more pick at the end, which keeps
    itemgetter's answer a tuple for one row.
    """
    slots: list[_Slot] = []
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
        slots.append(operator.itemgetter(*picks[: last + 1], n))
    return slots


def _reached(slots: list[_Slot], chunks: tuple[bytes, ...]) -> int:
    """In every row, the OR of the rows its moves arrive on, from a board's row chunks."""
    reached = 0
    for pick in slots:
        reached |= int.from_bytes(b"".join(pick(chunks)), "little")
    return reached


def _search_small(game: _Game, target: int, outcome: Any, remoteness: Any,
                  progress: Callable[[int], Any] | None) -> int:
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
    children are gathered slot by slot (``_move_slots``): the board's rows, cut
    into bytes, picked in C as every node's k-th move and read back as one board.
    The undecided positions (each in both fields of its turn) mask a round's finds
    at once, and the new board goes straight into the next transpose.
    """
    n = game.n
    nn = n * n
    width = 8
    while width < n:
        width *= 2
    field = (1 << width) - 1
    shift2 = 2 * width
    stride = 4 * width  # bits per row
    wins, losses, mouse_board, first_fields = _field_boards(n, width)
    cat_board = mouse_board << shift2
    line = width // 2  # bytes per row
    size = line * n
    little = itertools.repeat("little")
    split = _row_splitter(line, n)
    chunks_of = _row_splitter(line, n + 1)  # a board's rows and the filler row past them
    # An array typecode of one row, if any: an array's bytes are the machine's, and the shortcut
    # reads them as little-endian words, so a big-endian machine takes the bytes path.
    word = {4: "I", 8: "Q"}.get(line, "") if sys.byteorder == "little" else ""

    def rows_of(board: int) -> list[int]:
        """A board's rows, row 0 first (rows past n are 0 on every board here)."""
        if word:
            return array(word, board.to_bytes(size, "little")).tolist()
        # (typeshed types byteorder as a Literal, which map() cannot see through)
        return list(map(int.from_bytes, split(board.to_bytes(size, "little")),  # type: ignore[arg-type]
                        little))

    swaps = _swaps(width)
    halves = _low_halves(width)
    mouse_moves = game.mouse_moves
    cat_moves = game.cat_moves_all
    same_moves = cat_moves is mouse_moves
    stand = game.stand

    new, free = _terminals_board(game, width)
    free |= free << width
    # In the loss fields of the arrived orientation, the positions not won by the
    # opponent so far: a mover loses if none of its moves reaches one.  The cat's moves
    # into a node it may not enter are not moves: that node's cat loss field is empty.
    barred = sum(field << (shift2 + x * stride) for x in _barred(game))
    not_lost = losses ^ barred
    mouse_slots = _move_slots(mouse_moves, n)
    if not same_moves:
        cat_slots = _move_slots(cat_moves, n)
    arrived = 0  # every arrived board, for the outcome table
    tables = outcome is not None
    decided = 0
    rem = _undecided_remoteness(remoteness, 2 * nn)

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

    depth = 0
    last_report = time.monotonic()
    while True:
        if turn >= 0 and not free & t_mask:
            return _CAT_WIN if new & t_mask << width else _MOUSE_WIN
        if not new:
            break
        if tables:
            decided |= new
            if rem is not None:
                _stamp(rem, rows_of(new), n, width, depth)
        # Move the round's new bits into the other orientation.
        board = (new >> shift2 & halves) | (new & halves) << shift2
        for shift, mask in swaps:
            swap = ((board >> shift) ^ board) & mask
            board ^= swap ^ (swap << shift)
        not_lost ^= not_lost & board
        if tables:
            arrived |= board
        # What the steps read, row by row: the new wins, and the moves not lost yet.
        chunks = chunks_of((board & wins | not_lost).to_bytes(size + line, "little"))
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
            reached = _reached(mouse_slots, chunks)
        else:
            reached = (_reached(mouse_slots, chunks) & mouse_board
                       | _reached(cat_slots, chunks) & cat_board)
        new = (reached ^ losses) & free
        # Each new position is one bit (won or lost): both of its undecided bits go.
        once = (new | new >> width) & first_fields
        free ^= once | once << width

    count = 2 * n * stand.bit_count() - free.bit_count() // 2
    if progress is not None:
        progress(count)
    if turn >= 0:
        return 0  # never decided: a draw
    # The tables, in mouse rows: the mouse to move from the rows decided, the
    # cat to move from the arrived ones (fields 0 and 1 of both).
    absent = ((1 << n) - 1) & ~stand
    out = memoryview(outcome).cast("B")
    arrived_rows = rows_of(arrived)
    for m, row in enumerate(rows_of(decided)):
        out[m * n : m * n + n] = _codes(n, row & field, row >> width & field, absent)
        row = arrived_rows[m]
        out[nn + m * n : nn + m * n + n] = _codes(n, row & field, row >> width & field,
                                                 absent)
    return count
