"""catmouse.draw, the notebook display of Graph/Game/Analysis, and ``draw -o`` PNG/SVG."""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

import catmouse
from catmouse import Game, Graph, Outcome, Turn
from catmouse.cli.commands import main
from catmouse.show.draw import LEGIBLE_NODES
from catmouse.show.words import outcome_words

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SVG = "{http://www.w3.org/2000/svg}"
LEETCODE1 = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
CHASE = catmouse.io.graph_files.read_graph(str(EXAMPLES / "chase.edges")).graph


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def move_numbers(root: ET.Element) -> list[int]:
    """The numbered move labels: bold white text on a coloured disc."""
    return sorted(int(t.text) for t in root.iter(f"{SVG}text")
                  if t.get("font-weight") == "bold" and t.get("fill") == "white")


def test_draw_graph_shows_the_optimal_game():
    svg = catmouse.draw(CHASE, mouse=3, cat=7)
    root = parse(svg)
    a = catmouse.analyze(CHASE)
    line = a.line(3, 7)
    assert move_numbers(root) == list(range(1, len(line)))
    assert outcome_words(a.outcome(3, 7), a.remoteness(3, 7)) == "the cat wins in 12 moves"
    assert "the cat wins in 12 moves" in svg
    assert "the cat catches the mouse on node 5" in svg
    # It scales: a viewBox, and no wider than its container.
    assert re.match(r"0 0 \d+ \d+$", root.get("viewBox"))
    assert "max-width: 100%" in root.get("style")


def test_draw_takes_lists_games_and_analyses():
    assert "a draw: neither side can force a win" in catmouse.draw(LEETCODE1)
    square = [[1, 3], [0, 2], [1, 3], [0, 2]]
    game = Game(square, holes=(), mouse_stays=True, cat_goals=(3,), first=Turn.CAT)
    svg = catmouse.draw(game, mouse=0, cat=2)
    a = game.analyze()
    assert outcome_words(a.outcome(0, 2, Turn.CAT), a.remoteness(0, 2, Turn.CAT)) in svg
    assert "the cat moves first" in svg and "cat goal" in svg and ">hole<" not in svg
    analysis = catmouse.analyze([[1, 3], [0], [3], [0, 2]])
    svg = catmouse.draw(analysis)
    assert "the mouse wins in 1 move" in svg and "the mouse reaches the hole (node 0)" in svg
    assert move_numbers(parse(catmouse.draw(analysis, line=False))) == []
    assert "the mouse wins" in catmouse.draw(analysis, 1, 2, turn=Turn.MOUSE)


def test_a_start_that_ends_the_game_says_no_one_moves():
    """From a start in the hole, on the cat, or with the cat on its goal, nobody moves: the
    subtitle said "the mouse moves first" there.  A stuck mover still moves first (and loses)."""
    square = [[1, 3], [0, 2], [1, 3], [0, 2]]
    goal = Game(square, holes=(), cat_goals=(3,))
    stuck = Game([[], [2], [1]], holes=(), cat_goals=())
    for obj, mouse, cat in ((square, 0, 2), (square, 2, 2), (goal, 0, 3)):
        svg = catmouse.draw(obj, mouse=mouse, cat=cat)
        assert f"mouse starts on {mouse}, cat on {cat}; no one moves" in svg, (mouse, cat)
        assert "moves first" not in svg
    svg = catmouse.draw(stuck, mouse=0, cat=1)
    assert "the mouse moves first" in svg and "the mouse cannot move" in svg
    labelled = Graph({"den": ["hall"], "hall": ["den", "attic"], "attic": ["hall"]})
    svg = catmouse.draw(labelled, mouse="den", cat="attic", hole="den")
    assert "no one moves" in svg


def test_draw_an_outcomes_only_analysis():
    analysis = catmouse.analyze(CHASE, remoteness=False)
    svg = catmouse.draw(analysis, 3, 7)
    assert "the cat wins" in svg and "12 moves" not in svg
    assert move_numbers(parse(svg)) == []
    assert "<svg" in analysis._repr_html_()


