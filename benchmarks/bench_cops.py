"""Benchmark: the cop number (k cops and a robber), the k-cops workloads.

Run from a checkout against the engine built in place::

    PYTHONPATH=. python benchmarks/bench_cops.py            # n = 9 census, Robertson, grid
    PYTHONPATH=. python benchmarks/bench_cops.py --q6 --n10  # and the 6-cube, the n = 10 census

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
import subprocess
import sys
import time
from pathlib import Path

import networkx as nx

import catmouse

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--q6", action="store_true", help="also the 6-cube (about a minute)")
    parser.add_argument("--n10", action="store_true",
                        help="also the census of the 11,716,571 connected 10-node graphs")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    print(f"catmouse {catmouse.__version__}, engine {catmouse.BACKEND}, "
          f"{os.cpu_count()} cores")
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
