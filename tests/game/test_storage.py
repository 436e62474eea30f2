"""Immutable objects whose storage no caller can write.

Whatever an engine or a query reads (a Graph's CSR arrays, a Rules' flags, an Analysis'
tables) is ``bytes`` or storage only its object holds: every view handed out, and its
``.obj``, refuses writes, and nothing a caller does to one changes an answer.  The crash
that motivated it (a thread writing ``g.indices.obj`` under a running ``analyze``) runs in
a child process.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap

import pytest

import catmouse
from catmouse import Game, Graph, Outcome, Turn
from catmouse.rules import classic_rules

EXAMPLE = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
ONE_WAY = [[1, 2], [2], [0]]
GRAPH_ARRAYS = ("indptr", "indices", "rindptr", "rindices")


def graphs():
    """Graphs from every constructor, directed and not."""
    made = {
        "lists": Graph(EXAMPLE),
        "directed lists": Graph(ONE_WAY, directed=True),
        "edges": Graph.from_edges(3, [(0, 1), (1, 2)]),
        "csr": Graph.from_csr([0, 1, 2], [1, 0]),
        "pickled": pickle.loads(pickle.dumps(Graph(ONE_WAY, directed=True))),
        "stays": Game(EXAMPLE, mouse_stays=True)._rules.mouse_graph,
    }
    try:
        import numpy as np
    except ImportError:
        return made
    made["numpy csr"] = Graph.from_csr(np.array([0, 1, 2], np.int32),
                                       np.array([1, 0], np.int32))
    made["matrix"] = Graph.from_matrix(np.array([[0, 1], [1, 0]]))
    return made


def views_of(value):
    """Every buffer a caller can reach from ``value``: the view and its ``.obj``."""
    return [value, value.obj]


def assert_unwritable(buffer, what):
    """Neither item nor slice assignment, nor a writable view of it, can change ``buffer``."""
    view = memoryview(buffer)
    assert view.readonly, what
    with pytest.raises(TypeError):
        buffer[0] = 1
    with pytest.raises(TypeError):
        buffer[:1] = bytes(view.itemsize * 1)


@pytest.mark.parametrize("name", list(graphs()))
def test_graph_arrays_cannot_be_written(use_engine, name):
    graph = graphs()[name]
    adjacency = graph.adjacency()
    for array_name in GRAPH_ARRAYS:
        value = getattr(graph, array_name)
        if not len(value):
            continue
        assert type(value.obj) is bytes, (name, array_name)
        for buffer in views_of(value):
            assert_unwritable(buffer, (name, array_name))
    assert graph.adjacency() == adjacency


def test_a_released_view_leaves_the_graph_whole(use_engine):
    """Each access gives a fresh view: releasing one cannot break the graph."""
    graph = Graph(EXAMPLE)
    before = catmouse.analyze(graph).outcomes.tobytes()
    for array_name in GRAPH_ARRAYS:
        getattr(graph, array_name).release()
    assert catmouse.analyze(graph).outcomes.tobytes() == before
    assert catmouse.solve(graph) == Outcome.DRAW
    assert graph.neighbors(2) == (0, 4, 5)


def test_a_writable_input_buffer_is_not_shared(use_engine):
    """from_csr copies: writing the caller's arrays afterwards changes nothing."""
    from array import array

    indptr, indices = array("i", [0, 1, 2]), array("i", [1, 0])
    graph = Graph.from_csr(indptr, indices)
    indices[0], indices[1] = 0, 1  # self-loops, were they shared
    assert graph.neighbors(0) == (1,)
    assert graph.indices.obj is not indices


def test_rules_are_immutable(use_engine):
    """classic_rules is cached on the graph: a Rules written once would change every later
    analysis of the graph."""
    graph = Graph(EXAMPLE)
    rules = classic_rules(graph, 0)
    before = catmouse.analyze(graph).outcomes.tobytes()
    for name, value in [("flags", bytes(graph.n)), ("draw", Outcome.CAT_WIN),
                        ("mouse_graph", Graph([[1], [0]])), ("cat_graph", graph)]:
        with pytest.raises(AttributeError, match="immutable"):
            setattr(rules, name, value)
        with pytest.raises(AttributeError, match="immutable"):
            delattr(rules, name)
    assert type(rules.flags) is bytes
    assert catmouse.analyze(graph).outcomes.tobytes() == before


