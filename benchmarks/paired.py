"""Two checkouts of catmouse timed in paired batches: the ratio of each pair, not two bests.

    python benchmarks/paired.py OLD_ROOT NEW_ROOT [--graph 200] [--calls 25] [--pairs 150]
                                [--remoteness | --price] [--threads 1]

Each root is a checkout whose extension is built in place (``setup.py build_ext --inplace``).
One worker process per root stays alive and runs a batch of ``--calls`` analyses when asked;
the two are asked in turn (the order alternating), so a batch of each sees the same state of
the machine.  Printed: each root's best and median batch (ms a call) and the median of the
pairs' ratios NEW / OLD with its quartiles.  On a shared VM a best-of-N figure of a 0.1 ms
call moved by 10% between runs; the paired median moved by about 2%.

``--graph``: a node count (a random sparse graph of bench.sparse_graph, seeded by the count),
``grid`` (the 60x60 grid), or ``qD`` (the D-cube) with ``--cops K``: ``CopsGame(graph,
K).analyze(threads=...)``.  ``analyze(remoteness=False)`` unless ``--remoteness``.
``--solve``: ``catmouse.solve(graph, threads=...)`` (the default start: the search stops
once that position is decided) instead of ``analyze``.  ``--price``: NEW with remoteness and
OLD without (one root given twice: remoteness's price,
``analyze`` over ``analyze(remoteness=False)``, in pairs).  Thread
CPU time with ``--threads 1``; wall time otherwise (the helpers' CPU is not the caller's).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["main"]


def _worker(root: str, spec: str, remoteness: bool, threads: int, cops: int,
            solve: bool) -> None:
    """Serve batches: a line with a count in, that many calls' mean seconds out."""
    sys.path[:0] = [str(Path(root) / "benchmarks"), root]  # (the root's own catmouse)
    from bench_tools import big_family, sparse_graph

    import catmouse

    if spec.startswith("q"):  # the hypercube of that dimension, for the k-cops game
        import networkx as nx
        graph = catmouse.Graph.from_networkx(nx.hypercube_graph(int(spec[1:])))
    else:
        graph = catmouse.Graph(big_family()["grid 60x60"]() if spec == "grid"
                               else sparse_graph(random.Random(int(spec)), int(spec)))
    clock = time.thread_time if threads == 1 else time.perf_counter
    for line in sys.stdin:
        calls = int(line)
        start = clock()
        for _ in range(calls):
            if cops:
                catmouse.CopsGame(graph, cops).analyze(threads=threads)
            elif solve:
                catmouse.solve(graph, threads=threads)
            else:
                catmouse.analyze(graph, remoteness=remoteness, threads=threads)
        print((clock() - start) / calls, flush=True)


def _quartile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[round(q * (len(ordered) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the checkout to compare against")
    parser.add_argument("new", help="the checkout under test")
    parser.add_argument("--graph", default="200",
                        help="a node count, 'grid', or qD (the D-cube, for --cops)")
    parser.add_argument("--cops", type=int, default=0,
                        help="time CopsGame(graph, COPS).analyze instead of analyze")
    parser.add_argument("--calls", type=int, default=25, help="calls in a batch")
    parser.add_argument("--pairs", type=int, default=150, help="batches of each root")
    parser.add_argument("--remoteness", action="store_true", help="analyze with remoteness")
    parser.add_argument("--price", action="store_true",
                        help="NEW with remoteness, OLD without (remoteness's price)")
    parser.add_argument("--solve", action="store_true",
                        help="time solve(graph) (the default start) instead of analyze")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--serve", help=argparse.SUPPRESS)  # (a worker: the root it times)
    args = parser.parse_args(argv)
    if args.serve:
        _worker(args.serve, args.graph, args.remoteness, args.threads, args.cops, args.solve)
        return 0
    if args.calls < 1 or args.pairs < 1:
        parser.error("--calls and --pairs must be at least 1")
    if args.cops and (args.price or args.remoteness):
        parser.error("--cops times the k-cops analysis (with its remoteness) alone")
    if args.graph.startswith("q") != bool(args.cops):
        parser.error("--graph qD goes with --cops, and --cops with --graph qD")
    if args.solve and (args.cops or args.price or args.remoteness):
        parser.error("--solve times solve alone (no --cops, --price or --remoteness)")
    if args.price and args.remoteness:
        parser.error("--price already runs NEW with remoteness and OLD without")
    command = [sys.executable, str(Path(__file__).resolve()), args.old, args.new,
               "--graph", args.graph, "--threads", str(args.threads), "--cops", str(args.cops)]
    command += ["--solve"] if args.solve else []
    workers = [subprocess.Popen(command + ["--serve", root]
                                + (["--remoteness"] if args.remoteness or (args.price and k)
                                   else []),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
               for k, root in enumerate((args.old, args.new))]
    times: list[list[float]] = [[], []]
    try:
        for i in range(args.pairs):
            for k in ((0, 1) if i % 2 == 0 else (1, 0)):
                stdin, stdout = workers[k].stdin, workers[k].stdout
                assert stdin is not None and stdout is not None
                stdin.write(f"{args.calls}\n")
                stdin.flush()
                said = stdout.readline()
                if not said:
                    raise SystemExit(f"the worker for {(args.old, args.new)[k]} stopped")
                times[k].append(float(said))
    finally:
        for worker in workers:
            if worker.stdin:
                worker.stdin.close()
            worker.wait()
    ratios = [new / old for old, new in zip(*times)]
    for name, values in zip(("old", "new"), times):
        print(f"{name}: best {min(values) * 1e3:.4f} ms, "
              f"median {statistics.median(values) * 1e3:.4f} ms a call")
    what = " remoteness" if args.remoteness else " with remoteness / without" if args.price else ""
    what += f", {args.cops} cops" if args.cops else ""
    what += " solve" if args.solve else ""
    print(f"{args.graph}{what}, threads={args.threads}: new / old, "
          f"median of {len(ratios)} pairs {statistics.median(ratios):.3f} "
          f"(quartiles {_quartile(ratios, 0.25):.3f}, {_quartile(ratios, 0.75):.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
