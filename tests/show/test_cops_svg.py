"""The k-cops picture: the team's nodes filled, the robber ringed, the line written out."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import networkx as nx
import pytest

from catmouse import CopsGame, Turn
from catmouse.show.cops import cops_svg

SVG = "{http://www.w3.org/2000/svg}"


def parts(svg: str) -> tuple[list[ET.Element], list[str]]:
    root = ET.fromstring(svg)
    circles = list(root.iter(f"{SVG}circle"))
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    return circles, texts


def test_the_team_and_the_robber_are_marked():
    petersen = nx.relabel_nodes(nx.petersen_graph(), {u: f"p{u}" for u in range(10)})
    analysis = CopsGame(petersen, cops=3).analyze()
    svg = cops_svg(analysis, ["p0", "p0", "p3"], "p7")
    circles, texts = parts(svg)
    assert [c.get("class") for c in circles].count("cop") == 2  # two nodes hold the 3 cops
    assert [c.get("class") for c in circles].count("robber") == 1
    assert [c.get("class") for c in circles].count("count") == 1  # the badge on p0
    assert "\u00d72" in texts and "p0" in texts
    assert texts[0] == (f"3 cops: the robber is captured after "
                        f"{analysis.remoteness(['p0', 'p0', 'p3'], 'p7')} plies")
    line = analysis.line(["p0", "p0", "p3"], "p7")
    assert texts[-len(line):][0] == "start: cops on p0, p0, p3, robber on p7"
    assert len(texts[-len(line):]) == len(line)


def test_an_escape_and_a_game_analysed_on_the_spot():
    game = CopsGame(nx.petersen_graph(), cops=2)
    svg = cops_svg(game, (0, 5), 7, Turn.MOUSE)
    _, texts = parts(svg)
    assert texts[0] == "2 cops: the robber escapes forever"
    line = game.analyze().line((0, 5), 7, Turn.MOUSE)  # until a position would repeat
    steps = [t for t in texts if t.startswith("start:") or t[0].isdigit() and ". " in t]
    assert len(steps) == len(line) and 1 < len(line) <= 12


# -- the notebook display ---------------------------------------------------------------


def test_the_best_start_and_the_robbers_best_reply():
    """The team leaves the fewest escapes, then the shortest longest capture; he the latest."""
    analysis = CopsGame(nx.path_graph(5), cops=1).analyze()
    assert analysis.best_start() == ((2,), 0)  # the middle: caught within 3 plies anywhere
    assert analysis.remoteness((2,), 0) == 3
    cycle = CopsGame(nx.cycle_graph(5), cops=1).analyze()  # he escapes every start
    team, robber = cycle.best_start()
    assert cycle.outcome(team, robber).name == "ROBBER_WIN"
    with pytest.raises(ValueError, match="without nodes"):
        CopsGame([], cops=1).analyze().best_start()


def test_the_best_start_against_every_start_on_small_graphs():
    """Brute force: no other team does better, and no other robber reply does."""
    for graph, k in ((nx.petersen_graph(), 3), (nx.petersen_graph(), 2),
                     (nx.grid_2d_graph(3, 3), 1), (nx.cycle_graph(6), 2)):
        analysis = CopsGame(graph, cops=k).analyze()
        nodes = list(graph.nodes)

        def value(team, robber):
            r = analysis.remoteness(team, robber)
            return (r is None, -1 if r is None else r)

        def worst(team):
            replies = [value(team, robber) for robber in nodes]
            return (sum(escaped for escaped, _ in replies), max(r for _, r in replies))
        team, robber = analysis.best_start()
        teams = itertools.combinations_with_replacement(nodes, k)
        assert worst(team) == min(worst(t) for t in teams)
        assert value(team, robber) == max(value(team, r) for r in nodes)


def test_the_notebook_shows_the_best_start():
    game = CopsGame(nx.petersen_graph(), cops=3)
    analysis = game.analyze()
    team, robber = analysis.best_start()
    for obj in (game, analysis):
        svg = obj._repr_svg_()
        assert svg == cops_svg(analysis, team, robber)
        html = obj._repr_html_()
        assert html.startswith('<div class="catmouse-drawing"') and svg in html
    _, texts = parts(game._repr_svg_())
    assert f"start: cops on {', '.join(map(str, team))}, robber on {robber}" in texts


def test_the_notebook_summarises_a_big_board():
    from catmouse.show.draw import LEGIBLE_NODES

    n = LEGIBLE_NODES + 1
    game = CopsGame(nx.path_graph(n), cops=1)
    assert game._repr_svg_() is None
    html = game._repr_html_()
    assert "<svg" not in html and f"1 cop on {n} nodes" in html and "not drawn" in html
    analysis = game.analyze()
    assert f"{n} of {n} cop starts catch the robber" in analysis._repr_html_()
    two = CopsGame(nx.petersen_graph(), cops=2).analyze()
    from catmouse.show.cops import summary_html

    assert "the robber escapes from every cop start" in summary_html(two, 5, 5)
    assert "<svg" not in CopsGame([], cops=1)._repr_html_()
    assert CopsGame([], cops=1)._repr_svg_() is None


def test_ipython_picks_up_the_cops_display():
    formatters = pytest.importorskip("IPython.core.formatters",
                                     reason="IPython is not installed")
    game = CopsGame(nx.cycle_graph(4), cops=2)
    for obj in (game, game.analyze()):
        data, _ = formatters.DisplayFormatter().format(obj)
        assert {"text/plain", "text/html", "image/svg+xml"} <= set(data)
        assert data["image/svg+xml"] == obj._repr_svg_()


def test_one_ply_and_whole_names_in_the_line():
    """Seen in the notebook picture: "after 1 plies", and a grid's (1, 2) written "(…2)"."""
    _, texts = parts(cops_svg(CopsGame(nx.petersen_graph(), cops=3), (1, 4, 5), 0))
    assert texts[0] == "3 cops: the robber is captured after 1 ply"
    grid = CopsGame(nx.grid_2d_graph(3, 3), cops=1).analyze()
    _, texts = parts(cops_svg(grid, [(1, 1)], (0, 0)))
    assert "start: cops on (1, 1), robber on (0, 0)" in texts
    assert "1,1" in texts and "(\u20261)" not in texts  # a tuple drawn as its items


