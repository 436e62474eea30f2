"""An independent solver the tests trust: naive value iteration over every position.

It is written differently from the engine on purpose.  The engine walks
predecessors from the decided positions with a queue and move counters; this
oracle keeps no predecessor lists, no counters and no queue.  It sweeps every
undecided position once per round and looks only *forward*, at the position's
own moves, using what the previous rounds decided:

- round 0 decides the terminal positions (the cat on the mouse, the mouse in a
  hole, the cat on a goal) and the positions whose mover has no legal move (the
  mover loses);
- round k decides a position as a win for its mover if some move reaches a
  position won for the mover, and as a loss if every move reaches a position
  lost for the mover, with remoteness ``1 + min`` over the winning moves or
  ``1 + max`` over all moves.  That remoteness must come out as exactly k; the
  oracle asserts it, which checks the claim that remoteness is the round in
  which a position is decided;
- what no round decides is a draw (remoteness None).

Positions are ``(mouse, cat, turn)`` triples with ``turn`` 0 (mouse to move) or
1 (cat to move).  The oracle solves the general game the engine accepts: a move
graph per player (a self-loop means "may stay") and per-node flags.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field

# The engine's flag and outcome codes, written out again rather than imported,
# so a change to the engine's constants shows up as a failing test.
HOLE = 1  # the mouse wins on entering
CAT_FORBIDDEN = 2  # the cat may not enter
CAT_GOAL = 4  # the cat wins on entering
DRAW, MOUSE_WIN, CAT_WIN, NO_POSITION = 0, 1, 2, 3
MOUSE, CAT = 0, 1

INFINITE = float("inf")


@dataclass
class Solution:
    """Outcome, remoteness and best moves of every position of one game."""

    n: int
    outcome: dict[tuple[int, int, int], int] = field(default_factory=dict)
    remoteness: dict[tuple[int, int, int], int | None] = field(default_factory=dict)
    best_moves: dict[tuple[int, int, int], list[int]] = field(default_factory=dict)

    def positions(self):
        """Every position that exists, as ``(mouse, cat, turn)``."""
        return self.outcome.keys()

    def outcome_table(self) -> bytes:
        """The outcome table in the engine's layout ``turn*n*n + mouse*n + cat``."""
        n = self.n
        table = bytearray([NO_POSITION]) * (2 * n * n)
        for (m, c, t), value in self.outcome.items():
            table[(t * n + m) * n + c] = value
        return bytes(table)

    def nested(self, draw: int = DRAW) -> tuple[list, list]:
        """``(outcome, remoteness)`` as nested lists ``[turn][mouse][cat]``, as ``tolist()``
        of an Analysis gives them: a never-ending position scored ``draw`` with remoteness -1,
        a position that does not exist NO_POSITION with remoteness -1.
        """
        n = self.n
        outcome = [[[NO_POSITION] * n for _ in range(n)] for _ in range(2)]
        remoteness = [[[-1] * n for _ in range(n)] for _ in range(2)]
        for (m, c, t), value in self.outcome.items():
            r = self.remoteness[(m, c, t)]
            outcome[t][m][c] = int(draw) if r is None else value
            remoteness[t][m][c] = -1 if r is None else r
        return outcome, remoteness

    def remoteness_table(self) -> array:
        """The remoteness table in the engine's layout, -1 for draws and non-positions."""
        n = self.n
        table = array("i", [-1]) * (2 * n * n)
        for (m, c, t), r in self.remoteness.items():
            if r is not None:
                table[(t * n + m) * n + c] = r
        return table


def _win_for(turn: int) -> int:
    return MOUSE_WIN if turn == MOUSE else CAT_WIN


