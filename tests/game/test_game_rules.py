"""Game's rule options against the independent oracle (tests/helpers/oracle.py), on both engines.

Game's keywords are translated into explicit move lists per player (a stay is
a self-loop) and per-node flags; the oracle runs value iteration over every
position, one sweep per ply, and knows nothing of CSR or retrograde queues.
"""

from __future__ import annotations

import pickle
import random

import pytest
from oracle import game_flags, gnp_rows, solve_game

import catmouse
import catmouse.engine
import catmouse.engine.bits_py
from catmouse import Game, Graph, Outcome, Turn, VerificationError

CASES = 200  # random graphs per rule option and engine


# -- random games ------------------------------------------------------------------


def random_edges(rng, n, directed):
    p = rng.choice([0.2, 0.35, 0.5, 0.7])
    if directed:
        return [[v for v in range(n) if v != u and rng.random() < p] for u in range(n)]
    return gnp_rows(rng, n, p)


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
    """The oracle's solution of ``Game(graph, **kwargs)``: explicit move lists and flags."""
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
    return solve_game(mouse_moves, cat_moves, game_flags(n, holes, forbidden, goals))


def tables_for(graph, kwargs):
    """Outcome and remoteness tables ``[turn][mouse][cat]``, draws scored as the game says."""
    return oracle_for(graph, kwargs).nested(kwargs.get("draw", Outcome.DRAW))


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
        return tables_for(undirected, kwargs)[0] != outcome
    default = {} if option == "all" else {k: v for k, v in kwargs.items() if k != option}
    return tables_for(graph, default)[0] != outcome


OPTIONS = ["holes", "cat_forbidden", "cat_goals", "cat_graph", "directed",
           "mouse_stays", "cat_stays", "draw", "first", "all"]


@pytest.mark.parametrize("option", OPTIONS)
def test_rule_option_matches_oracle(use_engine, option):
    rng = random.Random(f"game-{option}")
    changed = 0
    for _ in range(CASES):
        graph, kwargs = random_game(rng, option)
        game = Game(graph, **kwargs)
        analysis = game.analyze()
        outcome, remoteness = tables_for(graph, kwargs)
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


def oracle_line(solution, position):
    """line() as its docstring defines it, walked on the oracle's best moves."""
    line, seen = [], set()
    while position not in seen:
        seen.add(position)
        line.append(position)
        moves = solution.best_moves[position]
        if not moves:
            break
        m, c, t = position
        position = (moves[0], c, Turn.CAT) if t == Turn.MOUSE else (m, moves[0], Turn.MOUSE)
    return line


QUERY_CASES = 60  # random games per rule option and engine for the queries


@pytest.mark.parametrize("option", OPTIONS)
def test_queries_match_oracle(use_engine, option):
    """best_moves, line and verify under every rule option, position by position.

    The oracle's best moves do not depend on how a draw is scored (a never-ending
    child is worse than a win and better than a loss either way), so one oracle
    table serves every ``draw``.  Then one outcome at a time is changed: verify()
    must name exactly that position.
    """
    rng = random.Random(f"queries-{option}")
    for _ in range(QUERY_CASES):
        graph, kwargs = random_game(rng, option)
        analysis = Game(graph, **kwargs).analyze()
        expected = oracle_for(graph, kwargs)
        for (m, c, t), moves in expected.best_moves.items():
            where = (graph.adjacency(), kwargs, (m, c, t))
            assert analysis.best_moves(m, c, t) == moves, where
            assert analysis.line(m, c, t) == oracle_line(expected, (m, c, Turn(t))), where
        assert analysis.verify() is True
        positions = list(expected.outcome)
        table = analysis._outcomes = bytearray(analysis._outcomes)  # bytes: tamper a copy
        n = graph.n
        for m, c, t in rng.sample(positions, min(3, len(positions))):
            s = (t * n + m) * n + c
            old = table[s]
            table[s] = rng.choice([v for v in Outcome if v != old])
            try:
                with pytest.raises(VerificationError) as error:
                    analysis.verify()
            finally:
                table[s] = old
            assert error.value.position == (m, c, t), (graph.adjacency(), kwargs, (m, c, t))
        assert analysis.verify() is True


def test_a_cat_on_its_goal_ends_the_game(use_engine):
    """The game is over with the cat on a goal: no best move for either player."""
    a = Game([[1], [0, 2], [1]], holes=(), cat_goals=(2,)).analyze()
    assert a.outcome(0, 2) == Outcome.CAT_WIN and a.remoteness(0, 2) == 0
    assert a.best_moves(0, 2) == []
    assert a.best_moves(0, 2, Turn.CAT) == []
    assert a.line(0, 2) == [(0, 2, Turn.MOUSE)]
    # One step away, catching the mouse and reaching the goal both win at once.
    assert a.best_moves(0, 1, Turn.CAT) == [0, 2]


