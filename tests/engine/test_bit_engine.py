"""What is new in the bit-parallel compiled engine: threads, its two paths, progress, memory.

The tables themselves are checked against the oracle and the pure twin elsewhere
(test_engine, test_oracle, test_engine_perf_paths); here the engine is checked against
itself across what must not change its answers (the thread count, the n <= 64 path
against the general one) and for the contract's new entry points.
"""

from __future__ import annotations

import random
import sys
import tracemalloc
from array import array

import pytest
from engines import (
    HAS_TASK_LIST,
    NEVER_ALONE,
    interrupt_a_solving_child,
    os_threads,
    os_threads_back_to,
    pace_mode,
)
from oracle import CAT_FORBIDDEN, CAT_GOAL, HOLE, csr, solve_game

bits_c = pytest.importorskip("catmouse.engine.bits_c")


def random_game(rng, n, density=None):
    """Directed move graphs per player, stays, stuck movers, and every flag."""
    def moves():
        p = density if density is not None else rng.choice((1.5 / n, 3 / n, 0.2, 0.5))
        rows = []
        for u in range(n):
            row = [v for v in range(n) if v != u and rng.random() < p]
            if rng.random() < 0.2:
                row.append(u)  # may stay
            if rng.random() < 0.05:
                row = []  # stuck
            rng.shuffle(row)
            rows.append(row)
        return rows

    mouse = moves()
    cat = mouse if rng.random() < 0.3 else moves()
    flags = [rng.choice((0, 0, 0, 0, HOLE, HOLE | CAT_FORBIDDEN, CAT_FORBIDDEN, CAT_GOAL))
             for _ in range(n)]
    return mouse, cat, flags


def tables(game, threads=1, remoteness=True, progress=None):
    mouse, cat, flags = game
    n = len(flags)
    outcome = bytearray(2 * n * n)
    rem = array("i", [0]) * (2 * n * n) if remoteness else None
    decided = bits_c.propagate(n, bytes(flags), *csr(mouse), *csr(cat), outcome, rem,
                                 threads=threads, progress=progress)
    return decided, bytes(outcome), rem.tobytes() if remoteness else None


@pytest.mark.parametrize("seed", range(4))
def test_threads_give_identical_tables(seed):
    rng = random.Random(seed)
    for _ in range(6):
        game = random_game(rng, rng.randint(65, 260))
        one = tables(game)
        for threads in (2, 3, 5):
            assert tables(game, threads) == one, (seed, threads)


@pytest.mark.parametrize("n", [600, 1100, 2000])
def test_threads_owning_ranges_of_blocks_give_identical_tables(n):
    # Threads own contiguous ranges of row blocks (owner_of): 600 nodes are 10 blocks (5 and
    # 5 on 2 threads, 3, 3 and 4 on 3), 1100 are 18, 2000 are 32.
    game = random_game(random.Random(n), n, density=3 / n)
    one = tables(game)
    for threads in (2, 3):
        assert tables(game, threads) == one, threads


def test_threads_beyond_the_row_blocks_are_fine():
    # 70 nodes are two 64-row blocks: more threads than blocks do no harm.
    game = random_game(random.Random(1), 70)
    assert tables(game, threads=16) == tables(game)


def test_general_path_matches_the_oracle():
    rng = random.Random(5)
    for _ in range(3):
        game = random_game(rng, rng.randint(65, 72), density=0.05)
        expected = solve_game(*game)
        decided, outcome, rem = tables(game)
        assert outcome == expected.outcome_table()
        assert rem == expected.remoteness_table().tobytes()
        assert decided == sum(1 for v in expected.outcome.values() if v in (1, 2))


def pad(game, extra):
    """The same game with ``extra`` isolated nodes added (no move reaches them)."""
    mouse, cat, flags = game
    return ([list(r) for r in mouse] + [[] for _ in range(extra)],
            [list(r) for r in cat] + [[] for _ in range(extra)],
            list(flags) + [0] * extra)