def solve_game(
    mouse_moves: Sequence[Sequence[int]],
    cat_moves: Sequence[Sequence[int]],
    flags: Sequence[int],
) -> Solution:
    """Solve the general game: move lists per player and per-node flags."""
    n = len(flags)
    assert len(mouse_moves) == n and len(cat_moves) == n

    def may_stand(node: int) -> bool:
        return not flags[node] & CAT_FORBIDDEN

    def terminal(m: int, c: int) -> int:
        if m == c:
            return CAT_WIN
        if flags[m] & HOLE:
            return MOUSE_WIN
        if flags[c] & CAT_GOAL:
            return CAT_WIN
        return DRAW  # not terminal

    def children(m: int, c: int, t: int) -> list[tuple[int, tuple[int, int, int]]]:
        if t == MOUSE:
            return [(v, (v, c, CAT)) for v in mouse_moves[m]]
        return [(v, (m, v, MOUSE)) for v in cat_moves[c] if may_stand(v)]

    solution = Solution(n)
    outcome, remoteness = solution.outcome, solution.remoteness
    undecided = []
    for m in range(n):
        for c in range(n):
            if not may_stand(c):
                continue
            for t in (MOUSE, CAT):
                p = (m, c, t)
                end = terminal(m, c)
                if end == DRAW and not children(m, c, t):
                    end = CAT_WIN if t == MOUSE else MOUSE_WIN  # stuck: the mover loses
                outcome[p] = end
                remoteness[p] = 0 if end else None
                if not end:
                    undecided.append(p)

    level = 0
    while True:
        level += 1
        # Jacobi sweep: decisions of this round use only earlier rounds' values.
        new = {}
        for p in undecided:
            win = _win_for(p[2])
            kids = [q for _, q in children(*p)]
            values = [outcome[q] for q in kids]
            if win in values:
                r = 1 + min(remoteness[q] for q in kids if outcome[q] == win)
                new[p] = (win, r)
            elif all(v not in (DRAW, win) for v in values):
                r = 1 + max(remoteness[q] for q in kids)
                new[p] = (values[0], r)
        if not new:
            break
        for p, (value, r) in new.items():
            assert r == level, (p, r, level)
            outcome[p], remoteness[p] = value, r
        undecided = [p for p in undecided if p not in new]

    for p in outcome:
        solution.best_moves[p] = _best_moves(p, outcome, remoteness, children, terminal)
    return solution


def _best_moves(p, outcome, remoteness, children, terminal) -> list[int]:
    m, c, t = p
    if terminal(m, c):
        return []
    win = _win_for(t)
    moves = children(m, c, t)
    if not moves:
        return []

    def length(q) -> float:
        r = remoteness[q]
        return INFINITE if r is None else r

    wins = [(v, q) for v, q in moves if outcome[q] == win]
    draws = [v for v, q in moves if outcome[q] == DRAW]
    if wins:
        # Hurry: the wins that end soonest.
        shortest = min(length(q) for _, q in wins)
        return sorted(v for v, q in wins if length(q) == shortest)
    if draws:
        return sorted(draws)
    # Every move loses: delay as long as possible.
    longest = max(length(q) for _, q in moves)
    return sorted(v for v, q in moves if length(q) == longest)


def classic_flags(n: int, hole: int = 0) -> list[int]:
    """LeetCode 913's flags: the mouse wins on the hole and the cat may not enter it."""
    flags = [0] * n
    flags[hole] = HOLE | CAT_FORBIDDEN
    return flags


def solve_classic(adjacency: Sequence[Sequence[int]], hole: int = 0) -> Solution:
    """LeetCode 913 on undirected ``adjacency`` with a chosen hole, the stuck mover losing."""
    return solve_game(adjacency, adjacency, classic_flags(len(adjacency), hole))


def csr(adjacency: Sequence[Sequence[int]]) -> tuple[array, array, array, array]:
    """``(indptr, indices, rindptr, rindices)`` int32 arrays of a directed move graph.

    Built here, not by :class:`catmouse.Graph`, so engine tests can feed graphs
    Graph rejects on purpose (self-loops, one-way edges).
    """
    n = len(adjacency)
    indptr, indices = array("i", [0]), array("i")
    into: list[list[int]] = [[] for _ in range(n)]
    for u, row in enumerate(adjacency):
        indices.extend(row)
        indptr.append(len(indices))
        for v in row:
            into[v].append(u)
    rindptr, rindices = array("i", [0]), array("i")
    for row in into:
        rindices.extend(row)
        rindptr.append(len(rindices))
    return indptr, indices, rindptr, rindices


