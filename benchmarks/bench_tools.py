"""The benchmark's tools: graph families, the textbook baseline, the C++ references, timing,
peak memory and the result table.  ``bench.py`` (the command) and the other scripts here use
them.
"""

from __future__ import annotations

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
from catmouse import engine as selector
from catmouse.graph import Graph
from catmouse.rules import classic_rules

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
    """A random graph with ``n * degree / 2`` edges (average degree ``degree``), or the
    complete graph where that is more edges than ``n`` nodes have."""
    rows: list[set[int]] = [set() for _ in range(n)]
    edges = 0
    while edges < min(n * degree / 2, n * (n - 1) / 2):
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


HERE = Path(__file__).resolve().parent

# The C++ references beside this file: the queue-based solver, and two bit-parallel ones
# (each written separately) with the same C ABI.  Any may be missing; its column stays empty.
REFERENCES = {"plain": "ref.cpp", "bits": "ref_bits.cpp", "rows": "ref_rows.cpp"}


class Reference:
    """A C++ solver, compiled now with ``g++ -O2`` and loaded with ctypes."""

    def __init__(self, lib: ctypes.CDLL):
        self.lib = lib
        lib.cm_time.restype = ctypes.c_double
        lib.cm_time.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 7 + [
            ctypes.c_int, ctypes.c_void_p]

    @classmethod
    def build(cls, kind: str = "plain", quiet: bool = False) -> Reference | None:
        source = HERE / REFERENCES[kind]
        compiler = shutil.which("g++")

        def note(message: str) -> None:
            if not quiet:
                print(f"note: {message}", file=sys.stderr)

        if not source.exists():
            note(f"no {source.name} beside the benchmark: its C++ column stays empty")
            return None
        if compiler is None:
            note(f"no g++: the {source.name} column stays empty")
            return None
        folder = tempfile.mkdtemp(prefix="catmouse-bench-")
        out = Path(folder) / f"{source.stem}.so"
        try:
            subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(out), str(source)],
                           check=True, capture_output=True, text=True)
            return cls(ctypes.CDLL(str(out)))
        except (subprocess.CalledProcessError, OSError) as error:
            detail = getattr(error, "stderr", "") or error
            note(f"{source.name} did not build: {detail}")
            return None
        finally:
            # A loaded library stays mapped once its file is gone (where the system lets a
            # loaded file be removed at all: not Windows, where the folder stays).
            shutil.rmtree(folder, ignore_errors=True)

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


class References:
    """The C++ references (each None when its source or g++ is missing)."""

    def __init__(self, quiet: bool = False):
        self.plain = Reference.build("plain", quiet)
        self.bits = Reference.build("bits", quiet)
        self.rows = Reference.build("rows", quiet)


def checked_time(ref: Reference | None, name: str, graphs: list[list[list[int]]],
                 targets: list[int], reps: int, expect: list[int] | None = None
                 ) -> float | None:
    """Best seconds of ``ref`` over ``graphs`` (None without it), checked against ``expect``."""
    if ref is None:
        return None
    seconds, got = ref.time(graphs, targets, reps)
    if expect is not None and got != expect:
        bad = next(i for i, (a, b) in enumerate(zip(got, expect)) if a != b)
        raise AssertionError(f"{name} disagrees with catmouse on graph {bad}: "
                             f"{got[bad]} != {expect[bad]}")
    return seconds


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


def timed_pairs(first: Callable[[], Any], second: Callable[[], Any], pairs: int,
                clock: Callable[[], float] = time.thread_time) -> list[tuple[float, float]]:
    """``pairs`` pairs of (time of ``first``, time of ``second``), one call each, the order
    alternating, so that both calls of a pair see the same state of the machine: on a shared
    VM two best-of figures taken minutes apart can differ by half, a pair's ratio far less."""
    got = []
    for i in range(pairs):
        times = {}
        for which, run in ((0, first), (1, second)) if i % 2 == 0 else ((1, second), (0, first)):
            times[which] = best_time(run, 1, clock)
        got.append((times[0], times[1]))
    return got


