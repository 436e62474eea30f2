"""Benchmark: the cop number (k cops and a robber), the k-cops workloads.

Run from a checkout against the engine built in place::

    PYTHONPATH=. python benchmarks/bench_cops.py            # n = 9 census, Robertson, grid
    PYTHONPATH=. python benchmarks/bench_cops.py --q6 --n10  # and the 6-cube, the n = 10 census
    PYTHONPATH=. python benchmarks/bench_cops.py --threads   # threads=1 vs 2 vs None only

``--threads`` times the k-cops crew: 4 cops on the 5-cube and 3 on the 6-cube (``analyze``)
and ``cop_number`` of the 6-cube, each with threads=1, 2 and None (the median of
``--repeat`` samples, a sample a batch of calls of about 0.2 s or one longer call, the
counts taken in an order that turns each repeat), first on free
cores, then with a process spinning on the last CPU (started and stopped here), with the
ratios to threads=1 and the same run's capacity: how much two spinning processes get done
against one (2.0 on two free cores; less where the cores are shared).  Under a cgroup CPU
quota, start the whole command in one (the header prints the CPUs the process may use).

Needs nauty's ``geng`` (Debian: ``nauty-geng``) for the censuses.  Every figure is wall time
of one run with the load average printed beside it (the machine is shared: rerun on a quiet
one before quoting a ratio).  The census pipes ``geng -c N`` into ``catmouse cop-number
--census -`` exactly as a user would, generation included.  PyPI's ``cop-number`` (k-fold
tensor products in networkx) gets a column when it is installed, on Petersen and 200 graphs
of 8 nodes, its answers checked against ours.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import networkx as nx
from bench_tools import capacity, counter

import catmouse
from catmouse.graph import as_graph

HERE = Path(__file__).resolve().parent
ROBERTSON = HERE.parent / "tests" / "game" / "fixtures" / "robertson.g6"
# OEIS A220840, A220841 as quoted in docs/cops.rst, and the one graph of cop number 3 at n = 10.
QUOTED = {9: {1: 65561, 2: 195519}, 10: {1: 2258313, 2: 9458257, 3: 1}}


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def geng() -> str | None:
    return shutil.which("geng") or shutil.which("nauty-geng")


def census(n: int, jobs: int) -> None:
    program = geng()
    if program is None:
        print(f"census n={n}: skipped (no geng)")
        return
    before = load()
    start = time.perf_counter()
    pipeline = (f"{program} -cq {n} | {sys.executable} -m catmouse cop-number --census "
                f"--jobs {jobs} -")
    result = subprocess.run(pipeline, shell=True, capture_output=True, text=True, check=True)
    spent = time.perf_counter() - start
    counts = {int(k): int(c) for k, c in (line.split() for line in result.stdout.splitlines())}
    total = sum(counts.values())
    same = "equal" if counts == QUOTED.get(n, counts) else f"differ from {QUOTED[n]}"
    print(f"census n={n} --jobs {jobs}: {total:,} graphs in {spent:.2f} s "
          f"({spent / total * 1e6:.2f} us a graph), counts {counts} {same}; load {before}")


def timed(name: str, graph: object, expected: int) -> None:
    before = load()
    start = time.perf_counter()
    found = catmouse.cop_number(graph)
    spent = time.perf_counter() - start
    assert found == expected, (name, found)
    print(f"{name}: c = {found} in {spent * 1000:.2f} ms; load {before}")


def pypi_column() -> None:
    """PyPI's ``cop-number`` (``pip install cop-number``) beside ours, on the same graphs."""
    try:
        from cop_number import cop
    except ImportError:
        print("PyPI cop-number: not installed (pip install cop-number), no column")
        return
    census_file = HERE.parent / "tests" / "game" / "fixtures" / "connected_2_to_8.g6"
    small = [nx.from_graph6_bytes(line) for line in census_file.read_bytes().split()[-200:]]
    for name, graphs in (("Petersen", [nx.petersen_graph()]), ("200 8-node graphs", small)):
        before = load()
        start = time.perf_counter()
        theirs = [cop.cop_num(graph) for graph in graphs]
        middle = time.perf_counter()
        ours = [catmouse.cop_number(graph) for graph in graphs]
        end = time.perf_counter()
        assert theirs == ours, name
        print(f"{name}: PyPI cop-number {middle - start:.3f} s, catmouse {end - middle:.4f} s "
              f"({(middle - start) / (end - middle):,.0f}x); load {before}")


