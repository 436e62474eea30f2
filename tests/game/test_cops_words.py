"""The k-cops game in its own words, its pickles checked on load, its limits in one line."""

from __future__ import annotations

import copyreg
import csv
import io
import os
import pickle
import subprocess
import sys
import textwrap
from array import array
from pathlib import Path

import networkx as nx
import pytest

import catmouse
from catmouse import CopsGame, Outcome, Turn
from catmouse.cops.game import _unpickle_cops_analysis, _unpickle_cops_game
from catmouse.cops.sides import CopsOutcome, CopsTurn
from catmouse.graph_checks import STORED_ORDER

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)
PETERSEN = nx.petersen_graph()


class Forged:
    """Pickles as ``function(*args)`` (with ``state`` for ``__setstate__``): hand-made data."""

    def __init__(self, function, args, state=None):
        self.function, self.args, self.state = function, args, state

    def __reduce__(self):
        if self.state is None:
            return self.function, self.args
        return self.function, self.args, self.state


def test_the_analysis_speaks_cops_and_robber(use_engine):
    analysis = CopsGame(nx.cycle_graph(4), cops=1).analyze()
    outcome = analysis.outcome([0], 2)
    assert type(outcome) is CopsOutcome and outcome is CopsOutcome.ROBBER_WIN
    assert str(outcome) == "ROBBER_WIN" and f"{CopsOutcome.COPS_WIN}" == "COPS_WIN"
    line = analysis.line([0], 1)
    assert [turn for _, _, turn in line] == [CopsTurn.COPS, CopsTurn.ROBBER]
    assert all(type(turn) is CopsTurn for _, _, turn in line)
    assert repr(line[0][2]) == "<CopsTurn.COPS: 1>"


def test_old_names_keep_working(use_engine):
    analysis = CopsGame(nx.path_graph(3), cops=1).analyze()
    # The values are the cat-and-mouse game's: old arguments and comparisons still hold.
    assert CopsTurn.COPS == Turn.CAT and CopsTurn.ROBBER == Turn.MOUSE
    assert CopsOutcome.COPS_WIN == Outcome.CAT_WIN and CopsOutcome.ROBBER_WIN == Outcome.MOUSE_WIN
    assert CopsTurn.CAT is CopsTurn.COPS and CopsOutcome.MOUSE_WIN is CopsOutcome.ROBBER_WIN
    assert analysis.outcome([0], 2, Turn.CAT) == Outcome.CAT_WIN
    assert analysis.best_moves([1], 2, Turn.MOUSE) == analysis.best_moves([1], 2,
                                                                          CopsTurn.ROBBER)
    assert analysis.remoteness([0], 2, Turn.MOUSE) == analysis.remoteness([0], 2, 0)
    assert list(CopsTurn) == [CopsTurn.ROBBER, CopsTurn.COPS]  # aliases are not members


def test_repr_says_what_the_analysis_holds(use_engine):
    analysis = CopsGame(nx.cycle_graph(4), cops=1).analyze()
    counts = analysis.counts()
    assert sum(counts.values()) == 2 * 4 * 4
    assert repr(analysis) == (f"<CopsAnalysis of 1 cop on 4 nodes: "
                              f"cops_win={counts[CopsOutcome.COPS_WIN]}, "
                              f"robber_win={counts[CopsOutcome.ROBBER_WIN]}>")
    assert repr(CopsGame(PETERSEN, 3).analyze()).startswith(
        "<CopsAnalysis of 3 cops on 10 nodes: cops_win=")


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_analysis_round_trip(use_engine, protocol):
    graph = nx.relabel_nodes(PETERSEN, {u: "abcdefghij"[u] for u in PETERSEN})
    analysis = CopsGame(graph, 2).analyze()
    copy = pickle.loads(pickle.dumps(analysis, protocol))
    assert copy.game.cops == 2 and copy.game.graph == analysis.game.graph
    assert copy._outcomes == analysis._outcomes
    assert copy._remoteness.tobytes() == analysis._remoteness.tobytes()
    assert copy.best_start() == analysis.best_start()
    assert copy.winning_starts() == analysis.winning_starts()
    assert copy.line(["a", "b"], "h") == analysis.line(["a", "b"], "h")
    assert copy.verify()
    game = pickle.loads(pickle.dumps(analysis.game, protocol))
    assert (game.cops, game.graph) == (2, analysis.game.graph)