@pytest.mark.parametrize("n", [5, 40, 64])
def test_small_and_general_paths_agree(n):
    """A game of at most 64 nodes, and the same game inside a bigger graph (general path).

    Nodes nobody can move to change nothing for positions among the original nodes.
    """
    rng = random.Random(n)
    for _ in range(5):
        game = random_game(rng, n)
        _, small_out, small_rem = tables(game)
        big = pad(game, 130 - n)
        _, big_out, big_rem = tables(big)
        N = 130
        for t in range(2):
            for m in range(n):
                row = (t * N + m) * N
                at = (t * n + m) * n
                assert big_out[row:row + n] == small_out[at:at + n]
                assert big_rem[4 * row:4 * (row + n)] == small_rem[4 * at:4 * (at + n)]


@pytest.mark.parametrize("n", [30, 64, 65, 150])
def test_target_mode_matches_the_table_on_both_paths(n):
    rng = random.Random(n)
    game = random_game(rng, n)
    mouse, cat, flags = game
    arrays = csr(mouse) + csr(cat)
    _, outcome, _ = tables(game, remoteness=False)
    for target in rng.sample(range(2 * n * n), 60):
        code = bits_c.propagate(n, bytes(flags), *arrays, None, None, target)
        assert code == outcome[target], target


def test_board_and_solve_boards_on_both_paths():
    rng = random.Random(9)
    boards, games = [], []
    for n in (10, 64, 65, 100):
        game = random_game(rng, n)
        mouse, cat, flags = game
        boards.append(bits_c.Board(n, bytes(flags), *csr(mouse), *csr(cat)))
        games.append(game)
    for m, c, t in [(1, 2, 0), (3, 0, 1), (5, 7, 0)]:
        codes = bits_c.solve_boards(boards, m, c, t)
        for board, game, code in zip(boards, games, codes):
            n = board.n
            flags = game[2]
            if flags[c] & CAT_FORBIDDEN:
                assert code == 255 and board.solve(m, c, t) == -1
                continue
            expected = tables(game, remoteness=False)[1][(t * n + m) * n + c]
            assert code == expected == board.solve(m, c, t)


@pytest.mark.parametrize("n", [40, 65, 100])
def test_solve_boards_gives_every_outcome_on_both_paths(n):
    """Draws, wins and losses of boards past 64 nodes as well (code 0 is a draw, not an error)."""
    rng = random.Random(n)
    for _ in range(50):
        game = random_game(rng, n)
        outcome = tables(game, remoteness=False)[1]
        if 0 in outcome[n * n:] and 1 in outcome[n * n:] and 2 in outcome[n * n:]:
            break
    else:
        pytest.fail("no game with every outcome")
    mouse, cat, flags = game
    board = bits_c.Board(n, bytes(flags), *csr(mouse), *csr(cat))
    for code in (0, 1, 2):
        positions = [k for k in range(n * n, 2 * n * n) if outcome[k] == code]
        for k in rng.sample(positions, min(5, len(positions))):
            m, c = divmod(k - n * n, n)
            assert bits_c.solve_boards([board, board], m, c, 1) == bytearray([code, code])


def test_board_keeps_its_own_copy():
    game = random_game(random.Random(3), 90)
    mouse, cat, flags = game
    arrays = [a for pair in (csr(mouse), csr(cat)) for a in pair]
    flag_bytes = bytearray(flags)
    board = bits_c.Board(90, flag_bytes, *arrays)
    before = [board.solve(m, c) for m in range(0, 90, 7) for c in range(0, 90, 11)]
    flag_bytes[:] = bytes([HOLE]) * 90
    for a in arrays:
        for i in range(len(a)):
            a[i] = 0
    assert [board.solve(m, c) for m in range(0, 90, 7) for c in range(0, 90, 11)] == before


@pytest.mark.parametrize("n", [20, 200])
@pytest.mark.parametrize("threads", [1, 2])
def test_progress_is_called_with_the_decided_count(n, threads):
    game = random_game(random.Random(n), n)
    seen = []
    decided, _, _ = tables(game, threads, progress=seen.append)
    assert seen and seen[-1] == decided
    assert seen == sorted(seen)


class Cancel(Exception):
    pass


