"""Cat and Mouse II (LeetCode 1728) and cop-win graphs, each against its own oracle."""

from __future__ import annotations

import random

import pytest

from catmouse import Graph, cat_mouse_ii, is_cop_win

# -- Cat and Mouse II ----------------------------------------------------------------


@pytest.mark.parametrize(
    "grid, cat_jump, mouse_jump, mouse_wins",
    [
        # The three examples of the problem statement.
        (["####F", "#C...", "M...."], 1, 2, True),
        (["M.C...F"], 1, 4, True),
        (["M.C...F"], 1, 3, False),
    ],
)
def test_leetcode_1728_examples(use_engine, grid, cat_jump, mouse_jump, mouse_wins):
    assert cat_mouse_ii(grid, cat_jump, mouse_jump) is mouse_wins


def grid_moves(grid, r, c, jump):
    """Cells reachable in one jump of 0..jump cells, walking the grid itself."""
    cells = [(r, c)]
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        rr, cc = r, c
        for _ in range(jump):
            rr, cc = rr + dr, cc + dc
            if not (0 <= rr < len(grid) and 0 <= cc < len(grid[0])) or grid[rr][cc] == "#":
                break
            cells.append((rr, cc))
    return cells


def mouse_win_plies(grid, cat_jump, mouse_jump):
    """Plies the mouse needs to force reaching the food from the start, or None.

    Bounded-horizon minimax, bottom up: ``wins`` holds the positions
    ``(mouse, cat, mouse_to_move)`` from which the mouse reaches the food
    within k plies; k grows until the set stops growing.
    """
    cells = [(r, c) for r, row in enumerate(grid) for c, x in enumerate(row) if x != "#"]
    find = {x: (r, c) for r, row in enumerate(grid) for c, x in enumerate(row) if x in "CMF"}
    food = find["F"]
    start = (find["M"], find["C"], True)
    mouse_moves = {cell: grid_moves(grid, *cell, mouse_jump) for cell in cells}
    cat_moves = {cell: grid_moves(grid, *cell, cat_jump) for cell in cells}
    over = set()  # positions where the game has ended
    wins = set()
    for mouse in cells:
        for cat in cells:
            for mouse_to_move in (True, False):
                p = (mouse, cat, mouse_to_move)
                if mouse == cat or cat == food:
                    over.add(p)
                elif mouse == food:
                    over.add(p)
                    wins.add(p)
    open_positions = [(m, c, t) for m in cells for c in cells for t in (True, False)
                      if (m, c, t) not in over]
    plies = 0
    while start not in wins:
        plies += 1
        grown = set()
        for m, c, mouse_to_move in open_positions:
            if (m, c, mouse_to_move) in wins:
                continue
            if mouse_to_move:
                if any((m2, c, False) in wins for m2 in mouse_moves[m]):
                    grown.add((m, c, mouse_to_move))
            elif all((m, c2, True) in wins for c2 in cat_moves[c]):
                grown.add((m, c, mouse_to_move))
        if not grown:
            return None
        wins |= grown
    return plies


def random_grid(rng, height, width):
    assert height * width >= 3
    while True:
        grid = [["#" if rng.random() < 0.25 else "." for _ in range(width)] for _ in range(height)]
        free = [(r, c) for r in range(height) for c in range(width) if grid[r][c] == "."]
        if len(free) >= 3:
            break
    for char, (r, c) in zip("CMF", rng.sample(free, 3)):
        grid[r][c] = char
    return ["".join(row) for row in grid]


def test_cat_mouse_ii_matches_direct_search(use_engine):
    rng = random.Random("1728")
    verdicts = {True: 0, False: 0}
    limited = 0
    for _ in range(300):
        grid = random_grid(rng, rng.randint(1, 4), rng.randint(3, 5))
        cat_jump, mouse_jump = rng.randint(0, 3), rng.randint(0, 3)
        plies = mouse_win_plies(grid, cat_jump, mouse_jump)
        mouse_wins = plies is not None
        assert cat_mouse_ii(grid, cat_jump, mouse_jump) is mouse_wins, (grid, cat_jump, mouse_jump)
        verdicts[mouse_wins] += 1
        if mouse_wins:
            # The turn limit: a win of k plies needs max_turns >= k.
            assert cat_mouse_ii(grid, cat_jump, mouse_jump, max_turns=plies) is True
            if plies > 0:
                limited += 1
                assert cat_mouse_ii(grid, cat_jump, mouse_jump, max_turns=plies - 1) is False
    assert min(verdicts.values()) >= 50, verdicts
    assert limited >= 50


def test_cat_mouse_ii_larger_grids(use_engine):
    """LeetCode-sized grids (up to 8 x 8) against the same search, fewer of them."""
    rng = random.Random("1728-large")
    for _ in range(30):
        grid = random_grid(rng, rng.randint(5, 8), rng.randint(5, 8))
        cat_jump, mouse_jump = rng.randint(1, 4), rng.randint(1, 4)
        mouse_wins = mouse_win_plies(grid, cat_jump, mouse_jump) is not None
        assert cat_mouse_ii(grid, cat_jump, mouse_jump) is mouse_wins, (grid, cat_jump, mouse_jump)


CORRIDOR = ["CM......", "#######.", "........", ".#######",
            "........", "#######.", "........", "F#######"]


