"""threads=None in the k-cops game: accepted everywhere threads is, the same tables and answers
as every fixed count, a crew hired only for a big search and sent home mid-search when starved.

The compiled twin decides (cops_crew.pxi); the pure twin takes None and runs one thread.
``_cops_crews`` counts the crews hired and sent home, and can send every threads=None crew
home before a given round, so that the solo ending is checked on any machine.
"""

from __future__ import annotations

from array import array
from math import comb

import networkx as nx
import pytest
from cops_oracle import csr

import catmouse
from catmouse import CopsGame
from catmouse.cops.game import _teams
from catmouse.engine import cops_checks
from catmouse.rules import check_threads

# Boards above the 16,384 rows from which threads=None hires a crew, with real rounds.
BIG = [(nx.grid_2d_graph(8, 8), 3), (nx.hypercube_graph(5), 4)]
SMALL = [(nx.petersen_graph(), 3), (nx.cycle_graph(9), 2), (nx.hypercube_graph(4), 3),
         (nx.grid_2d_graph(4, 5), 2)]


def tables(module, graph: nx.Graph, k: int, threads: int | None):
    n, indptr, indices = csr(graph)
    size = 2 * comb(n + k - 1, k) * n
    outcome, remoteness = bytearray(size), array("i", bytes(4 * size))
    code = module.cops_search(n, indptr, indices, k, outcome, remoteness, threads=threads)
    return code, bytes(outcome), remoteness.tobytes()


@pytest.fixture(autouse=True)
def every_cpu_free(monkeypatch):
    """threads=None counts the CPUs other threads leave free right now (free_cpus): here as
    many as the process may use, so that two calls agree whatever else the machine runs."""
    monkeypatch.setattr(cops_checks, "free_cpus", lambda usable: usable)


@pytest.fixture
def solo_from(compiled_engine):
    """Set the round from which threads=None crews go home; back to measuring after."""
    yield lambda rounds: compiled_engine._cops_crews(rounds)
    compiled_engine._cops_crews(0)


def test_none_gives_the_tables_and_answers_of_every_count(engine):
    for graph, k in SMALL:
        one = tables(engine, graph, k, 1)
        for threads in (None, 2, 3):
            assert tables(engine, graph, k, threads) == one, (graph, k, threads)
        n, indptr, indices = csr(graph)
        for threads in (None, 1, 2):
            assert engine.cops_search(n, indptr, indices, k, threads=threads) == (
                engine.cops_search(n, indptr, indices, k, threads=1))
            assert engine.cop_number(n, indptr, indices, 9, threads=threads) == (
                engine.cop_number(n, indptr, indices, 9, threads=1))


def test_none_hires_a_crew_for_a_big_search_only(compiled_engine):
    hired, _ = compiled_engine._cops_crews()
    for graph, k in SMALL:
        tables(compiled_engine, graph, k, None)
    assert compiled_engine._cops_crews()[0] == hired, "a crew for a small search"
    tables(compiled_engine, *SMALL[0], 2)  # a count asked for: a crew whatever the size
    assert compiled_engine._cops_crews()[0] == hired + 1
    for graph, k in BIG:
        hired, _ = compiled_engine._cops_crews()
        one = tables(compiled_engine, graph, k, 1)
        assert compiled_engine._cops_crews()[0] == hired
        for threads in (None, 2, 3):
            assert tables(compiled_engine, graph, k, threads) == one, (graph, k, threads)
        assert compiled_engine._cops_crews()[0] == hired + 3


def test_a_crew_sent_home_ends_the_search_alone_with_the_same_tables(compiled_engine,
                                                                     solo_from):
    graph, k = BIG[0]
    one = tables(compiled_engine, graph, k, 1)
    for rounds in (1, 2, 3, 4, 7, 12):
        solo_from(rounds)
        _, home = compiled_engine._cops_crews()
        assert tables(compiled_engine, graph, k, None) == one, rounds
        assert compiled_engine._cops_crews()[1] == home + 1, rounds
        assert tables(compiled_engine, graph, k, 2) == one  # a count asked for stays
        assert compiled_engine._cops_crews()[1] == home + 1, rounds


def test_the_cop_number_of_a_crew_sent_home(compiled_engine, solo_from):
    n, indptr, indices = csr(nx.hypercube_graph(6))  # c = 4: the 4-cop search is big
    # The search of 3 cops is big but ends at its first robber's round (he never gains):
    # sent home before round 1 it is; before round 4 only the search of 4 cops must be (the
    # other may be sent home as measured, on a busy machine).
    for rounds, least in ((1, 2), (4, 1)):
        solo_from(rounds)
        _, home = compiled_engine._cops_crews()
        assert compiled_engine.cop_number(n, indptr, indices, 9, threads=None) == 4
        assert home + least <= compiled_engine._cops_crews()[1] <= home + 2
    solo_from(0)
    for threads in (None, 2, 3):
        assert compiled_engine.cop_number(n, indptr, indices, 9, threads=threads) == 4


def refusal(threads: object) -> tuple[type, str]:
    """solve_many's error for a thread count: its type and words."""
    try:
        check_threads(threads, 10)
    except (TypeError, ValueError) as error:
        return type(error), str(error)
    raise AssertionError(f"solve_many's check took {threads!r}")


