"""Platform limits: byte and position counts that outgrow a 32-bit size_t or Py_ssize_t.

On 32-bit x86 (``sys.maxsize == 2**31 - 1``) the memory needed by a large board exceeds what
a size_t holds, so a count computed in C could wrap to a small number and the guard would
wave through a table that cannot exist.  These tests ask for such counts through the public
API and check that they are refused with MemoryError naming the true, unwrapped figure.
Some only mean something on a 32-bit interpreter and are skipped elsewhere; ``nox -s i386``
(ci/debian_arch.sh) runs them in a Debian i386 root.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from array import array

import pytest
from engines import NO_COMPILED_FLAG
from oracle import csr

import catmouse
from catmouse import Graph
from catmouse import engine as selector
from catmouse import rules as _rules
from catmouse.engine.facts import MAX_NODES

IS_32BIT = sys.maxsize < 2**32
only_32bit = pytest.mark.skipif(not IS_32BIT, reason="needs a 32-bit interpreter")


def empty_graph(n):
    """n nodes and no edges, built in O(n): cheap however many positions it has."""
    return Graph.from_csr(array("i", bytes(4 * (n + 1))), array("i"))


def needed_bytes(error):
    match = re.search(r"needs (?:up to )?(\d+) bytes", str(error))
    assert match, str(error)
    return int(match.group(1))


@pytest.mark.parametrize("call", [catmouse.solve, catmouse.analyze])
def test_a_need_over_4_gib_is_named_unwrapped(call, use_engine):
    """MAX_NODES nodes, 8.6e9 positions: the figure refused must scale with the positions
    from a small board's.  A count wrapped to 32 bits would come out far below and, under
    max_memory=2**32 - 1, might not be refused at all."""
    small, large = 300, MAX_NODES
    with pytest.raises(MemoryError) as error:
        call(empty_graph(small), max_memory=1)
    per_position = needed_bytes(error.value) / (2 * small * small)
    with pytest.raises(MemoryError) as error:
        call(empty_graph(large), max_memory=2**32 - 1)
    need = needed_bytes(error.value)
    assert f"max_memory={2**32 - 1}" in str(error.value)
    positions = 2 * large * large
    analyze = call is catmouse.analyze
    # The engine's figure, computed here in Python's unbounded ints.
    threads = _rules.check_threads(None, large)  # the default the call used
    assert need == _rules.need_bytes(large, outcome=analyze, remoteness=analyze,
                                     target=not analyze, threads=threads)
    # A wrapped count would fall far below the small board's bytes per position (which
    # carries fixed costs a big board spreads thin, hence the margin).
    assert need >= positions * per_position / 10
    assert need > 2**32 or not analyze


@pytest.mark.parametrize("max_memory", [2**31, 2**32 + 1, sys.maxsize + 1, 2**64])
def test_max_memory_may_exceed_the_address_space(max_memory, use_engine):
    """A limit bigger than a Py_ssize_t (or a size_t) is a fine limit, not an OverflowError."""
    graph = [[1, 3], [0], [3], [0, 2]]
    assert catmouse.solve(graph, max_memory=max_memory) == catmouse.Outcome.MOUSE_WIN
    assert catmouse.analyze(graph, max_memory=max_memory).verify()


@only_32bit
def test_tables_over_sys_maxsize_are_refused_whatever_memory_is_free(monkeypatch, use_engine):
    """On 32-bit the address space is the limit, not the machine's free memory: with 1 TiB
    said to be available, the largest board is still refused before any allocation."""
    monkeypatch.setattr(_rules, "available_memory", lambda: 2**40)
    n = _rules.MAX_NODES
    # Bytes per position at least: solve's eight bit tables (half a byte), analyze's outcome
    # and remoteness tables (five).
    for call, outputs in ((catmouse.solve, 0.5), (catmouse.analyze, 5)):
        with pytest.raises(MemoryError) as error:
            call(empty_graph(n))
        need = needed_bytes(error.value)
        assert need >= 2 * n * n * outputs
        assert need > sys.maxsize


# The compiled engine called directly, past the API's guard: a board whose tables the engine
# sizes in one allocation.  The bit engine's block is about n*n bytes (eight n-by-n bit
# tables), past 2**32 only near MAX_NODES, which a 32-bit size_t would wrap to a small block:
# the solve must be a MemoryError, not writes past it.  (The queue engine's block passed 2**32
# at n = 26756; the bit engine solves that board in about 0.7 GB, as i386 showed.)
ENGINE_PAST_THE_GUARD = r"""
import sys
from catmouse.engine import bits_c
sys.path.insert(0, sys.argv[1] + "/../helpers")
from oracle import csr

