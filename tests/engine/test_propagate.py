"""The engine twins, called directly: general games, the target mode, argument checks."""

from __future__ import annotations

import importlib
import random
import re
from array import array

import pytest
from oracle import (
    CAT_FORBIDDEN,
    CAT_GOAL,
    HOLE,
    NO_POSITION,
    csr,
    engine_args,
    random_game,
    solve_game,
)

from catmouse.engine.facts import MAX_NODES

N_GAMES = 2000  # random general games (directed, self-loops, mixed flags) per engine


def run(engine, mouse_moves, cat_moves, flags, *, remoteness=True):
    n = len(flags)
    outcome = bytearray(2 * n * n)
    rem = array("i", [0]) * (2 * n * n) if remoteness else None
    decided = engine.propagate(n, bytes(flags), *csr(mouse_moves), *csr(cat_moves), outcome, rem)
    return bytes(outcome), rem, decided


def test_engine_constants_match_the_oracle(engine):
    py = importlib.import_module("catmouse.engine.facts")  # what both twins read
    assert (py.HOLE, py.CAT_FORBIDDEN, py.CAT_GOAL, py.NO_POSITION) == (
        HOLE, CAT_FORBIDDEN, CAT_GOAL, NO_POSITION)


def test_general_games_match_oracle(engine):
    rng = random.Random(4913)
    for _ in range(N_GAMES):
        game = random_game(rng)
        expected = solve_game(*game)
        outcome, rem, decided = run(engine, *game)
        assert outcome == expected.outcome_table(), game
        assert rem == expected.remoteness_table(), game
        assert decided == sum(1 for v in expected.outcome.values() if v in (1, 2))


def test_every_entry_of_the_buffers_is_written(engine):
    """The tables do not depend on what the caller's buffers held before the call."""
    rng = random.Random(49)
    for _ in range(100):
        mouse_moves, cat_moves, flags = game = random_game(rng)
        n = len(flags)
        outcome = bytearray([9]) * (2 * n * n)
        rem = array("i", [7]) * (2 * n * n)
        engine.propagate(n, bytes(flags), *csr(mouse_moves), *csr(cat_moves), outcome, rem)
        expected = solve_game(*game)
        assert bytes(outcome) == expected.outcome_table(), game
        assert rem == expected.remoteness_table(), game


def test_engines_are_twins_bit_for_bit(compiled_engine):
    """Both engines write identical tables and return the same count."""
    compiled = compiled_engine
    python = importlib.import_module("catmouse.engine.bits_py")
    rng = random.Random(2)
    for _ in range(300):
        game = random_game(rng, 1, 12)
        assert run(compiled, *game) == run(python, *game), game


def test_target_mode_returns_each_positions_outcome(engine):
    rng = random.Random(7)
    for _ in range(150):
        mouse_moves, cat_moves, flags = game = random_game(rng)
        n = len(flags)
        table = solve_game(*game).outcome_table()
        arrays = csr(mouse_moves) + csr(cat_moves)
        for target in range(2 * n * n):
            got = engine.propagate(n, bytes(flags), *arrays, None, None, target)
            assert got == table[target], (game, target)


def test_outcome_without_remoteness(engine):
    rng = random.Random(11)
    for _ in range(50):
        game = random_game(rng)
        outcome, rem, _ = run(engine, *game, remoteness=False)
        assert rem is None
        assert outcome == solve_game(*game).outcome_table()


def test_numpy_buffers(engine):
    np = pytest.importorskip("numpy")
    game = ([[1], [0, 2], [1]], [[1], [0, 2], [1]], [HOLE | CAT_FORBIDDEN, 0, 0])
    outcome = np.zeros(18, np.uint8)
    rem = np.zeros(18, np.int32)
    arrays = [np.asarray(a, dtype=np.int32) for a in csr(game[0]) + csr(game[1])]
    engine.propagate(3, np.array(game[2], np.uint8), *arrays, outcome, rem)
    expected = solve_game(*game)
    assert outcome.tobytes() == expected.outcome_table()
    assert rem.tolist() == expected.remoteness_table().tolist()


def test_empty_game(engine):
    assert engine.propagate(0, b"", *csr([]), *csr([]), bytearray(), array("i")) == 0


def test_a_mover_with_no_move_loses(engine):
    # Node 1's only move is into the hole 0, which the cat may not enter.
    board = [[1], [0], []]
    outcome, rem, _ = run(engine, board, board, [HOLE | CAT_FORBIDDEN, 0, 0])
    cat_to_move = 9 + 2 * 3 + 1  # mouse on 2, cat on 1, cat to move
    mouse_to_move = 2 * 3 + 1
    assert (outcome[cat_to_move], rem[cat_to_move]) == (1, 0)  # stuck cat: mouse wins
    assert (outcome[mouse_to_move], rem[mouse_to_move]) == (2, 0)  # isolated mouse: cat wins


