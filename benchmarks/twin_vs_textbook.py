"""The pure-Python twin against the textbook Python solution and the old queue twin.

Usage::

    PYTHONPATH=. python benchmarks/twin_vs_textbook.py [--sizes 10 50 200 1000] [--reps 5]

For each size n it makes random sparse undirected graphs (average degree 4,
every node with a neighbour other than the hole, node 0) and times, per call,
best of ``--reps`` runs of CPU time (so time spent preempted by other processes
is not counted), with all of them measured in the same run:

- ``textbook``: LeetCode 913 the way most write-ups do it (nested lists, tuples
  in a deque), copied from catmouse's benchmark (``textbook_solve``);
- ``solve_lists``: the twin's entry point for ``solve(lists)``: checks and
  solves the lists, stopping at (mouse 1, cat 2, mouse to move);
- ``propagate``: the twin's engine alone on prebuilt CSR arrays, same target;
- ``queue``: the 0.1.0 queue twin (``tests/helpers/queue_engine.py``), same call.

A figure is the mean over the graphs of each call's best CPU time.

Every answer is checked against the textbook's before anything is timed.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from array import array
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "helpers"))

import bench_tools  # noqa: E402
import queue_engine  # noqa: E402
from bench_tools import textbook_solve  # noqa: E402  (the benchmark's own baseline)

from catmouse.engine import bits_py  # noqa: E402


def sparse_graph(rng: random.Random, n: int, degree: float = 4.0) -> list[list[int]]:
    """``bench_tools.sparse_graph``, then every node next to a node other than 0.

    The last condition keeps the textbook (which has no rule for a stuck
    mover) and catmouse (a stuck mover loses) on the same game.
    """
    rows = [set(row) for row in bench_tools.sparse_graph(rng, n, degree)]
    for u in range(n):
        if not rows[u] - {0}:
            v = rng.choice([x for x in range(1, n) if x != u])
            rows[u].add(v)
            rows[v].add(u)
    return [sorted(r) for r in rows]


def csr(graph: list[list[int]]) -> tuple[array, array]:
    indptr, indices = array("i", [0]), array("i")
    for row in graph:
        indices.extend(row)
        indptr.append(len(indices))
    return indptr, indices


def per_call(runs: list[Callable[[], Any]], reps: int) -> float:
    """Mean over the calls of each call's best CPU time in ``reps`` runs.

    Each call is timed alone, the runs of all calls interleaved, with the
    garbage collector off: on a shared machine a slow moment spoils one run
    of one call, not a whole batch.
    """
    best = [float("inf")] * len(runs)
    clock = time.thread_time
    gc.disable()
    try:
        for _ in range(reps):
            for k, run in enumerate(runs):
                start = clock()
                run()
                best[k] = min(best[k], clock() - start)
    finally:
        gc.enable()
    return sum(best) / len(best)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 50, 200, 1000])
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--seed", type=int, default=913)
    args = parser.parse_args(argv)
    print(f"{'n':>5} {'graphs':>6} {'textbook':>12} {'solve_lists':>12} {'propagate':>12} "
          f"{'queue':>12}  {'textbook/lists':>14} {'textbook/prop':>13} {'queue/prop':>10}")
    for n in args.sizes:
        rng = random.Random(args.seed + n)
        count = max(1, 800 // n)
        graphs = [sparse_graph(rng, n) for _ in range(count)]
        flags = bytes([3]) + bytes(n - 1)  # node 0: the hole, which the cat may not enter
        calls = []
        for g in graphs:
            indptr, indices = csr(g)
            calls.append((n, flags, *(indptr, indices) * 4, None, None, n + 2))
        expect = [textbook_solve(g) for g in graphs]
        assert [bits_py.solve_lists(g, 1, 2, 0) for g in graphs] == expect
        assert [bits_py.propagate(*c) for c in calls] == expect
        assert [queue_engine.propagate(*c) for c in calls] == expect
        reps = args.reps if n <= 200 else 2
        solve_lists, propagate = bits_py.solve_lists, bits_py.propagate
        t_book = per_call([partial(textbook_solve, g) for g in graphs], reps)
        t_lists = per_call([partial(solve_lists, g, 1, 2, 0) for g in graphs], reps)
        t_prop = per_call([partial(propagate, *c) for c in calls], reps)
        t_queue = per_call([partial(queue_engine.propagate, *c) for c in calls], reps)
        print(f"{n:>5} {count:>6} {t_book * 1e6:>10.0f}us {t_lists * 1e6:>10.0f}us "
              f"{t_prop * 1e6:>10.0f}us {t_queue * 1e6:>10.0f}us  {t_book / t_lists:>13.1f}x "
              f"{t_book / t_prop:>12.1f}x {t_queue / t_prop:>9.1f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
