"""``catmouse.draw`` and the notebook display of Graph, Game and Analysis (and of the k-cops
game, drawn by :mod:`catmouse.show.cops`).

Everything here reads a solved table and hands it to :mod:`catmouse.show.svg`;
nothing solves more than the one table a picture needs.  Boards too big to
draw legibly (see :data:`LEGIBLE_NODES`) get a short text summary in notebooks
instead of a picture nobody can read.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from ..analysis import Analysis, Position
from ..cops.game import CopsAnalysis, CopsGame
from ..engine.facts import CAT_FORBIDDEN, CAT_GOAL, HOLE
from ..graph import DEFAULT_CAT, DEFAULT_HOLE, DEFAULT_MOUSE, Graph, as_graph, held_graph
from ..outcome import Outcome, Turn, as_turn
from . import cops
from .words import PLAYER, counted, ending, first_mover, outcome_words, plies, short_outcome

__all__ = ["LEGIBLE_EDGES", "LEGIBLE_NODES", "Setup", "draw", "ending_words", "outcome_words"]

# Past these, node circles shrink below readable labels (the SVG drops the
# numbers at about 280 nodes) and edges turn into a grey mat: notebooks show a
# summary instead, and the play page refuses.
LEGIBLE_NODES = 150
LEGIBLE_EDGES = 600

# The game's words (plies, outcome_words, ...) live in show/words.py.
__all__ += ["plies", "PLAYER"]


@dataclass(frozen=True)
class Setup:
    """What a picture or a game needs: the solved table and where things are."""

    analysis: Analysis
    holes: tuple[int, ...]
    goals: tuple[int, ...]
    forbidden: tuple[int, ...]
    first: Turn
    own_cat_graph: bool  # the cat moves on a graph of its own (not drawn)

    @property
    def graph(self) -> Graph:
        return self.analysis.graph

    @classmethod
    def of(cls, obj: Any, hole: Hashable | None = None) -> Setup:
        """Solve ``obj`` (adjacency lists, a Graph, a Game or an Analysis)."""
        from ..game import Game
        from ..solving import analyze

        if isinstance(obj, Analysis):
            if hole is not None:
                raise ValueError("hole= applies to a graph; an Analysis already has its holes")
            return cls._from_analysis(obj, obj.first)
        if isinstance(obj, Game):
            if hole is not None:
                raise ValueError("hole= applies to a graph; a Game has holes=... of its own")
            return cls.of_game(obj, obj.analyze())
        if isinstance(obj, (str, bytes)) or not (hasattr(obj, "__len__")
                                                 or held_graph(obj) is not None):
            raise TypeError(
                "draw() takes adjacency lists, a Graph, a GraphFile, a Game or an Analysis, "
                f"not {type(obj).__name__}"
            )
        hole = DEFAULT_HOLE if hole is None else hole
        return cls._from_analysis(analyze(as_graph(obj), hole=hole),
                                  Turn.MOUSE)

    @classmethod
    def of_game(cls, game: Any, analysis: Analysis) -> Setup:
        """A Game and its (already solved) analysis."""
        setup = cls._from_analysis(analysis, game.first)
        own = game.cat_graph is not game.graph
        return cls(setup.analysis, setup.holes, setup.goals, setup.forbidden, setup.first, own)

    @classmethod
    def _from_analysis(cls, analysis: Analysis, first: Turn) -> Setup:
        rules = analysis._rules
        flags = rules.flags
        nodes = range(analysis.n)
        return cls(
            analysis,
            tuple(u for u in nodes if flags[u] & HOLE),
            tuple(u for u in nodes if flags[u] & CAT_GOAL),
            tuple(u for u in nodes if flags[u] & CAT_FORBIDDEN),
            first,
            rules.cat_graph._rows() != rules.mouse_graph._rows(),
        )

    def starts(self, mouse: Any, cat: Any) -> tuple[Any, Any] | None:
        """The starts asked for, else LeetCode's (mouse 1, cat 2) where those are nodes and
        the cat may stand on 2; nodes by name (labels on a labelled graph).  None: no
        default start (a picture draws no line, a page asks for starts).

        >>> Setup.of([[1], [0, 2], [1]]).starts(None, 0)
        (1, 0)
        """
        if mouse is not None or cat is not None:
            return (DEFAULT_MOUSE if mouse is None else mouse,
                    DEFAULT_CAT if cat is None else cat)
        graph = self.graph
        names = graph._index if graph._index is not None else range(graph.n)
        if 1 in names and 2 in names and graph.index(2) not in self.forbidden:
            return (1, 2)
        return None

    def words(self, mouse: Hashable, cat: Hashable, turn: Turn) -> str:
        """The outcome from a position (nodes named as the graph names them), in words."""
        a = self.analysis
        outcome = a.outcome(mouse, cat, turn)
        if not a.has_remoteness:  # analyze(..., remoteness=False): who wins, not how soon
            if outcome == Outcome.DRAW:
                return outcome_words(outcome, None)
            return short_outcome(outcome)
        return outcome_words(outcome, a.remoteness(mouse, cat, turn))


def game_over_words(analysis: Analysis, position: Position, holes: Any,
                    goals: Any, shown: Callable[[Any], str] = str) -> str | None:
    """How ``position`` ends the game, in words (nodes named by ``shown``), or None when
    play goes on from it."""
    mouse, cat, turn = position
    kind = place_ending(position, holes, goals)
    if kind is not None:
        return ending(kind, node=shown(cat if kind == "goal" else mouse))
    if not analysis.best_moves(mouse, cat, turn):
        return ending("stuck", player=turn)
    return None


def place_ending(position: Position, holes: Any, goals: Any) -> str | None:
    """The key of :data:`ENDINGS` for a position the players' places end ("caught", "hole",
    "goal", in that precedence), or None: a mover with no move is the analysis's to tell."""
    mouse, cat, _ = position
    return ("caught" if mouse == cat else "hole" if mouse in holes
            else "goal" if cat in goals else None)


