"""The pure twin's memory: ``bits_py.peak_bytes`` against what a call allocates.

``peak_bytes`` is an upper bound on the bytes one ``propagate`` call allocates (the docstring
lists what it counts).  tracemalloc sees every Python allocation, so the traced peak of a call
must stay under the bound; and the bound must stay within ``LOOSENESS`` of that peak on the
games that come nearest its worst case (dense graphs, the search run to its last round),
or it would refuse games that fit.  Measured on CPython 3.11 with the games below: the bound
is 1.9 (n = 100, remoteness) to 5.6 (n = 8, a target) times the traced peak.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tracemalloc
from array import array

import pytest
from oracle import classic_flags, csr

from catmouse.engine import bits_py, checks
from catmouse.engine.facts import MAX_NODES
from catmouse.engine.py_game import _Game

# The bound is at most this many times the traced peak (5.6 measured).  It counts objects at
# their 64-bit sizes, which a 32-bit Python about halves (10.6 measured on i386): still a
# bound, twice as loose.
LOOSENESS = 8 if sys.maxsize > 2**32 else 16
MODES = ["target", "outcome", "remoteness", "planes"]


def classic_args(adjacency, hole=0):
    n = len(adjacency)
    return (n, bytes(classic_flags(n, hole)), *csr(adjacency) * 2)


def sparse_arrays(n, seed=5):
    rng = random.Random(seed)
    rows = [set() for _ in range(n)]
    while sum(map(len, rows)) < 4 * n:
        u, v = rng.sample(range(n), 2)
        rows[u].add(v)
        rows[v].add(u)
    return classic_args([sorted(r) for r in rows])


def dense_arrays(n, seed=3):
    """A random graph with about half of all edges: rows of bit sets as full as they get."""
    rng = random.Random(seed)
    rows = [set() for _ in range(n)]
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < 0.5:
                rows[u].add(v)
                rows[v].add(u)
    for u in range(n):
        if not rows[u]:
            rows[u].add((u + 1) % n)
            rows[(u + 1) % n].add(u)
    return classic_args([sorted(r) for r in rows])


def last_target(args):
    """A draw if there is one (the search runs every round before it stops), else the
    position decided last; never the cat on the hole (node 0), which is no position."""
    n = args[0]
    outcome, remoteness = bytearray(2 * n * n), array("i", bytes(8 * n * n))
    bits_py.propagate(*args, outcome, remoteness)
    positions = [p for p in range(2 * n * n) if p % n]
    draws = [p for p in positions if remoteness[p] < 0]
    return draws[0] if draws else max(positions, key=remoteness.__getitem__)


def planes_keywords(n, mode):
    """propagate's planes keywords for ``mode`` (the caller's layer 0, made here)."""
    if mode != "planes":
        return {}
    return {"planes": bytearray(2 * n * ((n + 63) // 64) * 64), "more_planes": []}


def traced_peak_and_bound(args, mode):
    n = args[0]
    outcome = bytearray(2 * n * n) if mode != "target" else None
    remoteness = array("i", bytes(8 * n * n)) if mode == "remoteness" else None
    target = last_target(args) if mode == "target" else -1
    keywords = planes_keywords(n, mode)
    bits_py.propagate(*args, outcome, remoteness, target, **keywords)  # caches filled
    bound = bits_py.peak_bytes(n, mode != "target", mode == "remoteness", mode == "target",
                               planes=mode == "planes")
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        bits_py.propagate(*args, outcome, remoteness, target, **keywords)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return peak, bound


# n on both sides of 64 (the two searches) and at the row widths of the small one (8 to 64).
@pytest.mark.parametrize("n", [8, 9, 16, 17, 32, 33, 64, 65, 100])
@pytest.mark.parametrize("mode", MODES)
def test_peak_bytes_bounds_the_traced_peak_of_dense_games(n, mode):
    peak, bound = traced_peak_and_bound(dense_arrays(n), mode)
    assert 0 < peak <= bound <= LOOSENESS * peak, (n, mode, peak, bound, bound / peak)


@pytest.mark.parametrize("n", [10, 50, 64, 65, 100])
@pytest.mark.parametrize("mode", MODES)
def test_peak_bytes_bounds_the_traced_peak(n, mode):
    """Every Python allocation of a call on a sparse game, traced, stays under peak_bytes."""
    peak, bound = traced_peak_and_bound(sparse_arrays(n), mode)
    assert 0 < peak <= bound, (n, mode, peak, bound)


def test_peak_bytes_takes_every_node_count_the_engine_takes():
    for mode in MODES:
        options = (mode != "target", mode == "remoteness", mode == "target", 1,
                   mode == "planes")
        assert 0 < bits_py.peak_bytes(0, *options) < bits_py.peak_bytes(1, *options)
        assert bits_py.peak_bytes(MAX_NODES, *options) > bits_py.peak_bytes(MAX_NODES - 1,
                                                                             *options)
        for bad in (-1, MAX_NODES + 1):
            with pytest.raises(ValueError, match="out of range"):
                bits_py.peak_bytes(bad, *options)


def test_equal_move_arrays_share_one_set_of_neighbour_lists():
    """The bound counts one memoryview per node and per *distinct* CSR array: an undirected
    game on one graph builds its neighbour lists once, also from equal copies."""
    path = [[1], [0, 2], [1]]
    n, flags, *arrays = classic_args(path)
    copies = csr(path)
    for csr_arrays in (arrays, [*arrays[:4], *copies]):
        game = _Game(*checks.check_game(n, flags, tuple(csr_arrays)))
        assert game.mouse_moves is game.mouse_from is game.cat_moves_all is game.cat_from_all
    directed = _Game(*checks.check_game(2, bytes(2), (*csr([[1], []]), *csr([[], [0]])) * 2))
    assert directed.mouse_moves is not directed.mouse_from


PEAK_CHILD = r"""
import random, sys
from array import array
sys.path[:0] = [sys.argv[3], sys.argv[3] + "/../helpers"]
from test_twin_memory import sparse_arrays
from catmouse.engine import bits_py, checks, facts, py_boards, py_lists, py_rounds, py_small
from catmouse.engine.facts import LISTS_MAX_NODES

