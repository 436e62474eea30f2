"""The k-cops remoteness a byte a position (cops_checks.BYTE_PLIES).

A byte table holds the same plies as an int32 table (255 where the int32 holds -1) on both
twins, on one thread and on a crew, on one-word rows and on rows of several words.  A search
that decides a position more than BYTE_PLIES plies from capture raises PliesPastByte, and
``CopsGame.analyze`` then searches again with an int32 table: the same answers either way.
"""

from __future__ import annotations

import pickle
import random
import sys
from array import array
from math import comb

import networkx as nx
import pytest
from cops_oracle import csr

from catmouse import CopsGame
from catmouse.cops.game import CopsAnalysis, _unpickle_cops_analysis
from catmouse.engine import cops_checks
from catmouse.engine.cops_checks import NO_CAPTURE_BYTE, PliesPastByte
from catmouse.graph_checks import stored


def search(module, graph: nx.Graph, k: int, width: int, threads: int = 1):
    """The winning row, the outcomes and the plies (-1 for never) of one search."""
    n, indptr, indices = csr(graph)
    size = 2 * comb(n + k - 1, k) * n
    outcome = bytearray(size)
    if width == 1:
        table = bytearray([7]) * size  # (every entry must be written)
    else:
        table = array("i", [7]) * size
    row = module.cops_search(n, indptr, indices, k, outcome, table, threads=threads)
    plies = [-1 if r == NO_CAPTURE_BYTE else r for r in table] if width == 1 else list(table)
    return row, bytes(outcome), plies


def boards():
    rng = random.Random(38)
    fixed = [(nx.petersen_graph(), 2), (nx.hypercube_graph(4), 2), (nx.path_graph(13), 2),
             (nx.grid_2d_graph(3, 7), 2), (nx.path_graph(70), 1), (nx.cycle_graph(67), 2),
             (nx.grid_2d_graph(5, 14), 1)]  # (the last three: rows of two words)
    drawn = [(nx.gnp_random_graph(n, rng.random(), seed=rng.randrange(10**6)), rng.randint(1, 3))
             for n in (rng.randint(1, 11) for _ in range(16))]
    return fixed + drawn


@pytest.mark.parametrize("graph, k", boards())
def test_a_byte_table_holds_the_int32_plies(engine, graph, k):
    wide = search(engine, graph, k, 4)
    assert search(engine, graph, k, 1) == wide
    if engine.__name__.endswith("bits_c") and graph.number_of_nodes() <= 64:
        assert search(engine, graph, k, 1, threads=2) == wide


def test_a_capture_past_a_byte_is_refused_by_the_byte_table(engine):
    path = nx.path_graph(200)  # one cop from the far end: 398 plies
    with pytest.raises(PliesPastByte, match="more than 254 plies"):
        search(engine, path, 1, 1)
    assert max(search(engine, path, 1, 4)[2]) == 398


# Games whose longest captures all lie in one row (a team's), the cops' to move (5 plies)
# and the robber's (10): the last round past the byte grows that row alone.
ONE_ROW_LAST = [
    nx.Graph([(0, 1), (0, 2), (0, 3), (0, 5), (1, 2), (1, 3), (1, 5), (1, 6), (2, 3), (2, 4),
              (3, 6), (4, 6)]),
    nx.Graph([(0, 1), (0, 4), (0, 7), (1, 2), (1, 3), (1, 6), (1, 7), (2, 3), (2, 4), (2, 7),
              (3, 4), (3, 5), (3, 6), (3, 8), (4, 6), (4, 7), (4, 8), (5, 7), (5, 8), (6, 8),
              (7, 8)]),
]


@pytest.mark.parametrize("threads", [1, 2])
def test_the_byte_boundary_is_exact(engine, monkeypatch, threads):
    """A game whose longest capture is ``most`` plies fits; one ply less does not (the rounds'
    last writes, on one-word rows, on a crew, and on the robber's and the cops' plies)."""
    for graph, k in [(nx.petersen_graph(), 3), (nx.path_graph(9), 1), (nx.cycle_graph(8), 2),
                     *((graph, 1) for graph in ONE_ROW_LAST)]:
        wide = search(engine, graph, k, 4, threads)
        longest = max(wide[2])
        monkeypatch.setattr(cops_checks, "BYTE_PLIES", longest)
        assert search(engine, graph, k, 1, threads) == wide
        monkeypatch.setattr(cops_checks, "BYTE_PLIES", longest - 1)
        with pytest.raises(PliesPastByte):
            search(engine, graph, k, 1, threads)


def answers(analysis: CopsAnalysis):
    game = analysis.game
    some = [((u,) * game.cops, v, turn) for u in range(3) for v in range(game.graph.n)
            for turn in (0, 1)]
    return (analysis.counts(), analysis.best_start(), analysis.winning_starts(),
            [analysis.remoteness(*p) for p in some], [analysis.best_moves(*p) for p in some],
            analysis.line(*analysis.best_start()))


@pytest.mark.parametrize("graph, k", [(nx.path_graph(9), 1), (nx.petersen_graph(), 3)])
def test_analyze_searches_again_with_int32_past_a_byte(use_engine, monkeypatch, graph, k):
    game = CopsGame(graph, k)
    byte = game.analyze()
    assert byte._remoteness.narrow and len(byte._remoteness.tobytes()) == game.positions()
    monkeypatch.setattr(cops_checks, "BYTE_PLIES", max(byte._remoteness[:]) - 1)
    again = game.analyze()
    assert not again._remoteness.narrow
    assert len(again._remoteness.tobytes()) == 4 * game.positions()
    assert again._remoteness[:] == byte._remoteness[:]
    assert answers(again) == answers(byte)
    assert again.verify() and byte.verify()


def test_a_game_of_398_plies_is_analyzed(use_engine):
    analysis = CopsGame(nx.path_graph(200), 1).analyze()
    assert not analysis._remoteness.narrow
    assert analysis.remoteness([0], 199, 1) == 397 and analysis.remoteness([0], 199, 0) == 398
    assert analysis.remoteness([5], 5) == 0


def test_the_int32_form_pickles_and_loads(use_engine):
    """The int32 tables (a game past 254 plies; pickles of this version's checkouts before the
    byte form) load, little- or big-endian, and read as the byte form does."""
    analysis = CopsGame(nx.petersen_graph(), 2).analyze()
    game, outcomes, plies = analysis.game, analysis._outcomes.tobytes(), analysis._remoteness[:]
    little = stored(array("i", plies).tobytes())
    big = array("i", plies)
    if sys.byteorder == "little":
        big.byteswap()
    for table, order in ((little, "<"), (big.tobytes(), ">")):
        loaded = _unpickle_cops_analysis(game, outcomes, table, order)
        assert not loaded._remoteness.narrow
        assert answers(loaded) == answers(analysis)
        copy = pickle.loads(pickle.dumps(loaded))
        assert not copy._remoteness.narrow and copy._remoteness[:] == plies
    narrow = pickle.loads(pickle.dumps(analysis))
    assert narrow._remoteness.narrow
    assert narrow._remoteness.tobytes() == analysis._remoteness.tobytes()
    with pytest.raises(ValueError, match="byte order"):
        _unpickle_cops_analysis(game, outcomes, analysis._remoteness.tobytes(), "?")


def test_need_bytes_counts_a_byte_of_remoteness(use_engine):
    game = CopsGame(nx.petersen_graph(), 3)
    assert (game.need_bytes(plies_bytes=4) - game.need_bytes()) == 3 * game.positions()
