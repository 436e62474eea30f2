"""Analysis.verify(): passes on solved tables, names the position of a corrupted one."""

from __future__ import annotations

import importlib
import random
from array import array

import pytest
from engines import on_engine

import catmouse
from catmouse import Graph, Outcome, Turn, VerificationError
from catmouse.analysis import Analysis
from catmouse.engine.facts import CAT_FORBIDDEN, CAT_GOAL, HOLE
from catmouse.rules import Rules
from catmouse.solving import analyze_rules


@pytest.fixture(autouse=True, params=["numpy", "python"])
def checker(request, monkeypatch):
    """Every test twice: verify() in numpy arrays, and the plain-Python loop without numpy."""
    if request.param == "python":
        monkeypatch.setattr("catmouse.analysis.numpy_or_none", lambda: None)
    return request.param


def random_graph(n, edges, seed, directed=False):
    rng = random.Random(seed)
    pairs = set()
    while len(pairs) < edges:
        u, v = rng.sample(range(n), 2)
        pairs.add((u, v) if directed else (min(u, v), max(u, v)))
    return Graph.from_edges(n, sorted(pairs), directed=directed)


def grid(k):
    edges = [(r * k + c, r * k + c + 1) for r in range(k) for c in range(k - 1)]
    edges += [(r * k + c, (r + 1) * k + c) for r in range(k - 1) for c in range(k)]
    return Graph.from_edges(k * k, edges)


def position_of(analysis, s):
    n = analysis.n
    t, rest = divmod(s, n * n)
    return (*divmod(rest, n), Turn(t))


def test_exported_and_an_assertion():
    assert issubclass(catmouse.VerificationError, AssertionError)


def test_leetcode_examples(engine):
    with on_engine(engine):
        assert catmouse.analyze([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]).verify()
        assert catmouse.analyze([[1, 3], [0], [3], [0, 2]]).verify()
        assert catmouse.analyze([[]]).verify()


def test_random_graph_of_300_nodes(engine):
    graph = random_graph(300, 700, seed=6)
    with on_engine(engine):
        analysis = catmouse.analyze(graph)
    counts = analysis.counts()
    assert counts[Outcome.DRAW] and counts[Outcome.MOUSE_WIN] and counts[Outcome.CAT_WIN]
    assert analysis.verify()


def test_grid(engine):
    # 40x40 (5.1 million positions) on the compiled engine; the pure twin is slower.
    k = 40 if engine.__name__.endswith("_c") else 16
    with on_engine(engine):
        assert catmouse.analyze(grid(k)).verify()


@pytest.mark.parametrize("seed", range(4))
def test_other_rules(engine, seed):
    """Directed moves, a separate cat graph, goals, forbidden nodes, draws scored as wins."""
    rng = random.Random(seed)
    n = 40
    mouse_graph = random_graph(n, 90, seed, directed=True)
    cat_graph = random_graph(n, 70, seed + 100, directed=bool(seed % 2))
    flags = bytearray(n)
    for node in rng.sample(range(n), 6):
        flags[node] = rng.choice([HOLE | CAT_FORBIDDEN, CAT_FORBIDDEN, CAT_GOAL, HOLE])
    draw = [Outcome.DRAW, Outcome.CAT_WIN, Outcome.MOUSE_WIN, Outcome.DRAW][seed]
    rules = Rules(mouse_graph, cat_graph, bytes(flags), draw)
    with on_engine(engine):
        analysis = analyze_rules(rules)
    assert analysis.verify()
    # The other engine gives the same table, so both passed an independent check.
    with on_engine(importlib.import_module("catmouse.engine.bits_py")):
        other = analyze_rules(rules)
    assert analysis.outcomes.tobytes() == other.outcomes.tobytes()
    assert analysis.remoteness_table.tobytes() == other.remoteness_table.tobytes()


