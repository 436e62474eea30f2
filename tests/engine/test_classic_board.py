"""classic_board: a graph's first solve at the price of a list's (both twins).

The engine builds LeetCode 913's Board straight from a Graph's arrays (at most 64 nodes); it
must be the Board ``Board(n, flags, ...)`` makes, position for position, and decline (None),
never raise or crash, on anything else, so that the Board path keeps reporting the errors.
"""

from __future__ import annotations

import random
from array import array

import pytest
from engines import on_engine
from oracle import gnp_rows

import catmouse
from catmouse.engine.facts import CAT_FORBIDDEN, HOLE
from catmouse.graph import Graph


def arrays_of(graph):
    return graph._indptr, graph._indices, graph._rindptr, graph._rindices


def test_the_same_board_as_board(engine):
    rng = random.Random(913)
    for _ in range(60):
        n = rng.randint(1, 64)
        directed = rng.random() < 0.3
        if directed:
            rows = [[v for v in range(n) if v != u and rng.random() < 0.2] for u in range(n)]
        else:
            rows = gnp_rows(rng, n, rng.uniform(0.05, 0.6))
        g = Graph(rows, directed=directed)
        hole = rng.randrange(n)
        flags = bytearray(n)
        flags[hole] = HOLE | CAT_FORBIDDEN
        arrays = arrays_of(g)
        fast = engine.classic_board(n, hole, *arrays)
        slow = engine.Board(n, bytes(flags), *arrays, *arrays)
        assert fast is not None and fast.n == n
        # The same game: the same whole tables (outcomes and remoteness), and the same
        # answers from the early-stopping solve (a sample: each is a search of its own).
        assert fast.analyze() == slow.analyze()
        for _ in range(40):
            mouse, cat, turn = rng.randrange(n), rng.randrange(n), rng.randrange(2)
            assert fast.solve(mouse, cat, turn) == slow.solve(mouse, cat, turn)


def test_arrays_other_than_int32_buffers_work_or_decline(engine):
    ip, ix = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])
    assert engine.classic_board(3, 0, ip, ix, ip, ix).solve(1, 2) == 1
    assert engine.classic_board(3, 0, memoryview(ip), ix, ip, ix).solve(2, 1) == 2


@pytest.mark.parametrize("args", [
    (65, 0),                      # more than one word of nodes
    (3, 3), (3, -1), (0, 0),      # no such hole
    (3.0, 0), (3, 0.0), (True, 0), (3, None),
])
def test_declines_sizes_and_holes(engine, args):
    ip, ix = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])
    assert engine.classic_board(*args, ip, ix, ip, ix) is None


@pytest.mark.parametrize("arrays", [
    ("not a buffer", [1, 0, 2, 1]),
    (array("q", [0, 1, 3, 4]), array("q", [1, 0, 2, 1])),     # 8-byte ints
    (array("i", [0, 1, 3]), array("i", [1, 0, 2, 1])),        # indptr too short
    (array("i", [1, 1, 3, 4]), array("i", [1, 0, 2, 1])),     # not from 0
    (array("i", [0, 3, 1, 4]), array("i", [1, 0, 2, 1])),     # not monotone
    (array("i", [0, 1, 3, 5]), array("i", [1, 0, 2, 1])),     # past indices' end
    (array("i", [0, 1, 3, 4]), array("i", [1, 0, 7, 1])),     # no such node
    (array("i", [0, 1, 3, 4]), array("i", [1, 0, -1, 1])),
    (array("i", [0, 1, 3, 4]), None),
])
def test_declines_arrays_board_refuses(engine, arrays):
    ip, ix = arrays
    good_ip, good_ix = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])
    assert engine.classic_board(3, 0, ip, ix, good_ip, good_ix) is None
    assert engine.classic_board(3, 0, good_ip, good_ix, ip, ix) is None


def test_declines_a_released_or_strided_view(engine):
    view = memoryview(array("i", [0, 1, 3, 4]))
    ix = array("i", [1, 0, 2, 1])
    view.release()
    assert engine.classic_board(3, 0, view, ix, view, ix) is None
    strided = memoryview(array("i", [0, 9, 1, 9, 3, 9, 4, 9]))[::2]
    assert engine.classic_board(3, 0, strided, ix, strided, ix) is None


def test_a_graphs_first_solve_builds_its_board_and_answers_as_lists(engine):
    rng = random.Random(7)
    with on_engine(engine):
        for _ in range(40):
            rows = gnp_rows(rng, rng.randint(3, 30), rng.uniform(0.1, 0.6))
            g = Graph(rows)
            first = catmouse.solve(g)
            key = ("board", 0, catmouse.engine.current.name)
            assert key in g._cache  # the board is kept for the next solve
            assert first == catmouse.solve(g) == catmouse.solve(rows)
            assert catmouse.solve(g, 2, 1) == catmouse.solve(rows, 2, 1)
        # A start that is no position still gets the Board path's error.
        g = Graph([[1], [0, 2], [1]])
        with pytest.raises(ValueError, match="the cat cannot be on node 0"):
            catmouse.solve(g, 1, 0)
        # Labelled graphs keep no board (their starts are labels).
        with pytest.raises(ValueError, match="not a node"):
            catmouse.solve(Graph({"a": ["b"], "b": ["a"]}), "a", "b")
        labelled = Graph({"a": ["b", "c"], "b": ["a"], "c": ["a"]})
        assert catmouse.solve(labelled, "b", "c", hole="a") == catmouse.solve(
            [[1, 2], [0], [0]], 1, 2, hole=0)
        assert not any(k[0] == "board" for k in labelled._cache if isinstance(k, tuple))
