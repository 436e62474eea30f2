"""The numpy half of :meth:`Analysis.verify`: every position re-derived from its moves at once.

Written for the check alone, sharing no code with either engine (it is the check on them)
nor with the writers: the same rules as the plain-Python loop in ``analysis.py``, in arrays.
Every position is scored from the mouse's side in one integer (see ``analysis.py``); the
mouse's expected score is its best child's moved one ply further from the end, over whole
blocks of mouse nodes at once (children padded to the widest row), the cat's the same with
the minimum over each cat node's moves (``minimum.reduceat`` over the moves, row by row).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .engine.facts import CAT_FORBIDDEN, CAT_GOAL, HOLE

__all__ = ["BAD", "NEVER", "NO_POSITION", "TOP", "worst_numpy"]

NEVER = 1 << 32  # above any remoteness (2*n*n < 2**31)
TOP = 2 * NEVER
BAD = -1  # an outcome/remoteness pair no solved table holds
NO_POSITION = -2  # the cat on a node it may not enter
_PAD = -3  # below every score: a padded move is never the best
_BUDGET = 1 << 22  # scores per block


def worst_numpy(np: Any, outcomes: Any, remoteness: Any, rules: Any,
                callback: Callable[[int], object] | None, every: int) -> tuple:
    """The key ``(not fixed, remoteness, index, expected)`` of the contradicted position to
    name (the least), or ``()`` when every position agrees with its moves."""
    n = rules.n
    nn = n * n
    o = np.frombuffer(outcomes, dtype=np.uint8)
    r = np.frombuffer(remoteness, dtype=np.int32)
    draw = int(rules.draw)
    # The scores, then a row of _PAD after them (the padded moves' children); filled in
    # place, since a fresh array of this size costs as much as the arithmetic.
    view = np.empty(2 * nn + n, dtype=np.int64)
    view[2 * nn:] = _PAD
    score = view[: 2 * nn]
    np.subtract(np.int64(TOP), r, out=score)  # a mouse win
    decided = r >= 0
    np.copyto(score, r, where=decided & (o == 2))
    np.copyto(score, BAD, where=decided & (o != 1) & (o != 2))
    endless = r == -1
    np.copyto(score, NEVER, where=endless & (o == draw))
    np.copyto(score, NO_POSITION, where=endless & (o == 3))
    np.copyto(score, BAD, where=endless & (o != draw) & (o != 3))
    np.copyto(score, BAD, where=r < -1)
    flags = np.frombuffer(bytes(rules.flags), dtype=np.uint8)
    forbidden = (flags & CAT_FORBIDDEN) != 0
    goal = (flags & CAT_GOAL) != 0
    hole = (flags & HOLE) != 0
    mouse_rows = [sorted(row) for row in rules.mouse_graph._rows()]
    degree = np.array([len(row) for row in mouse_rows], dtype=np.int64)
    widest = max(int(degree.max()), 1)
    moves = np.full((n, widest), n, dtype=np.int64)  # padded with n: the row of _PAD
    for m, row in enumerate(mouse_rows):
        moves[m, : len(row)] = row
    cat_rows = [[v for v in row if not forbidden[v]] for row in rules.cat_graph._rows()]
    cat_degree = np.array([len(row) for row in cat_rows], dtype=np.int64)
    cat_to = np.array([v for row in cat_rows for v in row], dtype=np.int64)
    starts = (np.cumsum(cat_degree) - cat_degree)[cat_degree > 0]
    mouse_side = view[:nn].reshape(n, n)
    cat_side = view[nn:].reshape(n + 1, n)  # the last row: _PAD
    wrong_parts: list[Any] = []  # the indices found wrong, block by block
    expected_parts: list[Any] = []

    def compare(best: Any, first: int) -> None:
        actual = score[first: first + best.size].reshape(best.shape)
        wrong = np.flatnonzero(best != actual)
        if len(wrong):
            wrong_parts.append(wrong + first)
            expected_parts.append(best.ravel()[wrong])
    step = max(1, min(every, _BUDGET // max(n * widest, 1)))

    def settle(best: Any) -> Any:  # one ply further from the end, in place
        up, down = best > NEVER, best < NEVER
        np.subtract(best, 1, out=best, where=up)
        np.add(best, 1, out=best, where=down)
        return best

    # Mouse to move at (m, c): children (v, c, CAT), the largest is the mouse's.
    for m0 in range(0, n, step):
        ms = np.arange(m0, min(n, m0 + step))
        best = settle(cat_side[moves[ms]].max(axis=1))
        best[degree[ms] == 0] = 0  # no move: the mouse loses at once
        best[:, goal] = 0
        best[hole[ms]] = TOP
        best[np.arange(len(ms)), ms] = 0
        best[:, forbidden] = NO_POSITION
        compare(best, int(ms[0]) * n)
        if callback is not None:
            callback(int(ms[-1] + 1) * n)
    # Cat to move at (m, c): children (m, v, MOUSE) over the cat's legal v, the smallest.
    step = max(1, min(every, _BUDGET // max(len(cat_to), 1)))
    for m0 in range(0, n, step):
        ms = np.arange(m0, min(n, m0 + step))
        best = np.full((len(ms), n), TOP, dtype=np.int64)  # no move: the cat loses at once
        if len(cat_to):
            low = np.minimum.reduceat(mouse_side[ms][:, cat_to], starts, axis=1)
            best[:, cat_degree > 0] = settle(low)
        best[:, goal] = 0
        best[hole[ms]] = TOP
        best[np.arange(len(ms)), ms] = 0
        best[:, forbidden] = NO_POSITION
        compare(best, nn + int(ms[0]) * n)
        if callback is not None:
            callback(nn + int(ms[-1] + 1) * n)
    if not wrong_parts:
        return ()
    wrong, e = np.concatenate(wrong_parts), np.concatenate(expected_parts)
    a, rw = score[wrong], r[wrong].astype(np.int64)
    t, rest = np.divmod(wrong, nn)
    m, c = np.divmod(rest, n)
    no_moves = np.where(t == 1, cat_degree[c] == 0, degree[m] == 0)
    over = (m == c) | hole[m] | goal[c]
    fixed = (a == BAD) | (a == NO_POSITION) | (e == NO_POSITION) | no_moves | over
    claimed = np.where(rw >= 0, rw, TOP)
    k = np.lexsort((e, wrong, claimed, ~fixed))[0]
    return (not bool(fixed[k]), int(claimed[k]), int(wrong[k]), int(e[k]))