def forged_analyses():
    analysis = CopsGame(nx.path_graph(3), cops=1).analyze()
    game, outcomes = analysis.game, analysis._outcomes.tobytes()
    # The int32 form (native order; this machine's tests run on LE), which still loads
    rem = array("i", analysis._remoteness[:]).tobytes()
    order = STORED_ORDER if sys.byteorder == "little" else ">"
    bad_code = bytes([3]) + outcomes[1:]
    far = (-2).to_bytes(4, sys.byteorder, signed=True) + rem[4:]
    return [
        ((object(), outcomes, rem, order), TypeError, "needs a CopsGame"),
        ((game, bytearray(outcomes), rem, order), ValueError, "not bytes"),
        ((game, outcomes, list(rem), order), ValueError, "not bytes"),
        ((game, outcomes[:-1], rem, order), ValueError, "outcome table has 17 entries"),
        ((game, outcomes, rem + b"\0\0\0\0", order), ValueError, "remoteness table has"),
        ((game, bad_code, rem, order), ValueError, "codes no search gives"),
        ((game, outcomes, far, order), ValueError, "codes no search gives"),
        ((game, outcomes, rem, "?"), ValueError, "byte order"),
    ]


@pytest.mark.parametrize("case", range(8))
def test_forged_analysis_pickles_are_refused(case):
    args, error, words = forged_analyses()[case]
    data = pickle.dumps(Forged(_unpickle_cops_analysis, args))
    with pytest.raises(error, match=words):
        pickle.loads(data)


@pytest.mark.parametrize("args, error, words", [
    ((Forged(catmouse.Graph, ([[1], [0]],)), 1000), ValueError, "1 to 16, not 1000"),
    ((Forged(catmouse.Graph, ([[1], [0]],)), 0), ValueError, "1 to 16, not 0"),
    ((Forged(catmouse.Graph, ([[1], [0]],)), "2"), TypeError, "must be an int"),
    (([[1], [0]], 1), TypeError, "needs a Graph, not list"),
    ((Forged(catmouse.Graph, ([[1], []],), ), 1), ValueError, "undirected"),
])
def test_forged_game_pickles_are_refused(args, error, words):
    with pytest.raises(error, match=words):
        pickle.loads(pickle.dumps(Forged(_unpickle_cops_game, args)))


def test_a_0_2_0_game_pickle_is_checked_too():
    """0.2.0 pickled the instance's dict; such a pickle with ``_cops=1000`` loaded and failed
    only at analyze()."""
    graph = catmouse.Graph([[1], [0]])
    def old(state):  # what object.__reduce_ex__ made of a CopsGame without __reduce__
        return Forged(copyreg._reconstructor, (CopsGame, object, None), state)
    game = pickle.loads(pickle.dumps(old({"_graph": graph, "_cops": 2})))
    assert (game.cops, game.graph) == (2, graph)
    for state, words in [({"_graph": graph, "_cops": 1000}, "1 to 16, not 1000"),
                         ({"_graph": graph}, "holds _graph and _cops"),
                         ({"_graph": "x", "_cops": 1}, "needs a Graph")]:
        with pytest.raises((TypeError, ValueError), match=words):
            pickle.loads(pickle.dumps(old(state)))