@pytest.mark.parametrize(
    "grid, cat_jump, mouse_jump",
    [
        (["C...#", "...#F", "....#", "M...."], 2, 5),
        ([".M...", "..#..", "#..#.", "C#.#.", "...#F"], 3, 1),
        (CORRIDOR, 1, 1),  # the mouse runs a long way ahead of the cat
    ],
)
def test_cat_mouse_ii_known_grids(use_engine, grid, cat_jump, mouse_jump):
    plies = mouse_win_plies(grid, cat_jump, mouse_jump)
    assert cat_mouse_ii(grid, cat_jump, mouse_jump) is (plies is not None)
    if plies is not None:
        assert cat_mouse_ii(grid, cat_jump, mouse_jump, max_turns=plies)
        assert not cat_mouse_ii(grid, cat_jump, mouse_jump, max_turns=plies - 1)


@pytest.mark.parametrize(
    "args, error, message",
    [
        ((["M.C.F"], -1, 1), ValueError, "cat_jump must be at least 0"),
        ((["M.C.F"], 1, 1.0), TypeError, "mouse_jump must be an integer"),
        (("M.C.F", 1, 1), TypeError, "grid must be a list of strings"),
        (([], 1, 1), ValueError, "no rows"),
        ((["M.C.F", "..."], 1, 1), ValueError, "row 1 has 3 cells"),
        ((["M.C.Fx"], 1, 1), ValueError, "holds 'x'"),
        ((["M.C.."], 1, 1), ValueError, "exactly one 'F'"),
        ((["MMC.F"], 1, 1), ValueError, "exactly one 'M'"),
        (([["M", "C", "F"]], 1, 1), TypeError, "row 0 must be a string"),
    ],
)
def test_cat_mouse_ii_rejects_bad_input(args, error, message):
    with pytest.raises(error, match=message):
        cat_mouse_ii(*args)


# -- cop-win graphs ------------------------------------------------------------------


def dismantlable(n, edges):
    """Remove a vertex whose closed neighbourhood lies in another's until none is left."""
    closed = {u: {u} for u in range(n)}
    for u, v in edges:
        closed[u].add(v)
        closed[v].add(u)
    while len(closed) > 1:
        corner = next(
            (u for u in closed for v in closed if v != u and closed[u] <= closed[v]), None
        )
        if corner is None:
            return False
        del closed[corner]
        for others in closed.values():
            others.discard(corner)
    return True


def random_connected(rng, n):
    edges = {tuple(sorted((v, rng.randrange(v)))) for v in range(1, n)}  # a random tree
    p = rng.choice([0.0, 0.1, 0.25, 0.45, 0.7])
    edges |= {(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < p}
    return sorted(edges)


def random_chordal(rng, n):
    """Each new vertex joins a clique of earlier ones: a perfect elimination order."""
    adjacent = [set()]
    for v in range(1, n):
        clique = [rng.randrange(v)]
        for u in rng.sample(range(v), v):
            if u not in clique and all(u in adjacent[w] for w in clique) and rng.random() < 0.6:
                clique.append(u)
        adjacent.append(set(clique))
        for u in clique:
            adjacent[u].add(v)
    return sorted((u, v) for v in range(n) for u in adjacent[v] if u < v)


def test_cop_win_is_dismantlable(use_engine):
    rng = random.Random("cops")
    counts = {True: 0, False: 0}
    for _ in range(400):
        n = rng.randint(1, 9)
        edges = random_connected(rng, n)
        expected = dismantlable(n, edges)
        assert is_cop_win(Graph.from_edges(n, edges)) is expected, (n, edges)
        counts[expected] += 1
    assert min(counts.values()) >= 50, counts


def test_trees_and_chordal_graphs_are_cop_win(use_engine):
    rng = random.Random("chordal")
    for _ in range(150):
        n = rng.randint(1, 10)
        tree = [(v, rng.randrange(v)) for v in range(1, n)]
        assert is_cop_win(Graph.from_edges(n, tree))
        chordal = random_chordal(rng, n)
        assert dismantlable(n, chordal)
        assert is_cop_win(Graph.from_edges(n, chordal))


@pytest.mark.parametrize("n", range(3, 12))
def test_cycles(use_engine, n):
    cycle = Graph.from_edges(n, [(i, (i + 1) % n) for i in range(n)])
    assert is_cop_win(cycle) is (n == 3)


def test_petersen_and_grid_are_not_cop_win(use_engine):
    outer = [(i, (i + 1) % 5) for i in range(5)]
    spokes = [(i, i + 5) for i in range(5)]
    inner = [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
    assert not is_cop_win(Graph.from_edges(10, outer + spokes + inner))
    grid = [(r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2)]
    grid += [(r * 3 + c, r * 3 + c + 3) for r in range(2) for c in range(3)]
    assert not is_cop_win(Graph.from_edges(9, grid))


@pytest.mark.parametrize(
    "graph, message",
    [
        (Graph([[1], []], directed=True), "undirected"),
        (Graph([]), "at least one node"),
        (Graph([[1], [0], []]), "connected"),
    ],
)
def test_is_cop_win_rejects(graph, message):
    with pytest.raises(ValueError, match=message):
        is_cop_win(graph)


def test_cat_mouse_ii_default_turn_limit_is_1000():
    """A walled-in cat and a corridor: the mouse needs 2k + 1 plies for k floor cells."""
    assert cat_mouse_ii(["C#M" + "." * 499 + "F"], 1, 1) is True  # 999 plies
    assert cat_mouse_ii(["C#M" + "." * 500 + "F"], 1, 1) is False  # 1001 plies


@pytest.mark.parametrize("grid, kwargs, error, message", [
    (["", ""], {}, ValueError, "grid rows are empty"),
    (["M.C.F"], {"max_turns": -1}, ValueError, "max_turns must be at least 0"),
    (["M.C.F"], {"max_turns": 1.5}, TypeError, "max_turns"),
])
def test_cat_mouse_ii_rejects_more(grid, kwargs, error, message):
    with pytest.raises(error, match=message):
        cat_mouse_ii(grid, 1, 1, **kwargs)