def good_args(n=2):
    board = [[1], [0]]
    return [n, bytes(n), *csr(board), *csr(board), bytearray(8), array("i", [0] * 8), -1]


def edit(args, index, value):
    args = list(args)
    args[index] = value
    return args


BAD_ARGS = {
    "n too large": (edit(good_args(), 0, MAX_NODES + 1), f"n = {MAX_NODES + 1}"),
    "negative n": (edit(good_args(), 0, -1), "n = -1"),
    "short flags": (edit(good_args(), 1, b"\0"), "flags has 1 entries for 2 nodes"),
    "short indptr": (edit(good_args(), 2, array("i", [0, 1])), "mouse indptr has 2 entries"),
    "indptr not starting at 0": (edit(good_args(), 2, array("i", [1, 1, 2])),
                                 "mouse indptr is not a monotone offset array at 0"),
    "indptr going down": (edit(good_args(), 6, array("i", [0, 2, 1])),
                          "cat indptr is not a monotone offset array at 2"),
    "indptr going down late": (edit(good_args(3), 2, array("i", [0, 0, 2, 1])),
                               "mouse indptr is not a monotone offset array at 3"),
    "indptr end": (edit(good_args(), 4, array("i", [0, 1, 1])), "mouse reverse indptr ends"),
    "index out of range": (edit(good_args(), 9, array("i", [1, 2])), "cat reverse indices[1] = 2"),
    "index out of range after node 0": (edit(good_args(), 9, array("i", [0, 2])),
                                        "cat reverse indices[1] = 2"),
    "negative index": (edit(good_args(), 3, array("i", [-1, 0])), "mouse indices[0] = -1"),
    "outcome size": (edit(good_args(), 10, bytearray(7)), "outcome buffer has 7 entries"),
    "remoteness size": (edit(good_args(), 11, array("i", [0] * 9)), "remoteness buffer has 9"),
    "neither outcome nor target": (edit(edit(good_args(), 10, None), 11, None), "either"),
    "both outcome and target": (edit(good_args(), 12, 0), "either"),
    "target out of range": (edit(edit(edit(good_args(), 10, None), 11, None), 12, 8),
                            "target 8 is not a position"),
}


@pytest.mark.parametrize("case", list(BAD_ARGS))
def test_bad_arguments_raise_the_same_value_error(engine, case):
    args, message = BAD_ARGS[case]
    with pytest.raises(ValueError, match=re.escape(message)):
        engine.propagate(*args)


@pytest.mark.parametrize("slot", [1, 2, 10, 11])
def test_arguments_that_are_no_buffer_raise_type_error(engine, slot):
    with pytest.raises(TypeError):
        engine.propagate(*edit(good_args(), slot, 5))


# Arrays of the wrong shape, format or mutability: (slot, array, error, message).  Cython's
# buffer conversion words these by exporter; both twins must give the same error.
BAD_BUFFERS = {
    "strided outcome": (10, memoryview(bytearray(16))[::2], ValueError,
                        "outcome must be a one-dimensional contiguous buffer"),
    "strided remoteness": (11, memoryview(bytearray(64)).cast("i")[::2], ValueError,
                           "remoteness must be a one-dimensional contiguous buffer"),
    "2-D outcome": (10, memoryview(bytearray(8)).cast("B", (2, 4)), ValueError,
                    "outcome must be a one-dimensional contiguous buffer"),
    "strided flags": (1, memoryview(bytes(4))[::2], ValueError,
                      "flags must be a one-dimensional contiguous buffer"),
    "read-only outcome": (10, bytes(8), TypeError, "outcome is read-only"),
    "read-only remoteness": (11, memoryview(array("i", [0] * 8)).toreadonly(), TypeError,
                             "remoteness is read-only"),
    "float remoteness": (11, array("f", [0] * 8), ValueError,
                         "remoteness has items of format 'f', expected 'i'"),
    "wide flags": (1, array("i", [0, 0]), ValueError,
                   "flags has items of format 'i', expected 'B'"),
    "float indptr": (2, array("d", [0, 1, 2]), TypeError,
                     "'float' object cannot be interpreted as an integer"),
}


@pytest.mark.parametrize("case", list(BAD_BUFFERS))
def test_bad_buffers_raise_the_same_error(engine, case):
    slot, bad, error, message = BAD_BUFFERS[case]
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        engine.propagate(*edit(good_args(), slot, bad))


@pytest.mark.parametrize("threads, error", [(True, TypeError), (1.5, TypeError), ("2", TypeError),
                                            (0, ValueError), (-3, ValueError)])
def test_thread_counts_are_checked(engine, threads, error):
    with pytest.raises(error, match="threads must be"):
        engine.propagate(*good_args(), threads=threads)
    with pytest.raises(error, match="threads must be"):
        engine.check_threads(threads)
    assert engine.check_threads(3) == 3


