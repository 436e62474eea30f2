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

from ..engine.facts import CAT_FORBIDDEN, CAT_GOAL, HOLE

__all__ = ["BAD", "NEVER", "NO_POSITION", "TOP", "claims_at", "table_rows", "worst_numpy"]

NEVER = 1 << 32  # above any remoteness (2*n*n < 2**31)
TOP = 2 * NEVER
BAD = -1  # an outcome/remoteness pair no solved table holds
NO_POSITION = -2  # the cat on a node it may not enter
_PAD = -3  # below every score: a padded move is never the best
_BUDGET = 1 << 20  # scores per block


RowReader = Callable[[int, Any], Any]


def table_rows(np: Any, remoteness: Any, n: int) -> tuple[RowReader, int]:
    """A row reader over a whole int32 remoteness table (slices where the rows run on), and
    its largest value."""
    r = np.frombuffer(remoteness, dtype=np.int32)
    r_rows = r.reshape(2 * n, n)

    def read(turn: int, ms: Any) -> Any:
        return r_rows[_rows_at(np, turn, ms, n)]

    return read, max(int(r.max()), 0) if len(r) else 0


def _rows_at(np: Any, turn: int, ms: Any, n: int) -> Any:
    """Rows ``ms`` of half ``turn`` of a (2n, n) table: a slice (no copy) where they run on."""
    if len(ms) and (len(ms) == 1 or bool((np.diff(ms) == 1).all())):
        return slice(turn * n + int(ms[0]), turn * n + int(ms[-1]) + 1)
    return turn * n + ms


