"""Two relatives of LeetCode 913, each one Game: Cat and Mouse II and cop-win graphs."""

from __future__ import annotations

from collections.abc import Sequence

from .game import Game
from .graph import Graph, _node_id, as_graph
from .outcome import Outcome, Turn
from .solving import GraphLike

__all__ = ["cat_mouse_ii", "is_cop_win"]

_GRID_CHARS = frozenset("CMF.#")
_DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _jump_count(value: object, name: str) -> int:
    value = _node_id(value, name)
    if value < 0:
        raise ValueError(f"{name} must be at least 0, got {value}")
    return value


def _read_grid(grid: Sequence[str]) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """Validate the grid; return its rows and where C, M and F are."""
    if isinstance(grid, (str, bytes)) or not isinstance(grid, Sequence):
        raise TypeError(f"grid must be a list of strings, not {type(grid).__name__}")
    rows = list(grid)
    if not rows:
        raise ValueError("grid has no rows")
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            raise TypeError(f"grid row {r} must be a string, not {type(row).__name__}")
        if len(row) != len(rows[0]):
            raise ValueError(f"grid row {r} has {len(row)} cells, row 0 has {len(rows[0])}")
        bad = set(row) - _GRID_CHARS
        if bad:
            raise ValueError(f"grid row {r} holds {min(bad)!r}; cells are C, M, F, '.' or '#'")
    if not rows[0]:
        raise ValueError("grid rows are empty")
    where = {}
    for char in "CMF":
        found = [(r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x == char]
        if len(found) != 1:
            raise ValueError(f"grid must hold exactly one {char!r}, found {len(found)}")
        where[char] = found[0]
    return rows, where


def _jump_graph(rows: list[str], cell_id: dict[tuple[int, int], int], jump: int) -> Graph:
    """Edges from each open cell to those 1..jump cells away in a straight open line."""
    adjacency: list[list[int]] = [[] for _ in cell_id]
    height, width = len(rows), len(rows[0])
    for (r, c), u in cell_id.items():
        for dr, dc in _DIRECTIONS:
            for step in range(1, jump + 1):
                rr, cc = r + dr * step, c + dc * step
                if not (0 <= rr < height and 0 <= cc < width) or rows[rr][cc] == "#":
                    break
                adjacency[u].append(cell_id[rr, cc])
    return Graph(adjacency)


def cat_mouse_ii(
    grid: Sequence[str], cat_jump: int, mouse_jump: int, *, max_turns: int = 1000
) -> bool:
    """LeetCode 1728, Cat and Mouse II: True when the mouse wins with optimal play.

    ``grid`` holds one cat ``C``, one mouse ``M``, one food ``F``, floors ``.``
    and walls ``#``.  The mouse moves first.  A player jumps 0 to its jump
    length cells in one of the four directions, never through a wall or off the
    grid, possibly over the other player (a jump of 0 stays put).  The cat wins
    by landing on the mouse or on the food; the mouse wins by reaching the food,
    but only within ``max_turns`` turns.

    A *turn* here is one move of one player (LeetCode: "then they take turns to
    move"), so the mouse must reach the food within ``max_turns`` moves counted
    over both players: its quickest forced win, against a cat that delays as
    long as it can, must be at most ``max_turns`` plies long.  A game that never
    ends is the cat's.

    >>> cat_mouse_ii(["####F", "#C...", "M...."], cat_jump=1, mouse_jump=2)
    True
    >>> cat_mouse_ii(["M.C...F"], 1, 4), cat_mouse_ii(["M.C...F"], 1, 3)
    (True, False)
    """
    rows, where = _read_grid(grid)
    cat_jump = _jump_count(cat_jump, "cat_jump")
    mouse_jump = _jump_count(mouse_jump, "mouse_jump")
    max_turns = _jump_count(max_turns, "max_turns")
    open_cells = [(r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x != "#"]
    cell_id = {cell: i for i, cell in enumerate(open_cells)}
    food = cell_id[where["F"]]
    game = Game(
        _jump_graph(rows, cell_id, mouse_jump),
        cat_graph=_jump_graph(rows, cell_id, cat_jump),
        holes=(food,),  # the mouse wins on the food...
        cat_forbidden=(),
        cat_goals=(food,),  # ...and so does the cat
        mouse_stays=True,
        cat_stays=True,
        draw=Outcome.CAT_WIN,
    )
    mouse, cat = cell_id[where["M"]], cell_id[where["C"]]
    analysis = game.analyze()
    if analysis.outcome(mouse, cat, Turn.MOUSE) != Outcome.MOUSE_WIN:
        return False
    remoteness = analysis.remoteness(mouse, cat, Turn.MOUSE)
    return remoteness is not None and remoteness <= max_turns


def _is_connected(graph: Graph) -> bool:
    rows = graph._rows()
    seen = {0}
    stack = [0]
    while stack:
        for v in rows[stack.pop()]:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return len(seen) == graph.n


def is_cop_win(graph: GraphLike) -> bool:
    """Whether one cop catches a robber on ``graph``, whatever the robber does.

    The cop (the cat) places first, then the robber (the mouse), then the cop
    moves first; both may stay put; the cop wins by capture, and a robber who
    escapes forever wins.  ``graph`` must be undirected and connected.

    >>> is_cop_win([[1, 2], [0, 2], [0, 1, 3], [2]])        # a triangle with a tail
    True
    >>> is_cop_win([[1, 3], [0, 2], [1, 3], [0, 2]])        # the 4-cycle
    False
    """
    graph = as_graph(graph)
    if graph.directed:
        raise ValueError("is_cop_win needs an undirected graph")
    if graph.n == 0:
        raise ValueError("is_cop_win needs a graph with at least one node")
    if not _is_connected(graph):
        raise ValueError("is_cop_win needs a connected graph")
    game = Game(graph, holes=(), mouse_stays=True, cat_stays=True,
                draw=Outcome.MOUSE_WIN, first=Turn.CAT)
    n = graph.n
    # outcomes[CAT][robber][cop], flattened: one cop start is column cop of this block.
    cop_to_move = game.analyze().outcomes.tobytes()[n * n :]
    return any(cop_to_move[cop::n].count(Outcome.CAT_WIN) == n for cop in range(n))
