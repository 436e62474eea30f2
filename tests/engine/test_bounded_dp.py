"""The top-down DP with a turn limit: wrong at 2n turns, right at 2n(n-1).

The solution often posted for LeetCode 913 memoizes ``dp(ply, mouse, cat)`` and
calls the game a draw once ``ply`` reaches 2n.  That is wrong whenever the
optimal game from the start takes more than 2n plies: the DP then sees a draw
where one player can force a win.  A limit of 2n(n-1), the number of positions
with the cat off the hole, is enough, since an optimal game never repeats a
position; it is right but slow.

The boards below were found with the oracle's help by a search, not written by
hand: hill climbing over edge sets (n from 7 to 12, start from a random tree,
toggle one or two random edges, keep the change when the start's remoteness
does not drop, 1500 steps, ``random.Random(1)``), ranking boards by the
remoteness of the start (mouse 1, cat 2, mouse to move) and keeping those whose
remoteness exceeds 2n.  The same search on n from 6 to 8 found none, and plain
random sampling of 200,000 Erdos-Renyi boards of 4 to 9 nodes found none either:
such boards are rare.
"""

from __future__ import annotations

import functools
import random
import sys

import pytest
from oracle import MOUSE, random_board, solve_classic

import catmouse

COUNTEREXAMPLES = {
    "9 nodes, cat wins in 20": [
        [3, 4], [3, 4, 6, 7], [3, 4, 5], [0, 1, 2, 7, 8], [0, 1, 2, 5, 6], [2, 4, 8],
        [1, 4, 7], [1, 3, 6, 8], [3, 5, 7],
    ],
    "9 nodes, cat wins in 20, hole a leaf": [
        [7], [2, 3, 4, 8], [1, 4, 5, 6, 7], [1, 4, 6, 8], [1, 2, 3], [2, 6, 7], [2, 3, 5],
        [0, 2, 5, 8], [1, 3, 7],
    ],
    "9 nodes, cat wins in 24": [
        [6], [2, 5, 7, 8], [1, 3, 7], [2, 4, 7], [3, 5, 7], [1, 4, 6, 8], [0, 5, 7, 8],
        [1, 2, 3, 4, 6], [1, 5, 6],
    ],
    "12 nodes, mouse wins in 31": [
        [4, 11], [2, 4, 6, 8], [1, 4, 5, 6, 9, 10], [5, 7, 8, 9, 10, 11], [0, 1, 2, 6, 7, 9],
        [2, 3, 7, 8, 11], [1, 2, 4, 7, 11], [3, 4, 5, 6, 8, 10], [1, 3, 5, 7, 10],
        [2, 3, 4, 11], [2, 3, 7, 8], [0, 3, 5, 6, 9],
    ],
    "12 nodes, mouse wins in 29": [
        [2, 7, 11], [2, 4, 5, 10], [0, 1, 5, 6, 10, 11], [4, 6, 8], [1, 3, 6, 8, 10, 11],
        [1, 2, 6, 7, 8], [2, 3, 4, 5, 9, 11], [0, 5, 8, 9, 11], [3, 4, 5, 7, 9, 10],
        [6, 7, 8, 10], [1, 2, 4, 8, 9, 11], [0, 2, 4, 6, 7, 10],
    ],
    "12 nodes, cat wins in 38": [
        [5], [3, 7, 8, 9, 11], [6, 9, 10], [1, 4, 7, 9], [3, 5, 7, 8], [0, 4, 7, 8, 10, 11],
        [2, 7, 11], [1, 3, 4, 5, 6, 8], [1, 4, 5, 7, 11], [1, 2, 3, 10, 11], [2, 5, 9],
        [1, 5, 6, 8, 9],
    ],
}


class BoundedDP:
    """LeetCode 913 by memoized recursion, calling the game a draw after ``limit`` plies.

    ``dp(ply, mouse, cat)`` does not depend on where the game started, so one
    cache serves every start.  A stuck mover loses, as in the engine.
    """

    def __init__(self, adjacency, limit, hole=0):
        self.adjacency, self.limit, self.hole = adjacency, limit, hole
        self.dp = functools.cache(self._dp)

    def outcome(self, mouse=1, cat=2):
        return self.dp(0, mouse, cat)

    def _dp(self, ply, mouse, cat):
        if mouse == cat:
            return 2
        if mouse == self.hole:
            return 1
        if ply == self.limit:
            return 0
        if ply % 2 == 0:
            mover_wins, results = 1, [self.dp(ply + 1, v, cat) for v in self.adjacency[mouse]]
        else:
            mover_wins = 2
            results = [self.dp(ply + 1, mouse, v) for v in self.adjacency[cat] if v != self.hole]
        if mover_wins in results:
            return mover_wins
        if 0 in results:
            return 0
        return 3 - mover_wins


def two_n(adjacency):
    return 2 * len(adjacency)


def two_n_n_minus_1(adjacency):
    n = len(adjacency)
    return 2 * n * (n - 1)


@pytest.fixture(autouse=True)
def deep_recursion():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))
    yield
    sys.setrecursionlimit(old)


@pytest.mark.parametrize("name", list(COUNTEREXAMPLES))
def test_engine_agrees_with_oracle(use_engine, name):
    board = COUNTEREXAMPLES[name]
    expected = solve_classic(board)
    a = catmouse.analyze(board)
    assert bytes(a.outcomes) == expected.outcome_table()
    assert a.remoteness_table.tobytes() == expected.remoteness_table().tobytes()
    assert catmouse.solve(board) == expected.outcome[(1, 2, MOUSE)]
    # Why the short DP fails: the optimal game is longer than 2n plies.
    assert expected.remoteness[(1, 2, MOUSE)] > two_n(board)
    # The names say who wins and in how many plies; hold them to it.
    winner = "mouse" if expected.outcome[(1, 2, MOUSE)] == 1 else "cat"
    assert f"{winner} wins in {expected.remoteness[(1, 2, MOUSE)]}" in name


@pytest.mark.parametrize("name", list(COUNTEREXAMPLES))
def test_dp_bounded_at_2n_is_wrong(name):
    board = COUNTEREXAMPLES[name]
    truth = solve_classic(board).outcome[(1, 2, MOUSE)]
    assert BoundedDP(board, two_n(board)).outcome() != truth
    assert BoundedDP(board, two_n(board)).outcome() == 0  # it sees a draw


@pytest.mark.parametrize("name", list(COUNTEREXAMPLES))
def test_dp_bounded_at_2n_n_minus_1_is_right(name):
    board = COUNTEREXAMPLES[name]
    truth = solve_classic(board).outcome[(1, 2, MOUSE)]
    assert BoundedDP(board, two_n_n_minus_1(board)).outcome() == truth


def test_dp_bounded_at_2n_n_minus_1_agrees_with_oracle_everywhere():
    """A second independent solver, checked against the oracle from every start."""
    rng = random.Random(1913)
    checked = 0
    for _ in range(250):
        board, hole = random_board(rng, 2, 10)
        expected = solve_classic(board, hole)
        dp = BoundedDP(board, two_n_n_minus_1(board), hole)
        for (m, c, t), value in expected.outcome.items():
            if t == MOUSE:
                assert dp.outcome(m, c) == value, (board, hole, m, c)
                checked += 1
    assert checked > 5_000
