"""Behaviour of the compiled engine's fast paths (no timings here: see benchmarks/bench.py).

Every fast path must give what the plain path gives: the compiled tables equal
the pure twin's bit for bit (and a naive oracle's) on games with holes, cat-forbidden
nodes, cat goals, self-loops and one-way edges; packed, narrow and wide move counters
agree; the block queue grows; Board, solve_lists and solve_many agree with the
plain solve; and the compiled Graph builder accepts and rejects exactly what
the Python validator does, with the same messages.
"""

from __future__ import annotations

import random
from array import array

import pytest
from engines import on_engine
from oracle import engine_args, random_game, solve_game

import catmouse
from catmouse import engine as selector
from catmouse import solving as _solving
from catmouse.engine import bits_py
from catmouse.engine.facts import CAT_FORBIDDEN, HOLE
from catmouse.graph import Graph
from catmouse.outcome import Outcome

bits_c = pytest.importorskip("catmouse.engine.bits_c")

# The API takes its compiled fast paths only when the compiled engine is in use.
needs_fast_paths = pytest.mark.skipif(
    selector.current.name != "cython", reason="the API runs on the pure-Python engine")


# -- games built straight from move lists (tests/helpers/oracle.py builds and solves them) ---------


def tables(engine, args):
    n = args[0]
    outcome = bytearray(2 * n * n)
    remoteness = array("i", [0]) * (2 * n * n)
    decided = engine.propagate(*args, outcome, remoteness)
    return decided, bytes(outcome), remoteness.tolist()


def oracle_tables(game):
    """The oracle's outcome and remoteness tables in the engine's layout."""
    solution = solve_game(*game)
    return solution.outcome_table(), solution.remoteness_table().tolist()


@pytest.mark.parametrize("seed", range(6))
def test_engines_agree_with_each_other_and_the_oracle(seed):
    rng = random.Random(seed)
    for _ in range(40):
        game = random_game(rng, 1, 7, shuffled=True)
        args = engine_args(*game)
        compiled = tables(bits_c, args)
        assert compiled == tables(bits_py, args)
        assert compiled[1:] == oracle_tables(game)
        n = args[0]
        for target in range(2 * n * n):
            code = bits_c.propagate(*args, None, None, target)
            assert code == bits_py.propagate(*args, None, None, target)
            assert code == compiled[1][target]


@pytest.mark.parametrize("hub", [40, 100, 260])
def test_counter_widths_agree(hub):
    # Node 1 has ``hub`` moves: counts packed beside the outcome (up to 63),
    # one byte (up to 255), or two bytes; the twin has no such choice.
    n = hub + 1
    rows = [[] for _ in range(n)]
    for v in range(n):
        if v != 1:
            rows[1].append(v)
            rows[v].append(1)
    for v in range(2, n - 1):
        rows[v].append(v + 1)
        rows[v + 1].append(v)
    flags = [HOLE | CAT_FORBIDDEN] + [0] * (n - 1)
    args = engine_args(rows, rows, flags)
    assert max(len(r) for r in rows) == hub
    assert tables(bits_c, args) == tables(bits_py, args)


def test_a_graph_past_one_word_of_nodes_matches_the_twin():
    """140 nodes: three 64-bit words per row, the last one partly used."""
    rng = random.Random(7)
    n = 140
    rows = [sorted({rng.randrange(n) for _ in range(3)} - {u}) for u in range(n)]
    rows = [sorted(set(r) | {u for u in range(n) if v in rows[u]}) for v, r in enumerate(rows)]
    flags = [HOLE | CAT_FORBIDDEN] + [0] * (n - 1)
    args = engine_args(rows, rows, flags)
    decided, outcome, remoteness = tables(bits_c, args)
    assert decided > 2 * n * 64  # decided positions in every word of the rows
    assert (decided, outcome, remoteness) == tables(bits_py, args)


# -- the API's fast paths --------------------------------------------------------------


