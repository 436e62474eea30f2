"""The command line and the graph file readers."""

from __future__ import annotations

import io
import json
import math
import os
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import catmouse
from catmouse import Graph, Outcome, Turn
from catmouse.cli.commands import main
from catmouse.io.graph_files import (
    guess_format,
    parse_edge_list,
    parse_graph6,
    parse_json,
    read_graph,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SVG = "{http://www.w3.org/2000/svg}"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# -- readers ------------------------------------------------------------------------


def test_graph6_matches_networkx():
    nx = pytest.importorskip("networkx")
    rng = random.Random("graph6")
    for _ in range(200):
        n = rng.choice([0, 1, 2, 5, 9, 30, 62, 63, 64, 70])
        g = nx.gnp_random_graph(n, rng.random(), seed=rng.randrange(10**6))
        text = nx.to_graph6_bytes(g, header=rng.random() < 0.5).decode()
        ours = parse_graph6(text)
        assert ours.n == n
        assert sorted(map(sorted, ours_edges(ours))) == sorted(sorted(e) for e in g.edges)


def ours_edges(graph):
    return [(u, v) for u in range(graph.n) for v in graph.neighbors(u) if u < v]


def test_petersen_example():
    graph = read_graph(str(EXAMPLES / "petersen.g6")).graph
    assert (graph.n, graph.num_edges) == (10, 15)
    assert all(graph.degree(u) == 3 for u in range(10))


@pytest.mark.filterwarnings("ignore:the edge list names no node")  # gaps: a note
def test_edge_list_and_json_forms(tmp_path):
    assert parse_edge_list("0 1\n1 2\n", directed=True).adjacency() == [[1], [2], []]
    assert parse_edge_list("# nothing but\n0,1\n\n3\n").adjacency() == [[1], [0], [], []]
    f = parse_json('{"graph": [[1], [0]], "mouse": 0, "cat": 1, "hole": 1, "directed": false}')
    assert (f.mouse, f.cat, f.hole, f.graph.n) == (0, 1, 1, 2)
    path = tmp_path / "g.txt"
    path.write_text("[[1], [0]]")  # no .json suffix: recognised by its first character
    assert read_graph(str(path)).graph.adjacency() == [[1], [0]]


def test_json_object_may_make_the_graph_directed():
    # "directed" in the object wins over the reader's default (the CLI's --directed).
    one_way = parse_json('{"graph": [[1], []], "directed": true}')
    assert one_way.graph.directed and one_way.graph.adjacency() == [[1], []]
    both_ways = parse_json('{"graph": [[1], [0]], "directed": false}', directed=True)
    assert not both_ways.graph.directed
    with pytest.raises(ValueError, match="listed at node 0 but not at node 1"):
        parse_json('{"graph": [[1], []]}')  # undirected by default: both ends list an edge


def test_graph_file_names_its_source(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    path.write_text("[[1], [0]]")
    assert read_graph(str(path)).source == str(path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("[[1], [0]]"))
    assert read_graph("-").source == "<stdin>"


def test_graph6_with_a_long_count_but_no_edge_bytes():
    # "~" then three bytes give the node count 63; the edge bytes are what is missing.
    with pytest.raises(ValueError, match="graph6 for 63 nodes needs 326 bytes of edges, got 0"):
        parse_graph6("~??~")
    assert parse_graph6("~??~" + "?" * 326).n == 63


@pytest.mark.parametrize(
    "text, fmt, message",
    [
        ("[[1], [0, 2]]", "json", "lists neighbour 2"),
        ("[[1], [0", "json", "not valid JSON"),
        ('{"graf": []}', "json", "unknown key 'graf'"),
        ('{"graph": [[1], [0]], "mouse": "x"}', "json", '"mouse" must be a node id'),
        ('"hello"', "json", "must be a list"),
        ("[[1], [\"a\"]]", "json", "integer node id"),
        ("0 1\n1 1e3\n", "edges", "line 2: node ids must be integers"),
        ("0 1 2\n", "edges", "line 1: expected 'u v'"),
        ("0 1\n1 0\n", "edges", "line 2: edge 1 0 is listed twice"),
        ("2 2\n", "edges", "self-loop"),
        ("0 -1\n", "edges", "non-negative"),
        ("# empty\n", "edges", "no edges"),
        ("Ihe", "graph6", "10 nodes needs 8 bytes of edges, got 2"),
        (":Fa@x^", "graph6", "sparse6 is not supported"),
        ("I he", "graph6", "outside"),
    ],
)
def test_bad_files_are_value_errors(tmp_path, text, fmt, message):
    path = tmp_path / "bad"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        read_graph(str(path), format=fmt)


# -- solve ----------------------------------------------------------------------------


def test_solve_examples(capsys):
    code, out, err = run(capsys, "solve", EXAMPLES / "leetcode1.json")
    assert code == 0 and err == ""
    assert "outcome: a draw" in out and "never ends" in out
    assert "1. mouse 1 -> " in out and "repeats a position" in out

    code, out, _ = run(capsys, "solve", EXAMPLES / "leetcode2.json")
    assert code == 0
    assert "outcome: the mouse wins" in out and "after 1 move " in out
    assert "mouse 1 -> 0" in out and "reaches the hole" in out


def test_solve_prints_the_analysis_line(capsys):
    """The printed moves are Analysis.line's, and the remoteness is the line's length."""
    path = EXAMPLES / "chase.edges"
    code, out, _ = run(capsys, "solve", path, "--mouse", 3, "--cat", 7)
    assert code == 0
    graph = read_graph(str(path)).graph
    analysis = catmouse.analyze(graph)
    line = analysis.line(3, 7, Turn.MOUSE)
    assert analysis.outcome(3, 7) == Outcome.CAT_WIN
    printed = [row.split(".", 1)[1].split() for row in out.splitlines() if "->" in row]
    assert len(printed) == len(line) - 1 == analysis.remoteness(3, 7)
    for (who, src, _, dst), before, after in zip(printed, line, line[1:]):
        k = 0 if who == "mouse" else 1
        assert (int(src), int(dst)) == (before[k], after[k])
    assert f"after {len(line) - 1} moves" in out and "the cat catches the mouse" in out


def test_solve_uses_file_starts_and_flags(tmp_path, capsys):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"graph": [[1], [0, 2], [1, 3], [2]], "mouse": 3, "cat": 1,
                                "hole": 0}))
    _, out, _ = run(capsys, "solve", path)
    assert "mouse on 3, cat on 1, hole 0" in out
    _, out, _ = run(capsys, "solve", path, "--mouse", 2, "--hole", 3, "--cat", 0)
    assert "mouse on 2, cat on 0, hole 3" in out and "mouse 2 -> 3" in out


