"""The game of k cops and a robber as objects: :class:`CopsGame` and its :class:`CopsAnalysis`.

A position is ``(cops, robber, turn)``: ``cops`` the team's nodes (a multiset, given in any
order, returned sorted by node id), ``robber`` his node, ``turn`` :data:`CopsTurn.COPS` when
the cops move and :data:`CopsTurn.ROBBER` when the robber does.  Outcomes are
:data:`CopsOutcome.COPS_WIN` (the cops capture) or :data:`CopsOutcome.ROBBER_WIN` (the robber
escapes forever); remoteness is the capture time in plies.  The values are those of
``Turn.CAT``/``Turn.MOUSE`` and ``Outcome.CAT_WIN``/``Outcome.MOUSE_WIN`` (the cops are the
cats of the family), which are taken and compare equal.  Nodes in and out are the graph's
labels, as everywhere in catmouse.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from functools import cached_property
from itertools import product
from typing import Any, cast

from .. import engine
from ..analysis import VerificationError
from ..display import Displayed
from ..engine.cops_checks import (
    MAX_COP_NODES,
    PliesPastByte,
    check_cops,
    cops_rows,
    cops_text,
)
from ..engine.facts import SMALL_TABLES
from ..graph import Graph, as_graph
from ..graph_checks import STORED_ORDER, native, stored
from ..outcome import enum_member
from ..rules import memory_limit, why_short
from .limits import check_cop_threads, check_max_memory
from .plies import Plies
from .sides import CopsOutcome, CopsTurn

__all__ = ["CopsGame", "CopsAnalysis"]

CopsPosition = tuple[tuple[Any, ...], Any, CopsTurn]


def _teams(n: int, k: int) -> list[tuple[int, ...]]:
    """The engine's rows: sorted k-tuples of node ids, in colex order (by the largest node,
    then the rest in colex order), built in that order: no sort."""
    teams: list[tuple[int, ...]] = [()]
    for size in range(1, k + 1):
        # Each (size - 1)-team ending at or below v, in colex order, comes before v.
        ends = [0] * (n + 1)  # ends[v]: how many of the shorter teams end below node v
        for team in teams:
            ends[team[-1] + 1 if team else 0] += 1
        for v in range(n):
            ends[v + 1] += ends[v]
        teams = [(*rest, v) for v in range(n) for rest in teams[:ends[v + 1]]]
    return teams


class CopsGame(Displayed):
    """Cops and robber with ``cops`` cops on an undirected graph of at most 1024 nodes.

    The cops place themselves (several may share a node), the robber places himself, then
    the cops move first: each cop along an edge or staying, then the robber likewise.  The
    cops win when one stands on the robber.  In a notebook a game shows its analysis's
    picture (see :class:`CopsAnalysis`); past 150 nodes or 600 edges, a summary.

    >>> game = CopsGame([[1, 3], [0, 2], [1, 3], [0, 2]], cops=2)   # the 4-cycle
    >>> game.analyze().winning_starts()[:2]
    [(0, 0), (0, 1)]
    """

    def __init__(self, graph: Any, cops: int = 1):
        graph = as_graph(graph)
        if graph.directed:
            raise ValueError("cops and robber needs an undirected graph")
        if graph.n > MAX_COP_NODES:
            raise ValueError(f"a graph of {graph.n} nodes: the cops' engine takes at most "
                             f"{MAX_COP_NODES}")
        self._graph = graph
        self._cops = check_cops(cops)

    @property
    def graph(self) -> Graph:
        """The board."""
        return self._graph

    @property
    def cops(self) -> int:
        """How many cops the team has."""
        return self._cops

    def analyze(self, *, max_memory: int | None = None,
                threads: int | None = None) -> CopsAnalysis:
        """Solve every position; MemoryError, before allocating, if the tables would not fit.

        ``threads`` splits each round over that many threads (the compiled engine, at most
        64 nodes): the tables are the same byte for byte for every count.  None (the default)
        leaves the count to the engine: every usable CPU for a big search, one for a small
        one or when the others are busy (``catmouse.cops.limits.check_cop_threads``).
        ``max_memory`` (bytes) caps the memory the tables may take; by default, the memory
        available (or what ``ulimit -v`` leaves, if less).  Ctrl-C stops the search within a round.
        """
        graph, k = self._graph, self._cops
        threads = check_cop_threads(threads)
        max_memory = check_max_memory(max_memory)
        size = 2 * cops_rows(graph.n, k) * graph.n

        def search(outcomes: memoryview, table: memoryview | None) -> None:
            engine.current.cops_search(graph.n, graph.indptr, graph.indices, k, outcomes,
                                       table, threads=threads)

        # The search writes every entry of both tables, so their block is not cleared first:
        # the allocator may then hand back the last call's, already faulted in (the 6-cube
        # with 3 cops, paired: 0.82 of the time on two threads, 0.87 on one).
        why = self._room(self.need_bytes(threads=threads), max_memory)
        try:
            try:
                block = engine.run_into_block(size, 1, search)
            except PliesPastByte:
                # A capture more than 254 plies away: again, four bytes a position.
                why = self._room(self.need_bytes(threads=threads, plies_bytes=4), max_memory)
                block = engine.run_into_block(size, 4, search)
        except MemoryError as error:  # the check passed, an allocation failed: say why
            raise why_short(error, why) from None
        return CopsAnalysis(self, block)

    def _room(self, need: int, max_memory: int | None) -> str:
        """MemoryError if ``need`` bytes pass ``max_memory`` or, by default, the memory
        available; else why the budget is what it is (for a later allocation's error)."""
        # Reading /proc/meminfo costs more than a small search (as check_memory's floor).
        budget, why = ((max_memory, "allowed by max_memory") if max_memory is not None
                       else memory_limit() if need > SMALL_TABLES else (None, ""))
        if budget is not None and need > budget:
            graph, k = self._graph, self._cops
            raise MemoryError(f"{cops_text(k)} on {graph.n} nodes: {self.positions():,} "
                              f"positions need about {need:,} bytes, more than the "
                              f"{budget:,} {why}")
        return why

    def positions(self) -> int:
        """How many positions the game has: ``2 * C(n + cops - 1, cops) * n`` (the pages
        and the command line refuse a game too large to show before solving it).

        >>> CopsGame([[1], [0, 2], [1]], cops=2).positions()   # 6 teams, 3 robber nodes
        36
        """
        return 2 * cops_rows(self._graph.n, self._cops) * self._graph.n

    def need_bytes(self, *, threads: int | None = None, plies_bytes: int = 1) -> int:
        """About the bytes :meth:`analyze` takes at its peak: its tables (an outcome byte and
        a remoteness byte a position) and the engine's.  A game with a capture more than 254
        plies away is searched again with four bytes of remoteness a position
        (``plies_bytes=4``: three more a position)."""
        n, k = self._graph.n, self._cops
        return ((1 + plies_bytes) * self.positions()
                + 3 * engine.current.cops_peak_bytes(n, k, threads=check_cop_threads(threads)))

    def __repr__(self) -> str:
        return f"CopsGame(<{self._graph.n} nodes>, cops={self._cops})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle_cops_game, (self._graph, self._cops))

    def __setstate__(self, state: Any) -> None:
        # 0.2.0's pickles held the instance's dict: checked as a new pickle is.
        if not isinstance(state, dict) or set(state) != {"_graph", "_cops"}:
            raise ValueError("a pickled CopsGame holds _graph and _cops, nothing else")
        checked = _unpickle_cops_game(state["_graph"], state["_cops"])
        self._graph, self._cops = checked._graph, checked._cops


def _unpickle_cops_game(graph: Any, cops: Any) -> CopsGame:
    """A pickle is input like any other: a Graph and the constructor's checks."""
    if not isinstance(graph, Graph):
        raise TypeError(f"a pickled CopsGame needs a Graph, not {type(graph).__name__}")
    return CopsGame(graph, cops)


class CopsAnalysis(Displayed):
    """Every position of a :class:`CopsGame`: outcome, remoteness, best moves, a line.

    In a notebook it shows the board with the team on :meth:`best_start`'s nodes, the robber
    on his best reply, and the optimal line from there; past 150 nodes or 600 edges, a
    summary (how many cop starts win) instead.
    """

    def __init__(self, game: CopsGame, outcomes: bytes, remoteness: bytes | None = None):
        """The tables as two bytes objects (a pickle's), or as the search's one block in
        ``outcomes`` (engine.run_into_block: the remoteness, then the outcomes)."""
        self._game = game
        graph = game.graph
        self._n = graph.n
        size = game.positions()
        self._block = outcomes
        self._at = 0 if remoteness is not None else len(outcomes) - size  # (the outcomes')
        whole = memoryview(outcomes)
        self._outcomes = whole[self._at:self._at + size]
        self._remoteness = Plies(whole[:self._at] if remoteness is None else remoteness, size)

    def _count(self, code: int, start: int = 0, end: int | None = None) -> int:
        """How many outcomes of ``start:end`` are ``code`` (counted in C, by bytes.count)."""
        end = len(self._outcomes) if end is None else end
        return self._block.count(bytes([code]), self._at + start, self._at + end)

    @cached_property
    def _closed(self) -> list[tuple[int, ...]]:
        """Each node's closed neighbourhood, sorted: built on first use (a fifth of a small
        analysis's call, where many are counted and never asked for a move)."""
        rows = self._game.graph._rows()
        return [tuple(sorted({u, *rows[u]})) for u in range(self._n)]

    @cached_property
    def _teams(self) -> list[tuple[int, ...]]:
        """The teams by row: built on first use (on the 6-cube with 3 cops, 45,760 tuples
        took as long as the search on two threads)."""
        return _teams(self._n, self._game.cops)

    @cached_property
    def _row(self) -> dict[tuple[int, ...], int]:
        """Each team's row: built on first use (a third of a small analysis's time)."""
        return {team: i for i, team in enumerate(self._teams)}

    @property
    def game(self) -> CopsGame:
        """The game analysed."""
        return self._game

    def counts(self) -> dict[CopsOutcome, int]:
        """How many positions each side wins (both turns).

        >>> CopsGame([[1], [0]], cops=1).analyze().counts()
        {<CopsOutcome.COPS_WIN: 2>: 8, <CopsOutcome.ROBBER_WIN: 1>: 0}
        """
        return {side: self._count(side) for side in (CopsOutcome.COPS_WIN, CopsOutcome.ROBBER_WIN)}

    def __repr__(self) -> str:
        counts = ", ".join(f"{side.name.lower()}={k}" for side, k in self.counts().items())
        k = self._game.cops
        return f"<CopsAnalysis of {cops_text(k)} on {self._n} nodes: {counts}>"

    def __reduce__(self) -> tuple[Any, ...]:
        # A byte a position as it is; int32 little-endian, marked so (as Analysis' pickles).
        table = self._remoteness.tobytes()
        rem = table if self._remoteness.narrow else stored(table)
        return (_unpickle_cops_analysis,
                (self._game, self._outcomes.tobytes(), rem, STORED_ORDER))

    # -- naming positions ---------------------------------------------------------------

    def _node(self, value: Any, what: str) -> int:
        graph = self._game.graph
        return graph._check_node(graph._id_of(value, what), what)

    def _team(self, cops: Any) -> tuple[int, ...]:
        members = None
        if not isinstance(cops, (str, bytes)):  # (one name, not a team of its letters)
            with contextlib.suppress(TypeError):
                members = list(cops)
        if members is None:
            raise TypeError(f"cops must be the team's nodes, one a cop (e.g. (0, 3)), not "
                            f"{type(cops).__name__} {cops!r}")
        team = tuple(sorted(self._node(c, "cop") for c in members))
        if len(team) != self._game.cops:
            raise ValueError(f"the team has {cops_text(self._game.cops)}, got {len(team)} nodes")
        return team

    def _index(self, team: tuple[int, ...], robber: int, turn: CopsTurn) -> int:
        rows = len(self._teams)
        return int(turn == CopsTurn.COPS) * rows * self._n + self._row[team] * self._n + robber

    def _where(self, cops: Any, robber: Any,
               turn: Any) -> tuple[tuple[int, ...], int, CopsTurn]:
        side = turn if type(turn) is CopsTurn else enum_member(
            CopsTurn, turn, "turn", "CopsTurn.ROBBER (0) or CopsTurn.COPS (1)")
        return self._team(cops), self._node(robber, "robber"), side

    def _names(self, team: tuple[int, ...]) -> tuple[Any, ...]:
        return tuple(self._game.graph._name(u) for u in team)

    # -- reading ------------------------------------------------------------------------

    def outcome(self, cops: Any, robber: Any,
                turn: CopsTurn | int = CopsTurn.COPS) -> CopsOutcome:
        """COPS_WIN if the cops capture the robber from here, ROBBER_WIN if he escapes."""
        return CopsOutcome(self._outcomes[self._index(*self._where(cops, robber, turn))])

    def remoteness(self, cops: Any, robber: Any,
                   turn: CopsTurn | int = CopsTurn.COPS) -> int | None:
        """Plies until capture with optimal play (0: a cop is on him), None if never."""
        r = self._remoteness[self._index(*self._where(cops, robber, turn))]
        return None if r < 0 else r

    def winning_starts(self) -> list[tuple[Any, ...]]:
        """Every cop start that catches the robber wherever he starts, in engine row order.

        >>> CopsGame([[1, 2], [0, 2], [0, 1]], cops=1).analyze().winning_starts()
        [(0,), (1,), (2,)]
        """
        return [self._names(self._teams[row]) for row in self._winning_rows()]

    def _winning_rows(self) -> list[int]:
        """The engine rows of winning_starts."""
        n, base = self._n, len(self._teams) * self._n
        full = bytes([CopsOutcome.COPS_WIN]) * n
        return [i for i in range(len(self._teams))
                if self._outcomes[base + i * n:base + (i + 1) * n] == full]

    def best_start(self) -> tuple[tuple[Any, ...], Any]:
        """The team's best start and the robber's best reply to it: ``(cops, robber)``.

        The team leaves the fewest robber starts that escape, then (all caught) the
        shortest longest capture; the robber then escapes if he can, else picks the latest
        capture.  Ties go to the first in engine row order and the smallest node id.

        >>> CopsGame([[1], [0, 2], [1]], cops=1).analyze().best_start()   # the path 0 - 1 - 2
        ((1,), 0)
        """
        n, base = self._n, len(self._teams) * self._n
        if n == 0:
            raise ValueError("a graph without nodes has no start")
        best_key, best_row = None, 0
        for row in range(len(self._teams)):
            at = base + row * n
            escapes = self._count(CopsOutcome.ROBBER_WIN, at, at + n)
            if best_key is not None and escapes > best_key[0]:
                continue  # the slow part (the longest capture) only for contenders
            key = (escapes, max(self._remoteness[at:at + n]))
            if best_key is None or key < best_key:
                best_key, best_row = key, row
        robber = self._robber_start(best_row)
        return self._names(self._teams[best_row]), self._game.graph._name(robber)

    def _robber_start(self, row: int) -> int:
        """The robber's best start against the team of engine row ``row`` (a node id): an
        escape if he has one, else the latest capture; the smallest id of the ties."""
        at = (len(self._teams) + row) * self._n

        def reply(robber: int) -> tuple[bool, int]:
            return (self._outcomes[at + robber] == CopsOutcome.ROBBER_WIN,
                    self._remoteness[at + robber])
        return max(range(self._n), key=reply)

    def _children(self, team: tuple[int, ...], robber: int, turn: CopsTurn) -> list[Any]:
        if turn == CopsTurn.COPS:
            return sorted({tuple(sorted(t)) for t in product(*(self._closed[u] for u in team))})
        return list(self._closed[robber])

    def _best(self, team: tuple[int, ...], robber: int, turn: CopsTurn) -> list[Any]:
        if robber in team:
            return []
        keyed = []
        for child in self._children(team, robber, turn):
            if turn == CopsTurn.COPS:
                at = self._index(child, robber, CopsTurn.ROBBER)
            else:
                at = self._index(team, child, CopsTurn.COPS)
            r = self._remoteness[at]
            won = self._outcomes[at] == CopsOutcome.COPS_WIN
            # The cops want a capture soonest; the robber an escape, else the latest capture.
            key = (-r if won else float("-inf")) if turn == CopsTurn.COPS else (
                float("inf") if not won else r)
            keyed.append((key, child))
        best = max(key for key, _ in keyed)
        moves = [child for key, child in keyed if key == best]
        if turn == CopsTurn.COPS:
            # The teams that keep most of the team's nodes first: without this the first
            # capture sent every cop onto the robber ("1, 4, 5 -> 0, 0, 0", seen drawn).
            held: Counter[int] = Counter(team)

            def kept(child: tuple[int, ...]) -> int:
                return sum((Counter(child) & held).values())
            moves.sort(key=lambda child: -kept(child))
        return moves

    def best_moves(self, cops: Any, robber: Any,
                   turn: CopsTurn | int = CopsTurn.COPS) -> list[Any]:
        """Optimal moves of the side to move: teams (sorted tuples) or robber nodes.

        Robber nodes come in node order; teams with the most nodes in common with the team
        first (the fewest cops moving, as near as a count of shared nodes tells), then in
        tuple order.

        >>> a = CopsGame([[1], [0, 2], [1]], cops=1).analyze()     # the path 0 - 1 - 2
        >>> a.best_moves([0], 2), a.best_moves([1], 2, CopsTurn.ROBBER)
        ([(1,)], [2])
        """
        team, robber_id, turn = self._where(cops, robber, turn)
        best = self._best(team, robber_id, turn)
        if turn == CopsTurn.COPS:
            return [self._names(t) for t in best]
        return [self._game.graph._name(v) for v in best]

    def line(self, cops: Any, robber: Any,
             turn: CopsTurn | int = CopsTurn.COPS) -> list[CopsPosition]:
        """One optimal game from a position, first best move each ply, to capture or a repeat.

        >>> CopsGame([[1], [0, 2], [1]], cops=1).analyze().line([0], 2)
        [((0,), 2, <CopsTurn.COPS: 1>), ((1,), 2, <CopsTurn.ROBBER: 0>), \
((1,), 2, <CopsTurn.COPS: 1>), ((2,), 2, <CopsTurn.ROBBER: 0>)]
        """
        team, robber_id, turn = self._where(cops, robber, turn)
        seen, line = set(), []
        position = (team, robber_id, turn)
        while position not in seen:
            seen.add(position)
            line.append(position)
            team, robber_id, turn = position
            best = self._best(team, robber_id, turn)
            if not best:
                break
            if turn == CopsTurn.COPS:
                position = (best[0], robber_id, CopsTurn.ROBBER)
            else:
                position = (team, best[0], CopsTurn.COPS)
        name = self._game.graph._name
        return [(self._names(t), name(r), turn) for t, r, turn in line]

    def to_json(self) -> str:
        """The tables as JSON (the keys: ``catmouse.cops.export.cops_dict``).

        >>> import json
        >>> data = json.loads(CopsGame([[1], [0]], cops=1).analyze().to_json())
        >>> data["teams"], data["outcomes"][1]
        ([[0], [1]], [[2, 2], [2, 2]])
        """
        from .export import cops_json_blocks

        return "".join(cops_json_blocks(self))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the tables to ``path``: ``.json`` as :meth:`to_json`, or ``.csv``, one row
        per position (``cop1`` .. ``copk``, robber, turn, winner, remoteness, then the same
        nodes by id, ``cop1_id`` .. ``copk_id`` and ``robber_id``: two labels may print
        alike)."""
        from .export import save_cops

        save_cops(self, path)

    def verify(self) -> bool:
        """Re-derive every position from its moves; True, or raise VerificationError."""
        for team in self._teams:
            for robber in range(self._n):
                for turn in (CopsTurn.ROBBER, CopsTurn.COPS):
                    self._check(team, robber, turn)
        return True

    def _check(self, team: tuple[int, ...], robber: int, turn: CopsTurn) -> None:
        at = self._index(team, robber, turn)
        got = (self._outcomes[at], self._remoteness[at])
        if robber in team:
            expected = (CopsOutcome.COPS_WIN, 0)
        else:
            values = []
            for child in self._children(team, robber, turn):
                c = (self._index(child, robber, CopsTurn.ROBBER) if turn == CopsTurn.COPS
                     else self._index(team, child, CopsTurn.COPS))
                values.append(self._remoteness[c] if self._outcomes[c] == CopsOutcome.COPS_WIN
                              else None)
            caught = [v for v in values if v is not None]
            if turn == CopsTurn.COPS:
                expected = (CopsOutcome.COPS_WIN, 1 + min(caught)) if caught else (
                    CopsOutcome.ROBBER_WIN, -1)
            else:
                expected = (CopsOutcome.COPS_WIN, 1 + max(caught)) if len(caught) == len(
                    values) else (CopsOutcome.ROBBER_WIN, -1)
        if got != expected:
            position = (self._names(team), self._game.graph._name(robber), turn)
            raise VerificationError(
                f"position {position}: outcome {got[0]} and remoteness {got[1]}, but its "
                f"moves give {int(expected[0])} and {expected[1]}",
                cast(Any, position))  # (cops, robber, CopsTurn): the cops' own position


def _unpickle_cops_analysis(game: Any, outcomes: Any, remoteness: Any,
                            order: Any = STORED_ORDER) -> CopsAnalysis:
    """A pickle is input like any other: Analysis' checks (the types, the sizes, the codes;
    ``verify()`` re-derives every entry)."""
    if not isinstance(game, CopsGame):
        raise TypeError(f"a pickled CopsAnalysis needs a CopsGame, not {type(game).__name__}")
    if type(outcomes) is not bytes or type(remoteness) is not bytes:
        raise ValueError("pickled CopsAnalysis tables are not bytes")
    size = game.positions()
    if len(outcomes) != size:
        raise ValueError(f"the outcome table has {len(outcomes)} entries for {size} positions")
    if len(remoteness) not in (size, 4 * size):
        raise ValueError(f"the remoteness table has {len(remoteness)} bytes for {size} "
                         "positions (one a position, or four: int32)")
    codes = bytes([CopsOutcome.ROBBER_WIN, CopsOutcome.COPS_WIN])
    # int32: a game past 254 plies (and this version's pickles before the byte form)
    wide = len(remoteness) == 4 * size and size > 0
    native(b"", order)  # (the marker is checked even where a byte a position has no order)
    if wide:
        remoteness = native(remoteness, order)
    if outcomes.translate(None, codes) or (wide and min(memoryview(remoteness).cast("i")) < -1):
        raise ValueError("pickled CopsAnalysis tables hold codes no search gives")
    return CopsAnalysis(game, outcomes, remoteness)
