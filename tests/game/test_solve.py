"""The public API: the examples, the rules' semantics, start positions, bad input, memory,
buffers, lines, and the backend switch.  Each test runs on both engines (``use_engine``)."""

from __future__ import annotations

import pickle
import re
import tracemalloc
from array import array
from dataclasses import replace

import pytest
from oracle import solve_classic

import catmouse
from catmouse import Analysis, Graph, Outcome, Turn
from catmouse import rules as _rules

# LeetCode 913's two examples, with the answers the problem statement gives.
EXAMPLE_1 = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]  # draw
EXAMPLE_2 = [[1, 3], [0], [3], [0, 2]]  # mouse wins

# Node 2's only neighbour is the hole: a cat there cannot move.
STRANDED_CAT = [[2], [3], [0], [1]]
# Node 1 has no neighbour at all: a mouse there cannot move.
STRANDED_MOUSE = [[2], [], [0]]


@pytest.fixture(autouse=True)
def _both_engines(use_engine):
    """Every test in this file runs once per engine."""


def test_leetcode_examples():
    assert catmouse.solve(EXAMPLE_1) is Outcome.DRAW
    assert catmouse.solve(EXAMPLE_2) is Outcome.MOUSE_WIN
    assert catmouse.solve(EXAMPLE_1) == 0 and catmouse.solve(EXAMPLE_2) == 1
    assert catmouse.analyze(EXAMPLE_1).outcome(1, 2) == Outcome.DRAW
    assert catmouse.analyze(EXAMPLE_2).outcome(1, 2) == Outcome.MOUSE_WIN


def test_example_tables_match_oracle():
    for board in (EXAMPLE_1, EXAMPLE_2, STRANDED_CAT, STRANDED_MOUSE):
        expected = solve_classic(board)
        a = catmouse.analyze(board)
        for (m, c, t), value in expected.outcome.items():
            assert a.outcome(m, c, Turn(t)) == value
            assert a.remoteness(m, c, t) == expected.remoteness[(m, c, t)]
            assert a.best_moves(m, c, t) == expected.best_moves[(m, c, t)]


def test_analysis_queries_on_example_1():
    a = catmouse.analyze(EXAMPLE_1)
    # Cat on 4 to move, mouse on 3: the cat steps onto the mouse.
    assert a.outcome(mouse=3, cat=4, turn=Turn.CAT) == Outcome.CAT_WIN
    assert a.remoteness(3, 4, Turn.CAT) == 1
    assert a.best_moves(3, 4, Turn.CAT) == [3]
    assert a.remoteness(1, 2) is None  # a draw never ends
    assert a.outcome(1, 2, 0) == a.outcome(1, 2, Turn.MOUSE)  # plain ints work as turns
    assert sum(a.counts().values()) == 2 * 6 * 5  # every position with the cat off the hole
    assert isinstance(a, Analysis) and "6 nodes" in repr(a)


def test_line_of_example_2():
    a = catmouse.analyze(EXAMPLE_2)
    assert a.line() == [(1, 2, Turn.MOUSE), (0, 2, Turn.CAT)]  # the mouse walks into the hole


def test_line_of_a_draw_stops_before_a_repeat():
    a = catmouse.analyze(EXAMPLE_1)
    line = a.line()
    assert len(set(line)) == len(line) and all(a.outcome(*p) == Outcome.DRAW for p in line)
    m, c, t = line[-1]
    dest = a.best_moves(m, c, t)[0]
    following = (dest, c, Turn.CAT) if t == Turn.MOUSE else (m, dest, Turn.MOUSE)
    assert following in line


# -- semantics ---------------------------------------------------------------------------


@pytest.mark.parametrize("board", [EXAMPLE_1, EXAMPLE_2, STRANDED_CAT])
def test_decided_positions_are_decided_whoever_moves(board):
    a = catmouse.analyze(board, hole=0)
    n = len(board)
    for turn in Turn:
        for other in range(1, n):
            # Mouse in the hole.
            assert a.outcome(0, other, turn) == Outcome.MOUSE_WIN
            assert a.remoteness(0, other, turn) == 0 and a.best_moves(0, other, turn) == []
            # Cat on the mouse.
            assert a.outcome(other, other, turn) == Outcome.CAT_WIN
            assert a.remoteness(other, other, turn) == 0
            assert a.best_moves(other, other, turn) == []
            assert a.line(other, other, turn) == [(other, other, turn)]
            assert catmouse.solve(board, mouse=0, cat=other) == Outcome.MOUSE_WIN
            assert catmouse.solve(board, mouse=other, cat=other) == Outcome.CAT_WIN


