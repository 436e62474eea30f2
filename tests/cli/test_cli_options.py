"""The whole package from the command line: game options, export, families, stdin, progress."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import catmouse
from catmouse import Game, Outcome, Turn, cat_mouse_ii, is_cop_win
from catmouse import engine as selector
from catmouse.cli.commands import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
SQUARE = [[1, 3], [0, 2], [1, 3], [0, 2]]
SVG = "{http://www.w3.org/2000/svg}"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, name, value):
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value))
    return path


def solve_json(capsys, *argv):
    code, out, err = run(capsys, "solve", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


# -- game options -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "game_kwargs"),
    [
        ([], {}),
        (["--holes", ""], {"holes": ()}),
        (["--holes", "", "--mouse-stays"], {"holes": (), "mouse_stays": True}),
        (["--holes", "", "--mouse-stays", "--cat-stays", "--draw", "mouse", "--first", "cat"],
         {"holes": (), "mouse_stays": True, "cat_stays": True, "draw": Outcome.MOUSE_WIN,
          "first": Turn.CAT}),
        (["--holes", "0,4", "--cat-forbidden", "0", "--cat-goals", "5"],
         {"holes": (0, 4), "cat_forbidden": (0,), "cat_goals": (5,)}),
        (["--draw", "cat", "--first", "cat"], {"draw": Outcome.CAT_WIN, "first": Turn.CAT}),
    ],
)
def test_game_options_match_the_game_api(tmp_path, capsys, options, game_kwargs):
    path = write(tmp_path, "g.json", EXAMPLE)
    game = Game(EXAMPLE, **game_kwargs)
    analysis = game.analyze()
    for mouse, cat in [(1, 2), (3, 4), (5, 1)]:
        if cat in game.cat_forbidden:
            continue
        data = solve_json(capsys, path, "--mouse", mouse, "--cat", cat, *options)
        assert data["outcome"] == game.solve(mouse, cat).name
        assert data["remoteness"] == analysis.remoteness(mouse, cat)
        assert data["first"] == game.first.name and data["holes"] == list(game.holes)
        assert [(s["mouse"], s["cat"], s["turn"]) for s in data["line"]] == [
            (m, c, t.name) for m, c, t in analysis.line(mouse, cat)]
    # The text output says the rules that differ from LeetCode's.
    code, out, _ = run(capsys, "solve", path, *options)
    assert code == 0
    if game.first == Turn.CAT:
        assert "the cat moves first" in out
    if game.mouse_stays:
        assert "rules: " in out and "the mouse may stay put" in out
    if game.cat_goals:
        assert "the cat wins on reaching 5" in out


def test_cat_graph_file(tmp_path, capsys):
    # The cat jumps two steps along the 6-cycle; the mouse walks.
    cycle = [[(u - 1) % 6, (u + 1) % 6] for u in range(6)]
    jumps = [[(u - 2) % 6, (u + 2) % 6] for u in range(6)]
    mouse_file = write(tmp_path, "walk.json", cycle)
    cat_file = write(tmp_path, "jump.json", jumps)
    game = Game(cycle, cat_graph=jumps, holes=(), cat_stays=True)
    for mouse, cat in [(0, 3), (1, 2), (4, 0)]:
        data = solve_json(capsys, mouse_file, "--cat-graph", cat_file, "--holes", "",
                          "--cat-stays", "--mouse", mouse, "--cat", cat)
        assert data["outcome"] == game.solve(mouse, cat).name
    code, _, err = run(capsys, "solve", mouse_file, "--cat-graph",
                       write(tmp_path, "small.json", [[1], [0]]))
    assert code == 1 and "cat_graph has 2 nodes" in err and err.count("\n") == 1


def test_game_option_errors_are_one_line(tmp_path, capsys):
    path = write(tmp_path, "g.json", EXAMPLE)
    for argv, message in [
        (["--holes", "0,9"], "holes names node 9"),
        (["--hole", "0", "--holes", "1"], "give --hole or --holes, not both"),
        (["--cat-goals", "0"], "both a cat goal and forbidden"),
    ]:
        code, out, err = run(capsys, "solve", path, *argv)
        assert code == 1 and out == "" and message in err and err.count("\n") == 1, argv
    code, _, err = run(capsys, "solve", path, "--holes", "a,b")
    assert code == 1 and "holes names node a, which is not in the graph" in err


def test_analyze_and_draw_take_the_game_options(tmp_path, capsys):
    path = write(tmp_path, "g.json", EXAMPLE)
    options = ["--holes", "0,4", "--cat-stays", "--first", "cat"]
    game = Game(EXAMPLE, holes=(0, 4), cat_stays=True, first=Turn.CAT)
    out_path = tmp_path / "t.json"
    code, _, _ = run(capsys, "analyze", path, "-o", out_path, *options)
    assert code == 0
    data = json.loads(out_path.read_text())
    assert data["outcomes"] == game.analyze().outcomes.tolist()
    assert data["holes"] == [0, 4] and data["first"] == "CAT"
    svg = tmp_path / "g.svg"
    code, out, _ = run(capsys, "draw", path, "-o", svg, "--mouse", 3, "--cat", 2, *options)
    assert code == 0 and "wrote" in out
    texts = [t.text or "" for t in ET.parse(svg).getroot().iter(f"{SVG}text")]
    assert any("holes 0, 4; the cat moves first" in t for t in texts)


# -- export -------------------------------------------------------------------------------------


def read_csv(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def check_csv_rows(rows, analysis):
    n = analysis.n
    forbidden = set(Game(EXAMPLE).cat_forbidden)
    assert len(rows) == sum(analysis.counts().values()) == 2 * n * (n - len(forbidden))
    for row in rows:
        mouse, cat, turn = int(row["mouse"]), int(row["cat"]), Turn[row["turn"]]
        assert row["outcome"] == analysis.outcome(mouse, cat, turn).name
        plies = analysis.remoteness(mouse, cat, turn)
        assert row["remoteness"] == ("" if plies is None else str(plies))
        assert row["best_moves"] == " ".join(map(str, analysis.best_moves(mouse, cat, turn)))


def test_analyze_writes_csv_for_a_csv_suffix(tmp_path, capsys):
    # "-o table.csv" used to write JSON into the file.
    path = write(tmp_path, "g.json", EXAMPLE)
    out_path = tmp_path / "table.CSV"
    code, out, _ = run(capsys, "analyze", path, "-o", out_path)
    assert code == 0 and "wrote" in out
    assert out_path.read_text().splitlines()[0] == \
        "mouse,cat,turn,outcome,remoteness,best_moves"
    check_csv_rows(read_csv(out_path), catmouse.analyze(EXAMPLE))


@pytest.mark.parametrize("name", ["table.txt", "table", "table.svg", "table.json.gz"])
def test_analyze_refuses_a_suffix_it_cannot_write(tmp_path, capsys, name):
    path = write(tmp_path, "g.json", EXAMPLE)
    code, out, err = run(capsys, "analyze", path, "-o", tmp_path / name)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "use a name ending in .json, .npz, .csv" in err
    assert not (tmp_path / name).exists()


def test_analysis_save_and_to_json(tmp_path, use_engine):
    analysis = Game(EXAMPLE, cat_goals=(5,), first=Turn.CAT).analyze()
    data = json.loads(analysis.to_json())
    assert data["outcomes"] == analysis.outcomes.tolist()
    assert data["remoteness"] == analysis.remoteness_table.tolist()
    assert (data["n"], data["holes"], data["cat_goals"], data["first"]) == (6, [0], [5], "CAT")
    analysis.save(tmp_path / "t.json")
    assert json.loads((tmp_path / "t.json").read_text()) == data
    plain = catmouse.analyze(EXAMPLE)
    plain.save(str(tmp_path / "t.csv"))
    check_csv_rows(read_csv(tmp_path / "t.csv"), plain)
    with pytest.raises(ValueError, match="use a name ending in"):
        analysis.save(tmp_path / "t.xlsx")


def test_analysis_save_npz(tmp_path):
    np = pytest.importorskip("numpy")
    analysis = catmouse.analyze(EXAMPLE, hole=3)
    analysis.save(tmp_path / "t.npz")
    data = np.load(tmp_path / "t.npz")
    assert (data["outcomes"] == np.asarray(analysis.outcomes)).all()
    assert (data["remoteness"] == np.asarray(analysis.remoteness_table)).all()
    assert int(data["hole"]) == 3 and data["holes"].tolist() == [3]


def test_analysis_save_npz_without_numpy(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(ImportError, match="needs numpy"):
        catmouse.analyze(EXAMPLE).save(tmp_path / "t.npz")
    assert not (tmp_path / "t.npz").exists()


# -- the families, --version, stdin -------------------------------------------------------------


def test_cop_win(tmp_path, capsys):
    for graph, expected in [(SQUARE, False), ([[1, 2], [0, 2], [0, 1, 3], [2]], True)]:
        path = write(tmp_path, "g.json", graph)
        code, out, _ = run(capsys, "cop-win", path)
        assert code == 0
        assert out.startswith(f"{path}: cop-win" if expected else f"{path}: not cop-win")
        assert is_cop_win(graph) is expected
    code, _, err = run(capsys, "cop-win", write(tmp_path, "split.edges", "0 1\n2 3\n"))
    assert code == 1 and err.count("\n") == 1 and "connected" in err


@pytest.mark.parametrize(("grid", "cat_jump", "mouse_jump"), [
    (["####F", "#C...", "M...."], 1, 2),
    (["M.C...F"], 1, 4),
    (["M.C...F"], 1, 3),
    (["C...#", "...#F", "....#", "M...."], 2, 5),
])
def test_cat_mouse_ii(tmp_path, capsys, grid, cat_jump, mouse_jump):
    path = write(tmp_path, "grid.txt", "\n".join(grid) + "\n")
    code, out, _ = run(capsys, "cat-mouse-ii", path, "--cat-jump", cat_jump,
                       "--mouse-jump", mouse_jump)
    assert code == 0
    verdict = "the mouse wins" if cat_mouse_ii(grid, cat_jump, mouse_jump) else "the cat wins"
    assert out.startswith(f"{path}: {verdict}")


def cli(*argv, stdin=None):
    return subprocess.run([sys.executable, "-m", "catmouse", *map(str, argv)], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_version():
    done = cli("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"catmouse {catmouse.__version__}"


def test_stdin_for_every_command(tmp_path):
    edges = "0 1\n1 2\n2 3\n3 0\n"
    done = cli("analyze", "-", "-o", tmp_path / "t.csv", stdin=edges)
    assert done.returncode == 0, done.stderr
    assert len(read_csv(tmp_path / "t.csv")) == 2 * 4 * 3
    done = cli("cop-win", "-", stdin=edges)
    assert done.returncode == 0 and done.stdout.startswith("<stdin>: not cop-win")
    done = cli("cat-mouse-ii", "-", "--mouse-jump", "2", stdin="####F\n#C...\nM....\n")
    assert done.returncode == 0 and done.stdout.startswith("<stdin>: the mouse wins")
    done = cli("solve", "-", "--json", "--format", "graph6", stdin="Bw\nC~\n")
    assert done.returncode == 0, done.stderr
    assert [d["nodes"] for d in json.loads(done.stdout)] == [3, 4]



@pytest.mark.parametrize("argv", [["solve", "-"], ["analyze", "-", "-o", "{tmp}/t.csv"],
                                  ["draw", "-", "-o", "{tmp}/t.svg"], ["cop-win", "-"],
                                  ["cop-number", "-"], ["cop-play", "-"], ["cat-mouse-ii", "-"],
                                  ["solve", "{square}", "--cat-graph", "-"],
                                  ["play", "{square}"], ["cop-play", "{square}"]])
def test_a_closed_stdin_is_one_line(tmp_path, capsys, monkeypatch, argv):
    """Python's stdin is None when the process starts with it closed (``<&-``): reading a
    graph from '-', or the moves of a game, was an AttributeError's traceback."""
    square = write(tmp_path, "square.json", SQUARE)
    monkeypatch.setattr(sys, "stdin", None)
    argv = [a.format(tmp=tmp_path, square=square) for a in argv]
    assert run(capsys, *argv) == (1, "", "catmouse: error: cannot read <stdin>: standard "
                                         "input is closed\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["square.json"]
    # A page (--html) reads no moves: stdin is not needed.
    if argv[0] == "cop-play" and argv[1] != "-":
        assert main(["cop-play", str(square), "--html", str(tmp_path / "p.html")]) == 0


@pytest.mark.skipif(sys.platform == "win32", reason="<&- is a POSIX shell's")
def test_a_closed_stdin_in_a_real_process():
    done = subprocess.run(["sh", "-c", f"{sys.executable} -m catmouse solve - <&-"],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "catmouse: error: cannot read <stdin>: standard input is closed\n"


# -- progress -----------------------------------------------------------------------------------


def test_cli_draws_a_bar_when_the_engine_reports_progress(tmp_path, capsys, monkeypatch):
    import catmouse.cli.commands as cli_module

    real = selector.current.propagate

    def reporting(*args, progress=None, **kwargs):
        decided = real(*args, **kwargs)
        if progress is not None:
            for done in (decided // 3, decided // 2, decided):
                progress(done)
        return decided

    monkeypatch.setattr(selector, "current", dataclasses.replace(selector.current,
                                                              propagate=reporting))
    monkeypatch.setattr(cli_module, "PROGRESS_DELAY", 0.0)
    path = write(tmp_path, "g.json", EXAMPLE)
    code, out, err = run(capsys, "solve", path)
    assert code == 0 and "outcome: a draw" in out
    assert err.startswith("solving [") and err.rstrip("\n").endswith("/72") and "\r" not in err
    # With the usual delay a quick solve shows no bar.
    monkeypatch.setattr(cli_module, "PROGRESS_DELAY", 60.0)
    code, _, err = run(capsys, "solve", path)
    assert code == 0 and err == ""


def test_export_of_an_outcomes_only_analysis(tmp_path):
    analysis = catmouse.analyze(EXAMPLE, remoteness=False)
    data = json.loads(analysis.to_json())
    assert data["remoteness"] is None and data["outcomes"] == analysis.outcomes.tolist()
    analysis.save(tmp_path / "t.csv")
    rows = read_csv(tmp_path / "t.csv")
    assert len(rows) == 60 and all(row["remoteness"] == "" for row in rows)
    full = catmouse.analyze(EXAMPLE)
    assert [row["outcome"] for row in rows] == [row["outcome"] for row in
                                                (full.save(tmp_path / "f.csv"),
                                                 read_csv(tmp_path / "f.csv"))[1]]


# -- what each command prints, word for word ------------------------------------------------


def test_analyze_reports_positions_nodes_and_counts(tmp_path, capsys):
    path = write(tmp_path, "g.json", EXAMPLE)
    out_path = tmp_path / "t.json"
    code, out, err = run(capsys, "analyze", path, "-o", out_path)
    assert code == 0 and err == ""
    counts = catmouse.analyze(EXAMPLE).counts()
    assert out == (f"wrote {out_path}: 60 positions of 6 nodes (2 x 6 x 6 less the 12 with the "
                   "cat on a node it may not enter): "
                   f"{counts[Outcome.MOUSE_WIN]} mouse wins, {counts[Outcome.CAT_WIN]} cat wins, "
                   f"{counts[Outcome.DRAW]} draws\n")


def test_analyze_npz_without_numpy_refuses_before_reading(tmp_path, capsys, monkeypatch):
    # The missing numpy is named even when the graph file is missing too: nothing is read.
    monkeypatch.setitem(sys.modules, "numpy", None)
    code, out, err = run(capsys, "analyze", tmp_path / "missing.json", "-o", tmp_path / "t.npz")
    assert code == 1 and out == ""
    assert err == ("catmouse: error: writing .npz needs numpy (pip install numpy); "
                   "or write a .json or .csv file\n")
    assert not (tmp_path / "t.npz").exists()


def test_solve_names_the_rules_that_differ(tmp_path, capsys):
    path = write(tmp_path, "g.json", EXAMPLE)
    _, out, _ = run(capsys, "solve", path)
    assert "rules:" not in out  # LeetCode 913's rules
    _, out, _ = run(capsys, "solve", path, "--cat-stays")
    assert "\nrules: the cat may stay put\n" in out
    _, out, _ = run(capsys, "solve", path, "--cat-stays", "--mouse-stays")
    assert "\nrules: the mouse may stay put; the cat may stay put\n" in out


@pytest.mark.parametrize(("options", "ending"), [
    # One-way path 0 -> 1 -> 2 -> 3 -> 4, no hole: whoever stands on 4 is stuck.
    (["--mouse", 4, "--cat", 0], "the mouse cannot move, and loses"),
    (["--mouse", 1, "--cat", 4, "--first", "cat"], "the cat cannot move, and loses"),
])
def test_solve_says_who_cannot_move(tmp_path, capsys, options, ending):
    path = write(tmp_path, "path.edges", "0 1\n1 2\n2 3\n3 4\n")
    code, out, _ = run(capsys, "solve", path, "--directed", "--holes", "", *options)
    assert code == 0
    assert "remoteness: the game is over before it starts" in out
    assert out.endswith(f"  end: {ending}\n")
    data = solve_json(capsys, path, "--directed", "--holes", "", *options)
    assert data["ending"] == ending and len(data["line"]) == 1


def test_solve_ends_a_draw_where_a_player_stays_put(tmp_path, capsys):
    # The cat alone on node 2 can only stay; the mouse walks 0 -> 1 -> 0 forever.
    path = write(tmp_path, "g.json", [[1], [0], []])
    argv = [path, "--mouse", 0, "--cat", 2, "--holes", "", "--cat-stays"]
    code, out, _ = run(capsys, "solve", *argv)
    assert code == 0 and "outcome: a draw" in out and "cat   stays on 2" in out
    ending = "then the cat stays on 2 and repeats a position: the game goes round forever"
    assert out.endswith(f"  end: {ending}\n")
    assert solve_json(capsys, *argv)["ending"] == ending
    # A move, not a stay, repeats the position here.
    _, out, _ = run(capsys, "solve", path, "--mouse", 2, "--cat", 0, "--holes", "",
                    "--mouse-stays")
    assert out.endswith("  end: then cat 1 -> 0 repeats a position: the game goes round forever\n")


@pytest.mark.parametrize("command", ["solve", "draw", "play"])
def test_a_start_that_is_no_position_is_a_bad_start(tmp_path, capsys, monkeypatch, command):
    path = write(tmp_path, "g.json", EXAMPLE)
    extra = {"solve": [], "draw": ["-o", tmp_path / "g.svg"],
             "play": ["--html", tmp_path / "g.html"]}[command]
    # Named by file, and said before the search (it came after the whole analysis).
    monkeypatch.setattr(catmouse.Game, "analyze", lambda *a, **k: pytest.fail("solved first"))
    code, out, err = run(capsys, command, path, "--cat", 0, *extra)
    assert code == 1 and out == ""
    assert err == (f"catmouse: error: {path}: bad start: no such position: "
                   "the cat cannot be on node 0 (the hole)\n")
    assert not list(tmp_path.glob("g.svg")) and not list(tmp_path.glob("g.html"))


def test_an_interrupt_is_one_line_and_status_130(tmp_path, capsys, monkeypatch):
    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Game, "analyze", interrupted)
    code, out, err = run(capsys, "solve", write(tmp_path, "g.json", EXAMPLE))
    assert code == 130 and out == "" and err == "catmouse: error: interrupted\n"


def test_cat_mouse_ii_jumps_default_to_one(tmp_path, capsys):
    # LeetCode 1728's first example: the mouse wins with jump 2, not with jump 1.
    grid = ["####F", "#C...", "M...."]
    assert not cat_mouse_ii(grid, 1, 1) and cat_mouse_ii(grid, 1, 2)
    path = write(tmp_path, "grid.txt", "\n".join(grid) + "\n")
    code, out, _ = run(capsys, "cat-mouse-ii", path)
    assert code == 0
    assert out == f"{path}: the cat wins (cat jump 1, mouse jump 1, at most 1000 moves)\n"
    code, out, _ = run(capsys, "cat-mouse-ii", path, "--mouse-jump", 2)
    assert out.startswith(f"{path}: the mouse wins (cat jump 1, mouse jump 2,")


@pytest.mark.parametrize(("side", "human"), [([], Turn.MOUSE), (["--as", "mouse"], Turn.MOUSE),
                                             (["--as", "cat"], Turn.CAT)])
def test_play_html_for_either_side(tmp_path, capsys, side, human):
    page = tmp_path / "game.html"
    code, out, err = run(capsys, "play", write(tmp_path, "g.json", EXAMPLE), "--html", page,
                         *side)
    assert code == 0 and err == ""
    name = "mouse" if human == Turn.MOUSE else "cat"
    assert out == f"wrote {page}: open it in a browser and play the {name} against the solver\n"
    assert f'"human":{int(human)}' in page.read_text(encoding="utf-8")


def test_the_cat_graph_file_is_named_in_its_own_errors_and_notes(tmp_path, capsys):
    """A fault in --cat-graph's file was blamed on the mouse's graph file (its line 2, which
    is fine), and its missing ids came as Python's warning with a source line."""
    mouse_file = write(tmp_path, "walk.json", SQUARE)
    bad = write(tmp_path, "bad.edges", "0 1\n1 2 3\n")
    code, out, err = run(capsys, "solve", mouse_file, "--cat-graph", bad)
    assert (code, out) == (1, "")
    assert err == f"catmouse: error: {bad}: line 2: expected 'u v', got '1 2 3'\n"
    code, out, err = run(capsys, "analyze", mouse_file, "--cat-graph", tmp_path,
                         "-o", tmp_path / "t.csv")
    assert (code, out) == (1, "") and err.startswith(f"catmouse: error: cannot read {tmp_path}: ")
    code, _, err = run(capsys, "draw", mouse_file, "--cat-graph", tmp_path / "none.json",
                       "-o", tmp_path / "t.svg")
    assert (code, err) == (1, f"catmouse: error: cannot read {tmp_path / 'none.json'}: "
                              "no such file\n")
    gap = write(tmp_path, "gap.edges", "0 1\n1 3\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning escaping notes() fails
        code, out, err = run(capsys, "solve", mouse_file, "--cat-graph", gap, "--cat", 3)
    assert code == 0 and "the cat moves on" in out
    assert err.startswith("catmouse: note: the edge list names no node 2 ") and err.count("\n") == 1


@pytest.mark.parametrize("command", ["solve", "cop-win", "cop-number", "cop-play", "analyze"])
def test_an_error_in_stdin_names_it_stdin(tmp_path, capsys, monkeypatch, command):
    # Errors in '-' began '-:' (the argument), where every answer says '<stdin>'.
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"0 1 2\n")))
    argv = [command, "-"] + (["-o", tmp_path / "t.csv"] if command == "analyze" else [])
    assert run(capsys, *argv) == (1, "", "catmouse: error: <stdin>: line 1: expected 'u v', "
                                         "got '0 1 2'\n")
