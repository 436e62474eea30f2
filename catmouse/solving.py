"""The public functions for LeetCode 913's rules: solve and analyze (solve_many: batch.py)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import partial
from typing import TYPE_CHECKING, Any

from . import engine as _engine
from .analysis import Analysis
from .engine.facts import SMALL_TABLES, THREADS_FROM_NODES
from .engine.planes import layer_bytes
from .graph import DEFAULT_CAT, DEFAULT_HOLE, DEFAULT_MOUSE, Graph, GraphLike, as_graph, plain
from .outcome import Outcome, Turn, as_turn
from .progress import Bar, ProgressLike, as_callback, engine_takes_progress
from .rules import Rules, check_max_memory, check_memory, check_threads, classic_rules, need_bytes

if TYPE_CHECKING:
    from .engine import BoardLike as _Board

# Outcome by engine code, without Enum lookups on the hot path.
_OUTCOMES = (Outcome.DRAW, Outcome.MOUSE_WIN, Outcome.CAT_WIN)

# analyze goes through the rules' Board up to this many nodes: below THREADS_FROM_NODES the
# default is one thread, and the tables (need_bytes at 1,023 nodes with remoteness: 5.5 MB on
# the compiled engine, 15.1 MB on the twin's count) stay below the memory check's SMALL_TABLES
# (16.8 MB), so skipping the check skips nothing
# (tests/engine/test_board_analyze.py holds both).  At 200 nodes the full path's Python
# (check_memory, run_into_tables, the partial) cost about 10 us of 190.
BOARD_ANALYSIS_NODES = THREADS_FROM_NODES - 1

__all__ = ["solve", "analyze", "GraphLike"]


def solve_position(rules: Rules, mouse: Hashable, cat: Hashable, turn: Turn,
                   max_memory: int | None = None, threads: int | None = None) -> Outcome:
    """Outcome of one position, stopping as soon as it is decided."""
    target = rules.position(mouse, cat, turn)
    threads = check_threads(threads, rules.n)
    check_memory(rules.n, target=True, threads=threads, max_memory=max_memory)
    return Outcome(rules.run(target=target, threads=threads))


def analyze_rules(rules: Rules, max_memory: int | None = None, *, remoteness: bool = True,
                  threads: int | None = None, progress: ProgressLike = None,
                  first: Turn = Turn.MOUSE) -> Analysis:
    """Solve every position under ``rules`` (outcomes only with ``remoteness=False``).

    Remoteness comes as the engine's bit-planes (about a byte a position): the Analysis
    keeps them as they are (see catmouse.engine.planes).
    """
    n = rules.n
    remoteness = bool(remoteness)
    if (n <= BOARD_ANALYSIS_NODES and max_memory is None and progress is None
            and (threads is None or (type(threads) is int and threads == 1))):
        # A small game in a hot loop: the rules' Board (made once) analyzes it without the
        # engine's argument checks and buffers; the tables are what propagate would write.
        outcomes, planes = rules.board().analyze(remoteness)
        if rules.draw:
            outcomes = rules.score_draws(outcomes)
        return Analysis._from_engine(rules, outcomes, planes,
                                     as_turn(first, "first"))
    threads = check_threads(threads, n)
    need = check_memory(n, outcome=True, remoteness=remoteness, threads=threads,
                        max_memory=max_memory)
    # What max_memory leaves for remoteness layers past the first (a game past 255 plies
    # takes one more as round 256 starts, another at 65,536): the engine refuses them past it.
    limit = check_max_memory(max_memory)
    more_bytes = None if limit is None else limit - need

    # A partial, not a closure: CPython 3.12.1 and 3.13.0 corrupt memory when making a
    # function object fails for want of memory (tests/engine/test_no_memory.py found it; a
    # pure-Python loop shows it too), and a partial is made without one.
    layers: list[bytes] = []
    run = partial(_run_tables, rules, threads, progress, layers if remoteness else None,
                  more_bytes)
    # (propagate writes every byte of the outcome table: it need not be cleared first.)
    outcomes, _ = _engine.run_into_tables(2 * n * n, False, run, outcomes_filled=True)
    # (The engine's own tables: its sizes and planes format need no checking again; the
    # checks of layers a pickle brings scan every row.)
    return Analysis._from_engine(rules, outcomes, layers if remoteness else None,
                                 as_turn(first, "first"))


def _run_tables(rules: Rules, threads: int, progress: ProgressLike, layers: list[bytes] | None,
                more_bytes: int | None, outcomes: memoryview, table: memoryview | None) -> None:
    """rules.run into the outcome table, and the remoteness planes into ``layers``
    (``more_bytes``: what the layers past the first may take, None: no limit)."""
    if layers is None:
        _run_with_progress(rules, outcomes, threads, progress, {})
        return
    # (Uncleared: the engine clears layer 0 itself before its first round, as its contract
    # says; a cleared table was cleared twice where the allocator reused memory.)
    holder = _engine.current.Table(layer_bytes(rules.n), zeroed=False)
    planes = holder.view()
    more: list[Any] = []
    try:
        _run_with_progress(rules, outcomes, threads, progress,
                           {"planes": planes, "more_planes": more, "more_bytes": more_bytes})
    finally:
        planes.release()
    layers.append(holder.take())
    layers.extend(layer if type(layer) is bytes else bytes(layer) for layer in more)


def _run_with_progress(rules: Rules, outcomes: memoryview, threads: int,
                       progress: ProgressLike, planes: dict[str, object],
                       remoteness: memoryview | None = None) -> None:
    """rules.run with ``progress=`` handed to the engine (decided positions per round).

    ``True`` draws a bar on stderr; an engine that does not report progress
    still gets the bar's final state.  A callable is passed to the engine as is.
    ``planes``: the planes keywords (planes mode), or empty.
    """
    if progress is None:
        rules.run(outcomes, remoteness, threads=threads, **planes)  # type: ignore[arg-type]
        return
    n = rules.n
    callback = as_callback(progress, 2 * n * n, "analyze")
    if callback is None:
        rules.run(outcomes, remoteness, threads=threads, **planes)  # type: ignore[arg-type]
        return
    to_engine: Callable[[int], object] | None = callback
    if isinstance(callback, Bar) and not engine_takes_progress():
        to_engine = None
    decided = rules.run(outcomes, remoteness, threads=threads, progress=to_engine,
                        **planes)  # type: ignore[arg-type]
    if isinstance(callback, Bar):
        callback.close(decided)  # a callable heard the end from the engine itself


def solve(
    graph: GraphLike,
    mouse: Hashable = DEFAULT_MOUSE,
    cat: Hashable = DEFAULT_CAT,
    *,
    hole: Hashable = DEFAULT_HOLE,
    max_memory: int | None = None,
    threads: int | None = None,
) -> Outcome:
    """Who wins LeetCode 913's game with optimal play, the mouse moving first.

    ``graph`` is a :class:`Graph`, adjacency lists, a mapping ``{node: neighbours}``, a
    networkx graph, a 0/1 matrix or a reader's :class:`GraphFile` (its graph; the starts
    it suggests are not read: pass them).  The mouse starts on
    ``mouse``, the cat on ``cat`` (by position or keyword, as in
    :meth:`Game.solve`: ``solve(g, 3, 4)``); the mouse wins on reaching
    ``hole``, which the cat may not enter.  Nodes are labels on a labelled
    graph (a networkx graph's own names, and only those: the defaults 1, 2 and
    0 too, see :class:`Graph`), else ids.  ``max_memory`` (bytes) caps the
    tables; ``threads`` splits the search of a big graph (default: one thread
    for small graphs, every CPU this process may use for big ones).

    In a hot loop, build each :class:`Graph` once and pass it: after the first
    call on a graph, ``solve`` goes straight to the compiled engine (well under
    a microsecond of Python per call; ``threads`` left out or 1).  Plain lists of
    lists are checked and solved in C without building a ``Graph``;
    :func:`solve_many` solves a batch in parallel threads without the GIL.

    >>> solve([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    <Outcome.DRAW: 0>
    >>> solve([[1, 3], [0], [3], [0, 2]])
    <Outcome.MOUSE_WIN: 1>
    """
    kernel = _engine.current
    # threads=1 too: the paths below run one thread whatever the count (the cached boards
    # are of searches small enough for one), as analyze's small path does.
    if max_memory is None and (threads is None or (type(threads) is int and threads == 1)):
        # The engines' fast paths take exact ints: the defaults as such (the originals stay
        # for the slow path, whose errors say "default" only of an argument not passed).
        # (A numpy integer too: plain() makes it its int; a numpy hole missed the board.)
        m = 1 if mouse is DEFAULT_MOUSE else mouse if type(mouse) is int else plain(mouse)
        c = 2 if cat is DEFAULT_CAT else cat if type(cat) is int else plain(cat)
        h = 0 if hole is DEFAULT_HOLE else hole if type(hole) is int else plain(hole)
        if type(graph) is Graph and type(h) is int:
            # (An exact int: True and 1.0 hash as 1, and would find hole 1's board.)
            key = ("board", h, kernel.name)
            board = graph._cache.get(key)
            if board is None and graph._index is None:
                # A graph's first solve: its board straight from its arrays, at the cost of
                # solve(lists) (a small graph; the engine declines anything else).  Not on a
                # labelled graph, whose starts may be labels a board cannot read.
                board = kernel.classic_board(graph.n, h, graph._indptr, graph._indices,
                                             graph._rindptr, graph._rindices)
                if board is not None:
                    graph._cache[key] = board
            if board is not None:
                code = board.solve(m, c)
                if code >= 0:
                    return _OUTCOMES[code]
        elif type(graph) is list:
            code = kernel.solve_lists(graph, m, c, h)
            if code >= 0:
                return _OUTCOMES[code]
    graph = as_graph(graph)
    rules = classic_rules(graph, hole)
    result = solve_position(rules, mouse, cat, Turn.MOUSE, max_memory, threads)
    if graph._index is None:
        # Valid so far: later calls on this graph and hole go straight to the engine
        # (not on a labelled graph, whose starts may be labels a board cannot read).
        _board(graph, hole, rules)
    return result


def _board(graph: Graph, hole: Hashable, rules: Rules | None = None) -> _Board | None:
    """The engine's Board for (graph, hole), cached on the graph; None for a big graph.

    Only graphs whose search fits in SMALL_TABLES get one: the memory check
    would not consult the system for them, so a cached board skips nothing.
    It is the classic rules' own Board (Rules.board: past ONE_WORD_NODES a graph keeps
    only the last one made, not a copy of itself a hole).
    """
    kernel = _engine.current
    key = ("board", hole, kernel.name)
    board = graph._cache.get(key)
    if board is None:
        if need_bytes(graph.n, outcome=False, remoteness=False, target=True) > SMALL_TABLES:
            return None
        if rules is None:
            rules = classic_rules(graph, hole)
        board = rules.board()
        graph._cache[key] = board
    return board


def analyze(graph: GraphLike, *, hole: Hashable = DEFAULT_HOLE, max_memory: int | None = None,
            remoteness: bool = True, threads: int | None = None,
            progress: ProgressLike = None) -> Analysis:
    """Solve every position of LeetCode 913's game on ``graph``, the cat kept out of ``hole``.

    ``hole`` is named as :func:`solve` names nodes (label 0 by default on a
    labelled graph).

    The analysis keeps a byte of outcome and about a byte of remoteness (bit-planes)
    a position; ``remoteness=False`` keeps only the outcomes (1 byte a position),
    for the biggest graphs; the queries that need the remoteness table
    (:meth:`Analysis.remoteness`, :meth:`Analysis.line`, :meth:`Analysis.verify`)
    then raise ValueError.  ``threads`` as in :func:`solve`.  ``progress``: True
    for a bar on stderr, or a callable ``progress(decided)`` that the engine
    calls between rounds with the positions decided so far (an exception it
    raises stops the search).

    >>> a = analyze([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    >>> a.outcome(mouse=3, cat=4, turn=Turn.CAT), a.remoteness(3, 4, Turn.CAT)
    (<Outcome.CAT_WIN: 2>, 1)
    """
    return analyze_rules(classic_rules(as_graph(graph), hole), max_memory,
                         remoteness=remoteness, threads=threads, progress=progress)
