"""The public functions for LeetCode 913's rules: solve, analyze, solve_many."""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from . import _retro
from ._analysis import Analysis
from ._facts import SMALL_TABLES
from ._graph import Graph, as_graph
from ._outcome import Outcome, Turn
from ._rules import Rules, check_memory, check_threads, classic_rules, need_bytes

if TYPE_CHECKING:
    from ._retro_c import Board as _Board

# Outcome by engine code, without Enum lookups on the hot path.
_OUTCOMES = (Outcome.DRAW, Outcome.MOUSE_WIN, Outcome.CAT_WIN)

__all__ = ["solve", "analyze", "solve_many", "GraphLike"]

GraphLike = Graph | Sequence[Sequence[int]]


def solve_position(rules: Rules, mouse: int, cat: int, turn: Turn,
                   max_memory: int | None = None, threads: int | None = None) -> Outcome:
    """Outcome of one position, stopping as soon as it is decided."""
    target = rules.position(mouse, cat, turn)
    threads = check_threads(threads, rules.n)
    check_memory(rules.n, target=True, threads=threads, max_memory=max_memory)
    return Outcome(rules.run(target=target, threads=threads))


def analyze_rules(rules: Rules, max_memory: int | None = None, *, remoteness: bool = True,
                  threads: int | None = None) -> Analysis:
    """Solve every position under ``rules`` (outcomes only with ``remoteness=False``)."""
    n = rules.n
    threads = check_threads(threads, n)
    remoteness = bool(remoteness)
    check_memory(n, outcome=True, remoteness=remoteness, threads=threads,
                 max_memory=max_memory)
    outcomes = bytearray(2 * n * n)
    table = array("i", bytes(8 * n * n)) if remoteness else None
    rules.run(outcomes, table, threads=threads)
    return Analysis(rules, outcomes, table)


def solve(
    graph: GraphLike,
    *,
    mouse: int = 1,
    cat: int = 2,
    hole: int = 0,
    max_memory: int | None = None,
    threads: int | None = None,
) -> Outcome:
    """Who wins LeetCode 913's game with optimal play, the mouse moving first.

    ``graph`` is a :class:`Graph` or adjacency lists.  The mouse starts on
    ``mouse``, the cat on ``cat``; the mouse wins on reaching ``hole``, which
    the cat may not enter.  ``max_memory`` (bytes) caps the tables;
    ``threads`` splits the search of a big graph (default: one thread for small
    graphs, every core for big ones).

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
    engine = _retro.engine
    if max_memory is None and threads is None:
        if type(graph) is Graph:
            board = graph._cache.get(("board", hole, engine.name))
            if board is not None:
                code = board.solve(mouse, cat)
                if code >= 0:
                    return _OUTCOMES[code]
        elif type(graph) is list:
            code = engine.solve_lists(graph, mouse, cat, hole)
            if code >= 0:
                return _OUTCOMES[code]
    graph = as_graph(graph)
    rules = classic_rules(graph, hole)
    result = solve_position(rules, mouse, cat, Turn.MOUSE, max_memory, threads)
    # Valid so far: later calls on this graph and hole go straight to the engine.
    _board(graph, hole, rules)
    return result


def _board(graph: Graph, hole: int, rules: Rules | None = None) -> _Board | None:
    """The engine's Board for (graph, hole), cached on the graph; None for a big graph.

    Only graphs whose search fits in SMALL_TABLES get one: the memory check
    would not consult the system for them, so a cached board skips nothing.
    """
    engine = _retro.engine
    key = ("board", hole, engine.name)
    board = graph._cache.get(key)
    if board is None:
        if need_bytes(graph.n, outcome=False, remoteness=False, target=True) > SMALL_TABLES:
            return None
        if rules is None:
            rules = classic_rules(graph, hole)
        g = graph
        board = engine.Board(g.n, rules.flags, g.indptr, g.indices, g.rindptr, g.rindices,
                             g.indptr, g.indices, g.rindptr, g.rindices)
        graph._cache[key] = board
    return board


def analyze(graph: GraphLike, *, hole: int = 0, max_memory: int | None = None,
            remoteness: bool = True, threads: int | None = None) -> Analysis:
    """Solve every position of LeetCode 913's game on ``graph``.

    ``remoteness=False`` keeps only the outcomes (1 byte per position instead
    of 5), for the biggest graphs; the queries that need the remoteness table
    (:meth:`Analysis.remoteness`, :meth:`Analysis.line`, :meth:`Analysis.verify`)
    then raise ValueError.  ``threads`` as in :func:`solve`.

    >>> a = analyze([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    >>> a.outcome(mouse=3, cat=4, turn=Turn.CAT), a.remoteness(3, 4, Turn.CAT)
    (<Outcome.CAT_WIN: 2>, 1)
    """
    return analyze_rules(classic_rules(as_graph(graph), hole), max_memory,
                         remoteness=remoteness, threads=threads)


def solve_many(
    graphs: Iterable[GraphLike],
    threads: int | None = None,
    *,
    mouse: int = 1,
    cat: int = 2,
    hole: int = 0,
) -> list[Outcome]:
    """:func:`solve` over many graphs, in ``threads`` threads (default: one per CPU).

    With the compiled engine each thread solves its share of the graphs in one
    call that holds no GIL, so threads run in parallel; build the graphs once
    (``Graph``) when the same ones are solved again.

    >>> solve_many([[[1, 3], [0], [3], [0, 2]]] * 3, threads=2)
    [<Outcome.MOUSE_WIN: 1>, <Outcome.MOUSE_WIN: 1>, <Outcome.MOUSE_WIN: 1>]
    """
    batch = [as_graph(g) for g in graphs]
    if threads is None:
        threads = os.cpu_count() or 1
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise ValueError(f"threads must be a positive integer, not {threads!r}")
    engine = _retro.engine
    boards: list[_Board] = []
    for g in batch:
        rules = classic_rules(g, hole)  # checks the hole
        board = _board(g, hole, rules)
        if board is None:
            # A big graph: the checked path, which asks for its memory first.
            return _solve_each(batch, threads, mouse, cat, hole)
        boards.append(board)
    solve_boards = engine.solve_boards
    if threads == 1 or len(boards) < 2:
        codes = solve_boards(boards, mouse, cat)
    else:
        # One GIL-free call per thread; striding balances large and small graphs.
        parts = min(threads, len(boards))
        with ThreadPoolExecutor(max_workers=parts) as pool:
            results = list(pool.map(lambda k: solve_boards(boards[k::parts], mouse, cat),
                                    range(parts)))
        codes = bytearray(len(boards))
        for k, part in enumerate(results):
            codes[k::parts] = part
    outcomes = _OUTCOMES
    out = []
    for g, code in zip(batch, codes):
        # 255: not a position of this graph; solve() reports why.
        out.append(outcomes[code] if code != 255 else solve(g, mouse=mouse, cat=cat, hole=hole))
    return out


def _solve_each(batch: list[Graph], threads: int, mouse: int, cat: int,
                hole: int) -> list[Outcome]:
    """solve_many one :func:`solve` at a time (a batch with a graph too big for a Board)."""

    def run(chunk: list[Graph]) -> list[Outcome]:
        return [solve(g, mouse=mouse, cat=cat, hole=hole) for g in chunk]

    if threads == 1 or len(batch) < 2:
        return run(batch)
    size = -(-len(batch) // threads)
    chunks = [batch[i : i + size] for i in range(0, len(batch), size)]
    with ThreadPoolExecutor(max_workers=len(chunks)) as pool:
        return [o for part in pool.map(run, chunks) for o in part]