def test_draw_errors_name_the_problem():
    expected = "adjacency lists, a Graph, a GraphFile, a Game or an Analysis"
    with pytest.raises(TypeError, match=expected):
        catmouse.draw("0 1")
    with pytest.raises(ValueError, match="cat cannot be on node 0"):
        catmouse.draw(LEETCODE1, mouse=1, cat=0)
    with pytest.raises(ValueError, match="hole= applies to a graph"):
        catmouse.draw(Game(LEETCODE1), hole=3)
    with pytest.raises(ValueError, match="not in a graph of 6 nodes"):
        catmouse.draw(LEETCODE1, mouse=9)


def test_pictures_on_one_page_keep_their_own_markers():
    ids = [set(re.findall(r'<marker id="([^"]+)"', catmouse.draw(LEETCODE1))) for _ in range(2)]
    assert ids[0] and not ids[0] & ids[1]


def test_notebook_display_small_boards():
    for obj in (Graph(LEETCODE1), Game(LEETCODE1, holes=(0, 4)), catmouse.analyze(LEETCODE1)):
        svg = obj._repr_svg_()
        parse(svg)
        html = obj._repr_html_()
        assert "<svg" in html and "max-width" in html
    # A Game draws its own holes.
    root = parse(Game(LEETCODE1, holes=(0, 4))._repr_svg_())
    dark = [c for c in root.iter(f"{SVG}circle") if c.get("fill") == "#2d333b"
            and c.get("stroke") is not None]
    assert len(dark) == 2


def test_notebook_display_big_boards_is_a_summary():
    n = LEGIBLE_NODES + 1
    big = Graph.from_edges(n, [(i, i + 1) for i in range(n - 1)])
    for obj in (big, Game(big), catmouse.analyze(big)):
        assert obj._repr_svg_() is None
        html = obj._repr_html_()
        assert "<svg" not in html and f"{n:,} nodes" in html and "not drawn" in html
    counts = catmouse.analyze(big).counts()
    assert f"{counts[Outcome.CAT_WIN]:,} by the cat" in catmouse.analyze(big)._repr_html_()
    # Edges count too: a dense board of few nodes is no more legible.
    dense = Graph([[v for v in range(40) if v != u] for u in range(40)])
    assert dense._repr_svg_() is None


def test_notebook_display_tiny_boards():
    assert Graph([])._repr_svg_() is None
    assert "0 nodes, 0 edges" in Graph([])._repr_html_()
    assert "1 node, 0 edges" in Graph([[]])._repr_html_()  # (was "1 nodes")
    assert "2 nodes, 1 edge<" in Graph([[1], [0]])._repr_html_()
    for graph in (Graph([[]]), Graph([[1], [0]])):
        parse(graph._repr_svg_())  # the board alone: no start to play from


def test_ipython_picks_up_the_display():
    formatters = pytest.importorskip("IPython.core.formatters")
    data, _ = formatters.DisplayFormatter().format(Graph(LEETCODE1))
    assert {"text/plain", "text/html", "image/svg+xml"} <= set(data)
    assert data["text/plain"] == repr(Graph(LEETCODE1))