@pytest.fixture(scope="module")
def solved():
    """A solved 120-node table with every kind of position, and a draw-scored one."""
    graph = random_graph(120, 260, seed=3)
    flags = bytearray(120)
    flags[0] = HOLE | CAT_FORBIDDEN
    flags[7] = CAT_GOAL
    flags[9] = CAT_FORBIDDEN
    plain = catmouse.analyze(graph)
    scored = analyze_rules(Rules(graph, graph, bytes(flags), Outcome.CAT_WIN))
    return plain, scored


@pytest.mark.parametrize("which", [0, 1])
def test_flipped_outcome_is_named(solved, which):
    analysis = solved[which]
    table = analysis._outcomes = bytearray(analysis._outcomes)  # bytes: tamper a copy
    rng = random.Random(which)
    for s in rng.sample(range(len(table)), 60):
        old = table[s]
        table[s] = rng.choice([v for v in range(4) if v != old])
        try:
            with pytest.raises(VerificationError) as error:
                analysis.verify()
        finally:
            table[s] = old
        m, c, t = position_of(analysis, s)
        assert error.value.position == (m, c, t)
        assert f"mouse={m}, cat={c}, turn={t.name}" in str(error.value)
    assert analysis.verify()


def tampered(analysis, rem, form):
    """``analysis`` with the remoteness ``rem``: as its int32 table (which verify reads when
    it was built), or made into the planes of a new Analysis (which verify reads rows of)."""
    if form == "table":
        analysis._table = rem
        return analysis
    return Analysis(analysis._rules, analysis._outcomes, remoteness=rem.tobytes())


def test_verify_reads_the_planes_without_building_the_table(solved):
    for shared in solved:  # (copies: the fixture is the module's)
        analysis = Analysis(shared._rules, shared._outcomes, remoteness=list(shared._layers))
        assert analysis._table is None
        assert analysis.verify()
        assert analysis._table is None
        table = analysis.remoteness_table  # built: verify reads it instead, with one verdict
        assert analysis.verify()
        assert analysis._table is not None and analysis.remoteness_table == table


@pytest.mark.parametrize("form", ["table", "planes"])
def test_corrupted_remoteness_is_caught(solved, form):
    analysis = solved[0]
    rem = array("i", analysis.remoteness_table.cast("B").cast("i"))  # a copy
    rules = analysis._rules
    rng = random.Random(5)
    tried = 0
    for s in rng.sample(range(len(rem)), 60 if form == "table" else 40):
        old = rem[s]
        rem[s] = rng.choice([v for v in (-1, 0, 1, old - 1, old + 1, old + 7, 2**31 - 1)
                             if v != old])
        try:
            checked = tampered(analysis, rem, form)
            if checked._remoteness_at(s) != rem[s]:
                continue  # the planes cannot hold it (a value off a position that is none)
            with pytest.raises(VerificationError) as error:
                checked.verify()
            tried += 1
        finally:
            rem[s] = old
        # Named: the entry itself, or a position with a move into it (which the
        # corruption contradicts too, and which may claim a smaller remoteness).
        named = error.value.position
        corrupted = position_of(analysis, s)
        if named != corrupted:
            m, c, t = named
            assert corrupted in [(v, c, Turn.CAT) if t == Turn.MOUSE else (m, v, Turn.MOUSE)
                                 for v, _ in rules.moves(m, c, t)]
    assert tried >= 20
    assert analysis.verify()


