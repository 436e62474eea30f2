"""The play page (``catmouse play --html``) in a real browser: chromium driven by selenium.

Whole games on the example graphs, as the mouse and as the cat, clicking nodes as a player
would: following the hints, making the worst moves, and random ones.  At every turn the page's
status, hints and the solver's reply are checked against the Python analysis (``Match``).  The
browser tests skip, saying why, only where selenium, chromium or chromedriver is missing
(``ci/install_browser.sh`` installs them on Debian/Ubuntu).
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from pathlib import Path

import pytest
from browser import driver_or_skip

import catmouse
from catmouse import Outcome, Turn
from catmouse.cli.commands import main
from catmouse.io.graph_files import read_graph
from catmouse.show.draw import Setup
from catmouse.show.play import Match
from catmouse.show.words import outcome_words, verdict

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# (file, mouse, cat): the README's start, LeetCode's, and Petersen's longest game.
BOARDS = [("chase.edges", 3, 7), ("leetcode1.json", 1, 2), ("leetcode2.json", 1, 2),
          ("petersen.g6", 9, 4)]


@pytest.fixture(scope="module")
def browser():
    driver = driver_or_skip()
    yield driver
    driver.quit()


def write_page(tmp_path, name, mouse, cat, side="mouse"):
    out = tmp_path / f"{Path(name).stem}-{side}.html"
    code = main(["play", str(EXAMPLES / name), "--mouse", str(mouse), "--cat", str(cat),
                 "--as", side, "--html", str(out)])
    assert code == 0
    return out


class Page:
    """The page as a player sees it, with the waits a player does without thinking."""

    def __init__(self, driver, path, fast=True):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        self.d, self.By = driver, By
        driver.get(path.as_uri() + ("#fast" if fast else ""))
        self.wait = WebDriverWait(driver, 10)
        self.settle()

    def body(self, name):
        return self.d.execute_script(f"return document.body.dataset[{name!r}]")

    def settle(self):
        """Wait until the solver has replied: the human's turn, or the end."""
        self.wait.until(lambda d: self.body("phase") in ("you", "over"))

    def look(self):
        """What the page shows, read in one call: the position, status, moves and hints."""
        return self.d.execute_script(_LOOK)

    def position(self):
        seen = self.look()
        return seen["mouse"], seen["cat"], Turn[seen["turn"].upper()]

    def text(self, element_id):
        return self.d.find_element(self.By.ID, element_id).text

    def click_node(self, node):
        self.d.find_element(self.By.CSS_SELECTOR, f'[data-node="{node}"] circle').click()

    def press(self, button_id):
        self.d.find_element(self.By.ID, button_id).click()

    def legal(self):
        return self.look()["legal"]

    def hints(self):
        """{destination: (words, best)} from the hint list (hints must be on)."""
        return parse_hints(self.look()["hints"])


# The page's state as a player reads it: the text shown, the nodes ringed as moves.
_LOOK = """
const b = document.body.dataset;
return {
  phase: b.phase, mouse: Number(b.mouse), cat: Number(b.cat), turn: b.turn,
  status: document.getElementById("status").innerText.trim(),
  legal: Array.from(document.querySelectorAll("#nodes .node.legal"))
    .map((g) => Number(g.dataset.node)).sort((x, y) => x - y),
  hints: Array.from(document.querySelectorAll("#hint-list li"))
    .map((li) => [Number(li.dataset.move), li.innerText.trim()]),
};
"""


def parse_hints(items):
    out = {}
    for move, text in items:
        best = text.endswith(" (best)")
        words = re.sub(r"^\W*(to|stay on) \d+: ", "", text.removesuffix(" (best)"))
        out[move] = (words, best)
    return out


def expected_status(match: Match) -> str:
    ended = match.result()
    if ended is not None:
        return f"game over: {ended[1]}. {verdict(ended[0])}"
    return outcome_words(*match.value())


