"""Remoteness's price at the engine level: planes mode and the int32 table against outcomes.

    PYTHONPATH=. python benchmarks/bench_planes.py [--reps 7] [--threads 1]

For the 60x60 grid and the sparse 3000-node graph (bench_tools.big_family), one call of the
compiled ``propagate`` each way, on fresh tables as ``analyze`` takes them (``Table``: zero
pages untouched): outcomes only; outcomes and the planes (a layer, ``more_planes``); outcomes
and the int32 table.  Prints the best time of each and the ratios to outcomes only (the
issue's goal for planes: <= 1.2).  Thread CPU time on one thread, wall time on more.
"""

from __future__ import annotations

import argparse
import time

from bench_tools import best_time, big_family

from catmouse.engine import bits_c
from catmouse.engine.planes import layer_bytes
from catmouse.graph import Graph
from catmouse.rules import classic_rules


def calls(graph: Graph, threads: int) -> dict[str, object]:
    rules = classic_rules(graph, 0)
    n = graph.n
    args = (n, rules.flags, graph._indptr, graph._indices, graph._rindptr, graph._rindices,
            graph._indptr, graph._indices, graph._rindptr, graph._rindices)

    def outcomes() -> None:
        outcome = bits_c.Table(2 * n * n)
        with outcome.view() as out:
            bits_c.propagate(*args, out, threads=threads)

    def planes() -> None:
        outcome, layer = bits_c.Table(2 * n * n), bits_c.Table(layer_bytes(n))
        with outcome.view() as out, layer.view() as view:
            bits_c.propagate(*args, out, threads=threads, planes=view, more_planes=[])

    def int32() -> None:
        outcome, rem = bits_c.Table(2 * n * n), bits_c.Table(8 * n * n)
        with outcome.view() as out, rem.view() as table:
            bits_c.propagate(*args, out, table.cast("i"), threads=threads)

    return {"outcomes": outcomes, "planes": planes, "int32": int32}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    clock = time.thread_time if args.threads == 1 else time.perf_counter
    family = big_family()
    for name in ("grid 60x60", "sparse n=3000 deg 4"):
        runs = calls(Graph(family[name]()), args.threads)
        times = {mode: best_time(run, args.reps, clock) for mode, run in runs.items()}
        base = times["outcomes"]
        print(f"{name} (threads={args.threads}): " + ", ".join(
            f"{mode} {1000 * t:.1f} ms ({t / base:.2f}x)" for mode, t in times.items()))


if __name__ == "__main__":
    main()
