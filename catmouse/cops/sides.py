"""The k-cops game's vocabulary: whose turn it is (:class:`CopsTurn`) and who wins
(:class:`CopsOutcome`).

Their values are the cat-and-mouse game's (the cops are the cats of the family, the robber
the mouse): ``CopsTurn.COPS == Turn.CAT == 1``, ``CopsOutcome.COPS_WIN == Outcome.CAT_WIN
== 2``, so code written against ``Turn``/``Outcome`` keeps working, and the old names are
aliases here (``CopsTurn.CAT is CopsTurn.COPS``).
"""

from __future__ import annotations

import enum

from ..outcome import Outcome, Turn

__all__ = ["CopsTurn", "CopsOutcome"]


class CopsTurn(enum.IntEnum):
    """Who moves next in a position of the k-cops game.

    >>> CopsTurn.COPS, CopsTurn.ROBBER.other, CopsTurn(1) == 1
    (<CopsTurn.COPS: 1>, <CopsTurn.COPS: 1>, True)
    >>> CopsTurn.CAT is CopsTurn.COPS       # the cat-and-mouse name, kept as an alias
    True
    """

    ROBBER = Turn.MOUSE.value
    COPS = Turn.CAT.value
    MOUSE = Turn.MOUSE.value  # aliases: the names 0.2.0 answered in
    CAT = Turn.CAT.value

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return self.name if not spec else format(int(self), spec)

    @property
    def other(self) -> CopsTurn:
        """The side that moves after this one."""
        return CopsTurn(1 - self)


class CopsOutcome(enum.IntEnum):
    """The value of a k-cops position under optimal play (no draws: the robber escapes
    forever or is caught).

    >>> CopsOutcome(2), print(CopsOutcome.ROBBER_WIN)
    ROBBER_WIN
    (<CopsOutcome.COPS_WIN: 2>, None)
    >>> CopsOutcome.COPS_WIN == Outcome.CAT_WIN and CopsOutcome.CAT_WIN is CopsOutcome.COPS_WIN
    True
    """

    ROBBER_WIN = Outcome.MOUSE_WIN.value
    COPS_WIN = Outcome.CAT_WIN.value
    MOUSE_WIN = Outcome.MOUSE_WIN.value  # aliases: the names 0.2.0 answered in
    CAT_WIN = Outcome.CAT_WIN.value

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return self.name if not spec else format(int(self), spec)