def play_game(page: Page, match: Match, choose, check_hints: bool) -> Outcome:
    """Play to the end, checking the page against ``match`` at every turn; return the outcome."""
    human = match.human
    if check_hints and page.d.find_element(page.By.ID, "hints").get_attribute(
            "aria-pressed") != "true":
        page.press("hints")
    for _ in range(4 * match.setup.analysis.n ** 2 + 4):
        while match.result() is None and match.mover != human:
            match.reply()  # the page's solver must make this very move
        seen = page.look()
        position = (seen["mouse"], seen["cat"], Turn[seen["turn"].upper()])
        assert position == match.position, "the page's solver replied differently"
        assert seen["status"] == expected_status(match)
        if match.result() is not None:
            assert seen["phase"] == "over"
            assert seen["legal"] == []
            return match.result()[0]
        assert seen["phase"] == "you"
        assert seen["legal"] == match.moves()
        if check_hints:
            shown = parse_hints(seen["hints"])
            want = {d: (outcome_words(o, r), best) for d, o, r, best in match.hints()}
            assert shown == want
        dest = choose(match)
        page.click_node(dest)
        match.play(dest)
        page.settle()
    raise AssertionError("the game did not end")


def best_move(match):
    return min(d for d, _, _, best in match.hints() if best)


def worst_move(match):
    """The move that does the mover most harm: a loss soonest, else a draw, else a slow win."""
    win = Outcome.MOUSE_WIN if match.mover == Turn.MOUSE else Outcome.CAT_WIN

    def badness(hint):
        dest, outcome, remoteness, _ = hint
        r = 10**9 if remoteness is None else remoteness
        if outcome == Outcome.DRAW:
            return (1, 0, dest)
        if outcome == win:
            return (0, r, dest)
        return (2, -r, -dest)

    return max(match.hints(), key=badness)[0]


def setup_of(name):
    return Setup.of(read_graph(str(EXAMPLES / name)).graph)


@pytest.mark.parametrize("side", ["mouse", "cat"])
@pytest.mark.parametrize("board", BOARDS, ids=[b[0] for b in BOARDS])
def test_whole_games(browser, tmp_path, board, side):
    name, mouse, cat = board
    path = write_page(tmp_path, name, mouse, cat, side)
    setup = setup_of(name)
    human = Turn.MOUSE if side == "mouse" else Turn.CAT
    rng = random.Random(f"{name}-{side}")
    # Perfect play reaches the value the analysis promised at the start.
    page = Page(browser, path)
    match = Match(setup, mouse, cat, human=human)
    promised = match.value()[0]
    if human == Turn.MOUSE:
        assert page.text("status") == outcome_words(*match.value())
    assert play_game(page, match, best_move, check_hints=True) == promised
    # The worst moves, then random ones: each game restarted from the button.
    for choose in (worst_move, lambda m: rng.choice(m.moves())):
        page.press("restart")
        page.settle()
        match = Match(setup, mouse, cat, human=human)
        play_game(page, match, choose, check_hints=True)


def test_the_human_who_plays_perfectly_never_does_worse(browser, tmp_path):
    """chase as the cat: the cat wins from the start, so following hints must win."""
    path = write_page(tmp_path, "chase.edges", 3, 7, "cat")
    page = Page(browser, path, fast=False)  # the real 350 ms reply delay
    match = Match(setup_of("chase.edges"), 3, 7, human=Turn.CAT)
    assert play_game(page, match, best_move, check_hints=False) == Outcome.CAT_WIN
    assert page.text("turn") == "You win!"
    assert page.text("status").startswith("game over: the cat catches the mouse")


def test_the_hole_stays_dark_and_readable_when_it_is_a_move(browser, tmp_path):
    # Ringed as a move, the hole took the pale green of a legal node under its white name:
    # nearly invisible, exactly when entering it is the winning move.
    page = Page(browser, write_page(tmp_path, "leetcode2.json", 1, 2))
    assert 0 in page.legal()
    hole = browser.find_element(page.By.CSS_SELECTOR, '[data-node="0"]')
    circle = hole.find_element(page.By.TAG_NAME, "circle").value_of_css_property("fill")
    name = hole.find_element(page.By.TAG_NAME, "text").value_of_css_property("fill")
    assert (circle, name) == ("rgb(45, 51, 59)", "rgb(255, 255, 255)")


