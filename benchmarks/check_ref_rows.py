"""Check benchmarks/ref_rows.cpp: its whole outcome table against catmouse's, its answers
against ref_bits.cpp's (full count and early stop).

    PYTHONPATH=. python benchmarks/check_ref_rows.py [--graphs 3000]

Random graphs of every density (draws included), random boards (stranded cats, isolated
mice, the hole anywhere) and the benchmark's families: sparse n = 200, 1000, 3000 and the
60x60 grid.  Stops at the first difference, naming the graph.
"""

from __future__ import annotations

import argparse
import ctypes
import random
import subprocess
import sys
import tempfile
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "helpers"))
from bench_tools import grid_graph, random_graph, sparse_graph  # noqa: E402
from oracle import random_board  # noqa: E402

import catmouse  # noqa: E402


def load(source: Path) -> ctypes.CDLL:
    out = Path(tempfile.mkdtemp()) / (source.stem + ".so")
    subprocess.run(["g++", "-O2", "-Wall", "-shared", "-fPIC", "-o", str(out), str(source)],
                   check=True)
    lib = ctypes.CDLL(str(out))
    lib.cm_solve.restype = ctypes.c_int
    lib.cm_solve.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                             ctypes.c_int64]
    return lib


def csr(adjacency: list[list[int]]) -> tuple[array, array]:
    indptr, indices = array("i", [0]), array("i")
    for row in adjacency:
        indices.extend(row)
        indptr.append(len(indices))
    indices.append(0)  # never empty
    return indptr, indices


def compare(rows, bits, rng: random.Random, adjacency: list[list[int]], hole: int,
            targets: int = 5) -> tuple[int, int]:
    """ref_rows's table against catmouse's, then its count and ``targets`` early stops
    against ref_bits; returns (draws in the table, calls compared)."""
    n = len(adjacency)
    indptr, indices = csr(adjacency)
    ip, ix = indptr.buffer_info()[0], indices.buffer_info()[0]
    table = bytearray(2 * n * n)
    rows.cm_table(n, ctypes.c_void_p(ip), ctypes.c_void_p(ix), hole,
                  (ctypes.c_uint8 * len(table)).from_buffer(table))
    expect = bytes(catmouse.analyze(adjacency, hole=hole, remoteness=False, threads=1).outcomes)
    if bytes(table) != expect:
        bad = next(i for i, (a, b) in enumerate(zip(table, expect)) if a != b)
        raise AssertionError(f"table differs at {bad} (turn, mouse, cat = {bad // (n * n)}, "
                             f"{bad % (n * n) // n}, {bad % n}): {table[bad]} != {expect[bad]}"
                             f"; hole {hole}, graph {adjacency}")
    calls = [-1] + [rng.randrange(2 * n * n) for _ in range(targets)]
    for target in calls:
        x, y = rows.cm_solve(n, ip, ix, hole, target), bits.cm_solve(n, ip, ix, hole, target)
        assert x == y, (adjacency, hole, target, x, y)
    return table.count(0), len(calls) + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graphs", type=int, default=3000, help="random graphs and boards")
    args = parser.parse_args()
    rows = load(ROOT / "benchmarks" / "ref_rows.cpp")
    bits = load(ROOT / "benchmarks" / "ref_bits.cpp")
    rng = random.Random(38)
    for label, make in (("random_graph", lambda: (random_graph(
            rng, n := rng.choice([rng.randint(3, 12), rng.randint(3, 70), rng.randint(60, 300)]),
            rng.choice([rng.random(), 2 / n, 0.5])), 0)),
            ("random_board", lambda: random_board(rng, 1, 70))):
        draws = calls = with_draws = 0
        for _ in range(args.graphs):
            d, c = compare(rows, bits, rng, *make())
            draws, calls, with_draws = draws + d, calls + c, with_draws + (d > 0)
        print(f"{label}: {args.graphs} graphs ({with_draws} with draws, {draws} drawn "
              f"positions), {calls} calls equal", flush=True)
    families = {f"sparse n={n}": sparse_graph(random.Random(n), n) for n in (200, 1000, 3000)}
    families["grid 60x60"] = grid_graph(60)
    for name, adjacency in families.items():
        draws, calls = compare(rows, bits, rng, adjacency, 0, targets=20)
        print(f"{name}: table equal ({draws} drawn positions), {calls} calls equal",
              flush=True)


if __name__ == "__main__":
    main()
