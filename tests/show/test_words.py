"""One home for the game's words: the CLI, draw, the terminal game and the play page agree.

catmouse/show/words.py holds every ending and value sentence; the page receives its table as
data (``#catmouse-words``) and its script (package data, page.js) fills the same templates.
"""

from __future__ import annotations

import json
import re
from importlib import resources

import catmouse
from catmouse import Outcome, Turn
from catmouse.show import words
from catmouse.show.draw import Setup
from catmouse.show.page import page_html
from catmouse.show.play import Match

SQUARE = [[1, 3], [0, 2], [1, 3], [0, 2]]


def embedded(page: str, element: str) -> object:
    found = re.search(rf'<script id="{element}" type="application/json">(.*?)</script>', page,
                      re.S)
    assert found, element
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_the_page_carries_the_words_table():
    page = page_html(Setup.of([[1, 3], [0], [3], [0, 2]]), 1, 2, Turn.MOUSE)
    table = json.loads(json.dumps(words.page_table()))  # as JSON sees it (int keys as text)
    assert embedded(page, "catmouse-words") == table


def test_the_page_script_writes_no_ending_of_its_own():
    script = resources.files("catmouse.show").joinpath("page.js").read_text(encoding="utf-8")
    strings = " | ".join(re.findall(r'"(?:[^"\\\n]|\\.)*"', script))  # its string literals
    for template in words.ENDINGS.values():
        fixed = re.split(r"\{\w+\}", template)
        assert not any(len(part) > 12 and part in strings for part in fixed), template
    for phrase in ("catches the mouse", "cannot move", "wins in", "neither side", '" move'):
        assert phrase not in strings, phrase


def test_the_page_assets_are_package_data():
    show = resources.files("catmouse.show")
    shell = show.joinpath("shell.html").read_text(encoding="utf-8")
    parts = show.joinpath("page.html").read_text(encoding="utf-8")  # the game's own parts
    assert "%SCRIPT%" in shell and "%WORDS%" in parts and "%DATA%" in parts
    assert show.joinpath("page.js").is_file()


def test_the_terminal_game_ends_in_the_same_words():
    analysis = catmouse.analyze(SQUARE, hole=0)
    match = Match(Setup.of(analysis), 1, 2, human=Turn.MOUSE)
    match.play(0)  # the mouse steps into the hole
    assert match.result() == (Outcome.MOUSE_WIN, words.ending("hole", node=0))


def test_draw_says_the_ending_in_the_same_words():
    svg = catmouse.draw(catmouse.analyze([[1], [0, 2], [1]], hole=0), mouse=1, cat=2)
    assert words.ending("hole", node=0) in svg


def test_the_cli_says_the_value_in_the_same_words(tmp_path, capsys):
    from catmouse.cli import main

    board = tmp_path / "square.json"
    board.write_text(json.dumps(SQUARE))
    assert main(["solve", str(board)]) == 0
    out = capsys.readouterr().out
    analysis = catmouse.analyze(SQUARE)
    assert words.short_outcome(analysis.outcome(1, 2)) in out
    assert words.plies(analysis.remoteness(1, 2)) in out


def test_the_cli_words_an_endless_game_scored_as_a_win(tmp_path, capsys):
    """With ``--draw cat`` LeetCode's first example (a draw) is the cat's: it never ends."""
    from catmouse.cli import main

    board = tmp_path / "leetcode1.json"
    board.write_text(json.dumps([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]))
    assert main(["solve", "--draw", "cat", str(board)]) == 0
    out = capsys.readouterr().out
    said = words.outcome_words(Outcome.CAT_WIN, None)
    assert said == "the cat wins: the game never ends, which counts as its win"
    assert f"outcome: {said}" in out


def test_a_repeated_position_says_draw_once():
    # The page and the terminal end a game "game over: {how}. {verdict}", and a repetition
    # drawn said "a position repeats: a draw. A draw.".
    from catmouse.show.words import ending, verdict

    said = f"game over: {ending('repeat draw')}. {verdict(Outcome.DRAW)}"
    assert said == "game over: a position repeats. A draw."