def random_lists(rng, n, p):
    rows = [set() for _ in range(n)]
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < p:
                rows[u].add(v)
                rows[v].add(u)
    return [sorted(r) for r in rows]


def plain_solve(adjacency, mouse=1, cat=2, hole=0):
    """solve() through the Rules path only, with no fast path."""
    graph = Graph(adjacency)
    return _solving.solve_position(_solving.classic_rules(graph, hole), mouse, cat, 0)


@needs_fast_paths
def test_solve_lists_and_board_match_the_plain_path():
    rng = random.Random(11)
    for _ in range(150):
        # Up to 64 nodes solve_lists checks with bit masks, above with arrays.
        n = rng.choice([rng.randint(3, 64), rng.randint(65, 90)])
        adjacency = random_lists(rng, n, rng.uniform(0.05, 0.8))
        mouse, cat, hole = rng.randrange(n), rng.randrange(n), rng.randrange(n)
        if cat == hole:
            continue
        expected = plain_solve(adjacency, mouse, cat, hole)
        assert bits_c.solve_lists(adjacency, mouse, cat, hole) == expected
        assert catmouse.solve(adjacency, mouse=mouse, cat=cat, hole=hole) is expected
        graph = Graph(adjacency)
        # The first call builds and caches the Board, the second uses it, reusing nothing.
        for _ in range(2):
            assert catmouse.solve(graph, mouse=mouse, cat=cat, hole=hole) is expected
        assert ("board", hole, "cython") in graph._cache


class _Id(int):
    """An int subclass: the fast paths take plain ints only."""


@pytest.mark.parametrize("adjacency", [
    [[1], [0], [2]],            # a self-loop
    [[1, 1], [0], []],          # a neighbour twice
    [[1], [], []],              # a one-way edge
    [[1], [0], []] + [[]] * 70 + [[0]],  # a one-way edge, above 64 nodes
    ([1], [0], [3]),            # a tuple of lists
    [(1,), (0, 2), (1,)],       # rows that are tuples
    [[1], [0, 2], [1.0]],       # a float id
    [[1], [0, 2], [True]],      # a bool id
    [[1], [0, 2], [_Id(1)]],    # an int subclass
    [[1], [0]] + [[]] * 297 + [[299]],  # a self-loop, its id read by a call (past 256)
])
def test_solve_lists_declines_what_it_does_not_know(adjacency):
    assert bits_c.solve_lists(adjacency, 1, 2, 0) == -1


def test_ids_read_from_their_address_and_by_a_call_agree():
    # Ids 0..256 are read from the address of CPython's preallocated ints, bigger ones by a
    # call: a path of 300 nodes mixes both, and every node's id is also given as a fresh int.
    n = 300
    path = [[v for v in (u - 1, u + 1) if 0 <= v < n] for u in range(n)]
    fresh = [[int(str(v)) for v in row] for row in path]
    expected = bits_c.solve_lists(path, 150, 10, 299)
    assert expected == bits_c.solve_lists(fresh, 150, 10, 299) == int(
        plain_solve(path, 150, 10, 299))


def test_solve_errors_are_the_plain_paths_errors():
    good = [[1, 2], [0, 2], [0, 1]]
    cases = [
        (good, {"mouse": 5}), (good, {"cat": 0}), (good, {"cat": -1}),
        (good, {"hole": 7}), (good, {"mouse": 1.5}),
        ([[1], [0, 2], [1, 1]], {}), ([[1], [2], [1]], {}), ([[0], [2], [1]], {}),
    ]
    for adjacency, kwargs in cases:
        with pytest.raises((ValueError, TypeError)) as fast:
            catmouse.solve(adjacency, **kwargs)
        # The pure twin declines the lists path: Graph's Python checks speak.
        with pytest.raises(type(fast.value)) as plain, on_engine(bits_py):
            catmouse.solve(adjacency, **kwargs)
        assert str(fast.value) == str(plain.value)
        with pytest.raises(type(fast.value), match=None) as batch:
            catmouse.solve_many([adjacency], **kwargs)
        # The batch names which graph (its index), then the same message.
        assert str(batch.value) == f"graph 0 of the batch: {fast.value}"


