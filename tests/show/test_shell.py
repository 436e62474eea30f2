"""The shell both play pages share (catmouse/show/shell.html) and each game's parts of it."""

from __future__ import annotations

import re

import pytest

import catmouse
from catmouse import CopsGame, Graph
from catmouse.show.cops_page import cops_page_html
from catmouse.show.shell import asset, template

GAMES = ["page.html", "cops_page.html"]
# What is left for the pages' code to fill once a game's parts are in.
VALUES = {"TITLE", "BOARD", "RULES", "DATA", "SCRIPT", "MOUSE", "CAT", "WORDS"}


def part_names(parts: str) -> list[str]:
    return re.findall(r"^<!-- %([A-Z_]+)% -->$", asset(parts), re.MULTILINE)


def test_both_games_fill_the_same_places_of_the_shell():
    assert part_names("page.html") == part_names("cops_page.html")
    places = set(re.findall(r"%([A-Z_]+)%", asset("shell.html")))
    assert places - VALUES == set(part_names("page.html"))


@pytest.mark.parametrize("parts", GAMES)
def test_a_game_s_page_leaves_only_values(parts):
    page = template(parts)
    assert page.startswith("<!DOCTYPE html>\n") and page.endswith("</html>\n")
    assert set(re.findall(r"%([A-Z_]+)%", page)) <= VALUES
    assert "<!--" not in page and "\n\n" not in page  # no note, no empty part's line


def test_the_cat_and_mouse_page_has_no_stay_button_and_the_cops_page_has():
    assert 'id="stay"' not in template("page.html")
    assert '<div class="buttons">\n<button id="stay"' in template("cops_page.html")
    assert '<button id="swap" type="button">Play the cat</button>' in template("page.html")


def test_a_title_or_a_label_that_looks_like_a_place_stays_text():
    page = catmouse.play_page([[1, 2], [0], [0]], mouse=1, cat=2, title="%DATA% %WORDS%")
    assert "<title>Cat and Mouse: %DATA% %WORDS%</title>" in page
    nx = pytest.importorskip("networkx")
    graph = Graph.from_networkx(nx.path_graph(["%DATA%", "%SCRIPT%", "b"]))
    page = cops_page_html(CopsGame(graph, cops=1).analyze())
    assert 'aria-label="node %DATA%"' in page and 'aria-label="node %SCRIPT%"' in page
