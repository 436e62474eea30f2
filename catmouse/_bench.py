"""Benchmark: catmouse against a tight C++ reference, its pure twin, and textbook Python.

Run ``python -m catmouse bench`` (or ``python -m catmouse._bench``); ``--quick``
takes under a minute, the full run under five.  Every ratio compares timings
taken in the same run, each the best of several repeats of the thread's CPU
time (wall time for the multi-threaded figures), because a shared machine is
noisy.  The C++ reference (``ci/bench/ref.cpp``, or the copy next to
this file) is compiled with ``g++ -O2`` at run time and timed inside C++, so
process start, ctypes and I/O are not counted; without g++ its columns are
left empty.

Families:

- ``small``: random LeetCode-size graphs (3 to 50 nodes, sparse to dense),
  ``catmouse.solve(adjacency_lists)`` per call, conversion and validation included.
- ``hot``: the same graphs prebuilt as ``Graph``: Python-side cost per call, and
  ``solve_many`` throughput on one thread and on every core.
- ``big``: a random sparse graph of 3000 nodes, a 60x60 grid, a dense 600-node
  graph: time and peak memory of ``solve``, of a full solve and of ``analyze``.
- ``scaling``: positions per second of a full solve on sparse graphs, n = 500..5000.

Peak memory is measured in a fresh subprocess per figure: the kernel's
high-water mark is reset (``/proc/self/clear_refs``) once the graph is built
(and freed heap returned with ``malloc_trim``), and the figure is the rise of
``VmHWM`` over ``VmRSS`` during the call, per position (2*n*n), so it counts
every byte the call touched, Python or C.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from array import array
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import catmouse
from catmouse import _api, _retro
from catmouse._graph import Graph
from catmouse._rules import classic_rules

__all__ = ["main"]

# -- graphs -------------------------------------------------------------------


def random_graph(rng: random.Random, n: int, p: float) -> list[list[int]]:
    """Undirected G(n, p) where every node has a neighbour other than the hole (node 0)."""
    rows: list[set[int]] = [set() for _ in range(n)]
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < p:
                rows[u].add(v)
                rows[v].add(u)
    for u in range(n):
        if not rows[u] - {0}:
            v = rng.choice([x for x in range(1, n) if x != u])
            rows[u].add(v)
            rows[v].add(u)
    return [sorted(r) for r in rows]


def sparse_graph(rng: random.Random, n: int, degree: float = 4.0) -> list[list[int]]:
    """A random graph with ``n * degree / 2`` edges (average degree ``degree``)."""
    rows: list[set[int]] = [set() for _ in range(n)]
    edges = 0
    while edges < n * degree / 2:
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v and v not in rows[u]:
            rows[u].add(v)
            rows[v].add(u)
            edges += 1
    return [sorted(r) for r in rows]


def grid_graph(side: int) -> list[list[int]]:
    rows = []
    for i in range(side):
        for j in range(side):
            row = []
            for a, b in ((i - 1, j), (i, j - 1), (i, j + 1), (i + 1, j)):
                if 0 <= a < side and 0 <= b < side:
                    row.append(a * side + b)
            rows.append(row)
    return rows


def small_family(count: int, seed: int = 913) -> list[list[list[int]]]:
    rng = random.Random(seed)
    return [random_graph(rng, rng.randint(3, 50), rng.uniform(0.05, 0.8)) for _ in range(count)]


def big_family() -> dict[str, Callable[[], list[list[int]]]]:
    return {
        "sparse n=3000 deg 4": lambda: sparse_graph(random.Random(3000), 3000),
        "grid 60x60": lambda: grid_graph(60),
        "dense n=600 p=0.5": lambda: random_graph(random.Random(600), 600, 0.5),
    }


# -- the textbook pure-Python baseline ----------------------------------------


def textbook_solve(graph: list[list[int]]) -> int:
    """LeetCode 913 the way most write-ups do it: nested lists, tuples in a deque.

    Written for this benchmark as the baseline the pure twin is compared with;
    it solves every position, then reads (mouse 1, cat 2, mouse to move).
    """
    n = len(graph)
    # result[mouse][cat][turn] and moves_left[mouse][cat][turn], turn 0 = mouse.
    result = [[[0, 0] for _ in range(n)] for _ in range(n)]
    moves_left = [
        [[len(graph[m]), len([x for x in graph[c] if x != 0])] for c in range(n)]
        for m in range(n)
    ]
    queue: deque[tuple[int, int, int]] = deque()
    for c in range(1, n):
        for turn in (0, 1):
            result[0][c][turn] = 1
            queue.append((0, c, turn))
            result[c][c][turn] = 2
            queue.append((c, c, turn))
    while queue:
        mouse, cat, turn = queue.popleft()
        value = result[mouse][cat][turn]
        before = []
        if turn == 0:
            for prev_cat in graph[cat]:
                if prev_cat != 0:
                    before.append((mouse, prev_cat, 1))
        else:
            for prev_mouse in graph[mouse]:
                before.append((prev_mouse, cat, 0))
        for pm, pc, pt in before:
            if result[pm][pc][pt] != 0:
                continue
            if value == pt + 1:
                result[pm][pc][pt] = value
                queue.append((pm, pc, pt))
            else:
                moves_left[pm][pc][pt] -= 1
                if moves_left[pm][pc][pt] == 0:
                    result[pm][pc][pt] = value
                    queue.append((pm, pc, pt))
    return result[1][2][0]


def load_seed_solution(path: str) -> Callable[[list[list[int]]], int]:
    """Exec the first Python block of a seed write-up (measured locally, never shipped)."""
    text = Path(path).read_text()
    match = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    if not match:
        raise SystemExit(f"no python block in {path}")
    from typing import List  # noqa: UP035 - the seed code's annotations name it

    namespace: dict[str, Any] = {"deque": deque, "List": List}  # noqa: UP006
    exec(match.group(1), namespace)  # noqa: S102 - a local file the user names
    solution = namespace["Solution"]()
    return solution.catMouseGame


# -- the C++ reference ----------------------------------------------------------


def find_ref_source() -> Path | None:
    """The C++ source: $CATMOUSE_BENCH_REF, else beside this file or in a checkout's ci/bench/."""
    here = Path(__file__).resolve().parent
    given = os.environ.get("CATMOUSE_BENCH_REF")
    if given:
        return Path(given) if Path(given).exists() else None
    for candidate in (here / "ref.cpp", here.parent / "ci" / "bench" / "ref.cpp"):
        if candidate.exists():
            return candidate
    return None


