"""Calls that are repeated millions of times must give back all the C memory they take.

Measured with glibc's ``mallinfo2`` (bytes in use from malloc, mmapped blocks included), which
sees what tracemalloc cannot: the engine's raw allocations and the thread locks of a threaded
solve.  Each call runs 50 times first (caches, interned objects, the first thread), then
``CALLS`` times between two readings; a leak of even one small block per call shows as tens of
bytes per call, while a clean call measures 0 to 2.  Skipped where glibc is not the C library.
"""

from __future__ import annotations

import ctypes
import gc
import random
import sys
from array import array

import pytest

import catmouse
from catmouse import Graph

CALLS = 2000
LIMIT = 8.0  # bytes per call; one leaked lock is 48


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = _MallInfo2
    except (OSError, AttributeError):  # not glibc, or glibc before 2.33
        return None
    return libc


LIBC = _libc()
pytestmark = pytest.mark.skipif(LIBC is None, reason="needs glibc's mallinfo2")


def in_use() -> int:
    gc.collect()
    info = LIBC.mallinfo2()
    return info.uordblks + info.hblkhd


def bytes_per_call(call) -> float:
    for _ in range(50):
        call()
    before = in_use()
    for _ in range(CALLS):
        call()
    return (in_use() - before) / CALLS


def board(n: int, seed: int = 1):
    """A connected random graph: (flags, indptr, indices, adjacency lists)."""
    rng = random.Random(seed)
    rows = [set() for _ in range(n)]
    for u in range(1, n):
        v = rng.randrange(u)
        rows[u].add(v)
        rows[v].add(u)
    for _ in range(n):
        u, v = rng.sample(range(n), 2)
        rows[u].add(v)
        rows[v].add(u)
    indptr, indices = array("i", [0]), array("i")
    for row in rows:
        indices.extend(sorted(row))
        indptr.append(len(indices))
    flags = bytearray(n)
    flags[0] = 3  # the hole, which the cat may not enter
    return bytes(flags), indptr, indices, [sorted(row) for row in rows]


# 40 nodes: the engine's small path on the stack; 130: the general path, and two threads
# really start (one per 64-row block at most).
@pytest.mark.parametrize("n", [40, 130])
@pytest.mark.parametrize("call", ["propagate target", "propagate target, 2 threads",
                                  "propagate tables, 2 threads", "Board", "Board.solve",
                                  "solve_boards", "solve_lists", "csr_from_lists",
                                  "solve_lists_many, 2 threads"])
def test_engine_entry_points_do_not_leak(compiled_engine, n, call):
    engine = compiled_engine
    flags, indptr, indices, rows = board(n)
    csr = (indptr, indices) * 4
    outcome, remoteness = bytearray(2 * n * n), array("i", bytes(8 * n * n))
    built = engine.Board(n, flags, *csr)
    calls = {
        "propagate target": lambda: engine.propagate(n, flags, *csr, None, None, n + 2),
        "propagate target, 2 threads": lambda: engine.propagate(
            n, flags, *csr, None, None, n + 2, threads=2),
        "propagate tables, 2 threads": lambda: engine.propagate(
            n, flags, *csr, outcome, remoteness, threads=2),
        "Board": lambda: engine.Board(n, flags, *csr),
        "Board.solve": lambda: built.solve(1, 2),
        "solve_boards": lambda: engine.solve_boards([built, built], 1, 2),
        "solve_lists": lambda: engine.solve_lists(rows, 1, 2, 0),
        "csr_from_lists": lambda: engine.csr_from_lists(rows, False),
        # 130 lists: three chunks of 64, one helper thread (a 130-node graph is declined).
        "solve_lists_many, 2 threads": lambda: engine.solve_lists_many([rows] * 130, 1, 2, 0, 2),
    }
    assert bytes_per_call(calls[call]) < LIMIT


@pytest.mark.parametrize("call", ["solve lists", "solve Graph", "analyze", "solve_many"])
def test_api_hot_paths_do_not_leak(use_engine, call):
    flags, indptr, indices, rows = board(30)
    graph = Graph(rows)
    calls = {
        "solve lists": lambda: catmouse.solve(rows),
        "solve Graph": lambda: catmouse.solve(graph),
        "analyze": lambda: catmouse.analyze(graph).outcome(1, 2),
        "solve_many": lambda: catmouse.solve_many([rows, graph]),
    }
    assert bytes_per_call(calls[call]) < LIMIT
