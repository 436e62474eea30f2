"""The Python API's inputs and outputs a networkx user reaches for, and docs that are true.

A mapping ``{node: neighbours}`` is a graph; a Graph gives back its nodes, edges and a networkx
graph; every solver takes what the readers return (a GraphFile); the Analysis queries default as
``line()`` does; ``Game(hole=)``; an error says "default" only of an argument not passed.
"""

from __future__ import annotations

import io
import pickle

import pytest

import catmouse
from catmouse import Game, Graph, Outcome, Turn

nx = pytest.importorskip("networkx")

LETTERS = "abcdefghij"


def petersen_abc():
    """The Petersen graph with its nodes named 'a'..'j' (and no graph attributes)."""
    G = nx.relabel_nodes(nx.petersen_graph(), dict(enumerate(LETTERS)))
    G.graph.clear()
    return G


# -- a mapping is a graph ----------------------------------------------------------------------


def test_a_dict_of_lists_equals_its_lists(use_engine):
    lists = [[1, 4, 5], [0, 2, 6], [1, 3, 7], [2, 4, 8], [3, 0, 9],
             [0, 7, 8], [1, 8, 9], [2, 9, 5], [3, 5, 6], [4, 6, 7]]
    as_dict = nx.to_dict_of_lists(nx.Graph({u: row for u, row in enumerate(lists)}))
    assert list(as_dict) == list(range(10))
    assert Graph(as_dict) == Graph(list(as_dict.values()))  # rows in networkx's order
    assert Graph(dict(enumerate(lists))) == Graph(lists)
    assert catmouse.solve(as_dict, 3, 7) == catmouse.solve(lists, 3, 7)
    expected = catmouse.solve(lists, 3, 7)
    assert catmouse.solve_many([as_dict, lists], mouse=3, cat=7) == [expected] * 2
    assert catmouse.analyze(as_dict).outcomes.tolist() == catmouse.analyze(lists).outcomes.tolist()


def test_a_labelled_dict_speaks_its_keys_in_their_order(use_engine):
    G = petersen_abc()
    as_dict = nx.to_dict_of_lists(G)
    g = Graph(as_dict)
    assert g.nodes == tuple(as_dict) == tuple(LETTERS)
    assert g == Graph(G)  # the same labels in the same order as networkx's own
    assert catmouse.solve(as_dict, "b", "c", hole="a") == catmouse.solve(G, "b", "c", hole="a")
    a = catmouse.analyze(as_dict, hole="a")
    assert all(v in LETTERS for v in a.best_moves("b", "c"))
    # Other key orders number the nodes otherwise: keys' order is the nodes' order.
    backwards = dict(reversed(list(as_dict.items())))
    assert Graph(backwards).nodes == tuple(reversed(LETTERS))
    assert Graph({"x": {"y"}, "y": ("x",)}).edges == (("x", "y"),)  # any iterable of neighbours


@pytest.mark.parametrize("mapping, directed, error, message", [
    ({"a": ["b"], "b": ["a", "z"]}, False, ValueError,
     "'b' lists neighbour 'z', which is not a key"),
    ({"a": ["b"], "b": []}, False, ValueError, "edge 'a'-'b' is listed at node 'a' but not at"),
    ({"a": ["a"]}, False, ValueError, "'a' lists itself"),
    ({"a": ["b", "b"], "b": ["a"]}, True, ValueError, "'a' lists neighbour 'b' more than once"),
    ({"a": "b", "b": ["a"]}, False, TypeError, "node 'a''s neighbours must be an iterable"),
    ({"a": 5}, False, TypeError, "not int"),
    ({"a": [["b"]], "b": []}, True, ValueError, r"neighbour \['b'\], which is not a key"),
])
def test_a_bad_mapping_names_the_node(mapping, directed, error, message):
    with pytest.raises(error, match=message):
        Graph(mapping, directed=directed)
    with pytest.raises(error, match=message):
        catmouse.solve(mapping) if not directed else Graph(mapping, directed=True)


def test_a_directed_mapping_keeps_its_arcs():
    g = Graph({"a": ["b"], "b": ["c"], "c": []}, directed=True)
    assert g.directed and g.edges == (("a", "b"), ("b", "c"))


# -- nodes, edges, networkx, iter and in ----------------------------------------------------


def test_nodes_edges_iter_and_in():
    g = Graph([[1, 2], [0], [0]])
    assert g.nodes == (0, 1, 2) and list(g) == [0, 1, 2] and len(g) == 3
    assert g.edges == ((0, 1), (0, 2))
    assert 2 in g and 3 not in g and -1 not in g and True not in g and "0" not in g
    assert [] not in g  # unhashable: no node, no error
    with pytest.raises(TypeError):
        g.nodes[0] = 5  # read-only
    h = Graph(petersen_abc())
    assert list(h) == list(LETTERS) and "a" in h and 0 not in h and [] not in h
    assert len(h.edges) == 15 and all(h.index(u) < h.index(v) for u, v in h.edges)
    d = Graph([[1], [2], [0]], directed=True)
    assert d.edges == ((0, 1), (1, 2), (2, 0))


@pytest.mark.parametrize("make", [
    petersen_abc,
    lambda: nx.path_graph(5),
    lambda: nx.gnp_random_graph(9, 0.4, seed=3, directed=True),
    lambda: nx.Graph([("x", 2), (2, (1, 2))]),
    lambda: nx.empty_graph(3),
])
def test_to_networkx_round_trip(make):
    G = make()
    back = Graph(G).to_networkx()
    assert nx.utils.graphs_equal(G, back)
    assert list(back.nodes) == list(G.nodes) and back.is_directed() == G.is_directed()
    assert Graph(back) == Graph(G)


