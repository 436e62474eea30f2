"""Pickle: Graph and Analysis round-trip, so batches run in worker processes."""

from __future__ import annotations

import multiprocessing
import pickle
import random
from pathlib import Path

import pytest

import catmouse
from catmouse import Graph, Outcome, Turn
from catmouse.graph import _unpickle_graph
from catmouse.rules import Rules

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)
EXAMPLE = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]


class Forged:
    """Pickles as ``function(*args)``: a hand-made pickle of bad data."""

    def __init__(self, function, args):
        self.function, self.args = function, args

    def __reduce__(self):
        return self.function, self.args


def graphs():
    rng = random.Random(0)
    edges = {tuple(sorted(rng.sample(range(30), 2))) for _ in range(60)}
    return [
        Graph(EXAMPLE),
        Graph([[1], [2], [0]], directed=True),
        Graph([]),
        Graph.from_edges(30, sorted(edges)),
    ]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_graph_round_trip(protocol):
    for graph in graphs():
        copy = pickle.loads(pickle.dumps(graph, protocol))
        assert copy == graph and hash(copy) == hash(graph)
        assert copy.directed == graph.directed
        assert copy.adjacency() == graph.adjacency()
        assert bytes(copy.rindices) == bytes(graph.rindices)
        if graph.n >= 3:
            assert catmouse.solve(copy) == catmouse.solve(graph)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_networkx_labels_round_trip(protocol):
    nx = pytest.importorskip("networkx")
    graph = Graph.from_networkx(nx.cycle_graph("abcde"))
    copy = pickle.loads(pickle.dumps(graph, protocol))
    assert copy.labels == graph.labels
    assert copy.index("c") == graph.index("c") and copy.label(4) == "e"


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_analysis_round_trip(protocol):
    analysis = catmouse.analyze(graphs()[-1], hole=3)
    copy = pickle.loads(pickle.dumps(analysis, protocol))
    assert copy.outcomes.tobytes() == analysis.outcomes.tobytes()
    assert copy.remoteness_table.tobytes() == analysis.remoteness_table.tobytes()
    assert copy.counts() == analysis.counts()
    for mouse in range(0, 30, 7):
        for cat in range(1, 30, 5):
            if cat == 3:
                continue
            for turn in Turn:
                assert copy.outcome(mouse, cat, turn) == analysis.outcome(mouse, cat, turn)
                assert copy.remoteness(mouse, cat, turn) == analysis.remoteness(mouse, cat, turn)
                assert copy.best_moves(mouse, cat, turn) == analysis.best_moves(mouse, cat, turn)
        assert copy.line(mouse, 1) == analysis.line(mouse, 1)
    assert copy.verify()


def test_bad_graph_pickles_raise_on_load():
    good = Graph(EXAMPLE)
    _, (n, directed, indptr, indices, labels, _) = good.__reduce__()
    broken = bytearray(indices)
    broken[0] = 9  # neighbour 9 of a 6-node graph
    for args in [
        (n, directed, indptr, bytes(broken), labels),  # an index off the board
        (n, directed, indptr, indices[4:], labels),  # too few indices
        (n + 1, directed, indptr, indices, labels),  # n disagrees with indptr
        (n, directed, indptr[::-1], indices, labels),  # indptr scrambled
    ]:
        with pytest.raises(ValueError):
            pickle.loads(pickle.dumps(Forged(_unpickle_graph, args)))
    # One-way edge in an undirected graph.
    one_way = Graph([[1], []], directed=True)
    _, (n, _, indptr, indices, labels, _) = one_way.__reduce__()
    with pytest.raises(ValueError, match="both ways"):
        pickle.loads(pickle.dumps(Forged(_unpickle_graph, (n, False, indptr, indices, labels))))


