"""The k-cops play page: its tables against the analysis, and games replayed in chromium."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from catmouse import CopsGame, Turn
from catmouse.cli.commands import main
from catmouse.show.cops_page import cops_data, cops_page_html

PETERSEN = [[1, 4, 5], [0, 2, 6], [1, 3, 7], [2, 4, 8], [3, 0, 9],
            [0, 7, 8], [1, 8, 9], [2, 9, 5], [3, 5, 6], [4, 6, 7]]
BROWSER = next(filter(None, map(shutil.which, ("chromium", "chromium-browser",
                                               "google-chrome"))), None)


def test_the_tables_are_the_analysis():
    analysis = CopsGame(PETERSEN, cops=3).analyze()
    data = cops_data(analysis)
    n = 10
    assert data["teams"][data["start"]] == list(analysis.winning_starts()[0])
    for row, team in enumerate(data["teams"]):
        for robber in range(n):
            reply = data["best"][row * n + robber]
            if robber in team:
                assert reply == -1
                continue
            assert tuple(data["teams"][reply]) == analysis.best_moves(team, robber)[0]
            expected = analysis.remoteness(team, robber, Turn.MOUSE)
            assert data["remoteness"][row * n + robber] == (-1 if expected is None else expected)


def status(path, moves: list[int]) -> str:
    url = f"file://{path}#moves={','.join(map(str, moves))}"
    dom = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                          url], capture_output=True, text=True, timeout=120).stdout
    found = re.search(r'<p id="status">([^<]*)</p>', dom)
    assert found, dom[:500]
    return found[1]


@pytest.mark.skipif(BROWSER is None, reason="chromium is not installed")
def test_games_replayed_in_the_browser(tmp_path):
    analysis = CopsGame(PETERSEN, cops=3).analyze()
    path = tmp_path / "cops.html"
    path.write_text(cops_page_html(analysis))
    start = analysis.winning_starts()[0]
    # The robber's best start and best moves: the longest game perfect cops allow.
    robber = max(range(10), key=lambda r: analysis.remoteness(start, r))
    plies = analysis.remoteness(start, robber)
    clicks = [robber]
    for _, where, turn in analysis.line(start, robber)[1:]:
        if turn == Turn.CAT:  # the robber just moved
            clicks.append(where)
    assert status(path, clicks) == (f"game over: the cops catch the robber on {clicks[-1]} "
                                    f"after {plies} plies")
    assert status(path, [7, 0]).startswith("0 is not next to 7")


def test_the_command_writes_the_page(tmp_path, capsys):
    graph = tmp_path / "p.json"
    graph.write_text(json.dumps(PETERSEN))
    out = tmp_path / "page.html"
    assert main(["cop-play", str(graph), "--html", str(out)]) == 0
    assert "play the robber against 3 cops" in capsys.readouterr().out
    assert 'id="cops-data"' in out.read_text()
    assert main(["cop-play", str(graph), "--html", str(out), "--as", "cops"]) == 1
    assert "drop --as cops" in capsys.readouterr().err