n, mode = int(sys.argv[1]), sys.argv[2]
args = sparse_arrays(n)
outcome = bytearray(2 * n * n) if mode != "target" else None
remoteness = array("i", bytes(8 * n * n)) if mode == "remoteness" else None
if remoteness is not None:
    remoteness[:] = array("i", [7]) * (2 * n * n)  # touch every page now
if outcome is not None:
    outcome[:] = bytes([9]) * (2 * n * n)
target = -1 if mode != "target" else 2 * n * n - 1
keywords = {}
if mode == "planes":
    keywords = {"planes": bytearray(bytes([1]) * (2 * n * ((n + 63) // 64) * 64)),
                "more_planes": []}

def kib(key):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(key):
                return int(line.split()[1]) * 1024

try:
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # reset the peak (VmHWM) to the current RSS
except OSError:
    print("skip cannot reset the peak RSS mark here")
    sys.exit()
base = kib("VmRSS:")
bits_py.propagate(*args, outcome, remoteness, target, **keywords)
bound = bits_py.peak_bytes(n, mode != "target", mode == "remoteness", mode == "target",
                           planes=mode == "planes")
print(kib("VmHWM:") - base, bound)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="needs Linux /proc")
@pytest.mark.skipif(bool(os.environ.get("CATMOUSE_TEST_EMULATED")),
                    reason="under qemu-user the resident peak counts the emulator's own memory "
                           "(2.3 MB against a bound of 1.1 MB at n = 300 on arm64)")
@pytest.mark.parametrize("n", [300, 600])
@pytest.mark.parametrize("mode", ["target", "remoteness", "planes"])
def test_peak_bytes_bounds_the_resident_peak(n, mode):
    """The process's resident peak during a call, as test_memory.py measures it."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(bits_py.__file__))))]
        + os.environ.get("PYTHONPATH", "").split(os.pathsep)))
    out = subprocess.run([sys.executable, "-c", PEAK_CHILD, str(n), mode,
                          os.path.dirname(__file__)], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    if out[0] == "skip":
        pytest.skip(" ".join(out[1:]))
    peak, bound = int(out[0]), int(out[1])
    assert peak <= bound, (n, mode, peak, bound)