# -- draw -o ----------------------------------------------------------------------------


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_draw_png_with_the_converter_found(tmp_path, capsys):
    from catmouse.show.png import find_converter

    found = find_converter()
    if found is None:
        pytest.skip("no PNG converter here (rsvg-convert, cairosvg or chromium)")
    out = tmp_path / "game.png"
    assert main(["draw", str(EXAMPLES / "chase.edges"), "--mouse", "3", "--cat", "7",
                 "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    svg = tmp_path / "game.svg"
    assert main(["draw", str(EXAMPLES / "chase.edges"), "--mouse", "3", "--cat", "7",
                 "-o", str(svg)]) == 0
    view = parse(svg.read_text()).get("viewBox").split()
    width, height = png_size(out)
    if found[0] in ("rsvg-convert", "cairosvg", "chromium"):
        assert (width, height) == (int(view[2]), int(view[3]))


def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of RGB(A) pixels of an 8-bit, non-interlaced PNG."""
    data = path.read_bytes()
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    chunks, at = [], 8
    while at < len(data):
        size, kind = struct.unpack(">I4s", data[at : at + 8])
        if kind == b"IDAT":
            chunks.append(data[at + 8 : at + 8 + size])
        at += 12 + size
    raw = zlib.decompress(b"".join(chunks))
    step = 3 if colour == 2 else 4
    stride = width * step
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):  # undo the row's filter (PNG spec, section 9)
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                best = min((abs(p - left), 0, left), (abs(p - up), 1, up),
                           (abs(p - corner), 2, corner))[2]
                line[i] = (line[i] + best) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, [bytes(r[x : x + 3]) for r in rows for x in range(0, stride, step)]


@pytest.mark.parametrize("name", ["rsvg-convert", "cairosvg", "chromium"])
def test_each_png_converter_draws_the_picture(tmp_path, name):
    """Every converter present writes the picture at its size, on white, in its colours."""
    from catmouse.show.png import converters, write_png

    found = dict(converters())
    if name not in found:
        pytest.skip(f"{name} is not installed here")
    svg_path = tmp_path / "game.svg"
    assert main(["draw", str(EXAMPLES / "chase.edges"), "--mouse", "3", "--cat", "7",
                 "-o", str(svg_path)]) == 0
    svg = svg_path.read_text()
    view = [int(float(v)) for v in parse(svg).get("viewBox").split()[2:]]
    out = tmp_path / "game.png"
    assert write_png(svg, str(out), view[0], view[1], (name, found[name])) == name
    width, height, pixels = png_pixels(out)
    assert (width, height) == tuple(view)
    white = pixels.count(b"\xff\xff\xff")
    assert pixels[0] == b"\xff\xff\xff"  # a white background, not a transparent black one
    assert white < 0.97 * len(pixels)  # something is drawn
    assert len(set(pixels)) > 20  # in colour, antialiased: not a blank or one-colour page


def test_draw_png_refused_without_a_converter(tmp_path, capsys, monkeypatch):
    import catmouse.show.png

    monkeypatch.setattr(catmouse.show.png, "find_converter", lambda: None)
    out = tmp_path / "p.png"
    assert main(["draw", str(EXAMPLES / "chase.edges"), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "PNG needs a converter" in err
    for option in ("rsvg-convert", "cairosvg", "chromium", "write .svg"):
        assert option in err
    assert not out.exists()


@pytest.mark.parametrize("name", ["p.pdf", "p.jpg", "p", "p.svg.txt"])
def test_draw_refuses_other_suffixes(tmp_path, capsys, name):
    out = tmp_path / name
    assert main(["draw", str(EXAMPLES / "chase.edges"), "-o", str(out)]) == 1
    assert "draw writes .svg, or .png" in capsys.readouterr().err
    assert not out.exists()


def test_draw_svg_suffix_any_case(tmp_path):
    out = tmp_path / "P.SVG"
    assert main(["draw", str(EXAMPLES / "chase.edges"), "-o", str(out)]) == 0
    parse(out.read_text())


# -- converters, faked: which is chosen, what it is given, how failures read ------------------

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def fake_program(folder: Path, name: str, body: str) -> str:
    """An executable Python script standing in for a converter program."""
    path = folder / name
    path.write_text(f"#!{sys.executable}\nimport sys, os, json, time\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def present(monkeypatch):
    """Pretend exactly these programs are installed (name -> path), cairosvg as told."""
    import catmouse.show.png

    def pretend(programs: dict[str, str], cairosvg: bool = False) -> None:
        monkeypatch.setattr(shutil, "which", programs.get)
        monkeypatch.setattr(catmouse.show.png, "_cairosvg_loads", lambda: cairosvg)
    return pretend


def test_converters_are_tried_in_order(tmp_path, present):
    from catmouse.show.png import CONVERTER_HELP, converters, find_converter, write_png

    tool = {name: fake_program(tmp_path, name, "sys.exit(0)")
            for name in ("rsvg-convert", "chromium-browser", "google-chrome", "chrome")}
    present(tool, True)
    assert [name for name, _ in converters()] == ["rsvg-convert", "cairosvg", "chromium-browser"]
    assert find_converter()[0] == "rsvg-convert"
    present({"google-chrome": tool["google-chrome"], "chrome": tool["chrome"]}, True)
    assert [name for name, _ in converters()] == ["cairosvg", "google-chrome"]
    assert find_converter()[0] == "cairosvg"
    present({"chrome": tool["chrome"]})
    assert [name for name, _ in converters()] == ["chrome"]
    assert find_converter()[0] == "chrome"
    present({})
    assert converters() == [] and find_converter() is None
    out = tmp_path / "p.png"
    with pytest.raises(RuntimeError, match="writing PNG needs a converter") as caught:
        write_png("<svg/>", str(out), 10, 10)
    assert CONVERTER_HELP in str(caught.value) and not out.exists()


def test_cairosvg_is_listed_only_when_it_loads(monkeypatch):
    """Installed and importable: listed. Not installed, or installed without the cairo C
    library (its import fails with OSError): not listed."""
    import importlib
    import importlib.util
    import types

    from catmouse.show.png import converters

    monkeypatch.setattr(shutil, "which", {}.get)
    real_find_spec = importlib.util.find_spec

    def installed(found: bool, loads: type[BaseException] | None):
        def find_spec(name, *args):
            if name == "cairosvg":
                return real_find_spec("json") if found else None
            return real_find_spec(name, *args)

        def import_module(name, *args):
            assert name == "cairosvg"
            if loads is not None:
                raise loads("no library called cairo-2 was found")
            return types.ModuleType("cairosvg")
        monkeypatch.setattr(importlib.util, "find_spec", find_spec)
        monkeypatch.setattr(importlib, "import_module", import_module)

    installed(True, None)
    assert [name for name, _ in converters()] == ["cairosvg"]
    for found, loads in ((False, None), (True, OSError), (True, ImportError)):
        installed(found, loads)
        assert converters() == [], (found, loads)


def test_an_explicit_converter_is_used(tmp_path, present):
    from catmouse.show.png import write_png

    tool = fake_program(tmp_path, "tool", "sys.exit(1)")
    present({"rsvg-convert": tool})  # present, but not the one asked for
    given = []

    def convert(svg, out, width, height):
        given.append((svg, width, height))
        Path(out).write_bytes(PNG_SIGNATURE + b"picture")

    out = tmp_path / "p.png"
    svg = '<svg xmlns="http://www.w3.org/2000/svg" style="height: auto" width="30"/>'
    assert write_png(svg, str(out), 30, 20, ("mine", convert)) == "mine"
    # The page style (for notebooks) is dropped: cairosvg draws nothing with it.
    assert given == [('<svg xmlns="http://www.w3.org/2000/svg" width="30"/>', 30, 20)]


BROWSER = """
record = {record!r}
shot = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--screenshot="))
page = sys.argv[-1].removeprefix("file://")
with open(record, "w") as handle:
    json.dump({{"argv": sys.argv[1:], "page": open(page).read()}}, handle)
{then}
"""


def test_the_browser_takes_a_screenshot_at_the_pictures_size(tmp_path, present, monkeypatch):
    from catmouse.show.png import write_png

    record = tmp_path / "record.json"
    then = f"open(shot, 'wb').write({PNG_SIGNATURE + b'shot'!r})"
    browser = fake_program(tmp_path, "chromium", BROWSER.format(record=str(record), then=then))
    present({"chromium": browser})
    svg = catmouse.draw(CHASE, mouse=3, cat=7)
    out = tmp_path / "game.png"
    assert write_png(svg, str(out), 762, 610) == "chromium"
    assert out.read_bytes() == PNG_SIGNATURE + b"shot"
    seen = json.loads(record.read_text())
    argv = seen["argv"]
    assert "--headless" in argv and "--window-size=762,610" in argv
    assert "--force-device-scale-factor=1" in argv and "--hide-scrollbars" in argv
    assert ("--no-sandbox" in argv) == (hasattr(os, "geteuid") and os.geteuid() == 0)
    assert argv[-1].startswith("file://") and argv[-1].endswith(".html")
    page = seen["page"]
    assert "margin:0" in page and "<svg" in page and "max-width: 100%" not in page
    assert page.count("<text") == svg.count("<text")
    # Chromium refuses to run as root without --no-sandbox; anyone else keeps the sandbox,
    # and so does a system without user ids.
    for uid, sandboxed in ((0, False), (1000, True), (None, True)):
        if uid is None:
            monkeypatch.delattr(os, "geteuid", raising=False)
        else:
            monkeypatch.setattr(os, "geteuid", lambda uid=uid: uid, raising=False)
        assert write_png(svg, str(out), 762, 610) == "chromium"
        argv = json.loads(record.read_text())["argv"]
        assert ("--no-sandbox" not in argv) == sandboxed, uid


@pytest.mark.parametrize("name", ["rsvg-convert", "chromium"])
def test_a_failing_converter_says_why_and_keeps_quiet(tmp_path, present, capfd, name):
    from catmouse.show.png import write_png

    complaint = "sys.stderr.write('cannot parse the picture\\n'); sys.exit(3)"
    present({name: fake_program(tmp_path, name, complaint)})
    out = tmp_path / "p.png"
    with pytest.raises(RuntimeError, match=f"{name} could not convert the picture: "
                                           r"exit status 3 \(cannot parse the picture\)$"):
        write_png(catmouse.draw(LEETCODE1), str(out), 720, 600)
    assert capfd.readouterr() == ("", "")  # its complaint went into the message only
    assert not out.exists()


def test_a_converter_that_writes_no_png_is_refused(tmp_path, present):
    from catmouse.show.png import write_png

    record = tmp_path / "record.json"
    silent = fake_program(tmp_path, "chromium", BROWSER.format(record=str(record), then=""))
    present({"chromium": silent})
    with pytest.raises(RuntimeError, match="chromium could not convert the picture: .*"
                                           "wrote no screenshot"):
        write_png("<svg/>", str(tmp_path / "p.png"), 10, 10)
    wrong = fake_program(tmp_path, "rsvg-convert",
                         "open(sys.argv[sys.argv.index('-o') + 1], 'w').write('GIF89a')")
    present({"rsvg-convert": wrong})
    with pytest.raises(RuntimeError, match="rsvg-convert did not write a PNG file"):
        write_png("<svg/>", str(tmp_path / "p.png"), 10, 10)


@pytest.mark.parametrize("name", ["rsvg-convert", "chromium"])
def test_a_hung_converter_is_stopped(tmp_path, present, monkeypatch, name):
    import catmouse.show.png
    from catmouse.show.png import write_png

    monkeypatch.setattr(catmouse.show.png, "TIMEOUT", 1)
    present({name: fake_program(tmp_path, name, "time.sleep(60)")})
    with pytest.raises(RuntimeError, match=f"{name} could not convert the picture: stopped, "
                                           "still running after 1 s"):
        write_png("<svg/>", str(tmp_path / "p.png"), 10, 10)


# -- draw(): titles, endings, default starts --------------------------------------------------

PATH4 = [[1], [0, 2], [1, 3], [2]]


def headings(svg: str) -> list[str]:
    """The title, then each subtitle line."""
    root = parse(svg)
    return [t.text for t in root.iter(f"{SVG}text") if t.get("font-size") in ("19", "15")]


def test_setup_keeps_the_board():
    from catmouse.show.draw import Setup

    analysis = catmouse.analyze(LEETCODE1)
    assert Setup.of(analysis).graph is analysis.graph
    assert Setup.of(LEETCODE1).graph._rows() == Graph(LEETCODE1)._rows()
    with pytest.raises(ValueError, match="an Analysis already has its holes"):
        Setup.of(analysis, hole=3)
    with pytest.raises(ValueError, match="an Analysis already has its holes"):
        catmouse.draw(analysis, hole=3)


def test_an_outcomes_only_title_says_who_wins_and_no_more():
    chase = catmouse.analyze(CHASE, remoteness=False)
    assert headings(catmouse.draw(chase, 3, 7))[0] == "the cat wins"
    drawn = catmouse.analyze(LEETCODE1, remoteness=False)
    assert headings(catmouse.draw(drawn))[0] == "a draw: neither side can force a win"
    won = catmouse.analyze([[1, 3], [0], [3], [0, 2]], remoteness=False)
    assert headings(catmouse.draw(won))[0] == "the mouse wins"


@pytest.mark.parametrize("game, start, ending", [
    (Game(PATH4, holes=(), cat_goals=(0,)), (2, 1), "the cat reaches its goal (node 0)"),
    (Game([[1, 2], [0], [0]], first=Turn.CAT), (1, 2), "the cat cannot move, and loses"),
    (Game(LEETCODE1), (1, 2), "then a position repeats: the game goes round forever"),
    (Game(CHASE), (3, 7), "the cat catches the mouse on node 5"),
    (Game([[1, 3], [0], [3], [0, 2]]), (1, 2), "the mouse reaches the hole (node 0)"),
])
def test_the_subtitle_says_how_the_game_ends(game, start, ending):
    lines = headings(catmouse.draw(game, *start))
    assert lines[2] == ending and len(lines) == 3
    assert ending not in headings(catmouse.draw(game, *start, line=False))


def test_default_starts():
    def starts(*args, **kwargs):
        return headings(catmouse.draw(*args, **kwargs))[1].split(";")[0]

    assert starts(PATH4, mouse=3) == "mouse starts on 3, cat on 2"
    assert starts(PATH4, cat=3) == "mouse starts on 1, cat on 3"
    assert starts(PATH4) == "mouse starts on 1, cat on 2"
    assert starts([[1], [0, 2], [1]]) == "mouse starts on 1, cat on 2"  # three nodes suffice
    # No default start where the cat may not stand on node 2 (or node 1 or 2 is missing):
    # the board alone, titled by its size.
    for board, hole, heading in ((LEETCODE1, 2, "6 nodes, 7 edges"),
                                 ([[1], [0]], 0, "2 nodes, 1 edge")):  # (was "1 edges")
        svg = catmouse.draw(board, hole=hole)
        assert headings(svg) == [heading]
        assert move_numbers(parse(svg)) == []


def test_notebook_display_edge_bound_is_inclusive():
    """Exactly LEGIBLE_EDGES edges still draw; one more is a summary."""
    from catmouse.show.draw import LEGIBLE_EDGES

    # A dense board: 35 nodes all joined (595 edges), a 36th joined to the first ones.
    pairs = [(u, v) for u in range(35) for v in range(u + 1, 35)]
    pairs += [(35, u) for u in range(LEGIBLE_EDGES + 1 - len(pairs))]
    for count, drawn in ((LEGIBLE_EDGES, True), (LEGIBLE_EDGES + 1, False)):
        graph = Graph.from_edges(36, pairs[:count])
        assert graph.num_edges == count
        assert (graph._repr_svg_() is not None) == drawn, count


def test_a_labelled_graph_is_drawn_with_its_names():
    """Pictures name nodes by label, shortened to fit (first and last characters kept)."""
    networkx = pytest.importorskip("networkx")
    names = {0: "exit", 1: "room-1", 2: "room-15", 3: "x\x07y"}
    graph = networkx.relabel_nodes(networkx.cycle_graph(4), names)
    svg = catmouse.draw(catmouse.analyze(graph, hole="exit"), mouse="room-1", cat="room-15")
    drawn = re.findall(r'font-size="\d+" fill="[^"]+">([^<]*)</text>', svg)
    assert {"exit", "r\u2026-1", "r\u202615", "xy"} <= set(drawn)
    assert "mouse starts on room-1, cat on room-15" in svg


def test_a_grid_is_drawn_with_its_coordinates():
    """networkx grids name nodes (row, column): drawn "1,2", not cut to "(…2)" like any
    long name (all of a column's nodes read the same then)."""
    networkx = pytest.importorskip("networkx")
    graph = networkx.grid_2d_graph(3, 3)
    svg = catmouse.draw(catmouse.analyze(graph, hole=(0, 0)), mouse=(2, 2), cat=(1, 1))
    drawn = re.findall(r'font-size="\d+" fill="[^"]+">([^<]*)</text>', svg)
    assert {f"{r},{c}" for r in range(3) for c in range(3)} <= set(drawn)


def test_no_default_start_on_a_board_without_a_node_1():
    """Nodes 0, 2 and 3 but no 1: LeetCode's start (1, 2) is not on the board."""
    nx = pytest.importorskip("networkx")
    board = nx.Graph([(0, 2), (2, 3), (3, 0)])
    svg = catmouse.draw(board)
    assert headings(svg) == ["3 nodes, 3 edges"]
    assert move_numbers(parse(svg)) == []


def test_a_cat_on_a_graph_of_its_own_is_said_not_drawn():
    path = [[1], [0, 2], [1, 3], [2]]
    alone = "(the cat moves on a graph of its own, not drawn)"
    own = Game(path, cat_graph=[[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]])
    assert alone in headings(catmouse.draw(own))
    assert alone not in headings(catmouse.draw(Game(path)))


def test_the_notebook_gives_crowded_boards_more_room():
    for n, width in ((30, 560), (31, 820)):
        ring = Graph.from_edges(n, [(i, (i + 1) % n) for i in range(n)])
        for obj in (ring, Game(ring), catmouse.analyze(ring)):
            assert f'style="max-width: {width}px"' in obj._repr_html_(), (n, type(obj))


def test_the_notebook_display_adds_no_instance_dict():
    # Displayed is the base of the lean classes: slots only, like them.
    from catmouse.display import Displayed

    graph = Graph([[1], [0]])
    for shown in (graph, Game(graph), catmouse.analyze(graph)):
        assert isinstance(shown, Displayed) and not hasattr(shown, "__dict__")


def test_a_cut_name_is_whole_in_a_tooltip():
    # bedroom_1 and bathroom_1 are both drawn "b…_1": the picture had no way to tell them
    # apart.  A name drawn whole gets no tooltip (the picture stays small).
    graph = Graph({"hall": ["bedroom_1", "den"], "bedroom_1": ["hall", "bathroom_1"],
                   "bathroom_1": ["bedroom_1", "den"], "den": ["bathroom_1", "hall"]})
    root = parse(catmouse.draw(graph, hole="hall", mouse="bedroom_1", cat="bathroom_1"))
    tips = {t.text for t in root.iter(f"{SVG}title")}
    assert {"bedroom_1", "bathroom_1"} <= tips and not tips & {"hall", "den"}
    drawn = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert drawn.count("b\u2026_1") == 2


def legend(svg: str) -> list[str]:
    """The legend's words (the group of 14-point text at the picture's foot)."""
    groups = [g for g in parse(svg).iter(f"{SVG}g") if g.get("font-size") == "14"]
    return ["".join(t.itertext()) for t in groups[-1].iter(f"{SVG}text")]


def test_the_legend_names_only_what_is_drawn():
    # A board alone listed the starts' rings and both players' moves; a game the mouse wins
    # in one move listed "cat move".
    assert legend(catmouse.draw([[1], [0]], hole=0)) == ["hole"]
    path = [[1], [0, 2], [1]]  # the mouse on 1 steps into the hole at 0
    assert legend(catmouse.draw(path)) == ["mouse start", "cat start", "hole", "mouse move"]
    assert legend(catmouse.draw(LEETCODE1)) == ["mouse start", "cat start", "hole",
                                                "mouse move", "cat move"]


def test_both_starts_on_one_node_show_both_rings():
    # The cat's ring was drawn over the mouse's, at the same radius: the mouse's start hidden.
    from catmouse.show.svg import CAT_COLOUR, MOUSE_COLOUR
    root = parse(catmouse.draw([[1, 2], [0, 2], [1, 0]], mouse=1, cat=1))
    rings = {c.get("stroke"): float(c.get("r")) for c in root.iter(f"{SVG}circle")
             if c.get("fill") == "none" and c.get("stroke") in (MOUSE_COLOUR, CAT_COLOUR)}
    assert rings[CAT_COLOUR] > rings[MOUSE_COLOUR] + 3  # around it, clear of its 4-px stroke
