"""Game's rule options against an independent oracle, on both engines.

The oracle knows nothing of CSR, flags or retrograde queues: it lists every
position and every move explicitly and runs value iteration, one sweep per ply.
A position decided in sweep k has remoteness k, which is the definition the
engine's breadth-first order implements.
"""

from __future__ import annotations

import pickle
import random

import pytest

import catmouse
import catmouse._retro
import catmouse._retro_py
from catmouse import Game, Graph, Outcome, Turn
from catmouse._retro import env_flag

ENGINES = ["python"] if env_flag("CATMOUSE_NO_EXTENSIONS") else ["python", "cython"]
CASES = 200  # random graphs per rule option and engine


@pytest.fixture(params=ENGINES)
def twin(request, monkeypatch):
    """Run the test on one engine, imported directly so a missing build fails."""
    if request.param == "cython":
        import catmouse._retro_c as module
    else:
        module = catmouse._retro_py
    monkeypatch.setattr(catmouse._retro, "propagate", module.propagate)
    return request.param


# -- the oracle ------------------------------------------------------------------

NO_POSITION = 3


def oracle(n, mouse_moves, cat_moves, holes, forbidden, goals, draw):
    """Outcome and remoteness tables ``[turn][mouse][cat]`` by explicit value iteration.

    ``mouse_moves[u]`` / ``cat_moves[u]`` list where each player may go from
    ``u`` (``u`` itself when it may stay).
    """
    win_for = {0: 1, 1: 2}  # mouse to move wins 1, cat to move wins 2

    def children(turn, m, c):
        if turn == 0:
            return [(1, m2, c) for m2 in mouse_moves[m]]
        return [(0, m, c2) for c2 in cat_moves[c] if c2 not in forbidden]

    value, rem = {}, {}
    undecided = []
    for turn in (0, 1):
        for m in range(n):
            for c in range(n):
                if c in forbidden:
                    continue
                p = (turn, m, c)
                if m == c:
                    value[p] = 2
                elif m in holes:
                    value[p] = 1
                elif c in goals:
                    value[p] = 2
                elif not children(*p):
                    value[p] = win_for[1 - turn]
                else:
                    undecided.append(p)
                    continue
                rem[p] = 0
    sweep = 0
    while True:
        sweep += 1
        found = {}
        for p in undecided:
            mine, theirs = win_for[p[0]], win_for[1 - p[0]]
            results = [value.get(q) for q in children(*p)]
            if mine in results:
                found[p] = mine
            elif all(r == theirs for r in results):
                found[p] = theirs
        if not found:
            break
        value.update(found)
        rem.update(dict.fromkeys(found, sweep))
        undecided = [p for p in undecided if p not in found]

    outcome = [[[NO_POSITION] * n for _ in range(n)] for _ in range(2)]
    remoteness = [[[-1] * n for _ in range(n)] for _ in range(2)]
    for turn in (0, 1):
        for m in range(n):
            for c in range(n):
                if c in forbidden:
                    continue
                p = (turn, m, c)
                outcome[turn][m][c] = value.get(p, int(draw))
                remoteness[turn][m][c] = rem.get(p, -1)
    return outcome, remoteness


# -- random games ------------------------------------------------------------------


def random_edges(rng, n, directed):
    p = rng.choice([0.2, 0.35, 0.5, 0.7])
    if directed:
        return [[v for v in range(n) if v != u and rng.random() < p] for u in range(n)]
    rows = [[] for _ in range(n)]
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < p:
                rows[u].append(v)
                rows[v].append(u)
    return rows


def random_subset(rng, n, most):
    return set(rng.sample(range(n), rng.randint(0, min(most, n))))


def random_game(rng, option):
    """Keyword arguments for Game: the classic rules, except ``option`` drawn at random."""
    n = rng.randint(1, 7)
    directed = option in ("directed", "all") and rng.random() < 0.8
    rows = random_edges(rng, n, directed)
    kwargs = {"holes": {rng.randrange(n)}}
    if option in ("holes", "all"):
        kwargs["holes"] = random_subset(rng, n, 3)
    if option in ("cat_forbidden", "all"):
        kwargs["cat_forbidden"] = random_subset(rng, n, 3)
    if option in ("cat_goals", "all"):
        forbidden = kwargs.get("cat_forbidden", kwargs["holes"])
        kwargs["cat_goals"] = random_subset(rng, n, 3) - set(forbidden)
    if option in ("cat_graph", "all"):
        cat_directed = directed and rng.random() < 0.5
        kwargs["cat_graph"] = Graph(random_edges(rng, n, cat_directed), directed=cat_directed)
    for flag in ("mouse_stays", "cat_stays"):
        if option in (flag, "all"):
            kwargs[flag] = rng.random() < 0.7
    if option in ("draw", "all"):
        kwargs["draw"] = rng.choice(list(Outcome))
        if option == "draw":  # passing makes games that never end common
            kwargs["mouse_stays"] = rng.random() < 0.5
    if option in ("first", "all"):
        kwargs["first"] = rng.choice(list(Turn))
    return Graph(rows, directed=directed), kwargs


