"""One name for every node: a labelled graph speaks labels, in and out.

A graph built from networkx names its nodes by their labels wherever a node goes
in (starts, holes, queries) or comes out (best moves, lines, node sets, errors,
reprs); the defaults (hole 0, mouse 1, cat 2) are labels too, and a missing one
stops the call with the argument to pass.  The tables stay indexed by ids.
"""

from __future__ import annotations

import csv
import json
import re

import pytest
from engines import on_engine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import catmouse
from catmouse import Game, Graph, Outcome, Turn, export

nx = pytest.importorskip("networkx")


def shifted(graph, by=1):
    return nx.relabel_nodes(graph, {u: u + by for u in graph.nodes})


def edges_of(graph):
    return {frozenset(e) for e in graph.edges}


# -- the wrong answers of the issue, each pinned ---------------------------------------------


def test_petersen_numbered_from_1_plays_along_its_edges(use_engine):
    P1 = shifted(nx.petersen_graph())
    a = catmouse.analyze(P1, hole=1)
    assert a.remoteness(3, 6) == 3
    line = a.line(3, 6)
    assert line[0] == (3, 6, Turn.MOUSE) and len(line) == 4  # three moves, then the end
    for (m, c, t), (m2, c2, _) in zip(line, line[1:]):
        mover, dest = (m, m2) if t == Turn.MOUSE else (c, c2)
        assert frozenset((mover, dest)) in edges_of(P1)
        assert dest in a.best_moves(m, c, t)
    assert line[-1][0] == 1  # the mouse ends in the hole
    assert all(v in P1 for v in a.best_moves(3, 6))


def test_cycle_numbered_from_1_names_the_missing_default():
    C = shifted(nx.cycle_graph(6))
    message = (r"hole=0 \(LeetCode's default\) is not a node of this graph "
               r"\(its nodes are 1..6\): pass hole=")
    for call in (lambda: catmouse.solve(C), lambda: catmouse.analyze(C),
                 lambda: catmouse.solve_many([C]), lambda: catmouse.draw(C)):
        with pytest.raises(ValueError, match=message):
            call()
    with pytest.raises(ValueError, match=r"holes names 0 \(LeetCode's default\), which is not a "
                                         r"node of this graph \(its nodes are 1..6\)"):
        Game(C)
    # Named, it solves: the mouse on 1 (LeetCode's default start, a name here) next to 6.
    assert catmouse.solve(C, hole=6) == catmouse.solve(nx.cycle_graph(6), 0, 1, hole=5)
    # A notebook shows a summary, not a traceback.
    board = Graph(C)
    assert board._repr_svg_() is None
    assert "hole=...)</code> draws it" in board._repr_html_()


def test_string_labels_name_each_missing_start():
    G = nx.path_graph("abcd")
    with pytest.raises(ValueError, match=r"mouse=1 \(LeetCode's default\) is not a node of "
                                         r"this graph \(its nodes are 'a', 'b', 'c', 'd'\): "
                                         r"pass mouse="):
        catmouse.solve(G, hole="a")
    with pytest.raises(ValueError, match=r"cat=2 \(LeetCode's default\) is not a node"):
        catmouse.solve(G, "b", hole="a")
    with pytest.raises(ValueError, match=r"cat=2 \(LeetCode's default\)"):
        catmouse.analyze(G, hole="a").line("b")
    assert catmouse.solve(G, "b", "d", hole="a") == Outcome.MOUSE_WIN


def test_an_id_is_never_read_for_a_missing_name():
    # Ids 0..3 exist under labels 10..13; an id is no name for them.
    G = shifted(nx.path_graph(4), 10)
    a = catmouse.analyze(G, hole=10)
    for query in (a.outcome, a.remoteness, a.best_moves, a.line):
        # Passed, 1 is the caller's: the error does not call it a default.
        with pytest.raises(ValueError, match=r"mouse=1 is not a node .*its nodes are 10..13"):
            query(1, 12)
        with pytest.raises(ValueError, match=r"mouse=1 \(LeetCode's default\) is not a node .*"
                                             r"its nodes are 10..13"):
            query(cat=12)
    with pytest.raises(ValueError, match="holes names 3, which is not a node"):
        Game(G, holes=[3])
    with pytest.raises(ValueError, match="node=0 is not a node"):
        Graph(G).neighbors(0)
    assert Graph(G).neighbors(11) == (10, 12) and Graph(G).degree(13) == 1


