"""The fast writers write the bytes a plain writer does, with numpy and without.

The reference here is the obvious writer: the csv module over ``Analysis.best_moves`` for
every position, and ``json.dumps`` of the nested lists; the package assembles the same text
in numpy arrays (or in plain Python when numpy is missing), block by block.
"""

from __future__ import annotations

import csv
import io
import json
import random
import sys
from unittest import mock

import numpy
import pytest
from engines import on_engine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import random_board

import catmouse
from catmouse import Game, Graph, Outcome, Turn, table_text
from catmouse.io.export import csv_text, table_dict, to_json


def reference_csv(analysis):
    """Row by row, through the queries and the csv module.

    Rows end in "\\n", yet are written with "\\r\\n" and cut: the csv module quotes only its
    terminator's characters, and before Python 3.13 left a lone "\\r" in a label bare."""
    buffer = io.StringIO()

    class Rows:
        @staticmethod
        def writerow(row):
            one = io.StringIO()
            csv.writer(one, lineterminator="\r\n").writerow(row)
            buffer.write(one.getvalue()[:-2] + "\n")

    writer = Rows()
    graph = analysis.graph
    labels = graph._labels
    writer.writerow(["mouse", "cat", "turn", "outcome", "remoteness", "best_moves"]
                    + (["mouse_label", "cat_label"] if labels is not None else []))
    flags = analysis._rules.flags
    for turn in Turn:
        for m in range(analysis.n):
            for c in range(analysis.n):
                if flags[c] & 2:  # CAT_FORBIDDEN: no such position
                    continue
                name = graph._name
                r = analysis.remoteness(name(m), name(c), turn) if analysis.has_remoteness \
                    else None
                best = [graph.index(v) for v in analysis.best_moves(name(m), name(c), turn)]
                row = [m, c, turn.name, analysis.outcome(name(m), name(c), turn).name,
                       "" if r is None else r, " ".join(map(str, best))]
                writer.writerow(row + ([labels[m], labels[c]] if labels is not None else []))
    return buffer.getvalue()


def reference_json(analysis):
    return json.dumps(table_dict(analysis), separators=(",", ":"), allow_nan=False)


@st.composite
def analyses(draw):
    n = draw(st.integers(1, 9))
    directed = draw(st.booleans())
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v and (directed or u < v)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))) \
        if pairs else []
    rows = [[] for _ in range(n)]
    for u, v in edges:
        rows[u].append(v)
        if not directed:
            rows[v].append(u)
    graph = Graph(rows, directed=directed)
    holes = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=2))
    game = Game(graph, holes=holes,
                cat_goals=draw(st.lists(st.sampled_from([v for v in range(n) if v not in holes]
                                                        or [None]), max_size=1)
                               .filter(lambda goals: None not in goals)),
                mouse_stays=draw(st.booleans()), cat_stays=draw(st.booleans()),
                draw=draw(st.sampled_from(list(Outcome))),
                first=draw(st.sampled_from(list(Turn))))
    return game.analyze(remoteness=draw(st.booleans()))


FAST = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@FAST
@given(st.data(), st.booleans())
def test_csv_and_json_are_the_plain_writers_bytes(engine, data, with_numpy):
    with on_engine(engine):
        analysis = data.draw(analyses())
    with mock.patch.object(table_text, "numpy_or_none",
                           table_text.numpy_or_none if with_numpy else lambda: None):
        assert csv_text(analysis) == reference_csv(analysis)
        assert to_json(analysis) == reference_json(analysis)


@pytest.mark.parametrize("with_numpy", [True, False])
def test_labelled_graphs_add_label_columns_and_quote_them(monkeypatch, with_numpy):
    nx = pytest.importorskip("networkx")
    if not with_numpy:
        monkeypatch.setattr(table_text, "numpy_or_none", lambda: None)
    # The reference below writes with the csv module, which cannot write NUL before 3.11;
    # test_strict_outputs.py reads catmouse's NUL on every version.
    nul = "nul\0byte" if sys.version_info >= (3, 11) else "nul-byte"
    g = nx.Graph([("den", 'say "hi", mouse'), ('say "hi", mouse', (0, 1)), ((0, 1), "é"),
                  ("é", nul)])
    analysis = catmouse.analyze(g, hole="den")
    text = csv_text(analysis)
    assert text == reference_csv(analysis)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {row["mouse_label"] for row in rows} == {"den", 'say "hi", mouse', "(0, 1)", "é",
                                                    nul}
    assert to_json(analysis) == reference_json(analysis)


def test_long_best_move_lists_and_wide_numbers(use_engine):
    # On K12 with no hole every mouse move loses alike: ten tied best moves in a row (more
    # than the columns a row keeps for them), ids of two digits; and a path of 150 nodes for
    # remoteness of three digits.
    k12 = [[v for v in range(12) if v != u] for u in range(12)]
    path = [[v for v in (u - 1, u + 1) if 0 <= v < 150] for u in range(150)]
    tables = [Game(k12, holes=()).analyze(), Game(k12, holes=(), mouse_stays=True).analyze(),
              catmouse.analyze(path)]
    for a in tables:
        assert csv_text(a) == reference_csv(a)
        assert to_json(a) == reference_json(a)
    widest = max(len(row.split(",")[5].split()) for row in csv_text(tables[0]).splitlines()[1:])
    assert widest == 10 > table_text._SLOTS
    assert max(catmouse.analyze(path).remoteness_table.tolist()[0][149]) >= 100


def test_a_mouse_with_no_move_beside_long_move_lists(use_engine):
    # Node 9 has no move and node 0 has eight: the stuck mouse's row of (padded) moves is
    # as wide as node 0's, more than the columns a row keeps, and it still has no best move.
    rows = [[1, 2, 3, 4, 5, 6, 7, 8]] + [[0] for _ in range(8)] + [[]]
    analysis = Game(Graph(rows, directed=True), holes=()).analyze()
    text = csv_text(analysis)
    assert text == reference_csv(analysis)
    assert "\n9,1,MOUSE,CAT_WIN,0,\n" in text


