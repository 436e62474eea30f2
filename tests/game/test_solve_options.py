"""The keywords threads= and remoteness= of solve, analyze and Game, on both engines."""

from __future__ import annotations

import pickle
import random
import re

import pytest
from oracle import solve_classic

import catmouse
from catmouse import Game, Graph, Outcome, Turn

BOARD = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]


def random_board(rng, n):
    rows = [set() for _ in range(n)]
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < 0.3:
                rows[u].add(v)
                rows[v].add(u)
    return [sorted(r) for r in rows]


@pytest.mark.parametrize("threads", [1, 2, 3, None])
def test_threads_give_the_same_tables(use_engine, threads):
    rng = random.Random(11)
    for _ in range(20):
        board = random_board(rng, rng.randint(3, 12))
        one = catmouse.analyze(board, threads=1)
        many = catmouse.analyze(board, threads=threads)
        assert bytes(many.outcomes) == bytes(one.outcomes)
        assert bytes(many.remoteness_table) == bytes(one.remoteness_table)
        assert catmouse.solve(board, threads=threads) is one.outcome(1, 2)
        game = Game(board, holes=(0,), mouse_stays=True)
        assert game.solve(1, 2, threads=threads) is game.analyze(threads=1).outcome(1, 2)


@pytest.mark.parametrize("threads", [0, -2])
def test_bad_thread_counts_are_value_errors(use_engine, threads):
    for call in (catmouse.solve, catmouse.analyze):
        with pytest.raises(ValueError, match="threads"):
            call(BOARD, threads=threads)
    with pytest.raises(ValueError, match="threads"):
        Game(BOARD).analyze(threads=threads)


@pytest.mark.parametrize("threads", [1.5, "2", True])
def test_thread_counts_must_be_ints(use_engine, threads):
    with pytest.raises(TypeError, match="threads"):
        catmouse.analyze(BOARD, threads=threads)


def test_outcomes_only(use_engine):
    rng = random.Random(4)
    for _ in range(30):
        board = random_board(rng, rng.randint(2, 10))
        full = catmouse.analyze(board)
        lean = catmouse.analyze(board, remoteness=False)
        assert not lean.has_remoteness and full.has_remoteness
        assert bytes(lean.outcomes) == bytes(full.outcomes)
        solution = solve_classic(board)
        n = len(board)
        for turn in Turn:
            for m in range(n):
                for c in range(1, n):
                    expected = solution.outcome[(m, c, turn)]
                    assert lean.outcome(m, c, turn) == expected
                    moves = lean.best_moves(m, c, turn)
                    # Every move that keeps the mover's outcome, and the full analysis's
                    # best moves among them.
                    assert set(full.best_moves(m, c, turn)) <= set(moves)
                    if expected == Outcome.DRAW or not full.best_moves(m, c, turn):
                        assert moves == full.best_moves(m, c, turn)
        assert lean.counts() == full.counts()


def test_outcomes_only_refuses_what_needs_remoteness(use_engine):
    lean = catmouse.analyze(BOARD, remoteness=False)
    for query in (lambda: lean.remoteness(1, 2), lambda: lean.line(), lean.verify,
                  lambda: lean.remoteness_table):
        with pytest.raises(ValueError, match="remoteness=False"):
            query()
    again = pickle.loads(pickle.dumps(lean))
    assert bytes(again.outcomes) == bytes(lean.outcomes) and not again.has_remoteness


def test_outcomes_only_asks_less_memory(use_engine):
    graph = Graph(BOARD)
    full = catmouse.rules.need_bytes(6, outcome=True, remoteness=True, target=False)
    lean = catmouse.rules.need_bytes(6, outcome=True, remoteness=False, target=False)
    assert lean < full
    with pytest.raises(MemoryError):
        catmouse.analyze(graph, max_memory=lean - 1, remoteness=False)
    catmouse.analyze(graph, max_memory=lean, remoteness=False)
    with pytest.raises(MemoryError):
        catmouse.analyze(graph, max_memory=lean)


@pytest.mark.parametrize("call", ["solve", "analyze"])
def test_max_memory_is_checked_as_the_cops_check_it(use_engine, call):
    # It was read as a node id: "max_memory must be an integer node id", "a bool ... not a
    # node id", and -1 a MemoryError.
    run = getattr(catmouse, call)
    graph = Graph(BOARD)
    for bad, error, words in ((2.0, TypeError, "must be an int (bytes) or None, not float"),
                              (True, TypeError, "must be an int (bytes) or None, not bool"),
                              ("8G", TypeError, "must be an int (bytes) or None, not str"),
                              (-1, ValueError, "must be at least 0 bytes, not -1")):
        with pytest.raises(error, match=f"^max_memory {re.escape(words)}$"):
            run(graph, max_memory=bad)
    numpy = pytest.importorskip("numpy")
    given, plain = run(graph, max_memory=numpy.int64(1 << 30)), run(graph)
    if call == "analyze":
        given, plain = bytes(given.outcomes), bytes(plain.outcomes)
    assert given == plain