def test_directed_edge_list(tmp_path, capsys):
    path = tmp_path / "oneway.edges"
    path.write_text("1 0\n1 2\n2 1\n")
    code, out, _ = run(capsys, "solve", path, "--directed", "--mouse", 2, "--cat", 1)
    assert code == 0 and "directed graph of 3 nodes" in out
    # The mouse's only move is onto the cat.
    assert "the cat wins" in out and "mouse 2 -> 1" in out


# -- analyze ----------------------------------------------------------------------------


def test_analyze_json(tmp_path, capsys):
    out_path = tmp_path / "table.json"
    code, out, _ = run(capsys, "analyze", EXAMPLES / "leetcode1.json", "-o", out_path)
    assert code == 0 and "wrote" in out
    data = json.loads(out_path.read_text())
    expected = catmouse.analyze(json.loads((EXAMPLES / "leetcode1.json").read_text()))
    assert data["n"] == 6 and data["hole"] == 0
    assert data["outcomes"] == expected.outcomes.tolist()
    assert data["remoteness"] == expected.remoteness_table.tolist()
    assert f"{expected.counts()[Outcome.DRAW]} draws" in out


def test_analyze_npz(tmp_path, capsys):
    np = pytest.importorskip("numpy")
    out_path = tmp_path / "table.npz"
    code, _, _ = run(capsys, "analyze", EXAMPLES / "petersen.g6", "-o", out_path, "--hole", 4)
    assert code == 0
    data = np.load(out_path)
    expected = catmouse.analyze(parse_graph6((EXAMPLES / "petersen.g6").read_text()), hole=4)
    assert (data["outcomes"] == np.asarray(expected.outcomes)).all()
    assert (data["remoteness"] == np.asarray(expected.remoteness_table)).all()
    assert int(data["hole"]) == 4