@pytest.mark.skipif(not HAS_TASK_LIST, reason="counts threads in /proc")
@pytest.mark.parametrize("threads", [1, 3])
def test_progress_can_cancel_and_the_engine_recovers(threads):
    game = random_game(random.Random(2), 300, density=0.01)
    before = os_threads()
    started = []

    def cancel(decided):
        started.append(os_threads() - before)
        raise Cancel(decided)

    # (Never alone: on a loaded machine the pacing would send the helpers away before the
    # first progress call, and this test is about the cancel, not the pacing.)
    with pace_mode(NEVER_ALONE), pytest.raises(Cancel):
        tables(game, threads, progress=cancel)
    assert started == [threads - 1]  # the helpers ran while the progress was called
    # At most as many: a thread an earlier test left behind may end meanwhile (the clean-clone
    # CI run once saw 4 before and 3 after).
    assert os_threads_back_to(before) <= before
    assert tables(game, threads) == tables(game)


def test_bad_threads_and_progress():
    game = random_game(random.Random(1), 4)
    for bad in (0, -2):
        with pytest.raises(ValueError, match="threads"):
            tables(game, bad)
    with pytest.raises(TypeError):
        tables(game, 1.5)
    with pytest.raises(TypeError, match="progress"):
        tables(game, progress=3)


def test_node_limit_is_65535():
    with pytest.raises(ValueError, match="n = 65536"):
        bits_c.propagate(65536, b"", *csr([]) * 2, None, None, 0)
    # 65535 passes the node check: the next complaint is about the flags.
    with pytest.raises(ValueError, match="flags has 0 entries for 65535 nodes"):
        bits_c.propagate(65535, b"", *csr([]) * 2, None, None, 0)


def test_peak_bytes_shape():
    assert bits_c.peak_bytes(0, True, True, False) == 0
    assert bits_c.peak_bytes(64, True, True, False) == 0  # on the stack
    small = bits_c.peak_bytes(1000, True, False, False)
    assert bits_c.peak_bytes(1000, False, False, True) == small
    assert bits_c.peak_bytes(1000, True, False, False, threads=2) > small
    # Half a byte per position for the bit tables, a sixteenth for the thin lists (two
    # 4-byte entries per word of 64 positions), plus lists per node: 64-bit arithmetic
    # past 2**31.
    big = bits_c.peak_bytes(65535, True, False, False)
    assert 0.5625 * 2 * 65535**2 < big < 0.58 * 2 * 65535**2
    # An int32 remoteness table is written from a layer of planes of the engine's own (a
    # byte a position and the padding); planes mode writes the caller's.
    layer = 2 * 65535 * 1024 * 64
    assert bits_c.peak_bytes(65535, True, True, False) == big + layer
    assert bits_c.peak_bytes(65535, True, False, False, planes=True) == big
    assert bits_c.peak_bytes(64, True, True, False, planes=True) == 0
    with pytest.raises(ValueError):
        bits_c.peak_bytes(65536, True, True, False)
    with pytest.raises(ValueError, match="threads"):
        bits_c.peak_bytes(100, True, True, False, threads=0)


