"""The Analysis keeps remoteness in a byte a position (bit-planes): its answers are those of
the int32 table the engine writes, on both engines, and the int32 table it builds on first
use is that table, built in row blocks that Ctrl-C stops cleanly."""

from __future__ import annotations

import json
import random
import signal
from array import array

import pytest

import catmouse
from catmouse import Outcome, Turn
from catmouse import analysis as _analysis
from catmouse import engine as _engine
from catmouse.engine import planes
from catmouse.engine.facts import CAT_FORBIDDEN, CAT_GOAL, HOLE
from catmouse.graph import Graph
from catmouse.rules import Rules, classic_rules
from catmouse.solving import analyze_rules


def random_graph(n, edges, seed):
    rng = random.Random(seed)
    pairs = {tuple(sorted(rng.sample(range(n), 2))) for _ in range(edges)}
    return Graph.from_edges(n, sorted(pairs))


def path(n):
    return Graph([[v for v in (u - 1, u + 1) if 0 <= v < n] for u in range(n)])


def scored_rules():
    """A cat goal, a forbidden node and games that never end scored as cat wins."""
    graph = random_graph(40, 70, seed=7)
    flags = bytearray(40)
    flags[0] = HOLE | CAT_FORBIDDEN
    flags[7] = CAT_GOAL
    flags[9] = CAT_FORBIDDEN
    return Rules(graph, graph, bytes(flags), Outcome.CAT_WIN)


CASES = {
    "random": lambda: classic_rules(random_graph(70, 110, seed=3)),
    "small": lambda: classic_rules(Graph([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])),
    "scored draws": scored_rules,
    "past 255 plies": lambda: classic_rules(path(200), 199),  # two layers
}


def int32_form(rules):
    """Outcomes and the int32 remoteness table as the engine writes them (int32 mode)."""
    n = rules.n
    return _engine.run_into_tables(2 * n * n, True, lambda o, r: rules.run(o, r))


@pytest.mark.parametrize("case", CASES)
def test_the_byte_form_answers_as_the_int32_form(use_engine, case):
    rules = CASES[case]()
    n = rules.n
    outcomes, table = int32_form(rules)
    values = memoryview(table).cast("i")
    a = analyze_rules(rules)
    assert a._table is None and a.outcomes.tobytes() == outcomes
    if case == "past 255 plies":
        assert len(a._layers) == 2 and max(values) > 255
    # Every position read from the planes, before any int32 table exists.
    old = _analysis.Analysis(rules, outcomes, table)  # the int32 form, made into planes
    assert old._layers == a._layers
    for s in range(2 * n * n):
        t, rest = divmod(s, n * n)
        m, c = divmod(rest, n)
        if not rules.cat_may_stand(c):
            continue
        want = values[s]
        assert a.remoteness(m, c, t) == (None if want < 0 else want), (m, c, t)
    assert a._table is None
    picks = random.Random(1).sample(range(n), min(n, 12))
    for m in picks:
        for c in picks:
            if rules.cat_may_stand(c):
                for t in Turn:
                    assert a.best_moves(m, c, t) == old.best_moves(m, c, t)
                    assert a.line(m, c, t) == old.line(m, c, t)
    assert a.verify()
    assert a._table is None  # verify's int32 form was its own
    # The exports read the planes in blocks: the int32 table's values.
    data = json.loads(a.to_json())
    assert [v for turn in data["remoteness"] for row in turn for v in row] == list(values)
    # Built on first use: the engine's table, kept.
    assert a.remoteness_table.tobytes() == table
    assert a._table is not None and a.remoteness_for(Turn.CAT).tobytes() == table[4 * n * n:]


def test_the_table_is_built_once_and_kept():
    a = catmouse.analyze(random_graph(30, 50, seed=2))
    first = a.remoteness_table
    assert a._table is not None
    kept = a._table
    assert a.remoteness_table.tobytes() == first.tobytes() and a._table is kept