class Reference:
    """The C++ solver, compiled now and loaded with ctypes."""

    def __init__(self, lib: ctypes.CDLL):
        self.lib = lib
        lib.cm_time.restype = ctypes.c_double
        lib.cm_time.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 7 + [
            ctypes.c_int, ctypes.c_void_p]

    @classmethod
    def build(cls) -> Reference | None:
        source = find_ref_source()
        compiler = shutil.which("g++")
        if source is None or compiler is None:
            print("note: no g++ or no ref.cpp; the C++ columns stay empty", file=sys.stderr)
            return None
        out = Path(tempfile.mkdtemp(prefix="catmouse-bench-")) / "ref.so"
        try:
            subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(out), str(source)],
                           check=True, capture_output=True, text=True)
            return cls(ctypes.CDLL(str(out)))
        except (subprocess.CalledProcessError, OSError) as error:
            detail = getattr(error, "stderr", "") or error
            print(f"note: the C++ reference did not build: {detail}", file=sys.stderr)
            return None

    def time(self, graphs: list[list[list[int]]], targets: list[int],
             reps: int) -> tuple[float, list[int]]:
        """Best seconds for one pass over ``graphs``, and each graph's result."""
        ns, ip, ip_off, ix, ix_off = array("i"), array("i"), array("q"), array("i"), array("q")
        for g in graphs:
            ns.append(len(g))
            ip_off.append(len(ip))
            ix_off.append(len(ix))
            total = 0
            ip.append(0)
            for row in g:
                ix.extend(row)
                total += len(row)
                ip.append(total)
        ix.append(0)  # never empty
        tg = array("q", targets)
        results = array("i", [0]) * len(graphs)

        def address(a: array) -> int:
            return a.buffer_info()[0]

        best = self.lib.cm_time(len(graphs), address(ns), address(ip), address(ip_off),
                                address(ix), address(ix_off), 0, address(tg), reps,
                                address(results))
        return best, results.tolist()


# -- timing -------------------------------------------------------------------


def best_time(run: Callable[[], Any], reps: int, clock: Callable[[], float] = time.thread_time
              ) -> float:
    """Best time of ``reps`` runs, with the garbage collector off.

    The clock is the thread's CPU time by default, like the C++ side's, so time
    spent preempted by other processes is not counted; threaded runs pass a
    wall clock.
    """
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(reps):
            start = clock()
            run()
            best = min(best, clock() - start)
    finally:
        if enabled:
            gc.enable()
    return best


class use_twin:
    """Run the API on the pure-Python engine for the duration of a ``with``."""

    def __enter__(self) -> None:
        self.saved = _retro.engine
        _retro.engine = _retro.load("python")

    def __exit__(self, *exc: object) -> None:
        _retro.engine = self.saved


