"""The ``write`` family of bench.py: ``Analysis.save`` of a big board's table, each format in
a fresh process: MB/s (wall and the process's CPU time) and the peak memory beyond the tables.

    PYTHONPATH=. python benchmarks/bench.py --families write
    PYTHONPATH=. python benchmarks/bench_write.py --child 2000 /tmp   (one child, by hand)

The child solves a random sparse board (average degree 4), then for each of .csv, .json and
.npz resets the peak resident size (Linux: /proc/self/clear_refs), saves, and prints the
seconds, the file's size and the peak above the resident size before the write (the tables
and the graph are already there: the figure is what writing adds).  MB/s of the .npz counts
the table's bytes (5 a position), not the compressed file's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_tools import Table, _reset_peak, _status, sparse_graph

import catmouse

__all__ = ["WRITE_NODES", "bench_write", "child_write"]

WRITE_NODES = 2000  # 8 million positions: 285 MB of CSV


def child_write(n: int, folder: str) -> None:
    """In a fresh process: solve, then each format's seconds, size and peak, as JSON."""
    analysis = catmouse.analyze(catmouse.Graph(sparse_graph(random.Random(913), n)))
    catmouse.analyze([[1], [0]]).save(os.path.join(folder, "warm.npz"))  # lazy imports
    found = {}
    for suffix in (".csv", ".json", ".npz"):
        path = os.path.join(folder, f"table{suffix}")
        before = _reset_peak() if os.path.exists("/proc/self/clear_refs") else None
        wall, cpu = time.perf_counter(), time.process_time()
        analysis.save(path)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        peak = None if before is None else _status("VmHWM") - before
        size = os.path.getsize(path) if suffix != ".npz" else 5 * 2 * n * n
        found[suffix] = {"wall": wall, "cpu": cpu, "bytes": size, "peak": peak,
                         "file": os.path.getsize(path)}
        os.unlink(path)
    print(json.dumps(found))


def bench_write(args: argparse.Namespace, refs: object = None, n: int | None = None) -> Table:
    """Run :func:`child_write` in a fresh process and tabulate it."""
    n = n or (WRITE_NODES // 2 if getattr(args, "quick", False) else WRITE_NODES)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(catmouse.__file__).resolve().parent.parent), env.get("PYTHONPATH", "")])
    table = Table(f"write: Analysis.save of a random sparse board, n = {n} ({2 * n * n:,} "
                  "positions), in a fresh process", ["format", "MB", "wall s", "MB/s wall",
                                                      "MB/s cpu", "peak beyond tables MB"])
    with tempfile.TemporaryDirectory(prefix="catmouse-bench-") as folder:
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child",
                               str(n), folder], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        table.add("all", "n/a", "", "", "", "")
        table.note(f"the child failed: {done.stderr.strip()[-300:]}")
        return table
    for suffix, row in json.loads(done.stdout.split("\n")[-2]).items():
        mb = row["bytes"] / 1e6
        peak = "n/a" if row["peak"] is None else f"{row['peak'] / 2**20:.0f}"
        table.add(suffix, f"{mb:.0f}", f"{row['wall']:.2f}", f"{mb / row['wall']:.0f}",
                  f"{mb / max(row['cpu'], 1e-9):.0f}", peak)
    table.note("MB of .npz: the table's bytes (5 a position), not the compressed file's")
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=2, metavar=("NODES", "FOLDER"))
    parser.add_argument("--nodes", type=int, default=WRITE_NODES)
    args = parser.parse_args(argv)
    if args.child:
        child_write(int(args.child[0]), args.child[1])
        return 0
    print(bench_write(args, n=args.nodes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
