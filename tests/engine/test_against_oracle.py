"""Both engines and the public API agree with the independent oracle on random boards.

N_GRAPHS seeded random boards (2 to 10 nodes, sparse to dense, disconnected
ones, stranded cats and mice, holes off node 0) are solved by the oracle and by
each engine; every position's outcome, remoteness and best moves must match, and
``solve`` must match from every start.  The boards come from ``random.Random``
seeded per batch, so a failure names a batch that reproduces on its own.
"""

from __future__ import annotations

import functools
import itertools
import random
from array import array

import pytest
from oracle import MOUSE, csr, random_board, solve_classic

import catmouse
from catmouse import Graph, Outcome, Turn

SEED = 913
BATCHES = 20
PER_BATCH = 150
N_GRAPHS = BATCHES * PER_BATCH  # random boards checked, on each engine


@functools.cache
def cases(batch: int):
    """The boards of one batch with their oracle solutions (shared by both engines)."""
    rng = random.Random(f"{SEED}/{batch}")
    boards = [random_board(rng) for _ in range(PER_BATCH)]
    return [(adjacency, hole, solve_classic(adjacency, hole)) for adjacency, hole in boards]


def classic_tables(engine, adjacency, hole):
    n = len(adjacency)
    flags = bytearray(n)
    flags[hole] = 1 | 2  # HOLE | CAT_FORBIDDEN
    indptr, indices, rindptr, rindices = csr(adjacency)
    outcome = bytearray(2 * n * n)
    remoteness = array("i", [0]) * (2 * n * n)
    engine.propagate(n, bytes(flags), indptr, indices, rindptr, rindices,
                     indptr, indices, rindptr, rindices, outcome, remoteness)
    return bytes(outcome), remoteness


def test_the_sample_is_varied():
    """The random boards cover what they claim to: sizes, density, holes, stuck players."""
    boards = [(adj, hole) for batch in range(BATCHES) for adj, hole, _ in cases(batch)]
    assert len(boards) == N_GRAPHS >= 1000
    sizes = {len(adj) for adj, _ in boards}
    assert sizes == set(range(2, 11))
    assert any(hole != 0 for _, hole in boards)
    assert any(not row for adj, _ in boards for row in adj)  # isolated nodes
    assert any(row == [hole] for adj, hole in boards for row in adj)  # stranded next to the hole
    full = [adj for adj, _ in boards if all(len(row) == len(adj) - 1 for row in adj)]
    assert len(full) > 10  # complete graphs
    outcomes = {int(o) for batch in range(BATCHES) for *_, s in cases(batch)
                for o in s.outcome.values()}
    assert outcomes == {0, 1, 2}


@pytest.mark.parametrize("batch", range(BATCHES))
def test_engine_tables_match_oracle(engine, batch):
    for adjacency, hole, expected in cases(batch):
        outcome, remoteness = classic_tables(engine, adjacency, hole)
        assert outcome == expected.outcome_table(), (adjacency, hole)
        assert remoteness == expected.remoteness_table(), (adjacency, hole)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_analysis_matches_oracle(use_engine, batch):
    for adjacency, hole, expected in cases(batch):
        a = catmouse.analyze(adjacency, hole=hole)
        assert bytes(a.outcomes) == expected.outcome_table(), (adjacency, hole)
        for (m, c, t), value in expected.outcome.items():
            where = (adjacency, hole, (m, c, t))
            assert a.outcome(m, c, t) == value, where
            assert a.remoteness(m, c, t) == expected.remoteness[(m, c, t)], where
            assert a.best_moves(m, c, t) == expected.best_moves[(m, c, t)], where


@pytest.mark.parametrize("batch", range(BATCHES))
def test_solve_matches_oracle_from_every_start(use_engine, batch):
    for adjacency, hole, expected in cases(batch):
        graph = Graph(adjacency)
        for (m, c, t), value in expected.outcome.items():
            if t == MOUSE:
                got = catmouse.solve(graph, mouse=m, cat=c, hole=hole)
                assert got == value, (adjacency, hole, m, c)
                assert type(got) is Outcome


@pytest.mark.parametrize("batch", range(0, BATCHES, 4))
def test_line_follows_best_moves(use_engine, batch):
    """line() plays best moves and ends on the decisive position or before a repeat."""
    for adjacency, hole, expected in cases(batch):
        a = catmouse.analyze(adjacency, hole=hole)
        for (m, c, t), value in expected.outcome.items():
            line = a.line(m, c, t)
            assert line[0] == (m, c, t)
            for here, there in itertools.pairwise(line):
                mover = here[2]
                moved = there[0] if mover == Turn.MOUSE else there[1]
                assert moved == min(expected.best_moves[here])
                assert there[2] == mover.other
            last = line[-1]
            if value == Outcome.DRAW:
                # Every position on it is a draw and the next one would repeat.
                assert all(expected.outcome[p] == 0 for p in line)
                assert len(set(line)) == len(line)
                mover = last[2]
                dest = min(expected.best_moves[last])
                nxt = (dest, last[1], Turn.CAT) if mover == Turn.MOUSE else (last[0], dest,
                                                                             Turn.MOUSE)
                assert nxt in line
            else:
                assert expected.remoteness[last] == 0
                assert len(line) == expected.remoteness[(m, c, t)] + 1
