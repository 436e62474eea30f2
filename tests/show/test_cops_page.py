"""The k-cops play page: its tables against the analysis, and games played in chromium.

As the robber and as the cops (the whole team, one cop's destination at a time), clicking
nodes as a player would; at every turn the page's status, hints and the solver's reply are
checked against :class:`CopsAnalysis`.  The browser tests skip, saying why, only where
selenium, chromium or chromedriver is missing.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess

import pytest
from browser import driver_or_skip

from catmouse import CopsGame, Turn
from catmouse.cli.commands import main
from catmouse.show.cops_page import MAX_PAGE_POSITIONS, cops_data, cops_page_html

PETERSEN = [[1, 4, 5], [0, 2, 6], [1, 3, 7], [2, 4, 8], [3, 0, 9],
            [0, 7, 8], [1, 8, 9], [2, 9, 5], [3, 5, 6], [4, 6, 7]]
BROWSER = next(filter(None, map(shutil.which, ("chromium", "chromium-browser",
                                               "google-chrome"))), None)


def plies(r: int) -> str:
    return f"{r} ply" if r == 1 else f"{r} plies"


def perfect_status(analysis, team, robber, turn) -> str:
    r = analysis.remoteness(team, robber, turn)
    return "the robber escapes forever" if r is None else f"the cops catch the robber in {plies(r)}"


def test_the_tables_are_the_analysis():
    analysis = CopsGame(PETERSEN, cops=3).analyze()
    data = cops_data(analysis)
    n = 10
    team, robber = analysis.best_start()
    assert data["teams"][data["start"]] == list(team)
    assert data["robberStart"][data["start"]] == robber
    for row, team in enumerate(data["teams"]):
        for robber in range(n):
            at = row * n + robber
            for key, turn in (("capture", Turn.CAT), ("caught", Turn.MOUSE)):
                expected = analysis.remoteness(team, robber, turn)
                assert data[key][at] == (-1 if expected is None else expected)
            if robber in team:
                assert data["copsReply"][at] == data["robberReply"][at] == -1
                continue
            assert tuple(data["teams"][data["copsReply"][at]]) == analysis.best_moves(
                team, robber)[0]
            assert data["robberReply"][at] == analysis.best_moves(team, robber, Turn.MOUSE)[0]


def test_the_page_refuses_what_it_cannot_carry():
    with pytest.raises(ValueError, match="'robber' or 'cops'"):
        cops_data(CopsGame(PETERSEN, cops=1).analyze(), human="cat")
    n = 40  # C(42, 3) teams of 40 robber nodes: past the page's size
    ring = [[(u - 1) % n, (u + 1) % n] for u in range(n)]
    assert 11480 * n > MAX_PAGE_POSITIONS
    with pytest.raises(ValueError, match="play in the terminal"):
        cops_page_html(CopsGame(ring, cops=3).analyze())


def status(path, moves: list[int]) -> tuple[str, str]:
    """(#status, #message) after replaying ``moves`` as clicks (``#moves=``)."""
    url = f"file://{path}#moves={','.join(map(str, moves))}"
    dom = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                          url], capture_output=True, text=True, timeout=120).stdout
    found = re.search(r'<span id="status"[^>]*>([^<]*)</span>', dom)
    message = re.search(r'<p id="message"[^>]*>([^<]*)</p>', dom)
    assert found and message, dom[:500]
    return found[1], message[1]


@pytest.mark.skipif(BROWSER is None, reason="chromium is not installed")
def test_games_replayed_in_the_browser(tmp_path):
    analysis = CopsGame(PETERSEN, cops=3).analyze()
    path = tmp_path / "cops.html"
    path.write_text(cops_page_html(analysis, (0, 0, 0)))
    start = (0, 0, 0)
    # The robber's best start and best moves: the longest game perfect cops allow.
    robber = max(range(10), key=lambda r: analysis.remoteness(start, r))
    length = analysis.remoteness(start, robber)
    clicks = [robber]
    for _, where, turn in analysis.line(start, robber)[1:]:
        if turn == Turn.CAT:  # the robber just moved
            clicks.append(where)
    assert status(path, clicks)[0] == (f"game over: the cops catch the robber on {clicks[-1]} "
                                       f"after {plies(length)}")
    # A wrong click is told apart from the outcome, which stays in #status.
    text, message = status(path, [7, 0])
    assert message == "0 is not next to 7: the robber moves along an edge or stays."
    reply = analysis.best_moves(start, 7)[0]
    assert text == perfect_status(analysis, reply, 7, Turn.MOUSE)