def test_a_stuck_cat_loses_at_once():
    a = catmouse.analyze(STRANDED_CAT)
    assert a.outcome(3, 2, Turn.CAT) == Outcome.MOUSE_WIN
    assert a.remoteness(3, 2, Turn.CAT) == 0
    assert a.best_moves(3, 2, Turn.CAT) == []
    # From the start the mouse's only move leaves the cat stuck.
    assert catmouse.solve(STRANDED_CAT) == Outcome.MOUSE_WIN
    assert a.remoteness(1, 2) == 1 and a.best_moves(1, 2) == [3]
    assert a.line() == [(1, 2, Turn.MOUSE), (3, 2, Turn.CAT)]


def test_a_stuck_mouse_loses_at_once():
    a = catmouse.analyze(STRANDED_MOUSE)
    assert catmouse.solve(STRANDED_MOUSE) == Outcome.CAT_WIN
    assert a.outcome(1, 2) == Outcome.CAT_WIN and a.remoteness(1, 2) == 0
    assert a.outcome(1, 2, Turn.CAT) == Outcome.MOUSE_WIN  # the cat on 2 is stuck too


@pytest.mark.parametrize("hole", [0, 3])
def test_the_cat_on_the_hole_is_no_position(hole):
    a = catmouse.analyze(EXAMPLE_1, hole=hole)
    for query in (a.outcome, a.remoteness, a.best_moves, a.line):
        with pytest.raises(ValueError, match=f"cat cannot be on node {hole}"):
            query(1 if hole != 1 else 2, hole, Turn.MOUSE)
    with pytest.raises(ValueError, match=f"cat cannot be on node {hole}"):
        catmouse.solve(EXAMPLE_1, cat=hole, hole=hole)
    assert a.outcomes[0, 1, hole] == a.outcomes[1, 1, hole] == 3  # NO_POSITION in the table


def test_other_holes_and_starts():
    for hole in range(6):
        expected = solve_classic(EXAMPLE_1, hole)
        a = catmouse.analyze(EXAMPLE_1, hole=hole)
        for mouse in range(6):
            for cat in range(6):
                if cat == hole:
                    continue
                value = expected.outcome[(mouse, cat, 0)]
                assert catmouse.solve(EXAMPLE_1, mouse=mouse, cat=cat, hole=hole) == value
                assert a.outcome(mouse, cat) == value


# -- start positions: bad values --------------------------------------------------------


@pytest.mark.parametrize("board, node", [([[1], [0]], "cat node 2"), ([[]], "mouse node 1")])
def test_too_few_nodes_for_the_default_start(board, node):
    with pytest.raises(ValueError, match=f"{node} is not in a graph of {len(board)} nodes"):
        catmouse.solve(board)


def test_empty_graph():
    with pytest.raises(ValueError, match="hole node 0 is not in a graph of 0 nodes"):
        catmouse.solve([])
    with pytest.raises(ValueError, match="hole node 0"):
        catmouse.analyze([])


BAD_STARTS = [
    ({"mouse": 6}, ValueError, "mouse node 6 is not in a graph of 6 nodes"),
    ({"mouse": -1}, ValueError, "mouse node -1"),
    ({"cat": 7}, ValueError, "cat node 7"),
    ({"cat": -2}, ValueError, "cat node -2"),
    ({"hole": 6}, ValueError, "hole node 6"),
    ({"hole": -1}, ValueError, "hole node -1"),
    ({"cat": 0}, ValueError, "cat cannot be on node 0 (the hole)"),
    ({"cat": 4, "hole": 4}, ValueError, "cat cannot be on node 4 (the hole)"),
    ({"mouse": 1.0}, TypeError, "mouse must be an integer"),
    ({"cat": True}, TypeError, "cat is a bool"),
    ({"hole": "0"}, TypeError, "hole must be an integer"),
    ({"hole": None}, TypeError, "hole must be an integer"),
]


