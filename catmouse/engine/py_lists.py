"""The pure twin's plain adjacency lists: CSR conversion and solve_lists (the hot-loop
path)."""

from __future__ import annotations

import itertools
import sys
from array import array
from typing import Any

from .checks import check_threads
from .facts import LISTS_MAX_NODES, MAX_NODES
from .py_game import _by_degree, _Game
from .py_rounds import _search
from .py_small import _SMALL_NODES, _search_small, _swaps

# From here on (rows of 64-bit fields) relabelling a game by degree pays for itself within
# one solve_lists call; below it costs more than its shorter slots save (measured: 8 us more
# at 16 nodes, 4 us more at 32, 19 us less at 50, on graphs of average degree 4).
_BY_DEGREE_NODES = 33


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


# Bit v of a row, keyed by node id: looking up an id outside 0..63 fails (a list would
# wrap a negative one).
_ROW_BITS = {u: 1 << u for u in range(64)}
# Bit 65u of a 64 x 64 board: the self-loops u -> u.
_LOOPS = sum(1 << (65 * u) for u in range(64))


def _small_rows_of(adjacency: list) -> list[list[int]] | None:
    """``_rows_of`` for at most 64 nodes, and undirected: each step a C loop.

    Each row becomes a bit mask of its neighbours, and the masks one 64 x 64 board
    (edge u -> v at bit 64u + v): a repeat shows as fewer bits than entries (the
    sum carries), a self-loop as a bit on the diagonal, and a one-way edge, or an
    id from n to 63, as a board that is not its own transpose.
    """
    if not set(map(type, adjacency)) <= {list}:
        return None
    rows = list(map(list.copy, adjacency))
    flat = list(itertools.chain.from_iterable(rows))
    if not set(map(type, flat)) <= {int}:
        return None
    try:
        masks = list(map(sum, map(map, itertools.repeat(_ROW_BITS.__getitem__), rows)))
    except KeyError:
        return None  # an id below 0 or above 63
    if sum(map(int.bit_count, masks)) != len(flat):
        return None  # a neighbour listed twice (a carry past bit 63 too)
    words = array("Q", masks)
    if sys.byteorder == "big":  # the board reads the words little-endian
        words.byteswap()
    board = int.from_bytes(words, "little")
    if board & _LOOPS:
        return None  # a self-loop
    if board != _transposed(board):
        return None  # a one-way edge, or a neighbour from n up
    return rows


def _transposed(board: int) -> int:
    """The transpose of a 64 x 64 bit matrix (bit 64r + c is row r, column c)."""
    for shift, mask in _swaps(64, 1):
        swap = ((board >> shift) ^ board) & mask
        board ^= swap ^ (swap << shift)
    return board


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
    game = _Game.__new__(_Game)
    game.n = n
    game.mouse_moves = game.mouse_from = game.cat_moves_all = game.cat_from_all = rows
    game.stand = ((1 << n) - 1) ^ (1 << hole)
    game.hole_mask = 1 << hole
    game.goal_mask = 0
    if n > _SMALL_NODES:
        return _search(game, mouse * n + cat, None, None, None)
    if n < _BY_DEGREE_NODES:
        return _search_small(game, mouse * n + cat, None, None, None)
    game, labels = _by_degree(game)
    return _search_small(game, labels[mouse] * n + labels[cat], None, None, None)


def solve_lists_many(batch: list, mouse: Any, cat: Any, hole: Any, threads: Any = 1) -> bytearray:
    """Outcome codes of LeetCode 913 on each plain-list graph of ``batch``, 255 where declined.

    The twin of the compiled engine's batch path: graphs of at most 64 nodes that
    ``solve_lists`` takes; 255 for anything else (``threads`` is checked, and ignored: Python
    code holds the GIL).

    >>> bytes(solve_lists_many([[[1, 3], [0], [3], [0, 2]]] * 3, 1, 2, 0, threads=2))
    b'\\x01\\x01\\x01'
    """
    if type(batch) is not list:
        raise TypeError(f"batch must be a list, not {type(batch).__name__}")
    check_threads(threads)
    codes = bytearray(b"\xff") * len(batch)
    for k, adjacency in enumerate(batch):
        if type(adjacency) is list and len(adjacency) <= _SMALL_NODES:
            code = solve_lists(adjacency, mouse, cat, hole)
            if code >= 0:
                codes[k] = code
    return codes