def test_undo_restart_swap_and_a_wrong_click(browser, tmp_path):
    path = write_page(tmp_path, "chase.edges", 3, 7, "mouse")
    page = Page(browser, path)
    setup = setup_of("chase.edges")
    match = Match(setup, 3, 7, human=Turn.MOUSE)
    assert page.d.find_element(page.By.ID, "undo").get_attribute("disabled") == "true"
    # A node that is not a move: nothing happens but a message.
    page.click_node(6)
    assert page.position() == (3, 7, Turn.MOUSE)
    assert "cannot go from 3 to 6" in page.text("message")
    # Two moves, each answered by the solver.
    for dest in (2, 3):
        page.click_node(dest)
        match.play(dest)
        match.reply()
        page.settle()
        assert page.position() == match.position
    assert page.text("status") == expected_status(match)
    assert page.text("message") == ""
    assert len(page.d.find_elements(page.By.CSS_SELECTOR, "#log li")) == 4
    # Undo takes back the reply and the move, twice, then has nothing left.
    page.press("undo")
    match.undo()
    assert page.position() == match.position == (2, 1, Turn.MOUSE)
    assert page.text("status") == expected_status(match)
    page.press("undo")
    assert page.position() == (3, 7, Turn.MOUSE)
    assert page.text("status") == "the cat wins in 12 moves"
    assert page.d.find_element(page.By.ID, "undo").get_attribute("disabled") == "true"
    # Undo after the game ended: walk into the cat, then take it back.
    page.click_node(7)
    page.settle()
    assert page.body("phase") == "over"
    assert page.text("status") == ("game over: the cat catches the mouse on node 7. "
                                   "The cat wins.")
    page.press("undo")
    assert page.position() == (3, 7, Turn.MOUSE) and page.body("phase") == "you"
    # Restart, then swap sides: the solver's mouse moves first at once.
    page.click_node(4)
    page.settle()
    page.press("restart")
    page.settle()
    assert page.position() == (3, 7, Turn.MOUSE) and page.text("log") == ""
    page.press("swap")
    page.settle()
    assert page.body("human") == "cat"
    match = Match(setup, 3, 7, human=Turn.CAT)
    match.reply()
    assert page.position() == match.position
    assert page.text("status") == expected_status(match)


def test_page_is_self_contained(tmp_path):
    path = write_page(tmp_path, "petersen.g6", 1, 2)
    text = path.read_text(encoding="utf-8")
    # No address but the SVG namespace: the table and the script are inside.
    assert set(re.findall(r"https?://[^\s\"'<>)]+", text)) <= {"http://www.w3.org/2000/svg"}
    assert "<script src" not in text and "<link" not in text
    assert text.count('data-node="') == 10
    assert 'id="status"' in text and 'viewBox="' in text
    for button in ("hints", "undo", "restart"):
        assert f'<button id="{button}"' in text


def test_page_refuses_boards_too_big_to_click(tmp_path, capsys):
    edges = tmp_path / "path.edges"
    edges.write_text("\n".join(f"{i} {i + 1}" for i in range(200)) + "\n")
    code = main(["play", str(edges), "--html", str(tmp_path / "p.html")])
    err = capsys.readouterr().err
    assert code == 1 and "at most 150 nodes" in err and "201" in err
    assert not (tmp_path / "p.html").exists()


def test_page_and_notebook_pictures_fit_a_phone(browser, tmp_path):
    """viewBox scaling: nothing wider than a 390-pixel phone screen, the nodes still clickable."""
    import catmouse

    path = write_page(tmp_path, "chase.edges", 3, 7)
    browser.set_window_size(390, 844)
    try:
        page = Page(browser, path)
        width = browser.execute_script("return window.innerWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        box = browser.execute_script(
            "return document.getElementById('board').getBoundingClientRect().width")
        assert 0 < box <= width
        page.click_node(2)
        page.settle()
        assert page.position() == (2, 1, Turn.MOUSE)
        # A notebook output cell on a phone: the inline SVG shrinks to the cell.
        cell = tmp_path / "cell.html"
        graph = read_graph(str(EXAMPLES / "chase.edges")).graph
        cell.write_text("<!DOCTYPE html><meta name='viewport' content='width=device-width'>"
                        "<div id='cell' style='width: 300px'>"
                        + catmouse.analyze(graph)._repr_html_() + "</div>", encoding="utf-8")
        browser.get(cell.as_uri())
        svg_width = browser.execute_script(
            "return document.querySelector('#cell svg').getBoundingClientRect().width")
        assert 250 < svg_width <= 300
    finally:
        browser.set_window_size(1200, 900)