def test_bad_analysis_pickles_raise_on_load():
    analysis = catmouse.analyze(EXAMPLE)
    function, (rules, outcomes, layers, first, order, form) = analysis.__reduce__()
    assert form == "planes" and len(layers) == 1
    # Planes forged: short, long, a layer too many or empty, not bytes, an unknown form.
    for bad in [(layers[0][:-8],), (layers[0] + bytes(8),), layers * 5,
                (layers[0], bytes(len(layers[0]))), (bytearray(layers[0]),), [layers[0]],
                layers[0]]:
        with pytest.raises(ValueError):
            pickle.loads(pickle.dumps(Forged(function, (rules, outcomes, bad, first, order,
                                                        form))))
    with pytest.raises(ValueError, match="unknown form"):
        pickle.loads(pickle.dumps(Forged(function, (rules, outcomes, layers, first, order,
                                                    "bits"))))
    # The int32 table of 0.1.0 and 0.2.0 pickles, forged.
    remoteness = bytes(analysis.remoteness_table.cast("B"))
    # Rules refuses these itself, unpickled (as here) or built.
    short_flags = Forged(Rules, (rules.mouse_graph, rules.cat_graph, rules.flags[:-1],
                                 rules.draw))
    other_cat = Forged(Rules, (rules.mouse_graph, Graph([[1], [0]]), rules.flags, rules.draw))
    bad_code = bytearray(outcomes)
    bad_code[5] = 7
    for args in [
        (rules, outcomes[:-1], remoteness),
        (rules, outcomes, remoteness[:-4]),
        (short_flags, outcomes, remoteness),
        (other_cat, outcomes, remoteness),
        (rules, bytes(bad_code), remoteness),
        (rules, outcomes, b"\xfe\xff\xff\xff" + remoteness[4:]),  # remoteness -2
    ]:
        with pytest.raises(ValueError):
            pickle.loads(pickle.dumps(Forged(function, args)))
    # Tables of the right shape and codes but wrong: loading is cheap, verify() catches it.
    swapped = bytes(outcomes).translate(bytes.maketrans(b"\x01\x02", b"\x02\x01"))
    copy = pickle.loads(pickle.dumps(Forged(function, (rules, swapped, remoteness))))
    with pytest.raises(catmouse.VerificationError):
        copy.verify()


def test_no_such_position_is_only_where_the_cat_may_not_stand(use_engine):
    # A 3 (no such position) elsewhere loaded, and outcome() there raised the enum's own
    # "3 is not a valid Outcome"; a real code on a cell the cat may not enter was counted.
    analysis = catmouse.analyze(EXAMPLE)
    function, (rules, outcomes, layers, first, order, form) = analysis.__reduce__()
    n = len(EXAMPLE)
    for index, code in ((1 * n + 2, 3), (n * n + 3 * n + 1, 3), (2 * n + 0, 1),
                        (n * n + 5 * n + 0, 0)):
        assert (outcomes[index] == 3) == (index % n == 0)  # the hole is node 0
        forged = bytearray(outcomes)
        forged[index] = code
        with pytest.raises(ValueError, match="positions that do not exist"):
            pickle.loads(pickle.dumps(Forged(function, (rules, bytes(forged), layers, first,
                                                        order, form))))


def test_planes_past_an_int32_are_refused():
    # Bit 31 of a remoteness (plane 7 of layer 3): no int32 table holds it, and the two
    # readers disagreed (remoteness() 2**31 + 1, the table -2**31 + 1 or an OverflowError).
    analysis = catmouse.analyze(EXAMPLE)
    function, (rules, outcomes, layers, first, order, form) = analysis.__reduce__()
    four = [bytearray(layers[0])] + [bytearray(len(layers[0])) for _ in range(3)]
    # Word 0 of row 0 (mouse 0, the hole; cat 0 to 63), its planes 0 to 7 side by side:
    # bit 2 of plane 7 is (mouse 0, cat 2, the mouse to move), won by the mouse at once.
    four[3][7 * 8] = 1 << 2
    with pytest.raises(ValueError, match="past 2\\*\\*31 - 1"):
        pickle.loads(pickle.dumps(Forged(function, (rules, outcomes, tuple(map(bytes, four)),
                                                    first, order, form))))
    four[3][7 * 8], four[3][6 * 8] = 0, 1 << 2  # bit 30: a remoteness an int32 holds
    copy = pickle.loads(pickle.dumps(Forged(function, (rules, outcomes,
                                                       tuple(map(bytes, four)), first, order,
                                                       form))))
    assert copy.remoteness(0, 2, Turn.MOUSE) == copy.remoteness_table[0, 0, 2] == 1 << 30


