"""Game: the family of pursuit games the retrograde engine solves.

Every rule is data the engine reads: a move graph per player (a self-loop
means the player may stay), per-node flags (hole, cat-forbidden, cat goal) and
the score of a game that never ends.  Nothing here loops over positions.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Iterable
from typing import Any, TypedDict

from .analysis import Analysis
from .display import Displayed
from .engine.facts import CAT_FORBIDDEN, CAT_GOAL, HOLE
from .graph import DEFAULT_HOLE, Graph, GraphLike, _node_id, _readonly_int32, as_graph
from .graph_checks import not_a_collection
from .outcome import Outcome, Turn, as_outcome, as_turn
from .rules import Rules, outside_the_graph
from .solving import analyze_rules, solve_position

__all__ = ["Game"]


class _StayGraph(Graph):
    """``base`` with a self-loop added at every node: the player may stay put.

    User graphs reject self-loops, so this is built from the base graph's
    already validated CSR; it pickles as its base graph.
    """

    __slots__ = ("_base",)

    _base: Graph

    def __reduce__(self) -> tuple:
        return (_stay_graph, (self._base,))


def _with_stays(rows_ptr: memoryview, rows_ix: memoryview, n: int) -> tuple[memoryview, memoryview]:
    """CSR with each node ``u`` appended to its own row."""
    ip, ix = rows_ptr.tolist(), rows_ix.tolist()
    indptr = array("i", [0]) * (n + 1)
    indices = array("i")
    for u in range(n):
        indices.extend(ix[ip[u] : ip[u + 1]])
        indices.append(u)
        indptr[u + 1] = len(indices)
    return _readonly_int32(indptr), _readonly_int32(indices)


def _stay_graph(base: Graph) -> _StayGraph:
    """The move graph of a player who may stay: ``base`` plus a self-loop per node."""
    if not isinstance(base, Graph):  # a pickle is input: its base is checked on load
        raise TypeError(f"a stay graph's base must be a Graph, not {type(base).__name__}")
    n = base.n
    indptr, indices = _with_stays(base._indptr, base._indices, n)
    if base.directed:
        reverse = _with_stays(base._rindptr, base._rindices, n)
    else:
        reverse = (indptr, indices)
    graph = _StayGraph.__new__(_StayGraph)
    graph._init_from(n, indptr, indices, base.directed, base._labels,
                     checked=True, reverse=reverse)
    object.__setattr__(graph, "_index", base._index)
    object.__setattr__(graph, "_base", base)
    return graph


def _same_nodes(cat_graph: Graph, mouse_graph: Graph) -> Graph:
    """``cat_graph`` on the mouse's graph's node ids: the same nodes by name (labels on a
    labelled graph, ids on a plain one), its rows put in the mouse's graph's order.

    ValueError where the names differ: pairing the nodes by position would give each
    player other nodes' moves, and a wrong answer.
    """
    n = mouse_graph.n
    if cat_graph.n != n:
        raise ValueError(
            f"cat_graph has {cat_graph.n} nodes but the mouse's graph has {n}: "
            "both players move on the same nodes"
        )
    names, cat_names = mouse_graph.labels, cat_graph.labels
    if cat_names == names:
        return cat_graph
    ids = {name: i for i, name in enumerate(names)}
    missing = [name for name in cat_names if name not in ids]
    if missing:
        raise ValueError(
            f"cat_graph names node {missing[0]!r}, which the mouse's graph does not have: "
            "both players move on the same nodes (named alike)")
    # The same names in another order: the cat's rows by the mouse's ids.
    order = [ids[name] for name in cat_names]  # cat id -> mouse id
    rows: list[list[int]] = [[] for _ in range(n)]
    for cat_id, row in enumerate(cat_graph.adjacency()):
        rows[order[cat_id]] = [order[v] for v in row]
    graph = Graph(rows, directed=cat_graph.directed)
    return graph if mouse_graph._labels is None else graph._name_nodes(names)


class _GameArgs(TypedDict):
    """A Game's arguments, normalized: what it reads back, prints and pickles."""

    graph: Graph
    cat_graph: Graph | None  # None when the cat moves on the mouse's graph
    # Node sets as the graph names nodes (labels on a labelled graph), in node order.
    holes: tuple[Any, ...]
    cat_forbidden: tuple[Any, ...]
    cat_goals: tuple[Any, ...]
    mouse_stays: bool
    cat_stays: bool
    draw: Outcome
    first: Turn