@pytest.mark.parametrize("threads", [1, 2, 3, None])
def test_solve_many_matches_solve(threads):
    rng = random.Random(5)
    graphs = [random_lists(rng, rng.randint(3, 30), rng.uniform(0.1, 0.7)) for _ in range(40)]
    graphs += [Graph(g) for g in graphs[:10]]
    expected = [plain_solve(g if isinstance(g, list) else g.adjacency()) for g in graphs]
    assert catmouse.solve_many(graphs, threads=threads) == expected
    assert catmouse.solve_many(iter(graphs), threads=threads, mouse=2, cat=1) == [
        plain_solve(g if isinstance(g, list) else g.adjacency(), 2, 1) for g in graphs]


@pytest.mark.parametrize("threads", [0, -1, 1.5, True, "2"])
def test_solve_many_rejects_bad_thread_counts(threads):
    # As solve does: a count out of range is a ValueError, anything but an int a TypeError.
    error = ValueError if type(threads) is int else TypeError
    with pytest.raises(error, match="threads"):
        catmouse.solve_many([[[1, 2], [0, 2], [0, 1]]], threads=threads)


@needs_fast_paths
def test_solve_boards_marks_non_positions():
    graph = Graph([[1, 2], [0, 2], [0, 1]])
    board = _solving._board(graph, 0)
    assert bits_c.solve_boards([board, board], 1, 0) == bytearray([255, 255])
    assert bits_c.solve_boards([], 1, 2) == bytearray()
    code = bits_c.solve_boards([board], 1, 2)[0]
    assert Outcome(code) is plain_solve(graph.adjacency())


# -- the compiled Graph builder ----------------------------------------------------------

BAD_GRAPHS = [
    [[1], [0, 3]],              # id out of range
    [[1], [0], [-1]],           # negative id
    [[0]],                      # self-loop
    [[1, 1], [0]],              # a neighbour twice
    [[1], []],                  # one-way edge in an undirected graph
    [[1], [0], [1.0]],          # a float
    [[1], [0], [True]],         # a bool
    [[1], [0], "ab"],           # a string row
    [[1], [0], None],           # a row that is no list
    [[1], [0], [2**70]],        # an int far too big
    "abc",                      # not lists at all
]


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("adjacency", BAD_GRAPHS)
@needs_fast_paths
def test_fast_graph_builder_errors_equal_the_python_ones(adjacency, directed):
    errors = []
    for engine in (bits_c, bits_py):  # the twin declines: Graph's Python path
        with on_engine(engine):
            try:
                Graph(adjacency, directed=directed)
            except (TypeError, ValueError) as error:
                errors.append((type(error), str(error)))
            else:
                errors.append(None)
    assert errors[0] == errors[1]
    # Every graph above is bad, but for the one-way edge when the graph is directed.
    assert errors[0] is not None or (directed and adjacency == [[1], []])


@pytest.mark.parametrize("directed", [False, True])
@needs_fast_paths
def test_fast_graph_builder_builds_the_same_graph(directed):
    rng = random.Random(3)
    for _ in range(50):
        n = rng.randint(0, 30)
        if directed:
            adjacency = [rng.sample([v for v in range(n) if v != u], rng.randint(0, n - 1))
                         if n > 1 else [] for u in range(n)]
        else:
            adjacency = random_lists(rng, n, rng.random())
        fast = Graph(adjacency, directed=directed)
        with on_engine(bits_py):
            slow = Graph(adjacency, directed=directed)
        for name in ("indptr", "indices", "rindptr", "rindices"):
            assert getattr(fast, name).tolist() == getattr(slow, name).tolist(), name
            assert getattr(fast, name).readonly
        assert fast == slow
        assert (fast.rindptr.obj is fast.indptr.obj) == (not directed)