def test_analyze_npz_without_numpy(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "numpy", None)
    code, _, err = run(capsys, "analyze", EXAMPLES / "leetcode1.json", "-o", tmp_path / "t.npz")
    assert code == 1 and "needs numpy" in err and err.count("\n") == 1


# -- draw -----------------------------------------------------------------------------------


@pytest.mark.parametrize("networkx", [True, False])
def test_draw_svg(tmp_path, capsys, monkeypatch, networkx):
    if not networkx:
        monkeypatch.setitem(sys.modules, "networkx", None)  # the built-in layout
    svg_path = tmp_path / "game.svg"
    code, out, _ = run(capsys, "draw", EXAMPLES / "chase.edges", "--mouse", 3, "--cat", 7,
                       "-o", svg_path)
    assert code == 0 and "wrote" in out
    root = ET.parse(svg_path).getroot()  # well-formed XML
    assert root.tag == f"{SVG}svg"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    analysis = catmouse.analyze(read_graph(str(EXAMPLES / "chase.edges")).graph)
    moves = len(analysis.line(3, 7)) - 1
    # Every move numbered once, every node labelled, a legend, a title.
    for k in range(1, moves + 1):
        assert texts.count(str(k)) == 1 + (k < 9), k  # node labels are 0..8
    for words in ("mouse start", "cat start", "hole", "mouse move", "cat move"):
        assert words in texts
    assert any("the cat wins in 12 moves" in (t or "") for t in texts)
    paths = list(root.iter(f"{SVG}path"))
    colours = [p.get("stroke") for p in paths if p.get("stroke")]
    assert len(colours) == moves and len(set(colours)) == 2


def test_layout_is_deterministic():
    from catmouse.show.svg import layout

    graph = read_graph(str(EXAMPLES / "petersen.g6")).graph
    # Equal to what a drawing can show, not bit for bit: on i386, networkx's Kamada-Kawai
    # layout (numpy, scipy) differed by up to 1e-9 between two calls in one process.
    first, second = layout(graph), layout(graph)
    assert all(
        math.isclose(a, b, abs_tol=1e-6) for p, q in zip(first, second) for a, b in zip(p, q)
    )
    points = layout(graph)
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in points)
    assert len({(round(x, 3), round(y, 3)) for x, y in points}) == graph.n


