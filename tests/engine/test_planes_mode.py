"""Planes mode: ``propagate(planes=, more_planes=)`` writes remoteness as bit-planes.

The planes must be exactly the layers of the int32 table the same engine writes (built by
``planes.from_remoteness``, the format's own reference): every decided position's remoteness,
zero bits for draws, for the cells the cat may not stand on and for padding columns, and a
layer past the first only when some remoteness needs it.  The int32 mode is checked against
the oracle and the twin elsewhere (test_propagate, test_remoteness_planes).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
from array import array

import pytest
from oracle import engine_args, planes_run, random_game

from catmouse.engine.planes import from_remoteness, layer_bytes, remoteness_rows


def both_modes(engine, mouse_moves, cat_moves, flags, threads=1, fill=0xA5):
    """(outcome, int32 table) and (outcome, layers) of one game, the planes buffer filled
    with ``fill`` first (the engine must write all of it)."""
    args = engine_args(mouse_moves, cat_moves, flags)
    n = len(flags)
    outcome = bytearray(2 * n * n)
    rem = array("i", bytes(8 * n * n))
    engine.propagate(*args, outcome, rem, threads=threads)
    decided, planes_outcome, layers = planes_run(engine, args, threads=threads, fill=fill)
    assert decided == sum(1 for code in outcome if code in (1, 2))
    return (bytes(outcome), rem), (planes_outcome, layers)


def sparse_game(rng, n):
    """A sparse random undirected game (long games), hole and forbidden nodes."""
    rows = [[] for _ in range(n)]
    for u in range(1, n):
        v = rng.randrange(u)
        rows[u].append(v)
        rows[v].append(u)
    for _ in range(n // 4):
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v and v not in rows[u]:
            rows[u].append(v)
            rows[v].append(u)
    flags = [0] * n
    flags[rng.randrange(n)] = 3   # a hole the cat may not enter
    flags[rng.randrange(n)] |= 2  # a node the cat may not enter
    return rows, rows, flags


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("low, high", [(1, 64), (65, 300)], ids=["small path", "general"])
def test_planes_are_the_layers_of_the_int32_table(engine, low, high, threads):
    rng = random.Random(3800 + low + threads)
    for i in range(12 if low == 1 else 5):
        n = rng.randint(low, high)
        game = random_game(rng, n, n) if i % 2 else sparse_game(rng, n)
        (outcome, rem), (planes_outcome, layers) = both_modes(engine, *game, threads=threads)
        assert planes_outcome == outcome
        assert layers == from_remoteness(rem, n), (n, i)
        for turn in (0, 1):  # read back through the format module: -1 where no win
            rows = remoteness_rows(layers, outcome, n, turn, 0, n)
            assert bytes(memoryview(rows).cast("B")) == bytes(
                memoryview(rem).cast("B")[turn * 4 * n * n:(turn + 1) * 4 * n * n])


def test_draws_forbidden_cells_and_padding_have_no_bits(engine):
    # A cycle of 70 with a node the cat may not enter: draws (the mouse runs for ever), a
    # forbidden column, and 58 padding columns in each row's second word.
    n = 70
    rows = [[(u - 1) % n, (u + 1) % n] for u in range(n)]
    flags = [0] * n
    flags[5] = 2
    (outcome, rem), (_, layers) = both_modes(engine, rows, rows, flags, fill=0xFF)
    assert 0 in outcome  # some draws
    words = memoryview(layers[0]).cast("Q")
    W = 2
    for turn in (0, 1):
        for row in range(n):
            group = words[((turn * n + row) * W + 1) * 8:((turn * n + row) * W + 2) * 8]
            assert all(word >> (n - 64) == 0 for word in group)  # columns >= n
            if turn == 0:  # column 5 is the cat on its forbidden node
                group = words[(row * W) * 8:(row * W + 1) * 8]
                assert all(not (word >> 5) & 1 for word in group)


def _path(n):
    return [[v for v in (u - 1, u + 1) if 0 <= v < n] for u in range(n)]


def path_game(n):
    """A path with the hole at its end: the mouse's longest walk takes about 2n rounds."""
    flags = [0] * n
    flags[n - 1] = 3
    return _path(n), _path(n), flags


