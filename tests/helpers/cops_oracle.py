"""An independent oracle for the k-cops game: a plain fixed point over ordered cop tuples.

Nothing shared with the engine: positions are ``(cops, robber, turn)`` with ``cops`` an
*ordered* tuple (n^k of them), moves enumerated as tuples, values iterated from infinity until
nothing changes.  The value is the capture time in plies (0 when a cop stands on the robber),
or None where the robber escapes forever.
"""

from __future__ import annotations

from itertools import product

ROBBER, COPS = 0, 1


def solve_cops(adjacency: list[list[int]], k: int) -> dict[tuple, int | None]:
    """Capture time of every position ``(cops, robber, turn)``; None where the robber escapes."""
    n = len(adjacency)
    closed = [sorted({u, *adjacency[u]}) for u in range(n)]
    teams = list(product(range(n), repeat=k))
    inf = float("inf")
    value = {(team, r, turn): (0 if r in team else inf)
             for team in teams for r in range(n) for turn in (ROBBER, COPS)}
    moves = {team: list(product(*(closed[u] for u in team))) for team in teams}
    changed = True
    while changed:
        changed = False
        for team in teams:
            for r in range(n):
                if r in team:
                    continue
                cop = 1 + min(value[(nxt, r, ROBBER)] for nxt in moves[team])
                robber = 1 + max(value[(team, s, COPS)] for s in closed[r])
                for turn, new in ((COPS, cop), (ROBBER, robber)):
                    if new < value[(team, r, turn)]:
                        value[(team, r, turn)] = new
                        changed = True
    return {key: (None if v == inf else int(v)) for key, v in value.items()}


def cop_number(adjacency: list[list[int]]) -> int:
    """The fewest cops with a start that catches every robber start (a connected graph)."""
    n = len(adjacency)
    k = 1
    while True:
        value = solve_cops(adjacency, k)
        if any(all(value[(team, r, COPS)] is not None for r in range(n))
               for team in product(range(n), repeat=k)):
            return k
        k += 1


def csr(graph) -> tuple[int, list[int], list[int]]:
    """``(n, indptr, indices)`` of a networkx graph, its nodes numbered 0..n-1 in order and
    each row sorted: the k-cops engines' input."""
    import networkx as nx

    graph = nx.convert_node_labels_to_integers(graph)
    indptr, indices = [0], []
    for u in range(graph.number_of_nodes()):
        indices += sorted(graph[u])
        indptr.append(len(indices))
    return graph.number_of_nodes(), indptr, indices
