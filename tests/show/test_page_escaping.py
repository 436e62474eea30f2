"""Labels that look like markup stay text in the pages' embedded JSON.

A node labelled ``<!--<script>`` used to empty both pages in chromium: the HTML parser reads
``<!--`` and ``<script`` inside a script element as markup.  Every ``<``, ``>`` and ``&`` of
the embedded JSON is now a ``\\u`` escape.
"""

from __future__ import annotations

import json
import re

import pytest
from browser import driver_or_skip

import catmouse
from catmouse.show.cops_page import cops_page_html

NASTY = ["<!--<script>", "</script><b>x", "a&b>c", "<!-- -->"]
DATA = re.compile(r'<script id="([\w-]+)" type="application/json">(.*?)</script>', re.S)


def pages(labels: list[str] = NASTY) -> dict[str, str]:
    """The play page and the cops page of a board whose first four nodes are ``labels``."""
    nx = pytest.importorskip("networkx")
    a, b, c, d = labels
    graph = catmouse.Graph(nx.Graph([(a, b), (b, c), (c, a), (c, d), (d, "e")]))
    return {"play": catmouse.play_page(graph, mouse=a, cat=c, hole="e"),
            "cops": cops_page_html(catmouse.CopsGame(graph, cops=1).analyze())}


@pytest.mark.parametrize("kind", ["play", "cops"])
def test_the_embedded_json_holds_no_markup_and_reads_back_as_the_labels(kind):
    page = pages()[kind]
    blocks = DATA.findall(page)
    assert blocks, "no embedded JSON found"
    for _, text in blocks:
        for markup in ("<!--", "<script", "</", "<", ">", "&"):
            assert markup not in text
    data = json.loads(dict(blocks)["catmouse-data" if kind == "play" else "cops-data"])
    assert data["names"][:4] == NASTY


@pytest.fixture(scope="module")
def driver():
    driver = driver_or_skip()
    yield driver
    driver.quit()


@pytest.mark.parametrize("kind", ["play", "cops"])
def test_the_page_of_a_markup_label_plays_in_the_browser(driver, tmp_path, kind):
    path = tmp_path / f"{kind}.html"
    # The label alone: a later "-->" (as in "<!-- -->") would end what it opens.
    path.write_text(pages(["<!--<script>", "b", "c", "d"])[kind], encoding="utf-8")
    driver.get(path.as_uri() + "#fast")
    status = driver.execute_script("return document.getElementById('status').textContent")
    assert status.strip(), "the page's status is empty: its script did not run"
    names = driver.execute_script(
        "return Array.from(document.querySelectorAll('#nodes title'))"
        ".map((t) => t.textContent)")
    if kind == "play":
        assert NASTY[0] in names


@pytest.mark.parametrize("kind", ["play", "cops"])
def test_a_long_name_wraps_inside_the_panel(driver, tmp_path, kind):
    # A name of 200 letters without a space (a hash, a URL) ran the status line out of the
    # panel and the page sideways (a title so long ran the heading): such a word breaks.
    long = "x" * 200
    ring = catmouse.Graph({name: [before, after] for before, name, after in zip(
        ["e", long, "b", "c", "d"], [long, "b", "c", "d", "e"], ["b", "c", "d", "e", long])})
    path = tmp_path / f"{kind}.html"
    if kind == "play":  # the turn line names the mouse's node
        page = catmouse.play_page(ring, mouse=long, cat="c", hole="e", title="y" * 200)
        path.write_text(page, "utf-8")
        driver.get(path.as_uri() + "#fast")
    else:  # the cop starts on the long name (one cop never catches the robber on a 5-ring)
        page = cops_page_html(catmouse.CopsGame(ring, cops=1).analyze(), human="cops")
        path.write_text(page, "utf-8")
        driver.get(path.as_uri() + "#moves=0")
    assert long in driver.execute_script("return document.getElementById('turn').textContent")
    sideways = driver.execute_script(
        "const panel = document.getElementById('panel').getBoundingClientRect();"
        "const page = document.documentElement;"
        "return [page.scrollWidth - page.clientWidth, Math.max(...Array.from("
        "  document.querySelectorAll('#panel *'), (e) => e.getBoundingClientRect().right))"
        "  - panel.right];")
    assert sideways[0] <= 0 and sideways[1] <= 1, sideways