@pytest.mark.parametrize("kwargs, error, message", BAD_STARTS, ids=[str(b[0]) for b in BAD_STARTS])
def test_bad_start_positions(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        catmouse.solve(EXAMPLE_1, **kwargs)


def test_bad_hole_for_analyze_and_bad_queries():
    with pytest.raises(ValueError, match="hole node 9"):
        catmouse.analyze(EXAMPLE_1, hole=9)
    with pytest.raises(TypeError, match="hole is a bool"):
        catmouse.analyze(EXAMPLE_1, hole=False)
    a = catmouse.analyze(EXAMPLE_1)
    with pytest.raises(ValueError, match="turn must be"):
        a.outcome(1, 2, 2)
    with pytest.raises(ValueError, match="mouse node 6"):
        a.remoteness(6, 2)
    with pytest.raises(TypeError, match="cat must be an integer"):
        a.best_moves(1, 2.5)


def test_numpy_integers_as_start_positions():
    np = pytest.importorskip("numpy")
    assert catmouse.solve(EXAMPLE_2, mouse=np.int64(1), cat=np.int32(2), hole=np.uint8(0)) == 1


# -- memory -------------------------------------------------------------------------------


def bytes_in(message):
    return int(re.search(r"(\d+) bytes", message).group(1))


@pytest.mark.parametrize("call", [catmouse.solve, catmouse.analyze])
def test_max_memory_caps_the_tables(call):
    # Over 64 nodes: a search of up to 64 runs on the C stack and needs no heap for solve.
    board = [[(u - 1) % 100, (u + 1) % 100] for u in range(100)]
    with pytest.raises(MemoryError, match="over max_memory=100") as info:
        call(board, max_memory=100)
    assert bytes_in(str(info.value)) > 100
    assert call(board, max_memory=10**7) is not None


def empty_board(n):
    """n isolated nodes, built from CSR without a Python list per node."""
    return Graph.from_csr(array("i", bytes(4 * (n + 1))), array("i"))


def test_a_board_too_big_for_this_machine(monkeypatch):
    monkeypatch.setattr(_rules, "available_memory", lambda: 10**9)
    g = empty_board(50_000)
    tracemalloc.start()
    try:
        for call in (catmouse.analyze, catmouse.solve):
            with pytest.raises(MemoryError, match="only 1000000000 are available") as info:
                call(g)
            assert bytes_in(str(info.value)) > 10**9
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10**7  # refused before allocating the tables


def test_a_board_too_big_for_the_engine():
    # The graph itself is refused now; the memory check still names the tables' bytes.
    with pytest.raises(ValueError, match="70000 nodes is too large"):
        empty_board(70_000)
    with pytest.raises(MemoryError, match=r"70000 nodes .* \d+ bytes") as info:
        _rules.check_memory(70_000, outcome=True, remoteness=True)
    # A byte of outcome and a layer of remoteness planes a position, at least.
    assert bytes_in(str(info.value)) >= 2 * 70_000**2 * 2


# -- reuse, buffers, pickling ----------------------------------------------------------------


def test_graph_reuse_in_a_loop():
    g = Graph(EXAMPLE_1)
    first = [catmouse.solve(g, mouse=m, cat=c, hole=h)
             for h in range(6) for m in range(6) for c in range(6) if c != h]
    again = [catmouse.solve(g, mouse=m, cat=c, hole=h)
             for h in range(6) for m in range(6) for c in range(6) if c != h]
    fresh = [catmouse.solve(EXAMPLE_1, mouse=m, cat=c, hole=h)
             for h in range(6) for m in range(6) for c in range(6) if c != h]
    assert first == again == fresh
    assert g == Graph(EXAMPLE_1)
    a, b = catmouse.analyze(g), catmouse.analyze(g)
    assert a is not b and bytes(a.outcomes) == bytes(b.outcomes)
    assert a.outcomes.obj is not b.outcomes.obj  # separate tables
    assert a.graph is g


def test_tables_as_buffers_without_numpy():
    a = catmouse.analyze(EXAMPLE_1)
    out, rem = a.outcomes, a.remoteness_table
    assert (out.shape, out.format, out.readonly) == ((2, 6, 6), "B", True)
    assert (rem.shape, rem.format, rem.readonly) == ((2, 6, 6), "i", True)
    assert out[1, 3, 4] == a.outcome(3, 4, Turn.CAT) == Outcome.CAT_WIN
    assert rem[1, 3, 4] == 1 and rem[0, 1, 2] == -1  # -1: a draw
    with pytest.raises(TypeError):
        out[0, 1, 2] = 1


def test_numpy_views_are_zero_copy():
    np = pytest.importorskip("numpy")
    a = catmouse.analyze(EXAMPLE_1)
    outcomes = np.asarray(a.outcomes)
    remoteness = np.asarray(a.remoteness_table)
    assert outcomes.shape == remoteness.shape == (2, 6, 6)
    assert outcomes.dtype == np.uint8 and remoteness.dtype == np.int32
    assert not outcomes.flags.writeable and not remoteness.flags.writeable
    # Zero-copy: the arrays are views of the analysis' own tables.
    assert np.shares_memory(outcomes, np.frombuffer(a.outcomes.obj, np.uint8))
    assert np.shares_memory(remoteness, np.frombuffer(a.remoteness_table.obj, np.int32))
    assert np.shares_memory(np.asarray(a.outcomes), outcomes)
    expected = solve_classic(EXAMPLE_1)
    assert outcomes.tobytes() == expected.outcome_table()
    assert remoteness.ravel().tolist() == expected.remoteness_table().tolist()
    assert (remoteness[outcomes == 0] == -1).all()  # draws
    assert (remoteness[outcomes == 3] == -1).all()  # the cat on the hole
    assert outcomes[Turn.CAT, 3, 4] == Outcome.CAT_WIN


def test_pickled_analysis_answers_the_same():
    a = catmouse.analyze(EXAMPLE_1, hole=2)
    b = pickle.loads(pickle.dumps(a))
    assert bytes(b.outcomes) == bytes(a.outcomes)
    assert bytes(b.remoteness_table) == bytes(a.remoteness_table)
    assert b.best_moves(3, 4, Turn.CAT) == a.best_moves(3, 4, Turn.CAT)
    with pytest.raises(ValueError, match="cat cannot be on node 2"):
        b.outcome(1, 2)


def test_solve_many():
    boards = [EXAMPLE_1, EXAMPLE_2, STRANDED_CAT, STRANDED_MOUSE] * 3
    expected = [catmouse.solve(b) for b in boards]
    assert catmouse.solve_many(boards, threads=1) == expected
    assert catmouse.solve_many(boards, threads=3) == expected
    assert catmouse.solve_many(iter(boards)) == expected
    assert catmouse.solve_many([]) == []
    for threads in (0, -1, 1.5, True):
        error = ValueError if type(threads) is int else TypeError  # as solve's
        with pytest.raises(error, match="threads"):
            catmouse.solve_many(boards, threads=threads)


def test_small_boards_do_not_ask_the_system_for_memory(monkeypatch):
    """Reading /proc/meminfo cost more than solving a small board; it is skipped for them."""
    asked = []
    monkeypatch.setattr(_rules, "available_memory", lambda: asked.append(1) or 1000)
    catmouse.solve(EXAMPLE_1)
    catmouse.analyze(EXAMPLE_1)
    assert asked == []
    with pytest.raises(MemoryError, match="only 1000 are available"):
        catmouse.solve(empty_board(8_000))  # big enough to ask
    assert asked == [1]


# -- an engine without progress= ------------------------------------------------------------


def test_an_engine_without_progress_still_solves_and_ends_the_bar(monkeypatch, capsys):
    """progress= reaches the engine only when given, and the bar ends on the engine's count.

    An engine whose propagate has no ``progress`` keyword (an older or third-party one)
    must still analyze; with ``progress=True`` the bar's last state is the number of
    positions the engine says it decided.
    """
    real = catmouse.engine.current
    calls = []

    def propagate(n, flags, mi, mx, mri, mrx, ci, cx, cri, crx, outcome, remoteness, target,
                  threads=1, planes=None, more_planes=None, more_bytes=None):
        calls.append(n)
        return real.propagate(n, flags, mi, mx, mri, mrx, ci, cx, cri, crx,
                              outcome, remoteness, target, threads=threads, planes=planes,
                              more_planes=more_planes, more_bytes=more_bytes)

    monkeypatch.setattr(catmouse.engine, "current", replace(real, propagate=propagate))
    expected = solve_classic(EXAMPLE_1).outcome_table()
    # (max_memory= keeps the call on propagate: a small graph's plain analyze uses its Board)
    assert bytes(catmouse.analyze(EXAMPLE_1, max_memory=10**9).outcomes) == expected
    capsys.readouterr()
    a = catmouse.analyze(EXAMPLE_1, progress=True)
    _, err = capsys.readouterr()
    counts = a.counts()
    decided = sum(counts.values()) - counts[Outcome.DRAW]
    assert decided > 0 and err.startswith("analyze [") and err.endswith(f" {decided}/72\n")
    assert bytes(a.outcomes) == expected and calls == [6, 6]


def _no_slow_path(*args, **kwargs):
    raise AssertionError("the slow path ran: no Rules or Graph should be built here")


def test_a_cached_board_answers_every_outcome_draws_included(monkeypatch):
    # The second solve of a Graph goes to the board the first one cached, for a draw
    # (code 0) as for a win: no Rules are built again.
    from catmouse import solving as _solving

    graphs = [Graph(EXAMPLE_1), Graph(EXAMPLE_2)]
    first = [catmouse.solve(g) for g in graphs]
    assert first == [Outcome.DRAW, Outcome.MOUSE_WIN]
    monkeypatch.setattr(_solving, "classic_rules", _no_slow_path)
    assert [catmouse.solve(g) for g in graphs] == first


def test_plain_lists_go_to_the_compiled_list_path_without_a_graph(monkeypatch):
    from catmouse import engine as selector
    from catmouse import solving as _solving

    if selector.current.name != "cython":
        pytest.skip("the compiled engine is not in use (the twin's list path declines)")
    monkeypatch.setattr(_solving, "as_graph", _no_slow_path)
    assert catmouse.solve(EXAMPLE_1) is Outcome.DRAW
    assert catmouse.solve(EXAMPLE_2) is Outcome.MOUSE_WIN


@pytest.mark.parametrize("hole", [2**63, -(2**63) - 1, 2**70])
def test_a_hole_past_a_c_long_is_a_value_error(use_engine, hole):
    """A Graph's first solve takes a fast path for small graphs; a hole no C long holds was an
    OverflowError there (found by the fuzz suite), not the ValueError every other path gives."""
    graph = catmouse.Graph([[1], [0, 2], [1]])
    with pytest.raises(ValueError, match="hole node .* is not in a graph of 3 nodes"):
        catmouse.solve(graph, hole=hole)


@pytest.mark.parametrize("hole, words", [
    (True, "is a bool"), (1.0, "not float"), ([1], "not list"), ({1}, "not set")])
def test_a_hole_of_another_type_is_refused_whatever_is_cached(use_engine, hole, words):
    """Boards and rules are cached by hole, and True and 1.0 hash as 1: once hole 1 was solved
    they found its board and were answered (a fresh graph refused them), and an unhashable hole
    was "unhashable type" from the cache.  Every call refuses them now, in one message."""
    plain = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
    graph = Graph(plain)
    assert catmouse.solve(graph, 3, 4, hole=1) is Outcome.MOUSE_WIN  # hole 1 cached
    catmouse.solve_many([graph, graph], hole=1)
    calls = [lambda: catmouse.solve(graph, 3, 4, hole=hole),
             lambda: catmouse.solve(plain, 3, 4, hole=hole),
             lambda: catmouse.analyze(graph, hole=hole),
             lambda: catmouse.solve_many([graph, graph], hole=hole),
             lambda: catmouse.solve_many([plain, graph], hole=hole)]
    for call in calls:
        with pytest.raises(TypeError, match=f"^(graph 0 of the batch: )?hole .*{words}"):
            call()
    numpy = pytest.importorskip("numpy")
    assert catmouse.solve(graph, 3, 4, hole=numpy.int64(1)) is Outcome.MOUSE_WIN
    assert catmouse.solve_many([graph, plain], hole=numpy.int64(1)) == [Outcome.MOUSE_WIN] * 2


def test_numpy_starts_take_the_fast_paths(use_engine, monkeypatch):
    """numpy integers for the starts and hole (an index from an array) are the ints they
    equal: solve_many took its per-graph fallback for them (about 20 times slower) and solve
    missed a Graph's board for a numpy hole.  Same answers, and now the one-call paths."""
    numpy = pytest.importorskip("numpy")
    from catmouse import batch, solving

    rows = [[(u + d) % 9 for d in (1, 3, 6, 8)] for u in range(9)]
    batch_lists = [EXAMPLE_1, EXAMPLE_2, rows, [[2], [2], [0, 1]]] * 4
    graphs = [Graph(lists) for lists in batch_lists]
    starts = dict(mouse=numpy.int64(1), cat=numpy.uint16(2), hole=numpy.int8(0))
    want = [solve_classic(lists).outcome[(1, 2, 0)] for lists in batch_lists]
    assert sorted(set(want)) == [0, 1, 2]  # (a draw, a mouse's win and a cat's)
    assert catmouse.solve_many(graphs) == want  # (every board cached)
    # A numpy bool is no node (True would be node 1).
    with pytest.raises(TypeError, match="bool"):
        catmouse.solve_many(graphs, mouse=numpy.bool_(True))
    for name in ("_solve_lists", "_solve_boards"):
        monkeypatch.setattr(batch, name, lambda *a, **k: pytest.fail("the fallback ran"))
    assert catmouse.solve_many(batch_lists, **starts) == want
    assert catmouse.solve_many(graphs, **starts) == want
    monkeypatch.setattr(solving, "as_graph", lambda *a, **k: pytest.fail("the slow path ran"))
    assert [catmouse.solve(g, **starts) for g in graphs] == want
    assert [catmouse.solve(lists, **starts) for lists in batch_lists] == want


def test_threads_1_takes_the_fast_paths(use_engine, monkeypatch):
    """``threads=1`` (a worker process's usual choice) is what those paths run anyway, one
    thread: it took the slow path every call (6.7 us against 0.8 for a 6-node Graph).  Same
    answers; and a count above one still goes the slow way, which honours it."""
    from catmouse import solving

    rows = [[(u + d) % 9 for d in (1, 3, 6, 8)] for u in range(9)]
    batch_lists = [EXAMPLE_1, EXAMPLE_2, rows, [[2], [2], [0, 1]]]
    graphs = [Graph(lists) for lists in batch_lists]
    want = [solve_classic(lists).outcome[(1, 2, 0)] for lists in batch_lists]
    assert [catmouse.solve(g, threads=1) for g in graphs] == want  # (every board cached)
    monkeypatch.setattr(solving, "as_graph", lambda *a, **k: pytest.fail("the slow path ran"))
    assert [catmouse.solve(g, threads=1) for g in graphs] == want
    assert [catmouse.solve(lists, threads=1) for lists in batch_lists] == want
    with pytest.raises(pytest.fail.Exception, match="the slow path ran"):
        catmouse.solve(graphs[0], threads=2)


def test_a_numpy_array_is_no_start_on_the_fast_paths(use_engine):
    """plain() made anything of numpy's with an ``__index__`` its ``int()``: a 0-d float
    array (numpy.array(1.5)) became node 1 on solve's and solve_many's fast paths (the slow
    path refuses it), and a 1-d array raised numpy's own error.  Only what operator.index
    takes is a node, as on the slow path."""
    numpy = pytest.importorskip("numpy")
    graphs = [EXAMPLE_1, Graph(EXAMPLE_1)]
    for bad in (numpy.array(1.5), numpy.array([1]), numpy.array([1.7])):
        message = f"mouse must be an integer node id, not ndarray ({bad!r})"
        for graph in graphs:
            for kwargs in ({}, {"threads": 1}):
                with pytest.raises(TypeError, match=re.escape(message)):
                    catmouse.solve(graph, mouse=bad, **kwargs)
        with pytest.raises(TypeError, match=re.escape(message)):
            catmouse.solve_many(graphs, mouse=bad)
        with pytest.raises(TypeError, match=re.escape(message)):
            catmouse.solve_many(graphs, hole=0, cat=2, mouse=bad)
    # A 0-d integer array is an index to both paths alike.
    want = catmouse.solve(EXAMPLE_1, 1, 2, hole=0, threads=1)
    for graph in graphs:
        assert catmouse.solve(graph, mouse=numpy.array(1), hole=numpy.array(0)) is want
    assert catmouse.solve_many(graphs, mouse=numpy.array(1)) == [want] * 2


def test_a_default_start_outside_a_plain_graph_says_it_was_the_default(use_engine):
    # On a graph of ids, "cat node 2 is not in a graph of 2 nodes" did not say that 2 was
    # LeetCode's default, which the caller never passed (a labelled graph's error says so).
    note = "; 2 is LeetCode's default cat: pass cat=<a node of this graph>"
    two = [[1], [0]]
    for call in (lambda: catmouse.solve(two), lambda: catmouse.solve(Graph(two)),
                 lambda: catmouse.solve_many([two, two]),
                 lambda: catmouse.Game(two).solve(0, catmouse.graph.DEFAULT_CAT)):
        with pytest.raises(ValueError, match=re.escape(f"not in a graph of 2 nodes (0..1){note}")):
            call()
    with pytest.raises(ValueError, match=r"^hole node 0 is not in a graph of 0 nodes; 0 is "
                                         r"LeetCode's default hole: pass hole=<"):
        catmouse.analyze([])
    for passed in (lambda: catmouse.solve(two, 0, 2), lambda: catmouse.analyze(two).outcome(1, 2),
                   lambda: catmouse.solve(two, hole=5)):
        with pytest.raises(ValueError) as error:
            passed()
        assert "default" not in str(error.value)