@pytest.mark.parametrize("side", [Turn.MOUSE, Turn.CAT])
def test_a_game_with_other_rules(browser, tmp_path, side):
    """The page plays any Game: cat goals, passing (click your own node), a never-ending game
    scored as the mouse's win, the cat moving first."""
    from catmouse import Game
    from catmouse.show.page import page_html

    graph = read_graph(str(EXAMPLES / "chase.edges")).graph
    # From this start the games below end in all four ways: caught, the hole, the cat's goal,
    # and a repeated position (scored as the mouse's win).
    game = Game(graph, holes=(0,), cat_goals=(4,), mouse_stays=True, draw=Outcome.MOUSE_WIN,
                first=Turn.CAT)
    setup = Setup.of(game)
    path = tmp_path / "game.html"
    path.write_text(page_html(setup, 2, 8, side), encoding="utf-8")
    rng = random.Random(f"rules-{side}")
    page = Page(browser, path)
    for choose in (best_move, worst_move, lambda m: rng.choice(m.moves())):
        match = Match(setup, 2, 8, human=side)
        play_game(page, match, choose, check_hints=True)
        page.press("restart")
        page.settle()


def test_crowded_board_gets_short_badges(browser, tmp_path):
    """Over 30 nodes, the badge under each move reads W12 / L3 / D (a star on the best)."""
    k = 6
    edges = tmp_path / "grid.edges"
    edges.write_text("".join(f"{r * k + c} {r * k + c + 1}\n" for r in range(k)
                             for c in range(k - 1))
                     + "".join(f"{r * k + c} {(r + 1) * k + c}\n" for r in range(k - 1)
                               for c in range(k)))
    out = tmp_path / "grid.html"
    assert main(["play", str(edges), "--mouse", "14", "--cat", "3", "--hole", "35",
                 "--html", str(out)]) == 0
    page = Page(browser, out)
    page.press("hints")
    match = Match(Setup.of(read_graph(str(edges)).graph, hole=35), 14, 3, human=Turn.MOUSE)
    badges = browser.execute_script(
        "return Array.from(document.querySelectorAll('#nodes .node.legal'))"
        ".map((g) => [Number(g.dataset.node), g.querySelector('.badge').textContent]);")
    want = []
    for dest, outcome, remoteness, best in match.hints():
        letter = {Outcome.MOUSE_WIN: "W", Outcome.CAT_WIN: "L", Outcome.DRAW: "D"}[outcome]
        want.append([dest, ("\u2605" if best else "") + letter
                     + ("" if remoteness is None else str(remoteness))])
    assert sorted(badges) == want


