"""The game's words, in one place: who wins, how a game ends, how long it takes.

The command line, ``catmouse.draw``, the terminal game (:class:`catmouse.show.play.Match`) and
the play page all say the same things, so they take them from here; the page receives
:func:`page_table` as data and fills the same templates in its script.  A template names its
fields in braces: ``{node}`` (where it ended), ``{player}`` (``mouse`` or ``cat``),
``{winner}`` (``the mouse``), ``{moves}`` (``3 moves``) and ``{whose}`` (``the cat's win``).

>>> ending("caught", node=4)
'the cat catches the mouse on node 4'
>>> outcome_words(Outcome.MOUSE_WIN, 3)
'the mouse wins in 3 moves'
"""

from __future__ import annotations

from typing import Any

from ..outcome import Outcome, Turn

__all__ = ["PLAYER", "ENDINGS", "counted", "ending", "first_mover", "outcome_words",
           "page_table", "plies", "short_outcome", "verdict", "whose_win", "winner"]

PLAYER = {Turn.MOUSE: "mouse", Turn.CAT: "cat"}
_WINNER = {Outcome.MOUSE_WIN: "the mouse", Outcome.CAT_WIN: "the cat"}

# How a game ends.
ENDINGS = {
    "caught": "the cat catches the mouse on node {node}",
    "hole": "the mouse reaches the hole (node {node})",
    "goal": "the cat reaches its goal (node {node})",
    "stuck": "the {player} cannot move, and loses",
    "repeat draw": "a position repeats",  # (the verdict after it says "A draw.")
    "repeat win": "a position repeats: the game would go on forever, which counts as {whose}",
    "goes round": "then a position repeats: the game goes round forever",
    # The command line says which move repeats a position.
    "stays round": "then the {player} stays on {node} and repeats a position: "
                   "the game goes round forever",
    "moves round": "then {move} repeats a position: the game goes round forever",
}

# What a position is worth under perfect play.
_VALUES = {
    "draw": "a draw: neither side can force a win",
    "never ends": "{winner} wins: the game never ends, which counts as its win",
    "at once": "{winner} wins at once",
    "in": "{winner} wins in {moves}",
}
_VERDICT = {Outcome.DRAW: "A draw.", Outcome.MOUSE_WIN: "The mouse wins.",
            Outcome.CAT_WIN: "The cat wins."}
_WHOSE = {Outcome.MOUSE_WIN: "the mouse's win", Outcome.CAT_WIN: "the cat's win",
          Outcome.DRAW: "a draw"}
_SHORT = {Outcome.MOUSE_WIN: "the mouse wins", Outcome.CAT_WIN: "the cat wins",
          Outcome.DRAW: "a draw: neither side can force a win"}
# A move is one player's step (a ply): "1 move", "12 moves".
_MOVE = ("move", "moves")


def plies(count: int) -> str:
    """``"1 move"``, ``"12 moves"``: a move is one player's step (a ply)."""
    return f"{count} {_MOVE[count != 1]}"


def counted(number: int, word: str) -> str:
    """``"1 node"``, ``"2,000 nodes"``: a count and its noun (an English plural in -s)."""
    return f"{number:,} {word}" + ("" if number == 1 else "s")


def winner(outcome: Outcome) -> str:
    """``"the mouse"`` or ``"the cat"``."""
    return _WINNER[Outcome(outcome)]


def whose_win(outcome: Outcome) -> str:
    """``"the mouse's win"``, ``"the cat's win"`` or ``"a draw"``: what a rule counts as."""
    return _WHOSE[Outcome(outcome)]


def verdict(outcome: Outcome) -> str:
    """The sentence that closes a game: ``"The cat wins."``."""
    return _VERDICT[Outcome(outcome)]


def short_outcome(outcome: Outcome) -> str:
    """An outcome in a few words (the command line's summary): ``"the cat wins"``."""
    return _SHORT[Outcome(outcome)]


def first_mover(first: Turn) -> str:
    """``"the mouse moves first"`` or ``"the cat moves first"``."""
    return f"the {PLAYER[Turn(first)]} moves first"


def outcome_words(outcome: Outcome, remoteness: int | None) -> str:
    """A position's value in words, as the play page's status shows it.

    >>> outcome_words(Outcome.CAT_WIN, 12)
    'the cat wins in 12 moves'
    >>> outcome_words(Outcome.DRAW, None)
    'a draw: neither side can force a win'
    """
    if outcome == Outcome.DRAW:
        return _VALUES["draw"]
    if remoteness is None:  # a game that never ends, scored as a win by the rules
        return _VALUES["never ends"].format(winner=winner(outcome))
    if remoteness == 0:
        return _VALUES["at once"].format(winner=winner(outcome))
    return _VALUES["in"].format(winner=winner(outcome), moves=plies(remoteness))


def ending(kind: str, **fields: Any) -> str:
    """How a game ends, in words: ``kind`` is a key of :data:`ENDINGS`."""
    if "player" in fields and isinstance(fields["player"], Turn):
        fields["player"] = PLAYER[fields["player"]]
    if "whose" in fields and isinstance(fields["whose"], Outcome):
        fields["whose"] = whose_win(fields["whose"])
    return ENDINGS[kind].format(**fields)


def page_table() -> dict[str, Any]:
    """Every word the play page shows, for its script to fill as :func:`ending` does."""
    return {
        "endings": ENDINGS,
        "values": _VALUES,
        "move": list(_MOVE),
        "player": [PLAYER[Turn.MOUSE], PLAYER[Turn.CAT]],
        "winner": {int(k): v for k, v in _WINNER.items()},
        "whose": {int(k): v for k, v in _WHOSE.items()},
        "verdict": {int(k): v for k, v in _VERDICT.items()},
    }
