"""Board.analyze, the whole game from a Board checked once, and the analyze that uses it.

``Board.analyze`` must hand back exactly what ``propagate`` writes in planes mode (outcomes,
and the planes' layers) on both twins; ``catmouse.analyze`` of a small graph goes through a
cached Board, and must give the Analysis the full path gives, on plain and labelled graphs.
"""

from __future__ import annotations

import pickle
import random

import pytest
from oracle import engine_args, random_game
from test_planes_mode import rings_game, sparse_game

import catmouse
from catmouse import solving
from catmouse.engine.facts import SMALL_TABLES
from catmouse.engine.planes import layer_bytes
from catmouse.rules import Rules, check_threads, need_bytes
from catmouse.solving import analyze_rules, classic_rules


def propagated(engine, game, remoteness=True):
    """(outcomes, layers or None) from propagate in planes mode."""
    args = engine_args(*game)
    n = args[0]
    outcome = bytearray(2 * n * n)
    if not remoteness:
        engine.propagate(*args, outcome)
        return bytes(outcome), None
    planes, more = bytearray(layer_bytes(n)), []
    engine.propagate(*args, outcome, planes=planes, more_planes=more)
    return bytes(outcome), [bytes(planes)] + [bytes(layer) for layer in more]


def board(engine, game):
    return engine.Board(*engine_args(*game))


@pytest.mark.parametrize("seed", range(4))
def test_a_boards_analysis_is_what_propagate_writes(engine, seed):
    rng = random.Random(seed)
    for _ in range(25):
        game = random_game(rng, 1, 9, shuffled=True)
        b = board(engine, game)
        for remoteness in (True, False):
            assert b.analyze(remoteness) == propagated(engine, game, remoteness)


@pytest.mark.parametrize("n", [63, 64, 65, 150])
def test_either_side_of_the_one_word_path(engine, n):
    game = sparse_game(random.Random(n), n)
    b = board(engine, game)
    assert b.analyze() == propagated(engine, game)
    assert b.analyze(remoteness=False) == propagated(engine, game, False)


def test_a_game_past_255_rounds_gets_its_second_layer(engine):
    game = rings_game(4, 33)  # remoteness 256 on the one-word path
    outcomes, layers = board(engine, game).analyze()
    assert len(layers) == 2
    assert (outcomes, layers) == propagated(engine, game)


def test_the_empty_game(engine):
    b = board(engine, ([], [], []))
    assert b.analyze() == (b"", [b""])
    assert b.analyze(remoteness=False) == (b"", None)


def test_the_twins_boards_agree(compiled_engine):
    from catmouse.engine import bits_py
    rng = random.Random(38)
    for _ in range(30):
        game = random_game(rng, 1, 12)
        assert board(compiled_engine, game).analyze() == board(bits_py, game).analyze()


def _graphs(rng):
    """Small random graphs, each with a hole: plain and labelled (strings, shuffled)."""
    for _ in range(20):
        n = rng.randint(3, 12)
        rows = [[] for _ in range(n)]
        for u in range(n):
            for v in range(u + 1, n):
                if rng.random() < 0.35:
                    rows[u].append(v)
                    rows[v].append(u)
        hole = rng.randrange(n)
        yield catmouse.Graph(rows), hole
        names = [f"n{u}" for u in range(n)]
        rng.shuffle(names)
        labelled = catmouse.Graph({names[u]: [names[v] for v in row] for u, row in enumerate(rows)})
        yield labelled, names[hole]


def _same(a, b):
    assert a.outcomes == b.outcomes
    assert a._layers == b._layers
    assert a._first == b._first
    assert pickle.dumps(a) == pickle.dumps(b)


def _full(rules, **kwargs):
    """The analysis by propagate (max_memory= keeps analyze_rules off the Board)."""
    return analyze_rules(rules, max_memory=10**9, **kwargs)


def _boards_made(rules):
    return rules._board is not None and rules._board[0] == catmouse.engine.current.name


def test_analyze_of_a_small_graph_is_the_full_paths_analysis(use_engine):
    rng = random.Random(913)
    for graph, hole in _graphs(rng):
        rules = classic_rules(graph, hole)
        for remoteness in (True, False):
            fast = catmouse.analyze(graph, hole=hole, remoteness=remoteness)
            assert _boards_made(rules)
            _same(fast, _full(rules, remoteness=remoteness))
        a, b = catmouse.analyze(graph, hole=hole), _full(rules)
        names = graph.labels if graph.labels is not None else range(graph.n)
        for m in range(graph.n):
            for c in range(graph.n):
                if rules.cat_may_stand(c):
                    assert a.remoteness(names[m], names[c]) == b.remoteness(names[m], names[c])