@pytest.mark.parametrize("draw", list(Outcome))
def test_verify_checks_the_draw_score(use_engine, draw):
    """A never-ending position must hold the game's draw score, whatever that is."""
    square = [[1, 3], [0, 2], [1, 3], [0, 2]]
    a = Game(square, holes=(), mouse_stays=True, draw=draw).analyze()
    assert a.outcome(0, 2) == draw and a.remoteness(0, 2) is None
    assert a.verify() is True
    s = 0 * 16 + 0 * 4 + 2  # (mouse 0, cat 2, mouse to move)
    a._outcomes = bytearray(a._outcomes)  # bytes: tamper a copy
    for wrong in Outcome:
        if wrong == draw:
            continue
        a._outcomes[s] = wrong
        with pytest.raises(VerificationError) as error:
            a.verify()
        a._outcomes[s] = draw
        assert error.value.position == (0, 2, Turn.MOUSE)
        assert str(error.value) == (
            "position (mouse=0, cat=2, turn=MOUSE) is wrong: the table says "
            f"{wrong.name}, never ending, but its moves give {draw.name}, never ending")


def test_classic_rules_are_a_game(use_engine):
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


def test_directed_graphs_in_solve_and_analyze(use_engine):
    """catmouse.solve/analyze on one-way edges follow the oracle (predecessors reversed)."""
    rng = random.Random("directed")
    for _ in range(CASES):
        n = rng.randint(2, 7)
        graph = Graph(random_edges(rng, n, True), directed=True)
        hole = rng.randrange(n)
        outcome, remoteness = tables_for(graph, {"holes": {hole}})
        a = catmouse.analyze(graph, hole=hole)
        assert a.outcomes.tolist() == outcome
        assert a.remoteness_table.tolist() == remoteness
        mouse, cat = rng.randrange(n), rng.randrange(n)
        if cat != hole:
            assert catmouse.solve(graph, mouse=mouse, cat=cat, hole=hole) == outcome[0][mouse][cat]


def test_one_way_edge_by_hand(use_engine):
    # 1 -> 0 only: the mouse on 1 steps into the hole; from 0 nothing leads back.
    graph = Graph([[], [0, 2], [1]], directed=True)
    game = Game(graph, holes=(0,))
    assert game.solve(1, 2) == Outcome.MOUSE_WIN
    # The cat on 1 cannot follow a mouse on 2 anywhere but 1 -> 2, and 2 -> 1 back.
    a = game.analyze()
    assert a.outcome(2, 1, Turn.CAT) == Outcome.CAT_WIN
    assert a.outcome(2, 1, Turn.MOUSE) == Outcome.CAT_WIN  # the mouse's only move is onto the cat


def test_stays_show_in_best_moves_and_line(use_engine):
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
    assert game.mouse_stays is False and game.cat_stays is False
    staying = Game([[1], [0]], mouse_stays=True)
    assert staying.mouse_stays is True and staying.cat_stays is False
    assert staying.graph.adjacency() == [[1], [0]]
    assert "cat_goals=(0,)" in repr(game)


def test_repr_names_every_rule_that_differs_from_leetcode():
    assert repr(Game([[1], [0, 2], [1]])) == "<Game 3 nodes, holes=(0,)>"
    game = Game([[1], [0, 2], [1]], cat_graph=Graph([[2], [2], [0, 1]]), holes=(2,),
                cat_forbidden=(1, 2), cat_goals=(0,), mouse_stays=True, cat_stays=True,
                draw=Outcome.CAT_WIN, first=Turn.CAT)
    assert repr(game) == (
        "<Game 3 nodes, holes=(2,), cat_graph=..., cat_forbidden=(1, 2), cat_goals=(0,), "
        "mouse_stays=True, cat_stays=True, draw=CAT_WIN, first=CAT>")
    assert game.n == 3


def test_stay_graphs_keep_no_instance_dict():
    """The graph with stays added is as lean as a Graph: slots only."""
    game = Game([[1], [0, 2], [1]], mouse_stays=True, cat_stays=True)
    for graph in (game._rules.mouse_graph, game._rules.cat_graph):
        assert sorted(graph.neighbors(1)) == [0, 1, 2]
        assert not hasattr(graph, "__dict__")