def raw_engine(graph: Graph, target: int) -> Callable[[], Any]:
    """A call of the engine alone on prebuilt arrays (its own argument parsing included)."""
    rules = classic_rules(graph, 0)
    args = (graph.n, rules.flags, graph.indptr, graph.indices, graph.rindptr, graph.rindices,
            graph.indptr, graph.indices, graph.rindptr, graph.rindices, None, None, target)
    propagate = _retro.engine.propagate
    return lambda: propagate(*args)


# -- peak memory, one subprocess per figure -------------------------------------


def _status(field: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise OSError(f"no {field} in /proc/self/status")


def child_memory(family: str, kind: str) -> None:
    """In a fresh process: build the graph, reset the peak, run once, print bytes."""
    adjacency = big_family()[family]()
    graph = Graph(adjacency)
    n = graph.n
    ref = Reference.build() if kind == "cpp" else None
    catmouse.analyze(Graph([[1], [0, 2], [1]]))  # warm every lazy import
    gc.collect()
    try:  # hand freed heap back to the OS, so reused pages do not hide a peak
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")
    before = _status("VmRSS")
    if kind == "solve":
        catmouse.solve(graph)
    elif kind == "analyze":
        catmouse.analyze(graph)
    elif kind == "cpp" and ref is not None:
        ref.time([adjacency], [-1], 1)
    print(_status("VmHWM") - before, 2 * n * n)


def measure_memory(family: str, kind: str) -> float | None:
    """Peak bytes per position of one call, measured in a subprocess."""
    if not os.path.exists("/proc/self/clear_refs"):
        return None
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(catmouse.__file__).resolve().parent.parent), env.get("PYTHONPATH", "")])
    try:
        out = subprocess.run(
            [sys.executable, "-m", "catmouse._bench", "--child-memory", family, kind],
            check=True, capture_output=True, text=True, env=env).stdout.split()
        return int(out[-2]) / int(out[-1])
    except (subprocess.CalledProcessError, ValueError, IndexError):
        return None


# -- the families ---------------------------------------------------------------


def fmt(value: float | None, spec: str = ".2f", unit: str = "") -> str:
    return "-" if value is None else f"{value:{spec}}{unit}"


class Table:
    def __init__(self, title: str, columns: list[str]):
        self.title, self.columns = title, columns
        self.rows: list[list[str]] = []

    def add(self, *cells: str) -> None:
        self.rows.append([str(c) for c in cells])

    def __str__(self) -> str:
        widths = [max(len(c), *(len(r[i]) for r in self.rows)) if self.rows else len(c)
                  for i, c in enumerate(self.columns)]
        line = "  ".join(c.rjust(w) if i else c.ljust(w)
                         for i, (c, w) in enumerate(zip(self.columns, widths)))
        out = [f"== {self.title}", line, "-" * len(line)]
        for r in self.rows:
            out.append("  ".join(c.rjust(w) if i else c.ljust(w)
                                 for i, (c, w) in enumerate(zip(r, widths))))
        return "\n".join(out)