# -- geometry, read back from the SVG ----------------------------------------------------


def geometry(svg: str) -> dict:
    root = ET.fromstring(svg)
    width, height = float(root.get("width")), float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    circles = list(root.iter(f"{SVG}circle"))
    nodes = [c for c in circles if c.get("class") in ("node", "cop")]
    return {
        "width": width, "height": height,
        "nodes": [(float(c.get("cx")), float(c.get("cy")), float(c.get("r")), c)
                  for c in nodes],
        "badges": [c for c in circles if c.get("class") == "count"],
        "robber": [c for c in circles if c.get("class") == "robber"],
        "lines": [tuple(float(e.get(k)) for k in ("x1", "y1", "x2", "y2"))
                  for e in root.iter(f"{SVG}line")],
        "steps": [(float(t.get("y")), "".join(t.itertext())) for t in root.iter(f"{SVG}text")
                  if t.get("font-size") == "14"],
    }


def test_the_board_sits_inside_the_picture_and_the_line_below_it():
    graph = nx.petersen_graph()
    picture = geometry(cops_svg(CopsGame(graph, cops=2), (0, 5), 7, Turn.MOUSE))
    width, height, nodes = picture["width"], picture["height"], picture["nodes"]
    assert len(nodes) == 10 and len(set((x, y) for x, y, _, _ in nodes)) == 10
    for x, y, r, _ in nodes:
        assert r == 17.0  # 150 / sqrt(10) is over the cap
        assert r <= x <= width - r and 40 + r <= y <= height - r, (x, y)
    # The board is centred across: as much room left of the leftmost node as right of the last.
    xs, ys = [x for x, _, _, _ in nodes], [y for _, y, _, _ in nodes]
    assert min(xs) == pytest.approx(width - max(xs), abs=0.2)
    assert max(xs) - min(xs) > 200 and max(ys) - min(ys) > 200  # spread both ways
    # One stroke per edge, from a node's centre to a neighbour's.
    centres = {(x, y) for x, y, _, _ in nodes}
    assert len(picture["lines"]) == graph.number_of_edges()
    for x1, y1, x2, y2 in picture["lines"]:
        assert (x1, y1) in centres and (x2, y2) in centres and (x1, y1) != (x2, y2)
    # The line's plies, one under another, below the lowest node and inside the picture.
    ys = [y for y, _ in picture["steps"]]
    assert ys == sorted(ys) and len(set(ys)) == len(ys) > 1
    assert ys[0] > max(y + r for _, y, r, _ in nodes)
    assert ys[-1] + 14 <= height <= ys[-1] + 60


def test_the_team_is_filled_and_a_shared_node_badged_on_its_rim():
    from catmouse.show.svg import CAT_COLOUR

    analysis = CopsGame(nx.petersen_graph(), cops=3).analyze()
    picture = geometry(cops_svg(analysis, [2, 2, 6], 9))
    filled = [c for _, _, _, c in picture["nodes"] if c.get("fill") == CAT_COLOUR]
    assert sorted(c.get("class") for c in filled) == ["cop", "cop"]
    assert all(c.get("fill") == "white" for _, _, _, c in picture["nodes"]
               if c.get("class") == "node")
    (badge,) = picture["badges"]  # on node 2's rim, up and to the right
    bx, by = float(badge.get("cx")), float(badge.get("cy"))
    under = [c for x, y, r, c in picture["nodes"]
             if bx == pytest.approx(x + r, abs=0.11) and by == pytest.approx(y - r, abs=0.11)]
    assert len(under) == 1 and under[0].get("class") == "cop"
    (ring,) = picture["robber"]
    assert float(ring.get("r")) == float(filled[0].get("r")) + 4


def test_a_long_line_is_cut_to_twelve_rows_and_says_how_many_are_left():
    path = CopsGame(nx.path_graph(30), cops=1).analyze()
    line = path.line([0], 29)
    assert len(line) > 12
    steps = [text for _, text in geometry(cops_svg(path, [0], 29))["steps"]]
    assert len(steps) == 12
    assert steps[:11] == [steps[0], *[f"{i}. {'cops to' if i % 2 else 'robber to'} "
                                      f"{line[i][0][0] if i % 2 else line[i][1]}"
                                      for i in range(1, 11)]]
    assert steps[-1] == f"... {len(line) - 11} more plies"


def test_a_cut_name_is_whole_in_a_tooltip():
    # Cut names collide (bedroom_1 and bathroom_1 are both "b…_1"): the tooltip tells them
    # apart, in the picture and on the play page.
    from catmouse.show.cops_page import cops_page_html
    names = {0: "hall", 1: "bedroom_1", 2: "bathroom_1", 3: "den"}
    analysis = CopsGame(nx.relabel_nodes(nx.cycle_graph(4), names), cops=1).analyze()
    root = ET.fromstring(cops_svg(analysis, ["hall"], "bedroom_1"))
    tips = {t.text for t in root.iter(f"{SVG}title")}
    assert {"bedroom_1", "bathroom_1"} <= tips and "hall" not in tips
    page = cops_page_html(analysis)
    assert "<title>bathroom_1</title>" in page and "<title>bedroom_1</title>" in page
