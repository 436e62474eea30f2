"""The pure twin's general rounds (any n): rows of n bits, new bits scattered into the other
orientation, only the rows whose children gained bits recomputed."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .facts import CAT_WIN as _CAT_WIN
from .facts import MOUSE_WIN as _MOUSE_WIN
from .facts import NO_POSITION
from .py_game import _PROGRESS_EVERY, _codes, _Game, _terminals, _undecided_remoteness
from .py_planes import new_plane_lists, write_layers


def _search(game: _Game, target: int, outcome: Any, remoteness: Any,
            progress: Callable[[int], Any] | None, planes: Any = None,
            more_planes: list | None = None, more_bytes: int = -1) -> int:
    """Run the rounds; fill the tables (and the planes) when given, or stop at ``target``."""
    n = game.n
    nn = n * n
    mouse_moves, mouse_from = game.mouse_moves, game.mouse_from
    cat_moves, cat_from = game.cat_moves_all, game.cat_from_all
    mouse0, cat0, undecided0, cat1, mouse1, undecided1 = _terminals(game)
    new0 = [(m, w, b) for m, (w, b) in enumerate(zip(mouse0, cat0)) if w or b]
    new1 = [(c, w, b) for c, (w, b) in enumerate(zip(cat1, mouse1)) if w or b]
    del mouse0, cat0, cat1, mouse1

    # Cumulative sets the AND steps read: cat wins with the cat to move, in
    # mouse rows; mouse wins with the mouse to move, in cat rows.  The cat's
    # moves into a node it may not enter are not moves: that node's row of
    # "mouse wins" is full, so the AND over the cat's children ignores it, and
    # no position there is ever decided, so the OR gets nothing from it.
    stand = game.stand
    everyone = (1 << n) - 1  # the row of a node the cat may not enter
    cat_won1 = [0] * n
    mouse_won0 = [0 if stand >> x & 1 else everyone for x in range(n)]
    # Scatter targets: the round's new bits in the other orientation.
    cat_new1 = [0] * n  # cat to move, cat won: mouse rows (bits by cat)
    mouse_new1 = [0] * n  # cat to move, mouse won: mouse rows
    cat_new0 = [0] * n  # mouse to move, cat won: cat rows (bits by mouse)
    mouse_new0 = [0] * n  # mouse to move, mouse won: cat rows
    # Accumulators of a step: wins and loss candidates per row.
    wins = [0] * n
    losses = [0] * n
    # The tables: outcome rows in mouse-row layout, both turns.
    tables = outcome is not None
    if tables:
        mouse_won_rows0 = [0] * n
        cat_won_rows0 = [0] * n
        mouse_won_rows1 = [0] * n
    rem = _undecided_remoteness(remoteness, 2 * nn)
    # Planes mode: per half, the plane lists of py_planes (half 0 in mouse rows, half 1 in
    # cat rows: the orientations new0 and new1 come in).
    halves: tuple[list[list[int]], list[list[int]]] = ([], [])
    stamp = planes is not None

    if target >= 0:
        turn, rest = divmod(target, nn)
        t_mouse, t_cat = divmod(rest, n)
        if not game.stand >> t_cat & 1:
            return NO_POSITION
        t_bit = 1 << (t_cat if turn == 0 else t_mouse)
        t_row = t_mouse if turn == 0 else t_cat
    else:
        turn = -1
        t_bit = t_row = 0

    decided = 0
    depth = 0
    last_report = time.monotonic()
    while True:
        if turn >= 0:
            undecided = undecided0 if turn == 0 else undecided1
            if not undecided[t_row] & t_bit:
                # Decided this round: find its row among the new ones.
                for row, win, loss in new0 if turn == 0 else new1:
                    if row == t_row:
                        code = win & t_bit and (_CAT_WIN if turn else _MOUSE_WIN)
                        return code or (_MOUSE_WIN if turn else _CAT_WIN)
        # The planes of the round's set bits (none in round 0, nor when not stamping; and
        # none for a last, empty round, which would make an empty plane).
        if stamp and depth and (new0 or new1):
            round0 = new_plane_lists(halves[0], depth, n)
            round1 = new_plane_lists(halves[1], depth, n)
        else:
            round0 = round1 = []
        # The round's new bits, into the tables and scattered into the other
        # orientation.
        rows1 = 0  # mouse rows that gained cat-to-move bits
        for c, cat, mouse in new1:
            bit = 1 << c
            both = cat | mouse
            rows1 |= both
            decided += both.bit_count()
            for plane in round1:
                plane[c] |= both
            if rem is not None:
                base = nn + c
                while both:
                    low = both & -both
                    rem[base + (low.bit_length() - 1) * n] = depth
                    both ^= low
            while cat:
                low = cat & -cat
                cat_new1[low.bit_length() - 1] |= bit
                cat ^= low
            while mouse:
                low = mouse & -mouse
                mouse_new1[low.bit_length() - 1] |= bit
                mouse ^= low
        rows0 = 0  # cat rows that gained mouse-to-move bits
        for m, mouse, cat in new0:
            bit = 1 << m
            both = mouse | cat
            rows0 |= both
            decided += both.bit_count()
            for plane in round0:
                plane[m] |= both
            if tables:
                mouse_won_rows0[m] |= mouse
                cat_won_rows0[m] |= cat
                if rem is not None:
                    base = m * n - 1
                    while both:
                        low = both & -both
                        rem[base + low.bit_length()] = depth
                        both ^= low
            while mouse:
                low = mouse & -mouse
                mouse_new0[low.bit_length() - 1] |= bit
                mouse ^= low
            while cat:
                low = cat & -cat
                cat_new0[low.bit_length() - 1] |= bit
                cat ^= low
        if not rows0 and not rows1:
            break
        if progress is not None:
            now = time.monotonic()
            if now - last_report >= _PROGRESS_EVERY:
                progress(decided)
                last_report = now
        depth += 1

        # The mouse's step, in mouse rows: (m, c) is won if a move reaches a
        # (m', c) the mouse won last round, lost if every move reaches one the
        # cat won, one of them last round.
        touched = 0
        x = rows1
        while x:
            low = x & -x
            child = low.bit_length() - 1
            x ^= low
            won = mouse_new1[child]
            lost = cat_new1[child]
            mouse_new1[child] = cat_new1[child] = 0
            if tables:
                mouse_won_rows1[child] |= won
            if lost:
                cat_won1[child] |= lost
                for m in mouse_from[child]:
                    wins[m] |= won
                    losses[m] |= lost
                    touched |= 1 << m
            else:
                for m in mouse_from[child]:
                    wins[m] |= won
                    touched |= 1 << m
        new0 = []
        while touched:
            low = touched & -touched
            m = low.bit_length() - 1
            touched ^= low
            free = undecided0[m]
            won = wins[m] & free
            lost = losses[m] & free & ~won
            wins[m] = losses[m] = 0
            if lost:
                for child in mouse_moves[m]:
                    lost &= cat_won1[child]
                    if not lost:
                        break  # early exit: nothing left to lose
            if won or lost:
                undecided0[m] = free & ~(won | lost)
                new0.append((m, won, lost))

        # The cat's step, in cat rows: (m, c) is won if a move reaches a
        # (m, c') the cat won last round, lost if every move reaches one the
        # mouse won, one of them last round.  (touched is 0 again: the loop above emptied it.)
        x = rows0
        while x:
            low = x & -x
            child = low.bit_length() - 1
            x ^= low
            won = cat_new0[child]
            lost = mouse_new0[child]
            cat_new0[child] = mouse_new0[child] = 0
            if lost:
                mouse_won0[child] |= lost
                for c in cat_from[child]:
                    wins[c] |= won
                    losses[c] |= lost
                    touched |= 1 << c
            else:
                for c in cat_from[child]:
                    wins[c] |= won
                    touched |= 1 << c
        new1 = []
        while touched:
            low = touched & -touched
            c = low.bit_length() - 1
            touched ^= low
            free = undecided1[c]
            won = wins[c] & free
            lost = losses[c] & free & ~won
            wins[c] = losses[c] = 0
            if lost:
                for child in cat_moves[c]:
                    lost &= mouse_won0[child]
                    if not lost:
                        break  # early exit: nothing left to lose
            if won or lost:
                undecided1[c] = free & ~(won | lost)
                new1.append((c, won, lost))

    if progress is not None:
        progress(decided)
    if turn >= 0:
        return 0  # never decided: a draw
    # The outcome table, row by row: each bit set becomes a code byte.
    absent = ((1 << n) - 1) & ~game.stand
    out = memoryview(outcome).cast("B")
    for m in range(n):
        out[m * n : m * n + n] = _codes(n, mouse_won_rows0[m], cat_won_rows0[m], absent)
        out[nn + m * n : nn + m * n + n] = _codes(n, mouse_won_rows1[m], cat_won1[m], absent)
    if stamp:
        write_layers(n, halves, planes, more_planes, depth, more_bytes)
    return decided


# Hex digits to outcome codes (see _codes).
