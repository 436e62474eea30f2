"""The game's vocabulary: who wins, and whose turn it is."""

from __future__ import annotations

import enum

from .engine import facts

__all__ = ["Outcome", "Turn"]


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