def who_moves_first(position: Position, holes: Any, goals: Any) -> str:
    """``"the mouse moves first"``, or ``"no one moves"`` where the start already ends the
    game (the mouse on the cat, in a hole, the cat on a goal): a picture's subtitle said the
    mouse moved first from a start in the hole.

    >>> who_moves_first((0, 2, Turn.MOUSE), {0}, set())
    'no one moves'
    """
    if place_ending(position, holes, goals) is not None:
        return "no one moves"
    return first_mover(position[2])


def named_places(setup: Setup) -> tuple[set[Any], set[Any]]:
    """The holes and the cat's goals as the graph names them (the words' nodes)."""
    name = setup.graph._name
    return {name(u) for u in setup.holes}, {name(u) for u in setup.goals}


def ending_words(setup: Setup, line: list[Position]) -> str:
    """How an optimal line ends, in words (the last entry of ``line`` is where it stops).

    ``line`` names nodes as :meth:`Analysis.line` does (labels on a labelled graph).
    """
    over = game_over_words(setup.analysis, line[-1], *named_places(setup))
    return over or ending("goes round")


def draw(
    obj: Any,
    mouse: Hashable | None = None,
    cat: Hashable | None = None,
    *,
    hole: Hashable | None = None,
    turn: Turn | int | None = None,
    line: bool = True,
    title: str | None = None,
) -> str:
    """An SVG picture (text) of a board and the optimal game from a start.

    ``obj`` is a graph in any form :func:`catmouse.solve` takes (adjacency lists, a
    mapping, a :class:`Graph`, a :class:`GraphFile`...: LeetCode's rules, the hole
    ``hole``, default 0), a :class:`Game` (its holes, goals and first mover)
    or an :class:`Analysis`.  The mouse starts on ``mouse`` (default 1), the
    cat on ``cat`` (default 2), and ``turn`` moves first (the game's
    ``first``, else the mouse).  The hole is dark, the starts are ringed in
    blue (mouse) and orange (cat), and ``line=True`` numbers the moves of one
    optimal game (not for an ``analyze(..., remoteness=False)`` table, which
    has no line).  The picture scales to its container (it has a viewBox).
    Nodes are named as the graph names them (labels on a labelled graph, the
    defaults too); without starts, a graph lacking node 1 or 2 is drawn
    without a line.

    >>> import catmouse
    >>> svg = catmouse.draw([[1, 3], [0], [3], [0, 2]], mouse=1, cat=2)
    >>> svg.startswith("<svg") and "the mouse wins in 1 move" in svg
    True
    """
    from .svg import game_svg

    setup = Setup.of(obj, hole)
    analysis = setup.analysis
    starts = setup.starts(mouse, cat)
    if turn is None:
        turn = setup.first
    turn = as_turn(turn)
    # An outcomes-only analysis has no remoteness to find an optimal line with.
    line = line and analysis.has_remoteness
    if starts is None:
        moves: list[Position] = []
        heading = f"{counted(analysis.n, 'node')}, {counted(analysis.graph.num_edges, 'edge')}"
        subtitle = ""
    else:
        m, c = starts
        analysis.outcome(m, c, turn)  # raises ValueError for a start that does not exist
        named = analysis.line(m, c, turn) if line else [(m, c, turn)]
        index = analysis.graph.index
        moves = [(index(u), index(v), t) for u, v, t in named]  # the picture works in ids
        heading = setup.words(m, c, turn)
        subtitle = (f"mouse starts on {m}, cat on {c}; "
                    + who_moves_first((m, c, turn), *named_places(setup)))
        if line:
            subtitle += "\n" + ending_words(setup, named)
    if setup.own_cat_graph:
        subtitle += "\n(the cat moves on a graph of its own, not drawn)"
    return game_svg(
        analysis.graph, moves, holes=setup.holes, goals=setup.goals,
        title=heading if title is None else title, subtitle=subtitle.strip("\n"),
        ids=_fresh_ids(),
    )


