"""The cop number: the fewest cops who catch a robber on a graph, whatever he does.

The game of Aigner and Fromme: the cops place themselves (several may share a node), then the
robber; then they alternate, cops first, and on its turn every cop moves along an edge or
stays, then the robber does.  The cops win when one of them stands on the robber.  The engine
solves the game of ``k`` cops exactly (``catmouse.engine``'s ``cops_search``); this module
asks it for ``k = 1, 2, ...`` on each connected component.
"""

from __future__ import annotations

import operator
from typing import Any

from .. import engine
from ..engine.cops_checks import MAX_COP_NODES, MAX_COPS, most_cops_searched
from ..engine.facts import SMALL_TABLES
from ..graph import Graph, as_graph
from ..rules import memory_limit, why_short
from .limits import check_cop_threads

__all__ = ["cop_number"]


def _components(graph: Graph) -> list[list[int]]:
    rows = graph._rows()
    seen = [False] * graph.n
    parts = []
    for start in range(graph.n):
        if seen[start]:
            continue
        seen[start] = True
        part, stack = [start], [start]
        while stack:
            for v in rows[stack.pop()]:
                if not seen[v]:
                    seen[v] = True
                    part.append(v)
                    stack.append(v)
        parts.append(sorted(part))
    return parts


def _csr(graph: Graph, nodes: list[int]) -> tuple[int, Any, Any]:
    """The CSR arrays of the subgraph on ``nodes`` (sorted), numbered 0.. in their order."""
    if len(nodes) == graph.n:  # the whole graph: its own int32 arrays, checked in C
        return graph.n, graph.indptr, graph.indices
    rows = graph._rows()
    where = {u: i for i, u in enumerate(nodes)}
    indptr, indices = [0], []
    for u in nodes:
        indices += [where[v] for v in rows[u]]
        indptr.append(len(indices))
    return len(nodes), indptr, indices


def _small(n: int, most: int, threads: int | None) -> bool:
    """Whether no search of a cop number on ``n`` nodes (up to ``most`` cops) can take more
    than SMALL_TABLES bytes (``most_cops_searched`` bounds its cops)."""
    most = most_cops_searched(n, most)
    return (n <= 64 and most <= MAX_COPS
            and engine.current.cops_peak_bytes(n, most, threads=threads) <= SMALL_TABLES)


def cop_number(graph: Any, max_cops: int | None = None, *, threads: int | None = None) -> int:
    """The cop number c(G): the fewest cops with a start that catches every robber.

    ``graph`` is anything :func:`catmouse.solve` takes (adjacency lists, a :class:`Graph`, a
    networkx graph, a numpy or scipy adjacency matrix), undirected.  A disconnected graph
    needs the sum over its components; a lone node needs one cop (c(K1) = 1), the empty graph
    none.  Each component may have at most 1024 nodes (rows of one 64-bit word up to
    64 nodes, of several above).  ValueError when the answer is more
    than ``max_cops``; MemoryError, before allocating, when the positions of the next number
    of cops would not fit in the memory available.  ``threads`` splits each round of a
    search over that many threads (1 to 1024; the compiled engine, components of at most
    64 nodes); the answer is the same for every count.  None (the default) leaves the count
    to the engine: every usable CPU for a big search, one for a small one or when the
    others are busy (``catmouse.cops.limits.check_cop_threads``).  Ctrl-C stops it within
    a round.

    >>> cop_number([[1, 2], [0, 2], [0, 1, 3], [2]])          # a triangle with a tail
    1
    >>> cop_number([[1, 3], [0, 2], [1, 3], [0, 2]])          # the 4-cycle
    2
    >>> petersen = [[1, 4, 5], [0, 2, 6], [1, 3, 7], [2, 4, 8], [3, 0, 9],
    ...             [0, 7, 8], [1, 8, 9], [2, 9, 5], [3, 5, 6], [4, 6, 7]]
    >>> cop_number(petersen)
    3
    >>> cop_number(petersen, max_cops=2)
    Traceback (most recent call last):
    ...
    ValueError: the cop number is more than max_cops = 2
    """
    graph = as_graph(graph)
    if graph.directed:
        raise ValueError("the cop number needs an undirected graph")
    if max_cops is None:
        limit = graph.n
    else:
        try:  # an int, or numpy's (not a bool, whose numpy kind has no __index__)
            if isinstance(max_cops, bool):
                raise TypeError
            max_cops = operator.index(max_cops)
        except TypeError:
            raise TypeError(
                f"max_cops must be an int or None, not {type(max_cops).__name__}") from None
        if max_cops < 0:
            raise ValueError(f"max_cops must be at least 0, not {max_cops}")
        limit = max_cops
    check_cop_threads(threads)
    # Reading /proc/meminfo costs more than a small graph's searches (as check_memory's floor).
    memory, why = (None, "") if _small(graph.n, limit, threads) else memory_limit()
    parts = [list(range(graph.n))] if graph.n <= MAX_COP_NODES else _components(graph)
    total = 0
    for nodes in parts:
        if len(nodes) > MAX_COP_NODES:
            raise ValueError(f"a connected component of {len(nodes)} nodes: the cops' engine "
                             f"takes at most {MAX_COP_NODES}")
        try:
            found = engine.current.cop_number(*_csr(graph, nodes), limit - total, memory,
                                              threads=threads)
        except MemoryError as error:
            raise why_short(error, why) from None
        if found < 0:
            raise ValueError(f"the cop number is more than max_cops = {limit}")
        total += found
    return total
