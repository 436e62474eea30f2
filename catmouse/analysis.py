"""Analysis: every position's outcome and remoteness, and the queries on them."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Hashable, Iterator
from itertools import chain
from typing import Any

from . import engine as _engine
from .analysis_checks import (
    INT32_ITEMS,
    WORD_ITEMS,
    check_codes,
    check_layers,
    check_tables,
    table_bytes,
)
from .display import Displayed
from .engine import planes as _planes
from .engine.facts import CAT_FORBIDDEN, CAT_GOAL, HOLE
from .graph import DEFAULT_CAT, DEFAULT_MOUSE, Graph
from .graph_checks import STORED_ORDER, native
from .io.plane_rows import PlaneRows, fix_never_ending, goes_on
from .io.table_check import BAD, NEVER, NO_POSITION, TOP, table_rows, worst_numpy
from .io.table_text import numpy_or_none
from .outcome import Outcome, Turn, as_turn
from .progress import as_callback, finish
from .rules import Rules, memory_limit

__all__ = ["Analysis", "Position", "VerificationError"]

# (mouse, cat, turn), nodes named as the graph names them (ids on a plain graph).  Any, not
# Hashable: a caller knows its graph's labels (ints, strings) and uses them as such.
Position = tuple[Any, Any, Turn]

_WIN_FOR = {Turn.MOUSE: Outcome.MOUSE_WIN, Turn.CAT: Outcome.CAT_WIN}

# Analysis.verify scores every position from the mouse's side in one integer:
# a mouse win in r plies is _TOP - r, a game that never ends _NEVER, a cat win
# in r plies r.  The mouse picks the largest child, the cat the smallest, and
# a position is worth its best child moved one ply further from the end.
_NEVER, _TOP, _BAD, _NO_POSITION = NEVER, TOP, BAD, NO_POSITION

# The pickle's mark of remoteness kept as planes (0.3.0); before it, an int32 table.
_PLANES_MARK = "planes"
# A first-use int32 table bigger than this asks the system whether it fits.
_ASK_ABOVE = 1 << 26
# Held while an int32 table is built on first use (Analysis._remoteness_or_raise): one
# build at a time, in the process, so that the memory guard's count holds.
_TABLE_LOCK = threading.Lock()

def _no_remoteness(index: int) -> int:
    """Stands in for a missing remoteness table: every move ranks alike."""
    return 0


class VerificationError(AssertionError):
    """:meth:`Analysis.verify` found a position its moves contradict.

    ``position`` is the ``(mouse, cat, turn)`` named in the message (labels on a
    labelled graph).
    """

    def __init__(self, message: str, position: Position):
        super().__init__(message)
        self.position = position


class Analysis(Displayed):
    """The solved table of a game: one entry per position ``(mouse, cat, turn)``.

    Built by :func:`catmouse.analyze` or :meth:`catmouse.Game.analyze`.  The
    queries take and give nodes by name: labels on a labelled graph (built from
    networkx), ids ``0..n-1`` otherwise.  The tables (:attr:`outcomes`,
    :attr:`remoteness_table`, :meth:`outcomes_for`, :meth:`remoteness_for`) are
    indexed by node ids on every graph (``graph.index(label)`` finds one).

    >>> import catmouse
    >>> a = catmouse.analyze([[1, 3], [0], [3], [0, 2]])
    >>> a.outcome(1, 2)
    <Outcome.MOUSE_WIN: 1>
    >>> a.remoteness(1, 2), a.best_moves(1, 2), a.line()
    (1, [0], [(1, 2, <Turn.MOUSE: 0>), (0, 2, <Turn.CAT: 1>)])
    """

    __slots__ = ("_rules", "_outcomes", "_layers", "_first", "_table")

    # The tables are bytes: outcomes a byte a position, remoteness as bit-planes (a tuple of
    # layers, see catmouse.engine.planes), immutable, so nothing can change an answer.  The
    # int32 table is built from the planes only when asked for, and then kept.
    _outcomes: bytes
    _layers: tuple[bytes, ...] | None
    _table: memoryview | None

    def __init__(self, rules: Rules, outcomes: bytes | bytearray,
                 remoteness: Any = None, first: Turn = Turn.MOUSE):
        # ``remoteness``: the planes (a list or tuple of layers), or an int32 table of
        # 2 * n * n entries (made into planes), or None (outcomes only).  Each a buffer of
        # bytes or of its own items (table_bytes), copied once unless bytes: its owner could
        # still write it.
        if not isinstance(rules, Rules):
            raise TypeError(f"an Analysis needs Rules, not {type(rules).__name__}")
        outcomes = table_bytes(outcomes, "outcome table")
        check_tables(rules, outcomes, None)
        layers: tuple[bytes, ...] | None = None
        if isinstance(remoteness, (list, tuple)):
            layers = tuple(table_bytes(layer, f"remoteness layer {level}", WORD_ITEMS)
                           for level, layer in enumerate(remoteness))
            check_layers(rules.n, layers)
        elif remoteness is not None:
            table = table_bytes(remoteness, "remoteness table", INT32_ITEMS)
            check_tables(rules, outcomes, table)
            layers = tuple(_planes.from_remoteness(table, rules.n))
        self._rules = rules
        self._outcomes = outcomes
        self._layers = layers
        self._table = None
        # Who moves first in the game analyzed: the turn the queries default to.
        self._first = as_turn(first, "first")

    @classmethod
    def _from_engine(cls, rules: Rules, outcomes: bytes, layers: list[bytes] | None,
                     first: Turn = Turn.MOUSE) -> Analysis:
        """An Analysis of tables an engine has just made for ``rules`` (a Board's analyze):
        their sizes are the engine's, so the constructor's checks are skipped."""
        self = cls.__new__(cls)
        self._rules = rules
        self._outcomes = outcomes
        self._layers = None if layers is None else tuple(layers)
        self._table = None
        self._first = first
        return self

    # -- the tables -------------------------------------------------------------

    @property
    def graph(self) -> Graph:
        """The graph the mouse moves on (the cat's too, unless the game gave it another), as
        the game was given it: without the self-loops of ``mouse_stays``."""
        graph = self._rules.mouse_graph
        return getattr(graph, "_base", graph)  # (a stay graph keeps the graph it was made from)

    @property
    def n(self) -> int:
        """Number of nodes."""
        return self._rules.n

    @property
    def first(self) -> Turn:
        """Who moves first in the analyzed game: the queries' default ``turn``."""
        return self._first

    @property
    def outcomes(self) -> memoryview:
        """Read-only ``uint8`` buffer of shape ``(2, n, n)``, indexed ``[turn][mouse][cat]``.

        ``mouse`` and ``cat`` are node ids, not labels, on every graph
        (``graph.index(label)`` gives a label's id).

        Values are :class:`Outcome` codes (0 draw, 1 mouse wins, 2 cat wins) and
        3 where the position does not exist (the cat on a node it may not enter).
        ``numpy.asarray(a.outcomes)`` views it without copying.  Without numpy,
        read one entry as ``a.outcomes[turn, mouse, cat]`` or the whole as
        ``a.outcomes.tolist()``; Python's memoryview cannot slice a sub-table
        (``a.outcomes[0]`` raises NotImplementedError), so use
        :meth:`outcomes_for` for one turn's ``(n, n)`` view.
        """
        n = self.n
        return memoryview(self._outcomes).toreadonly().cast("B", (2, n, n))

    @property
    def has_remoteness(self) -> bool:
        """False for an analysis made with ``remoteness=False`` (outcomes only)."""
        return self._layers is not None

    def _layers_or_raise(self, what: str) -> tuple[bytes, ...]:
        if self._layers is None:
            raise ValueError(
                f"{what} needs the remoteness table, and this analysis was made with "
                "remoteness=False: analyze again with remoteness=True"
            )
        return self._layers

    def _remoteness_or_raise(self, what: str) -> memoryview:
        """The int32 table (flat, native order), built from the planes on first use: once,
        however many threads ask for it at once (each built its own before, 4 bytes a
        position apiece, past the memory guard that counted one)."""
        self._layers_or_raise(what)
        table = self._table
        if table is None:
            with _TABLE_LOCK:
                table = self._table
                if table is None:
                    table = self._table = memoryview(self._build_table()).cast("i")
        return table

    def _build_table(self) -> bytes:
        """The int32 remoteness table from the planes, in row blocks (4 bytes a position).

        MemoryError, before allocating, where the memory guard says it will not fit.  A
        KeyboardInterrupt (Ctrl-C) between blocks stops it and leaves nothing behind.
        """
        self._layers_or_raise("the remoteness table")
        n = self.n
        nn = n * n
        need = 8 * nn
        if need > _ASK_ABOVE:  # (reading /proc/meminfo costs more than a small table)
            available, why = memory_limit()
            if available is not None and need > available:
                raise MemoryError(
                    f"the int32 remoteness table of {n} nodes needs {need} bytes (4 a "
                    f"position); only {available} are {why}: read remoteness(), the "
                    "exports or the planes instead")
        holder = _engine.current.Table(need)
        raw = holder.view()
        try:
            flat = raw.cast("i")
            at = 0
            for block in self._remoteness_blocks():
                flat[at:at + len(block)] = block
                at += len(block)
            flat.release()
        finally:
            raw.release()
        return holder.take()

    def _remoteness_rows(self, turn: int, first: int, count: int) -> Any:
        """Rows ``first..first+count-1`` of ``turn``'s int32 remoteness, from the planes
        (numpy ``(count, n)``, else ``array('i')``), -1 wherever the game never ends."""
        layers = self._layers_or_raise("remoteness")
        numpy = numpy_or_none()
        if numpy is not None:  # a plane at a time: a few bytes of temporaries a value
            return PlaneRows(numpy, layers, self._outcomes, self.n, self._rules).rows(
                turn, numpy.arange(first, first + count))
        rows = _planes.remoteness_rows(layers, self._outcomes, self.n, turn, first, count)
        return fix_never_ending(self._rules, self._outcomes, rows, turn,
                                range(first, first + count))

    def _remoteness_blocks(self) -> Iterator[memoryview]:
        """Every position's remoteness in index order, from the planes, as int32 blocks of
        rows (numpy's or array's)."""
        n = self.n
        step = _planes.block_rows(n)
        for turn in (0, 1):
            for first in range(0, n, step):
                rows = self._remoteness_rows(turn, first, min(step, n - first))
                yield memoryview(rows).cast("B").cast("i")

    def _remoteness_at(self, s: int) -> int:
        """Remoteness of position index ``s`` (-1 where the outcome is not a win)."""
        table = self._table
        if table is not None:
            return table[s]
        code = self._outcomes[s]
        if code != 1 and code != 2:
            return -1
        n = self._rules.n
        turn, rest = divmod(s, n * n)
        mouse, cat = divmod(rest, n)
        value = _planes.value_at(self._layers, n, turn, mouse, cat)  # type: ignore[arg-type]
        # 0 where the game goes on: a game that never ends, scored as a win by the draw rule.
        if not value and goes_on(self._rules, mouse, cat, turn):
            return -1
        return value

    @property
    def remoteness_table(self) -> memoryview:
        """Read-only ``int32`` buffer of shape ``(2, n, n)``: plies to the end of the game.

        Indexed ``[turn][mouse][cat]`` by node ids, as :attr:`outcomes`.

        -1 where the game never ends under optimal play (draws, and positions
        scored by the game's ``draw`` rule) and where the position does not exist.
        As with :attr:`outcomes`, :meth:`remoteness_for` gives one turn's view.
        ValueError for an analysis made with ``remoteness=False``.

        The analysis keeps remoteness in about a byte a position (bit-planes); this
        int32 table is built on first use and then kept: it allocates 4 bytes a
        position (72 MB at 3,000 nodes) and raises MemoryError, before allocating,
        where it would not fit.  :meth:`remoteness`, the exports and :meth:`line` do
        not need it.
        """
        n = self.n
        table = self._remoteness_or_raise("remoteness_table")
        return memoryview(table).toreadonly().cast("B").cast("i", (2, n, n))

    def outcomes_for(self, turn: Turn | int) -> memoryview:
        """Read-only ``uint8`` view of shape ``(n, n)``: ``[mouse][cat]`` with ``turn`` to move.

        Indexed by node ids, as :attr:`outcomes`.  Works without numpy
        (``view[mouse, cat]``, ``view.tolist()``).

        >>> import catmouse
        >>> a = catmouse.analyze([[1, 3], [0], [3], [0, 2]])
        >>> a.outcomes_for(Turn.MOUSE)[1, 2]
        1
        """
        n, t = self.n, self._turn(turn)
        return memoryview(self._outcomes)[t * n * n:(t + 1) * n * n].toreadonly().cast(
            "B", (n, n))

    def remoteness_for(self, turn: Turn | int) -> memoryview:
        """Read-only ``int32`` view of shape ``(n, n)``: ``[mouse][cat]`` with ``turn`` to move.

        Indexed by node ids, as :attr:`outcomes`.  Builds (and keeps) the int32 table of
        :attr:`remoteness_table` on first use: 4 bytes a position of both turns, and
        MemoryError where it would not fit.
        """
        n, t = self.n, self._turn(turn)
        flat = memoryview(self._remoteness_or_raise("remoteness_for()")).toreadonly().cast("B")
        return flat[4 * t * n * n:4 * (t + 1) * n * n].cast("i", (n, n))

    def _turn(self, turn: Any) -> Turn:
        if turn is None:
            return self._first
        return as_turn(turn)

    # -- single positions ----------------------------------------------------------

    def _where(self, mouse: Hashable, cat: Hashable, turn: Any) -> tuple[int, int, int, Turn]:
        """``(index, mouse id, cat id, turn)`` of a position named as the graph names nodes."""
        turn = self._turn(turn)
        s = self._rules.position(mouse, cat, turn)
        n = self.n
        rest = s - turn * n * n
        return s, rest // n, rest % n, turn

    def outcome(self, mouse: Hashable = DEFAULT_MOUSE, cat: Hashable = DEFAULT_CAT,
                turn: Turn | int | None = None) -> Outcome:
        """Who wins from this position with optimal play.

        Nodes are labels on a labelled graph (only labels), else ids; the starts default
        to LeetCode's mouse 1 and cat 2 by that name (as :meth:`line`), ``turn`` to the
        game's first mover (:attr:`first`).  Raises ValueError for a position that does
        not exist (the cat on the hole).
        """
        return Outcome(self._outcomes[self._where(mouse, cat, turn)[0]])

    def remoteness(self, mouse: Hashable = DEFAULT_MOUSE, cat: Hashable = DEFAULT_CAT,
                   turn: Turn | int | None = None) -> int | None:
        """Plies until the game ends with optimal play, or None if it never ends.

        Nodes and defaults as :meth:`outcome` takes them.

        The winner hurries and the loser delays; 0 where the game is already
        decided (including a mover with no legal move, who loses).
        """
        self._layers_or_raise("remoteness()")
        r = self._remoteness_at(self._where(mouse, cat, turn)[0])
        return None if r < 0 else r

    def best_moves(self, mouse: Hashable = DEFAULT_MOUSE, cat: Hashable = DEFAULT_CAT,
                   turn: Turn | int | None = None) -> list[Any]:
        """Every optimal destination for the player to move, in node order.

        Named as the graph names nodes: labels on a labelled graph, else ids (the
        arguments and their defaults as :meth:`outcome` takes them).

        Winning: the wins of least remoteness.  Drawing: the drawing moves.
        Losing: the moves of greatest remoteness.  Empty where the game is over.
        Without a remoteness table (``remoteness=False``): every winning move,
        every drawing move, or every move of a lost position.
        """
        _, mouse, cat, turn = self._where(mouse, cat, turn)
        moves = self._best_moves_at(mouse, cat, turn)
        labels = self.graph._labels
        return moves if labels is None else [labels[v] for v in moves]

    def _best_moves_at(self, mouse: int, cat: int, turn: Turn) -> list[int]:
        """:meth:`best_moves` of a position already checked (node ids, a Turn)."""
        rules = self._rules
        if rules.is_terminal(mouse, cat):
            return []
        win = _WIN_FOR[turn]
        outcomes = self._outcomes
        rem_at = _no_remoteness if self._layers is None else self._remoteness_at
        best: list[int] = []
        best_key = None
        for dest, child in rules.moves(mouse, cat, turn):
            value, r = outcomes[child], rem_at(child)
            # Larger key is better.  A game that never ends counts as infinitely
            # long: the worst win, the best loss.
            if value == 0:
                key: tuple[int, float] = (1, 0)
            elif value == win:
                key = (2, -r if r >= 0 else float("-inf"))
            else:
                key = (0, r if r >= 0 else float("inf"))
            if best_key is None or key > best_key:
                best, best_key = [dest], key
            elif key == best_key:
                best.append(dest)
        return sorted(best)

    def line(self, mouse: Hashable = DEFAULT_MOUSE, cat: Hashable = DEFAULT_CAT,
             turn: Turn | int | None = None) -> list[Position]:
        """One optimal game from a position, as ``(mouse, cat, turn)`` tuples.

        Nodes as the graph names them (labels on a labelled graph); the default
        starts are LeetCode's mouse 1 and cat 2 by that name.  ``turn`` defaults
        to the game's first mover.  Each step takes the first (in node order) of
        :meth:`best_moves`.  The line ends on the position that decides the
        game, or, for a game that never ends, just before a position would
        repeat.  Needs the remoteness table.
        """
        self._layers_or_raise("line()")
        _, m, c, t = self._where(mouse, cat, turn)
        line = self._line_at(m, c, t)
        labels = self.graph._labels
        if labels is None:
            return line
        return [(labels[m], labels[c], t) for m, c, t in line]

    def _line_at(self, mouse: int, cat: int, turn: Turn) -> list[Position]:
        """:meth:`line` from a position already checked, in node ids."""
        position = (mouse, cat, turn)
        seen = set()
        line = []
        while position not in seen:
            seen.add(position)
            line.append(position)
            m, c, t = position
            moves = self._best_moves_at(m, c, t)
            if not moves:
                break
            position = (moves[0], c, Turn.CAT) if t == Turn.MOUSE else (m, moves[0], Turn.MOUSE)
        return line

    # -- self-check --------------------------------------------------------------

    def verify(self, progress: Any = None) -> bool:
        """Re-derive every position from its moves; True, or raise VerificationError.

        ``progress``: True for a bar on stderr, or a callable ``progress(checked)``
        called as the positions are checked.

        A position where the game is over must say so with remoteness 0 (cat on
        mouse, mouse in the hole, cat on a goal, or a mover with no move, who
        loses).  Otherwise the mover wins if some move reaches a position won
        for them (remoteness 1 + the least such), loses if every move reaches
        one lost for them (1 + the greatest), and else the game never ends
        (remoteness -1, outcome the rules' draw score).  A table that passes
        is the exact solution: remoteness strictly falls along every winning
        line, so nothing can be won or lost in a cycle.

        The error names the contradicted position that comes first in this
        order: positions wrong whatever their moves say (a bad outcome code,
        a game over, the cat on a forbidden node), then by the smaller of the
        remoteness claimed and the one its moves give, then by index.  A table
        with one wrong outcome is named exactly.

        Remoteness is read from the planes a block of rows at a time (or from
        :attr:`remoteness_table` if it was built): verify never builds the
        int32 table.  With numpy it holds the cat-to-move half's scores while
        it runs (a byte a position within 255 plies) and about 16 MB more.

        >>> import catmouse
        >>> catmouse.analyze([[1, 3], [0], [3], [0, 2]]).verify()
        True
        """
        layers = self._layers_or_raise("verify()")
        rules = self._rules
        n = rules.n
        nn = n * n
        if not n:
            return True
        callback = as_callback(progress, 2 * nn, "verify")
        every = max(1, n // 50)  # about a hundred reports in all, whatever n
        numpy = numpy_or_none()
        table = self._table
        if numpy is not None:  # the same check in arrays, many times faster
            if table is not None:
                read, longest = table_rows(numpy, table, n)
            else:
                planes = PlaneRows(numpy, layers, self._outcomes, n, rules)
                read, longest = planes.rows, planes.largest
            found = worst_numpy(numpy, self._outcomes, read, longest, rules, callback, every)
            return self._verdict(found, callback)
        remoteness = table if table is not None else chain.from_iterable(self._remoteness_blocks())
        flags = rules.flags
        draw = int(rules.draw)
        never, top, bad, none = _NEVER, _TOP, _BAD, _NO_POSITION
        view = [
            (top - r if o == 1 else r if o == 2 else bad) if r >= 0
            else (never if o == draw else none if o == 3 else bad) if r == -1
            else bad
            for o, r in zip(self._outcomes, remoteness)
        ]
        forbidden = [c for c in range(n) if flags[c] & CAT_FORBIDDEN]
        goals = [c for c in range(n) if flags[c] & CAT_GOAL]
        holes = [m for m in range(n) if flags[m] & HOLE]
        mouse_rows = rules.mouse_graph._rows()
        cat_rows = [
            [v for v in row if not flags[v] & CAT_FORBIDDEN] for row in rules.cat_graph._rows()
        ]
        worst: tuple = ()

        def check(expected: list[int], actual: list[int], first: int, step: int) -> None:
            nonlocal worst
            for k, (e, a) in enumerate(zip(expected, actual)):
                if e != a:
                    s = first + k * step
                    r = self._remoteness_at(s)
                    t, rest = divmod(s, nn)
                    m, c = divmod(rest, n)
                    moves = cat_rows[c] if t else mouse_rows[m]
                    # Wrong whatever the children say: name these first.
                    fixed = (a in (bad, none) or e == none or not moves
                             or rules.is_terminal(m, c))
                    given = (top - e if e > never else e if 0 <= e < never else _TOP)
                    key = (not fixed, min(r if r >= 0 else _TOP, given), s, e)
                    if not worst or key < worst:
                        worst = key

        def settle(best: Any) -> list[int]:
            return [b - 1 if b > never else b + 1 if b < never else never for b in best]

        # Mouse to move at (m, c): children (v, c, CAT), rows of the cat-to-move table.
        cat_to_move = [view[nn + m * n : nn + m * n + n] for m in range(n)]
        for m in range(n):
            children = [cat_to_move[v] for v in mouse_rows[m]]
            if not children:
                expected = [0] * n  # no move: the mouse loses at once
            elif len(children) == 1:
                expected = settle(children[0])
            else:
                expected = settle(map(max, *children))
            for c in goals:
                expected[c] = 0
            if flags[m] & HOLE:
                expected = [top] * n
            expected[m] = 0
            for c in forbidden:
                expected[c] = none
            check(expected, view[m * n : m * n + n], m * n, 1)
            if callback is not None and m % every == 0:
                callback((m + 1) * n)

        # Cat to move at (m, c): children (m, v, MOUSE) over the cat's legal v,
        # columns of the mouse-to-move table, so work on columns.
        mouse_to_move = [view[c:nn:n] for c in range(n)]
        for c in range(n):
            if flags[c] & CAT_FORBIDDEN:
                expected = [none] * n
            else:
                children = [mouse_to_move[v] for v in cat_rows[c]]
                if not children:
                    expected = [top] * n  # no move: the cat loses at once
                elif len(children) == 1:
                    expected = settle(children[0])
                else:
                    expected = settle(map(min, *children))
                if flags[c] & CAT_GOAL:
                    expected = [0] * n
                for m in holes:
                    expected[m] = top
                expected[c] = 0
            check(expected, view[nn + c : 2 * nn : n], nn + c, n)
            if callback is not None and c % every == 0:
                callback(nn + (c + 1) * n)

        return self._verdict(worst, callback)

    def _verdict(self, worst: tuple, callback: Callable[[int], object] | None) -> bool:
        """True for no contradiction, else the VerificationError naming the ``worst``."""
        n = self.n
        nn = n * n
        finish(callback, 2 * nn)
        if not worst:
            return True
        draw = int(self._rules.draw)
        never, top, none = _NEVER, _TOP, _NO_POSITION
        s, e = worst[2], worst[3]
        t, rest = divmod(s, nn)
        m, c = divmod(rest, n)
        name = self.graph._name
        position = (name(m), name(c), Turn(t))
        found = self._describe(self._outcomes[s], self._remoteness_at(s))
        if e == none:
            want = "no position (the cat may not stand there)"
        elif e == never:
            want = self._describe(draw, -1)
        elif e > never:
            want = self._describe(Outcome.MOUSE_WIN, top - e)
        else:
            want = self._describe(Outcome.CAT_WIN, e)
        raise VerificationError(
            f"position (mouse={position[0]!r}, cat={position[1]!r}, turn={Turn(t).name}) "
            "is wrong: "
            f"the table says {found}, but its moves give {want}",
            position,
        )

    def _describe(self, code: int, remoteness: int) -> str:
        if code == 3:
            return "NO_POSITION (the cat on a node it may not enter)"
        name = Outcome(code).name if code in (0, 1, 2) else f"code {code}"
        if remoteness == -1:
            return f"{name}, never ending"
        return f"{name} in {remoteness} {'ply' if remoteness == 1 else 'plies'}"

    # -- export ------------------------------------------------------------------------

    def to_json(self) -> str:
        """The table and its rules as JSON: ``outcomes`` and ``remoteness`` as nested
        lists ``[turn][mouse][cat]``, with the codes explained under ``*_codes``.

        >>> import catmouse, json
        >>> data = json.loads(catmouse.analyze([[1, 3], [0], [3], [0, 2]]).to_json())
        >>> data["n"], data["holes"], data["outcomes"][0][1][2]
        (4, [0], 1)
        """
        from .io.export import to_json

        return to_json(self)

    def save(self, path: str | os.PathLike[str], progress: Any = None, *,
             format: str | None = None) -> None:
        """Write the table to ``path``, in the format its suffix names (or ``format``:
        ``"json"``, ``"csv"`` or ``"npz"``, for a path such as ``/dev/stdout``).

        ``.json`` (as :meth:`to_json`), ``.csv`` (one row per position: mouse,
        cat, turn, outcome, remoteness, best moves, by id; a labelled graph adds
        each id's label in ``mouse_label`` and ``cat_label``) or ``.npz`` (numpy
        arrays ``outcomes`` and ``remoteness``, the rules as in the JSON, ``labels``
        and ``labels_json`` on a labelled graph; needs numpy, else ImportError).  Any
        other suffix is a ValueError: nothing is written in the wrong format.
        ``progress``: True for a bar on stderr, or a callable ``progress(positions)``
        called as the table is written (as :func:`catmouse.analyze` takes it).

        >>> import catmouse, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "table.csv")
        >>> catmouse.analyze([[1, 3], [0], [3], [0, 2]]).save(path)
        >>> open(path).readline().strip()
        'mouse,cat,turn,outcome,remoteness,best_moves'
        """
        from .io.export import save

        save(self, path, progress, format)

    # -- summaries, pickling ---------------------------------------------------------

    def counts(self) -> dict[Outcome, int]:
        """How many positions each outcome has (positions that do not exist excluded)."""
        data = self._outcomes
        return {o: data.count(int(o)) for o in Outcome}

    def __repr__(self) -> str:
        counts = ", ".join(f"{o.name.lower()}={k}" for o, k in self.counts().items())
        return f"<Analysis of {self.n} nodes: {counts}>"


    def __reduce__(self) -> tuple[Any, ...]:
        # The planes' words little-endian, marked so: a pickle reads the same anywhere.
        layers = (None if self._layers is None
                  else tuple(_planes.to_little(layer) for layer in self._layers))
        state = (self._rules, self._outcomes, layers, int(self._first), STORED_ORDER,
                 _PLANES_MARK)
        return (_unpickle_analysis, state)


def _unpickle_analysis(rules: Rules, outcomes: bytes, remoteness: Any,
                       first: int = 0, order: str = STORED_ORDER,
                       form: str = "int32") -> Analysis:
    # A pickle is input like any other: the constructor's checks, then the codes.  Planes
    # (0.3.0 on) come as little-endian layers; before them an int32 table, read in the
    # byte order marked (0.2.0), or little-endian without a mark (0.1.0).
    if type(outcomes) is not bytes:
        raise ValueError("pickled Analysis tables are not bytes")
    if form == _PLANES_MARK:
        if remoteness is not None and (type(remoteness) is not tuple or any(
                type(layer) is not bytes for layer in remoteness)):
            raise ValueError("pickled Analysis planes are not a tuple of bytes")
        if remoteness is not None:
            remoteness = [_planes.from_little(layer) for layer in remoteness]
    elif form != "int32":
        raise ValueError(f"pickled Analysis remoteness of unknown form {form!r}")
    elif remoteness is not None:
        if type(remoteness) is not bytes:
            raise ValueError("pickled Analysis tables are not bytes")
        remoteness = native(remoteness, order)
        if len(remoteness) % 4 == 0 and min(memoryview(remoteness).cast("i"), default=0) < -1:
            raise ValueError("pickled Analysis tables hold codes no solve gives")
    # The constructor's checks (the rules, the sizes), then the codes; cheap ones only:
    # Analysis.verify() re-derives every entry.
    analysis = Analysis(rules, outcomes, remoteness, Turn(first))
    check_codes(rules, outcomes)
    return analysis
