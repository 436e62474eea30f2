"""The pure twin's Board: one game checked once, solved from many positions; solve_boards."""

from __future__ import annotations

from typing import Any

from .checks import check_game, check_threads
from .facts import CAT_FORBIDDEN, HOLE
from .planes import layer_bytes
from .py_game import _by_degree, _Game
from .py_rounds import _search
from .py_small import _SMALL_NODES, _search_small

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

    __slots__ = ("_game", "_by_degree")

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
        # What _search_small runs on: the game relabelled, once for every solve.
        self._by_degree = _by_degree(self._game) if n <= _SMALL_NODES else None

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
        if self._by_degree is None:
            return _search(game, (turn * n + mouse) * n + cat, None, None, None)
        game, labels = self._by_degree
        return _search_small(game, (turn * n + labels[mouse]) * n + labels[cat], None, None, None)

    def analyze(self, remoteness: bool = True) -> tuple[bytes, list[bytes] | None]:
        """Every position on one thread: ``(outcomes, layers)``, the outcome table as bytes and
        the remoteness planes as a list of layers of bytes (catmouse/engine/planes.py), or
        None with ``remoteness=False``: what ``propagate`` writes in planes mode, without its
        argument checks."""
        game = self._game
        n = game.n
        outcomes = bytearray(2 * n * n)
        if not n:
            return bytes(outcomes), [b""] if remoteness else None
        search = _search_small if n <= _SMALL_NODES else _search
        if not remoteness:
            search(game, -1, outcomes, None, None)
            return bytes(outcomes), None
        planes = bytearray(layer_bytes(n))
        more: list[Any] = []
        search(game, -1, outcomes, None, None, memoryview(planes), more)
        return bytes(outcomes), [bytes(planes)] + [bytes(layer) for layer in more]


def classic_board(n: Any, hole: Any, indptr: Any, indices: Any, rindptr: Any,
                  rindices: Any) -> Board | None:
    """LeetCode 913's Board on one graph of at most 64 nodes, or None to decline.

    The compiled twin's ``classic_board``: ``Board(n, flags, indptr, indices, rindptr,
    rindices)`` twice over, the cat kept out of ``hole``; anything ``Board`` refuses, or a
    bigger graph, is declined (the caller's Board path reports it).

    >>> from array import array
    >>> ip, ix = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])
    >>> classic_board(3, 0, ip, ix, ip, ix).solve(1, 2)
    1
    """
    if type(n) is not int or type(hole) is not int or not 0 <= hole < n <= 64:
        return None
    flags = bytearray(n)
    flags[hole] = HOLE | CAT_FORBIDDEN
    arrays = (indptr, indices, rindptr, rindices)
    try:
        # The compiled twin's buffers only: 1-D, C-contiguous, 4-byte ints.
        for data in arrays:
            with memoryview(data) as view:
                if (view.ndim != 1 or view.itemsize != 4 or not view.c_contiguous
                        or view.format not in ("i", "l")):
                    return None
        return Board(n, bytes(flags), *arrays, *arrays)
    except (TypeError, ValueError, BufferError):
        return None


def solve_boards(boards: list[Board], mouse: Any, cat: Any, turn: Any = 0,
                 threads: Any = 1) -> bytearray:
    """Outcome codes of one position on each board (255 where it is not a position).

    ``threads`` is checked, and ignored: Python code holds the GIL.

    >>> from array import array
    >>> line = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])  # 0 - 1 - 2
    >>> list(solve_boards([Board(3, bytes([3, 0, 0]), *line * 4)] * 2, 2, 1))
    [2, 2]
    """
    if type(boards) is not list:
        raise TypeError(f"boards must be a list, not {type(boards).__name__}")
    check_threads(threads)
    for board in boards:
        if not isinstance(board, Board):
            raise TypeError(f"boards must hold Board objects, not {type(board).__name__}")
    codes = bytearray(len(boards))
    for i, board in enumerate(boards):
        code = board.solve(mouse, cat, turn)
        codes[i] = 255 if code < 0 else code
    return codes