def test_game_repr_node_sets_and_errors_speak_labels(use_engine):
    H = nx.Graph([("exit", "x"), ("x", "y"), ("y", "z"), ("z", "exit"), ("y", "den")])
    game = Game(H, holes=["exit"], cat_goals=["den"])
    assert repr(game) == "<Game 5 nodes, holes=('exit',), cat_goals=('den',)>"
    assert game.holes == game.cat_forbidden == ("exit",) and game.cat_goals == ("den",)
    with pytest.raises(ValueError, match="the cat cannot be on node 'exit' \\(the hole\\)"):
        game.solve("x", "exit")
    with pytest.raises(ValueError, match="node 'den' is both a cat goal and forbidden"):
        Game(H, holes=["exit"], cat_forbidden=["den"], cat_goals=["den"])
    assert game.analyze().line("y", "z")[1][0] in ("x", "den", "z")
    # The tables stay indexed by ids: index() translates.
    a = game.analyze()
    g = a.graph
    assert a.outcomes[0, g.index("x"), g.index("z")] == a.outcome("x", "z")


def test_plain_graphs_keep_ids():
    # networkx's 0..n-1 are labels equal to the ids: the defaults name them as before.
    lists = [[1, 5], [0, 2], [1, 3], [2, 4], [3, 5], [4, 0]]
    cycle = catmouse.analyze(nx.cycle_graph(6))
    assert cycle.outcome(1, 2) == catmouse.solve(lists) == catmouse.solve(nx.cycle_graph(6))
    assert cycle.line() == catmouse.analyze(lists).line()
    a = catmouse.analyze([[1, 3], [0], [3], [0, 2]])
    assert a.best_moves(1, 2) == [0] and a.line() == [(1, 2, Turn.MOUSE), (0, 2, Turn.CAT)]
    with pytest.raises(ValueError, match="mouse node 7 is not in a graph of 4 nodes"):
        a.outcome(7, 2)


def test_draw_of_a_cat_first_analysis_tells_the_game_it_came_from():
    game = Game(nx.path_graph(5), holes=(0,), first=Turn.CAT)
    from_game, from_analysis = catmouse.draw(game), catmouse.draw(game.analyze())
    assert "the cat moves first" in from_analysis
    strip = __import__("re").compile(r'cm\d+-')  # the pictures' fresh marker ids
    assert strip.sub("", from_game) == strip.sub("", from_analysis)


def test_draw_of_a_labelled_graph_words_its_line_in_labels(use_engine):
    P1 = shifted(nx.petersen_graph())
    svg = catmouse.draw(P1, 3, 6, hole=1)
    assert "the mouse wins in 3 moves" in svg
    assert "mouse starts on 3, cat on 6" in svg
    assert "the mouse reaches the hole (node 1)" in svg


# -- property: relabelling changes names, never answers --------------------------------------


def relabelling(kind, n, offset):
    if kind == "shift":
        return lambda u: u + offset
    if kind == "str":
        return lambda u: f"n{u + offset}"
    return lambda u: (u // 3, u % 3 + offset)  # as networkx grid graphs name nodes


@st.composite
def games(draw):
    n = draw(st.integers(2, 7))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    hole = draw(st.integers(0, n - 1))
    order = draw(st.permutations(range(n)))  # networkx's node order: ids move too
    kind = draw(st.sampled_from(["shift", "str", "tuple"]))
    return n, edges, hole, order, relabelling(kind, n, draw(st.integers(-3, 40)))


LABELS = settings(max_examples=40, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture])