n = int(sys.argv[2])
star = [[] for _ in range(n)]
for leaf in range(1, 301):
    star[0].append(leaf)
    star[leaf].append(0)
flags = bytearray(n)
flags[n - 1] = 3  # the hole, far from the star
board = bits_c.Board(n, bytes(flags), *csr(star), *csr(star))
try:
    code = board.solve(1, 2, 0)
except MemoryError as error:
    print("MemoryError", error)
else:
    print("solved", code)
"""


@only_32bit
@pytest.mark.skipif(selector.env_flag(NO_COMPILED_FLAG), reason=f"{NO_COMPILED_FLAG} is set")
@pytest.mark.parametrize("n", [_rules.MAX_NODES])
def test_engine_refuses_tables_a_32bit_size_t_cannot_count(n):
    # A child process: a wrapped allocation crashes it rather than the test run.
    tests = os.path.dirname(os.path.abspath(__file__))
    try:
        child = subprocess.run(
            [sys.executable, "-c", ENGINE_PAST_THE_GUARD, tests, str(n)],
            capture_output=True, text=True, timeout=300,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"n={n}: the engine took the table on and ran for 5 minutes")
    assert child.returncode == 0, (
        f"n={n}: the engine crashed (exit status {child.returncode}): {child.stderr[-500:]}"
    )
    assert child.stdout.startswith("MemoryError"), child.stdout + child.stderr


def long_csr(adjacency):
    """The graph's CSR arrays as array('l'): 4-byte items on 32-bit and Windows, 8 elsewhere."""
    return [array("l", part) for part in csr(adjacency)]


def test_csr_of_native_long_gives_the_same_graph():
    """array('l') is 4 bytes on i386, so it takes Graph's zero-copy int32 path there."""
    lists = [[1, 2], [0, 2], [0, 1, 3], [2]]
    indptr, indices, _, _ = long_csr(lists)
    graph = Graph.from_csr(indptr, indices)
    assert graph == Graph(lists)
    assert catmouse.analyze(graph).outcomes.tobytes() == catmouse.analyze(lists).outcomes.tobytes()


@pytest.mark.skipif(array("l").itemsize != 4, reason="C long is 8 bytes here")
def test_engine_takes_4_byte_long_buffers(engine):
    """Where C long is 4 bytes, an int32 buffer may say format 'l' (numpy's int32 does on
    i386); both engines read it as int32."""
    lists = [[1, 2], [0, 2], [0, 1, 3], [2]]
    n = len(lists)
    flags = bytes([1, 0, 0, 0])
    expected_outcome, expected_rem = bytearray(2 * n * n), array("i", bytes(8 * n * n))
    engine.propagate(n, flags, *csr(lists), *csr(lists), expected_outcome, expected_rem)
    outcome, rem = bytearray(2 * n * n), array("l", bytes(8 * n * n))
    engine.propagate(n, flags, *long_csr(lists), *long_csr(lists), outcome, rem)
    assert outcome == expected_outcome
    assert list(rem) == list(expected_rem)


def test_max_memory_counts_each_engines_own_bytes_and_both_answer_alike(use_engine):
    """docs/platforms.rst: the twin counts its Python objects, so it refuses a budget the
    compiled engine's small path (no heap) answers in; given what it names, it answers the
    same."""
    graph = Graph([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    expected = catmouse.solve(graph)
    if use_engine.__name__.endswith("bits_c"):
        assert catmouse.solve(graph, max_memory=1) == expected
        return
    with pytest.raises(MemoryError, match="over max_memory=1$") as error:
        catmouse.solve(graph, max_memory=1)
    assert needed_bytes(error.value) > 1000
    assert catmouse.solve(graph, max_memory=needed_bytes(error.value)) == expected