def test_play_command_takes_the_game_options(tmp_path, capsys):
    out = tmp_path / "game.html"
    assert main(["play", str(EXAMPLES / "chase.edges"), "--mouse", "2", "--cat", "8",
                 "--cat-goals", "4", "--mouse-stays", "--draw", "mouse", "--first", "cat",
                 "--html", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert 'class="node goal" data-node="4"' in text
    assert "the cat reaches a shaded node" in text and "a position repeats (the mouse wins)" in text
    assert '"first":1' in text and '"draw":1' in text
    assert "play the mouse" in capsys.readouterr().out


def legend(path) -> str:
    """The words under the buttons, as the page shows them."""
    import html

    text = path.read_text(encoding="utf-8")
    return html.unescape(re.search(r'<p class="legend">(.*?)</p>', text, re.S).group(1))


_HOW = ("The status line is the outcome with perfect play from the current position; hints give "
        "it after each of your moves. A move is one player's step. The game ends when the cat "
        "lands on the mouse, ")


@pytest.mark.parametrize(("options", "words"), [
    ([], "Click a node with a dashed green ring to move there. " + _HOW
     + "the mouse reaches the hole (dark), a player cannot move (and loses), "
       "or a position repeats (a draw)."),
    (["--holes", "0,4"], "Click a node with a dashed green ring to move there. " + _HOW
     + "the mouse reaches a hole (dark), a player cannot move (and loses), "
       "or a position repeats (a draw)."),
    (["--holes", ""], "Click a node with a dashed green ring to move there. " + _HOW
     + "a player cannot move (and loses), or a position repeats (a draw)."),
    (["--cat-goals", "4", "--mouse-stays", "--draw", "cat"],
     "Click a node with a dashed green ring to move there (your own node to stay). " + _HOW
     + "the mouse reaches the hole (dark), the cat reaches a shaded node (its goal), "
       "a player cannot move (and loses), or a position repeats (the cat wins)."),
    (["--cat-stays", "--draw", "mouse", "--cat-graph", "{cat_graph}"],
     "Click a node with a dashed green ring to move there (your own node to stay). " + _HOW
     + "the mouse reaches the hole (dark), a player cannot move (and loses), "
       "or a position repeats (the mouse wins). The cat moves on a graph of its own (not drawn)."),
])
def test_the_legend_says_how_this_game_ends(tmp_path, capsys, options, words):
    board = tmp_path / "g.json"
    board.write_text("[[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]")
    cat_graph = tmp_path / "cat.json"
    cat_graph.write_text("[[2], [3], [0, 4], [1, 4, 5], [2, 3], [3]]")
    out = tmp_path / "g.html"
    argv = ["play", str(board), "--mouse", "1", "--cat", "2", "--html", str(out)]
    assert main(argv + [o.format(cat_graph=cat_graph) for o in options]) == 0, \
        capsys.readouterr().err
    assert legend(out) == words


def test_the_largest_legible_board_gets_a_page(tmp_path, capsys):
    from catmouse.show.draw import LEGIBLE_NODES

    for n in (LEGIBLE_NODES, LEGIBLE_NODES + 1):
        cycle = tmp_path / f"cycle{n}.edges"
        cycle.write_text("".join(f"{i} {(i + 1) % n}\n" for i in range(n)))
        out = tmp_path / f"cycle{n}.html"
        code = main(["play", str(cycle), "--mouse", "5", "--cat", "9", "--html", str(out)])
        _, err = capsys.readouterr()
        if n == LEGIBLE_NODES:
            assert code == 0 and err == ""
            text = out.read_text(encoding="utf-8")
            assert text.count('data-node="') == n
            # On the most crowded board the hint badges and the players' names are set no
            # larger than the node numbers (they would cover the neighbours), and not tiny.
            number = {int(size) for size in
                      re.findall(r'<text x="[\d.]+" y="[\d.]+" font-size="(\d+)">\d+</text>',
                                 text)}
            badge = {int(size) for size in
                     re.findall(r'<text class="badge" [^>]*font-size="(\d+)"', text)}
            names = {int(size) for size in
                     re.findall(r'data-above="[-\d.]+" font-size="(\d+)">(?:cat|mouse)<', text)}
            assert len(number) == len(badge) == len(names) == 1
            assert 11 <= min(badge | names) and max(badge | names) <= min(number)
        else:
            assert code == 1 and f"at most {LEGIBLE_NODES} nodes and this graph has {n}" in err
            assert not out.exists()


@pytest.mark.parametrize(("mouse", "cat", "message"), [
    (1, 0, "the cat cannot be on node 0"),  # the hole
    (9, 2, "mouse node 9 is not in a graph of 4 nodes"),
    (1, -1, "cat node -1 is not in a graph of 4 nodes"),
])
def test_page_html_refuses_a_start_that_is_no_position(mouse, cat, message):
    from catmouse.show.page import page_html

    setup = Setup.of([[1, 3], [0], [3], [0, 2]])
    with pytest.raises(ValueError, match=message):
        page_html(setup, mouse, cat, Turn.MOUSE)


@pytest.mark.parametrize("board", [
    "chase.edges", "petersen.g6",
    [[1], [0, 2], [1, 3], [2, 4], [3]],  # a path: drawn long and thin
    [[1, 2], [0, 3], [0, 3, 4], [1, 2, 5], [2, 5], [3, 4]],  # a ladder
    [[1, 2], [0, 2], [0, 1, 3], [2]],  # a triangle with a tail
])
def test_the_board_is_framed_evenly(tmp_path, capsys, board):
    """The picture ends as far past the last node on the right (and bottom) as it starts
    before the first on the left (and top): no empty band along one side, whatever the shape."""
    if isinstance(board, str):
        path = EXAMPLES / board
    else:
        path = tmp_path / "board.json"
        path.write_text(str(board))
    out = tmp_path / "board.html"
    assert main(["play", str(path), "--mouse", "1", "--cat", "2", "--html", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    width, height = map(float, re.search(r'<svg id="board" viewBox="0 0 (\S+) (\S+)"',
                                         text).groups())
    xs = [float(x) for x in re.findall(r'class="node[^"]*" data-node="\d+" data-x="([\d.]+)"',
                                       text)]
    ys = [float(y) for y in re.findall(r'data-node="\d+" data-x="[\d.]+" data-y="([\d.]+)"',
                                       text)]
    assert len(xs) == len(ys) == read_graph(str(path)).graph.n
    assert min(xs) > 0 and min(ys) > 0
    assert abs((width - max(xs)) - min(xs)) <= 1.0
    assert abs((height - max(ys)) - min(ys)) <= 1.0


@pytest.mark.parametrize("directed", [False, True])
def test_the_board_draws_each_edge_once(tmp_path, capsys, directed):
    """One line per edge between the two nodes' centres; on a directed graph one per arc,
    from its tail towards its head, with an arrowhead, stopping short of the head's circle."""
    path = tmp_path / "board.edges"
    arcs = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)]
    path.write_text("".join(f"{u} {v}\n" for u, v in arcs))
    out = tmp_path / "board.html"
    argv = ["play", str(path), "--mouse", "1", "--cat", "3", "--html", str(out)]
    assert main(argv + (["--directed"] if directed else [])) == 0, capsys.readouterr().err
    text = out.read_text(encoding="utf-8")
    centre = {int(u): (float(x), float(y)) for u, x, y in
              re.findall(r'data-node="(\d+)" data-x="([\d.]+)" data-y="([\d.]+)"', text)}
    radius = float(re.search(r'data-node="0".*?<circle [^>]*r="([\d.]+)"', text).group(1))
    edges = re.search(r'<g id="edges">(.*?)</g>', text, re.S).group(1)
    lines = [((float(x1), float(y1)), (float(x2), float(y2)), bool(arrow)) for
             x1, y1, x2, y2, arrow in
             re.findall(r'<line x1="([\d.-]+)" y1="([\d.-]+)" x2="([\d.-]+)" y2="([\d.-]+)"'
                        r'( marker-end="url\(#edge-arrow\)")?/>', edges)]
    assert len(lines) == len(arcs)

    def near(p, q):
        return math.dist(p, q) <= 0.15

    for u, v in arcs:
        a, b = centre[u], centre[v]
        if not directed:
            assert sum(near(s, a) and near(e, b) or near(s, b) and near(e, a)
                       for s, e, _ in lines) == 1
            continue
        # Towards the head: on the segment from a to b, a little more than a radius before b.
        ends = [e for s, e, arrow in lines if near(s, a) and arrow
                and abs(math.dist(a, e) + math.dist(e, b) - math.dist(a, b)) <= 0.3]
        assert len(ends) == 1, (u, v)
        assert radius < math.dist(ends[0], b) < radius + 6
    assert all(arrow == directed for _, _, arrow in lines)


def test_the_board_is_well_formed_svg():
    """The page's board parses as XML on its own (an unclosed <svg> only renders because
    HTML parsers forgive it)."""
    import xml.etree.ElementTree as ET

    from catmouse.show.page import page_html

    html = page_html(Setup.of([[1, 3], [0], [3], [0, 2]]), 1, 2, Turn.MOUSE)
    start = html.index("<svg")
    end = html.index("</svg>", start) + len("</svg>")
    board = ET.fromstring(html[start:end])
    assert board.tag.endswith("svg") and len(board) > 0
    assert html.count("<svg") == html.count("</svg>")


def house():
    """A small labelled board (networkx): string names, one longer than a circle holds."""
    nx = pytest.importorskip("networkx")
    return nx.Graph([("hole", "hall"), ("hall", "bed"), ("bed", "den"), ("den", "hall"),
                     ("den", "attic"), ("attic", "bed")])


def test_play_page_takes_labels_and_the_page_speaks_them():
    """The page of a labelled graph is made from names and shows names (it used to
    fail on int('bed')); ids stay inside, in data-node and the table's index."""
    import catmouse

    graph = catmouse.Graph(house())
    text = catmouse.play_page(graph, mouse="bed", cat="den", hole="hole")
    data = json.loads(re.search(r'id="catmouse-data"[^>]*>(.*?)</script>', text, re.S).group(1))
    assert data["names"] == ["hole", "hall", "bed", "den", "attic"]
    assert (data["mouse"], data["cat"]) == (graph.index("bed"), graph.index("den"))
    assert data["holes"] == [graph.index("hole")]
    assert 'aria-label="node attic"' in text and "<title>attic</title>" in text
    drawn = re.findall(r'<text x="[\d.]+" y="[\d.]+" font-size="\d+">([^<]*)</text>', text)
    assert drawn == ["hole", "hall", "bed", "den", "a\u2026ic"]
    # A grid names nodes by tuples: the page writes them as the pictures do.
    nx = pytest.importorskip("networkx")
    grid = catmouse.Game(nx.grid_2d_graph(2, 3), holes=[(0, 0)])
    data = json.loads(re.search(r'id="catmouse-data"[^>]*>(.*?)</script>',
                                catmouse.play_page(grid, mouse=(1, 2), cat=(0, 2)),
                                re.S).group(1))
    assert data["names"][:2] == ["0,0", "0,1"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"mouse": "bed", "cat": "den", "hole": "hole", "human": "robber"}, 'human must be "mouse"'),
    ({"hole": "hole"}, "pass mouse= and cat="),
    ({"mouse": "bed", "cat": "cellar", "hole": "hole"}, "cellar"),
])
def test_play_page_refuses_what_it_cannot_play(kwargs, message):
    import catmouse

    with pytest.raises(ValueError, match=re.escape(message)):
        catmouse.play_page(house(), **kwargs)