def graph_pair(n, edges, order, name):
    """The graph on ids 0..n-1, and the same graph with node u named ``name(u)``, its nodes
    added in ``order`` (the order networkx keeps, so the order of the named graph's ids)."""
    plain = nx.Graph()
    plain.add_nodes_from(range(n))
    plain.add_edges_from(edges)
    named = nx.Graph()
    named.add_nodes_from(name(u) for u in order)
    named.add_edges_from((name(u), name(v)) for u, v in edges)
    return plain, named


@LABELS
@given(games())
def test_relabelled_graphs_answer_the_same(engine, case):
    n, edges, hole, order, name = case
    plain, named = graph_pair(n, edges, order, name)
    same_order = list(order) == sorted(order)
    with on_engine(engine):
        a = catmouse.analyze(plain, hole=hole)
        b = catmouse.analyze(named, hole=name(hole))
        game_a = Game(plain, holes=[hole], cat_goals=[], mouse_stays=True)
        game_b = Game(named, holes=[name(hole)], cat_goals=[], mouse_stays=True)
        assert game_b.holes == (name(hole),)
        for m in range(n):
            for c in range(n):
                if c == hole:
                    continue
                assert catmouse.solve(named, name(m), name(c), hole=name(hole)) == \
                    catmouse.solve(plain, m, c, hole=hole)
                assert game_b.solve(name(m), name(c)) == game_a.solve(m, c)
                for t in Turn:
                    here, there = (m, c, t), (name(m), name(c), t)
                    assert b.outcome(*there) == a.outcome(*here)
                    assert b.remoteness(*there) == a.remoteness(*here)
                    moves = b.best_moves(*there)
                    assert sorted(map(str, moves)) == sorted(str(name(v))
                                                             for v in a.best_moves(*here))
                    # In node order: the graph's own order of its labels.
                    assert moves == sorted(moves, key=b.graph.index)
                    line_a, line_b = a.line(*here), b.line(*there)
                    if same_order:
                        assert line_b == [(name(x), name(y), s) for x, y, s in line_a]
                    else:  # ties may break another way; each step is still a best move
                        assert line_b[0] == there
                        if a.remoteness(*here) is not None:  # decided: one step per ply
                            assert len(line_b) == len(line_a) == a.remoteness(*here) + 1
                        for (x, y, s), (x2, y2, _) in zip(line_b, line_b[1:]):
                            assert (x2 if s == Turn.MOUSE else y2) in b.best_moves(x, y, s)


def test_verify_names_a_wrong_position_by_its_labels():
    a = catmouse.analyze(shifted(nx.path_graph(4)), hole=1)
    g = a.graph
    s = g.index(3) * 4 + g.index(4)  # the mouse on 3, the cat on 4, the mouse to move
    table = a._outcomes = bytearray(a._outcomes)  # bytes: tamper a copy
    table[s] = 2 if table[s] == 1 else 1
    with pytest.raises(catmouse.VerificationError,
                       match=r"position \(mouse=3, cat=4, turn=MOUSE\) is wrong") as error:
        a.verify()
    assert error.value.position == (3, 4, Turn.MOUSE)


def test_family_functions_take_labelled_graphs():
    assert catmouse.is_cop_win(shifted(nx.path_graph(4)))
    assert not catmouse.is_cop_win(nx.relabel_nodes(nx.cycle_graph(4), dict(enumerate("abcd"))))


def without_names(svg):
    """An SVG with its texts emptied (and their places: a name's length moves its baseline)
    and its document-unique ids (cm0-, cm1-...) made one."""
    svg = re.sub(r"<text [^>]*>", "<text>", re.sub(r">[^<]*<", "><", svg))
    return re.sub(r"cm\d+-", "cm-", svg)


