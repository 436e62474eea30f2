"""Remoteness rows read straight from an Analysis's bit-planes, for the writers (numpy).

The writers read rows of either turn's table by mouse, in blocks and at the moves' rows (any
index array).  Rows of the mouse-to-move half are the planes' own rows; the cat-to-move
half's rows by mouse are columns of the planes (rows by cat there), gathered a plane at a
time in pieces, so the memory held stays a few bytes a value read, whatever n.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..engine.facts import CAT_FORBIDDEN, CAT_GOAL, CAT_WIN, HOLE, MOUSE_WIN
from ..engine.planes import words_per_row

__all__ = ["PlaneRows", "fix_never_ending", "goes_on"]

# Values gathered at once from the cat-to-move half (bounds the temporaries: ~16 bytes each).
_PIECE = 1 << 17


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


@lru_cache(maxsize=8)
def _stuck(rules: Any, turn: int) -> Any:
    """By node: the mover (the mouse on turn 0, the cat on 1) has no move from it."""
    import numpy

    return numpy.array([_has_no_move(rules, v, turn) for v in range(rules.n)], dtype=bool)


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
        W = words_per_row(n)
        half = n * W * 8
        self.words = [
            [np.frombuffer(layer, dtype=np.uint64, count=half, offset=t * half * 8)
             .reshape(n, W, 8) for t in (0, 1)] for layer in layers]
        self.codes = np.frombuffer(outcomes, dtype=np.uint8).reshape(2 * n, n)
        #: The largest value the layers can hold (an upper bound of every remoteness).
        self.largest = (1 << (8 * len(layers))) - 1

    def rows(self, turn: int, ms: Any) -> Any:
        np, n = self.np, self.n
        ms = np.asarray(ms, dtype=np.intp)
        out = np.zeros(ms.shape + (n,), dtype=np.int32)
        flat = out.reshape(-1, n)
        for level, halves in enumerate(self.words):
            words = halves[turn]
            if turn == 0:
                _mouse_rows(np, words, ms.ravel(), n, flat, 8 * level)
            else:
                _cat_rows(np, words, ms.ravel(), n, flat, 8 * level)
        codes = self.codes[turn * n + ms]
        out[(codes != MOUSE_WIN) & (codes != CAT_WIN)] = -1
        if self.rules is not None:
            fix_never_ending(self.rules, self.outcomes, flat, turn, ms.ravel())
        return out


def _mouse_rows(np: Any, words: Any, ms: Any, n: int, out: Any, low: int) -> None:
    """Rows ``ms`` of the mouse-to-move half (rows by mouse, columns by cat), ORed into out."""
    step = max(1, _PIECE // max(n, 1))
    for k0 in range(0, len(ms), step):
        part = ms[k0:k0 + step]
        group = words[part]  # (rows, W, 8 planes) words
        little = group.astype("<u8", copy=False).view(np.uint8).reshape(len(part), -1, 8, 8)
        for p in range(8):
            bits = np.unpackbits(little[:, :, p, :], axis=-1, bitorder="little")
            bits = bits.reshape(len(part), -1)[:, :n]
            out[k0:k0 + len(part)] |= bits.astype(np.int32) << (low + p)


def _cat_rows(np: Any, words: Any, ms: Any, n: int, out: Any, low: int) -> None:
    """Rows ``ms`` (mice) of the cat-to-move half: columns ``ms`` of its rows by cat."""
    step = max(1, _PIECE // max(n, 1))
    for k0 in range(0, len(ms), step):
        part = ms[k0:k0 + step]
        groups, shifts = part >> 6, (part & 63).astype(np.uint64)
        for p in range(8):
            bits = (words[:, groups, p] >> shifts[None, :]) & np.uint64(1)  # (cats, mice)
            out[k0:k0 + len(part)] |= bits.T.astype(np.int32) << (low + p)