def test_board_solves_every_position_like_the_oracle(engine):
    rng = random.Random(1728)
    for _ in range(60):
        game = random_game(rng, 1, 7)
        expected = solve_game(*game)
        board = engine.Board(*engine_args(*game))
        codes = engine.solve_boards([board], 0, 0, 0)
        assert len(codes) == 1
        for (m, c, t), value in expected.outcome.items():
            assert board.solve(m, c, t) == value, (game, (m, c, t))
            assert engine.solve_boards([board, board], m, c, t) == bytearray([value, value])


def test_a_board_keeps_its_own_copy_of_the_callers_buffers(engine):
    """A caller who rewrites the arrays after making a Board changes none of its answers."""
    rng = random.Random(1729)
    for _ in range(25):
        game = random_game(rng, 3, 7)
        expected = solve_game(*game).outcome
        args = engine_args(*game)
        board = engine.Board(*args)
        for buffer in args[2:]:  # every indptr and indices array, zeroed
            for i in range(len(buffer)):
                buffer[i] = 0
        for (m, c, t), value in expected.items():
            assert board.solve(m, c, t) == value, (game, (m, c, t))


def test_solve_boards_moves_the_mouse_first_unless_told(engine):
    rng = random.Random(1730)
    for _ in range(20):
        game = random_game(rng, 2, 6)
        expected = solve_game(*game).outcome
        board = engine.Board(*engine_args(*game))
        for (m, c, t), value in expected.items():
            if t == 0:
                assert engine.solve_boards([board], m, c) == bytearray([value]), (game, m, c)


def test_a_board_takes_no_new_attributes(engine):
    """Both twins' Boards are fixed records (a slotted class, an extension type)."""
    board = engine.Board(*good_args()[:10])
    with pytest.raises(AttributeError):
        board.n_cached = 2


def test_board_answers_minus_one_for_what_is_no_position(engine):
    board = engine.Board(*good_args()[:10])
    for args in [("1", 0), (1.5, 0), (0, None), (2, 0), (0, -1), (0, 0, 2), (0, 1, 1.0)]:
        assert board.solve(*args) == -1, args
    assert board.solve(0, 1) == solve_game([[1], [0]], [[1], [0]], [0, 0]).outcome[0, 1, 0]


def test_good_arguments_accepted(engine):
    expected = solve_game([[1], [0]], [[1], [0]], [0, 0])
    decided = sum(1 for v in expected.outcome.values() if v)
    assert engine.propagate(*good_args()) == decided


def test_a_cat_whose_only_moves_repeat_a_forbidden_node_is_stuck(engine):
    """Cat row [1, 1] into a node it may not enter: no legal move, so the cat loses.

    The pure twin once skipped its stuck check when a row listed more moves than
    there are forbidden nodes (a length shortcut that repeats break).
    """
    flags = bytes([0, CAT_FORBIDDEN, 0])
    mouse = [[1, 2], [1], [1]]
    cat = [[1, 2], [], [1, 1]]
    n = 3
    outcome, remoteness = bytearray(2 * n * n), array("i", [0]) * (2 * n * n)
    engine.propagate(n, flags, *csr(mouse), *csr(cat), outcome, remoteness)
    expected = solve_game(mouse, cat, list(flags))
    assert bytes(outcome) == expected.outcome_table()
    assert remoteness == expected.remoteness_table()
    assert outcome[n * n + 0 * n + 2] == 1  # mouse on 0, the stuck cat on 2 to move


def test_moves_repeated_past_n_times_are_the_same_moves(engine):
    """Rows listing more moves than there are nodes (each move repeated) give the game
    without the repeats, in the tables and on a Board (the twin drops repeats there)."""
    rng = random.Random(4914)
    for _ in range(60):
        mouse, cat, flags = game = random_game(rng, 1, 7)
        n = len(flags)
        expected = solve_game(*game)
        repeated = ([row * (n + 1) for row in mouse], [row[::-1] * (n + 1) for row in cat])
        outcome, rem, _ = run(engine, *repeated, flags)
        assert outcome == expected.outcome_table(), game
        assert rem == expected.remoteness_table(), game
        board = engine.Board(*engine_args(*repeated, flags))
        for (m, c, t), value in expected.outcome.items():
            assert board.solve(m, c, t) == value, (game, (m, c, t))


class _Index:
    """Not an int, but usable as one (``__index__``), like numpy's integers."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


def test_sizes_and_targets_may_be_any_integer_like(engine):
    args = good_args()
    no_tables = edit(edit(args, 10, None), 11, None)
    for target, same in ((_Index(5), 5), (True, 1)):
        assert (engine.propagate(*edit(no_tables, 12, target))
                == engine.propagate(*edit(no_tables, 12, same)))
    assert engine.propagate(*edit(args, 0, _Index(2))) == engine.propagate(*args)
    for bad in (1.0, "5"):
        with pytest.raises(TypeError):
            engine.propagate(*edit(no_tables, 12, bad))