@pytest.mark.parametrize("row, plane, column", [(5, 2, 10), (0, 7, 63), (11, 0, 6), (6, 4, 40)])
def test_planes_past_the_last_column_are_refused(row, plane, column):
    # A bit in a column past node n - 1 (the format has none): the plain reader put it in the
    # next row's first columns, or raised IndexError past the table's end, and numpy's reader
    # dropped it, so remoteness() and remoteness_table could disagree.
    analysis = catmouse.analyze(EXAMPLE)
    function, (rules, outcomes, layers, first, order, form) = analysis.__reduce__()
    n = len(EXAMPLE)
    assert column >= n and row < 2 * n
    forged = bytearray(layers[0])  # little-endian words: row r's plane p is word 8r + p
    forged[8 * (8 * row + plane) + column // 8] |= 1 << (column % 8)
    with pytest.raises(ValueError, match="values in columns past node 5"):
        pickle.loads(pickle.dumps(Forged(function, (rules, outcomes, (bytes(forged),), first,
                                                    order, form))))


@pytest.mark.parametrize("row, plane", [(0, 0), (3, 7), (139, 5)])
def test_planes_past_the_last_column_are_refused_with_rows_of_several_words(row, plane):
    # 70 nodes: two words a row, so each row's last word is every other group's (the check
    # reads them as strided slices).
    graph = Graph.from_edges(70, [(u, u + 1) for u in range(69)] + [(0, 69)])
    function, (rules, outcomes, layers, first, order, form) = catmouse.analyze(
        graph).__reduce__()
    forged = bytearray(layers[0])  # row r's group j, plane p: word 16r + 8j + p
    forged[8 * (16 * row + 8 + plane) + 7] |= 1 << 7  # column 127
    with pytest.raises(ValueError, match="values in columns past node 69"):
        pickle.loads(pickle.dumps(Forged(function, (rules, outcomes, (bytes(forged),), first,
                                                    order, form))))
    forged[8 * (16 * row + 8 + plane) + 7] = 0
    forged[8 * (16 * row + 8 + plane)] |= 1 << 5  # column 69, the last node: a value
    pickle.loads(pickle.dumps(Forged(function, (rules, outcomes, (bytes(forged),), first,
                                                order, form))))


@pytest.mark.parametrize("n", [70, 200, 1100])
def test_the_engines_planes_are_the_formats_on_every_path(use_engine, n):
    # analyze hands the engine's planes to the Analysis unchecked (its own output): they
    # must pass the checks a pickle of them meets, through threads and the Board alike.
    rng = random.Random(n)
    graph = Graph.from_edges(n, sorted({tuple(sorted(rng.sample(range(n), 2)))
                                        for _ in range(2 * n)}))
    for threads in (1, 2):
        analysis = catmouse.analyze(graph, threads=threads)
        copy = pickle.loads(pickle.dumps(analysis))  # (check_layers runs on load)
        assert copy.remoteness_table.tobytes() == analysis.remoteness_table.tobytes()


def test_outcomes_only_analysis_round_trip_and_bad_codes():
    analysis = catmouse.analyze(EXAMPLE, remoteness=False)
    copy = pickle.loads(pickle.dumps(analysis))
    assert copy.outcomes.tolist() == analysis.outcomes.tolist()
    assert copy.best_moves(3, 4, Turn.CAT) == analysis.best_moves(3, 4, Turn.CAT)
    function, (rules, outcomes, remoteness, *_) = analysis.__reduce__()
    assert remoteness is None
    bad_code = bytearray(outcomes)
    bad_code[5] = 7
    for args in [(rules, outcomes[:-1], None), (rules, bytes(bad_code), None)]:
        with pytest.raises(ValueError):
            pickle.loads(pickle.dumps(Forged(function, args)))


def test_multiprocessing_pool():
    """The README example: a Pool of 2 maps solve and analyze over Graphs."""
    batch = graphs()[:2] + [Graph.from_edges(12, [(i, (i + 1) % 12) for i in range(12)])]
    batch = [g for g in batch if g.n >= 3]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        outcomes = pool.map(catmouse.solve, batch)
        analyses = pool.map(catmouse.analyze, batch)
    assert outcomes == [catmouse.solve(g) for g in batch]
    assert all(isinstance(o, Outcome) for o in outcomes)
    for graph, analysis in zip(batch, analyses):
        assert analysis.graph == graph
        assert analysis.outcomes.tobytes() == catmouse.analyze(graph).outcomes.tobytes()


# -- pickles made by 0.1.0 (tests/game/fixtures/make_pickles_010.py made them) --------------

FIXTURES = Path(__file__).resolve().parent / "fixtures"
V010 = sorted(FIXTURES.glob("v010_*.pickle"))


def answers_as_recorded(obj, expected):
    """An old pickle's Game or Analysis gives the tables its version recorded."""
    analysis = obj.analyze() if isinstance(obj, catmouse.Game) else obj
    assert analysis.outcomes.tobytes() == expected["outcomes"]
    assert analysis.has_remoteness == expected["has_remoteness"]
    if analysis.has_remoteness:
        assert analysis.remoteness_table.tolist() == expected["remoteness"]
        analysis.verify()  # the independent check of every position, under its own rules


def test_the_0_1_0_fixtures_are_there():
    assert len(V010) == 9, [path.name for path in V010]


@pytest.mark.parametrize("path", V010, ids=lambda path: path.stem)
def test_a_0_1_0_pickle_loads_and_answers_as_0_1_0_did(use_engine, path):
    record = pickle.loads(path.read_bytes())
    assert record["version"] == "0.1.0"
    obj, expected = record["object"], record.get("answers")
    if isinstance(obj, (catmouse.Game, catmouse.Analysis)):
        answers_as_recorded(obj, expected)
    elif isinstance(obj, catmouse.Graph):
        hole = obj.label(0) if obj.labels else 0
        mouse, cat = (obj.label(1), obj.label(2)) if obj.labels else (1, 2)
        assert int(catmouse.solve(obj, mouse, cat, hole=hole)) == expected["solve"]
        assert pickle.loads(pickle.dumps(obj)) == obj  # and it pickles again, by the new names
        assert b"catmouse._graph" not in pickle.dumps(obj)
    else:
        assert obj in (catmouse.Outcome.MOUSE_WIN, catmouse.Turn.CAT)
        assert type(obj) in (catmouse.Outcome, catmouse.Turn)


# -- pickles made by 0.2.0 (tests/game/fixtures/make_pickles_020.py made them) --------------

V020 = sorted(FIXTURES.glob("v020_*.pickle"))


def test_the_0_2_0_fixtures_are_there():
    assert len(V020) == 8, [path.name for path in V020]


@pytest.mark.parametrize("path", V020, ids=lambda path: path.stem)
def test_a_0_2_0_pickle_loads_and_answers_as_0_2_0_did(use_engine, path):
    # 0.2.0's CopsGame pickles name catmouse.cops_game, which now lives in catmouse.cops.game.
    record = pickle.loads(path.read_bytes())
    assert record["version"] == "0.2.0"
    obj, expected = record["object"], record["answers"]
    if isinstance(obj, catmouse.CopsGame):
        analysis = obj.analyze()
        assert len(analysis.winning_starts()) == expected["winning_starts"]
        assert analysis.best_start() == expected["best_start"]
        assert b"catmouse.cops_game" not in pickle.dumps(obj)
        return
    if isinstance(obj, (catmouse.Game, catmouse.Analysis)):
        answers_as_recorded(obj, expected)
    else:
        assert isinstance(obj, catmouse.Graph)
        assert int(catmouse.solve(obj, obj.label(1), obj.label(2), hole=obj.label(0))) == \
            expected["solve"]


def test_the_old_module_names_are_the_new_modules():
    """0.2.0's module paths import as the modules that hold the code now (not copies)."""
    import importlib

    from catmouse._moved import MOVED

    for old, new in MOVED.items():
        assert importlib.import_module(old) is importlib.import_module(new), old
    from catmouse.graph_files import read_graph  # an importer of 0.2.0's path

    assert read_graph is catmouse.read_graph


def test_forged_graph_fields_are_refused_on_load():
    _, (n, directed, indptr, indices, labels, order) = Graph(EXAMPLE).__reduce__()
    for args, error in [
        ((n, "yes", indptr, indices, labels, order), "directed is 'yes'"),
        ((n, 2, indptr, indices, labels, order), "directed is 2"),
        ((n, None, indptr, indices, labels, order), "directed is None"),
        ((n, directed, indptr, indices, ([1],) * n, order), "labels are not 6 distinct"),
        ((n, directed, indptr, indices, tuple("aabcde"), order), "labels are not 6 distinct"),
        ((n, directed, indptr, indices, list("abcdef"), order), "labels are not 6 distinct"),
        ((n, directed, indptr, indices, labels, "?"), "unknown byte order"),
        ((n, directed, list(indptr), indices, labels, order), "indptr is not int32 bytes"),
    ]:
        with pytest.raises(ValueError, match=error):
            pickle.loads(pickle.dumps(Forged(_unpickle_graph, args)))
    with pytest.raises(TypeError, match="n must be an integer|is a bool"):
        pickle.loads(pickle.dumps(Forged(_unpickle_graph, (True, directed, indptr, indices,
                                                           labels, order))))


def test_forged_rules_fields_are_refused_on_load():
    rules = catmouse.analyze(EXAMPLE)._rules
    g = rules.mouse_graph
    for args, error, kind in [
        ((g, g, 6, rules.draw), "flags must be bytes, not int", TypeError),
        ((g, g, 10**12, rules.draw), "flags must be bytes, not int", TypeError),
        ((g, g, "abcdef", rules.draw), "flags must be bytes, not str", TypeError),
        ((g, g, bytes([255] * 6), rules.draw), r"flags\[0\] = 255", ValueError),
        ((g, g, rules.flags, 7), "draw must be an Outcome", ValueError),
        ((EXAMPLE, g, rules.flags, rules.draw), "mouse_graph must be a Graph", TypeError),
        ((g, "cat", rules.flags, rules.draw), "cat_graph must be a Graph", TypeError),
    ]:
        with pytest.raises(kind, match=error):
            pickle.loads(pickle.dumps(Forged(Rules, args)))
    # A Game's stay graphs pickle as their base graph, checked on load too.
    from catmouse.game import _stay_graph

    with pytest.raises(TypeError, match="base must be a Graph, not list"):
        pickle.loads(pickle.dumps(Forged(_stay_graph, (EXAMPLE,))))
    game = catmouse.Game(EXAMPLE, mouse_stays=True)
    assert pickle.loads(pickle.dumps(game._rules)).mouse_graph.adjacency() == \
        game._rules.mouse_graph.adjacency()