def test_a_labelled_page_plays_in_names(browser, tmp_path):
    """In the browser: hints, the log, a wrong click's message and the ending name the nodes."""
    import catmouse

    graph = catmouse.Graph(house())
    path = tmp_path / "house.html"
    path.write_text(catmouse.play_page(graph, mouse="bed", cat="den", hole="hole"),
                    encoding="utf-8")
    page = Page(browser, path)
    assert page.text("turn").startswith("Your move: you are the mouse (on bed)")
    page.press("hints")
    hints = [text for _, text in page.look()["hints"]]
    assert sorted(h.split(":")[0].lstrip("\u2605 ") for h in hints) == [
        "to attic", "to den", "to hall"]
    page.click_node(graph.index("hole"))
    assert "cannot go from bed to hole: its moves are hall, den, attic" in page.text("message")
    page.click_node(graph.index("hall"))
    page.settle()
    log = [li.text for li in page.d.find_elements(page.By.CSS_SELECTOR, "#log li")]
    assert log[0] == "mouse bed \u2192 hall (you)"
    # The cat stands next to the hall: walk into the hole, or be caught, and read the ending.
    if page.body("phase") == "you":
        page.click_node(graph.index("hole"))
        page.settle()
    assert page.body("phase") == "over"
    assert re.search(r"node (hole|hall)\)?\.", page.text("status"))


