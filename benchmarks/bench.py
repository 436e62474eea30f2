"""Benchmark: catmouse against a tight C++ reference, its pure twin, and textbook Python.

Run from a checkout, against whatever catmouse is importable::

    pip install .                       # first: the compiled engine, from this checkout
    python benchmarks/bench.py --quick  # the script's folder, not the checkout, is on sys.path

or, against the engine built in place (``python setup.py build_ext --inplace``),
``PYTHONPATH=. python benchmarks/bench.py``.  ``--quick`` takes under a minute, the
full run under five.  Every ratio compares timings
taken in the same run, each the best of several repeats of the thread's CPU
time (wall time for the multi-threaded figures), because a shared machine is
noisy.  The C++ reference (``ref.cpp`` beside this file) is compiled with
``g++ -O2`` at run time and timed inside C++, so process start, ctypes and I/O
are not counted; without g++ its columns are left empty.

Families:

- ``small``: random LeetCode-size graphs (3 to 50 nodes, sparse to dense),
  ``catmouse.solve(adjacency_lists)`` per call, conversion and validation included.
- ``hot``: the same graphs prebuilt as ``Graph``: Python-side cost per call, and
  ``solve_many`` throughput on one thread and on every core.
- ``big``: a random sparse graph of 3000 nodes, a 60x60 grid, a dense 600-node
  graph: time and peak memory of ``solve``, of a full solve and of ``analyze``.
- ``scaling``: positions per second of a full solve on sparse graphs, n = 10..5000.
- ``outcomes``: ``analyze`` with and without remoteness (one thread) on sparse graphs of
  200, 1000 and 3000 nodes and the 60x60 grid, against the C++ references' full tables,
  and against the stronger (the faster in this run) of the two bit-parallel ones.
- ``dense50``: random dense graphs of 50 nodes (p = 0.5), ``solve(lists)`` per call.
- ``threads``: wall time of ``analyze(graph, threads=2)`` against ``threads=1`` on the
  sparse 3000-node graph, timed in pairs (the spread of the pairs' speedups is printed),
  with the capacity (two spinning processes' throughput over one's) and the ping-pong round
  trip of a cache line between CPUs 0 and 1 (``pingpong.c``) before and after.
- ``twin``: the pure-Python twin against the textbook Python solution on sparse graphs
  of 50 nodes (both pure Python, same process).
- ``batch``: ``solve_many`` over 20,000 LeetCode-size graphs (2,000 with ``--quick``) and
  201 dense 50-node ones, as lists and as ``Graph``: one thread, two, the default, and a
  loop of ``solve`` (wall time), with the capacity before and after.
- ``write``: ``Analysis.save`` of a sparse 2000-node board's table (1000 with ``--quick``)
  as .csv, .json and .npz in a fresh process: MB/s and the peak memory beyond the tables.
- ``graph-first-solve``: 5,000 different random graphs of 3 to 30 nodes: ``solve(lists)``
  against the first ``solve`` of a new ``Graph`` of each (goal: at most 1.5 times) and the
  second.
- ``contended``: ``threads=None`` against ``threads=1`` (``analyze`` of the sparse 3000-node
  graph, ``solve_many`` of 20,000 small graphs) on free cores, beside a spinning process and
  in a cgroup of 1.2 CPUs (root only; else skipped with the reason), with the capacity (two
  spinning processes' throughput over one's) measured in the same run (bench_contended.py).
- ``bytes``: analyze's peak bytes a position (the guard's estimate and measured RSS) at
  sparse n = 3000, analyze against analyze(remoteness=False) on the grid and n = 3000, and
  with ``--huge-nodes N`` an analyze of a sparse N-node graph (see ``bench_bytes.py``).
- ``huge`` (only with ``--huge``, never in ``--quick``): one ``solve`` of a sparse
  40000-node graph (3.2 billion positions) in a fresh process: time and peak RSS.

C++ columns: ``ref.cpp``, the queue-based retrograde solver, and ``ref_bits.cpp``, a
bit-parallel one with the same C ABI (``cm_solve``, ``cm_time``); ``outcomes`` also times
``ref_rows.cpp``, a second bit-parallel one (both orientations of every table, only the
rows next to a changed row recomputed; ``check_ref_rows.py`` checks its tables against
catmouse's).  A missing source leaves its column empty.  Keywords the installed catmouse
does not accept yet (``analyze(remoteness=False)``, ``threads=``) give "n/a" rows with the
reason.

Peak memory is measured in a fresh subprocess per figure: the kernel's
high-water mark is reset (``/proc/self/clear_refs``) once the graph is built
(and freed heap returned with ``malloc_trim``), and the figure is the rise of
``VmHWM`` over ``VmRSS`` during the call, per position (2*n*n), so it counts
every byte the call touched, Python or C.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import catmouse
from catmouse import engine as selector
from catmouse import solving as _solving
from catmouse.graph import Graph
from catmouse.rules import classic_rules

__all__ = ["main"]

from bench_bytes import bench_bytes  # noqa: E402
from bench_contended import bench_contended, child_contended, wait_for_go  # noqa: E402
from bench_tools import (  # noqa: E402  (beside this file)
    TINY,
    References,
    Table,
    _reset_peak,
    _run_child,
    _status,
    best_time,
    big_family,
    capacity,
    checked_time,
    child_memory,
    fmt,
    load_seed_solution,
    measure_memory,
    one_thread,
    pingpong,
    quartiles,
    random_graph,
    ratio,
    raw_engine,
    small_family,
    sparse_graph,
    textbook_solve,
    timed_pairs,
    unsupported,
    use_twin,
)
from bench_write import bench_write  # noqa: E402


def per_solve_rows(table: Table, rows: list[tuple[str, float | None]], positions: float,
                   refs: dict[str, float | None]) -> None:
    """Rows of (name, seconds per solve) with Mpos/s and a ratio against each C++ column."""
    for name, t in rows:
        table.add(name, fmt(t * 1e6 if t is not None else None),
                  fmt(positions / t / 1e6 if t else None),
                  *(ratio(t, versus) for versus in refs.values()))


def bench_small(args: argparse.Namespace, refs: References) -> Table:
    graphs = small_family(args.small)
    targets = [len(g) + 2 for g in graphs]  # mouse 1, cat 2, mouse to move
    positions = sum(2 * len(g) ** 2 for g in graphs)
    expect = [int(catmouse.solve(g)) for g in graphs]
    solve = catmouse.solve

    def api() -> None:
        for g in graphs:
            solve(g)

    t_api = best_time(api, args.reps) / len(graphs)
    # Building a Graph, timed apart: solve(lists) builds none (plain lists go to the engine in
    # C), so this is what a caller who builds one pays, not a share of the call above.
    t_graph = best_time(lambda: [Graph(g) for g in graphs], args.reps) / len(graphs)
    twin_reps = max(1, args.reps // 3)
    with use_twin():
        assert [int(catmouse.solve(g)) for g in graphs] == expect, "twin disagrees"
        t_twin = best_time(api, twin_reps) / len(graphs)
    assert [textbook_solve(g) for g in graphs] == expect, "textbook disagrees"
    t_book = best_time(lambda: [textbook_solve(g) for g in graphs], twin_reps) / len(graphs)
    cpp_reps = max(args.reps, 20)
    t_cpp = checked_time(refs.plain, "ref.cpp", graphs, targets, cpp_reps, expect)
    t_bits = checked_time(refs.bits, "ref_bits.cpp", graphs, targets, cpp_reps, expect)
    t_cpp = t_cpp / len(graphs) if t_cpp is not None else None
    t_bits = t_bits / len(graphs) if t_bits is not None else None
    table = Table(f"small: {len(graphs)} random graphs, 3..50 nodes, solve(lists)",
                  ["engine", "us/solve", "Mpos/s", "vs C++", "vs C++ bits", "speedup vs twin",
                   "vs textbook"])
    rows = [("catmouse.solve(lists)", t_api), ("Graph(lists) alone", t_graph),
            ("pure twin solve(lists)", t_twin), ("textbook Python (full)", t_book)]
    if args.seed_file:
        seed = load_seed_solution(args.seed_file)
        assert [seed(g) for g in graphs] == expect, "seed code disagrees"
        rows.append(("seed 004 Python (local)",
                     best_time(lambda: [seed(g) for g in graphs], twin_reps) / len(graphs)))
    rows.append(("C++ -O2 reference", t_cpp))
    rows.append(("C++ -O2 bit-parallel reference", t_bits))
    for name, t in rows:
        table.add(name, fmt(t * 1e6 if t is not None else None),
                  fmt(positions / len(graphs) / t / 1e6 if t else None),
                  ratio(t, t_cpp), ratio(t, t_bits),
                  fmt(t_twin / t if t else None, ".1f", "x"),
                  fmt(t_book / t if t else None, ".1f", "x"))
    table.note("solve(lists) builds no Graph: 'Graph(lists) alone' is not part of its time")
    return table


def bench_dense50(args: argparse.Namespace, refs: References) -> Table:
    rng = random.Random(50)
    graphs = [random_graph(rng, 50, 0.5) for _ in range(args.dense50)]
    targets = [len(g) + 2 for g in graphs]
    expect = [int(catmouse.solve(g)) for g in graphs]

    def api() -> None:
        for g in graphs:
            catmouse.solve(g)

    cpp_reps = max(args.reps, 20)
    per = len(graphs)
    t_api = best_time(api, args.reps) / per
    t_cpp = checked_time(refs.plain, "ref.cpp", graphs, targets, cpp_reps, expect)
    t_bits = checked_time(refs.bits, "ref_bits.cpp", graphs, targets, cpp_reps, expect)
    versus = {"C++": t_cpp / per if t_cpp is not None else None,
              "C++ bits": t_bits / per if t_bits is not None else None}
    table = Table(f"dense50: {per} random graphs of 50 nodes, p = 0.5, solve(lists)",
                  ["engine", "us/solve", "Mpos/s", "vs C++", "vs C++ bits"])
    per_solve_rows(table, [("catmouse.solve(lists)", t_api),
                           ("C++ -O2 reference", versus["C++"]),
                           ("C++ -O2 bit-parallel reference", versus["C++ bits"])],
                   2 * 50 * 50, versus)
    return table


def bench_twin(args: argparse.Namespace, refs: References) -> Table:
    rng = random.Random(5050)
    # G(n, p) with average degree 4; random_graph gives every node a move off the hole,
    # where the textbook code and catmouse agree (see the README's rules).
    graphs = [random_graph(rng, 50, 4 / 49) for _ in range(args.twin)]
    expect = [int(catmouse.solve(g)) for g in graphs]
    reps = max(1, args.reps // 2)

    def api() -> None:
        for g in graphs:
            catmouse.solve(g)

    t_api = best_time(api, args.reps) / len(graphs)
    with use_twin():
        assert [int(catmouse.solve(g)) for g in graphs] == expect, "twin disagrees"
        t_twin = best_time(api, reps) / len(graphs)
    assert [textbook_solve(g) for g in graphs] == expect, "textbook disagrees"
    t_book = best_time(lambda: [textbook_solve(g) for g in graphs], reps) / len(graphs)
    table = Table(f"twin: {len(graphs)} random sparse graphs of 50 nodes (average degree 4), "
                  "solve(lists)", ["engine", "us/solve", "vs textbook", "vs twin"])
    for name, t in (("pure twin solve(lists)", t_twin), ("textbook Python (full)", t_book),
                    ("compiled catmouse.solve(lists)", t_api)):
        table.add(name, fmt(t * 1e6), fmt(t / t_book, ".3f", "x"), fmt(t / t_twin, ".3f", "x"))
    table.note(f"the pure twin is {t_book / t_twin:.2f}x faster than the textbook solution")
    return table


def bench_hot(args: argparse.Namespace, refs: References) -> Table:
    adjacency = small_family(args.small)
    graphs = [Graph(g) for g in adjacency]
    solve = catmouse.solve
    for g in graphs:  # warm per-graph caches, as a hot loop would
        solve(g)

    def api() -> None:
        for g in graphs:
            solve(g)

    t_api = best_time(api, args.reps) / len(graphs)
    engines = [raw_engine(g, g.n + 2) for g in graphs]
    t_raw = best_time(lambda: [e() for e in engines], args.reps) / len(graphs)
    t_one = best_time(lambda: catmouse.solve_many(graphs, threads=1), args.reps) / len(graphs)
    t_engine = min(t_raw, t_one)
    batch = graphs * args.batch
    wall = time.perf_counter
    t1 = best_time(lambda: catmouse.solve_many(batch, threads=1), args.reps, wall)
    tn = best_time(lambda: catmouse.solve_many(batch, threads=None), args.reps, wall)
    targets = [len(g) + 2 for g in adjacency]
    t_cpp = checked_time(refs.plain, "ref.cpp", adjacency, targets, max(args.reps, 20))
    t_cpp = t_cpp / len(graphs) if t_cpp is not None else None
    # The Python-side cost, on a graph whose solve is almost free: solve(graph)
    # against the engine solving the same position inside one C loop.
    tiny = Graph(TINY)
    calls = 2000 if args.quick else 20000
    solve(tiny)
    t_tiny = best_time(lambda: [solve(tiny) for _ in range(calls)], args.reps) / calls
    compiled = selector.current if selector.current.name == "cython" else None
    if compiled is not None:
        boards = [_solving._board(tiny, 0)] * calls
        t_tiny_engine = best_time(lambda: compiled.solve_boards(boards, 1, 2), args.reps) / calls
    else:
        engine = raw_engine(tiny, tiny.n + 2)
        t_tiny_engine = best_time(lambda: [engine() for _ in range(calls)], args.reps) / calls
    # A share of a call is never more than the call: timed apart, the engine alone can come
    # out slower than the whole call by noise, and "solve = engine + Python" would show a
    # negative Python cost; the shares are capped so that the rows add up.
    t_tiny_engine = min(t_tiny_engine, t_tiny)
    t_engine = min(t_engine, t_api)
    table = Table(f"hot: the same {len(graphs)} graphs prebuilt as Graph",
                  ["measure", "value"])
    table.add("4-node graph: solve(graph) us/call", fmt(t_tiny * 1e6, ".3f"))
    table.add("4-node graph: of which the engine us/solve (C loop, or raw propagate)",
              fmt(t_tiny_engine * 1e6, ".3f"))
    table.add("4-node graph: of which Python us/call",
              fmt((t_tiny - t_tiny_engine) * 1e6, ".3f"))
    table.add("solve(graph) us/call", fmt(t_api * 1e6))
    table.add("  of which the engine us/call (best of raw propagate, solve_many 1 thread)",
              fmt(t_engine * 1e6))
    table.add("  of which Python us/call (solve - engine)", fmt((t_api - t_engine) * 1e6))
    table.add("solve(graph) vs C++ per solve", ratio(t_api, t_cpp))
    table.add(f"solve_many {len(batch)} graphs, threads=1: graphs/s", fmt(len(batch) / t1, ".0f"))
    table.add(f"solve_many threads=None ({os.cpu_count()} CPUs): graphs/s",
              fmt(len(batch) / tn, ".0f"))
    table.add("solve_many speedup threads=None / threads=1", fmt(t1 / tn, ".2f", "x"))
    return table


def full_solve(graph: Graph) -> Callable[[], Any]:
    """Decide every position (no early stop), outcome table only."""
    rules = classic_rules(graph, 0)
    outcome = bytearray(2 * graph.n ** 2)
    return lambda: rules.run(outcome)


def bench_big(args: argparse.Namespace, refs: References) -> Table:
    table = Table("big graphs (time: best of repeats; memory: peak bytes/position in a "
                  "fresh process)",
                  ["graph / call", "ms", "Mpos/s", "vs C++", "vs C++ bits", "bytes/pos"])
    no_outcomes_only = unsupported(lambda g: catmouse.analyze(g, remoteness=False))
    if one_thread():
        table.note("catmouse runs with threads=1 here, like the C++ (see 'threads' for more)")
    if no_outcomes_only:
        table.note(f"analyze(remoteness=False) {no_outcomes_only}")
    for name, make in big_family().items():
        if args.quick and name.startswith("dense"):
            continue
        adjacency = make()
        graph = Graph(adjacency)
        n = graph.n
        positions = 2 * n * n
        reps = args.big_reps
        single = one_thread()
        expect = [int(catmouse.solve(graph, **single))]
        cpp = checked_time(refs.plain, "ref.cpp", [adjacency], [n + 2], reps, expect)
        cpp_full = checked_time(refs.plain, "ref.cpp", [adjacency], [-1], reps)
        bits = checked_time(refs.bits, "ref_bits.cpp", [adjacency], [n + 2], reps, expect)
        bits_full = checked_time(refs.bits, "ref_bits.cpp", [adjacency], [-1], reps)
        # (label, seconds or None for n/a, plain C++ and bit-parallel C++ seconds to compare
        # with, memory kind to measure)
        rows: list[tuple[str, float | None, float | None, float | None, str | None]] = [
            ("catmouse.solve(graph)", best_time(lambda: catmouse.solve(graph, **single), reps),
             cpp, bits, "solve"),
            ("full outcome table", best_time(full_solve(graph), reps), cpp_full, bits_full,
             None),
            ("analyze(remoteness=False)",
             None if no_outcomes_only else best_time(
                 lambda: catmouse.analyze(graph, remoteness=False, **single), reps),
             cpp_full, bits_full, None if no_outcomes_only else "outcomes"),
            ("analyze (+ remoteness)",
             best_time(lambda: catmouse.analyze(graph, **single), reps),
             cpp_full, bits_full, "analyze"),
        ]
        if cpp is not None:
            rows.append(("C++ solve (early stop)", cpp, cpp, bits, None))
            rows.append(("C++ full table", cpp_full, cpp_full, bits_full, "cpp"))
        if bits is not None:
            rows.append(("C++ bits solve (early stop)", bits, cpp, bits, None))
            rows.append(("C++ bits full table", bits_full, cpp_full, bits_full, "cpp-bits"))
        table.add(f"{name} ({positions / 1e6:.1f}M positions)", "", "", "", "", "")
        for label, t, versus, versus_bits, memory in rows:
            if t is None:
                table.add("  " + label, "n/a", "n/a", "n/a", "n/a", "n/a")
                continue
            per_pos = measure_memory(name, memory) if memory and args.memory else None
            table.add("  " + label, fmt(t * 1e3, ".1f"), fmt(positions / t / 1e6, ".1f"),
                      ratio(t, versus), ratio(t, versus_bits), fmt(per_pos, ".2f"))
    return table


def bench_threads(args: argparse.Namespace, refs: References) -> Table:
    name = "sparse n=3000 deg 4"
    graph = Graph(big_family()[name]())
    reps = args.big_reps
    wall = time.perf_counter
    # 25 pairs: on a VM whose vCPUs ran at a median of 0.57 of their best speed (a Python
    # loop: best 72 ms, median 126), best-of-7 speedups of one build gave 1.30 and 1.80.
    calls = max(reps, 25)
    table = Table(f"threads: analyze(graph, threads=k), {name}, wall time (best of {calls})",
                  ["call", "ms", "speedup vs threads=1"])
    why = unsupported(lambda g: catmouse.analyze(g, threads=1))
    if why:
        table.add("analyze(graph, threads=1)", "n/a", "n/a")
        table.add("analyze(graph, threads=2)", "n/a", "n/a")
        table.note(f"threads= {why}")
        return table
    one = catmouse.analyze(graph, threads=1)
    two = catmouse.analyze(graph, threads=2)
    assert bytes(one.outcomes) == bytes(two.outcomes), "threads=2 disagrees with threads=1"
    del one, two
    start_capacity, start_pingpong = capacity(), pingpong()
    # In pairs, one call of each count after the other (the order alternating), so that both
    # see the same machine: a VM's host may move its vCPUs between cores that share a cache
    # and cores that do not, and threads that read each other's rows lose most of their gain
    # on the latter.
    pairs = timed_pairs(lambda: catmouse.analyze(graph, threads=1),
                        lambda: catmouse.analyze(graph, threads=2), calls, wall)
    t1 = min(one for one, _ in pairs)
    t2 = min(two for _, two in pairs)
    gains = [one / two for one, two in pairs]
    low, middle, high = quartiles(gains)
    table.add("analyze(graph, threads=1)", fmt(t1 * 1e3, ".1f"), "1.00x")
    table.add("analyze(graph, threads=2)", fmt(t2 * 1e3, ".1f"), fmt(t1 / t2, ".2f", "x"))
    table.add("the pairs' median", "", fmt(middle, ".2f", "x"))
    table.note(f"{os.cpu_count()} CPUs; wall time, so other load on the machine shows here")
    table.note(f"{calls} calls each, in pairs; the pairs' own speedups: "
               f"{min(gains):.2f}x to {max(gains):.2f}x, quartiles {low:.2f}x and {high:.2f}x")
    table.note(f"capacity (two spinning processes' throughput / one's): {start_capacity:.2f} "
               f"before the pairs, {capacity():.2f} after")
    table.note(f"ping-pong round trip between CPUs 0 and 1 (benchmarks/pingpong.c): before the "
               f"pairs {start_pingpong}; after {pingpong()}")
    return table


def bench_batch(args: argparse.Namespace, refs: References) -> Table:
    """solve_many over LeetCode-size graphs: lists and Graphs, 1 and 2 threads, the default,
    and a loop of solve() (wall time: threads are the point)."""
    count = 2000 if args.quick else 20000
    rng = random.Random(913)
    lists = [random_graph(rng, rng.randint(3, 50), rng.choice([0.1, 0.2, 0.4]))
             for _ in range(count)]
    dense = [random_graph(rng, 50, 0.5) for _ in range(201)]
    reps = max(3, args.big_reps)
    wall = time.perf_counter
    table = Table(f"batches: solve_many, {count} graphs of 3 to 50 nodes, wall time "
                  f"(best of {reps})", ["call", "ms", "vs threads=1", "vs the loop"])
    graphs = [Graph(g) for g in lists]
    catmouse.solve_many(graphs)  # each Graph caches its board, as a hot loop would
    start_capacity = capacity()
    expected = [catmouse.solve(g) for g in lists]
    for name, batch in (("lists", lists), ("Graphs", graphs), ("dense lists", dense)):
        if name == "dense lists":
            expected = [catmouse.solve(g) for g in dense]
        assert catmouse.solve_many(batch, threads=2) == expected, name
        loop = best_time(lambda: [catmouse.solve(g) for g in batch], reps, wall)
        one = best_time(lambda: catmouse.solve_many(batch, threads=1), reps, wall)
        two = best_time(lambda: catmouse.solve_many(batch, threads=2), reps, wall)
        default = best_time(lambda: catmouse.solve_many(batch), reps, wall)
        table.add(f"{name}: loop of solve", fmt(loop * 1e3, ".1f"), "", "1.00x")
        table.add(f"{name}: threads=1", fmt(one * 1e3, ".1f"), "1.00x", ratio(loop, one))
        table.add(f"{name}: threads=2", fmt(two * 1e3, ".1f"), ratio(one, two), ratio(loop, two))
        table.add(f"{name}: default", fmt(default * 1e3, ".1f"), ratio(one, default),
                  ratio(loop, default))
    # Small batches: the default must never lose to a loop (it should stay on one thread).
    for size in (16, 64, 256):
        batch = lists[:size]
        times = max(1, 2000 // size)
        small_reps = max(5, args.reps)
        loop = _per_call(lambda: [catmouse.solve(g) for g in batch], times, small_reps)
        default = _per_call(lambda: catmouse.solve_many(batch), times, small_reps)
        table.add(f"{size} lists: loop of solve", fmt(loop * 1e3, ".3f"), "", "1.00x")
        table.add(f"{size} lists: default", fmt(default * 1e3, ".3f"), "",
                  ratio(loop, default))
    table.note("ratios are speedups (time of the reference / time of the row); "
               f"{os.cpu_count()} CPUs, wall time, so other load on the machine shows here")
    table.note(f"capacity (two spinning processes' throughput / one's): {start_capacity:.2f} "
               f"before the batches, {capacity():.2f} after")
    return table


def bench_scaling(args: argparse.Namespace, refs: References) -> Table:
    sizes = ([10, 50, 200, 500, 1000, 2000] if args.quick
             else [10, 20, 50, 100, 200, 500, 1000, 2000, 3500, 5000])
    table = Table("scaling: full solve of random sparse graphs (average degree 4), threads=1",
                  ["n", "positions", "ms", "Mpos/s", "C++ Mpos/s", "vs C++", "C++ bits Mpos/s",
                   "vs C++ bits"])
    for n in sizes:
        adjacency = sparse_graph(random.Random(n), n)
        graph = Graph(adjacency)
        positions = 2 * n * n
        reps = 1 if n >= 3500 else args.big_reps
        # Small graphs are solved ``times`` times per timing, so a timing is not a clock tick.
        times = max(1, 2_000_000 // positions)
        t = _per_call(full_solve(graph), times, reps)
        t_cpp = checked_time(refs.plain, "ref.cpp", [adjacency] * times, [-1] * times, reps)
        t_bits = checked_time(refs.bits, "ref_bits.cpp", [adjacency] * times, [-1] * times,
                              reps)
        t_cpp = t_cpp / times if t_cpp else None
        t_bits = t_bits / times if t_bits else None
        table.add(str(n), f"{positions / 1e6:.4g}M", fmt(t * 1e3, ".3f" if t < 1e-2 else ".1f"),
                  fmt(positions / t / 1e6, ".1f"),
                  fmt(positions / t_cpp / 1e6 if t_cpp else None, ".1f"), ratio(t, t_cpp),
                  fmt(positions / t_bits / 1e6 if t_bits else None, ".1f"), ratio(t, t_bits))
    return table


def _per_call(run: Callable[[], Any], times: int, reps: int) -> float:
    """Best seconds of one call of ``run``, timed ``times`` calls at once.

    Each result is dropped before the next call, as the C++ references free their tables:
    kept in a list, every call's tables would be fresh pages, and the page faults (48 us of
    a 260 us outcomes-only call at n = 200 on a 2-vCPU VM) would swing with the heap's state.
    """
    def calls() -> None:
        for _ in range(times):
            run()

    if times == 1:
        return best_time(run, reps)
    return best_time(calls, reps) / times


def bench_outcomes(args: argparse.Namespace, refs: References) -> Table:
    """analyze with and without remoteness (threads=1) against the C++ full tables; "vs
    stronger" against the faster of the two bit-parallel references in this run."""
    table = Table("outcomes: analyze(graph, threads=1) with and without remoteness, against "
                  "the C++ references' full tables (thread CPU time, best of repeats)",
                  ["graph", "outcomes ms", "vs C++", "vs C++ bits", "vs C++ rows",
                   "vs stronger", "analyze ms", "vs C++", "vs C++ bits", "vs stronger",
                   "analyze / outcomes", "rows speedup over bits"])
    why = unsupported(lambda g: catmouse.analyze(g, remoteness=False, threads=1))
    if why:
        table.note(f"analyze(remoteness=False, threads=1) {why}")
        return table
    graphs = {f"sparse n={n} deg 4": (lambda n=n: sparse_graph(random.Random(n), n))
              for n in ([200, 1000] if args.quick else [200, 1000, 3000])}
    graphs["grid 60x60"] = big_family()["grid 60x60"]
    stronger_names = []
    for name, make in graphs.items():
        adjacency = make()
        graph = Graph(adjacency)
        n = graph.n
        times = max(1, 2_000_000 // (2 * n * n))
        reps = args.big_reps if n >= 1000 else args.reps
        full = [-1] * times
        table_bytes = bytes(catmouse.analyze(graph, remoteness=False, threads=1).outcomes)
        decided = [table_bytes.count(1) + table_bytes.count(2)] * times
        t_cpp = checked_time(refs.plain, "ref.cpp", [adjacency] * times, full, reps, decided)
        t_bits = checked_time(refs.bits, "ref_bits.cpp", [adjacency] * times, full, reps,
                              decided)
        t_rows = checked_time(refs.rows, "ref_rows.cpp", [adjacency] * times, full, reps,
                              decided)
        t_cpp = t_cpp / times if t_cpp else None
        t_bits = t_bits / times if t_bits else None
        t_rows = t_rows / times if t_rows else None
        timed = [(t, label) for t, label in ((t_bits, "bits"), (t_rows, "rows")) if t]
        t_strong, strong = min(timed) if timed else (None, "-")
        stronger_names.append(f"{name}: {strong}")
        outcomes = _per_call(lambda: catmouse.analyze(graph, remoteness=False, threads=1),
                             times, reps)
        full_analyze = _per_call(lambda: catmouse.analyze(graph, threads=1), times, reps)
        table.add(name, fmt(outcomes * 1e3, ".2f"), ratio(outcomes, t_cpp),
                  ratio(outcomes, t_bits), ratio(outcomes, t_rows), ratio(outcomes, t_strong),
                  fmt(full_analyze * 1e3, ".2f"), ratio(full_analyze, t_cpp),
                  ratio(full_analyze, t_bits), ratio(full_analyze, t_strong),
                  ratio(full_analyze, outcomes), ratio(t_bits, t_rows))
    table.note("a ratio is a cost: our time / the reference's (below 1.00x: faster); "
               "'rows speedup over bits' is ref_bits.cpp's time / ref_rows.cpp's")
    table.note("the stronger bit-parallel reference, per graph: " + "; ".join(stronger_names))
    return table


HUGE_NODES = 40000


def child_huge() -> None:
    """In a fresh process: one solve of the huge graph; print seconds, peak and base RSS."""
    graph = Graph(sparse_graph(random.Random(HUGE_NODES), HUGE_NODES))
    catmouse.solve(Graph(TINY))  # warm every lazy import
    before = _reset_peak() if os.path.exists("/proc/self/clear_refs") else 0
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    outcome = catmouse.solve(graph)
    wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    peak = _status("VmHWM") if before else 0
    print(int(outcome), wall, cpu, peak, before)


def bench_huge(args: argparse.Namespace, refs: References) -> Table:
    n = HUGE_NODES
    positions = 2 * n * n
    table = Table(f"huge: one solve of a random sparse graph, n = {n} ({positions / 1e9:.1f}G "
                  "positions), in a fresh process", ["measure", "value"])
    out = _run_child("--child-huge")
    if not out:
        table.add("solve(graph)", "n/a")
        table.note("the solve failed (see the note above): over the node limit or out of memory")
        return table
    outcome, wall, cpu, peak, before = out[-5:]
    table.add("outcome", catmouse.Outcome(int(outcome)).name)
    table.add("wall time s", fmt(float(wall), ".2f"))
    table.add("process CPU time s", fmt(float(cpu), ".2f"))
    if int(before):
        table.add("peak RSS of the process GiB", fmt(int(peak) / 2**30, ".2f"))
        table.add("peak above the graph, bytes/position",
                  fmt((int(peak) - int(before)) / positions, ".3f"))
    return table


def bench_graph_first_solve(args: argparse.Namespace, refs: References) -> Table:
    """solve(lists) against the first and the second solve of a new Graph, per graph."""
    rng = random.Random(35)
    lists = [random_graph(rng, rng.randint(3, 30), rng.uniform(0.05, 0.8))
             for _ in range(FIRST_SOLVE_GRAPHS)]
    solve, clock = catmouse.solve, time.thread_time
    best = {"lists": float("inf"), "build": float("inf"), "first": float("inf"),
            "second": float("inf")}
    for _ in range(args.reps):  # fresh Graphs each time: a first solve happens once per Graph
        t_lists = best_time(lambda: [solve(g) for g in lists], 1)
        start = clock()
        graphs = [Graph(g) for g in lists]
        t_build = clock() - start
        t_first = best_time(lambda: [solve(g) for g in graphs], 1)
        t_second = best_time(lambda: [solve(g) for g in graphs], 1)
        for key, t in (("lists", t_lists), ("build", t_build), ("first", t_first),
                       ("second", t_second)):
            best[key] = min(best[key], t / len(lists))
    table = Table(f"graph-first-solve: {len(lists)} different random graphs of 3 to 30 nodes",
                  ["measure", "us/graph", "vs solve(lists)"])
    table.add("solve(lists)", fmt(best["lists"] * 1e6), "1.00x")
    table.add("Graph(lists) (not in the solves)", fmt(best["build"] * 1e6),
              fmt(best["build"] / best["lists"], ".2f", "x"))
    table.add("first solve(graph) (goal: at most 1.5x)", fmt(best["first"] * 1e6),
              fmt(best["first"] / best["lists"], ".2f", "x"))
    table.add("second solve(graph)", fmt(best["second"] * 1e6),
              fmt(best["second"] / best["lists"], ".2f", "x"))
    table.note(f"best of {args.reps} runs, thread CPU time, fresh Graphs each run")
    return table


# One run of the graph-first-solve family: this many different graphs.
FIRST_SOLVE_GRAPHS = 5000

FAMILIES = {"small": bench_small, "hot": bench_hot, "dense50": bench_dense50,
            "twin": bench_twin, "big": bench_big, "threads": bench_threads,
            "scaling": bench_scaling, "batch": bench_batch, "outcomes": bench_outcomes,
            "write": bench_write, "graph-first-solve": bench_graph_first_solve,
            "contended": bench_contended, "bytes": bench_bytes}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its tables; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python benchmarks/bench.py",
        description="Time catmouse against C++ references, its pure-Python twin and "
                    "textbook Python.")
    parser.add_argument("--quick", action="store_true", help="a smaller run (under a minute)")
    parser.add_argument("--families", default=",".join(FAMILIES),
                        help=f"comma-separated subset of {','.join(FAMILIES)}")
    parser.add_argument("--huge", action="store_true",
                        help=f"also solve a {HUGE_NODES}-node sparse graph once (minutes, "
                             "gigabytes); not with --quick")
    parser.add_argument("--huge-nodes", type=int, default=None, metavar="N",
                        help="bytes family: also analyze a sparse N-node graph in a fresh "
                             "process (e.g. 60000: minutes, tens of GB)")
    parser.add_argument("--small", type=int, default=None, help="how many small graphs")
    parser.add_argument("--reps", type=int, default=None, help="repeats (best is kept)")
    parser.add_argument("--no-memory", dest="memory", action="store_false",
                        help="skip the peak-memory subprocesses")
    parser.add_argument("--seed-file", default=None,
                        help="also time the Python code of a seed write-up (local only)")
    parser.add_argument("--child-memory", nargs=2, metavar=("GRAPH", "CALL"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--child-huge", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child-contended", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_contended:
        wait_for_go()
        child_contended(args.quick)
        return 0
    if args.child_memory:
        child_memory(*args.child_memory)
        return 0
    if args.child_huge:
        child_huge()
        return 0
    if args.huge and args.quick:
        parser.error("--huge is a long run: not with --quick")
    if args.small is None:
        args.small = 100 if args.quick else 300
    if args.reps is None:
        args.reps = 3 if args.quick else 7
    args.big_reps = 1 if args.quick else 3
    args.batch = 5 if args.quick else 20
    args.dense50 = 30 if args.quick else 100
    args.twin = 10 if args.quick else 30
    families = [f.strip() for f in args.families.split(",") if f.strip()]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        parser.error(f"unknown families: {', '.join(unknown)}")
    print(f"catmouse {catmouse.__version__} ({Path(catmouse.__file__).parent}), engine "
          f"{catmouse.BACKEND}, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"{_cpu_model()}")
    refs = References()
    runs = [FAMILIES[family] for family in families] + ([bench_huge] if args.huge else [])
    for run in runs:
        start = time.perf_counter()
        print(run(args, refs))
        print(f"({time.perf_counter() - start:.0f} s)\n", flush=True)
    return 0


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