def bench_small(args: argparse.Namespace, ref: Reference | None) -> Table:
    graphs = small_family(args.small)
    targets = [len(g) + 2 for g in graphs]  # mouse 1, cat 2, mouse to move
    positions = sum(2 * len(g) ** 2 for g in graphs)
    expect = [int(catmouse.solve(g)) for g in graphs]
    solve = catmouse.solve

    def api() -> None:
        for g in graphs:
            solve(g)

    t_api = best_time(api, args.reps) / len(graphs)
    t_graph = best_time(lambda: [Graph(g) for g in graphs], args.reps) / len(graphs)
    twin_reps = max(1, args.reps // 3)
    with use_twin():
        assert [int(catmouse.solve(g)) for g in graphs] == expect, "twin disagrees"
        t_twin = best_time(api, twin_reps) / len(graphs)
    assert [textbook_solve(g) for g in graphs] == expect, "textbook disagrees"
    t_book = best_time(lambda: [textbook_solve(g) for g in graphs], twin_reps) / len(graphs)
    t_cpp = None
    if ref is not None:
        seconds, got = ref.time(graphs, targets, max(args.reps, 20))
        assert got == expect, "C++ disagrees"
        t_cpp = seconds / len(graphs)
    table = Table(f"small: {len(graphs)} random graphs, 3..50 nodes, solve(lists)",
                  ["engine", "us/solve", "Mpos/s", "vs C++", "speedup vs twin",
                   "vs textbook"])
    rows = [("catmouse.solve(lists)", t_api), ("  of which Graph(lists)", t_graph),
            ("pure twin solve(lists)", t_twin), ("textbook Python (full)", t_book)]
    if args.seed_file:
        seed = load_seed_solution(args.seed_file)
        assert [seed(g) for g in graphs] == expect, "seed code disagrees"
        rows.append(("seed 004 Python (local)",
                     best_time(lambda: [seed(g) for g in graphs], twin_reps) / len(graphs)))
    if t_cpp is not None:
        rows.append(("C++ -O2 reference", t_cpp))
    for name, t in rows:
        table.add(name, fmt(t * 1e6), fmt(positions / len(graphs) / t / 1e6),
                  fmt(t / t_cpp if t_cpp else None, ".2f", "x"),
                  fmt(t_twin / t, ".1f", "x"), fmt(t_book / t, ".1f", "x"))
    return table


def bench_hot(args: argparse.Namespace, ref: Reference | None) -> Table:
    adjacency = small_family(args.small)
    graphs = [Graph(g) for g in adjacency]
    solve = catmouse.solve
    for g in graphs:  # warm per-graph caches, as a hot loop would
        solve(g)

    def api() -> None:
        for g in graphs:
            solve(g)

    t_api = best_time(api, args.reps) / len(graphs)
    engines = [raw_engine(g, g.n + 2) for g in graphs]
    t_raw = best_time(lambda: [e() for e in engines], args.reps) / len(graphs)
    t_one = best_time(lambda: catmouse.solve_many(graphs, threads=1), args.reps) / len(graphs)
    t_engine = min(t_raw, t_one)
    batch = graphs * args.batch
    wall = time.perf_counter
    t1 = best_time(lambda: catmouse.solve_many(batch, threads=1), args.reps, wall)
    tn = best_time(lambda: catmouse.solve_many(batch, threads=None), args.reps, wall)
    t_cpp = None
    if ref is not None:
        t_cpp = ref.time(adjacency, [len(g) + 2 for g in adjacency], max(args.reps, 20))[0]
        t_cpp /= len(graphs)
    # The Python-side cost, on a graph whose solve is almost free: solve(graph)
    # against the engine solving the same position inside one C loop.
    tiny = Graph([[1, 3], [0], [3], [0, 2]])
    calls = 2000 if args.quick else 20000
    solve(tiny)
    t_tiny = best_time(lambda: [solve(tiny) for _ in range(calls)], args.reps) / calls
    compiled = _retro.engine if _retro.engine.name == "cython" else None
    if compiled is not None:
        boards = [_api._board(tiny, 0)] * calls
        t_tiny_engine = best_time(lambda: compiled.solve_boards(boards, 1, 2), args.reps) / calls
    else:
        engine = raw_engine(tiny, tiny.n + 2)
        t_tiny_engine = best_time(lambda: [engine() for _ in range(calls)], args.reps) / calls
    table = Table(f"hot: the same {len(graphs)} graphs prebuilt as Graph",
                  ["measure", "value"])
    table.add("4-node graph: solve(graph) us/call", fmt(t_tiny * 1e6, ".3f"))
    table.add("4-node graph: engine alone us/solve (C loop, or raw propagate before)",
              fmt(t_tiny_engine * 1e6, ".3f"))
    table.add("4-node graph: Python-side cost us/call", fmt((t_tiny - t_tiny_engine) * 1e6, ".3f"))
    table.add("solve(graph) us/call", fmt(t_api * 1e6))
    table.add("engine alone us/call (best of raw propagate, solve_many 1 thread)",
              fmt(t_engine * 1e6))
    table.add("Python-side cost us/call (solve - engine)", fmt((t_api - t_engine) * 1e6))
    table.add("solve(graph) vs C++ per solve", fmt(t_api / t_cpp if t_cpp else None, ".2f", "x"))
    table.add(f"solve_many {len(batch)} graphs, threads=1: graphs/s", fmt(len(batch) / t1, ".0f"))
    table.add(f"solve_many threads=None ({os.cpu_count()} CPUs): graphs/s",
              fmt(len(batch) / tn, ".0f"))
    table.add("solve_many speedup threads=None / threads=1", fmt(t1 / tn, ".2f", "x"))
    return table


def full_solve(graph: Graph) -> Callable[[], Any]:
    """Decide every position (no early stop), outcome table only."""
    rules = classic_rules(graph, 0)
    outcome = bytearray(2 * graph.n ** 2)
    return lambda: rules.run(outcome)


def bench_big(args: argparse.Namespace, ref: Reference | None) -> Table:
    table = Table("big graphs (time: best of repeats; memory: peak bytes/position in a "
                  "fresh process)",
                  ["graph / call", "ms", "Mpos/s", "vs C++", "bytes/pos"])
    for name, make in big_family().items():
        if args.quick and name.startswith("dense"):
            continue
        adjacency = make()
        graph = Graph(adjacency)
        n = graph.n
        positions = 2 * n * n
        reps = args.big_reps
        # (label, seconds, C++ seconds to compare with, memory kind to measure)
        rows: list[tuple[str, float, float | None, str | None]] = []
        cpp_t: float | None = None
        cpp_full: float | None = None
        if ref is not None:
            cpp_t, got = ref.time([adjacency], [n + 2], reps)
            cpp_full, _ = ref.time([adjacency], [-1], reps)
            assert got == [int(catmouse.solve(graph))], "C++ disagrees"
        rows.append(("catmouse.solve(graph)",
                     best_time(lambda: catmouse.solve(graph), reps),
                     cpp_t, "solve"))
        rows.append(("full outcome table", best_time(full_solve(graph), reps), cpp_full, None))
        rows.append(("analyze (+ remoteness)",
                     best_time(lambda: catmouse.analyze(graph), reps), cpp_full, "analyze"))
        if cpp_t is not None and cpp_full is not None:  # both or neither
            rows.append(("C++ solve (early stop)", cpp_t, cpp_t, None))
            rows.append(("C++ full table", cpp_full, cpp_full, "cpp"))
        table.add(f"{name} ({positions / 1e6:.1f}M positions)", "", "", "", "")
        for label, t, versus, memory in rows:
            per_pos = measure_memory(name, memory) if memory and args.memory else None
            table.add("  " + label, fmt(t * 1e3, ".1f"), fmt(positions / t / 1e6, ".1f"),
                      fmt(t / versus if versus else None, ".2f", "x"), fmt(per_pos, ".2f"))
    return table


def bench_scaling(args: argparse.Namespace, ref: Reference | None) -> Table:
    sizes = [500, 1000, 2000] if args.quick else [500, 1000, 2000, 3500, 5000]
    table = Table("scaling: full solve of random sparse graphs (average degree 4)",
                  ["n", "positions", "ms", "Mpos/s", "C++ Mpos/s", "vs C++"])
    for n in sizes:
        adjacency = sparse_graph(random.Random(n), n)
        graph = Graph(adjacency)
        positions = 2 * n * n
        reps = 1 if n >= 3500 else args.big_reps
        t = best_time(full_solve(graph), reps)
        t_cpp = ref.time([adjacency], [-1], reps)[0] if ref is not None else None
        table.add(str(n), f"{positions / 1e6:.1f}M", fmt(t * 1e3, ".1f"),
                  fmt(positions / t / 1e6, ".1f"),
                  fmt(positions / t_cpp / 1e6 if t_cpp else None, ".1f"),
                  fmt(t / t_cpp if t_cpp else None, ".2f", "x"))
    return table


FAMILIES = {"small": bench_small, "hot": bench_hot, "big": bench_big, "scaling": bench_scaling}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its tables; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m catmouse bench",
        description="Time catmouse against a C++ reference, its pure-Python twin and "
                    "textbook Python.")
    parser.add_argument("--quick", action="store_true", help="a smaller run (under a minute)")
    parser.add_argument("--families", default=",".join(FAMILIES),
                        help=f"comma-separated subset of {','.join(FAMILIES)}")
    parser.add_argument("--small", type=int, default=None, help="how many small graphs")
    parser.add_argument("--reps", type=int, default=None, help="repeats (best is kept)")
    parser.add_argument("--no-memory", dest="memory", action="store_false",
                        help="skip the peak-memory subprocesses")
    parser.add_argument("--seed-file", default=None,
                        help="also time the Python code of a seed write-up (local only)")
    parser.add_argument("--child-memory", nargs=2, metavar=("GRAPH", "CALL"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_memory:
        child_memory(*args.child_memory)
        return 0
    if args.small is None:
        args.small = 100 if args.quick else 300
    if args.reps is None:
        args.reps = 3 if args.quick else 7
    args.big_reps = 1 if args.quick else 3
    args.batch = 5 if args.quick else 20
    families = [f.strip() for f in args.families.split(",") if f.strip()]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        parser.error(f"unknown families: {', '.join(unknown)}")
    print(f"catmouse {catmouse.__version__}, engine {catmouse.BACKEND}, Python "
          f"{sys.version.split()[0]}, {os.cpu_count()} CPUs, {_cpu_model()}")
    ref = Reference.build()
    for family in families:
        start = time.perf_counter()
        print(FAMILIES[family](args, ref))
        print(f"({time.perf_counter() - start:.0f} s)\n", flush=True)
    return 0


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
