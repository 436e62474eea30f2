"""The k-cops picture: the team's nodes filled, the robber ringed, the line written out."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import networkx as nx

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