def engine_args(
    mouse_moves: Sequence[Sequence[int]],
    cat_moves: Sequence[Sequence[int]],
    flags: Sequence[int],
) -> tuple:
    """The positional arguments of an engine's ``propagate`` for a general game."""
    return (len(flags), bytes(flags), *csr(mouse_moves), *csr(cat_moves))


def planes_run(engine, args: tuple, *, threads: int = 1, fill: int = 0xA5,
               outcome_fill: int = 0x00, progress=None, more_bytes=None) -> tuple:
    """An engine's ``propagate`` in planes mode on buffers filled first (the engine writes
    every byte of both): (decided, outcome, layers), the layers as bytes, the given one first.
    The layer's size is planes.layer_bytes's, written out here."""
    n = args[0]
    outcome = bytearray([outcome_fill]) * (2 * n * n)
    planes = bytearray([fill]) * (2 * n * ((n + 63) // 64) * 64)
    more: list = []
    extra = {} if progress is None else {"progress": progress}
    if more_bytes is not None:
        extra["more_bytes"] = more_bytes
    decided = engine.propagate(*args, outcome, threads=threads, planes=planes,
                               more_planes=more, **extra)
    return decided, bytes(outcome), [bytes(planes), *(bytes(layer) for layer in more)]


def game_flags(n: int, holes=(), cat_forbidden=(), cat_goals=()) -> list[int]:
    """Per-node flags from the node sets :class:`catmouse.Game` takes."""
    flags = [0] * n
    for nodes, flag in ((holes, HOLE), (cat_forbidden, CAT_FORBIDDEN), (cat_goals, CAT_GOAL)):
        for u in nodes:
            flags[u] |= flag
    return flags


# -- random boards ----------------------------------------------------------------


def gnp_rows(rng, n: int, p: float) -> list[list[int]]:
    """Undirected G(n, p) adjacency lists: each pair in turn joined with probability ``p``."""
    rows: list[list[int]] = [[] for _ in range(n)]
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < p:
                rows[u].append(v)
                rows[v].append(u)
    return rows


def random_board(rng, n_min: int = 2, n_max: int = 10) -> tuple[list[list[int]], int]:
    """A random valid undirected board and hole: ``(adjacency, hole)``.

    Varies size and density (sparse boards are often disconnected), sometimes
    strands a node next to the hole alone (a cat there is stuck) or leaves
    nodes isolated (a mouse there is stuck), and moves the hole off node 0.
    """
    n = rng.randint(n_min, n_max)
    density = rng.choice((0.1, 0.2, 0.3, 0.5, 0.7, 0.9, rng.random()))
    edges = {(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < density}
    hole = 0 if rng.random() < 0.5 else rng.randrange(n)
    if n > 2 and rng.random() < 0.3:
        # A node whose only neighbour is the hole: a cat there cannot move.
        lonely = rng.choice([v for v in range(n) if v != hole])
        edges = {e for e in edges if lonely not in e}
        edges.add((min(lonely, hole), max(lonely, hole)))
    if rng.random() < 0.1:
        isolated = rng.randrange(n)
        edges = {e for e in edges if isolated not in e}
    adjacency: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        adjacency[u].append(v)
        adjacency[v].append(u)
    for row in adjacency:
        rng.shuffle(row)
    return adjacency, hole


def random_game(rng, n_min: int = 1, n_max: int = 8, shuffled: bool = False):
    """A random general game: ``(mouse_moves, cat_moves, flags)``.

    Directed move graphs that differ per player, self-loops ("may stay"), and
    any mix of flags, including holes the cat may enter and goals.  With
    ``shuffled`` the rows come in random order (nothing may rely on sorted rows).
    """
    n = rng.randint(n_min, n_max)

    def moves(density: float) -> list[list[int]]:
        rows = [[v for v in range(n) if rng.random() < density] for _ in range(n)]
        if shuffled:
            for row in rows:
                rng.shuffle(row)
        return rows

    mouse_moves = moves(rng.random())
    cat_moves = mouse_moves if rng.random() < 0.3 else moves(rng.random())
    flags = [rng.choice((0, 0, 0, HOLE, HOLE | CAT_FORBIDDEN, CAT_FORBIDDEN, CAT_GOAL,
                         HOLE | CAT_GOAL, rng.randrange(8)))
             for _ in range(n)]
    return mouse_moves, cat_moves, flags
