"""The SVG picture's geometry, read back from the SVG: what a reader would see go wrong.

Every node, arrow, number and legend item inside the picture; nodes apart; arrows leaving and
reaching their nodes' borders; the moves on one edge bowed apart; the board centred; the legend
in one row, centred, inside the picture.  Text extents are measured by headless Chromium when
it is installed (the layout itself only estimates them).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import catmouse
from catmouse import Game, Graph, Outcome, Turn
from catmouse.io.graph_files import read_graph
from catmouse.show.svg import CAT_COLOUR, MOUSE_COLOUR, game_svg, layout

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SVG = "{http://www.w3.org/2000/svg}"
NODE_STROKE = "#22272e"
CHASE = read_graph(str(EXAMPLES / "chase.edges")).graph
PETERSEN = read_graph(str(EXAMPLES / "petersen.g6")).graph
LEETCODE1 = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
PATH4 = [[1], [0, 2], [1, 3], [2]]
SQUARE = [[1, 3], [0, 2], [1, 3], [0, 2]]

Point = tuple[float, float]


@dataclass
class Move:
    colour: str
    start: Point
    control: Point
    end: Point


@dataclass
class Picture:
    width: float
    height: float
    nodes: list[tuple[float, float, float]]  # cx, cy, r in node order
    moves: list[Move]
    numbers: dict[int, Point]  # move number -> centre of its disc
    legend: list[ET.Element]
    root: ET.Element
    node_labels: dict[int, ET.Element] = field(default_factory=dict)


def _f(element: ET.Element, name: str) -> float:
    return float(element.get(name))


def read_picture(svg: str) -> Picture:
    root = ET.fromstring(svg)
    view = [float(v) for v in root.get("viewBox").split()]
    assert view[:2] == [0, 0]
    # The viewBox is the picture's size: no stretching, no cropping.
    assert (float(root.get("width")), float(root.get("height"))) == (view[2], view[3])
    groups = root.findall(f"{SVG}g")
    legend_group = groups[-1]
    assert legend_group.get("font-size") == "14"
    nodes = [(_f(c, "cx"), _f(c, "cy"), _f(c, "r")) for c in root.findall(f"{SVG}circle")
             if c.get("stroke") == NODE_STROKE]
    moves = []
    for path in root.iter(f"{SVG}path"):
        if path.get("stroke") is None:
            continue  # an arrow head's shape, inside a marker
        numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))]
        assert re.fullmatch(r"M\S+,\S+ Q\S+,\S+ \S+,\S+", path.get("d")), path.get("d")
        moves.append(Move(path.get("stroke"), (numbers[0], numbers[1]),
                          (numbers[2], numbers[3]), (numbers[4], numbers[5])))
    numbers: dict[int, Point] = {}
    top_circles = root.findall(f"{SVG}circle")
    discs = [c for c in top_circles if c.get("stroke") == "white"]
    texts = [t for t in root.findall(f"{SVG}text") if t.get("font-weight") == "bold"
             and t.get("fill") == "white"]
    assert len(discs) == len(texts)
    for disc, text in zip(discs, texts):
        number = int(text.text)
        assert number not in numbers, f"move {number} numbered twice"
        numbers[number] = (_f(disc, "cx"), _f(disc, "cy"))
    labels = {int(t.text): t for t in root.findall(f"{SVG}text")
              if t.get("font-weight") is None and (t.text or "").isdigit()}
    return Picture(view[2], view[3], nodes, moves, numbers, list(legend_group), root, labels)


def moves_of(line: list[tuple[int, int, Turn]]) -> list[tuple[Turn, int, int]]:
    """(mover, from, to) per move of a line."""
    out = []
    for before, after in itertools.pairwise(line):
        k = 0 if before[2] == Turn.MOUSE else 1
        out.append((before[2], before[k], after[k]))
    return out


def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def cross(a: Point, b: Point) -> float:
    """Sine of the angle between two vectors (0: parallel or opposite)."""
    return (a[0] * b[1] - a[1] * b[0]) / (math.hypot(*a) * math.hypot(*b))


def dot(a: Point, b: Point) -> float:
    return (a[0] * b[0] + a[1] * b[1]) / (math.hypot(*a) * math.hypot(*b))


def inside(picture: Picture, x: float, y: float, pad: float = 0.0) -> bool:
    return pad <= x <= picture.width - pad and pad <= y <= picture.height - pad


# -- the cases: boards, games, lines ----------------------------------------------------------

def _cases():
    """(name, svg, line): pictures of many shapes, passes, goals, directed edges among them."""
    chase = catmouse.analyze(CHASE)
    yield "chase", catmouse.draw(CHASE, mouse=3, cat=7), chase.line(3, 7)
    petersen = catmouse.analyze(PETERSEN)
    yield "petersen", catmouse.draw(PETERSEN, mouse=4, cat=7), petersen.line(4, 7)
    yield "leetcode1", catmouse.draw(LEETCODE1), catmouse.analyze(LEETCODE1).line(1, 2)
    # The cat walks to its goal on a board with no hole.
    game = Game(PATH4, holes=(), cat_goals=(0,))
    yield "path-goal", catmouse.draw(game, mouse=2, cat=1), game.analyze().line(2, 1)
    # Cops and robbers on a square: each player passes once.
    game = Game(SQUARE, holes=(), mouse_stays=True, cat_stays=True, draw=Outcome.MOUSE_WIN)
    yield "square-passes", catmouse.draw(game, mouse=0, cat=2), game.analyze().line(0, 2)
    holes_goals = Game(LEETCODE1, holes=(0,), cat_goals=(4,))
    yield ("holes-and-goals", catmouse.draw(holes_goals, mouse=1, cat=2),
           holes_goals.analyze().line(1, 2))
    ring = Graph([[(u - 1) % 12, (u + 1) % 12] for u in range(12)])
    yield "ring", catmouse.draw(ring, mouse=6, cat=3), catmouse.analyze(ring).line(6, 3)
    directed = Graph([[1], [2], [0, 3], [1]], directed=True)
    line = catmouse.analyze(directed).line(1, 2)
    yield "directed", catmouse.draw(directed, mouse=1, cat=2), line
    # A tall, narrow layout given by hand (the geometry only: the goal is there for its
    # legend item): the board is centred across a picture made wide for the legend.
    points = [(0.4, 0.0), (0.6, 0.25), (0.4, 0.5), (0.6, 0.75), (0.5, 1.0)]
    tall = Graph([[1], [0, 2], [1, 3], [2, 4], [3]])
    line = catmouse.analyze(tall).line(3, 4)
    yield "tall", game_svg(tall, line, points=points, title="tall", goals=(4,)), line


CASES = list(_cases())


@pytest.fixture(params=CASES, ids=[c[0] for c in CASES])
def case(request):
    name, svg, line = request.param
    return name, read_picture(svg), line, svg


# -- the board ---------------------------------------------------------------------------------

def test_everything_is_inside_the_picture(case):
    name, picture, _, _ = case
    for element in picture.root.iter():
        tag = element.tag.removeprefix(SVG)
        if tag == "circle":
            r = _f(element, "r") + float(element.get("stroke-width", 0)) / 2
            assert inside(picture, _f(element, "cx"), _f(element, "cy"), r), (name, element.attrib)
        elif tag == "line":
            for end in ("1", "2"):
                assert inside(picture, _f(element, "x" + end), _f(element, "y" + end)), name
        elif tag == "text":
            assert inside(picture, _f(element, "x"), _f(element, "y")), (name, element.text)
    for move in picture.moves:
        for point in (move.start, move.control, move.end):
            assert inside(picture, *point), (name, move)


def test_nodes_do_not_overlap_and_labels_sit_on_them(case):
    name, picture, _, _ = case
    for (x1, y1, r1), (x2, y2, r2) in itertools.combinations(picture.nodes, 2):
        assert math.hypot(x1 - x2, y1 - y2) > r1 + r2 + 4, name
    for u, (x, y, r) in enumerate(picture.nodes):
        label = picture.node_labels[u]
        assert label.get("text-anchor") == "middle" and _f(label, "x") == x
        # The baseline a third of the digits' height below the centre: the digits centred.
        assert 0.2 * r < _f(label, "y") - y < 0.4 * r, (name, u)


def test_the_board_is_centred_between_the_titles_and_the_legend(case):
    name, picture, _, _ = case
    xs = [x for x, _, _ in picture.nodes]
    ys = [y for _, y, _ in picture.nodes]
    assert abs((min(xs) + max(xs)) / 2 - picture.width / 2) < 0.6, name
    r = picture.nodes[0][2]
    titles = [_f(t, "y") for t in picture.root.findall(f"{SVG}text") if t.get("font-size")
              in ("19", "15")]
    legend_top = min(_f(c, "cy") - _f(c, "r") for c in picture.legend if c.tag == f"{SVG}circle")
    assert max(titles, default=0) + r < min(ys) and max(ys) + r < legend_top, name


def test_the_picture_grows_with_the_board():
    """A board laid out wider makes a wider picture (and the nodes keep their spacing)."""
    graph = Graph([[1], [0, 2], [1]])
    line = [(0, 2, Turn.MOUSE)]
    narrow = read_picture(game_svg(graph, line, points=[(0, 0.5), (0.5, 0.5), (1, 0.5)]))
    wide = [(0, 0.5), (1, 0.5), (2, 0.5)]
    broad = read_picture(game_svg(graph, line, points=wide))
    assert broad.width - narrow.width == pytest.approx(640, abs=1)
    assert broad.height == narrow.height


# -- the moves ---------------------------------------------------------------------------------

def test_every_move_is_numbered_once_beside_its_arrow(case):
    name, picture, line, _ = case
    moves = moves_of(line)
    assert sorted(picture.numbers) == list(range(1, len(moves) + 1)), name
    drawn = iter(picture.moves)
    for number, (mover, src, dst) in enumerate(moves, 1):
        label = picture.numbers[number]
        x, y, r = picture.nodes[src]
        if src == dst:  # a pass: no arrow, the number beside the node
            assert r < dist(label, (x, y)) < 2 * r + 10, (name, number)
            continue
        move = next(drawn)
        assert move.colour == (MOUSE_COLOUR if mover == Turn.MOUSE else CAT_COLOUR)
        # At the middle of the curve (Bezier t = 1/2), within the disc's radius.
        middle = tuple(0.25 * s + 0.5 * c + 0.25 * e
                       for s, c, e in zip(move.start, move.control, move.end))
        assert dist(label, middle) < 10, (name, number)
    assert next(drawn, None) is None, f"{name}: an arrow for no move"
    # No number hides another (two passes on one node once drew both in one place).
    for (a, p), (b, q) in itertools.combinations(picture.numbers.items(), 2):
        assert dist(p, q) > 12, (name, a, b)


def test_arrows_leave_and_reach_their_nodes_borders(case):
    """An arrow starts just outside its node, heading along its curve, and stops short of
    the node it reaches (room for the head): not at the centres, not across the node."""
    name, picture, line, _ = case
    steps = [(src, dst) for _, src, dst in moves_of(line) if src != dst]
    for (src, dst), move in zip(steps, picture.moves, strict=True):
        (x1, y1, r), (x2, y2, _) = picture.nodes[src][:3], picture.nodes[dst][:3]
        start_dir = (move.start[0] - x1, move.start[1] - y1)
        towards = (move.control[0] - x1, move.control[1] - y1)
        assert dist(move.start, (x1, y1)) == pytest.approx(r + 2, abs=0.15), (name, src, dst)
        assert abs(cross(start_dir, towards)) < 0.01 and dot(start_dir, towards) > 0, name
        end_dir = (move.end[0] - x2, move.end[1] - y2)
        back = (move.control[0] - x2, move.control[1] - y2)
        assert dist(move.end, (x2, y2)) == pytest.approx(r + 3, abs=0.15), (name, src, dst)
        assert abs(cross(end_dir, back)) < 0.01 and dot(end_dir, back) > 0, name


def test_moves_on_one_edge_bow_apart(case):
    """Each move bows off its edge, symmetrically (its control point on the edge's
    perpendicular bisector); the mouse's and the cat's moves on an edge bow to opposite
    sides, and each further use of an edge bows further out, so no two arrows coincide."""
    name, picture, line, _ = case
    steps = [(mover, src, dst) for mover, src, dst in moves_of(line) if src != dst]
    offsets: dict[tuple[int, int], list[tuple[Turn, float]]] = {}
    for (mover, src, dst), move in zip(steps, picture.moves, strict=True):
        a, b = picture.nodes[min(src, dst)][:2], picture.nodes[max(src, dst)][:2]
        length = dist(a, b)
        assert dist(move.control, a) == pytest.approx(dist(move.control, b), abs=0.2), name
        normal = (-(b[1] - a[1]) / length, (b[0] - a[0]) / length)
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        offset = (move.control[0] - mid[0]) * normal[0] + (move.control[1] - mid[1]) * normal[1]
        assert abs(offset) > 0.1 * length, (name, src, dst)  # visibly curved
        offsets.setdefault((min(src, dst), max(src, dst)), []).append((mover, offset))
    for edge, uses in offsets.items():
        signs = {mover: {math.copysign(1, o) for m, o in uses if m == mover} for mover in Turn}
        assert all(len(s) <= 1 for s in signs.values()), (name, edge, uses)
        if signs[Turn.MOUSE] and signs[Turn.CAT]:
            assert signs[Turn.MOUSE] != signs[Turn.CAT], (name, edge, uses)
        sizes = [abs(o) for _, o in uses]
        assert sizes == sorted(set(sizes)), (name, edge, uses)  # further out each time


def test_the_cases_cover_what_the_picture_draws():
    """The cases above include passes, edges used again, both movers on one edge, and a
    directed board: the geometry tests are not vacuous."""
    passes = reused = shared = 0
    for _, _, line in CASES:
        uses: dict[tuple[int, int], list[Turn]] = {}
        for mover, src, dst in moves_of(line):
            if src == dst:
                passes += 1
            else:
                uses.setdefault((min(src, dst), max(src, dst)), []).append(mover)
        reused += sum(len(u) > 2 for u in uses.values())
        shared += sum(len(set(u)) == 2 for u in uses.values())
    assert passes >= 2 and reused >= 1 and shared >= 1
    assert any("marker-end" in svg and "edge-arrow" in svg.split("</defs>")[1]
               for _, svg, _ in CASES)


# -- the legend --------------------------------------------------------------------------------

def legend_items(picture: Picture) -> list[tuple[float, float, str]]:
    """(left edge of the symbol, x where the text starts, text) per legend item."""
    items, symbol_left = [], None
    for element in picture.legend:
        tag = element.tag.removeprefix(SVG)
        if tag == "circle":
            symbol_left = _f(element, "cx") - _f(element, "r") - 2
        elif tag == "line":
            symbol_left = _f(element, "x1")
        else:
            items.append((symbol_left, _f(element, "x"), element.text))
    return items


def test_the_legend_is_one_row_in_order(case):
    name, picture, _, _ = case
    items = legend_items(picture)
    ys = {_f(e, "y") for e in picture.legend if e.tag == f"{SVG}text"}
    assert len(ys) == 1, name
    for (left, text_x, _), (next_left, _, _) in itertools.pairwise(items):
        assert left < text_x < next_left, name
    # Goals get their own item; boards without holes have none.
    texts = [t for _, _, t in items]
    assert ("cat goal" in texts) == (name in ("path-goal", "holes-and-goals", "tall"))
    assert ("hole" in texts) == (name not in ("path-goal", "square-passes"))


def chromium() -> str | None:
    return next(filter(None, map(shutil.which, ("chromium", "chromium-browser",
                                                 "google-chrome"))), None)


_MEASURE = """
<script>
window.addEventListener('load', () => {
  const out = [];
  for (const svg of document.querySelectorAll('svg')) {
    out.push([...svg.querySelectorAll('text')].map(t => {
      const b = t.getBBox();
      return [t.textContent, b.x, b.y, b.width, b.height];
    }));
  }
  document.getElementById('out').textContent = JSON.stringify(out);
});
</script>
"""


def measured(svgs: list[str], folder: Path) -> list[list[list]]:
    """Per picture, the rendered box [text, x, y, width, height] of every text, from Chromium."""
    browser = chromium()
    if browser is None:
        pytest.skip("no chromium here to measure text with")
    page = folder / "page.html"
    page.write_text("<!DOCTYPE html><html><body>" + "".join(svgs)
                    + "<pre id='out'></pre>" + _MEASURE + "</body></html>", encoding="utf-8")
    command = [browser, "--headless", "--disable-gpu", "--dump-dom",
               f"--user-data-dir={page.parent / 'profile'}", page.as_uri()]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.insert(1, "--no-sandbox")
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    found = re.search(r"<pre id=\"out\">(.*?)</pre>", done.stdout, re.S)
    assert found and found.group(1), done.stderr[-2000:]
    boxes = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert len(boxes) == len(svgs)
    return boxes


@pytest.fixture(scope="module")
def text_boxes(tmp_path_factory):
    """Per case, the rendered box (x, y, width, height) of every text, from Chromium."""
    boxes = measured([svg for _, svg, _ in CASES], tmp_path_factory.mktemp("measure"))
    return {name: box for (name, _, _), box in zip(CASES, boxes)}


def test_names_sit_inside_their_circles(tmp_path):
    # A cut name (b…_1: the ellipsis is a whole character wide) and wide letters ran into
    # the rim.  Each node's name is measured against its circle, with the rim's width spare.
    names = ["hall", "bedroom_1", "bathroom_1", "den", "WWWW", "kitchen", "Mm", "0123"]
    graph = Graph({name: [names[(k - 1) % 8], names[(k + 1) % 8]]
                   for k, name in enumerate(names)})
    cops = catmouse.CopsGame(graph, 1).analyze()
    svgs = [catmouse.draw(graph, hole="hall", mouse="den", cat="kitchen"),
            catmouse.show.cops.cops_svg(cops, ["WWWW"], "kitchen")]
    for svg, boxes in zip(svgs, measured(svgs, tmp_path)):
        root = ET.fromstring(svg)
        circles = [(_f(c, "cx"), _f(c, "cy"), _f(c, "r")) for c in root.iter(f"{SVG}circle")
                   if c.get("stroke") == NODE_STROKE]
        named = set()
        for text, x, y, width, height in boxes:
            on = [(cx, r) for cx, cy, r in circles
                  if abs(cx - (x + width / 2)) < 0.6 and abs(cy - (y + height / 2)) < r]
            if on and text not in "12345":  # (a node's name, not a move's number)
                named.add(text)
                assert width <= 2 * on[0][1] - 2, (text, width, on[0][1])
        assert named >= {"b\u2026_1", "WWWW", "k\u2026en", "0123", "Mm"}, named


def test_text_fits_in_the_picture_and_the_legend_is_centred(case, text_boxes):
    name, picture, _, _ = case
    boxes = text_boxes[name]
    for text, x, y, w, h in boxes:
        assert w > 0 and h > 0, (name, text)
        assert 0 <= x and x + w <= picture.width and 0 <= y and y + h <= picture.height, \
            (name, text, x, y, w, h, picture.width)
    items = legend_items(picture)
    legend_boxes = boxes[-len(items):]
    assert [b[0] for b in legend_boxes] == [t for _, _, t in items]
    # Each item's text ends before the next item's symbol begins.
    for (_, x, _, w, _), (next_left, _, _) in zip(legend_boxes, items[1:]):
        assert x + w + 8 < next_left, (name, x + w, next_left)
    left = items[0][0]
    right = legend_boxes[-1][1] + legend_boxes[-1][3]
    # Centred to within the layout's estimate of text widths (about a character).
    assert abs(left - (picture.width - right)) < 16, (name, left, picture.width - right)


# -- the built-in layout (no networkx) ---------------------------------------------------------

@pytest.fixture
def no_networkx(monkeypatch):
    monkeypatch.setitem(sys.modules, "networkx", None)


LAYOUT_BOARDS = {
    "chase": CHASE,
    "petersen": PETERSEN,
    "leetcode1": Graph(LEETCODE1),
    "grid": Graph.from_edges(16, [(u, u + 1) for u in range(16) if u % 4 != 3]
                             + [(u, u + 4) for u in range(12)]),
    "path": Graph([[1], [0, 2], [1, 3], [2, 4], [3]]),
    "ring": Graph([[(u - 1) % 12, (u + 1) % 12] for u in range(12)]),
}
# Boards the force layout draws with edges of about one length (a grid or the chase board
# may fold, with some edges stretched: a force layout finds a local optimum).
EVEN_EDGES = ("leetcode1", "path", "petersen", "ring")


@pytest.mark.parametrize("name", sorted(LAYOUT_BOARDS))
def test_built_in_layout_spreads_the_board(no_networkx, name):
    """Without networkx: nodes apart, the unit square filled both ways, neighbours nearer
    each other than the nodes they do not touch, and on the regular boards edges of about
    one length."""
    graph = LAYOUT_BOARDS[name]
    points = layout(graph)
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in points)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    assert max(max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx(1)
    assert min(max(xs) - min(xs), max(ys) - min(ys)) > 0.3, name  # not squashed to a line
    closest = min(dist(p, q) for p, q in itertools.combinations(points, 2))
    assert closest > 0.3 / math.sqrt(graph.n), name
    edges = {(u, v) for u, row in enumerate(graph._rows()) for v in row}
    near = [dist(points[u], points[v]) for u, v in edges]
    far = [dist(points[u], points[v]) for u, v in itertools.combinations(range(graph.n), 2)
           if (u, v) not in edges and (v, u) not in edges]
    assert sum(near) / len(near) < 0.85 * sum(far) / len(far), name
    if name in EVEN_EDGES:
        # 2.5, not 2: the force layout is chaotic in the last bits, and on i386 (x87 floats)
        # petersen's longest edge came out 2.06 times its shortest.
        assert max(near) < 2.5 * min(near), name


def test_built_in_layout_of_a_big_board_is_a_circle(no_networkx):
    """Over 300 nodes the built-in force layout (quadratic in the nodes) is skipped: the
    nodes go round a circle."""
    graph = Graph.from_edges(301, [(u, u + 1) for u in range(300)])
    radii = [dist(p, (0.5, 0.5)) for p in layout(graph)]
    assert max(radii) - min(radii) < 1e-4


def test_each_use_of_an_edge_bows_by_the_same_rule_for_both_players(case):
    """The k-th move along an edge (either player's, counting from 0) bows 0.14 of the
    edge's length plus 44 px per earlier use: the mouse's and the cat's alike."""
    name, picture, line, _ = case
    steps = [(src, dst) for _, src, dst in moves_of(line) if src != dst]
    used: dict[tuple[int, int], int] = {}
    for (src, dst), move in zip(steps, picture.moves, strict=True):
        a, b = picture.nodes[src][:2], picture.nodes[dst][:2]
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        key = (min(src, dst), max(src, dst))
        again = used.get(key, 0)
        used[key] = again + 1
        assert dist(move.control, mid) == pytest.approx(0.14 * dist(a, b) + 44 * again,
                                                        abs=0.3), (name, src, dst)


def test_a_pass_number_does_not_cover_its_node(case):
    name, picture, line, _ = case
    discs = {int(t.text): float(c.get("r")) for c, t in zip(
        [c for c in picture.root.findall(f"{SVG}circle") if c.get("stroke") == "white"],
        [t for t in picture.root.findall(f"{SVG}text") if t.get("font-weight") == "bold"
         and t.get("fill") == "white"])}
    for number, (_, src, dst) in enumerate(moves_of(line), 1):
        if src == dst:
            x, y, r = picture.nodes[src]
            assert dist(picture.numbers[number], (x, y)) >= r + 4 + discs[number], (name, number)


def test_each_legend_symbol_is_drawn_as_on_the_board(case):
    """Starts are rings, the hole a dark disc, moves arrows (a line with the player's head)."""
    name, picture, _, _ = case
    symbol = None
    for element in picture.legend:
        tag = element.tag.removeprefix(SVG)
        if tag != "text":
            symbol = element
            continue
        text = element.text
        if text in ("mouse start", "cat start"):
            assert symbol.tag == f"{SVG}circle" and symbol.get("fill") == "white", (name, text)
            assert float(symbol.get("stroke-width")) >= 3, (name, text)
        elif text == "hole":
            assert symbol.tag == f"{SVG}circle" and symbol.get("fill") != "white", name
        elif text in ("mouse move", "cat move"):
            assert symbol.tag == f"{SVG}line", (name, text)
            assert text.split()[0] + "-arrow" in symbol.get("marker-end"), (name, text)


def test_a_connected_board_is_drawn_with_even_edges():
    """Kamada-Kawai for a connected board (a grid comes out as a grid); a spring layout,
    which stretches some edges to twice others, only for disconnected or huge boards."""
    pytest.importorskip("scipy", reason="networkx's Kamada-Kawai layout needs scipy")
    nx = pytest.importorskip("networkx")
    grid = Graph(nx.convert_node_labels_to_integers(nx.grid_2d_graph(4, 4)))
    points = layout(grid)
    lengths = [math.dist(points[u], points[v]) for u, row in enumerate(grid._rows())
               for v in row]
    assert max(lengths) / min(lengths) < 1.2


# -- long names in the titles -----------------------------------------------------------------

def _long_named_pictures() -> list[str]:
    """Pictures whose titles and lines of text name long nodes: a station's name (the
    subtitle ran off both sides of the 720 px picture), a 300-letter name with no space in it
    (cut into lines), a long title given by hand, and the k-cops picture's lines."""
    station, penn, word = "Grand Central Terminal, New York", "Penn Station, Manhattan", "x" * 300
    graph = Graph({"hole": [station, penn], station: ["hole", penn],
                   penn: ["hole", station, word], word: [penn]})
    cops = catmouse.CopsGame(graph, 2).analyze()
    return [catmouse.draw(graph, mouse=station, cat=word, hole="hole"),
            catmouse.draw(graph, mouse=word, cat=penn, hole="hole",
                          title="a very long title " * 12),
            catmouse.show.cops.cops_svg(cops, [station, "hole"], word)]


def test_long_names_wrap_inside_the_picture_by_the_estimate():
    from catmouse.show.svg import em_width

    for svg in _long_named_pictures():
        root = ET.fromstring(svg)
        width = float(root.get("width"))
        for text in root.iter(f"{SVG}text"):
            wide = em_width(text.text or "") * float(text.get("font-size", 14))
            if text.get("text-anchor") == "middle":
                assert wide / 2 <= min(_f(text, "x"), width - _f(text, "x")), text.text
            else:
                assert _f(text, "x") + wide <= width, text.text


def test_long_names_wrap_inside_the_picture_as_drawn(tmp_path):
    svgs = _long_named_pictures()
    for svg, boxes in zip(svgs, measured(svgs, tmp_path)):
        width = float(ET.fromstring(svg).get("width"))
        for text, x, _, w, _ in boxes:
            assert 0 <= x and x + w <= width, (text[:40], x, w, width)


# -- long thin boards ---------------------------------------------------------------------------

def test_a_long_path_is_folded_with_its_nodes_apart():
    """A path of 60 nodes (and a clique with a 40-node tail) is laid along a line: scaled to
    the picture, its nodes stood on top of each other.  It is folded like a snake instead,
    every node clear of the others and each edge as short as before bar the folds'."""
    path = Graph([[v for v in (u - 1, u + 1) if 0 <= v < 60] for u in range(60)])
    tail = Graph([[v for v in range(5) if v != u] + ([5] if u == 4 else []) for u in range(5)]
                 + [[v for v in (u - 1, u + 1) if 4 <= v < 45] for u in range(5, 45)])
    for graph in (path, tail):
        picture = read_picture(catmouse.draw(graph, mouse=30, cat=32))
        for (x1, y1, r1), (x2, y2, r2) in itertools.combinations(picture.nodes, 2):
            assert math.hypot(x1 - x2, y1 - y2) > r1 + r2 + 4, graph.n
        points = layout(graph)
        width = max(x for x, _ in points) - min(x for x, _ in points)
        height = max(y for _, y in points) - min(y for _, y in points)
        assert min(width, height) > 0.5, graph.n  # about square, not a line


def test_move_numbers_past_99_fit_their_discs(tmp_path):
    """A game of 115 moves on a path of 60 nodes: white digits past the edge of their disc
    vanish on the white page (move 115 read as 15), so a number of three digits gets a wider
    disc; each number is measured by Chromium against its own disc."""
    path = Graph([[v for v in (u - 1, u + 1) if 0 <= v < 60] for u in range(60)])
    svg = catmouse.draw(path, mouse=2, cat=1)
    picture = read_picture(svg)
    assert max(picture.numbers) >= 100
    discs = {int(t.text): float(c.get("r")) for c, t in zip(
        [c for c in picture.root.findall(f"{SVG}circle") if c.get("stroke") == "white"],
        [t for t in picture.root.findall(f"{SVG}text") if t.get("font-weight") == "bold"
         and t.get("fill") == "white"])}
    checked = 0
    for text, x, y, width, height in measured([svg], tmp_path)[0]:
        if not text.isdigit() or int(text) not in picture.numbers:
            continue
        cx, cy = picture.numbers[int(text)]
        if abs(cx - (x + width / 2)) > 0.6:
            continue  # (a node's name of the same digits)
        checked += 1
        assert width <= 2 * discs[int(text)] - 3, (text, width, discs[int(text)])
    assert checked == len(picture.numbers)
    # The pictures' own rule: numbers apart, passes clear of their nodes (with wider discs).
    for (a, p), (b, q) in itertools.combinations(picture.numbers.items(), 2):
        assert dist(p, q) > 12, (a, b)
