"""Measure the bit-parallel engine against the C++ references, engine calls only.

    PYTHONPATH=. python benchmarks/bench_bits.py [--quick] [--ref-bits benchmarks/ref_bits.cpp]

Every ratio compares timings taken in the same run, best of several repeats of the
thread's CPU time (wall time for the threads figure).  The C++ references are built
with g++ -O2 and timed inside C++ (``cm_time``), as ``bench.py`` does.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import tempfile
import time
from array import array
from pathlib import Path

from bench_tools import Reference, best_time, big_family, random_graph, small_family

import catmouse
from catmouse.engine import bits_c
from catmouse.graph import Graph
from catmouse.rules import classic_rules

ROOT = Path(__file__).resolve().parent.parent


def build(source: Path) -> Reference:
    out = Path(tempfile.mkdtemp(prefix="bench-bits-")) / (source.stem + ".so")
    subprocess.run(["g++", "-O2", "-shared", "-fPIC", "-o", str(out), str(source)], check=True)
    import ctypes

    return Reference(ctypes.CDLL(str(out)))


def board(graph: Graph):
    rules = classic_rules(graph, 0)
    return bits_c.Board(graph.n, rules.flags, graph.indptr, graph.indices, graph.rindptr,
                          graph.rindices, graph.indptr, graph.indices, graph.rindptr,
                          graph.rindices)


def engine_args(graph: Graph):
    rules = classic_rules(graph, 0)
    return (graph.n, rules.flags, graph.indptr, graph.indices, graph.rindptr, graph.rindices,
            graph.indptr, graph.indices, graph.rindptr, graph.rindices)


def line(name, t, refs):
    cells = [f"{name:40s} {t * 1e6:12.2f} us"]
    for label, r in refs:
        cells.append(f"{t / r:6.3f}x {label}")
    print("  ".join(cells), flush=True)


def many(label, lists, refs, reps):
    graphs = [Graph(g) for g in lists]
    targets = [len(g) + 2 for g in lists]
    expect = [int(catmouse.solve(g)) for g in graphs]
    ref_times = []
    for name, ref in refs:
        t, got = ref.time(lists, targets, max(reps, 20))
        assert got == expect, name
        ref_times.append((name, t / len(lists)))
    boards = [board(g) for g in graphs]
    assert [b.solve(1, 2) for b in boards] == expect
    assert list(bits_c.solve_boards(boards, 1, 2)) == expect
    assert [bits_c.solve_lists(g, 1, 2, 0) for g in lists] == expect
    print(f"{label}: {len(lists)} graphs, per solve")
    k = len(lists)
    line("  Board.solve loop", best_time(lambda: [b.solve(1, 2) for b in boards], reps) / k,
         ref_times)
    line("  solve_boards (one C loop)",
         best_time(lambda: bits_c.solve_boards(boards, 1, 2), reps) / k, ref_times)
    line("  solve_lists (lists, checks included)",
         best_time(lambda: [bits_c.solve_lists(g, 1, 2, 0) for g in lists], reps) / k,
         ref_times)
    solve = catmouse.solve
    for g in graphs:
        solve(g)
    line("  catmouse.solve(Graph) (API)", best_time(lambda: [solve(g) for g in graphs], reps) / k,
         ref_times)
    line("  catmouse.solve(lists) (API)", best_time(lambda: [solve(g) for g in lists], reps) / k,
         ref_times)
    for name, t in ref_times:
        line(f"  C++ {name}", t, ref_times)


def big(refs, reps, quick):
    for name, make in big_family().items():
        if quick and name.startswith("dense"):
            continue
        adjacency = make()
        graph = Graph(adjacency)
        n = graph.n
        args = engine_args(graph)
        size = 2 * n * n
        ref_times = []
        for rname, ref in refs:
            t, got = ref.time([adjacency], [-1], reps)
            ref_times.append((rname, t))
        outcome = bytearray(size)
        rem = array("i", bytes(4 * size))

        def full(threads=1):
            return bits_c.propagate(*args, outcome, rem, threads=threads)

        def outcomes_only(threads=1):
            return bits_c.propagate(*args, outcome, None, threads=threads)

        print(f"{name}: n={n}, {size / 1e6:.1f}M positions (us per call)")
        line("  propagate outcome+remoteness (analyze)", best_time(full, reps), ref_times)
        line("  propagate outcome only", best_time(outcomes_only, reps), ref_times)
        t1 = best_time(lambda: full(1), reps, time.perf_counter)
        t2 = best_time(lambda: full(2), reps, time.perf_counter)
        print(f"  wall: threads=1 {t1 * 1e3:.1f} ms, threads=2 {t2 * 1e3:.1f} ms, "
              f"ratio {t1 / t2:.2f}x", flush=True)
        tt = best_time(lambda: board(graph).solve(1, 2), reps)
        line("  Board.solve(1, 2) early stop", tt, ref_times)
        for rname, t in ref_times:
            line(f"  C++ {rname} full table", t, ref_times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--ref-bits", default=str(ROOT / "benchmarks" / "ref_bits.cpp"))
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--only", default="small,dense,big")
    a = parser.parse_args()
    refs = [("ref.cpp", build(ROOT / "benchmarks" / "ref.cpp"))]
    if Path(a.ref_bits).exists():
        refs.append(("ref_bits.cpp", build(Path(a.ref_bits))))
    only = a.only.split(",")
    if "small" in only:
        many("small: random graphs of 3..50 nodes", small_family(300), refs, a.reps)
    if "dense" in only:
        rng = random.Random(50)
        many("dense: 50 nodes, p = 0.5", [random_graph(rng, 50, 0.5) for _ in range(100)],
             refs, a.reps)
    if "big" in only:
        big(refs, 3 if a.quick else 5, a.quick)


if __name__ == "__main__":
    main()