def _node_set(nodes: Any, graph: Graph, name: str) -> frozenset[int]:
    """The ids of a collection of nodes (labels on a labelled graph, and only labels)."""
    n = graph.n
    if not_a_collection(nodes):
        raise TypeError(
            f"{name} must be a collection of nodes (e.g. {name}=(0,)), "
            f"not {type(nodes).__name__}"
        )
    result = set()
    for k, node in enumerate(nodes):
        node = _node_id(graph._id_of(node, f"{name}[{k}]"), f"{name}[{k}]")
        if not 0 <= node < n:
            raise ValueError(f"{name} names node {node}, but node ids run from 0 to {n - 1}")
        result.add(node)
    return frozenset(result)


def _one_node(node: Any, graph: Graph, name: str) -> frozenset[int]:
    """``{id}`` of one node named by the argument ``name`` (``hole=``), errors as solve's."""
    node = _node_id(graph._id_of(node, name), name)
    if not 0 <= node < graph.n:
        raise outside_the_graph(name, node, graph.n)
    return frozenset((node,))


def _names(nodes: frozenset[int], graph: Graph) -> tuple[Any, ...]:
    """Node ids as the graph names them, in id order."""
    return tuple(graph._name(u) for u in sorted(nodes))


# LeetCode's hole, known as the default (its errors say so): Game's holes= when not given.
_DEFAULT_HOLES = (DEFAULT_HOLE,)


