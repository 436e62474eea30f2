"""Check benchmarks/ref_bits.cpp against benchmarks/ref.cpp: the same answers, full and early stop.

    PYTHONPATH=. python benchmarks/check_ref_bits.py
"""

from __future__ import annotations

import ctypes
import random
import subprocess
import sys
import tempfile
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "helpers"))
from bench_tools import random_graph  # noqa: E402
from oracle import random_board  # noqa: E402


def load(source: Path) -> ctypes.CDLL:
    out = Path(tempfile.mkdtemp()) / (source.stem + ".so")
    subprocess.run(["g++", "-O2", "-shared", "-fPIC", "-o", str(out), str(source)], check=True)
    lib = ctypes.CDLL(str(out))
    lib.cm_solve.restype = ctypes.c_int
    lib.cm_solve.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                             ctypes.c_int64]
    return lib


def compare(a, b, rng, adjacency, hole) -> int:
    """Full table count and five random targets; returns the number of calls compared."""
    n = len(adjacency)
    indptr, indices = array("i", [0]), array("i")
    for row in adjacency:
        indices.extend(row)
        indptr.append(len(indices))
    indices.append(0)  # never empty
    ip, ix = indptr.buffer_info()[0], indices.buffer_info()[0]
    targets = [-1] + [rng.randrange(2 * n * n) for _ in range(5)]
    for target in targets:
        x, y = a.cm_solve(n, ip, ix, hole, target), b.cm_solve(n, ip, ix, hole, target)
        assert x == y, (adjacency, hole, target, x, y)
    return len(targets)


def main() -> None:
    a, b = load(ROOT / "benchmarks" / "ref.cpp"), load(ROOT / "benchmarks" / "ref_bits.cpp")
    rng = random.Random(7)
    calls = 0
    for i in range(3000):
        n = rng.choice([rng.randint(3, 12), rng.randint(3, 70), rng.randint(60, 200)])
        if i % 10 == 0:
            n = rng.randint(100, 300)
        calls += compare(a, b, rng, random_graph(rng, n, rng.choice([rng.random(), 2 / n, 0.5])), 0)
    print(f"random_graph: 3000 graphs, {calls} calls equal")
    calls = 0
    for _ in range(2000):
        adjacency, hole = random_board(rng, 2, 40)  # stranded cats, isolated mice, any hole
        calls += compare(a, b, rng, adjacency, hole)
    print(f"random_board: 2000 graphs, {calls} calls equal")


if __name__ == "__main__":
    main()