def quartiles(values: list[float]) -> tuple[float, float, float]:
    """The lower quartile, the median and the upper quartile of ``values`` (sorted here)."""
    ordered = sorted(values)
    return (ordered[len(ordered) // 4], ordered[len(ordered) // 2],
            ordered[3 * len(ordered) // 4])


class use_twin:
    """Run the API on the pure-Python engine for the duration of a ``with``."""

    def __enter__(self) -> None:
        self.saved = selector.current
        selector.current = selector.load("python")

    def __exit__(self, *exc: object) -> None:
        selector.current = self.saved


def raw_engine(graph: Graph, target: int) -> Callable[[], Any]:
    """A call of the engine alone on prebuilt arrays (its own argument parsing included)."""
    rules = classic_rules(graph, 0)
    args = (graph.n, rules.flags, graph.indptr, graph.indices, graph.rindptr, graph.rindices,
            graph.indptr, graph.indices, graph.rindptr, graph.rindices, None, None, target)
    propagate = selector.current.propagate
    return lambda: propagate(*args)


TINY = [[1, 3], [0], [3], [0, 2]]


def unsupported(call: Callable[[Graph], Any]) -> str | None:
    """None if ``call`` runs on a tiny graph, else why not (a keyword not accepted yet)."""
    try:
        call(Graph(TINY))
    except TypeError as error:
        return f"n/a: {error}"
    return None


# -- the machine's capacity for two threads ------------------------------------

# A process counting loops for argv[1] seconds, then printing the count.
COUNTER = ("import sys, time\nend = time.perf_counter() + float(sys.argv[1])\ncount = 0\n"
           "while time.perf_counter() < end:\n    count += 1\nprint(count)")


def counter(seconds: float, cpu: int | None = None) -> subprocess.Popen[str]:
    """A process counting in a loop for ``seconds`` (pinned to ``cpu`` where it can be)."""
    child = subprocess.Popen([sys.executable, "-c", COUNTER, str(seconds)],
                             stdout=subprocess.PIPE, text=True)
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(child.pid, {cpu})
        except OSError:
            pass
    return child


def capacity(seconds: float = 0.5) -> float:
    """Two counting processes' total loops over one's, in the same ``seconds`` each.

    2.0 on two free cores; less where the vCPUs are shared (on the project's 2-vCPU VM it
    read 0.8 to 2.2 within an hour), so a thread figure is quoted with this one, taken in
    the same run."""
    one = int(counter(seconds).communicate()[0])
    pair = [counter(seconds), counter(seconds)]
    return sum(int(child.communicate()[0]) for child in pair) / one


def pingpong() -> str:
    """The round trip of a cache line between CPUs 0 and 1 (``pingpong.c``, built now), or why
    there is none.  About 100 ns where two vCPUs share a cache, several hundred where they do
    not: #38's thread goals differ between the two (1.7 and 1.2 at n = 3000)."""
    source, compiler = HERE / "pingpong.c", shutil.which("gcc") or shutil.which("cc")
    if compiler is None or not sys.platform.startswith("linux") or (os.cpu_count() or 1) < 2:
        return "not measured (it needs Linux, two CPUs and gcc)"
    with tempfile.TemporaryDirectory(prefix="catmouse-bench-") as folder:
        out = Path(folder) / "pingpong"
        try:
            subprocess.run([compiler, "-O2", "-pthread", "-o", str(out), str(source)],
                           check=True, capture_output=True, text=True)
            line = subprocess.run([str(out), "50000"], check=True, capture_output=True,
                                  text=True).stdout.strip()
        except (subprocess.CalledProcessError, OSError) as error:
            return f"not measured ({getattr(error, 'stderr', '') or error})".strip()
    return line.split(": ", 1)[-1]


# -- peak memory, one subprocess per figure -------------------------------------


def _status(field: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise OSError(f"no {field} in /proc/self/status")


def _reset_peak() -> int:
    """Return freed heap to the OS, reset the peak-RSS mark; the RSS now, in bytes."""
    gc.collect()
    try:  # hand freed heap back to the OS, so reused pages do not hide a peak
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")
    return _status("VmRSS")


def one_thread() -> dict[str, int]:
    """``threads=1`` where solve/analyze take it: big graphs default to every core, and a
    figure of the calling thread's CPU time would miss the other threads' work."""
    return {} if unsupported(lambda g: catmouse.solve(g, threads=1)) else {"threads": 1}


# What a memory figure measures: one single-threaded call on the prebuilt graph.
MEMORY_CALLS: dict[str, Callable[[Graph], Any]] = {
    "solve": lambda graph: catmouse.solve(graph, **one_thread()),
    "analyze": lambda graph: catmouse.analyze(graph, **one_thread()),
    "outcomes": lambda graph: catmouse.analyze(graph, remoteness=False, **one_thread()),
}


def child_memory(family: str, kind: str) -> None:
    """In a fresh process: build the graph, reset the peak, run once, print bytes."""
    adjacency = big_family()[family]()
    graph = Graph(adjacency)
    n = graph.n
    ref = None
    if kind.startswith("cpp"):
        refs = References(quiet=True)
        ref = refs.bits if kind == "cpp-bits" else refs.plain
    catmouse.analyze(Graph(TINY))  # warm every lazy import
    before = _reset_peak()
    if ref is not None:
        ref.time([adjacency], [-1], 1)
    elif kind in MEMORY_CALLS:
        MEMORY_CALLS[kind](graph)
    print(_status("VmHWM") - before, 2 * n * n)


def _run_child(*argv: str) -> list[str] | None:
    """Run this script with ``argv`` against the same catmouse; its stdout words, or None."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(catmouse.__file__).resolve().parent.parent), env.get("PYTHONPATH", "")])
    try:
        return subprocess.run([sys.executable, str(Path(__file__).resolve()), *argv],
                              check=True, capture_output=True, text=True, env=env).stdout.split()
    except subprocess.CalledProcessError as error:
        print(f"note: {' '.join(argv)} failed: {error.stderr.strip()[-300:]}", file=sys.stderr)
        return None


def measure_memory(family: str, kind: str) -> float | None:
    """Peak bytes per position of one call, measured in a subprocess."""
    if not os.path.exists("/proc/self/clear_refs"):
        return None
    out = _run_child("--child-memory", family, kind)
    try:
        return int(out[-2]) / int(out[-1]) if out else None
    except (ValueError, IndexError):
        return None


# -- the families ---------------------------------------------------------------


def fmt(value: float | None, spec: str = ".2f", unit: str = "") -> str:
    return "-" if value is None else f"{value:{spec}}{unit}"


def ratio(t: float | None, versus: float | None) -> str:
    return fmt(t / versus if t is not None and versus else None, ".2f", "x")


class Table:
    def __init__(self, title: str, columns: list[str]):
        self.title, self.columns = title, columns
        self.rows: list[list[str]] = []
        self.notes: list[str] = []

    def add(self, *cells: str) -> None:
        self.rows.append([str(c) for c in cells])

    def note(self, text: str) -> None:
        self.notes.append(text)

    def __str__(self) -> str:
        widths = [max(len(c), *(len(r[i]) for r in self.rows)) if self.rows else len(c)
                  for i, c in enumerate(self.columns)]
        line = "  ".join(c.rjust(w) if i else c.ljust(w)
                         for i, (c, w) in enumerate(zip(self.columns, widths)))
        out = [f"== {self.title}", line, "-" * len(line)]
        for r in self.rows:
            out.append("  ".join(c.rjust(w) if i else c.ljust(w)
                                 for i, (c, w) in enumerate(zip(r, widths))))
        out.extend(f"  note: {text}" for text in self.notes)
        return "\n".join(out)