def test_limits_are_named_in_one_line(use_engine):
    game = CopsGame(PETERSEN, 2)
    with pytest.raises(TypeError, match="^max_memory must be an int \\(bytes\\) or None, not str"):
        game.analyze(max_memory="x")
    with pytest.raises(TypeError, match="max_memory"):
        game.analyze(max_memory=True)
    with pytest.raises(ValueError, match="max_memory must be at least 0"):
        game.analyze(max_memory=-1)
    for call in (lambda t: catmouse.cop_number(PETERSEN, threads=t),
                 lambda t: game.analyze(threads=t)):
        with pytest.raises(ValueError, match="threads must be from 1 to 1024, not 2361"):
            call(2**70 // 2**70 * 2361)
        with pytest.raises(ValueError, match=f"threads must be from 1 to 1024, not {2**70}"):
            call(2**70)
        with pytest.raises(TypeError, match="threads must be an int"):
            call(2.0)
    # solve_many says the same of the same count.
    with pytest.raises(ValueError, match=f"threads must be from 1 to 1024, not {2**70}"):
        catmouse.solve_many([[[1], [0]]], threads=2**70)


def test_ids_keep_positions_apart_where_labels_print_alike(use_engine, tmp_path):
    graph = nx.Graph([(1, "1")])  # two nodes whose labels print as 1
    analysis = CopsGame(graph, cops=1).analyze()
    analysis.save(tmp_path / "t.csv")
    rows = list(csv.DictReader((tmp_path / "t.csv").open()))
    assert len(rows) == 2 * 2 * 2
    labels = {(r["cop1"], r["robber"], r["turn"]) for r in rows}
    keys = {(r["cop1_id"], r["robber_id"], r["turn"]) for r in rows}
    assert len(labels) == 2 and len(keys) == 8  # labels alone merge positions, ids never
    for r in rows:
        team, robber = graph_label(analysis, r["cop1_id"]), graph_label(analysis,
                                                                         r["robber_id"])
        turn = CopsTurn.COPS if r["turn"] == "cops" else CopsTurn.ROBBER
        winner = analysis.outcome([team], robber, turn)
        assert r["winner"] == ("cops" if winner == CopsOutcome.COPS_WIN else "robber")
        assert str(team) == r["cop1"] and str(robber) == r["robber"]
    data = __import__("json").loads(analysis.to_json())
    assert data["winning_start_ids"] == [[0], [1]]


def graph_label(analysis, cell: str):
    return analysis.game.graph.label(int(cell))


def test_csv_ids_match_the_json_teams(use_engine):
    from catmouse.cops.export import cops_csv, cops_dict

    analysis = CopsGame(nx.cycle_graph(4), cops=2).analyze()
    teams = cops_dict(analysis)["teams"]
    rows = list(csv.DictReader(io.StringIO(cops_csv(analysis))))
    seen = [[int(r["cop1_id"]), int(r["cop2_id"])] for r in rows[::2 * 4]]
    assert seen == teams


ULIMIT_CHILD = textwrap.dedent("""
    import resource, sys
    import networkx as nx
    import catmouse
    from catmouse import engine as selector
    selector.current = selector.load(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_AS, (250_000 * 1024, resource.RLIM_INFINITY))
    try:
        catmouse.CopsGame(nx.hypercube_graph(6), 4).analyze()
    except MemoryError as error:
        print(error)
""")


def test_the_memory_check_sees_the_address_space_limit(engine):
    if not hasattr(os, "fork") or sys.platform != "linux":
        pytest.skip("RLIMIT_AS on Linux")
    twin = "cython" if engine.__name__.endswith("bits_c") else "python"
    root = str(Path(catmouse.__file__).resolve().parent.parent)
    out = subprocess.run([sys.executable, "-c", ULIMIT_CHILD, twin], capture_output=True,
                         text=True, env=dict(os.environ, PYTHONPATH=root), timeout=120)
    assert "address-space limit (ulimit -v)" in out.stdout, (out.stdout, out.stderr)
    assert "positions need about" in out.stdout


def test_a_team_that_is_not_a_collection_of_nodes_is_named(use_engine):
    analysis = CopsGame(PETERSEN, 2).analyze()
    for cops in (0, "ab", 2.5):
        for query in (analysis.outcome, analysis.remoteness, analysis.best_moves):
            with pytest.raises(TypeError, match=r"^cops must be the team's nodes, one a cop "
                                                r"\(e\.g\. \(0, 3\)\), not "):
                query(cops, 5)
    assert analysis.outcome((0, 1), 5) == analysis.outcome([1, 0], 5)


def test_one_cop_is_one_cop_in_every_message():
    """ "1 cops on 2 nodes" (the memory check), "the team has 1 cops"."""
    game = catmouse.CopsGame(catmouse.Graph([[1], [0]]), 1)
    with pytest.raises(MemoryError, match="^1 cop on 2 nodes: 8 positions"):
        game.analyze(max_memory=1)
    with pytest.raises(ValueError, match="^the team has 1 cop, got 2 nodes"):
        game.analyze().outcome((0, 1), 1)