@pytest.mark.parametrize("draw", list(catmouse.Outcome))
@pytest.mark.parametrize("first", list(catmouse.Turn))
def test_a_small_games_analysis_keeps_its_draw_rule_and_first_mover(use_engine, draw, first):
    rng = random.Random(int(draw) * 2 + int(first))
    drawn = 0
    for graph, _ in _graphs(rng):
        n = graph.n
        game = catmouse.Game(graph, holes=(graph.labels or range(n))[:1],
                             mouse_stays=n % 2 == 0, draw=draw, first=first)
        drawn += catmouse.Game(graph, holes=(graph.labels or range(n))[:1],
                               mouse_stays=n % 2 == 0, first=first).analyze().counts()[
                                   catmouse.Outcome.DRAW]
        fast = game.analyze()
        assert _boards_made(game._rules)
        _same(fast, _full(game._rules, first=first))
    assert drawn  # (so the draw rule changes some outcomes)


@pytest.mark.parametrize("kwargs", [{"threads": 2}, {"max_memory": 10**9},
                                    {"progress": lambda decided: None}])
def test_arguments_the_board_does_not_take_go_the_full_way(use_engine, kwargs):
    graph = catmouse.Graph([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    a = catmouse.analyze(graph, **kwargs)
    assert not _boards_made(classic_rules(graph, 0))
    _same(a, catmouse.analyze(graph))


def test_bad_arguments_are_refused_as_before(use_engine):
    graph = catmouse.Graph([[1], [0]])
    with pytest.raises(TypeError, match="threads must be an int or None"):
        catmouse.analyze(graph, threads=True)
    with pytest.raises(ValueError, match="threads must be from 1 to"):
        catmouse.analyze(graph, threads=0)
    with pytest.raises(ValueError, match="hole node 5 is not in a graph of 2 nodes"):
        catmouse.analyze(graph, hole=5)
    with pytest.raises(MemoryError, match="over max_memory=1"):
        catmouse.analyze(graph, max_memory=1)
    assert not _boards_made(classic_rules(graph, 0))


def test_the_board_size_skips_no_memory_check_and_no_thread_choice(use_engine):
    # analyze's Board path skips check_memory and check_threads: only where the memory check
    # would not ask the system and threads=None means one thread.
    n = solving.BOARD_ANALYSIS_NODES
    need = need_bytes(n, outcome=True, remoteness=True, target=False)
    assert need <= SMALL_TABLES
    assert check_threads(None, n) == 1
    assert solving.BOARD_ANALYSIS_NODES >= 64


def test_a_mid_size_graph_goes_through_the_board(use_engine, monkeypatch):
    n = 200
    graph = catmouse.Graph([[(u + 1) % n, (u - 1) % n, (u + 7) % n, (u - 7) % n]
                            for u in range(n)])
    full = _full(classic_rules(graph, 0))
    # The Board path runs no propagate (Rules.run), and keeps its Board for the next call:
    # made again each time it cost 8 to 16 us of a 120 to 250 us analysis.
    with monkeypatch.context() as patch:
        patch.setattr(Rules, "run", lambda *args, **kwargs: pytest.fail("propagate ran"))
        a = catmouse.analyze(graph)
        board = classic_rules(graph, 0).board()
        _same(catmouse.analyze(graph), full)
        assert classic_rules(graph, 0).board() is board
    assert _boards_made(classic_rules(graph, 0))
    _same(a, full)
    b = catmouse.analyze(graph, remoteness=False)
    assert bytes(b.outcomes) == bytes(a.outcomes)


def test_a_graph_past_the_board_size_goes_the_full_way(use_engine):
    n = solving.BOARD_ANALYSIS_NODES + 1
    graph = catmouse.Graph([[(u + 1) % n, (u - 1) % n] for u in range(n)])
    a = catmouse.analyze(graph)
    assert not _boards_made(classic_rules(graph, 0))
    _same(a, _full(classic_rules(graph, 0)))


def test_a_rules_pickle_leaves_its_board_behind(use_engine):
    graph = catmouse.Graph([[1, 2], [0, 2], [0, 1]])
    rules = classic_rules(graph, 0)
    catmouse.analyze(graph)
    assert _boards_made(rules)
    copy = pickle.loads(pickle.dumps(rules))
    assert copy._board is None
    _same(catmouse.analyze(graph), analyze_rules(copy))
