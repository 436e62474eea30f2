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
  operations), both players' steps are one OR of whole boards per move slot
  (every node's k-th move, its rows picked in C), and the undecided positions,
  one big int too, mask a whole round's finds at once; a search for one
  position runs on the game relabelled by degree, so slot k covers only the
  nodes of more than k moves;
- ``_search`` (bigger boards): rows of n bits, new bits scattered one by one
  into the other orientation, and only the rows with a child that gained bits
  recomputed, so long thin endgames cost about the positions they decide.

The outcome table is written row by row at the end (bit sets to code bytes
through ``format``/``bytes.translate``); remoteness is the round number, written per
position into an int32 table, or in planes mode (``py_planes``) ORed as whole rows into the
bit planes of the round number's set bits and written out in the planes layout at the end.

The twin is split by job as the compiled engine is: this module is its face (``propagate``,
``peak_bytes`` and every entry point); ``py_game`` holds the game's rows and round 0,
``py_small`` and ``py_rounds`` the two searches, ``py_boards`` the Board, ``py_lists`` plain
lists, ``py_cops`` the game of k cops (the cop number), and ``checks`` and ``cops_checks`` the
argument checks that both twins import.
"""

from __future__ import annotations

import io
import operator
from collections.abc import Callable
from typing import Any

from .checks import check_arrays, check_more_bytes, check_planes, check_threads
from .facts import ENGINE_API, MAX_NODES
from .py_boards import Board, classic_board, solve_boards
from .py_cops import cop_number, cop_numbers_graph6, cops_peak_bytes, cops_search
from .py_game import _FILL_BLOCK, _Game
from .py_lists import csr_from_lists, solve_lists, solve_lists_many
from .py_rounds import _search
from .py_small import _SMALL_NODES, _search_small

__all__ = ["propagate", "peak_bytes", "Table", "Board", "classic_board", "solve_boards",
           "csr_from_lists",
           "solve_lists", "solve_lists_many", "cops_search", "cops_peak_bytes", "cop_number",
           "cop_numbers_graph6", "ENGINE_API"]


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
    planes: Any = None,
    more_planes: list | None = None,
    more_bytes: int | None = None,
) -> int:
    """Solve every position of the game; see the module docstring.

    ``outcome`` (uint8, 2*n*n) and ``remoteness`` (int32, 2*n*n, -1 where the game
    never ends) are filled when given.  With ``target >= 0`` the search stops as
    soon as that position is decided and its outcome code is returned (0 if it
    is a draw); otherwise the number of decided positions is returned.
    ``threads`` is checked and ignored (the twin runs in one thread);
    ``progress(decided)`` is called between rounds and once at the end.

    Planes mode: ``planes`` (a writable byte buffer of ``py_planes.layer_bytes(n)``, with
    ``outcome`` and without ``remoteness``) gets every decided position's remoteness as bit
    planes in the canonical layout (catmouse/engine/planes.py), zero bits elsewhere; a
    search past round 255 appends each further layer to the list ``more_planes`` as a
    bytearray.  ``more_bytes`` (None: no limit) caps the bytes of those layers: a search
    that would make one past it (as round 256**L starts) raises MemoryError.

    >>> from array import array
    >>> line = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])  # 0 - 1 - 2
    >>> propagate(3, bytes([3, 0, 0]), *line * 4, target=7)  # mouse 2, cat 1
    2
    """
    csr = (mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
           cat_indptr, cat_indices, cat_rindptr, cat_rindices)
    n, flag_bytes, arrays, target = check_arrays(n, flags, csr, outcome, remoteness, target)
    planes = check_planes(n, outcome, remoteness, planes, more_planes)
    more_bytes = check_more_bytes(more_bytes)
    check_threads(threads)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable or None, not {type(progress).__name__}")
    search = _search_small if n <= _SMALL_NODES else _search
    return search(_Game(n, flag_bytes, arrays), target, outcome, remoteness, progress,
                  planes, more_planes, more_bytes)


class Table:
    """A zeroed table of ``size`` bytes for an engine call to write, then immutable bytes.

    ``view()`` is a writable memoryview; ``take()`` hands over the bytes, once every
    view is released, and the table is empty after it.  A BytesIO holds them: with no
    view left, ``getvalue()`` hands over its buffer itself (CPython does not copy it),
    so the finished table is bytes no caller can write, at no extra memory.

    >>> table = Table(3)
    >>> with table.view() as view:
    ...     view[1] = 7
    >>> table.take()
    b'\\x00\\x07\\x00'
    """

    __slots__ = ("_file",)

    def __init__(self, size: int, zeroed: bool = True) -> None:
        # (``zeroed=False`` lets the compiled engine skip clearing a table it fills whole;
        # this one is always zeroed.)
        size = operator.index(size)
        if size < 0:
            raise ValueError(f"a table of {size} bytes")
        self._file: io.BytesIO | None = io.BytesIO()
        if size:
            self._file.seek(size - 1)
            self._file.write(b"\0")  # zero-fills the bytes before it

    def view(self) -> memoryview:
        """A writable memoryview of the whole table."""
        if self._file is None:
            raise BufferError("the table was taken")
        return self._file.getbuffer()

    def take(self) -> bytes:
        """The table as bytes (no copy); BufferError while a view is alive."""
        if self._file is None:
            raise BufferError("the table was taken")
        try:
            self._file.truncate()  # at its end: a no-op, but BufferError while a view is alive
        except BufferError:
            raise BufferError("the table still has a view") from None
        data, self._file = self._file.getvalue(), None
        return data


# -- memory -----------------------------------------------------------------------


def _int_bytes(bits: int) -> int:
    """Bytes an int of up to ``bits`` bits takes: 24 of header, 4 per 30-bit digit,
    rounded up to the allocator's 16 bytes, plus 16 for a malloc header."""
    return (24 + 4 * max(1, -(-bits // 30)) + 15) // 16 * 16 + 16


def _list_bytes(items: int) -> int:
    """A list of ``items`` slots, with its GC header and growth slack of 1/8."""
    return 72 + 9 * items + 32


def peak_bytes(n: int, outcome: bool, remoteness: bool, target: bool, threads: int = 1,
               planes: bool = False) -> int:
    """An upper bound on the bytes one ``propagate`` call allocates itself.

    Not counting the caller's outcome/remoteness buffers, for CSR arrays given
    as int buffers (what ``Graph`` holds).  The bound follows the layout:

    - the checks: four indptr lists of n + 1 ints (offsets above 256 are int
      objects of 32 bytes) and one sorted copy;
    - the graph: per node and per distinct CSR array one memoryview (200 bytes
      with its GC header) in a list; no memory per edge;
    - n <= 64: per player at most n move slots, each a tuple of at most n row
      views, and the zip_longest tuples they are cut from; the buffer a round's
      board is written into (n + 1 rows of 4 * 64 bits or less, kept for the
      next search) with a memoryview of each row and a list of them in the
      game's labels; a slot's join, about three times over; the whole board
      (64 rows of four 64-bit fields) about 24 times over: new, free, the moves not lost yet, the
      transpose and its swap temporaries, a slot's board, the reach, the tables'
      boards, and the masks cached on first use (the boards of one mask in every
      row, the diagonals, the delta swaps); three lists of n rows for the tables;
    - n > 64: 22 lists of n rows of n bits (ten of the search, three for the
      tables, six of round 0 and three of (row, bits, bits) tuples), at most
      ``n`` of each kind alive;
    - the remoteness table is cleared through a block of at most 65536 ints,
      and the outcome table is written row by row (a few strings of n chars);
    - planes mode (``planes=True``; the caller's planes buffer is not counted): per turn 8
      plane lists of n row ints (n > 64), or 8 boards and their 16 lists of n rows
      (n <= 64); and the write of one plane at a time, its rows as bytes, joined, and as
      words.  The planes of bits 8 and up and the layers past the first (a search of more
      than 255 rounds) are not counted.

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
        total += 2 * n * (_list_bytes(n + 1) + 64) + n * _list_bytes(n)  # the slots
        # the read buffer, its row views (200 bytes each with the GC header), two lists
        total += (width + 1) * (width // 2 + 200) + 2 * _list_bytes(width + 1)
        total += 3 * (48 + n * width // 2)  # a slot's join
        total += 24 * (_int_bytes(4 * width * width) + 64)
        total += 3 * (_list_bytes(n) + n * row)
    else:
        row = _int_bytes(n)
        total += 22 * (_list_bytes(n) + n * row)
        total += 3 * n * (80 + 2 * row)  # tuples of new rows
        total += 8 * row  # temporaries of a step
    if remoteness:
        total += 4 * min(2 * n * n, _FILL_BLOCK) + 64
    if planes:
        row_bytes = (n + 63) // 64 * 8
        if n <= _SMALL_NODES:
            total += 8 * _int_bytes(4 * width * width)  # the plane boards
            total += 2 * _int_bytes(4 * width * width) + 3 * (n * width // 2 + 64)  # one's fold
            total += 16 * (_list_bytes(n) + n * _int_bytes(width))  # as plane lists
        else:
            total += 2 * 8 * (_list_bytes(n) + n * row)
        # one plane's write: its rows' bytes, their join, its words, and a plane of zeros
        total += _list_bytes(n) + n * (row_bytes + 64) + 3 * (n * row_bytes + 64)
    if outcome:
        total += 8 * (5 * n + 128)  # _codes' strings and ints of one row
    return total