# -- in chromium, through selenium ------------------------------------------------------


@pytest.fixture(scope="module")
def driver():
    driver = driver_or_skip()
    yield driver
    driver.quit()


_LOOK = """
const b = document.body.dataset;
return {
  phase: b.phase, human: b.human, turn: b.turn, robber: Number(b.robber),
  team: b.team ? b.team.split(",").map(Number) : [],
  pending: b.pending ? b.pending.split(",").map(Number) : [],
  status: document.getElementById("status").textContent,
  message: document.getElementById("message").textContent,
  legal: Array.from(document.querySelectorAll("#nodes .node.legal"))
    .map((g) => Number(g.dataset.node)).sort((x, y) => x - y),
  hints: Array.from(document.querySelectorAll("#hint-list li"))
    .map((li) => [Number(li.dataset.move), li.textContent]),
};
"""


class Page:
    def __init__(self, driver, path):
        self.d = driver
        driver.get(path.as_uri() + "#fast")

    def look(self):
        return self.d.execute_script(_LOOK)

    def click(self, node):
        self.d.find_element("css selector", f'[data-node="{node}"] .disc').click()

    def press(self, button):
        self.d.find_element("id", button).click()


def assignment(graph, team, target):
    """Which destination each cop of ``team`` (in order) takes to stand on ``target``."""
    def match(i, left):
        if i == len(team):
            return []
        for j, v in enumerate(left):
            if v == team[i] or v in graph[team[i]]:
                rest = match(i + 1, left[:j] + left[j + 1:])
                if rest is not None:
                    return [v, *rest]
        return None
    return match(0, list(target))


def write(tmp_path, graph, k, human):
    path = tmp_path / f"cops-{k}-{human}.html"
    path.write_text(cops_page_html(CopsGame(graph, cops=k).analyze(), human=human))
    return path


def test_the_cops_played_perfectly_catch_him_on_time(driver, tmp_path):
    """Best start, best team moves cop by cop: the hints star each choice, the robber
    replies as the analysis does, and the capture comes after the promised plies."""
    analysis = CopsGame(PETERSEN, cops=2).analyze()  # two cops: he escapes from every start
    three = CopsGame(PETERSEN, cops=3).analyze()
    for a, k in ((analysis, 2), (three, 3)):
        page = Page(driver, write(tmp_path, PETERSEN, k, "cops"))
        page.press("hints")
        seen = page.look()
        assert (seen["phase"], seen["human"], seen["turn"]) == ("you", "cops", "cops")
        team, robber = a.best_start()
        for i, u in enumerate(team):
            hints = dict(page.look()["hints"])
            assert hints[u].endswith("(best)"), (i, hints)
            page.click(u)
        seen = page.look()
        assert (seen["team"], seen["robber"]) == (list(team), robber)
        moves = 0
        while robber not in team and moves < 8:
            assert seen["status"] == perfect_status(a, team, robber, Turn.CAT)
            target = a.best_moves(team, robber)[0]
            for i, v in enumerate(assignment(PETERSEN, team, target)):
                seen = page.look()
                assert seen["pending"] == list(assignment(PETERSEN, team, target)[:i])
                assert seen["legal"] == sorted({team[i], *PETERSEN[team[i]]})
                assert dict(seen["hints"])[v].endswith("(best)")
                page.click(v)
            seen = page.look()
            team = target
            if robber not in team:
                robber = a.best_moves(team, robber, Turn.MOUSE)[0]
            assert (tuple(seen["team"]), seen["robber"]) == (team, robber)
            moves += 1
        if a is three:
            r = three.remoteness(*three.best_start())
            assert seen["phase"] == "over" and seen["status"] == (
                f"game over: the cops catch the robber on {robber} after {plies(r)}")
        else:
            assert seen["phase"] == "you" and seen["status"] == "the robber escapes forever"


