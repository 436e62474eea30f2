"""The game's vocabulary: who wins, and whose turn it is."""

from __future__ import annotations

import enum
import operator
from typing import Any

from .engine import facts
from .graph_checks import _is_numpy_bool

__all__ = ["Outcome", "Turn", "as_outcome", "as_turn"]


class Outcome(enum.IntEnum):
    """The value of a position under optimal play, with LeetCode 913's codes.

    >>> Outcome(1)
    <Outcome.MOUSE_WIN: 1>
    >>> Outcome.CAT_WIN == 2
    True
    >>> print(Outcome.MOUSE_WIN)
    MOUSE_WIN
    """

    DRAW = facts.DRAW  # the engines' codes, so a table's byte is its Outcome
    MOUSE_WIN = facts.MOUSE_WIN
    CAT_WIN = facts.CAT_WIN

    def __str__(self) -> str:
        """The name: ``print(Outcome.MOUSE_WIN)`` shows ``MOUSE_WIN`` (repr is unchanged)."""
        return self.name

    def __format__(self, spec: str) -> str:
        # f"{outcome}" reads like print(); a numeric spec ("d", "02") formats the code.
        return self.name if not spec else format(int(self), spec)


class Turn(enum.IntEnum):
    """Who moves next in a position.

    >>> Turn.MOUSE, int(Turn.CAT)
    (<Turn.MOUSE: 0>, 1)
    """

    MOUSE = 0
    CAT = 1

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return self.name if not spec else format(int(self), spec)

    @property
    def other(self) -> Turn:
        """The player who moves after this one."""
        return Turn(1 - self)


_TURNS = (Turn.MOUSE, Turn.CAT)


def as_turn(value: Any, what: str = "turn") -> Turn:
    """``value`` as a Turn: a Turn, or an integer 0 or 1 (numpy's too).

    A bool is a TypeError and anything else a ValueError naming ``what``: Python takes True
    for 1, so ``turn=True`` read as the cat's turn.
    """
    if type(value) is Turn:
        return value
    if type(value) is int and 0 <= value <= 1:  # (queries in hot loops pass plain ints)
        return _TURNS[value]
    return enum_member(Turn, value, what, "Turn.MOUSE (0) or Turn.CAT (1)")


def as_outcome(value: Any, what: str = "draw") -> Outcome:
    """``value`` as an Outcome (a code 0, 1 or 2), as :func:`as_turn` reads a turn."""
    if type(value) is Outcome:
        return value
    return enum_member(Outcome, value, what, "an Outcome (DRAW, MOUSE_WIN or CAT_WIN)")


def enum_member(kind: Any, value: Any, what: str, names: str) -> Any:
    """``value`` as a member of the IntEnum ``kind`` by its integer code (a bool refused)."""
    if isinstance(value, bool) or _is_numpy_bool(value):
        raise TypeError(f"{what} is a bool ({value!r}): give {names}")
    try:
        return kind(operator.index(value))
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be {names}, not {value!r}") from None
