"""The writers and the self-check on one board: each format's MB/s, verify() against analyze.

    PYTHONPATH=. python benchmarks/bench_writers.py [--nodes 1500] [--grid] [--folder /tmp]

Solves one random sparse board (average degree 4; ``--grid`` a square grid instead), then
times ``Analysis.save`` to .csv, .json and .npz in a temporary folder (each file deleted
after) and ``verify()`` with numpy and with its plain-Python loop, against ``analyze`` on the
same board.  Each figure is the best of ``--reps`` runs, as wall time and as the process's CPU
time (steadier on a shared machine).  MB/s of the .npz counts the table's bytes (5 a position),
not the compressed file's.  A family of its own, beside bench.py, so that it runs alone.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from bench_tools import Table, grid_graph, sparse_graph

import catmouse
import catmouse.analysis as _analysis


def timed(run: Callable[[], Any], reps: int) -> tuple[float, float]:
    """Best wall and best CPU seconds of ``reps`` runs."""
    walls, cpus = [], []
    for _ in range(reps):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1500, help="board size (default 1500)")
    parser.add_argument("--grid", action="store_true", help="a square grid, not a sparse graph")
    parser.add_argument("--reps", type=int, default=3, help="runs of each (best kept)")
    parser.add_argument("--folder", default=None, help="where the files go (default: /tmp)")
    parser.add_argument("--no-pure-verify", dest="pure", action="store_false",
                        help="skip verify()'s plain-Python loop (slow past 1,000 nodes)")
    args = parser.parse_args(argv)
    if args.grid:
        side = round(args.nodes ** 0.5)
        graph, name = grid_graph(side), f"{side}x{side} grid"
    else:
        graph = sparse_graph(random.Random(913), args.nodes)
        name = f"sparse n={args.nodes} deg 4"
    import numpy  # noqa: F401 - imported before timing: verify and the writers use it

    n = len(graph)
    board = catmouse.Graph(graph)
    box: list[Any] = []
    t_one = timed(lambda: box.append(catmouse.analyze(board, threads=1)), args.reps)
    t_default = timed(lambda: catmouse.analyze(board), args.reps)
    analysis = box[-1]
    table = Table(f"writers and verify: {name}, {2 * n * n:,} positions, "
                  f"{catmouse.BACKEND} engine", ["call", "wall s", "cpu s", "MB", "MB/s wall",
                                                 "MB/s cpu", "vs analyze (cpu)"])
    table.add("analyze, 1 thread", f"{t_one[0]:.3f}", f"{t_one[1]:.3f}", "", "", "", "1.0x")
    table.add("analyze, default threads", f"{t_default[0]:.3f}", f"{t_default[1]:.3f}", "",
              "", "", "")
    t_verify = timed(analysis.verify, args.reps)
    table.add("verify (numpy)", f"{t_verify[0]:.3f}", f"{t_verify[1]:.3f}", "", "", "",
              f"{t_verify[1] / t_one[1]:.1f}x")
    if args.pure:
        real = _analysis.numpy_or_none
        _analysis.numpy_or_none = lambda: None
        try:
            t_plain = timed(analysis.verify, 1)
        finally:
            _analysis.numpy_or_none = real
        table.add("verify (plain Python, no numpy)", f"{t_plain[0]:.3f}", f"{t_plain[1]:.3f}",
                  "", "", "", f"{t_plain[1] / t_one[1]:.1f}x")
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        for suffix in (".csv", ".json", ".npz"):
            path = os.path.join(folder, "table" + suffix)
            wall, cpu = timed(lambda: analysis.save(path), args.reps)  # noqa: B023
            size = os.path.getsize(path)
            counted = 5 * 2 * n * n if suffix == ".npz" else size
            os.remove(path)
            table.add(f"save {suffix}", f"{wall:.3f}", f"{cpu:.3f}", f"{counted / 1e6:.0f}",
                      f"{counted / wall / 1e6:.0f}", f"{counted / cpu / 1e6:.0f}", "")
    table.note(f"{os.cpu_count()} CPUs; best of {args.reps}; Python {sys.version.split()[0]}")
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
