"""The bit-parallel pure twin against the 0.1.0 queue engine, and its contract entry points.

``tests/helpers/queue_engine.py`` is the queue algorithm the twin replaced: predecessor
walks with move counters, nothing in common with the round-synchronous bit sets
of ``catmouse/bits_py.py``.  Both must give byte-identical outcome and
remoteness tables and the same early-stop codes on random games of every rule:
holes, nodes the cat may not enter, goals, directed graphs, a separate cat
graph, stays (self-loops) and stuck movers.  The twin has two searches (one
machine word per row for n <= 64, plain rows above); both are run.

``CATMOUSE_TWIN_GAMES`` sets the number of small random games (default 10000).
"""

from __future__ import annotations

import collections
import itertools
import os
import random
from array import array

import pytest
import queue_engine
from oracle import CAT_FORBIDDEN, CAT_GOAL, HOLE, classic_flags, csr, random_board, random_game

from catmouse.engine import bits_py, checks, facts, py_boards, py_lists, py_rounds, py_small
from catmouse.engine.facts import LISTS_MAX_NODES

GAMES = int(os.environ.get("CATMOUSE_TWIN_GAMES", "8000"))
SEEN: dict[str, int] = {}


def tables(engine, n, flags, mouse_moves, cat_moves):
    """(return value, outcome bytes, remoteness bytes) of a full solve."""
    outcome = bytearray(2 * n * n)
    remoteness = array("i", bytes(8 * n * n))
    result = engine.propagate(n, bytes(flags), *csr(mouse_moves), *csr(cat_moves),
                              outcome, remoteness)
    return result, bytes(outcome), remoteness.tobytes()


def note_rules(n, flags, mouse_moves, cat_moves):
    """Count the rule options a game exercises, to prove the sample covers them all."""
    def count(key):
        SEEN[key] = SEEN.get(key, 0) + 1

    for flag, name in ((HOLE, "hole"), (CAT_FORBIDDEN, "cat forbidden"), (CAT_GOAL, "goal")):
        if any(f & flag for f in flags):
            count(name)
    if any(u in row for u, row in enumerate(mouse_moves)):
        count("mouse stays")
    if any(u in row for u, row in enumerate(cat_moves)):
        count("cat stays")
    if any(u not in mouse_moves[v] for u in range(n) for v in mouse_moves[u]):
        count("directed")
    if cat_moves != mouse_moves:
        count("separate cat graph")
    if any(not row for row in mouse_moves):
        count("stuck mouse")
    if any(all(flags[v] & CAT_FORBIDDEN for v in row) for row in cat_moves):
        count("stuck cat")


@pytest.fixture(params=["words", "rows"])
def search(request, monkeypatch):
    """Run the twin's word-per-row search (n <= 64) or, forced, its general one."""
    if request.param == "rows":
        for module in (bits_py, py_boards, py_lists):  # every reader of the bound
            monkeypatch.setattr(module, "_SMALL_NODES", 0)
    return request.param


def compare(rng, game):
    mouse_moves, cat_moves, flags = game
    n = len(flags)
    queue = tables(queue_engine, n, flags, mouse_moves, cat_moves)
    twin = tables(bits_py, n, flags, mouse_moves, cat_moves)
    assert twin == queue, game
    # Early stop: the code of a random position, as the full table says.
    args = (n, bytes(flags), *csr(mouse_moves), *csr(cat_moves), None, None)
    for target in {rng.randrange(2 * n * n) for _ in range(3)}:
        code = bits_py.propagate(*args, target)
        assert code == queue_engine.propagate(*args, target) == queue[1][target], game


