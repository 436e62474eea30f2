"""Remoteness rows read straight from an Analysis's bit-planes, for the writers (numpy).

The writers read rows of either turn's table by mouse, in blocks and at the moves' rows (any
index array), through the format's own reader (engine/planes.py: or_rows), a plane at a time.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

from ..engine.facts import CAT_FORBIDDEN, CAT_GOAL, CAT_WIN, HOLE, MOUSE_WIN
from ..engine.planes import half_words, or_rows

__all__ = ["PlaneRows", "fix_never_ending", "goes_on"]

def goes_on(rules: Any, mouse: int, cat: int, turn: int) -> bool:
    """True where the game is not over at once: no one caught, home or stuck.

    Every other position that a search decides has a remoteness of 1 or more, so a value of
    0 there, under an outcome that the draw rule scores, is a game that never ends.
    """
    flags = rules.flags
    if mouse == cat or flags[mouse] & HOLE or flags[cat] & CAT_GOAL:
        return False
    return not _has_no_move(rules, mouse if turn == 0 else cat, turn)


def _has_no_move(rules: Any, node: int, turn: int) -> bool:
    if turn == 0:
        return not rules.mouse_graph._rows()[node]
    flags = rules.flags
    return all(flags[v] & CAT_FORBIDDEN for v in rules.cat_graph._rows()[node])


def _stuck(rules: Any, turn: int) -> Any:
    """By node: the mover (the mouse on turn 0, the cat on 1) has no move from it.

    Kept on the rules (their ``_stuck``), so that it lives exactly as long as they do: kept
    in the graph's cache, keyed by the rules, every Game made on a shared Graph stayed on it."""
    import numpy

    kept = rules._stuck
    if kept is None:
        # (Two threads may both make one: the arrays of the one dropped are made again.)
        kept = [None, None]
        object.__setattr__(rules, "_stuck", kept)
    stuck = kept[turn]
    if stuck is None:
        stuck = numpy.array([_has_no_move(rules, v, turn) for v in range(rules.n)], dtype=bool)
        kept[turn] = stuck
    return stuck


def fix_never_ending(rules: Any, outcomes: bytes, rows: Any, turn: int,
                     ms: Sequence[int]) -> Any:
    """Rows ``ms`` of ``turn``'s remoteness (from the planes) with -1 for the games that never
    end although their outcome is a win: the rules' ``draw`` scores them so (the planes hold
    0 for them, and a decided position where the game goes on has 1 or more)."""
    n = rules.n
    if not isinstance(rows, array):
        import numpy as np

        mice = np.asarray(ms, dtype=np.intp)
        flags = np.frombuffer(rules.flags, dtype=np.uint8)
        over = ((flags & CAT_GOAL) != 0)[None, :] | ((flags & HOLE) != 0)[mice][:, None]
        over = over | (mice[:, None] == np.arange(n)[None, :])
        stuck = _stuck(rules, turn)
        over |= stuck[mice][:, None] if turn == 0 else stuck[None, :]
        codes = np.frombuffer(outcomes, dtype=np.uint8).reshape(2 * n, n)[turn * n + mice]
        flat = rows.reshape(len(mice), n)
        flat[((codes == MOUSE_WIN) | (codes == CAT_WIN)) & (flat == 0) & ~over] = -1
        return rows
    for k, m in enumerate(ms):
        for c in range(n):
            at = k * n + c
            if (rows[at] == 0 and outcomes[(turn * n + m) * n + c] in (MOUSE_WIN, CAT_WIN)
                    and goes_on(rules, m, c, turn)):
                rows[at] = -1
    return rows


class PlaneRows:
    """``rows(turn, ms)``: int32 remoteness of rows ``ms`` (any shape) of ``turn``'s table."""

    def __init__(self, np: Any, layers: Sequence[bytes], outcomes: bytes, n: int,
                 rules: Any = None):
        self.np, self.n, self.rules, self.outcomes = np, n, rules, outcomes
        self.words = [[half_words(np, layer, n, t) for t in (0, 1)] for layer in layers]
        self.codes = np.frombuffer(outcomes, dtype=np.uint8).reshape(2 * n, n)
        #: The largest value the layers can hold (an upper bound of every remoteness).
        self.largest = (1 << (8 * len(layers))) - 1

    def rows(self, turn: int, ms: Any) -> Any:
        np, n = self.np, self.n
        ms = np.asarray(ms, dtype=np.intp)
        out = np.zeros(ms.shape + (n,), dtype=np.int32)
        flat = out.reshape(-1, n)
        for level, halves in enumerate(self.words):
            or_rows(np, halves[turn], turn, ms.ravel(), n, flat, 8 * level)
        codes = self.codes[turn * n + ms]
        out[(codes != MOUSE_WIN) & (codes != CAT_WIN)] = -1
        if self.rules is not None:
            fix_never_ending(self.rules, self.outcomes, flat, turn, ms.ravel())
        return out