def claims_at(np: Any, read: RowReader, wrong: Any, n: int) -> Any:
    """The remoteness ``read`` gives at positions ``wrong`` (int64), a block of rows at a time."""
    keys = wrong // n  # turn * n + mouse
    rows, where = np.unique(keys, return_inverse=True)
    out = np.empty(len(wrong), dtype=np.int64)
    step = max(1, _BUDGET // max(n, 1))
    for k0 in range(0, len(rows), step):
        part = rows[k0:k0 + step]
        for turn in (0, 1):
            mine = part[part // n == turn]
            if not len(mine):
                continue
            block = read(turn, (mine - turn * n).astype(np.intp))
            at = np.nonzero((where >= k0) & (where < k0 + len(part)) & (keys // n == turn))[0]
            out[at] = block[np.searchsorted(mine, keys[at]), wrong[at] % n]
    return out


def worst_numpy(np: Any, outcomes: Any, read: RowReader, longest: int, rules: Any,
                callback: Callable[[int], object] | None, every: int) -> tuple:
    """The key ``(not fixed, remoteness, index, expected)`` (the remoteness the smaller of the
    one claimed and the one the moves give) of the contradicted position to
    name (the least), or ``()`` when every position agrees with its moves.

    ``read(turn, ms)``: the int32 remoteness of rows ``ms`` (an index array) of ``turn``'s
    table, ``(len(ms), n)``; ``longest``: at least its largest value (the planes' bound)."""
    n = rules.n
    nn = n * n
    o = np.frombuffer(outcomes, dtype=np.uint8)
    draw = int(rules.draw)
    # The scores packed under the longest game claimed (``longest``), in int16 or int32 when
    # they fit (int16 for a byte of planes: the cat-to-move half then takes a byte a position):
    # a cat win r, never ``longest + 2``, a mouse win ``top - r``; one ply from any of them
    # stays apart from the others, as with NEVER and TOP, which the answer is given in.
    if 2 * longest + 8 < 2**31:
        kind = np.int16 if 2 * longest + 8 < 2**15 else np.int32
        never, top = longest + 2, 2 * longest + 4
    else:
        kind, never, top = np.int64, NEVER, TOP

    # Each (outcome, kind of remoteness) pair scores as base + sign * r: a table of 15.
    base = np.full(15, BAD, dtype=kind)
    sign = np.zeros(15, dtype=kind)
    base[1], sign[1] = top, -1  # decided (r >= 0): a mouse win
    base[2], sign[2] = 0, 1  # a cat win
    base[5 + 3] = NO_POSITION  # r == -1: no position, or the game never ends
    base[5 + draw] = never  # (codes past 3 are class 4: BAD, as r < -1 is)
    o_rows = o.reshape(2 * n, n)

    def rows(turn: int, ms: Any) -> Any:  # the scores of rows ms of one turn's table
        return score(o_rows[_rows_at(np, turn, ms, n)], read(turn, ms))

    def score(oo: Any, rr: Any) -> Any:
        k = np.minimum(oo, 4) + 5 * ((rr < 0).view(np.uint8) + (rr < -1).view(np.uint8))
        return base[k] + sign[k] * rr

    flags = np.frombuffer(bytes(rules.flags), dtype=np.uint8)
    forbidden = (flags & CAT_FORBIDDEN) != 0
    goal = (flags & CAT_GOAL) != 0
    hole = (flags & HOLE) != 0
    mouse_rows = [sorted(row) for row in rules.mouse_graph._rows()]
    # Indices in numpy's index type (int64 cannot be cast to a 32-bit machine's intp).
    degree = np.array([len(row) for row in mouse_rows], dtype=np.intp)
    widest = max(int(degree.max()), 1)
    moves = np.full((n, widest), n, dtype=np.intp)  # padded with n: the row of _PAD
    for m, row in enumerate(mouse_rows):
        moves[m, : len(row)] = row
    cat_rows = [[v for v in row if not forbidden[v]] for row in rules.cat_graph._rows()]
    cat_degree = np.array([len(row) for row in cat_rows], dtype=np.intp)
    cat_to = np.array([v for row in cat_rows for v in row], dtype=np.intp)
    starts = (np.cumsum(cat_degree) - cat_degree)[cat_degree > 0]
    # The cat-to-move scores, whole (the mouse's children are anywhere in them), then a row
    # of _PAD for the padded moves; the mouse-to-move scores are made a block at a time.
    cat_side = np.empty((n + 1, n), dtype=kind)
    cat_side[n] = _PAD
    block = max(1, _BUDGET // max(n, 1))
    for m0 in range(0, n, block):
        cat_side[m0: min(n, m0 + block)] = rows(1, np.arange(m0, min(n, m0 + block)))
    wrong_parts: list[Any] = []  # the positions found wrong, and what their moves give
    expected_parts: list[Any] = []

    def compare(best: Any, actual: Any, first: int, ms: Any) -> None:
        wrong_row, wrong_cat = np.nonzero(best != actual)
        if len(wrong_row):
            wrong_parts.append(first + ms[wrong_row] * n + wrong_cat)
            expected_parts.append(best[wrong_row, wrong_cat])

    def settle(best: Any) -> Any:  # one ply further from the end, in place
        up, down = best > never, best < never
        np.subtract(best, 1, out=best, where=up)
        np.add(best, 1, out=best, where=down)
        return best

    # Mouse to move at (m, c): children (v, c, CAT), the largest is the mouse's.  The mice
    # go by degree, so that a block pads its rows of moves to about their own length.
    by_degree = np.argsort(degree, kind="stable")
    done = 0
    while done < n:
        step = min(every, n - done)
        width = max(int(degree[by_degree[done + step - 1]]), 1)  # the block's widest
        step = max(1, min(step, _BUDGET // (n * width)))
        ms = by_degree[done: done + step]
        width = max(int(degree[ms[-1]]), 1)
        best = settle(cat_side[moves[ms, :width]].max(axis=1))
        best[degree[ms] == 0] = 0  # no move: the mouse loses at once
        best[:, goal] = 0
        best[hole[ms]] = top
        best[np.arange(len(ms)), ms] = 0
        best[:, forbidden] = NO_POSITION
        compare(best, rows(0, ms), 0, ms)
        done += len(ms)
        if callback is not None:
            callback(done * n)
    # Cat to move at (m, c): children (m, v, MOUSE) over the cat's legal v, the smallest.
    step = max(1, min(every, _BUDGET // max(len(cat_to), n, 1)))  # cat_to: the cat's moves
    for m0 in range(0, n, step):
        ms = np.arange(m0, min(n, m0 + step))
        best = np.full((len(ms), n), top, dtype=kind)  # no move: the cat loses at once
        if len(cat_to):
            low = np.minimum.reduceat(rows(0, ms)[:, cat_to], starts, axis=1)
            best[:, cat_degree > 0] = settle(low)
        best[:, goal] = 0
        best[hole[ms]] = top
        best[np.arange(len(ms)), ms] = 0
        best[:, forbidden] = NO_POSITION
        compare(best, cat_side[ms], nn, ms)
        if callback is not None:
            callback(nn + int(ms[-1] + 1) * n)
    if not wrong_parts:
        return ()
    wrong = np.concatenate(wrong_parts)
    e = np.concatenate(expected_parts).astype(np.int64)
    # Back from the packed scores to NEVER and TOP, in which the answer is told.
    e = np.where(e > never, TOP - (top - e), np.where(e == never, NEVER, e))
    rw = claims_at(np, read, wrong, n)
    a = score(o[wrong], rw)
    t, rest = np.divmod(wrong, nn)
    m, c = np.divmod(rest, n)
    no_moves = np.where(t == 1, cat_degree[c] == 0, degree[m] == 0)
    over = (m == c) | hole[m] | goal[c]
    fixed = (a == BAD) | (a == NO_POSITION) | (e == NO_POSITION) | no_moves | over
    # By the smaller of the remoteness claimed and the one the moves give: a wrong outcome
    # read off the planes claims -1 (a draw's), and its parents' claims are one ply longer.
    given = np.where(e > NEVER, TOP - e, np.where((e >= 0) & (e < NEVER), e, TOP))
    claimed = np.minimum(np.where(rw >= 0, rw, TOP), given)
    k = np.lexsort((e, wrong, claimed, ~fixed))[0]
    return (not bool(fixed[k]), int(claimed[k]), int(wrong[k]), int(e[k]))