def test_a_cop_that_jumps_is_refused_and_stay_undo_restart_swap(driver, tmp_path):
    page = Page(driver, write(tmp_path, PETERSEN, 3, "cops"))
    for u in (0, 0, 0):
        page.click(u)
    seen = page.look()
    robber = seen["robber"]
    assert seen["team"] == [0, 0, 0] and seen["turn"] == "cops"
    page.click(7)  # not next to 0
    seen = page.look()
    assert seen["message"] == "Cop 1 cannot go from 0 to 7: its moves are 0, 1, 4, 5."
    assert seen["pending"] == [] and seen["status"] == perfect_status(
        CopsGame(PETERSEN, cops=3).analyze(), (0, 0, 0), robber, Turn.CAT)
    page.press("stay")
    page.click(1)
    assert page.look()["pending"] == [0, 1]
    assert driver.find_element("id", "turn").text.startswith(
        "Chosen: cop 1: 0 \u2192 0, cop 2: 0 \u2192 1. Your move: cop 3 of 3 (on 0)")
    page.press("undo")  # takes back the last cop's choice only
    assert page.look()["pending"] == [0]
    page.click(4)
    page.click(5)
    seen = page.look()
    assert seen["team"] == [0, 4, 5] and seen["pending"] == [] and seen["message"] == ""
    page.press("undo")  # the whole team move, back to the cops' turn
    seen = page.look()
    assert (seen["team"], seen["robber"]) == ([0, 0, 0], robber)
    page.press("restart")
    seen = page.look()
    assert seen["team"] == [] and seen["robber"] == -1 and seen["turn"] == "cops"
    page.press("swap")  # now the robber, against the cops' best start
    seen = page.look()
    team, _ = CopsGame(PETERSEN, cops=3).analyze().best_start()
    assert (seen["human"], seen["phase"], seen["team"]) == ("robber", "you", list(team))
    assert seen["status"] == "the cops catch the robber wherever he starts, within 1 ply"
    assert driver.find_element("id", "stay").is_displayed() is False


def test_a_capture_on_the_spot_is_said_so(driver, tmp_path):
    """Seen in a screenshot: "the cops catch the robber in 0 plies" for cop 1 onto him."""
    page = Page(driver, write(tmp_path, PETERSEN, 3, "cops"))
    page.press("hints")
    for u in (1, 4, 5):
        page.click(u)
    seen = page.look()
    assert seen["robber"] == 0 and seen["status"] == "the cops catch the robber in 1 ply"
    hints = dict(seen["hints"])
    assert hints[0] == "to 0: the cops catch the robber at once (best)"
    assert driver.find_element("css selector", '[data-node="0"] .badge').text == "\u2605catch now"


def test_a_robber_who_wanders_at_random(driver, tmp_path):
    """Random legal moves as the robber; every status and cop reply is the analysis's."""
    analysis = CopsGame(PETERSEN, cops=3).analyze()
    page = Page(driver, write(tmp_path, PETERSEN, 3, "robber"))
    chance = random.Random(22)
    team, _ = analysis.best_start()
    robber = chance.randrange(10)
    page.click(robber)
    for _ in range(12):
        if robber in team:
            break
        team = analysis.best_moves(team, robber)[0]
        seen = page.look()
        assert (tuple(seen["team"]), seen["robber"]) == (team, robber)
        if robber in team:
            break
        assert seen["status"] == perfect_status(analysis, team, robber, Turn.MOUSE)
        assert seen["legal"] == sorted({robber, *PETERSEN[robber]})
        robber = chance.choice(seen["legal"])
        page.click(robber)
    seen = page.look()
    assert seen["phase"] == "over" and seen["status"].startswith("game over: ")


def test_the_command_writes_the_page(tmp_path, capsys):
    graph = tmp_path / "p.json"
    graph.write_text(json.dumps(PETERSEN))
    out = tmp_path / "page.html"
    assert main(["cop-play", str(graph), "--html", str(out)]) == 0
    assert "play the robber against 3 cops" in capsys.readouterr().out
    assert '"human":"robber"' in out.read_text()
    assert main(["cop-play", str(graph), "--html", str(out), "--as", "cops"]) == 0
    assert "play 3 cops against a robber" in capsys.readouterr().out
    assert '"human":"cops"' in out.read_text() and 'id="cops-data"' in out.read_text()