def test_a_long_path_and_a_big_ring_are_played_on_nodes_apart():
    """A 60-node path was drawn as a line on the page, its circles on top of each other (no
    node could be clicked): it is folded.  A ring of 60 overlapped too: the circles shrink to
    fit (not under 13 px).  Every circle is clear of the others."""
    path = [[v for v in (u - 1, u + 1) if 0 <= v < 60] for u in range(60)]
    ring = [[(u - 1) % 60, (u + 1) % 60] for u in range(60)]
    for rows in (path, ring):
        text = catmouse.play_page(rows, mouse=30, cat=32)
        centres = [(float(x), float(y)) for x, y in
                   re.findall(r'data-node="\d+" data-x="([\d.]+)" data-y="([\d.]+)"', text)]
        radius = float(re.search(r'data-node="0".*?<circle [^>]*r="([\d.]+)"', text).group(1))
        assert len(centres) == 60 and radius >= 13
        for a, b in itertools.combinations(centres, 2):
            assert math.dist(a, b) > 2 * radius, (rows is ring, a, b)


@pytest.mark.parametrize(("command", "board"), [("play", "chase.edges"),
                                                 ("cop-play", "petersen.g6")])
def test_the_log_has_room_for_move_numbers_past_99(browser, tmp_path, command, board):
    """The move log is a numbered list whose numbers sit in its left padding: from move 100
    on they were cut off at the log's left edge (2.2em held "99." but not "100.").  Each
    page's log is filled with 1,200 entries and its widest number measured in the log's
    font against that padding."""
    out = tmp_path / "page.html"
    assert main([command, str(EXAMPLES / board), "--html", str(out)]) == 0
    browser.get(out.as_uri() + "#fast")
    room, widest = browser.execute_script("""
        const log = document.getElementById('log');
        for (let i = 0; i < 1200; i++) log.appendChild(document.createElement('li'));
        const style = getComputedStyle(log);
        const pen = document.createElement('canvas').getContext('2d');
        pen.font = style.font;
        return [parseFloat(style.paddingLeft), pen.measureText('1200. ').width];""")
    assert widest <= room, (widest, room)