@LABELS
@given(games(), st.data())
def test_relabelled_graphs_draw_and_export_the_same(engine, case, data):
    n, edges, hole, order, name = case
    # The same node order: the same ids, so the same picture and tables.
    plain, named = graph_pair(n, edges, range(n), name)
    m = data.draw(st.sampled_from([v for v in range(n) if v != hole]), label="mouse")
    c = data.draw(st.sampled_from([v for v in range(n) if v not in (hole, m)] or [None]),
                  label="cat")
    with on_engine(engine):
        a = catmouse.analyze(plain, hole=hole)
        b = catmouse.analyze(named, hole=name(hole))
        if c is not None:  # pictures: the same drawing, only the names differ
            assert without_names(catmouse.draw(named, name(m), name(c), hole=name(hole))) == \
                without_names(catmouse.draw(plain, m, c, hole=hole))
            assert without_names(catmouse.draw(b, name(m), name(c))) == \
                without_names(catmouse.draw(a, m, c))
    # Exports: the tables by id, the same; the labels alongside (a column, a key, an array).
    # (A networkx graph on 0..n-1 has labels too: its own ids.)
    for analysis, label in ((a, lambda u: u), (b, name)):
        rows = [next(csv.reader([row])) for row in export.csv_text(analysis).splitlines()]
        assert rows[0][-2:] == ["mouse_label", "cat_label"]
        assert all(cells[-2:] == [str(label(int(cells[0]))), str(label(int(cells[1])))]
                   for cells in rows[1:])
        table = json.loads(analysis.to_json())
        assert table.pop("labels") == [export.json_label(label(u)) for u in range(n)]
        if analysis is a:
            rows_a, table_a = [cells[:-2] for cells in rows], table
    assert [cells[:-2] for cells in rows] == rows_a
    assert table == table_a


@LABELS
@given(games())
def test_relabelled_graphs_in_another_node_order_permute_the_tables(engine, case):
    n, edges, hole, order, name = case
    plain, named = graph_pair(n, edges, order, name)
    with on_engine(engine):
        a = catmouse.analyze(plain, hole=hole)
        b = catmouse.analyze(named, hole=name(hole))
    at = b.graph.index
    table_a, table_b = json.loads(a.to_json()), json.loads(b.to_json())
    for key in ("outcomes", "remoteness"):
        assert [[[table_b[key][t][at(name(x))][at(name(y))] for y in range(n)]
                 for x in range(n)] for t in range(2)] == table_a[key]
    assert table_b["labels"] == [export.json_label(label) for label in b.graph._labels]


def test_a_cat_graph_is_paired_with_the_mouses_by_name(use_engine):
    """A labelled cat graph whose nodes come in another order is the same graph: its nodes are
    paired with the mouse's by label, not by position (it was by position: four positions of
    the 5-node game below changed outcome and verify() passed); other names are refused."""
    mouse = nx.Graph([("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("e", "a"), ("b", "e")])
    cat = nx.Graph()
    cat.add_nodes_from("edcba")
    cat.add_edges_from(mouse.edges)
    alone = Game(mouse, holes=("a",)).analyze()
    paired = Game(mouse, holes=("a",), cat_graph=cat).analyze()
    assert bytes(paired.outcomes) == bytes(alone.outcomes)
    assert paired.outcome("c", "b") == alone.outcome("c", "b") == Outcome.DRAW
    # A cat graph of its own, in another order: the cat moves along its own edges by name.
    star = nx.Graph([("c", x) for x in "abde"])
    reordered = nx.Graph()
    reordered.add_nodes_from("dbeca")
    reordered.add_edges_from(star.edges)
    game = Game(mouse, holes=("a",), cat_graph=reordered)
    assert bytes(game.analyze().outcomes) == bytes(
        Game(mouse, holes=("a",), cat_graph=star).analyze().outcomes)
    assert game.cat_graph.labels == tuple("dbeca")  # as given
    assert game.analyze().best_moves("d", "c", Turn.CAT) is not None
    with pytest.raises(ValueError, match="^cat_graph names node 0, which the mouse's graph"):
        Game(mouse, holes=("a",), cat_graph=nx.path_graph(5))
    with pytest.raises(ValueError, match="^cat_graph has 4 nodes but the mouse's graph has 5"):
        Game(mouse, holes=("a",), cat_graph=nx.path_graph("abcd"))