def test_any_single_wrong_entry_fails_small_table():
    """Exhaustively on a small board: every wrong outcome byte is caught and named."""
    analysis = catmouse.analyze([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    table = analysis._outcomes = bytearray(analysis._outcomes)  # bytes: tamper a copy
    for s in range(len(table)):
        old = table[s]
        for value in (0, 1, 2, 3, 200):
            if value == old:
                continue
            table[s] = value
            with pytest.raises(VerificationError) as error:
                analysis.verify()
            table[s] = old
            assert error.value.position == position_of(analysis, s)
            said = {3: "the table says NO_POSITION (the cat on a node it may not enter), but",
                    200: "the table says code 200"}.get(value, "the table says ")
            assert said in str(error.value)


@pytest.mark.parametrize("form", ["table", "planes"])
def test_a_claimed_end_that_is_not_one_is_named(form):
    """A decided position whose remoteness is set to 0 (game over) is named itself.

    Its parents now see a child ending at once and are contradicted too, but the
    claim of remoteness 0 comes first in the order verify() names positions.
    """
    analysis = catmouse.analyze([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    rem = array("i", analysis.remoteness_table.cast("B").cast("i"))  # a copy
    tried = 0
    for s in range(len(rem)):
        old = rem[s]
        if old < 2:
            continue
        rem[s] = 0
        with pytest.raises(VerificationError) as error:
            tampered(analysis, rem, form).verify()
        rem[s] = old
        assert error.value.position == position_of(analysis, s)
        tried += 1
    assert tried > 10
    assert analysis.verify()


@pytest.mark.parametrize("n", [100, 150])
def test_verify_reports_about_a_hundred_times(use_engine, n):
    """Progress every n // 50 rows of mouse positions: about a hundred reports, whatever n."""
    path = [[v for v in (u - 1, u + 1) if 0 <= v < n] for u in range(n)]
    seen = []
    assert catmouse.analyze(path).verify(progress=seen.append) is True
    assert 90 <= len(seen) <= 110
    assert seen[-1] == 2 * n * n
    # Always further on: no count twice, but for the end, which finish() may say again.
    body = seen[:-1] if seen[-2:] == [2 * n * n] * 2 else seen
    assert all(earlier < later for earlier, later in zip(body, body[1:]))


def test_a_remoteness_near_a_billion_plies_is_named():
    """Scores still packed in 32 bits (2 * longest + 8 < 2**31): the mouse-win end of the
    scale, 2 * longest + 4, stays in range too."""
    analysis = catmouse.analyze([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    rem = analysis._table = array("i", analysis.remoteness_table.cast("B").cast("i"))  # a copy
    s = max(range(len(rem)), key=rem.__getitem__)
    rem[s] = 900_000_000
    with pytest.raises(VerificationError, match="in 900000000 plies") as error:
        analysis.verify()
    assert error.value.position == position_of(analysis, s)


def test_one_ply_is_one_ply():
    # "MOUSE_WIN in 1 plies" in a VerificationError.
    analysis = catmouse.analyze([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    rem = analysis._table = array("i", analysis.remoteness_table.cast("B").cast("i"))  # a copy
    s = max(range(len(rem)), key=rem.__getitem__)
    rem[s] = 1
    with pytest.raises(VerificationError, match=r"in 1 ply\b") as error:
        analysis.verify()
    assert "1 plies" not in str(error.value)


def test_a_mouse_with_no_move_is_named_before_positions_with_moves():
    """Node 1 has no neighbour: (mouse=1, cat=3, MOUSE) is lost at once, whatever its
    children; a wrong entry there is named before a wrong one that has moves to weigh,
    however small the latter's claimed remoteness."""
    analysis = catmouse.analyze([[2], [], [0], [4], [3]])
    n = analysis.n
    table = analysis._outcomes = bytearray(analysis._outcomes)  # tamper copies
    rem = analysis._table = array("i", analysis.remoteness_table.cast("B").cast("i"))
    stranded, moving = 1 * n + 3, 2 * n + 1  # (1, 3, MOUSE) and (2, 1, MOUSE)
    assert (table[stranded], rem[stranded]) == (Outcome.CAT_WIN, 0)
    assert (table[moving], rem[moving]) == (Outcome.MOUSE_WIN, 1)
    table[stranded], rem[stranded] = Outcome.MOUSE_WIN, 5
    rem[moving] = 3
    with pytest.raises(VerificationError) as error:
        analysis.verify()
    assert error.value.position == (1, 3, Turn.MOUSE)