def analyses():
    """Analyses as every maker hands them out, remoteness and outcomes only."""
    game = Game(EXAMPLE, holes=(0, 3), cat_stays=True, draw=Outcome.MOUSE_WIN, first=Turn.CAT)
    made = {
        "analyze": catmouse.analyze(EXAMPLE),
        "outcomes only": catmouse.analyze(EXAMPLE, remoteness=False),
        "game": game.analyze(),
        "progress": catmouse.analyze(EXAMPLE, progress=lambda decided: None),
        "threads": catmouse.analyze(EXAMPLE, threads=2),
    }
    made["pickled"] = pickle.loads(pickle.dumps(made["game"]))
    return made


@pytest.mark.parametrize("name", list(analyses()))
def test_analysis_tables_cannot_be_written(use_engine, name):
    analysis = analyses()[name]
    before = [analysis.outcome(m, c, t) for m in range(6) for c in range(6) for t in Turn
              if c not in (0, 3)]
    reached = [analysis.outcomes, analysis.outcomes_for(0), analysis.outcomes_for(1)]
    if analysis.has_remoteness:
        reached += [analysis.remoteness_table, analysis.remoteness_for(0),
                    analysis.remoteness_for(1)]
    for value in reached:
        assert type(value.obj) is bytes, name
        for buffer in views_of(value):
            assert_unwritable(buffer, name)
        value.release()  # a caller's release leaves the analysis whole
    assert before == [analysis.outcome(m, c, t) for m in range(6) for c in range(6)
                      for t in Turn if c not in (0, 3)]
    if analysis.has_remoteness:
        assert analysis.verify()


def test_numpy_views_of_the_tables_are_read_only(use_engine):
    np = pytest.importorskip("numpy")
    analysis = catmouse.analyze(EXAMPLE)
    graph = analysis.graph
    for value in (analysis.outcomes, analysis.remoteness_table, graph.indices, graph.indptr):
        for source in (value, value.obj):
            array = np.frombuffer(source, np.uint8)
            assert not array.flags.writeable
            with pytest.raises(ValueError):
                array.setflags(write=True)


def test_an_analysis_built_from_a_writable_table_keeps_its_own_copy(use_engine):
    analysis = catmouse.analyze(EXAMPLE)
    outcomes = bytearray(analysis.outcomes)
    copy = catmouse.Analysis(analysis._rules, outcomes, analysis.remoteness_table)
    outcomes[:] = bytes(len(outcomes))
    assert copy.outcomes.tobytes() == analysis.outcomes.tobytes()
    assert copy.verify()


# The crash guarded against: a thread writes the graph's storage (reached through the public
# view's .obj) while the compiled engine runs GIL-free; before the fix the engine read node
# ids of a billion and the child died of SIGSEGV within a few analyses.
WRITE_UNDER_THE_ENGINE = textwrap.dedent("""
    import random, sys, threading, time
    import catmouse
    from catmouse import Graph
    from catmouse import engine as selector

    assert selector.current.name == "cython", selector.current.name
    n, rng = 2000, random.Random(1)
    edges = {(u, u + 1) for u in range(n - 1)}
    while len(edges) < 4 * n:
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v:
            edges.add((min(u, v), max(u, v)))
    graph = Graph.from_edges(n, edges)
    stop = threading.Event()
    refused = []

    def scribble():
        target = graph.indices.obj
        saved = bytes(memoryview(target).cast("B"))
        try:
            while not stop.is_set():
                # Garbage, then the graph again: the engine's checks see either, its
                # search the other.
                for k in range(0, len(target), 3):
                    target[k] = 1_000_000_000
                time.sleep(0.001)
                memoryview(target).cast("B")[:] = saved
                time.sleep(0.001)
        except (TypeError, AttributeError) as error:
            refused.append(type(error).__name__)

    writer = threading.Thread(target=scribble)
    writer.start()
    answers = set()
    try:
        for _ in range(20):
            try:
                answers.add(catmouse.analyze(graph, remoteness=False, threads=1)
                            .outcomes.tobytes())
            except ValueError:
                answers.add("refused")  # the engine's checks saw garbage
    finally:
        stop.set()
        writer.join()
    print("refused" if refused else "written", len(answers))
""")


def test_writing_a_graph_under_a_running_engine_cannot_crash(compiled_engine, tmp_path):
    env = dict(os.environ)
    env.pop("CATMOUSE_NO_EXTENSIONS", None)
    # The catmouse under test (installed, or the checkout with its build), never another.
    root = os.path.dirname(os.path.dirname(os.path.abspath(catmouse.__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    child = subprocess.run([sys.executable, "-c", WRITE_UNDER_THE_ENGINE], env=env,
                           cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, (
        f"the child died (exit status {child.returncode}): {child.stderr[-800:]}")
    # The write was refused, so every analysis gave the one answer.
    assert child.stdout.split() == ["refused", "1"], child.stdout