def robertson() -> None:
    line = ROBERTSON.read_bytes().strip()
    before = load()
    start = time.perf_counter()
    found = catmouse.engine.current.cop_numbers_graph6(line, 10)
    spent = time.perf_counter() - start
    assert found == bytes([4])
    print(f"Robertson graph from its graph6 line: c = 4 in {spent * 1000:.2f} ms; load {before}")


def crew_workloads() -> list[tuple[str, Callable[[int | None], object]]]:
    q5, q6 = as_graph(nx.hypercube_graph(5)), as_graph(nx.hypercube_graph(6))
    return [("Q5, 4 cops, analyze", lambda t: catmouse.CopsGame(q5, 4).analyze(threads=t)),
            ("Q6, 3 cops, analyze", lambda t: catmouse.CopsGame(q6, 3).analyze(threads=t)),
            ("cop_number(Q6)", lambda t: catmouse.cop_number(q6, threads=t))]


def crew_table(label: str, repeat: int) -> None:
    counts: list[int | None] = [1, 2, None]
    for name, run in crew_workloads():
        times: dict[int | None, list[float]] = {t: [] for t in counts}
        # A sample is a batch of calls of at least about 0.2 s: one call of a 6 ms search is
        # at the mercy of a single scheduling hiccup (its ratios spread 1.29-1.64 in runs
        # minutes apart).
        run(1)  # (the first call allocates what later ones reuse)
        start = time.perf_counter()
        run(1)
        calls = max(1, round(0.2 / (time.perf_counter() - start)))
        for r in range(repeat):
            # The order turns each repeat, so that no count always runs right after another:
            # taken in turn, None always followed 2, and beside a spinner the scheduler had
            # then often left the caller on the spinner's CPU (None against 1: 0.87-0.88 in
            # two runs, 1.04 with the two alternating, no crew hired).
            for t in counts[r % 3:] + counts[:r % 3]:
                start = time.perf_counter()
                for _ in range(calls):
                    run(t)
                times[t].append((time.perf_counter() - start) / calls)
        middle = {t: statistics.median(times[t]) for t in counts}
        batch = f" ({calls} calls a sample)" if calls > 1 else ""
        print(f"  {label:<14} {name:<22} 1: {middle[1]:.4f} s  2: {middle[2]:.4f} s "
              f"(x{middle[1] / middle[2]:.2f})  None: {middle[None]:.4f} s "
              f"(x{middle[1] / middle[None]:.2f}){batch}", flush=True)


def crew(repeat: int) -> None:
    """threads=1 vs 2 vs None on free cores and beside a spinner; the capacity figure."""
    from catmouse.engine.cpus import usable_cpus

    print(f"k-cops crew: {usable_cpus()} usable CPUs, median of {repeat}; load {load()}")
    print(f"  capacity (two spinners / one): {capacity(1.0):.2f}")
    crew_table("free cores", repeat)
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [None]
    busy = counter(10_000.0, cpus[-1])
    try:
        crew_table("spinner", repeat)
    finally:
        busy.kill()
        busy.wait()
    print(f"  capacity (two spinners / one): {capacity(1.0):.2f}; load {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--q6", action="store_true", help="also the 6-cube (about a minute)")
    parser.add_argument("--n10", action="store_true",
                        help="also the census of the 11,716,571 connected 10-node graphs")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--threads", action="store_true",
                        help="only the k-cops crew: threads=1 vs 2 vs None, free and shared")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each (--threads)")
    args = parser.parse_args()
    print(f"catmouse {catmouse.__version__}, engine {catmouse.BACKEND}, "
          f"{os.cpu_count()} cores")
    if args.threads:
        crew(args.repeat)
        return
    census(9, 1)
    census(9, args.jobs)
    robertson()
    timed("Petersen", nx.petersen_graph(), 3)
    timed("8x8 grid", nx.grid_2d_graph(8, 8), 2)
    timed("Q5", nx.hypercube_graph(5), 3)
    if args.q6:
        timed("Q6", nx.hypercube_graph(6), 4)
    pypi_column()
    if args.n10:
        census(10, args.jobs)


if __name__ == "__main__":
    main()
