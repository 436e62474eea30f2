"""Out of memory anywhere in a call: a MemoryError or the right answer, never a crash.

CPython's test module ``_testcapi.set_nomemory(start, stop)`` makes allocations number
``start`` to ``stop - 1`` fail (Python's and the engine's PyMem_Raw ones alike).  A child
process fails each allocation of a call in turn, one per call, until the call has gone
through whole many times in a row: every allocation the call makes has failed once.  The
checks after each of the engine's allocations (the thread crews' buffers, a board's
tables, the k-cops rows) are reached only this way.  Skipped where ``_testcapi`` is not
built (Debian's system Python ships it apart).  It found a NULL read in the general crew's
cleanup when its second lock array could not be allocated.

CPython 3.12.1 and 3.13.0 themselves corrupt memory when making a function object fails (a
plain-Python loop with no catmouse in it segfaults under this injection), so the calls under
test make none: ``analyze`` fills its tables through a partial, not a closure, and the test
reads the outcome bytes rather than iterating the Outcome enum (a generator function).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("_testcapi", reason="CPython's _testcapi is not built here")
pytest.importorskip("catmouse.engine.bits_c")

import catmouse  # noqa: E402

# The calls go through the package's API: on the pure engine they would fail thousands of
# Python allocations each (one arm64 run gave up after 20,000), which tests CPython, not us.
pytestmark = pytest.mark.skipif(catmouse.engine.current.name != "cython",
                                reason="the API runs on the pure-Python engine")

CHILD = r"""
import random, sys
import _testcapi
import networkx as nx
import catmouse
from catmouse import Graph
from catmouse.engine import bits_c

if not hasattr(_testcapi, "set_nomemory"):
    print("no set_nomemory")
    sys.exit(0)

rng = random.Random(3)


def board(n, p=0.3):
    graph = nx.gnp_random_graph(n, p, seed=rng.randrange(10**6))
    return [sorted(graph[u]) for u in range(n)]


lists = [board(rng.randrange(3, 20)) for _ in range(12)]
graphs = [Graph(board(n)) for n in (5, 30, 64, 65, 90)]
big = board(70, 0.05)  # past 64 nodes: the general rounds
cops = [[(u + d) % 70 for d in (1, 69)] for u in range(70)]  # a 70-cycle: two words a row
indptr = [0]
for row in cops:
    indptr.append(indptr[-1] + len(row))
indices = [v for row in cops for v in row]
petersen = bits_c.csr_from_lists([[1, 4, 5], [0, 2, 6], [1, 3, 7], [2, 4, 8], [3, 0, 9],
                                  [0, 7, 8], [1, 8, 9], [2, 9, 5], [3, 5, 6], [4, 6, 7]],
                                 False)[:3]
from catmouse.engine.planes import layer_bytes
from catmouse.rules import classic_rules

path = Graph([[v for v in (u - 1, u + 1) if 0 <= v < 300] for u in range(300)])
path_args = (300, classic_rules(path, 299).flags) + (
    path._indptr, path._indices, path._rindptr, path._rindices) * 2


failures = []


def planes_mode():
    # 595 rounds: a second layer of planes, allocated at round 256.
    out, layer, more = bytearray(180000), bytearray(layer_bytes(300)), []
    try:
        bits_c.propagate(*path_args, out, threads=2, planes=layer, more_planes=more)
    except MemoryError as error:
        failures.append(str(error))
        raise
    return bytes(out) + bytes(layer) + b"".join(more)


calls = {
    "propagate(planes)": planes_mode,
    "solve_many(lists)": lambda: bytes(catmouse.solve_many(lists, threads=2)),
    "solve_many(Graphs)": lambda: bytes(catmouse.solve_many(graphs, threads=2)),
    # Two threads: the general crew's helpers start as C threads, so a failed allocation
    # while one starts is a failed start (threading.Thread.start() used to hang there).
    # The outcome table's bytes, not counts(): that iterates the Outcome enum, whose __iter__
    # makes a generator function, and CPython 3.12.1 and 3.13.0 crash when that fails.
    "analyze": lambda: bytes(catmouse.analyze(big, threads=2).outcomes),
    "cops_search": lambda: bits_c.cops_search(70, indptr, indices, 2, stop=False),
    "cop_number": lambda: bits_c.cop_number(*petersen, 4),
}
for name, call in calls.items():
    expected = call()
    failed, quiet, start = 0, 0, 0
    while quiet < 40 and start < 20000:
        _testcapi.set_nomemory(start, start + 1)
        try:
            got = call()
        except MemoryError:
            got = None
        except RuntimeError as error:  # threading's own words for a failed lock or thread
            if "can't allocate lock" not in str(error) and "new thread" not in str(error):
                raise
            got = None
        finally:
            _testcapi.remove_mem_hooks()
        if got is None:
            failed, quiet = failed + 1, 0
        else:
            assert got == expected, (name, start)
            quiet += 1
        start += 1
    assert quiet == 40, (name, "still failing after", start)
    if name == "propagate(planes)":  # the layer's own failure, named
        assert f"cannot allocate {layer_bytes(300)} bytes for remoteness layer 1" in str(
            failures), failures
    print(name, failed, start, flush=True)
"""


def test_every_allocation_of_a_call_can_fail_cleanly():
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-3000:])
    if done.stdout.startswith("no set_nomemory"):
        pytest.skip("_testcapi has no set_nomemory")
    lines = done.stdout.split("\n")
    counts = {line.rsplit(" ", 2)[0]: int(line.rsplit(" ", 2)[1]) for line in lines if line}
    assert len(counts) == 6, done.stdout
    assert all(failed > 0 for failed in counts.values()), counts  # each call was reached


FAILING_START = r"""
import threading
import networkx as nx
import catmouse

def start(self):
    raise MemoryError  # as an allocation failing inside the real start() can


threading.Thread.start = start
graph = nx.gnp_random_graph(200, 0.02, seed=5)  # 200 nodes: four row blocks, two threads
board = [sorted(graph[u]) for u in range(200)]
print(catmouse.analyze(board, threads=2).counts() == catmouse.analyze(board, threads=1).counts())
print(catmouse.cop_number(nx.dodecahedral_graph(), threads=2) == 3)
"""


def test_a_failing_python_thread_start_cannot_hang_a_threaded_solve():
    # Both crews used to start their helpers with threading.Thread.start(): a MemoryError
    # from it left the general crew's cleanup waiting for a helper that never ran (this
    # child hung), and failed the cop number.  Their helpers are C threads now.
    done = subprocess.run([sys.executable, "-c", FAILING_START], capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout.split()) == (0, ["True", "True"]), done.stderr[-2000:]