def test_random_games_every_rule(search):
    rng = random.Random(913 if search == "words" else 914)
    SEEN.clear()
    count = GAMES if search == "words" else max(1, GAMES // 4)
    for _ in range(count):
        game = random_game(rng, 1, 9)
        note_rules(len(game[2]), game[2], game[0], game[1])
        compare(rng, game)
    if count >= 1000:
        for rule in ("hole", "cat forbidden", "goal", "mouse stays", "cat stays", "directed",
                     "separate cat graph", "stuck mouse", "stuck cat"):
            assert SEEN.get(rule, 0) >= count // 100, (rule, SEEN)


def test_random_classic_boards(search):
    rng = random.Random(4)
    for _ in range(max(1, GAMES // 10)):
        adjacency, hole = random_board(rng, 1, 12)
        compare(rng, (adjacency, adjacency, classic_flags(len(adjacency), hole)))


@pytest.mark.parametrize("n_min, n_max", [(13, 17), (29, 33), (60, 64), (65, 80)])
def test_bigger_games_every_row_width(n_min, n_max):
    """Boards around each word width (8, 16, 32, 64 bits) and past the word path."""
    rng = random.Random(n_min)
    for _ in range(12):
        compare(rng, random_game(rng, n_min, n_max))


def test_deep_games():
    """Long thin endgames: a path, where remoteness grows with n."""
    rng = random.Random(7)
    for n in (20, 64, 65, 90):
        path = [[v for v in (u - 1, u + 1) if 0 <= v < n] for u in range(n)]
        compare(rng, (path, path, classic_flags(n, 0)))
        assert max(array("i", tables(bits_py, n, classic_flags(n, 0), path, path)[2])) > n


# -- the contract's entry points ------------------------------------------------------


def classic_args(adjacency, hole=0):
    n = len(adjacency)
    return (n, bytes(classic_flags(n, hole)), *csr(adjacency) * 2)


def test_board_and_batches_agree_with_the_queue_engine():
    rng = random.Random(11)
    for _ in range(200):
        mouse_moves, cat_moves, flags = random_game(rng, 1, 70 if rng.random() < 0.1 else 9)
        n = len(flags)
        args = (n, bytes(flags), *csr(mouse_moves), *csr(cat_moves))
        outcome = tables(queue_engine, n, flags, mouse_moves, cat_moves)[1]
        board = bits_py.Board(*args)
        assert board.n == n
        m, c, t = rng.randrange(n), rng.randrange(n), rng.randrange(2)
        expect = outcome[(t * n + m) * n + c]
        expect = -1 if expect == 3 else expect
        assert board.solve(m, c, t) == expect
        assert bits_py.solve_boards([board, board], m, c, t) == bytearray([expect % 256] * 2)


def test_board_keeps_private_copies():
    adjacency = [[1], [0, 2], [1]]
    indptr, indices, rindptr, rindices = csr(adjacency)
    flags = bytearray(classic_flags(3))
    board = bits_py.Board(3, flags, indptr, indices, rindptr, rindices,
                            indptr, indices, rindptr, rindices)
    before = board.solve(2, 1)
    indices[1] = 1  # 1 -> 1 instead of 1 -> 0: a different game, if the board saw it
    flags[2] = CAT_GOAL
    assert board.solve(2, 1) == before == 2


def test_board_declines_what_is_not_a_position():
    board = bits_py.Board(*classic_args([[1], [0, 2], [1]]))
    for mouse, cat, turn in [(0, 0, 2), (3, 1, 0), (1, -1, 0), (1, 0, 0), (True, 1, 0),
                             (1.0, 1, 0), (1, 1, None)]:
        assert board.solve(mouse, cat, turn) == -1
    assert bits_py.solve_boards([board], 1, 0) == bytearray([255])
    assert bits_py.solve_boards([], 1, 2) == bytearray()
    with pytest.raises(TypeError):
        bits_py.solve_boards((board,), 1, 2)
    with pytest.raises(TypeError):
        bits_py.solve_boards([board, "board"], 1, 2)
    with pytest.raises(ValueError, match="flags has"):
        bits_py.Board(3, b"\0", *csr([[1], [0, 2], [1]]) * 2)


def test_solve_lists_and_csr_from_lists():
    rng = random.Random(12)
    for _ in range(300):
        adjacency, hole = random_board(rng, 1, 70 if rng.random() < 0.1 else 12)
        n = len(adjacency)
        mouse, cat = rng.randrange(n), rng.randrange(n)
        expect = -1 if cat == hole else queue_engine.propagate(
            *classic_args(adjacency, hole), None, None, mouse * n + cat)
        assert bits_py.solve_lists(adjacency, mouse, cat, hole) == expect
        indptr, indices, rindptr, rindices = map(list, csr(adjacency))
        got = bits_py.csr_from_lists(adjacency, True)
        assert got[0] == n and [list(a) for a in got[1:]] == [indptr, indices, rindptr, rindices]
        # Undirected: the reverse arrays are the forward ones (the same sets per node).
        got = bits_py.csr_from_lists(adjacency, False)
        assert got[0] == n and [list(a) for a in got[1:]] == [indptr, indices] * 2
        assert got[3] is got[1] and got[4] is got[2]
    one_way = [[1], []]
    assert bits_py.csr_from_lists(one_way, False) is None
    assert [list(a) for a in bits_py.csr_from_lists(one_way, True)[1:]] == [
        [0, 1, 1], [1], [0, 0, 1], [0]]


@pytest.mark.parametrize("adjacency", [
    [[1], [0, 1]],          # self-loop
    [[1, 1], [0]],          # repeat
    [[1], []],              # one-way edge
    [[1], [True]],          # bool id
    [[1], [0.0]],           # float id
    [[1], [0], [5]],        # id out of range
    [[-1], [0]],            # negative id
    [(1,), [0]],            # a row that is not a list
    ((1,), (0,)),           # not a list of lists
])
def test_unusual_lists_are_declined(adjacency):
    assert bits_py.solve_lists(adjacency, 0, 1, 0) == -1
    if isinstance(adjacency, list) and adjacency != [[1], []]:
        assert bits_py.csr_from_lists(adjacency, True) is None


def test_solve_lists_declines_bad_positions_and_big_graphs():
    line = [[1], [0, 2], [1]]
    for mouse, cat, hole in [(0, 0, 0), (3, 1, 0), (1, 2, 3), (True, 2, 0), (1, 2.0, 0)]:
        assert bits_py.solve_lists(line, mouse, cat, hole) == -1
    big = [[] for _ in range(LISTS_MAX_NODES + 1)]
    assert bits_py.solve_lists(big, 1, 2, 0) == -1
    # The largest graph it takes: the mouse on a node with no move loses at once.
    assert bits_py.solve_lists(big[:LISTS_MAX_NODES], 1, 2, 0) == 2


def test_threads_are_checked_and_ignored():
    args = classic_args([[1], [0, 2], [1]])
    assert bits_py.propagate(*args, None, None, 7, threads=4) == 2
    for bad, error in [(0, ValueError), (-2, ValueError), (True, TypeError), (1.5, TypeError),
                       ("2", TypeError)]:
        with pytest.raises(error, match="threads"):
            bits_py.propagate(*args, None, None, 7, threads=bad)
        with pytest.raises(error, match="threads"):
            bits_py.peak_bytes(3, False, False, True, threads=bad)


def test_the_twin_reads_offsets_from_any_sequence_of_ints():
    """The compiled engine takes int32 buffers; the twin reads an indptr from any sequence of
    ints (lists, tuples, wider arrays), with the same answers."""
    path = [[1], [0, 2], [1, 3], [2]]
    args = classic_args(path)
    expected = tables(bits_py, 4, args[1], path, path)
    for kind in (list, tuple, lambda a: array("q", a)):
        csr_arrays = [kind(a) if k % 2 == 0 else a for k, a in enumerate(args[2:])]
        outcome, remoteness = bytearray(32), array("i", bytes(128))
        decided = bits_py.propagate(4, args[1], *csr_arrays, outcome, remoteness)
        assert (decided, bytes(outcome), remoteness.tobytes()) == expected


class _Ticks:
    """A clock for ``time.monotonic`` that moves one second each time it is read."""

    def __init__(self):
        self.now = 0.0

    def monotonic(self):
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("n", [12, 100])
def test_progress_waits_its_interval_from_the_last_report(n, monkeypatch):
    """Reports are _PROGRESS_EVERY apart: with a clock read once a round, every third round."""
    for module in (py_small, py_rounds):
        monkeypatch.setattr(module, "_PROGRESS_EVERY", 2.5)
        monkeypatch.setattr(module, "time", _Ticks())
    path = [[v for v in (u - 1, u + 1) if 0 <= v < n] for u in range(n)]
    seen = []
    outcome, remoteness = bytearray(2 * n * n), array("i", bytes(8 * n * n))
    bits_py.propagate(*classic_args(path), outcome, remoteness, progress=seen.append)
    rounds = max(remoteness) + 1
    assert rounds > 12
    assert rounds // 3 - 1 <= len(seen) - 1 <= rounds // 3 + 1  # and once at the end


def test_node_limit_is_65535():
    assert facts.MAX_NODES == 65535
    n = 65535
    empty = (array("i", bytes(4 * (n + 1))), array("i"))
    assert checks.check_game(n, bytes(n), empty * 4)[0] == n  # accepted
    with pytest.raises(ValueError, match="out of range"):
        checks.check_game(n + 1, bytes(n + 1), (array("i", bytes(4 * (n + 2))),
                                                   array("i")) * 4)
    # 2 * 65535**2 positions: targets past 2**31 are plain ints.
    with pytest.raises(ValueError, match="not a position"):
        bits_py.check_arrays(n, bytes(n), empty * 4, None, None, 2 * n * n)


@pytest.mark.parametrize("n", [12, 100])
def test_progress_between_rounds(n, monkeypatch):
    for module in (py_small, py_rounds):  # both searches report progress
        monkeypatch.setattr(module, "_PROGRESS_EVERY", 0.0)
    path = [[v for v in (u - 1, u + 1) if 0 <= v < n] for u in range(n)]
    seen = []
    outcome, remoteness = bytearray(2 * n * n), array("i", bytes(8 * n * n))
    decided = bits_py.propagate(*classic_args(path), outcome, remoteness,
                                progress=seen.append)
    assert len(seen) > n // 2  # once per round, and the rounds are many on a path
    assert seen == sorted(seen) and seen[-1] == decided
    # Each round's report counts the positions decided by then (remoteness at most that
    # round's number); the last repeats the total.
    by_round = collections.Counter(remoteness)
    rounds = max(remoteness) + 1
    assert seen[:-1] == list(itertools.accumulate(by_round[k] for k in range(rounds)))
    assert bits_py.propagate(*classic_args(path), None, None, n + 1,
                               progress=seen.append) == queue_engine.propagate(
        *classic_args(path), None, None, n + 1)

    class Stop(Exception):
        pass

    def stop(decided):
        raise Stop(decided)

    with pytest.raises(Stop):
        bits_py.propagate(*classic_args(path), bytearray(2 * n * n), progress=stop)
    with pytest.raises(TypeError, match="progress"):
        bits_py.propagate(*classic_args(path), outcome, progress=42)