class Game(Displayed):
    """A pursuit game on a graph: the rules of LeetCode 913 and its relatives.

    The mouse moves on ``graph``, the cat on ``cat_graph`` (default: the same
    graph, which must have the same nodes).  The mouse wins on entering one of
    ``holes``; the cat may not enter ``cat_forbidden`` (default: the holes) and
    wins on entering one of ``cat_goals`` or the mouse's node.  A player with
    ``*_stays`` may pass instead of moving; a player with no legal move loses.
    ``draw`` scores a game that never ends; ``first`` moves first.  ``hole=h`` is
    ``holes=(h,)``, as :func:`catmouse.solve` names it (not with ``holes=``).

    Nodes are named as the graph names them: labels on a labelled graph (so
    the default ``holes=(0,)`` needs a node labelled 0 there), ids otherwise;
    the node sets read back (:attr:`holes`, ...) and the repr use those names.

    >>> square = [[1, 3], [0, 2], [1, 3], [0, 2]]      # the cycle 0-1-2-3-0, no hole
    >>> Game(square, holes=()).solve(mouse=0, cat=2)   # the mouse must step next to the cat
    <Outcome.CAT_WIN: 2>
    >>> Game(square, holes=(), mouse_stays=True).solve(0, 2)
    <Outcome.DRAW: 0>
    >>> Game(square, holes=(), mouse_stays=True, cat_stays=True,
    ...      draw=Outcome.MOUSE_WIN).solve(0, 2)        # cops and robbers: the robber wins
    <Outcome.MOUSE_WIN: 1>
    """

    __slots__ = ("_args", "_rules")

    _args: _GameArgs
    _rules: Rules

    def __init__(
        self,
        graph: GraphLike,
        *,
        cat_graph: GraphLike | None = None,
        holes: Iterable[Hashable] = _DEFAULT_HOLES,
        cat_forbidden: Iterable[Hashable] | None = None,
        cat_goals: Iterable[Hashable] = (),
        mouse_stays: bool = False,
        cat_stays: bool = False,
        draw: Outcome | int = Outcome.DRAW,
        first: Turn | int = Turn.MOUSE,
        hole: Hashable | None = None,
    ):
        if hole is not None and holes is not _DEFAULT_HOLES:
            raise TypeError("pass hole= (one hole) or holes= (any number), not both")
        mouse_graph = as_graph(graph)
        n = mouse_graph.n
        if not n:  # no positions: and the tables' (2, 0, 0) views cannot be made
            raise ValueError("a game needs at least one node; this graph has none")
        given_cat_graph = None if cat_graph is None else as_graph(cat_graph)
        cat_graph = mouse_graph if given_cat_graph is None else _same_nodes(
            given_cat_graph, mouse_graph)
        # (hole=h is holes=(h,), its errors naming hole= as solve's do.)
        holes = (_node_set(holes, mouse_graph, "holes") if hole is None
                 else _one_node(hole, mouse_graph, "hole"))
        forbidden = holes if cat_forbidden is None else _node_set(
            cat_forbidden, mouse_graph, "cat_forbidden")
        goals = _node_set(cat_goals, mouse_graph, "cat_goals")
        if goals & forbidden:
            node = mouse_graph._name(min(goals & forbidden))
            raise ValueError(
                f"node {node!r} is both a cat goal and forbidden to the cat: the cat "
                "could never reach it"
            )
        for name, value in (("mouse_stays", mouse_stays), ("cat_stays", cat_stays)):
            if not isinstance(value, bool):
                raise TypeError(f"{name} must be True or False, not {value!r}")
        draw = as_outcome(draw)
        first = as_turn(first, "first")

        flags = bytearray(n)
        for node in holes:
            flags[node] |= HOLE
        for node in forbidden:
            flags[node] |= CAT_FORBIDDEN
        for node in goals:
            flags[node] |= CAT_GOAL
        self._rules = Rules(
            _stay_graph(mouse_graph) if mouse_stays else mouse_graph,
            _stay_graph(cat_graph) if cat_stays else cat_graph,
            bytes(flags),
            draw,
        )
        self._args = {
            "graph": mouse_graph,
            "cat_graph": None if given_cat_graph is mouse_graph else given_cat_graph,
            "holes": _names(holes, mouse_graph),
            "cat_forbidden": _names(forbidden, mouse_graph),
            "cat_goals": _names(goals, mouse_graph),
            "mouse_stays": mouse_stays, "cat_stays": cat_stays,
            "draw": draw, "first": first,
        }

    # -- the rules, read back ------------------------------------------------------

    @property
    def graph(self) -> Graph:
        """The mouse's graph, as given (without the self-loops of ``mouse_stays``)."""
        return self._args["graph"]

    @property
    def cat_graph(self) -> Graph:
        """The cat's graph, as given (the mouse's unless another was given)."""
        return self._args["cat_graph"] or self._args["graph"]

    @property
    def n(self) -> int:
        """Number of nodes."""
        return self._rules.n

    @property
    def holes(self) -> tuple[Any, ...]:
        """Nodes where the mouse wins on arrival, in node order (labels on a labelled graph)."""
        return self._args["holes"]

    @property
    def cat_forbidden(self) -> tuple[Any, ...]:
        """Nodes the cat may not enter, in node order (labels on a labelled graph)."""
        return self._args["cat_forbidden"]

    @property
    def cat_goals(self) -> tuple[Any, ...]:
        """Nodes where the cat wins on arrival, in node order (labels on a labelled graph)."""
        return self._args["cat_goals"]

    @property
    def mouse_stays(self) -> bool:
        """Whether the mouse may pass instead of moving."""
        return self._args["mouse_stays"]

    @property
    def cat_stays(self) -> bool:
        """Whether the cat may pass instead of moving."""
        return self._args["cat_stays"]

    @property
    def draw(self) -> Outcome:
        """How a game that never ends is scored."""
        return self._args["draw"]

    @property
    def first(self) -> Turn:
        """Who moves first in :meth:`solve`."""
        return self._args["first"]

    # -- solving -----------------------------------------------------------------

    def solve(self, mouse: Hashable, cat: Hashable, *, max_memory: int | None = None,
              threads: int | None = None) -> Outcome:
        """Who wins from the mouse on ``mouse`` and the cat on ``cat``, ``first`` to move.

        Stops as soon as this one position is decided.  Raises ValueError for a
        position that does not exist (the cat on a node it may not enter).
        ``max_memory`` and ``threads`` as in :func:`catmouse.solve`.
        """
        return solve_position(self._rules, mouse, cat, self.first, max_memory, threads)

    def analyze(self, *, max_memory: int | None = None, remoteness: bool = True,
                threads: int | None = None, progress: Any = None) -> Analysis:
        """Solve every position (both players to move): see :class:`Analysis`.

        The table holds both turns; its queries (``analysis.line(mouse, cat)``)
        start with this game's first mover unless given another ``turn``.
        ``max_memory``, ``remoteness``, ``threads`` and ``progress`` as in
        :func:`catmouse.analyze`.
        """
        return analyze_rules(self._rules, max_memory, remoteness=remoteness,
                             threads=threads, progress=progress, first=self.first)

    # -- the usual dunders -----------------------------------------------------------

    def __repr__(self) -> str:
        a = self._args
        parts = [f"{self.n} nodes", f"holes={a['holes']}"]
        if a["cat_graph"] is not None:
            parts.append("cat_graph=...")
        if a["cat_forbidden"] != a["holes"]:
            parts.append(f"cat_forbidden={a['cat_forbidden']}")
        if a["cat_goals"]:
            parts.append(f"cat_goals={a['cat_goals']}")
        for key in ("mouse_stays", "cat_stays"):
            if a[key]:
                parts.append(f"{key}=True")
        if a["draw"]:
            parts.append(f"draw={a['draw'].name}")
        if a["first"]:
            parts.append(f"first={a['first'].name}")
        return f"<Game {', '.join(parts)}>"


    def __reduce__(self) -> tuple:
        return (_make_game, (self._args,))


def _make_game(args: _GameArgs) -> Game:
    return Game(**args)