def rings_game(p, q):
    """Each player has one move a node: the mouse round a ring of ``p`` nodes (0..p-1), the cat
    round a ring of ``q`` through node 0 and nodes p.. (elsewhere one step along the mouse's
    ring); they meet after about p * q moves, so remoteness reaches about p * q."""
    n = p + q - 1
    onward = [[u + 1 if u + 1 < n else 0] for u in range(p, n)]
    mouse = [[(u + 1) % p] for u in range(p)] + onward
    cat = [[p]] + [[(u + 1) % p] for u in range(1, p)] + onward
    return mouse, cat, [0] * n


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game, layers", [
    (path_game(100), 1),           # remoteness up to 195
    (path_game(130), 1),           # 255: round 256 runs, decides nothing, needs no layer
    (rings_game(3, 44), 1),        # 255 on the small path (46 nodes)
    (rings_game(4, 33), 2),        # 256 on the small path
    (path_game(300), 2),           # 595
    (rings_game(31, 33), 2),       # 63 nodes (the small path), 1057
    (rings_game(257, 259), 3),     # 66823: past 65535
], ids=["1 layer", "255", "small 255", "small 256", "2 layers", "small path 2 layers",
        "3 layers"])
def test_long_games_get_more_layers(engine, game, layers, threads):
    if layers == 3 and not engine.__name__.endswith("bits_c"):
        pytest.skip("66,823 rounds of 515 nodes: the compiled engine's test")
    (outcome, rem), (_, got) = both_modes(engine, *game, threads=threads)
    largest = max(rem)
    assert layers == 1 + (largest > 255) + (largest > 65535)
    assert len(got) == layers
    assert got == from_remoteness(rem, len(game[2]))


def test_a_buffer_not_8_byte_aligned(engine):
    n = 90
    game = sparse_game(random.Random(5), n)
    (outcome, rem), _ = both_modes(engine, *game)
    raw = bytearray(layer_bytes(n) + 1)
    view = memoryview(raw)[1:]
    out = bytearray(2 * n * n)
    more: list = []
    engine.propagate(*engine_args(*game), out, planes=view, more_planes=more)
    assert [bytes(view)] + more == from_remoteness(rem, n)


@pytest.mark.parametrize("case, error, message", [
    ("short", ValueError, "planes buffer has 255 bytes, expected 256"),
    ("no outcome", ValueError, "needs an outcome buffer"),
    ("with remoteness", ValueError, "not both"),
    ("more not a list", TypeError, "more_planes must be a list"),
    ("more without planes", TypeError, "more_planes is only for"),
    ("read-only", TypeError, "planes is read-only"),
])
def test_bad_planes_arguments(engine, case, error, message):
    args = engine_args([[1], [0]], [[1], [0]], [0, 0])
    kwargs = {"planes": bytearray(256), "more_planes": []}
    outcome = bytearray(8)
    rem = None
    if case == "short":
        kwargs["planes"] = bytearray(255)
    elif case == "no outcome":
        outcome = None
    elif case == "with remoteness":
        rem = array("i", bytes(32))
    elif case == "more not a list":
        kwargs["more_planes"] = ()
    elif case == "more without planes":
        kwargs["planes"] = None
    elif case == "read-only":
        kwargs["planes"] = bytes(256)
    target = 0 if outcome is None else -1
    with pytest.raises(error, match=message):
        engine.propagate(*args, outcome, rem, target, **kwargs)


def test_the_empty_game(engine):
    more: list = []
    assert engine.propagate(*engine_args([], [], []), bytearray(), planes=bytearray(),
                            more_planes=more) == 0
    assert more == []


CTRL_C = textwrap.dedent("""
    import importlib, os, signal, sys, threading, time
    sys.path.insert(0, {helpers!r})
    from oracle import engine_args
    from catmouse.engine.planes import layer_bytes
    signal.signal(signal.SIGINT, signal.default_int_handler)
    engine = importlib.import_module({name!r})
    n = {n}
    rows = [[v for v in (u - 1, u + 1) if 0 <= v < n] for u in range(n)]
    flags = [0] * n
    flags[n - 1] = 3
    args = engine_args(rows, rows, flags)
    outcome, planes = bytearray(2 * n * n), bytearray(layer_bytes(n))
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    start = time.monotonic()
    try:
        engine.propagate(*args, outcome, planes=planes, more_planes=[], threads=2)
        print("finished", round(time.monotonic() - start, 1))
    except KeyboardInterrupt:
        print("stopped", round(time.monotonic() - start, 1))
""")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_planes_search(engine):
    # One search of a 3000-node path takes about 3 s compiled (2 threads, a quiet machine),
    # of an 800-node path about 1.5 s on the pure twin (400 nodes took 0.34 s, and a CI run
    # finished before the Ctrl-C came): Ctrl-C at 0.3 s stops it within the search, not
    # after it.
    helpers = os.path.join(os.path.dirname(os.path.dirname(__file__)), "helpers")
    n = 3000 if engine.__name__.endswith("bits_c") else 800
    script = CTRL_C.format(helpers=helpers, name=engine.__name__, n=n)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.stdout.startswith("stopped"), (done.stdout, done.stderr)
    assert float(done.stdout.split()[1]) < 2.0