def test_threads_asking_at_once_share_one_build(monkeypatch):
    """Eight threads reading remoteness_table / remoteness_for at once: one table is built
    and every thread reads it (each built its own before: 8 times the memory and the time,
    past the memory guard, which had counted one)."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    a = catmouse.analyze(random_graph(40, 70, seed=6))
    want = int32_form(a._rules)[1]
    builds = []
    real = _analysis.Analysis._build_table

    def build(self):
        builds.append(1)
        time.sleep(0.2)  # (the other threads arrive meanwhile)
        return real(self)

    monkeypatch.setattr(_analysis.Analysis, "_build_table", build)
    barrier = threading.Barrier(8)

    def read(i):
        barrier.wait()
        view = a.remoteness_table if i % 2 else a.remoteness_for(Turn(i % 4 // 2))
        return view.obj, view.tobytes()  # (obj: the bytes the view reads)

    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(read, range(8)))
    assert len(builds) == 1
    assert all(table is a._table.obj for table, _ in got)
    n2 = 4 * a.n * a.n
    for i, (_, data) in enumerate(got):
        assert data == (want if i % 2 else want[i % 4 // 2 * n2:(i % 4 // 2 + 1) * n2])


def test_ctrl_c_during_the_first_use_build_stops_it_cleanly(monkeypatch):
    """A real SIGINT between two row blocks: KeyboardInterrupt, nothing kept half-built, and
    the next call builds the whole table."""
    a = catmouse.analyze(random_graph(60, 100, seed=4))
    want = int32_form(a._rules)[1]
    monkeypatch.setattr(planes, "block_rows", lambda n: 1)  # a block a row
    calls = []
    real = _analysis.Analysis._remoteness_rows

    def rows(self, *args):
        calls.append(args)
        if len(calls) == 5:
            signal.raise_signal(signal.SIGINT)  # as Ctrl-C in a terminal
        return real(self, *args)

    monkeypatch.setattr(_analysis.Analysis, "_remoteness_rows", rows)
    with pytest.raises(KeyboardInterrupt):
        a.remoteness_table
    assert 5 <= len(calls) < 2 * a.n  # stopped part way
    assert a._table is None
    assert a.remoteness_table.tobytes() == want


def test_a_table_that_will_not_fit_raises_memory_error_before_allocating(monkeypatch):
    a = catmouse.analyze(random_graph(50, 80, seed=5))
    monkeypatch.setattr(_analysis, "_ASK_ABOVE", 0)
    monkeypatch.setattr(_analysis, "memory_limit", lambda: (1000, "available"))
    with pytest.raises(MemoryError, match=r"needs 20000 bytes \(4 a position\); only 1000"):
        a.remoteness_table
    with pytest.raises(MemoryError):
        a.remoteness_for(Turn.MOUSE)
    assert a._table is None
    assert a.remoteness(1, 2) == catmouse.analyze(a.graph).remoteness(1, 2)  # the planes serve


def test_an_outcomes_only_analysis_has_no_planes():
    a = catmouse.analyze(random_graph(30, 50, seed=2), remoteness=False)
    assert a._layers is None and not a.has_remoteness
    with pytest.raises(ValueError, match="remoteness=False"):
        a.remoteness_table


def test_tables_in_another_form_are_refused_not_misread():
    """Analysis(rules, outcomes, remoteness) reads buffers of bytes or of the tables' own items:
    a float or big-endian table's bytes were read as other numbers (remoteness 1065353216 or
    16777216 for 1), an int n as n zero bytes (every position a draw, or never ending), and
    lists gave bytes()'s own errors."""
    rules = classic_rules(path(200), 199)  # two layers
    a = analyze_rules(rules)
    n = rules.n
    values = a.remoteness_table.cast("B").cast("i")
    # The forms that serve: bytes, the views an Analysis gives, arrays of int32.
    for table in (values.tobytes(), a.remoteness_table, array("i", values)):
        assert _analysis.Analysis(rules, a.outcomes, table)._layers == a._layers
    assert _analysis.Analysis(rules, bytearray(a.outcomes), list(a._layers))._layers == a._layers
    for table in (array("f", values), array("q", values)[: 2 * n * n // 2]):
        with pytest.raises(ValueError, match="remoteness table has items of format"):
            _analysis.Analysis(rules, a.outcomes, table)
    with pytest.raises(TypeError, match="remoteness table must be a buffer"):
        _analysis.Analysis(rules, a.outcomes, 4 * 2 * n * n)
    with pytest.raises(TypeError, match="outcome table must be a buffer"):
        _analysis.Analysis(rules, 2 * n * n)
    with pytest.raises(ValueError, match="outcome table has items of format"):
        _analysis.Analysis(rules, array("h", bytes(4 * n * n)))
    nested = json.loads(a.to_json())["remoteness"]  # (the JSON's lists are no planes)
    with pytest.raises(TypeError, match="remoteness layer 0 must be a buffer"):
        _analysis.Analysis(rules, a.outcomes, nested)
    np = pytest.importorskip("numpy")
    table = np.asarray(a.remoteness_table)
    assert _analysis.Analysis(rules, a.outcomes, table)._layers == a._layers
    for bad in (table.astype(">i4"), table.astype(np.float32)):
        with pytest.raises(ValueError, match="remoteness table has items of format"):
            _analysis.Analysis(rules, a.outcomes, bad)
    words = [np.frombuffer(layer, dtype=np.uint64) for layer in a._layers]
    assert _analysis.Analysis(rules, a.outcomes, words)._layers == a._layers
    with pytest.raises(ValueError, match="remoteness layer 1 has items of format"):
        _analysis.Analysis(rules, a.outcomes, [words[0], words[1].astype(">u8")])


def test_reading_remoteness_keeps_no_game_alive(use_engine):
    # Where draws are scored, reading remoteness rows (numpy) asks which nodes leave the mover
    # no move, and a module-level cache kept the last eight rules, and their graphs, alive.
    pytest.importorskip("numpy")
    import gc

    n = 11  # (a size no other test's game in this process is likely to hold alive)
    rows = [[(u + d) % n for d in (1, 3, n - 3, n - 1)] for u in range(n)]

    def alive():
        gc.collect()
        return sum(1 for o in gc.get_objects() if type(o) is Rules and o.mouse_graph.n == n)

    before = alive()
    for draw in (Outcome.MOUSE_WIN, Outcome.CAT_WIN) * 3:
        a = catmouse.Game(Graph(rows), draw=draw).analyze()
        assert a.remoteness_table  # (through the rows' reader)
        del a
    assert alive() == before