# -- errors, help ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve", "no/such/file.json"], "cannot read no/such/file.json: no such file"),
        (["solve", "{bad}"], "lists neighbour 9"),
        (["solve", "{examples}/leetcode1.json", "--mouse", "9"], "mouse node 9 is not"),
        (["solve", "{examples}/leetcode1.json", "--cat", "0"], "cat cannot be on node 0"),
        (["solve", "{examples}/leetcode1.json", "--hole", "6"], "hole node 6 is not"),
        (["draw", "{examples}/leetcode1.json", "-o", "/no/such/dir/x.svg"], "cannot write"),
        (["analyze", "{examples}/petersen.g6", "--directed", "-o", "x.json"], "graph6 holds"),
    ],
)
def test_errors_are_one_line(tmp_path, capsys, argv, message):
    bad = tmp_path / "bad.json"
    bad.write_text("[[9]]")
    argv = [a.format(bad=bad, examples=EXAMPLES) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert err.startswith("catmouse: error: ") and err.count("\n") == 1
    assert message in err


def test_usage_errors_and_help(capsys):
    code, _, err = run(capsys, "solve")
    assert code == 2 and "usage:" in err
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "solve" in out and "analyze" in out and "draw" in out


def test_no_bench_command(capsys):
    # The benchmark lives in the checkout's benchmarks/, outside the package (and the wheel).
    code, _, err = run(capsys, "bench", "--quick")
    assert code == 2 and "invalid choice: 'bench'" in err


def test_python_dash_m(tmp_path):
    root = Path(catmouse.__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    done = subprocess.run(
        [sys.executable, "-m", "catmouse", "solve", str(EXAMPLES / "leetcode2.json")],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
    )
    assert done.returncode == 0 and "the mouse wins" in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "catmouse", "solve", str(tmp_path / "missing.json")],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


def test_progress_on_large_tables(tmp_path, capsys, monkeypatch):
    import catmouse.cli.commands as cli

    monkeypatch.setattr(cli, "PROGRESS_POSITIONS", 10)
    code, _, err = run(capsys, "solve", EXAMPLES / "leetcode1.json")
    assert code == 0
    assert "solving 72 positions (6 nodes: 2 turns x 6 x 6 places)" in err
    assert "solved 72 positions in" in err


def test_graph_stays_a_graph():
    assert isinstance(read_graph(str(EXAMPLES / "leetcode2.json")).graph, Graph)


@pytest.mark.parametrize("path, text, expected", [
    ("board.json", "0 1", "json"),  # the suffix decides first
    ("board.G6", "0 1", "graph6"),
    ("board", "  [[1], [0]]", "json"),
    ("board", '{"graph": [[1], [0]]}', "json"),
    ("board", "IheA@GUAo\n", "graph6"),  # one printable token
    ("board", "A?", "graph6"),  # graph6 characters run from '?' (63) ...
    ("board", "~?@?", "graph6"),  # ... to '~' (126)
    ("board", "A>", "edges"),  # '>' (62) is none
    ("board", "A\x7f", "edges"),  # nor is DEL (127)
    ("board", ">>graph6<<IheA@GUAo", "graph6"),
    ("board", "0 1\n1 2\n", "edges"),
    ("board", "12\n", "edges"),  # digits only: an edge-list header, not graph6
    ("board", "a b\n", "edges"),  # two tokens
    ("board", "", "edges"),
])
def test_guess_format(path, text, expected):
    assert guess_format(path, text) == expected


def test_graph6_names_the_first_character_outside_its_range():
    # '?' (63) and '~' (126) are the ends of the range, DEL (127) is past it.
    with pytest.raises(ValueError, match=re.escape("holds the character '\\x7f', outside")):
        parse_graph6("A?~\x7f~")
    with pytest.raises(ValueError, match=re.escape("holds the character '>', outside")):
        parse_graph6("A?>")


# -- the words of the outcome and the title, the errors of draw and cat-mouse-ii ------------


def test_the_outcome_line_says_when_an_endless_game_is_scored_as_a_win(capsys):
    _, out, _ = run(capsys, "solve", EXAMPLES / "leetcode2.json")
    assert "\noutcome: the mouse wins\n" in out
    _, out, _ = run(capsys, "solve", EXAMPLES / "leetcode1.json")
    assert "\noutcome: a draw: neither side can force a win\n" in out
    _, out, _ = run(capsys, "solve", EXAMPLES / "leetcode1.json", "--draw", "mouse")
    assert "\noutcome: the mouse wins: the game never ends, which counts as its win\n" in out


def test_the_picture_title_counts_plies_of_a_game_that_ends_only(tmp_path, capsys):
    def title(*argv):
        assert run(capsys, "draw", *argv, "-o", tmp_path / "t.svg")[0] == 0
        return next(ET.parse(tmp_path / "t.svg").getroot().iter(f"{SVG}text")).text

    assert title(EXAMPLES / "leetcode1.json") == "leetcode1.json: a draw"
    assert title(EXAMPLES / "leetcode2.json") == "leetcode2.json: the mouse wins in 1 move"


def test_a_solve_of_a_second_or_more_says_how_long_it_took(capsys, monkeypatch):
    from types import SimpleNamespace

    from catmouse.cli import commands

    clock = iter([10.0, 11.0])
    monkeypatch.setattr(commands, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    code, _, err = run(capsys, "solve", EXAMPLES / "leetcode2.json")
    assert code == 0 and "solved 32 positions in 1.00 s" in err


def test_a_failing_png_converter_is_one_line_naming_the_file(tmp_path, capsys, monkeypatch):
    from catmouse.show import png

    def fails(*args, **kwargs):
        raise RuntimeError("the converter stopped")

    monkeypatch.setattr(png, "find_converter", lambda: ["no-such-converter"])
    monkeypatch.setattr(png, "write_png", fails)
    target = tmp_path / "t.png"
    code, _, err = run(capsys, "draw", EXAMPLES / "leetcode2.json", "-o", target)
    assert code == 1 and err.strip().endswith(f"cannot write {target}: the converter stopped")
    assert len(err.strip().splitlines()) == 1


def test_an_empty_grid_file_is_named(tmp_path, capsys):
    grid = tmp_path / "grid.txt"
    grid.write_text("\n  \n")
    code, _, err = run(capsys, "cat-mouse-ii", grid)
    assert code == 1 and err.strip().endswith(f"{grid}: the grid file is empty")


def test_draw_shows_the_games_own_rules(capsys, tmp_path):
    """The command line's picture left out what catmouse.draw shows: the cat's goals (no
    shading, no legend entry), that the cat moves on a graph of its own, and that the rules
    score an endless game as a win (the title said "the mouse wins" and the line "goes round
    forever")."""
    goals = tmp_path / "goals.svg"
    code, _, _ = run(capsys, "draw", EXAMPLES / "chase.edges", "--mouse", 3, "--cat", 7,
                     "--cat-goals", "5,6", "-o", goals)
    assert code == 0 and "cat goal" in goals.read_text() and "#f7c9b4" in goals.read_text()
    board, moves = tmp_path / "m.edges", tmp_path / "c.edges"
    board.write_text("0 1\n1 2\n2 3\n3 4\n4 0\n0 2\n")
    moves.write_text("0 3\n1 3\n1 4\n2 4\n2 0\n")
    own = tmp_path / "own.svg"
    assert run(capsys, "draw", board, "--cat-graph", moves, "--mouse", 3, "--cat", 4,
               "-o", own)[0] == 0
    assert "(the cat moves on a graph of its own, not drawn)" in own.read_text()
    endless = tmp_path / "endless.svg"
    assert run(capsys, "draw", EXAMPLES / "square.json", "--holes", "", "--mouse-stays",
               "--cat-stays", "--draw", "mouse", "--first", "cat", "--mouse", 0, "--cat", 2,
               "-o", endless)[0] == 0
    assert "(the rules count an endless game as the mouse&#x27;s win)" in endless.read_text()


def test_draw_of_a_start_that_ends_the_game_says_no_one_moves(capsys, tmp_path):
    """The command line's picture of a start in the hole said "the mouse moves first"."""
    board = tmp_path / "square.edges"
    board.write_text("0 1\n1 2\n2 3\n3 0\n")
    out = tmp_path / "over.svg"
    assert run(capsys, "draw", board, "--mouse", 0, "--cat", 2, "-o", out)[0] == 0
    assert "mouse starts on 0, cat on 2, hole 0; no one moves" in out.read_text()
    assert "moves first" not in out.read_text()
    assert run(capsys, "draw", board, "--mouse", 1, "--cat", 2, "-o", out)[0] == 0
    assert "hole 0; the mouse moves first" in out.read_text()


def test_draw_to_dash_writes_the_svg_to_standard_output(tmp_path, monkeypatch, capsysbinary):
    """``draw -o -`` was refused ("draw writes .svg") while ``play --html -`` and
    ``analyze -o -`` write to standard output: the same picture as ``-o x.svg``, the "wrote"
    line on stderr, and no file named '-'."""
    monkeypatch.chdir(tmp_path)
    board = EXAMPLES / "chase.edges"
    assert main(["draw", str(board), "--mouse", "3", "--cat", "7", "-o", "-"]) == 0
    out, err = capsysbinary.readouterr()
    assert err.decode().startswith("wrote <stdout>: the cat wins")
    assert main(["draw", str(board), "--mouse", "3", "--cat", "7", "-o", "x.svg"]) == 0
    capsysbinary.readouterr()
    assert out == (tmp_path / "x.svg").read_bytes()
    assert out.startswith(b"<svg") and sorted(os.listdir(tmp_path)) == ["x.svg"]