@pytest.mark.parametrize("directed", [False, True])
def test_stay_graphs_carry_their_own_reverse(directed):
    """The reverse arrays of a graph with stays list each node's predecessors, stays included.

    The engines answer right from the move arrays alone, but take their fast work-list only
    when the reverse arrays match the moves: a one-way edge must not be read backwards.
    """
    rows = [[1], [2], [0, 1]] if directed else [[1, 2], [0, 2], [0, 1]]
    game = Game(Graph(rows, directed=directed), holes=(), mouse_stays=True, cat_stays=True)
    # Predecessors with the stays: 0 <- 2 (one-way) or 1, 2; every node <- itself.
    expected = [[0, 2], [0, 1, 2], [1, 2]] if directed else [[0, 1, 2]] * 3
    for graph in (game._rules.mouse_graph, game._rules.cat_graph):
        rip, rix = graph.rindptr.tolist(), graph.rindices.tolist()
        assert [sorted(rix[rip[v]:rip[v + 1]]) for v in range(3)] == expected


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"holes": (5,)}, ValueError, "holes names node 5"),
        ({"holes": (3,)}, ValueError, "holes names node 3, but node ids run from 0 to 2"),
        ({"holes": 0}, TypeError, "holes must be a collection"),
        ({"holes": "0"}, TypeError, "holes must be a collection"),
        ({"holes": (1.5,)}, TypeError, "integer node id"),
        ({"holes": (True,)}, TypeError, "bool"),
        ({"cat_forbidden": (-1,)}, ValueError, "cat_forbidden names node -1"),
        ({"cat_goals": (0,)}, ValueError, "both a cat goal and forbidden"),
        # The message names the node in both sets, not just any node in either.
        ({"cat_goals": (2,), "cat_forbidden": (0, 2)}, ValueError, "^node 2 is both a cat goal"),
        ({"cat_graph": [[1], [0]]}, ValueError, "cat_graph has 2 nodes"),
        ({"cat_graph": [[1], [0, 2], [1, 2]]}, ValueError, "self-loop"),
        ({"mouse_stays": 1}, TypeError, "mouse_stays must be True or False"),
        ({"cat_stays": "yes"}, TypeError, "cat_stays must be True or False"),
        ({"draw": 7}, ValueError, "draw must be an Outcome"),
        ({"first": 2}, ValueError, "first must be Turn.MOUSE \\(0\\) or Turn.CAT \\(1\\)"),
    ],
)
def test_rejects_bad_rules(kwargs, error, message):
    with pytest.raises(error, match=message):
        Game([[1], [0, 2], [1]], **kwargs)


def test_a_zero_dimensional_array_of_holes_is_one_node_not_a_collection():
    """numpy.array(0) claims iteration (it has __iter__) but refuses it: holes=numpy.array(0)
    stopped with numpy's bare 'iteration over a 0-d array' instead of holes=0's error."""
    np = pytest.importorskip("numpy")
    for name in ("holes", "cat_forbidden", "cat_goals"):
        with pytest.raises(TypeError, match=f"^{name} must be a collection of nodes"):
            Game([[1], [0, 2], [1]], **{name: np.array(0)})


@pytest.mark.parametrize(
    "graph, hole, error, message",
    [
        ([[1], [0, 2], [1]], 3, ValueError, r"^hole node 3 is not in a graph of 3 nodes"),
        ([[1], [0, 2], [1]], 1.5, TypeError, r"^hole must be an integer node id, not float"),
        ([[1], [0, 2], [1]], True, TypeError, r"^hole is a bool"),
        ({"a": ["b"], "b": ["a"]}, "z", ValueError,
         r"^hole='z' is not a node of this graph \(its nodes are 'a', 'b'\): pass hole="),
    ],
)
def test_a_bad_hole_is_named_hole(use_engine, graph, hole, error, message):
    """Game(hole=h) is Game(holes=(h,)), but an error names the argument given, as solve's
    do: it said "holes names 'z' ...: pass holes=(...)" and "holes[0] must be ..." of hole=."""
    with pytest.raises(error, match=message):
        Game(graph, hole=hole)
    with pytest.raises(error, match=message):
        catmouse.solve(graph, hole=hole)


@pytest.mark.parametrize("stays", [{"mouse_stays": True}, {"cat_stays": True},
                                   {"mouse_stays": True, "cat_stays": True}])
def test_an_analysis_gives_back_the_graph_as_given(stays):
    """Not the move graph with the stays' self-loops (it said 6 edges and listed 4, and node 0
    was its own neighbour), whatever the stays."""
    square = Graph([[1, 3], [0, 2], [1, 3], [0, 2]])
    graph = Game(square, holes=(), **stays).analyze().graph
    assert type(graph) is Graph and graph == square
    assert graph.num_edges == len(graph.edges) == 4 and graph.neighbors(0) == (1, 3)


@pytest.mark.parametrize("holes", [(), (0,)])
def test_rejects_a_game_without_nodes(holes):
    """A game on no nodes has no positions, and its tables' (2, 0, 0) views cannot be made
    (memoryview refuses zeros in a shape): refused where it is made, whatever the holes."""
    with pytest.raises(ValueError, match="^a game needs at least one node"):
        Game([], holes=holes)
    with pytest.raises(ValueError, match="^a game needs at least one node"):
        Game(Graph.from_edges(0, []), holes=holes, mouse_stays=True)


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


