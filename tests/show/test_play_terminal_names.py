"""The terminal game on a graph whose labels read alike or cannot be typed as they are.

Labels ``1`` and ``"1"`` (or the tuple ``(1, 2)`` and the string ``"(1, 2)"``) print the
same; the game listed both as ``1`` and typing ``1`` always took the first, so the other
could not be reached.  Such a label is shown and typed as JSON, as the command line's node
options take it; so is one holding a newline or with spaces round it.
"""

from __future__ import annotations

import io

import pytest

from catmouse import Graph, Turn
from catmouse.show.draw import Setup
from catmouse.show.play import Match, play_terminal

# The mouse on "m" may go to the int 1 (next to the hole: it wins) or the string "1" (next
# to the cat: it loses); (1, 2) and "(1, 2)" sit next to the cat too.
ALIKE = {"m": [1, "1"], 1: ["m", "h"], "1": ["m", "c"], "h": [1],
         "c": ["1", (1, 2)], (1, 2): ["c", "(1, 2)"], "(1, 2)": [(1, 2)]}


def _setup():
    return Setup.of(Graph(ALIKE), "h")


def test_labels_that_read_alike_are_shown_and_typed_as_json(use_engine):
    match = Match(_setup(), "m", "c", human=Turn.MOUSE)
    assert [match.text(v) for v in match.moves()] == ["1", '"1"']
    assert match.node('"1"') == "1" and type(match.node("1")) is int
    assert match.node("[1, 2]") == (1, 2) and match.node('"(1, 2)"') == "(1, 2)"
    assert match.node("(1, 2)") is None  # two labels read so: neither is guessed
    assert match.clash("(1, 2)") == ["[1, 2]", '"(1, 2)"'] and match.clash("m") == []
    assert match.node("true") is None and match.node("M") == "m"
    match.play(match.node('"1"'))
    assert match.position == ("1", "c", Turn.CAT)


def test_the_terminal_game_reaches_either_node(use_engine):
    answers = iter(["(1, 2)", '"1"', "q"])
    out = io.StringIO()
    play_terminal(_setup(), "m", "c", Turn.MOUSE, ask=lambda _: next(answers), out=out)
    text = out.getvalue()
    assert 'your moves: 1, "1"' in text
    assert "'(1, 2)' names several nodes: type one as shown, [1, 2] or \"(1, 2)\"" in text
    assert 'you: m -> "1"' in text and 'the cat catches the mouse on node "1"' in text


@pytest.mark.parametrize("name", ["two\nlines", " spaced ", "tab\there"])
def test_a_name_that_cannot_be_typed_as_it_is(use_engine, name):
    graph = Graph({"h": ["m"], "m": ["h", name], name: ["m", "c"], "c": [name]})
    match = Match(Setup.of(graph, "h"), "m", "c", human=Turn.MOUSE)
    shown = match.text(name)
    assert shown.isprintable() and shown.startswith('"') and match.node(shown) == name
    answers = iter([shown, "q"])
    out = io.StringIO()
    play_terminal(Setup.of(graph, "h"), "m", "c", Turn.MOUSE, ask=lambda _: next(answers),
                  out=out)
    assert f"you: m -> {shown}" in out.getvalue()
