"""Memory: a table that cannot fit is refused with MemoryError before any allocation."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from array import array

import pytest

import catmouse
from catmouse import Graph
from catmouse import engine as selector
from catmouse import rules as _rules
from catmouse.engine import env_flag
from catmouse.engine.cpus import crew_cpus
from catmouse.engine.facts import MAX_NODES
from catmouse.engine.planes import layer_bytes
from catmouse.rules import check_memory


def empty_graph(n):
    """n nodes and no edges, built in O(n): cheap however many positions it has."""
    return Graph.from_csr(array("i", bytes(4 * (n + 1))), array("i"))


def rss():
    page = 4096
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * page


def needed_bytes(error):
    """The byte count a MemoryError names."""
    match = re.search(r"needs (?:up to )?(\d+) bytes", str(error))
    assert match, str(error)
    return int(match.group(1))


@pytest.mark.parametrize("call", [catmouse.solve, catmouse.analyze])
def test_max_memory_names_the_bytes_needed(call):
    graph = empty_graph(300)
    with pytest.raises(MemoryError) as error:
        call(graph, max_memory=1000)
    need = needed_bytes(error.value)
    assert "max_memory=1000" in str(error.value)
    # The engine's own peak plus the output tables: for analyze an outcome byte and a layer
    # of remoteness planes (a little over a byte) a position.
    analyze = call is catmouse.analyze
    assert need == _rules.need_bytes(300, outcome=analyze, remoteness=analyze, target=not analyze)
    assert need > 0 and (not analyze or need >= 2 * 300 * 300 + layer_bytes(300))
    # The figure is the real threshold: that many bytes is enough, one fewer is not.
    call(graph, max_memory=need)
    with pytest.raises(MemoryError):
        call(graph, max_memory=need - 1)


def test_too_big_for_available_memory(monkeypatch):
    """n = 50000 (5e9 positions) from a cheap CSR, with 1 GB said to be available."""
    monkeypatch.setattr(_rules, "available_memory", lambda: 10**9)
    graph = empty_graph(50000)
    before = rss()
    for call in (catmouse.solve, catmouse.analyze):
        with pytest.raises(MemoryError) as error:
            call(graph)
        assert needed_bytes(error.value) > 10**9
        assert f"only {10**9} are available" in str(error.value)
    # Refused before allocating: the process did not take a table's worth of memory.
    assert rss() - before < 100 * 2**20


def test_the_largest_board_fits_24_gb_and_is_refused_where_it_does_not(monkeypatch):
    """2 * MAX_NODES**2 positions at a byte of outcome and a layer of planes (and the
    engine's own) a position: under 24 GB, as 60,000 nodes are (5.6 bytes a position, with
    an int32 remoteness table, refused them).  With 16 GB available, it is refused before
    anything is allocated.  (The pure twin's rows of Python ints take more than the compiled
    engine's bit tables: the fit is the compiled engine's; the refusal is both's.)"""
    monkeypatch.setattr(_rules, "free_cpus", lambda usable: usable)  # (one count of threads)
    n = MAX_NODES
    need = _rules.need_bytes(n, outcome=True, remoteness=True, target=False,
                             threads=_rules.check_threads(None, n))
    assert 2 * n * n * 2 <= need
    if catmouse.BACKEND == "cython":
        assert _rules.need_bytes(60_000, outcome=True, remoteness=True,
                                 target=False) < 24 * 10**9
        assert need < 24 * 10**9
    monkeypatch.setattr(_rules, "available_memory", lambda: 16 * 2**30)
    before = rss()
    with pytest.raises(MemoryError) as error:
        catmouse.analyze(empty_graph(n))
    assert needed_bytes(error.value) == need
    assert "available" in str(error.value)
    assert rss() - before < 100 * 2**20


@pytest.mark.parametrize("n", [MAX_NODES + 1, 100000])
def test_more_nodes_than_the_engine_indexes(n):
    with pytest.raises(ValueError, match=f"a graph of {n} nodes is too large"):
        empty_graph(n)  # refused as a graph already
    for target in (True, False):
        with pytest.raises(MemoryError, match=f"a graph of {n} nodes"):
            check_memory(n, outcome=not target, target=target)


PEAK_CHILD = r"""
import ctypes, random, sys
import catmouse
from catmouse import rules as _rules

# The budget and the call must count the same threads: none taken by other running threads.
_rules.free_cpus = lambda usable: usable
n, call = int(sys.argv[1]), sys.argv[2]
rng = random.Random(7)
edges = set()
while len(edges) < 2 * n:
    u, v = rng.sample(range(n), 2)
    edges.add((min(u, v), max(u, v)))
graph = catmouse.Graph.from_edges(n, sorted(edges))

def kib(key):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(key):
                return int(line.split()[1]) * 1024

trim = getattr(ctypes.CDLL(None), "malloc_trim", None)  # glibc only
if trim is not None:
    trim(0)
try:
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # reset the peak (VmHWM) to the current RSS
except OSError:
    print("skip cannot reset the peak RSS mark here")
    sys.exit()
base = kib("VmRSS:")
if call == "solve":
    catmouse.solve(graph, mouse=n - 1, cat=n - 2)
    budget = _rules.need_bytes(n, outcome=False, remoteness=False, target=True,
                               threads=_rules.check_threads(None, n))
else:
    catmouse.analyze(graph)
    budget = _rules.need_bytes(n, outcome=True, remoteness=True, target=False,
                               threads=_rules.check_threads(None, n))
print(catmouse.BACKEND, kib("VmHWM:") - base, budget)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="needs Linux /proc")
@pytest.mark.skipif(bool(os.environ.get("CATMOUSE_TEST_EMULATED")),
                    reason="under qemu-user the resident peak counts the emulator's own memory "
                           "for each thread (3 MB past the budget with a helper thread on arm64)")
@pytest.mark.parametrize("call", ["solve", "analyze"])
@pytest.mark.parametrize("backend", ["cython", "python"])
def test_memory_budget_bounds_the_real_peak(backend, call):
    """The bytes check_memory budgets per position cover what the engine really uses."""
    env = dict(os.environ, CATMOUSE_NO_EXTENSIONS="1" if backend == "python" else "0")
    if backend == "python":
        env["CATMOUSE_REQUIRE_EXTENSIONS"] = "0"  # the suite may run with it set
    if backend == "cython" and env_flag("CATMOUSE_TEST_NO_COMPILED"):
        pytest.skip("CATMOUSE_TEST_NO_COMPILED is set")
    out = subprocess.run([sys.executable, "-c", PEAK_CHILD, "2000", call], env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    if out[0] == "skip":
        pytest.skip(" ".join(out[1:]))
    assert out[0] == backend
    peak, budget = int(out[1]), int(out[2])
    # 128 KiB for what the interpreter itself touches during the call (pages of its
    # heap, a thread's stack), small beside the tables of 2000 nodes (8e6 positions).
    assert peak <= budget + (128 << 10), \
        f"{backend} {call}: peak {peak} bytes over the budget {budget}"


def test_available_memory_reads_mem_available(monkeypatch):
    """The figure is MemAvailable (what the kernel can still give), not MemTotal or MemFree."""
    meminfo = "MemTotal:  8000 kB\nMemFree:  1000 kB\nMemAvailable:  3000 kB\nBuffers:  5 kB\n"
    monkeypatch.setattr(_rules, "open", lambda *args, **kw: io.StringIO(meminfo), raising=False)
    assert _rules.available_memory() == 3000 * 1024


@pytest.mark.parametrize("n", [1, 7, 300])
def test_need_bytes_adds_the_output_tables_to_the_engines_peak(n):
    """The caller's tables: 1 byte of outcome per position and one layer of remoteness
    planes (layer_bytes(n)); solve's target mode has none.  The engine's own part is its
    peak in planes mode."""
    positions = 2 * n * n
    for outcome, remoteness, target, own in [
            (True, True, False, positions + layer_bytes(n)), (True, False, False, positions),
            (False, False, True, 0)]:
        need = _rules.need_bytes(n, outcome=outcome, remoteness=remoteness, target=target)
        assert need - _rules._engine_peak(n, outcome, remoteness, target, 1) == own


def test_check_memory_returns_the_bytes_it_checked():
    need = _rules.need_bytes(7, outcome=True, remoteness=True, target=False)
    assert _rules.check_memory(7, outcome=True, remoteness=True) == need
    assert _rules.check_memory(7, outcome=True, remoteness=True, max_memory=need) == need


def test_a_need_past_the_address_space_is_refused(monkeypatch):
    """On a 32-bit build sys.maxsize is within reach: past it, MemoryError; at it, fine."""
    need = _rules.need_bytes(300, outcome=True, remoteness=True, target=False)
    monkeypatch.setattr(_rules.sys, "maxsize", need)
    assert _rules.check_memory(300, outcome=True, remoteness=True) == need
    monkeypatch.setattr(_rules.sys, "maxsize", need - 1)
    with pytest.raises(MemoryError, match=f"needs {need} bytes"):
        _rules.check_memory(300, outcome=True, remoteness=True)


def test_default_thread_counts(monkeypatch):
    """None: one thread below THREADS_FROM_NODES nodes, every usable CPU from there on (on a
    machine where no other thread is running: free_cpus)."""
    from catmouse.engine.facts import THREADS_FROM_NODES

    monkeypatch.setattr(_rules, "free_cpus", lambda usable: usable)
    assert _rules.check_threads(None, 5) == 1
    assert _rules.check_threads(None, THREADS_FROM_NODES - 1) == 1
    assert _rules.check_threads(None, THREADS_FROM_NODES) == crew_cpus()
    assert _rules.check_threads(3, 5) == 3
    assert _rules.check_threads(1, 5000) == 1
    for bad, error in [(0, ValueError), (-2, ValueError), (True, TypeError), (2.0, TypeError)]:
        with pytest.raises(error, match="threads must be"):
            _rules.check_threads(bad, 5)


def test_each_call_asks_for_exactly_its_tables():
    """The MemoryError names need_bytes of what the call allocates: solve stops at a target,
    analyze writes outcome and remoteness tables, or outcomes only."""
    graph = empty_graph(300)
    calls = [
        (lambda: catmouse.solve(graph, max_memory=1000), dict(outcome=False, remoteness=False,
                                                               target=True)),
        (lambda: catmouse.analyze(graph, max_memory=1000), dict(outcome=True, remoteness=True,
                                                                 target=False)),
        (lambda: catmouse.analyze(graph, max_memory=1000, remoteness=False),
         dict(outcome=True, remoteness=False, target=False)),
    ]
    for call, kind in calls:
        with pytest.raises(MemoryError) as error:
            call()
        assert needed_bytes(error.value) == _rules.need_bytes(300, **kind), kind


def test_only_tables_past_small_tables_ask_the_system(monkeypatch):
    """Reading /proc/meminfo is skipped up to SMALL_TABLES (16 MiB) of need, done past it."""
    asked = []
    monkeypatch.setattr(_rules, "available_memory", lambda: asked.append(1) or 0)
    sizes = {n: _rules.need_bytes(n, outcome=True, remoteness=True, target=False)
             for n in range(2, 4000, 3)}
    below = max(n for n, need in sizes.items() if need <= 16 << 20)
    assert _rules.check_memory(below, outcome=True, remoteness=True) == sizes[below]
    assert asked == []
    with pytest.raises(MemoryError, match="only 0 are available"):
        _rules.check_memory(below + 3, outcome=True, remoteness=True)
    assert asked == [1]
    # The boundary: a need of exactly SMALL_TABLES does not ask, one byte more does.
    need = _rules.need_bytes(5, outcome=True, remoteness=True, target=False)
    monkeypatch.setattr(_rules, "SMALL_TABLES", need)
    assert _rules.check_memory(5, outcome=True, remoteness=True) == need
    assert asked == [1]
    monkeypatch.setattr(_rules, "SMALL_TABLES", need - 1)
    with pytest.raises(MemoryError):
        _rules.check_memory(5, outcome=True, remoteness=True)
    assert asked == [1, 1]


def test_exactly_the_available_memory_is_enough(monkeypatch):
    """A need equal to the bytes the system has left fits; one byte more does not."""
    n = 3000  # past SMALL_TABLES, so the system is asked
    need = _rules.need_bytes(n, outcome=True, remoteness=True, target=False)
    assert need > _rules.SMALL_TABLES
    monkeypatch.setattr(_rules, "available_memory", lambda: need)
    assert _rules.check_memory(n, outcome=True, remoteness=True) == need
    monkeypatch.setattr(_rules, "available_memory", lambda: need - 1)
    with pytest.raises(MemoryError, match=f"needs up to {need} bytes; only {need - 1} are"):
        _rules.check_memory(n, outcome=True, remoteness=True)


def test_documented_thread_facts(monkeypatch):
    """README: one thread below 1024 nodes, every core from there. _facts: 1 MiB budgeted per
    helper thread (its stack pages and interpreter state; 256 KiB measured)."""
    monkeypatch.setattr(_rules, "free_cpus", lambda usable: usable)
    assert _rules.check_threads(None, 1023) == 1
    assert _rules.check_threads(None, 1024) == crew_cpus()
    peak = selector.current.peak_bytes
    for threads in (2, 3):
        more = (_rules.need_bytes(300, outcome=True, remoteness=False, target=False,
                                  threads=threads)
                - _rules.need_bytes(300, outcome=True, remoteness=False, target=False))
        engine_more = peak(300, True, False, False, threads) - peak(300, True, False, False, 1)
        assert more - engine_more == (threads - 1) << 20


def boards_held(graph):
    """The engine Boards ``graph`` holds, each once: solve's, and its rules' (analyze's)."""
    held = [value for key, value in graph._cache.items() if key[0] == "board"]
    held += [value._board[1] for key, value in graph._cache.items()
             if key[0] == "classic" and value._board is not None]
    return list({id(board): board for board in held}.values())


def test_a_loop_over_holes_keeps_no_copy_of_the_graph_per_hole(use_engine):
    # A Graph keeps what it makes for a hole (its rules, a board): a board past one word is a
    # copy of the graph's arrays, and one per hole added up (a 1000-node graph of 25,000 edges
    # held 0.75 MB more after each hole's solve, and as much after each hole's analyze).
    import tracemalloc

    n = 80
    rows = [[(u + d) % n for d in (-9, -1, 1, 9)] for u in range(n)]
    graph = Graph(rows)
    answers = []

    def each_hole(holes):
        for hole in holes:
            answers.append(catmouse.solve(graph, (hole + 1) % n, (hole + 2) % n, hole=hole))
            catmouse.analyze(graph, hole=hole, remoteness=False)

    compiled = selector.current.name == "cython"  # (tracemalloc slows the twin 100 times)
    one_board = 8 * 4 * (n + 1 + 4 * n)  # the eight arrays a board copies
    if compiled:
        tracemalloc.start()
    try:
        each_hole(range(3))
        before = tracemalloc.get_traced_memory()[0]
        each_hole(range(3, 15))
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(boards_held(graph)) <= 1
    if compiled:
        assert grown < 4 * one_board, (grown, one_board)
    assert answers == [catmouse.solve(rows, (hole + 1) % n, (hole + 2) % n, hole=hole)
                       for hole in range(15)]
    # Where a board is one word, every hole keeps its own: it is small, and a hot loop's.
    small = Graph([[1, 3], [0, 2], [1, 3], [0, 2]])
    for hole in range(4):
        catmouse.solve(small, (hole + 1) % 4, (hole + 2) % 4, hole=hole)
        catmouse.analyze(small, hole=hole)
    assert len(boards_held(small)) == 8


def test_max_memory_counts_the_layers_a_long_game_makes(use_engine):
    # A game past 255 plies takes another byte a position of remoteness as round 256 starts:
    # max_memory counted only the first, and the search made the second past it.
    n = 200
    path = Graph([[v for v in (u - 1, u + 1) if 0 <= v < n] for u in range(n)])
    need = _rules.need_bytes(n, outcome=True, remoteness=True, target=False)
    size = layer_bytes(n)
    game = catmouse.Game(path, hole=n - 1)
    for analyze in (lambda limit: catmouse.analyze(path, hole=n - 1, max_memory=limit,
                                                   threads=1),
                    lambda limit: game.analyze(max_memory=limit, threads=1)):
        assert len(analyze(need + size)._layers) == 2
        with pytest.raises(MemoryError, match=f"^the search reached round 256: remoteness "
                                              f"layer 1 needs {size} bytes more, over "
                                              f"max_memory \\(it left {size - 1} bytes"):
            analyze(need + size - 1)
    assert len(catmouse.analyze(path, hole=n - 1)._layers) == 2  # no max_memory: no cap


def chase(a: int, b: int) -> catmouse.Game:
    """A long game on ``a`` nodes: the mouse must go round a directed cycle of them, the cat
    round one of the first ``b``; the cat wins where they meet, up to about 2ab plies on."""
    mouse = Graph([[(u + 1) % a] for u in range(a)], directed=True)
    cat = Graph([[(u + 1) % b] if u < b else [0] for u in range(a)], directed=True)
    return catmouse.Game(mouse, cat_graph=cat, holes=())


@pytest.mark.parametrize("a, layers", [(20, 1), (200, 2)])
def test_the_max_memory_error_of_a_later_layer_counts_every_layer_past_the_first(
        use_engine, a, layers):
    # The refusal of layer 2 (round 65,536) said "layer 2 needs S bytes more, over max_memory
    # (it left 2S - 1 bytes ...)": S fits in 2S - 1, the sum of layers 1 and 2 does not.
    # (At 20 nodes the small path's refusal, which no LeetCode game reaches: 686 plies.)
    game = chase(a, a - 1)
    need = _rules.need_bytes(a, outcome=True, remoteness=True, target=False)
    size = layer_bytes(a)
    left = layers * size - 1
    assert len(game.analyze(max_memory=need + left + 1, threads=1)._layers) == layers + 1
    round_ = 1 << (8 * layers)
    said = f"the search reached round {round_}: remoteness layer {layers} needs {size} bytes more"
    if layers > 1:
        said += f" ({layers * size} for the layers past the first)"
    said += f", over max_memory (it left {left} bytes for the layers past the first)"
    with pytest.raises(MemoryError) as refused:
        game.analyze(max_memory=need + left, threads=1)
    assert str(refused.value) == said
