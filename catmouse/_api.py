"""The public functions for LeetCode 913's rules: solve, analyze, solve_many."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from . import _retro
from ._analysis import Analysis
from ._graph import Graph, as_graph
from ._outcome import Outcome, Turn
from ._progress import Bar, ProgressLike, as_callback, engine_takes_progress, finish
from ._rules import ANALYZE_BYTES, SOLVE_BYTES, Rules, check_memory, classic_rules

if TYPE_CHECKING:
    from ._retro_c import Board as _Board


class _Engine(Protocol):
    """What the fast paths use of the compiled engine module (see _retro_c.pyi)."""

    Board: type[_Board]

    def solve_lists(self, adjacency: object, mouse: int, cat: int, hole: int) -> int: ...

    def solve_boards(self, boards: list[_Board], mouse: int, cat: int,
                     turn: int = 0) -> bytearray: ...


# The compiled engine module when it is in use: solve() and solve_many() take
# its fast paths (the benchmark sets this to None to time the pure twin).
_compiled: _Engine | None = None
if _retro.BACKEND == "cython":
    from . import _retro_c

    _compiled = _retro_c

# Outcome by engine code, without Enum lookups on the hot path.
_OUTCOMES = (Outcome.DRAW, Outcome.MOUSE_WIN, Outcome.CAT_WIN)

# Graphs up to this many nodes skip the available-memory probe on the fast
# paths: their tables (at most ~2*n*n*SOLVE_BYTES, 38 MB) are below anything a
# process can be refused in practice.  Larger graphs take the checked path.
_SMALL_NODES = 1448

__all__ = ["solve", "analyze", "solve_many", "GraphLike"]

GraphLike = Graph | Sequence[Sequence[int]]


def solve_position(rules: Rules, mouse: int, cat: int, turn: Turn,
                   max_memory: int | None = None) -> Outcome:
    """Outcome of one position, stopping as soon as it is decided."""
    target = rules.position(mouse, cat, turn)
    check_memory(rules.n, SOLVE_BYTES, max_memory)
    return Outcome(rules.run(target=target))


def analyze_rules(rules: Rules, max_memory: int | None = None,
                  progress: ProgressLike = None) -> Analysis:
    """Solve every position under ``rules``."""
    n = rules.n
    check_memory(n, ANALYZE_BYTES, max_memory)
    outcomes = bytearray(2 * n * n)
    remoteness = array("i", bytes(8 * n * n))
    if progress is None:
        rules.run(outcomes, remoteness)
    else:
        _run_with_progress(rules, outcomes, remoteness, progress)
    return Analysis(rules, outcomes, remoteness)


def _run_with_progress(rules: Rules, outcomes: bytearray, remoteness: array,
                       progress: ProgressLike) -> None:
    """rules.run with ``progress=`` handed to the engine (decided positions per round).

    ``True`` draws a bar on stderr; an engine that does not report progress
    still gets the bar's final state.  A callable is passed to the engine as is.
    """
    n = rules.n
    callback = as_callback(progress, 2 * n * n, "analyze")
    if callback is None:
        rules.run(outcomes, remoteness)
        return
    to_engine: Callable[[int], object] | None = callback
    if isinstance(callback, Bar) and not engine_takes_progress():
        to_engine = None
    decided = rules.run(outcomes, remoteness, progress=to_engine)
    finish(callback, decided)


def solve(
    graph: GraphLike,
    mouse: int = 1,
    cat: int = 2,
    *,
    hole: int = 0,
    max_memory: int | None = None,
) -> Outcome:
    """Who wins LeetCode 913's game with optimal play, the mouse moving first.

    ``graph`` is a :class:`Graph` or adjacency lists.  The mouse starts on
    ``mouse``, the cat on ``cat`` (by position or keyword, as in
    :meth:`Game.solve`: ``solve(g, 3, 4)``); the mouse wins on reaching
    ``hole``, which the cat may not enter.  ``max_memory`` (bytes) caps the tables.

    In a hot loop, build each :class:`Graph` once and pass it: after the first
    call on a graph, ``solve`` goes straight to the compiled engine (well under
    a microsecond of Python per call).  Plain lists of lists are checked and
    solved in C without building a ``Graph``; :func:`solve_many` solves a batch
    in parallel threads without the GIL.

    >>> solve([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    <Outcome.DRAW: 0>
    >>> solve([[1, 3], [0], [3], [0, 2]])
    <Outcome.MOUSE_WIN: 1>
    """
    compiled = _compiled
    if compiled is not None and max_memory is None:
        if type(graph) is Graph:
            board = graph._cache.get(("board", hole))
            if board is not None:
                code = board.solve(mouse, cat)
                if code >= 0:
                    return _OUTCOMES[code]
        elif type(graph) is list:
            code = compiled.solve_lists(graph, mouse, cat, hole)
            if code >= 0:
                return _OUTCOMES[code]
    graph = as_graph(graph)
    rules = classic_rules(graph, hole)
    result = solve_position(rules, mouse, cat, Turn.MOUSE, max_memory)
    if compiled is not None and graph.n <= _SMALL_NODES and graph._index is None:
        # Valid so far: later calls on this graph and hole go straight to C (not on
        # a labelled graph, whose starts may be labels the board cannot read).
        _board(graph, hole, rules)
    return result


def _board(graph: Graph, hole: int, rules: Rules | None = None) -> _Board:
    """The compiled engine's Board for (graph, hole), cached on the graph."""
    board = graph._cache.get(("board", hole))
    if board is None:
        # Only the compiled engine's fast paths get here.
        assert _compiled is not None
        if rules is None:
            rules = classic_rules(graph, hole)
        g = graph
        board = _compiled.Board(g.n, rules.flags, g.indptr, g.indices, g.rindptr,
                                g.rindices, g.indptr, g.indices, g.rindptr, g.rindices)
        graph._cache[("board", hole)] = board
    return board


def analyze(graph: GraphLike, *, hole: int = 0, max_memory: int | None = None,
            progress: ProgressLike = None) -> Analysis:
    """Solve every position of LeetCode 913's game on ``graph``.

    ``progress``: True for a bar on stderr, or a callable ``progress(decided)``
    that the engine calls between rounds with the positions decided so far (an
    exception it raises stops the search).

    >>> a = analyze([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    >>> a.outcome(mouse=3, cat=4, turn=Turn.CAT), a.remoteness(3, 4, Turn.CAT)
    (<Outcome.CAT_WIN: 2>, 1)
    """
    return analyze_rules(classic_rules(as_graph(graph), hole), max_memory, progress)


def solve_many(
    graphs: Iterable[GraphLike],
    threads: int | None = None,
    *,
    mouse: int = 1,
    cat: int = 2,
    hole: int = 0,
    progress: ProgressLike = None,
) -> list[Outcome]:
    """:func:`solve` over many graphs, in ``threads`` threads (default: one per CPU).

    Plain adjacency lists are checked and solved in C one by one, without
    building a ``Graph`` (faster than a loop of :func:`solve`).  ``Graph``
    objects are solved in parallel threads that hold no GIL; build them once
    when the same graphs are solved again.  An error names the graph's index
    in the batch.  ``progress``: True for a bar on stderr, or a callable
    ``progress(graphs_done)``.

    >>> solve_many([[[1, 3], [0], [3], [0, 2]]] * 3, threads=2)
    [<Outcome.MOUSE_WIN: 1>, <Outcome.MOUSE_WIN: 1>, <Outcome.MOUSE_WIN: 1>]
    """
    from ._batch import solve_many as run_batch

    return run_batch(graphs, threads, mouse=mouse, cat=cat, hole=hole, progress=progress)