# -- a GraphFile goes wherever a Graph goes ------------------------------------------------


def test_every_solver_takes_a_graph_file(use_engine):
    text = '{"graph": [[1, 3], [0, 2], [1, 3], [0, 2]], "hole": 0}'
    f = catmouse.read_json(io.StringIO(text))
    g = f.graph
    assert catmouse.solve(f) == catmouse.solve(g)
    assert catmouse.solve(f, 2, 3) == catmouse.solve(g, 2, 3)
    assert catmouse.analyze(f).outcomes.tolist() == catmouse.analyze(g).outcomes.tolist()
    assert catmouse.solve_many([f, g], mouse=2, cat=1) == [catmouse.solve(g, 2, 1)] * 2
    assert Game(f, holes=()).solve(0, 2) == Game(g, holes=()).solve(0, 2)
    assert Game(g, cat_graph=f, holes=()).cat_graph == g
    assert catmouse.cop_number(f) == catmouse.cop_number(g) == 2
    assert catmouse.is_cop_win(f) is catmouse.is_cop_win(g) is False
    assert catmouse.CopsGame(f, 2).graph == g
    assert catmouse.draw(f, 2, 1).startswith("<svg")
    assert "<!DOCTYPE html>" in catmouse.play_page(f, 2, 1)
    assert Graph(f) == g
    directed = catmouse.read_json(io.StringIO('{"graph": [[1], []]}'), directed=True)
    assert catmouse.analyze(directed, hole=1).graph.directed


# -- the defaults, as the tutorial's table gives them ------------------------------------------


def test_analysis_queries_default_to_mouse_1_and_cat_2(use_engine):
    board = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
    a = catmouse.analyze(board)
    assert a.outcome() == a.outcome(1, 2) == catmouse.solve(board) == Outcome.DRAW
    assert a.remoteness() == a.remoteness(1, 2)
    assert a.best_moves() == a.best_moves(1, 2)
    assert a.outcome(3) == a.outcome(3, 2) and a.outcome(cat=4) == a.outcome(1, 4)
    assert a.outcome(turn=Turn.CAT) == a.outcome(1, 2, Turn.CAT)
    G = nx.relabel_nodes(nx.path_graph(4), {0: 0, 1: 1, 2: 2, 3: "x"})
    b = catmouse.analyze(G)
    assert b.outcome() == b.outcome(1, 2) and b.best_moves() == b.best_moves(1, 2)


def test_max_nodes_is_public():
    from catmouse.engine import facts

    assert catmouse.MAX_NODES == facts.MAX_NODES == 65535
    assert "MAX_NODES" in catmouse.__all__


def test_game_takes_one_hole(use_engine):
    square = [[1, 3], [0, 2], [1, 3], [0, 2]]
    assert Game(square, hole=2).holes == (2,)
    assert repr(Game(square, hole=2)) == repr(Game(square, holes=(2,)))
    assert Game(square, hole=2).solve(0, 1) == Game(square, holes=[2]).solve(0, 1)
    assert Game(square).holes == (0,)
    with pytest.raises(TypeError, match="hole= .* or holes= .*not both"):
        Game(square, hole=0, holes=(1,))
    G = nx.path_graph("abc")
    assert Game(G, hole="a").holes == ("a",)
    restored = pickle.loads(pickle.dumps(Game(square, hole=3)))
    assert restored.holes == (3,)


# -- "default" only when not passed -----------------------------------------------------------


def test_an_error_says_default_only_of_an_argument_not_passed(use_engine):
    G = nx.path_graph("abcd")
    missing = r"hole=0 \(LeetCode's default\) is not a node"
    passed = r"hole=0 is not a node"
    with pytest.raises(ValueError, match=missing):
        catmouse.solve(G, "b", "c")
    with pytest.raises(ValueError, match=passed):
        catmouse.solve(G, "b", "c", hole=0)
    with pytest.raises(ValueError, match=missing):
        catmouse.solve_many([G], mouse="b", cat="c")
    with pytest.raises(ValueError, match=passed):
        catmouse.solve_many([G], mouse="b", cat="c", hole=0)
    with pytest.raises(ValueError, match=missing):
        catmouse.analyze(G)
    with pytest.raises(ValueError, match=passed):
        catmouse.analyze(G, hole=0)
    with pytest.raises(ValueError, match=missing):
        catmouse.draw(G, "b", "c")
    with pytest.raises(ValueError, match=passed):
        catmouse.draw(G, "b", "c", hole=0)
    with pytest.raises(ValueError, match=r"holes names 0 \(LeetCode's default\)"):
        Game(G)
    with pytest.raises(ValueError, match=r"holes names 0, which"):
        Game(G, holes=[0])
    a = catmouse.analyze(G, hole="a")
    with pytest.raises(ValueError, match=r"mouse=1 \(LeetCode's default\)"):
        a.line()
    with pytest.raises(ValueError, match=r"mouse=1 is not a node"):
        a.line(1, "c")
    with pytest.raises(ValueError, match=r"cat=2 \(LeetCode's default\)"):
        a.outcome("b")
    # The defaults are ints to the caller: equal, hashing and printing as 0, 1 and 2.
    from catmouse.graph import DEFAULT_CAT, DEFAULT_HOLE, DEFAULT_MOUSE

    assert (DEFAULT_HOLE, DEFAULT_MOUSE, DEFAULT_CAT) == (0, 1, 2)
    assert repr(DEFAULT_CAT) == "2" and hash(DEFAULT_MOUSE) == hash(1)
    assert type(pickle.loads(pickle.dumps(DEFAULT_HOLE))) is int
