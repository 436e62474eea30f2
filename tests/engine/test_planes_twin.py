"""Planes mode (issue #38): ``propagate(..., planes=buffer, more_planes=list)`` writes each
decided position's remoteness as bit planes, on both twins, byte for byte the same.

The layout (the contract in catmouse/engine/planes.py): a layer is two halves (the mouse to
move in rows by mouse, the cat to move in rows by cat) of n rows; a row is W = (n + 63) // 64
groups of 8 native 64-bit words, word p of group j holding bit p of columns 64j..64j+63.
Layer L holds bits 8L..8L+7 and exists only if some remoteness reaches 2**(8L).  The decoder
here reads that layout on its own, and every table is checked against the same engine's int32
remoteness table.
"""

from __future__ import annotations

import random
from array import array

import pytest
from oracle import (
    classic_flags,
    csr,
    engine_args,
    gnp_rows,
    planes_run,
    random_board,
    random_game,
)

from catmouse.engine import planes as planes_module
from catmouse.engine.facts import CAT_WIN, MOUSE_WIN


def layer_bytes(n):
    return 2 * n * ((n + 63) // 64) * 64


def decode(layers, n):
    """Every position's plane value, asserting the padding columns are clear."""
    words_per_row = (n + 63) // 64
    values = [0] * (2 * n * n)
    for layer, data in enumerate(layers):
        words = memoryview(data).cast("B").cast("Q").tolist()
        assert len(words) == 2 * n * words_per_row * 8
        for turn in range(2):
            for r in range(n):
                base = (turn * n + r) * words_per_row * 8
                for p in range(8):
                    row = sum(words[base + 8 * j + p] << 64 * j for j in range(words_per_row))
                    assert row >> n == 0, ("padding", turn, r, p)
                    while row:
                        low = row & -row
                        row ^= low
                        column = low.bit_length() - 1
                        position = (turn * n * n
                                    + (r * n + column if turn == 0 else column * n + r))
                        values[position] |= 1 << (8 * layer + p)
    return values


def int32_tables(engine, args):
    n = args[0]
    outcome, remoteness = bytearray(2 * n * n), array("i", bytes(8 * n * n))
    decided = engine.propagate(*args, outcome, remoteness)
    return decided, outcome, remoteness


def sparse_board(rng, n):
    """An undirected sparse board (long games) with a random hole."""
    rows = gnp_rows(rng, n, rng.choice((1.5, 2.5, 4.0)) / n)
    return (n, bytes(classic_flags(n, rng.randrange(n))), *csr(rows) * 2)


def games(small):
    """Random games on one side of the small path's 64 nodes: general games (directed,
    forbidden nodes, goals, holes the cat may enter), boards and sparse boards."""
    games = []
    for seed in range(8):
        rng = random.Random(seed)
        low, high = (1, 64) if small else (65, 200)
        if seed % 3 == 0:
            games.append(engine_args(*random_game(rng, low, high)))
        elif seed % 3 == 1:
            adjacency, hole = random_board(rng, max(low, 2), high)
            n = len(adjacency)
            games.append((n, bytes(classic_flags(n, hole)), *csr(adjacency) * 2))
        else:
            games.append(sparse_board(rng, rng.randint(max(low, 2), high)))
    return games


def check_planes_match_the_int32_table(engine, args):
    n = args[0]
    decided, outcome, remoteness = int32_tables(engine, args)
    decided_planes, outcome_planes, (planes, *more) = planes_run(engine, args)
    assert (decided_planes, outcome_planes) == (decided, outcome)
    values = decode([planes, *more], n)
    for position, (code, rounds, value) in enumerate(zip(outcome, remoteness, values)):
        if code in (MOUSE_WIN, CAT_WIN):
            assert value == rounds, position
        else:  # a draw, or the cat on a node it may not enter: no bits
            assert (value, rounds) == (0, -1), position
    # The format module reads them back the same (the layout is the one it documents).
    nn = n * n
    for turn in (0, 1):
        rows = planes_module.remoteness_rows([planes, *more], outcome, n, turn, 0, n)
        assert memoryview(rows).tobytes() == remoteness[turn * nn:(turn + 1) * nn].tobytes()
    top = max(remoteness, default=-1)
    assert len(more) == max(0, (top.bit_length() - 1) // 8), (top, len(more))
    return planes, more


@pytest.mark.parametrize("args", games(small=True), ids=lambda args: f"n{args[0]}")
def test_small_path_planes_decode_to_the_int32_table(engine, args):
    check_planes_match_the_int32_table(engine, args)


@pytest.mark.parametrize("args", games(small=False), ids=lambda args: f"n{args[0]}")
def test_general_path_planes_decode_to_the_int32_table(engine, args):
    check_planes_match_the_int32_table(engine, args)


def path_board(n):
    """A path with the hole at one end, long games: 255 rounds at n = 130, 595 at 300."""
    rows = [[v for v in (u - 1, u + 1) if 0 <= v < n] for u in range(n)]
    return (n, bytes(classic_flags(n, n - 1)), *csr(rows) * 2)


@pytest.mark.parametrize("n, layers", [(64, 1), (100, 1), (130, 1), (131, 2), (300, 2)])
def test_a_game_past_round_255_gives_layer_1(engine, n, layers):
    planes, more = check_planes_match_the_int32_table(engine, path_board(n))
    assert 1 + len(more) == layers
    for layer in more:
        assert len(layer) == layer_bytes(n)
        assert any(layer)  # no empty trailing layer


@pytest.mark.parametrize("n, started", [(129, 1), (130, 2), (131, 2), (300, 2)])
def test_more_bytes_caps_the_layers_past_the_first(engine, n, started):
    """``more_bytes`` (what max_memory leaves) caps the layers past the first: a layer that
    would pass it is refused as round 256 starts, where the compiled engine makes it (at
    n = 130 the last round, 256, decides nothing, and its layer is dropped after: made all
    the same, so counted).  Both twins alike, and on two threads."""
    args = path_board(n)
    size = layer_bytes(n)
    free = planes_run(engine, args)
    threads = (1, 2) if engine.__name__.endswith("bits_c") else (1,)
    for count in threads:
        assert planes_run(engine, args, threads=count, more_bytes=(started - 1) * size) == free
        if started == 1:
            continue
        with pytest.raises(MemoryError) as refused:
            planes_run(engine, args, threads=count, more_bytes=size - 1)
        assert str(refused.value) == (
            f"the search reached round 256: remoteness layer 1 needs {size} bytes more, over "
            f"max_memory (it left {size - 1} bytes for the layers past the first)")
    assert planes_run(engine, args, more_bytes=2**64) == free  # (past an int64: no limit)
    for bad, error in ((-1, ValueError), (1.5, TypeError), (True, TypeError)):
        with pytest.raises(error, match="more_bytes"):
            planes_run(engine, args, more_bytes=bad)


def test_no_nodes_no_planes(engine):
    more: list = []
    args = (0, b"", *csr([]) * 2)
    assert engine.propagate(*args, bytearray(), planes=bytearray(), more_planes=more) == 0
    assert more == []


def test_progress_is_called_in_planes_mode(engine):
    args = path_board(120)
    calls: list[int] = []
    decided, *_ = planes_run(engine, args, progress=calls.append)
    assert calls and calls[-1] == decided == int32_tables(engine, args)[0]


@pytest.mark.parametrize("args", [*games(small=True)[:4], *games(small=False)[:3],
                                  path_board(130), path_board(300)],
                         ids=lambda args: f"n{args[0]}")
def test_both_twins_write_the_same_planes(compiled_engine, args):
    from catmouse.engine import bits_py

    _, outcome, (planes, *more) = planes_run(bits_py, args, fill=0x00)
    _, outcome_c, (planes_c, *more_c) = planes_run(compiled_engine, args, fill=0xFF)
    assert outcome_c == outcome
    assert planes_c == planes
    assert [bytes(layer) for layer in more_c] == [bytes(layer) for layer in more]


def test_planes_errors(engine):
    args = path_board(70)
    n = args[0]
    size = layer_bytes(n)
    out = bytearray(2 * n * n)
    with pytest.raises(ValueError, match=f"{size - 1}.*{size}|{size}.*{size - 1}"):
        engine.propagate(*args, out, planes=bytearray(size - 1), more_planes=[])
    with pytest.raises(ValueError, match="outcome"):
        engine.propagate(*args, None, None, 5, planes=bytearray(size), more_planes=[])
    with pytest.raises(ValueError, match="remoteness"):
        engine.propagate(*args, out, array("i", bytes(4 * len(out))), planes=bytearray(size),
                         more_planes=[])
    for more in (None, (), "layers"):
        with pytest.raises(TypeError, match="more_planes"):
            engine.propagate(*args, out, planes=bytearray(size), more_planes=more)
    with pytest.raises(TypeError):
        engine.propagate(*args, out, planes=bytes(size), more_planes=[])  # read-only


@pytest.mark.parametrize("n", [1, 2, 63, 64, 65, 127, 128, 129])
def test_planes_at_the_row_widths_edges(engine, n):
    """Sizes where a row's words fill up or spill into one more word (and the two paths meet)."""
    check_planes_match_the_int32_table(engine, sparse_board(random.Random(n), n))


def test_small_path_planes_past_bit_7_become_layer_1():
    """No game of at most 64 nodes found reaches round 256 (a path of 64 ends at 123), so the
    small path's hand-over of planes 8 and up is checked on boards made here: n = 5, rows of
    four 8-bit fields (the mouse to move won by mouse / cat, the cat to move won by mouse /
    cat)."""
    from catmouse.engine.py_planes import write_layers
    from catmouse.engine.py_small import _plane_halves

    n, width = 5, 8
    stride = 4 * width
    mouse_to_move = 1 << (2 * stride + width + 3)  # mouse 2, cat 3, won by the cat
    cat_to_move = 1 << (1 * stride + 2 * width + 4)  # cat 1, mouse 4, won by the mouse
    boards = [cat_to_move] + [0] * 7 + [mouse_to_move | cat_to_move]
    planes, more = bytearray([0x5A]) * layer_bytes(n), []
    write_layers(n, _plane_halves(boards, n, width), planes, more)
    assert len(more) == 1
    values = decode([planes, *more], n)
    assert values[2 * n + 3] == 256
    assert values[n * n + 4 * n + 1] == 257
    assert sum(map(bool, values)) == 2