def board(page: str):
    """The page's board as XML (it must parse: every element closed)."""
    import xml.etree.ElementTree as ET

    found = re.search(r'<svg id="board".*?</svg>', page, re.S)
    assert found, "no whole board on the page"
    return ET.fromstring(found[0])


def ring(n):
    return [[(u - 1) % n, (u + 1) % n] for u in range(n)]


SVG = "{http://www.w3.org/2000/svg}"


def test_the_board_draws_each_edge_once_between_its_nodes():
    root = board(cops_page_html(CopsGame(PETERSEN, cops=1).analyze()))
    discs = {int(g.get("data-node")): g.find(f"{SVG}circle[@class='disc']")
             for g in root.iter(f"{SVG}g") if g.get("data-node") is not None}
    centre = {u: (float(c.get("cx")), float(c.get("cy"))) for u, c in discs.items()}
    where = {xy: u for u, xy in centre.items()}
    lines = list(root.iter(f"{SVG}line"))
    ends = [frozenset((where[float(line.get("x1")), float(line.get("y1"))],
                       where[float(line.get("x2")), float(line.get("y2"))])) for line in lines]
    assert len(ends) == 15 and set(ends) == {frozenset((u, v)) for u, row in enumerate(PETERSEN)
                                             for v in row}


def test_the_board_leaves_even_margins_and_puts_each_count_badge_up_right():
    root = board(cops_page_html(CopsGame(PETERSEN, cops=1).analyze()))
    width, height = (float(v) for v in root.get("viewBox").split()[2:])
    xs, ys = [], []
    for g in root.iter(f"{SVG}g"):
        if g.get("data-node") is None:
            continue
        disc = g.find(f"{SVG}circle[@class='disc']")
        x, y = float(disc.get("cx")), float(disc.get("cy"))
        xs.append(x)
        ys.append(y)
        badge = g.find(f"{SVG}g[@class='count']/{SVG}circle")
        bx, by = float(badge.get("cx")), float(badge.get("cy"))
        assert bx > x and by < y and abs((bx - x) - (y - by)) <= 0.11  # on the diagonal
    margins = [min(xs), width - max(xs), min(ys), height - max(ys)]
    assert max(margins) - min(margins) <= 1.0, margins  # (the viewBox is rounded)


def test_a_bigger_graph_gets_a_bigger_board():
    def width(n):
        root = board(cops_page_html(CopsGame(ring(n), cops=1).analyze()))
        return float(root.get("viewBox").split()[2])

    assert width(100) > width(20)


def test_the_page_refuses_more_nodes_than_it_draws_legibly():
    with pytest.raises(ValueError, match="at most 150 nodes and this graph has 151"):
        cops_page_html(CopsGame(ring(151), cops=1).analyze())


def test_the_robber_is_told_where_the_cops_stand(driver, tmp_path):
    # Playing the robber, the page said only "click a node to start there": the cops' start
    # was there to see but not in words (the cops' side is told each of its choices).
    analysis = CopsGame(PETERSEN, cops=3).analyze()
    page = Page(driver, write(tmp_path, PETERSEN, 3, "robber"))
    team, _ = analysis.best_start()
    seen = page.look()
    assert seen["robber"] < 0 and tuple(seen["team"]) == tuple(team)
    names = sorted(set(team))
    shared = {u: team.count(u) for u in names}
    words = [f"{u} ({shared[u]} cops)" if shared[u] > 1 else str(u)
             for u in sorted(names, key=team.index)]
    where = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    turn = driver.find_element("id", "turn").text
    assert turn == f"You are the robber: the cops stand on {where}. Click a node to start there."


@pytest.mark.parametrize("k", [1, 2])
def test_the_rules_speak_of_one_cop_in_the_singular(k):
    # One cop's page said "The 1 cop place themselves (several may share a node)".
    page = cops_page_html(CopsGame([[1], [0, 2], [1]], cops=k).analyze())
    rules = re.search(r'<p class="legend">(.*?)</p>', page, re.S).group(1)
    if k == 1:
        assert rules.startswith("The cop places itself, then the robber;")
        assert "1 cop" not in rules and "several" not in rules and "cops" not in rules
    else:
        assert rules.startswith("The 2 cops place themselves (several may share a node)")
