"""Engine results that other tests only compare with another run of the same code.

The threads and pool tests compare a threaded run with a serial one, the CLI tests
compare a written table with ``catmouse.analyze``, and the fast-path tests compare
``solve(list)``, the cached Board and ``solve_many`` with the plain ``solve``: a wrong
engine passes all of them.  Here each of those results is pinned to the oracle
(tests/helpers/oracle.py) directly, on both engines.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from oracle import MOUSE, random_board, solve_classic

import catmouse
from catmouse import Graph, Outcome
from catmouse.cli.commands import main
from catmouse.io.graph_files import read_graph

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def boards(seed: str, count: int, n_min: int = 3, n_max: int = 10):
    rng = random.Random(seed)
    for _ in range(count):
        adjacency, hole = random_board(rng, n_min, n_max)
        yield rng, adjacency, hole, solve_classic(adjacency, hole)


def starts(rng, n, hole, count=4):
    """Random (mouse, cat) starts with the cat off the hole."""
    cats = [c for c in range(n) if c != hole]
    return [(rng.randrange(n), rng.choice(cats)) for _ in range(count)]


def test_solve_on_lists_and_cached_boards(use_engine):
    """solve(list) (the compiled solve_lists path) and solve(Graph) twice (Board cached)."""
    for rng, adjacency, hole, expected in boards("pins-solve", 300):
        graph = Graph(adjacency)
        for mouse, cat in starts(rng, len(adjacency), hole):
            want = expected.outcome[mouse, cat, MOUSE]
            where = (adjacency, hole, mouse, cat)
            assert catmouse.solve(adjacency, mouse=mouse, cat=cat, hole=hole) == want, where
            for _ in range(2):
                assert catmouse.solve(graph, mouse=mouse, cat=cat, hole=hole) == want, where


def test_solve_on_lists_above_64_nodes(use_engine):
    """solve_lists checks graphs of more than 64 nodes with arrays instead of bit masks."""
    rng = random.Random("pins-big")
    for _ in range(3):
        n = rng.randint(65, 75)
        rows = [set() for _ in range(n)]
        for u in range(n):
            for v in rng.sample(range(n), 3):
                if v != u:
                    rows[u].add(v)
                    rows[v].add(u)
        adjacency = [sorted(r) for r in rows]
        expected = solve_classic(adjacency, 0)
        for mouse, cat in starts(rng, n, 0, 6):
            assert catmouse.solve(adjacency, mouse=mouse, cat=cat) == expected.outcome[
                mouse, cat, MOUSE]


@pytest.mark.parametrize("threads", [1, 2])
def test_solve_many(use_engine, threads):
    cases = list(boards(f"pins-many-{threads}", 120))
    for mouse, cat in [(1, 2), (2, 1)]:
        picked = [(adj, hole, sol) for _, adj, hole, sol in cases
                  if len(adj) > max(mouse, cat) and hole not in (cat,)]
        for hole in {hole for _, hole, _ in picked}:
            same_hole = [(adj, sol) for adj, h, sol in picked if h == hole]
            graphs = [adj if i % 2 else Graph(adj) for i, (adj, _) in enumerate(same_hole)]
            got = catmouse.solve_many(graphs, threads=threads, mouse=mouse, cat=cat, hole=hole)
            assert got == [sol.outcome[mouse, cat, MOUSE] for _, sol in same_hole]


def test_cli_analyze_json(use_engine, tmp_path, capsys):
    path = EXAMPLES / "leetcode1.json"
    out_path = tmp_path / "table.json"
    assert main(["analyze", str(path), "-o", str(out_path)]) == 0
    capsys.readouterr()
    data = json.loads(out_path.read_text())
    game = read_graph(str(path))
    outcome, remoteness = solve_classic(game.graph.adjacency(), game.hole or 0).nested()
    assert data["outcomes"] == outcome
    assert data["remoteness"] == remoteness


def test_cli_analyze_npz(use_engine, tmp_path, capsys):
    np = pytest.importorskip("numpy")
    path = EXAMPLES / "petersen.g6"
    out_path = tmp_path / "table.npz"
    assert main(["analyze", str(path), "-o", str(out_path), "--hole", "4"]) == 0
    capsys.readouterr()
    data = np.load(out_path)
    outcome, remoteness = solve_classic(read_graph(str(path)).graph.adjacency(), 4).nested()
    assert data["outcomes"].tolist() == outcome
    assert data["remoteness"].tolist() == remoteness


def _path_graph(n: int, isolate_one: bool) -> Graph:
    """A path over n nodes; with ``isolate_one`` node 1 is cut off (node 0 joins node 2)."""
    edges = [(u, u + 1) for u in range(2, n - 1)]
    edges += [(0, 2)] if isolate_one else [(0, 1), (1, 2)]
    return Graph.from_edges(n, edges)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_solve_many_with_graphs_too_big_for_a_board(threads):
    """A batch holding a graph above SMALL_TABLES takes the one-solve-at-a-time path.

    The big graphs' answers are known by hand: the mouse on 1 steps into the hole
    0, or, cut off on node 1, cannot move and loses.
    """
    small = list(boards(f"pins-big-batch-{threads}", 7, n_min=3))
    batch = [adj for _, adj, hole, _ in small if hole == 0]
    want = [sol.outcome[1, 2, MOUSE] for _, adj, hole, sol in small if hole == 0]
    batch[1:1] = [_path_graph(1100, isolate_one=False), _path_graph(1100, isolate_one=True)]
    want[1:1] = [Outcome.MOUSE_WIN, Outcome.CAT_WIN]
    assert catmouse.solve_many(batch, threads=threads) == want