def oracle_for(graph, kwargs):
    """Translate Game's keywords into the oracle's explicit move lists."""
    n = graph.n
    cat_graph = kwargs.get("cat_graph", graph)
    mouse_moves = [list(graph.neighbors(u)) for u in range(n)]
    cat_moves = [list(cat_graph.neighbors(u)) for u in range(n)]
    if kwargs.get("mouse_stays"):
        mouse_moves = [moves + [u] for u, moves in enumerate(mouse_moves)]
    if kwargs.get("cat_stays"):
        cat_moves = [moves + [u] for u, moves in enumerate(cat_moves)]
    holes = set(kwargs.get("holes", (0,)))
    forbidden = set(kwargs.get("cat_forbidden", holes))
    goals = set(kwargs.get("cat_goals", ()))
    return oracle(n, mouse_moves, cat_moves, holes, forbidden, goals,
                  kwargs.get("draw", Outcome.DRAW))


def differs_from_default(option, graph, kwargs, outcome):
    """Whether the option changed any answer, against the oracle with the option at default."""
    if option == "first":
        return kwargs["first"] == Turn.CAT and outcome[1] != outcome[0]
    if option == "directed":
        both_ways = [set(graph.neighbors(u)) for u in range(graph.n)]
        for u in range(graph.n):
            for v in graph.neighbors(u):
                both_ways[v].add(u)
        undirected = Graph([sorted(row) for row in both_ways])
        return oracle_for(undirected, kwargs)[0] != outcome
    default = {} if option == "all" else {k: v for k, v in kwargs.items() if k != option}
    return oracle_for(graph, default)[0] != outcome


OPTIONS = ["holes", "cat_forbidden", "cat_goals", "cat_graph", "directed",
           "mouse_stays", "cat_stays", "draw", "first", "all"]


@pytest.mark.parametrize("option", OPTIONS)
def test_rule_option_matches_oracle(twin, option):
    rng = random.Random(f"game-{option}")
    changed = 0
    for _ in range(CASES):
        graph, kwargs = random_game(rng, option)
        game = Game(graph, **kwargs)
        analysis = game.analyze()
        outcome, remoteness = oracle_for(graph, kwargs)
        assert analysis.outcomes.tolist() == outcome, (graph.adjacency(), kwargs)
        assert analysis.remoteness_table.tolist() == remoteness, (graph.adjacency(), kwargs)
        if differs_from_default(option, graph, kwargs, outcome):
            changed += 1
        # solve() stops early at one position with ``first`` to move; spot-check it.
        first = kwargs.get("first", Turn.MOUSE)
        forbidden = set(kwargs.get("cat_forbidden", kwargs["holes"]))
        for _ in range(3):
            m, c = rng.randrange(graph.n), rng.randrange(graph.n)
            if c in forbidden:
                with pytest.raises(ValueError, match="cannot be on node"):
                    game.solve(m, c)
            else:
                assert game.solve(m, c) == outcome[first][m][c]
    assert changed >= 5, f"{option} changed only {changed} of {CASES} games"


def test_classic_rules_are_a_game(twin):
    """Game with its defaults is LeetCode 913: the same tables as catmouse.analyze."""
    rng = random.Random("classic")
    for _ in range(CASES):
        n = rng.randint(2, 8)
        rows = random_edges(rng, n, False)
        hole = rng.randrange(n)
        a = catmouse.analyze(rows, hole=hole)
        b = Game(rows, holes=(hole,)).analyze()
        assert a.outcomes.tolist() == b.outcomes.tolist()
        assert a.remoteness_table.tolist() == b.remoteness_table.tolist()


def test_directed_graphs_in_solve_and_analyze(twin):
    """catmouse.solve/analyze on one-way edges follow the oracle (predecessors reversed)."""
    rng = random.Random("directed")
    for _ in range(CASES):
        n = rng.randint(2, 7)
        graph = Graph(random_edges(rng, n, True), directed=True)
        hole = rng.randrange(n)
        outcome, remoteness = oracle_for(graph, {"holes": {hole}})
        a = catmouse.analyze(graph, hole=hole)
        assert a.outcomes.tolist() == outcome
        assert a.remoteness_table.tolist() == remoteness
        mouse, cat = rng.randrange(n), rng.randrange(n)
        if cat != hole:
            assert catmouse.solve(graph, mouse=mouse, cat=cat, hole=hole) == outcome[0][mouse][cat]