@pytest.mark.parametrize("planes", [False, True], ids=["int32", "planes"])
@pytest.mark.parametrize("n,threads", [(64, 1), (65, 1), (400, 1), (400, 3)])
def test_peak_bytes_covers_what_the_engine_allocates(n, threads, planes):
    """tracemalloc sees PyMem_Raw allocations: the engine's own peak is what it says."""
    game = random_game(random.Random(n), n, density=3 / n)
    mouse, cat, flags = game
    arrays = csr(mouse) + csr(cat)
    outcome = bytearray(2 * n * n)
    rem = None if planes else array("i", [0]) * (2 * n * n)
    extra = {"planes": bytearray(2 * n * ((n + 63) // 64) * 64), "more_planes": []} \
        if planes else {}
    claimed = bits_c.peak_bytes(n, True, True, False, threads, planes=planes)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        bits_c.propagate(n, bytes(flags), *arrays, outcome, rem, threads=threads, **extra)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    # The engine's block is the whole of it but for Python's own small objects
    # (the bytes copy of flags above, thread objects and their locks).
    assert claimed <= peak <= claimed + n + 64 * 1024


CTRL_C_CHILD = r"""
import random, signal, sys, threading, time
from array import array
from catmouse.engine import bits_c

signal.signal(signal.SIGINT, signal.default_int_handler)  # ignored if started in background

n, threads = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(1)
rows = [set() for _ in range(n)]
while sum(map(len, rows)) < 4 * n:
    u, v = rng.sample(range(n), 2)
    rows[u].add(v)
    rows[v].add(u)
indptr, indices = array("i", [0]), array("i")
for row in rows:
    indices.extend(sorted(row))
    indptr.append(len(indices))
flags = bytearray(n)
flags[0] = 3
outcome, rem = bytearray(2 * n * n), array("i", bytes(8 * n * n))
print("solving", flush=True)
try:
    while True:  # until interrupted
        bits_c.propagate(n, bytes(flags), *(indptr, indices) * 4, outcome, rem,
                           threads=threads)
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), threading.active_count(), flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_the_threads(threads):
    """SIGINT during a threaded solve: KeyboardInterrupt soon, and no helper thread left."""
    word, delay, alive = interrupt_a_solving_child(CTRL_C_CHILD, "2000", str(threads),
                                                   engine_file=bits_c.__file__)
    assert word == "interrupted"
    assert delay < 2.0  # generous for a loaded machine
    assert alive == 1  # only the main thread


@pytest.mark.parametrize("n", [2, 40, 100])
def test_answers_come_from_the_move_arrays_alone(n):
    """Reverse arrays that are not the moves' reverse change nothing (the raw entry does
    not check them): the game is the one the move arrays describe."""
    rng = random.Random(n)
    game = random_game(rng, n)
    mouse, cat, flags = game
    expected = tables(game)
    wrong = [array("i", [0] * (n + 1)), array("i")]  # no predecessors at all
    m_ip, m_ix, _, _ = csr(mouse)
    c_ip, c_ix, c_rip, c_rix = csr(cat)
    for arrays in ((m_ip, m_ix, *wrong, c_ip, c_ix, c_rip, c_rix),
                   (m_ip, m_ix, *csr(mouse)[2:], c_ip, c_ix, *wrong)):
        outcome = bytearray(2 * n * n)
        rem = array("i", [0]) * (2 * n * n)
        decided = bits_c.propagate(n, bytes(flags), *arrays, outcome, rem)
        assert (decided, bytes(outcome), rem.tobytes()) == expected
        # A Board finds out once that the reverse arrays do not match (Game.reverse), and
        # its analyses and solves then recompute every row, as propagate does.
        board = bits_c.Board(n, bytes(flags), *arrays)
        assert board.analyze(False) == (expected[1], None)
        for target in rng.sample(range(2 * n * n), min(20, 2 * n * n)):
            turn, mouse_at, cat_at = target // (n * n), target // n % n, target % n
            code = expected[1][target]
            assert board.solve(mouse_at, cat_at, turn) == (-1 if code == 3 else code)


@pytest.mark.parametrize("n", [1, 2, 63, 64, 65, 130, 300])
@pytest.mark.parametrize("threads", [1, 2])
def test_every_outcome_byte_is_written(n, threads):
    """The search writes every byte of the outcome table, whatever it held before: analyze
    relies on it to skip clearing that table (Table(size, zeroed=False))."""
    rng = random.Random(n)
    game = random_game(rng, n)
    mouse, cat, flags = game
    written = []
    for fill in (0x00, 0xEE):
        outcome = bytearray([fill]) * (2 * n * n)
        bits_c.propagate(n, bytes(flags), *csr(mouse), *csr(cat), outcome, None,
                         threads=threads)
        written.append(bytes(outcome))
    assert written[0] == written[1] == tables(game, remoteness=False)[1]
    assert set(written[0]) <= {0, 1, 2, 3}


def test_a_table_left_unzeroed_is_still_a_table():
    """Table(size, zeroed=False): the size asked, writable, then immutable bytes."""
    table = bits_c.Table(1 << 23, zeroed=False)  # (past HUGE_TABLE: the huge-page hint)
    with table.view() as view:
        view[:] = b"\x01" * (1 << 23)
    data = table.take()
    assert type(data) is bytes and data == b"\x01" * (1 << 23)
    assert bits_c.Table(5).take() == bytes(5)
