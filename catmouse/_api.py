"""The public functions for LeetCode 913's rules: solve, analyze, solve_many."""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Union

from ._analysis import Analysis
from ._graph import Graph, as_graph
from ._outcome import Outcome, Turn
from ._rules import ANALYZE_BYTES, SOLVE_BYTES, Rules, check_memory, classic_rules

__all__ = ["solve", "analyze", "solve_many", "GraphLike"]

GraphLike = Union[Graph, Sequence[Sequence[int]]]


def solve_position(rules: Rules, mouse: int, cat: int, turn: Turn,
                   max_memory: int | None = None) -> Outcome:
    """Outcome of one position, stopping as soon as it is decided."""
    target = rules.position(mouse, cat, turn)
    check_memory(rules.n, SOLVE_BYTES, max_memory)
    return Outcome(rules.run(target=target))


def analyze_rules(rules: Rules, max_memory: int | None = None) -> Analysis:
    """Solve every position under ``rules``."""
    n = rules.n
    check_memory(n, ANALYZE_BYTES, max_memory)
    outcomes = bytearray(2 * n * n)
    remoteness = array("i", bytes(8 * n * n))
    rules.run(outcomes, remoteness)
    return Analysis(rules, outcomes, remoteness)


def solve(
    graph: GraphLike,
    *,
    mouse: int = 1,
    cat: int = 2,
    hole: int = 0,
    max_memory: int | None = None,
) -> Outcome:
    """Who wins LeetCode 913's game with optimal play, the mouse moving first.

    ``graph`` is a :class:`Graph` or adjacency lists.  The mouse starts on
    ``mouse``, the cat on ``cat``; the mouse wins on reaching ``hole``, which
    the cat may not enter.  ``max_memory`` (bytes) caps the tables.

    >>> solve([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    <Outcome.DRAW: 0>
    >>> solve([[1, 3], [0], [3], [0, 2]])
    <Outcome.MOUSE_WIN: 1>
    """
    return solve_position(classic_rules(as_graph(graph), hole), mouse, cat, Turn.MOUSE,
                          max_memory)


def analyze(graph: GraphLike, *, hole: int = 0, max_memory: int | None = None) -> Analysis:
    """Solve every position of LeetCode 913's game on ``graph``.

    >>> a = analyze([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    >>> a.outcome(mouse=3, cat=4, turn=Turn.CAT), a.remoteness(3, 4, Turn.CAT)
    (<Outcome.CAT_WIN: 2>, 1)
    """
    return analyze_rules(classic_rules(as_graph(graph), hole), max_memory)


def solve_many(
    graphs: Iterable[GraphLike],
    threads: int | None = None,
    *,
    mouse: int = 1,
    cat: int = 2,
    hole: int = 0,
) -> list[Outcome]:
    """:func:`solve` over many graphs, in ``threads`` threads (default: one per CPU).

    The compiled engine releases the GIL, so threads run in parallel.

    >>> solve_many([[[1, 3], [0], [3], [0, 2]]] * 3, threads=2)
    [<Outcome.MOUSE_WIN: 1>, <Outcome.MOUSE_WIN: 1>, <Outcome.MOUSE_WIN: 1>]
    """
    batch = [as_graph(g) for g in graphs]
    if threads is None:
        threads = os.cpu_count() or 1
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise ValueError(f"threads must be a positive integer, not {threads!r}")

    def run(chunk: list[Graph]) -> list[Outcome]:
        return [solve(g, mouse=mouse, cat=cat, hole=hole) for g in chunk]

    if threads == 1 or len(batch) < 2:
        return run(batch)
    size = -(-len(batch) // threads)
    chunks = [batch[i : i + size] for i in range(0, len(batch), size)]
    with ThreadPoolExecutor(max_workers=len(chunks)) as pool:
        return [o for part in pool.map(run, chunks) for o in part]