def test_one_way_edge_by_hand(twin):
    # 1 -> 0 only: the mouse on 1 steps into the hole; from 0 nothing leads back.
    graph = Graph([[], [0, 2], [1]], directed=True)
    game = Game(graph, holes=(0,))
    assert game.solve(1, 2) == Outcome.MOUSE_WIN
    # The cat on 1 cannot follow a mouse on 2 anywhere but 1 -> 2, and 2 -> 1 back.
    a = game.analyze()
    assert a.outcome(2, 1, Turn.CAT) == Outcome.CAT_WIN
    assert a.outcome(2, 1, Turn.MOUSE) == Outcome.CAT_WIN  # the mouse's only move is onto the cat


def test_stays_show_in_best_moves_and_line(twin):
    square = [[1, 3], [0, 2], [1, 3], [0, 2]]
    a = Game(square, holes=(), mouse_stays=True).analyze()
    assert a.outcome(0, 2) == Outcome.DRAW
    assert a.best_moves(0, 2) == [0]  # staying is the only move that does not lose
    assert a.line(0, 2)[:2] == [(0, 2, Turn.MOUSE), (0, 2, Turn.CAT)]


def test_pickles_with_stays():
    game = Game([[1], [0, 2], [1]], holes=(2,), mouse_stays=True, cat_stays=True,
                draw=Outcome.CAT_WIN, first=Turn.CAT)
    again = pickle.loads(pickle.dumps(game))
    assert repr(again) == repr(game)
    a = game.analyze()
    b = pickle.loads(pickle.dumps(a))
    assert b.outcomes.tolist() == a.outcomes.tolist()
    assert b.remoteness_table.tolist() == a.remoteness_table.tolist()


def test_reads_back_its_rules():
    cat_graph = Graph([[2], [2], [0, 1]])
    game = Game([[1], [0, 2], [1]], cat_graph=cat_graph, holes=[2, 2], cat_goals=[0])
    assert game.holes == (2,) and game.cat_forbidden == (2,) and game.cat_goals == (0,)
    assert game.cat_graph is cat_graph and game.graph.adjacency() == [[1], [0, 2], [1]]
    assert game.draw is Outcome.DRAW and game.first is Turn.MOUSE
    assert not game.mouse_stays and not game.cat_stays
    assert Game([[1], [0]], mouse_stays=True).graph.adjacency() == [[1], [0]]
    assert "cat_goals=(0,)" in repr(game)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"holes": (5,)}, ValueError, "holes names node 5"),
        ({"holes": 0}, TypeError, "holes must be a collection"),
        ({"holes": "0"}, TypeError, "holes must be a collection"),
        ({"holes": (1.5,)}, TypeError, "integer node id"),
        ({"holes": (True,)}, TypeError, "bool"),
        ({"cat_forbidden": (-1,)}, ValueError, "cat_forbidden names node -1"),
        ({"cat_goals": (0,)}, ValueError, "both a cat goal and forbidden"),
        ({"cat_graph": [[1], [0]]}, ValueError, "cat_graph has 2 nodes"),
        ({"cat_graph": [[1], [0, 2], [1, 2]]}, ValueError, "self-loop"),
        ({"mouse_stays": 1}, TypeError, "mouse_stays must be True or False"),
        ({"cat_stays": "yes"}, TypeError, "cat_stays must be True or False"),
        ({"draw": 7}, ValueError, "draw must be an Outcome"),
        ({"first": 2}, ValueError, "first must be Turn.MOUSE or Turn.CAT"),
    ],
)
def test_rejects_bad_rules(kwargs, error, message):
    with pytest.raises(error, match=message):
        Game([[1], [0, 2], [1]], **kwargs)


def test_rejects_bad_positions():
    game = Game([[1], [0, 2], [1]], holes=(0,), cat_forbidden=(0, 1))
    with pytest.raises(ValueError, match="cat cannot be on node 1"):
        game.solve(2, 1)
    with pytest.raises(ValueError, match="mouse node 3 is not in a graph"):
        game.solve(3, 2)
    with pytest.raises(TypeError):
        game.solve("1", 2)
    with pytest.raises(TypeError, match="sequence of neighbour lists"):
        Game(5)