def test_rules_position_checks_the_turn_too():
    """Rules.position validates a whole position, the turn included, and gives its index.

    The public queries check the turn before they call it; solve_position takes a plain int
    too (the tests call it with 0), which must be 0 or 1 like any turn.
    """
    rules = catmouse.rules.classic_rules(Graph([[1], [0, 2], [1]]))
    assert rules.position(1, 2, Turn.CAT) == rules.position(1, 2, 1) == (1 * 3 + 1) * 3 + 2
    assert rules.position(2, 1, 0) == 2 * 3 + 1
    for turn in (2, -1, "1"):
        with pytest.raises(ValueError, match=r"turn must be Turn\.MOUSE \(0\) or Turn\.CAT \(1\)"):
            rules.position(1, 2, turn)


def test_rules_refuse_a_flag_byte_no_node_can_have_naming_the_node():
    # An unpickled or hand-made Rules: a goal the cat may not enter, or a bit no rule has.
    from catmouse.engine.facts import CAT_FORBIDDEN, CAT_GOAL, HOLE
    from catmouse.rules import Rules

    g = Graph([[1], [0, 2], [1]])
    Rules(g, g, bytes([HOLE | CAT_FORBIDDEN, 0, CAT_GOAL]), Outcome.DRAW)
    for bad in (CAT_GOAL | CAT_FORBIDDEN, 8):
        with pytest.raises(ValueError, match=rf"^Rules' flags\[2\] = {bad} is no node's rule"):
            Rules(g, g, bytes([HOLE | CAT_FORBIDDEN, 0, bad]), Outcome.DRAW)


def test_the_thread_limit_is_1024():
    from catmouse.rules import check_threads

    assert check_threads(1024, 8) == 1024
    with pytest.raises(ValueError, match="^threads must be from 1 to 1024, not 1025$"):
        check_threads(1025, 8)
    with pytest.raises(ValueError, match="not 1025$"):
        catmouse.analyze([[1], [0]], threads=1025)


def test_a_game_takes_no_attribute_it_does_not_have():
    # A misspelt option set afterwards fails loudly instead of being ignored.
    game = Game([[1], [0]])
    with pytest.raises(AttributeError):
        game.mouse_stay = True
    assert not hasattr(game, "__dict__")


def test_a_cat_graph_of_another_size_is_refused_by_game_in_its_words():
    with pytest.raises(ValueError, match="^cat_graph has 2 nodes but the mouse's graph has 3: "
                                         "both players move on the same nodes$"):
        Game([[1], [0, 2], [1]], cat_graph=[[1], [0]])


def test_draw_given_as_an_int_is_read_back_as_an_outcome():
    game = Game([[1], [0]], draw=1)
    assert game.draw is Outcome.MOUSE_WIN and "draw=MOUSE_WIN" in repr(game)
    assert pickle.loads(pickle.dumps(game)).draw is Outcome.MOUSE_WIN


def test_a_bool_is_no_turn_first_or_draw():
    # Python takes True for 1: turn=True was the cat's turn, first=True the cat moving first,
    # draw=True a draw scored as the mouse's win, where a node named True is refused.
    np = pytest.importorskip("numpy")
    graph = Graph([[1, 2], [0, 2], [0, 1]])
    analysis = catmouse.analyze(graph)
    rules = catmouse.rules.classic_rules(graph)
    for flag in (True, False, np.True_):
        with pytest.raises(TypeError, match="turn is a bool"):
            analysis.outcome(1, 2, flag)
        with pytest.raises(TypeError, match="first is a bool"):
            Game(graph, first=flag)
        with pytest.raises(TypeError, match="draw is a bool"):
            Game(graph, draw=flag)
        with pytest.raises(TypeError, match="turn is a bool"):
            rules.position(1, 2, flag)
    with pytest.raises(ValueError, match=r"turn must be Turn\.MOUSE \(0\) or Turn\.CAT \(1\), "
                                         r"not 1\.0"):
        analysis.remoteness(1, 2, 1.0)
    # Integers of any kind still name a turn.
    assert analysis.outcome(1, 2, np.int64(1)) == analysis.outcome(1, 2, Turn.CAT)
    assert Game(graph, first=np.int8(1)).analyze().outcome(1, 2) == analysis.outcome(1, 2, 1)


def test_a_bool_is_no_side_in_the_cops_game():
    analysis = catmouse.CopsGame(Graph([[1], [0, 2], [1]]), 1).analyze()
    with pytest.raises(TypeError, match="turn is a bool"):
        analysis.outcome([0], 2, True)
    with pytest.raises(ValueError, match=r"turn must be CopsTurn\.ROBBER \(0\) or "):
        analysis.outcome([0], 2, 2)
    assert analysis.outcome([0], 2, 1) == analysis.outcome([0], 2, catmouse.CopsTurn.COPS)