@pytest.mark.parametrize("bad", [0, -1, 1025, 2**70, 1.5, True, "2"])
def test_bad_counts_are_refused_in_solve_many_words(engine, use_engine, bad):
    kind, words = refusal(bad)
    n, indptr, indices = csr(nx.petersen_graph())
    calls = [lambda: engine.cops_search(n, indptr, indices, 2, threads=bad),
             lambda: engine.cop_number(n, indptr, indices, 5, threads=bad),
             lambda: engine.cops_peak_bytes(n, 2, threads=bad),
             lambda: CopsGame(nx.petersen_graph(), cops=2).analyze(threads=bad),
             lambda: CopsGame(nx.petersen_graph(), cops=2).need_bytes(threads=bad),
             lambda: catmouse.cop_number(nx.petersen_graph(), threads=bad)]
    for call in calls:
        with pytest.raises(kind) as raised:
            call()
        assert str(raised.value) == words


def test_none_leaves_out_the_cpus_other_threads_take(monkeypatch, compiled_engine):
    """Beside a process spinning on the other CPU the default is one thread: no crew."""
    monkeypatch.setattr(cops_checks, "usable_cpus", lambda: 2)
    monkeypatch.setattr(cops_checks, "free_cpus", lambda usable: 1)
    assert cops_checks.check_cop_threads(None) == (1, True)
    graph, k = BIG[0]
    hired, _ = compiled_engine._cops_crews()
    assert tables(compiled_engine, graph, k, None) == tables(compiled_engine, graph, k, 1)
    assert compiled_engine._cops_crews()[0] == hired


def test_none_looks_at_the_cpus_from_16384_teams(monkeypatch):
    """The documented mark: a search of 16,384 teams or more may hire what free_cpus gives;
    below it, one thread without a look (reading /proc/loadavg cost more than a small
    search).  A count asked for is that count, and an unknown size (-1, any negative) looks."""
    monkeypatch.setattr(cops_checks, "usable_cpus", lambda: 8)
    monkeypatch.setattr(cops_checks, "free_cpus", lambda usable: 7)
    assert cops_checks.check_cop_threads(None, rows=16_383) == (1, True)
    assert cops_checks.check_cop_threads(None, rows=0) == (1, True)
    assert cops_checks.check_cop_threads(None, rows=16_384) == (7, True)
    assert cops_checks.check_cop_threads(None) == (7, True)
    assert cops_checks.check_cop_threads(3, rows=10) == (3, False)


def test_a_small_search_is_counted_for_one_thread(compiled_engine):
    """threads=None on a small search runs one thread, so its memory estimate counts one:
    the same bytes as threads=1 (a bigger one counts the crew it may hire)."""
    assert (compiled_engine.cops_peak_bytes(10, 2, threads=None)
            == compiled_engine.cops_peak_bytes(10, 2, threads=1))


def test_the_api_takes_none_and_defaults_to_it(use_engine):
    game = CopsGame(nx.petersen_graph(), cops=3)
    none, one = game.analyze(threads=None), game.analyze(threads=1)
    assert none._outcomes == one._outcomes
    assert none._remoteness.tobytes() == one._remoteness.tobytes()
    assert game.need_bytes() == game.need_bytes(threads=None) >= game.need_bytes(threads=1)
    assert catmouse.cop_number(nx.petersen_graph(), threads=None) == 3
    assert catmouse.cop_number.__kwdefaults__["threads"] is None
    assert CopsGame.analyze.__kwdefaults__["threads"] is None


def test_the_teams_are_the_sorted_multisets_in_colex_order():
    from itertools import combinations_with_replacement

    for n in range(7):
        for k in range(5):
            want = sorted(combinations_with_replacement(range(n), k), key=lambda t: t[::-1])
            assert _teams(n, k) == want, (n, k)


MS = 1_000_000


@pytest.mark.parametrize("own, waited, helpers, clocks, home", [
    (10 * MS, 1 * MS, [(9 * MS, 10 * MS)], True, False),      # short waits: never home
    (10 * MS, 8 * MS, [(17 * MS, 18 * MS)], True, False),     # unequal shares, helper on CPU
    (10 * MS, 8 * MS, [(9 * MS, 18 * MS)], True, True),       # the helper had half a CPU
    (10 * MS, 8 * MS, [(17 * MS, 18 * MS)], False, True),     # no thread clock: waits decide
    (10 * MS, 8 * MS, [(-1, 18 * MS)], True, True),           # a clock that failed, likewise
    (10 * MS, 8 * MS, [(17 * MS, 18 * MS), (5 * MS, 18 * MS)], True, True),  # one of two
    (0.5 * MS, 0.9 * MS, [(0, 2 * MS)], True, False),         # under SOLO_MIN_WAIT_NS in all
])
def test_a_crew_goes_home_only_for_a_helper_short_of_cpu(compiled_engine, own, waited,
                                                         helpers, clocks, home):
    """threads=None sends its crew home when the caller waits long for the helpers and a
    helper ran for under 3/4 of its shares' wall time, not for shares of unequal work (on free
    cores cop_number of the 6-cube went home in 3 of 4 calls by the waits alone)."""
    rule = compiled_engine._crew_starved_rule
    assert rule(int(own), int(waited), helpers, clocks) is home