@pytest.mark.parametrize("with_numpy", [True, False])
def test_long_best_move_lists_of_a_labelled_graph(monkeypatch, with_numpy):
    # A star's hub: eight tied best moves at most (its nine leaves but the cat's), labels after.
    nx = pytest.importorskip("networkx")
    if not with_numpy:
        monkeypatch.setattr(table_text, "numpy_or_none", lambda: None)
    star = nx.relabel_nodes(nx.star_graph(9), {v: f"n{v}" for v in range(10)})
    analysis = Game(Graph.from_networkx(star), holes=()).analyze()
    text = csv_text(analysis)
    assert text == reference_csv(analysis)
    widest = max(len(row.split(",")[5].split()) for row in text.splitlines()[1:])
    assert widest == 8 > table_text._SLOTS


def test_save_reports_progress_and_writes_the_same_bytes(tmp_path, use_engine):
    analysis = catmouse.analyze([[1, 3], [0], [3], [0, 2]])
    # A CSV row per position that exists (the cat never on the hole: 2 * 4 * 3), JSON every entry.
    for suffix, text, total in ((".csv", csv_text(analysis), 24),
                                (".json", to_json(analysis) + "\n", 32)):
        seen = []
        analysis.save(tmp_path / f"t{suffix}", progress=seen.append)
        assert (tmp_path / f"t{suffix}").read_bytes() == text.encode()
        assert seen and seen[-1] == total and seen == sorted(seen)
    seen = []
    analysis.save(tmp_path / "t.npz", progress=seen.append)
    assert seen[-1] == 32
    with numpy.load(tmp_path / "t.npz") as data:
        assert data["outcomes"].tobytes() == analysis.outcomes.tobytes()


def test_npz_of_a_labelled_graph_holds_the_labels(tmp_path):
    nx = pytest.importorskip("networkx")
    analysis = catmouse.analyze(nx.path_graph(["a", "b", "c"]), hole="a")
    analysis.save(tmp_path / "t.npz")
    with numpy.load(tmp_path / "t.npz") as data:  # no pickle needed
        assert data["labels"].tolist() == ["a", "b", "c"]


def test_cli_analyze_shows_a_bar_while_writing(tmp_path, monkeypatch, capsys):
    from catmouse.cli import commands

    monkeypatch.setattr(commands, "PROGRESS_DELAY", 0.0)
    graph = tmp_path / "g.json"
    graph.write_text("[[1, 3], [0], [3], [0, 2]]")
    assert commands.main(["analyze", str(graph), "-o", str(tmp_path / "t.csv")]) == 0
    err = capsys.readouterr().err
    assert "writing [##############################] 100% 24/24" in err
    assert not [line for line in err.splitlines() if line.startswith("writing") and "/32" in line]
    assert (tmp_path / "t.csv").read_text() == csv_text(catmouse.analyze(json.loads(
        graph.read_text())))


@pytest.mark.parametrize("label", ["\r", "a\nb", "x,y", 'say "hi"', "\r\n"])
def test_a_label_that_needs_quotes_reads_back(use_engine, label):
    """Every Python version: a CR alone went unquoted before 3.13 and broke the table."""
    networkx = pytest.importorskip("networkx")
    graph = networkx.relabel_nodes(networkx.path_graph(3), {0: "h", 1: label, 2: "z"})
    rows = list(csv.reader(io.StringIO(csv_text(catmouse.analyze(graph, hole="h")))))
    header, body = rows[0], rows[1:]
    assert header[-2:] == ["mouse_label", "cat_label"]
    assert {row[-2] for row in body} == {"h", label, "z"}


def test_many_blocks_on_two_threads_give_the_same_bytes(use_engine, monkeypatch):
    """Blocks are formatted on a second thread and written in order: cut small, a table of
    many blocks reads as the plain writer's rows."""
    board, hole = random_board(random.Random(5), 30, 30)
    analysis = catmouse.analyze(board, hole=hole)
    monkeypatch.setattr(table_text, "_ROWS", 64)
    blocks = list(table_text.csv_blocks(analysis))
    assert len(blocks) > 20
    assert b"".join(text for text, _ in blocks).decode() == reference_csv(analysis)


@pytest.mark.parametrize(("rows", "entries"), [(1, 1), (7, 13), (40, 90)])
def test_a_hub_and_a_dense_cat_graph_in_pieces_give_the_same_bytes(use_engine, monkeypatch,
                                                                  rows, entries):
    """The memory bounds cut a hub's moves and a dense cat graph's edges into pieces (one
    mouse a block, a few cats or moves a piece): the rows and best moves stay the same."""
    n = 24
    hub = [[v for v in range(n) if v != u] if u == 0 else [0, (u % (n - 1)) + 1]
           for u in range(n)]
    hub = [sorted(set(row)) for row in hub]
    for u, row in enumerate(hub):  # undirected: each edge both ways
        for v in row:
            if u not in hub[v]:
                hub[v].append(u)
    dense = [[v for v in range(n) if v != u] for u in range(n)]
    monkeypatch.setattr(table_text, "_ROWS", rows)
    monkeypatch.setattr(table_text, "_ENTRIES", entries)
    for game in (Game(hub, holes=[5]), Game(hub, holes=[], cat_graph=dense, cat_stays=True),
                 Game(dense, holes=[0], mouse_stays=True)):
        for remoteness in (True, False):
            analysis = game.analyze(remoteness=remoteness)
            assert csv_text(analysis) == reference_csv(analysis)
