"""Solve one big random sparse graph on the compiled engine: time and peak RSS.

    PYTHONPATH=. python benchmarks/big_graph.py 40000 solve|outcomes|analyze [threads]

``solve`` is one position with early stop (mouse 1, cat 2, mouse to move, hole 0);
``outcomes`` the full outcome table; ``analyze`` outcome and remoteness.  Prints the
engine's own peak_bytes figure, the bytes per position it means, and the process's
peak resident memory (ru_maxrss) before and after the call.
"""

from __future__ import annotations

import random
import resource
import sys
import time
from array import array

from bench_tools import sparse_graph

from catmouse.engine import bits_c


def peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def main() -> None:
    n, kind = int(sys.argv[1]), sys.argv[2]
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    adjacency = sparse_graph(random.Random(n), n)
    indptr, indices = array("i", [0]), array("i")
    for row in adjacency:
        indices.extend(row)
        indptr.append(len(indices))
    del adjacency
    flags = bytearray(n)
    flags[0] = 3  # the hole: HOLE | CAT_FORBIDDEN
    args = (n, bytes(flags)) + (indptr, indices) * 4
    size = 2 * n * n
    engine = bits_c.peak_bytes(n, kind != "solve", kind == "analyze", kind == "solve", threads)
    outcome = bytearray(size) if kind != "solve" else None
    rem = array("i", bytes(4 * size)) if kind == "analyze" else None
    before = peak_rss()
    start, cpu = time.perf_counter(), time.process_time()
    if kind == "solve":
        result = bits_c.propagate(*args, None, None, n + 2, threads=threads)
    else:
        result = bits_c.propagate(*args, outcome, rem, threads=threads)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    after = peak_rss()
    print(f"n={n} {kind} threads={threads}: result {result}, wall {wall:.1f} s, cpu {cpu:.1f} s, "
          f"peak_bytes {engine} ({engine / size:.3f} B/position), "
          f"peak RSS {before / 2**30:.2f} GiB before the call (graph and outputs), "
          f"{after / 2**30:.2f} GiB after", flush=True)


if __name__ == "__main__":
    main()