_counter = itertools.count()


def _fresh_ids() -> str:
    """A prefix for the SVG's marker ids: several inline pictures on one page stay apart."""
    return f"cm{next(_counter)}-"


# -- notebook display -----------------------------------------------------------------


def too_big(graph: Graph) -> bool:
    return graph.n > LEGIBLE_NODES or graph.num_edges > LEGIBLE_EDGES


def _no_default_hole(obj: Any) -> bool:
    """A labelled Graph without a node 0: draw() needs its hole named (hole=...)."""
    return isinstance(obj, Graph) and obj._index is not None and 0 not in obj._index


def summary_html(obj: Any) -> str:
    """A few lines about a board too big to draw legibly."""
    graph: Graph = obj.graph if not isinstance(obj, Graph) else obj
    kind = type(obj).__name__
    lines = [f"<b>catmouse.{kind}</b>: {counted(graph.n, 'node')}, "
             f"{counted(graph.num_edges, 'edge')}"
             + (" (directed)" if graph.directed else "")]
    if isinstance(obj, Analysis):
        counts = obj.counts()
        lines.append(f"{counts[Outcome.MOUSE_WIN]:,} positions won by the mouse, "
                     f"{counts[Outcome.CAT_WIN]:,} by the cat, {counts[Outcome.DRAW]:,} drawn")
    if _no_default_hole(obj) and not too_big(graph):
        lines.append("not drawn: it has no node 0 for LeetCode's hole; "
                     "<code>catmouse.draw(graph, hole=...)</code> draws it")
    elif graph.n:
        lines.append(f"not drawn: over {LEGIBLE_NODES} nodes or {LEGIBLE_EDGES} edges is too "
                     "many to read; <code>catmouse.draw(...)</code> draws it anyway")
    return ('<div class="catmouse-summary" style="font-family: sans-serif; line-height: 1.4">'
            + "<br>".join(lines) + "</div>")


def repr_svg(obj: Any) -> str | None:
    """The picture for Jupyter, or None (no SVG) for a board too big to read."""
    if isinstance(obj, (CopsGame, CopsAnalysis)):
        board = obj.game.graph if isinstance(obj, CopsAnalysis) else obj.graph
        return None if too_big(board) or board.n == 0 else cops.notebook_svg(obj)
    graph = obj if isinstance(obj, Graph) else obj.graph
    # An empty graph, or a labelled one without a node 0, has no hole 0 to solve with.
    if too_big(graph) or graph.n == 0 or _no_default_hole(obj):
        return None
    return draw(obj)


def repr_html(obj: Any) -> str:
    svg = repr_svg(obj)
    if svg is None:
        if isinstance(obj, (CopsGame, CopsAnalysis)):
            return cops.summary_html(obj, LEGIBLE_NODES, LEGIBLE_EDGES)
        return summary_html(obj)
    # Small boards read well small; crowded ones get room for their labels.
    graph = obj.game.graph if isinstance(obj, CopsAnalysis) else (
        obj if isinstance(obj, Graph) else obj.graph)
    width = 560 if graph.n <= 30 else 820
    return f'<div class="catmouse-drawing" style="max-width: {width}px">{svg}</div>'
