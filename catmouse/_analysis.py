"""Analysis: every position's outcome and remoteness, and the queries on them."""

from __future__ import annotations

from array import array
from typing import Any

from ._graph import Graph
from ._outcome import Outcome, Turn
from ._rules import Rules

__all__ = ["Analysis", "Position"]

Position = tuple[int, int, Turn]

_WIN_FOR = {Turn.MOUSE: Outcome.MOUSE_WIN, Turn.CAT: Outcome.CAT_WIN}


class Analysis:
    """The solved table of a game: one entry per position ``(mouse, cat, turn)``.

    Built by :func:`catmouse.analyze` or :meth:`catmouse.Game.analyze`.

    >>> import catmouse
    >>> a = catmouse.analyze([[1, 3], [0], [3], [0, 2]])
    >>> a.outcome(1, 2)
    <Outcome.MOUSE_WIN: 1>
    >>> a.remoteness(1, 2), a.best_moves(1, 2), a.line()
    (1, [0], [(1, 2, <Turn.MOUSE: 0>), (0, 2, <Turn.CAT: 1>)])
    """

    __slots__ = ("_rules", "_outcomes", "_remoteness")

    def __init__(self, rules: Rules, outcomes: bytearray, remoteness: array):
        self._rules = rules
        self._outcomes = outcomes
        self._remoteness = remoteness

    # -- the tables -------------------------------------------------------------

    @property
    def graph(self) -> Graph:
        """The graph the mouse moves on (the cat's too, unless the game gave it another)."""
        return self._rules.mouse_graph

    @property
    def n(self) -> int:
        """Number of nodes."""
        return self._rules.n

    @property
    def outcomes(self) -> memoryview:
        """Read-only ``uint8`` buffer of shape ``(2, n, n)``, indexed ``[turn][mouse][cat]``.

        Values are :class:`Outcome` codes (0 draw, 1 mouse wins, 2 cat wins) and
        3 where the position does not exist (the cat on a node it may not enter).
        ``numpy.asarray(a.outcomes)`` views it without copying.
        """
        n = self.n
        return memoryview(self._outcomes).toreadonly().cast("B", (2, n, n))

    @property
    def remoteness_table(self) -> memoryview:
        """Read-only ``int32`` buffer of shape ``(2, n, n)``: plies to the end of the game.

        -1 where the game never ends under optimal play (draws, and positions
        scored by the game's ``draw`` rule) and where the position does not exist.
        """
        n = self.n
        return memoryview(self._remoteness).toreadonly().cast("B").cast("i", (2, n, n))

    # -- single positions ----------------------------------------------------------

    def outcome(self, mouse: int, cat: int, turn: Turn | int = Turn.MOUSE) -> Outcome:
        """Who wins from this position with optimal play.

        Raises ValueError for a position that does not exist (the cat on the hole).
        """
        return Outcome(self._outcomes[self._rules.position(mouse, cat, turn)])

    def remoteness(self, mouse: int, cat: int, turn: Turn | int = Turn.MOUSE) -> int | None:
        """Plies until the game ends with optimal play, or None if it never ends.

        The winner hurries and the loser delays; 0 where the game is already
        decided (including a mover with no legal move, who loses).
        """
        r = self._remoteness[self._rules.position(mouse, cat, turn)]
        return None if r < 0 else r

    def best_moves(self, mouse: int, cat: int, turn: Turn | int = Turn.MOUSE) -> list[int]:
        """Every optimal destination for the player to move, sorted.

        Winning: the wins of least remoteness.  Drawing: the drawing moves.
        Losing: the moves of greatest remoteness.  Empty where the game is over.
        """
        rules = self._rules
        rules.position(mouse, cat, turn)
        turn = Turn(turn)
        if rules.is_terminal(mouse, cat):
            return []
        win = _WIN_FOR[turn]
        outcomes, rem = self._outcomes, self._remoteness
        best: list[int] = []
        best_key = None
        for dest, child in rules.moves(mouse, cat, turn):
            value, r = outcomes[child], rem[child]
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

    def line(self, mouse: int = 1, cat: int = 2, turn: Turn | int = Turn.MOUSE) -> list[Position]:
        """One optimal game from a position, as ``(mouse, cat, turn)`` tuples.

        Each step takes the smallest of :meth:`best_moves`.  The line ends on the
        position that decides the game, or, for a game that never ends, just
        before a position would repeat.
        """
        self._rules.position(mouse, cat, turn)
        position = (int(mouse), int(cat), Turn(turn))
        seen = set()
        line = []
        while position not in seen:
            seen.add(position)
            line.append(position)
            m, c, t = position
            moves = self.best_moves(m, c, t)
            if not moves:
                break
            position = (moves[0], c, Turn.CAT) if t == Turn.MOUSE else (m, moves[0], Turn.MOUSE)
        return line

    # -- summaries, pickling ---------------------------------------------------------

    def counts(self) -> dict[Outcome, int]:
        """How many positions each outcome has (positions that do not exist excluded)."""
        data = self._outcomes
        return {o: data.count(int(o)) for o in Outcome}

    def __repr__(self) -> str:
        counts = ", ".join(f"{o.name.lower()}={k}" for o, k in self.counts().items())
        return f"<Analysis of {self.n} nodes: {counts}>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle_analysis, (self._rules, bytes(self._outcomes), self._remoteness.tobytes()))


def _unpickle_analysis(rules: Rules, outcomes: bytes, remoteness: bytes) -> Analysis:
    size = 2 * rules.n * rules.n
    rem = array("i")
    rem.frombytes(remoteness)
    if len(outcomes) != size or len(rem) != size:
        raise ValueError("pickled Analysis tables do not match its graph")
    return Analysis(rules, bytearray(outcomes), rem)
