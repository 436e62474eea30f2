"""The pure twin's game: move rows, round 0's terminal positions, and the table helpers
both searches share."""

from __future__ import annotations

import itertools
import operator
import struct
from array import array
from collections.abc import Callable
from typing import Any

from .facts import CAT_FORBIDDEN, CAT_GOAL, HOLE, NO_POSITION
from .facts import CAT_WIN as _CAT_WIN
from .facts import MOUSE_WIN as _MOUSE_WIN

# progress() is called at most this often (seconds), and once at the end.
_PROGRESS_EVERY = 0.2

# Bit u, for the nodes of a one-word board (at most 64).
_POWERS = [1 << u for u in range(64)]

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

    __slots__ = ("n", "mouse_moves", "mouse_from", "cat_moves_all", "cat_from_all",
                 "stand", "hole_mask", "goal_mask")

    def __init__(self, n: int, flags: bytes, arrays: list) -> None:
        m_ip, m_ix, m_rip, m_rix, c_ip, c_ix, c_rip, c_rix = arrays
        self.n = n
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


class _Relabelled(_Game):
    """A game with its nodes relabelled (``_by_degree``): its masks and the order of its
    move rows are in the new labels, but the moves still name nodes by their old labels,
    which ``ids`` (a bytes.translate table, the same from n up) turns into the new ones.

    Relabelling the moves themselves would make a new row per node; the small search reads
    them once per solve, through ``ids`` (``_search_small``, ``_named``).
    """

    __slots__ = ("ids",)
    ids: bytes


def _named(game: _Game, nodes: set[int]) -> set[int]:
    """Nodes as the game's moves name them: a ``_Relabelled`` game's moves keep the old labels."""
    if type(game) is _Relabelled:
        return {game.ids.index(x) for x in nodes}
    return nodes


# Byte u is u: the first n bytes are the labels of an n-node game.
_IDENTITY = bytes(range(256))


def _by_degree(game: _Game) -> tuple[_Relabelled, bytes]:
    """The game with its nodes relabelled by the mouse's moves, most first, and a
    bytes.translate table from the old labels to the new (at most 64 nodes).

    ``_search_small`` gathers every node's k-th move slot by slot: with the nodes of
    most moves first, slot k covers only the first rows, those of more than k moves.
    """
    n = game.n
    degrees = list(map(len, game.mouse_moves))
    order = sorted(range(n), key=degrees.__getitem__, reverse=True)  # old label by new
    labels = bytes.maketrans(bytes(order), _IDENTITY[:n])  # and bytes from n up unchanged
    # The items of a sequence in the new order (itemgetter of one index gives no tuple).
    by_new = operator.itemgetter(*order) if n > 1 else tuple
    reordered: dict[int, list[Any]] = {}

    def moves(rows: Any) -> list[Any]:
        """The rows in the new order; one list for rows the game shares."""
        new = reordered.get(id(rows))
        if new is None:
            new = reordered[id(rows)] = list(by_new(rows))
        return new

    everyone = (1 << n) - 1

    def mask(bits: int) -> int:
        """A set of nodes (bit u = node u) in the new labels, node by node: the set's or
        its complement's (a hole, the nodes but the hole), whichever has fewer."""
        if 2 * bits.bit_count() > n:
            return everyone ^ mask(everyone ^ bits)
        new = 0
        while bits:
            low = bits & -bits
            new |= 1 << labels[low.bit_length() - 1]
            bits ^= low
        return new

    new = _Relabelled.__new__(_Relabelled)
    new.n = n
    new.ids = labels
    new.mouse_moves = moves(game.mouse_moves)
    new.mouse_from = moves(game.mouse_from)
    new.cat_moves_all = moves(game.cat_moves_all)
    new.cat_from_all = moves(game.cat_from_all)
    new.stand = mask(game.stand)
    new.hole_mask = mask(game.hole_mask)
    new.goal_mask = mask(game.goal_mask)
    return new, labels


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
    may not enter, as the game's moves name them (``_named``).
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
    barred = set()
    rest = ((1 << game.n) - 1) & ~game.stand
    while rest:
        low = rest & -rest
        barred.add(low.bit_length() - 1)
        rest ^= low
    return barred


def _terminals(game: _Game) -> tuple[list[int], ...]:
    """Round 0 at every node: the six row lists of ``_terminal_rows``."""
    barred = _barred(game)
    rows = [_terminal_rows(game, r, barred) for r in range(game.n)]
    return tuple(list(column) for column in zip(*rows)) if rows else ([],) * 6


def _every_row(bits: int, n: int, width: int) -> int:
    """A board of ``n`` four-field rows of ``width``-bit fields, each row ``bits``."""
    line = width // 2  # bytes per row
    return int.from_bytes(bits.to_bytes(line, "little") * n, "little")


# Per (n, width): the board with bit r of fields 1 and 3 in each row r, and that of every
# field (each node's own bits in round 0: the cat on the mouse).
_DIAGONALS: dict[tuple[int, int], tuple[int, int]] = {}


def _diagonals(n: int, width: int) -> tuple[int, int]:
    """The two boards of ``_DIAGONALS``, made once."""
    diagonals = _DIAGONALS.get((n, width))
    if diagonals is None:
        diagonal = sum(1 << (r * (4 * width + 1)) for r in range(n))
        diagonals = _DIAGONALS[n, width] = ((1 << width | 1 << 3 * width) * diagonal,
                                            (1 | 1 << width | 1 << 2 * width
                                             | 1 << 3 * width) * diagonal)
    return diagonals


def _terminals_board(game: _Game, width: int) -> tuple[int, int]:
    """Round 0 as two boards of ``_search_small``'s four-field rows: the new positions and
    the undecided ones (in both fields of their turn).

    Most nodes are plain (no flag, and both players can move from them): their
    rows differ only in the node's own bit, so each board is one row repeated and a
    diagonal; the few other rows are replaced with ``_terminals``' rule-by-rule logic.
    """
    n, stand = game.n, game.stand
    holes, goals = game.hole_mask, game.goal_mask
    everyone = (1 << n) - 1
    shift2, shift3 = 2 * width, 3 * width
    stride = 4 * width
    # A plain node r: the cat on the mouse (cat wins, both turns), the cat on a
    # goal with the mouse to move, the mouse in a hole with the cat to move.
    own_new, own_free = _diagonals(n, width)
    new = _every_row((stand & goals) << width | holes << shift2, n, width) | own_new
    free = (stand & ~goals) | (everyone & ~holes) << shift2
    free = _every_row(free | free << width, n, width)
    free ^= free & own_free
    special = holes | goals | (everyone & ~stand)
    if not all(game.mouse_moves):
        special |= sum(itertools.compress(_POWERS, map(operator.not_, game.mouse_moves)))
    barred = None  # built only when needed: most boards have no barred node
    if not all(game.cat_moves_all) or stand != everyone:
        barred = _named(game, _barred(game))
        special |= sum(itertools.compress(_POWERS, map(barred.issuperset, game.cat_moves_all)))
    if special:
        barred = _named(game, _barred(game)) if barred is None else barred
        row_bits = (1 << stride) - 1
        while special:
            low = special & -special
            r = low.bit_length() - 1
            special ^= low
            mouse0, cat0, undecided0, cat1, mouse1, undecided1 = _terminal_rows(game, r, barred)
            undecided = undecided0 | undecided1 << shift2
            at = r * stride
            new ^= ((new >> at & row_bits) ^ (mouse0 | cat0 << width | mouse1 << shift2
                                              | cat1 << shift3)) << at
            free ^= ((free >> at & row_bits) ^ (undecided | undecided << width)) << at
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
