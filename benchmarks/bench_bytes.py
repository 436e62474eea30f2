"""The ``bytes`` family of bench.py: remoteness in a byte a position (issue #38).

    PYTHONPATH=. python benchmarks/bench.py --families bytes
    PYTHONPATH=. python benchmarks/bench.py --families bytes --huge-nodes 60000   (minutes, GBs)
    PYTHONPATH=. python benchmarks/bench_bytes.py --child 3000   (one child, by hand)

- peak bytes a position of ``analyze`` (one thread) on a random sparse graph of 3000 nodes
  (1000 with ``--quick``): the memory guard's estimate (``need_bytes``, built on the
  engine's ``peak_bytes``) and the measured peak RSS above the graph, in a fresh process;
  and what the Analysis keeps (outcomes and remoteness planes);
- ``analyze`` against ``analyze(remoteness=False)`` (thread CPU time, best of repeats) on the
  60x60 grid and the sparse 3000-node graph (goal <= 1.2);
- with ``--huge-nodes N``: ``analyze`` of a sparse N-node graph in a fresh process: wall and
  CPU time, peak RSS, and the guard's estimate (a refusal is printed as such).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from bench_tools import (
    Table,
    _reset_peak,
    _status,
    big_family,
    fmt,
    quartiles,
    sparse_graph,
    timed_pairs,
)

import catmouse
from catmouse.graph import Graph
from catmouse.rules import need_bytes

__all__ = ["bench_bytes", "child_bytes"]


def child_bytes(n: int) -> None:
    """In a fresh process: analyze a sparse n-node graph; print its figures as JSON."""
    graph = Graph(sparse_graph(random.Random(n), n))
    catmouse.analyze(Graph([[1], [0]]))  # lazy imports
    before = _reset_peak() if os.path.exists("/proc/self/clear_refs") else None
    guard = need_bytes(n, outcome=True, remoteness=True, target=False, threads=1)
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        analysis = catmouse.analyze(graph, threads=1)
    except MemoryError as error:
        print(json.dumps({"refused": str(error), "guard": guard}))
        return
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = None if before is None else _status("VmHWM") - before
    kept = len(analysis._outcomes) + sum(map(len, analysis._layers or ()))
    print(json.dumps({"wall": wall, "cpu": cpu, "peak": peak, "guard": guard, "kept": kept,
                      "layers": len(analysis._layers or ())}))


def _child(n: int) -> dict | None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(catmouse.__file__).resolve().parent.parent), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(n)],
                          capture_output=True, text=True, env=env)
    if done.returncode:
        print(f"note: the bytes child (n = {n}) failed: {done.stderr.strip()[-300:]}",
              file=sys.stderr)
        return None
    return json.loads(done.stdout.splitlines()[-1])


def bench_bytes(args: argparse.Namespace, refs: object = None) -> Table:
    """Peak bytes a position, remoteness's price, and (opt-in) a huge analyze."""
    n = 1000 if getattr(args, "quick", False) else 3000
    table = Table("bytes: analyze's memory a position and remoteness's price (issue #38)",
                  ["measure", "value"])
    positions = 2 * n * n
    found = _child(n)
    if found:
        table.add(f"sparse n={n}: guard's estimate, bytes/position",
                  fmt(found["guard"] / positions, ".3f"))
        if found["peak"] is not None:
            table.add(f"sparse n={n}: measured peak RSS, bytes/position",
                      fmt(found["peak"] / positions, ".3f"))
        table.add(f"sparse n={n}: kept by the Analysis, bytes/position",
                  fmt(found["kept"] / positions, ".3f"))
    graphs = {"grid 60x60": (big_family()["grid 60x60"], 11),
              f"sparse n={n}": (lambda: sparse_graph(random.Random(n), n), 25)}
    for name, (make, pairs) in graphs.items():
        graph = Graph(make())
        catmouse.analyze(graph, threads=1)
        timed = timed_pairs(lambda: catmouse.analyze(graph, remoteness=False, threads=1),
                            lambda: catmouse.analyze(graph, threads=1), pairs)
        low, middle, high = quartiles([full / plain for plain, full in timed])
        plain = min(plain for plain, _ in timed)
        full = min(full for _, full in timed)
        table.add(f"{name}: analyze / analyze(remoteness=False)",
                  f"{middle:.2f}x ({low:.2f}-{high:.2f}; best {full * 1e3:.0f} / "
                  f"{plain * 1e3:.0f} ms)")
    huge = getattr(args, "huge_nodes", None)
    if huge:
        got = _child(huge)
        if not got:
            table.add(f"sparse n={huge}: analyze", "failed (see the note above)")
        elif "refused" in got:
            table.add(f"sparse n={huge}: analyze", "refused: " + got["refused"])
        else:
            hp = 2 * huge * huge
            table.add(f"sparse n={huge}: analyze wall s / CPU s",
                      f"{got['wall']:.1f} / {got['cpu']:.1f}")
            if got["peak"] is not None:
                table.add(f"sparse n={huge}: peak RSS GiB (bytes/position)",
                          f"{got['peak'] / 2**30:.2f} ({got['peak'] / hp:.3f})")
            table.add(f"sparse n={huge}: guard's estimate GiB", fmt(got["guard"] / 2**30, ".2f"))
    table.note("peaks are measured above the graph, in a fresh process (Linux clear_refs); "
               "the goal is <= 2.6 bytes a position at sparse n = 3000")
    table.note("remoteness's price: the median of pairs of calls (thread CPU time, the order "
               "alternating; the quartiles in brackets), each call's result dropped before the "
               "next, as in a loop of analyses; the goal is <= 1.2")
    return table


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", type=int, required=True, help="nodes of the sparse graph")
    child_bytes(parser.parse_args().child)
