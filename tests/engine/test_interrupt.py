"""Ctrl-C: a long solve stops with KeyboardInterrupt at once and frees its tables.

A child process solves a 3000-node graph (18 million positions) on one engine;
the parent sends SIGINT while the engine runs and the child reports, on the
shared monotonic clock, when KeyboardInterrupt reached it, and its resident
memory after each interrupted solve.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import catmouse

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

NODES = 3000
ROUNDS = 4

CHILD = textwrap.dedent("""
    import importlib, os, random, signal, sys, time
    import catmouse
    # A process started with SIGINT ignored (a background job of a script, nohup) passes that
    # on, and Python then installs no KeyboardInterrupt handler: put Python's default back.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from catmouse import Graph
    from catmouse import engine as selector

    selector.current = selector.load({"catmouse.engine.bits_c": "cython",
                                 "catmouse.engine.bits_py": "python"}[sys.argv[1]])
    n = int(sys.argv[2])
    rng = random.Random(1)
    edges = set()
    while len(edges) < 2 * n:
        u, v = rng.sample(range(n), 2)
        edges.add((min(u, v), max(u, v)))
    graph = Graph.from_edges(n, sorted(edges))
    page = os.sysconf("SC_PAGE_SIZE")

    def rss():
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * page

    print("rss", rss(), flush=True)
    for round in range(int(sys.argv[3])):
        print("solving", flush=True)
        try:
            # One analyze may finish before the signal (the compiled engine takes well
            # under the parent's wait here): keep solving, boundedly, until it comes.
            for _ in range(200):
                catmouse.analyze(graph)
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
        else:
            print("finished", flush=True)
        print("rss", rss(), flush=True)
""")




def interrupted_solves(twin_name, rounds=ROUNDS, wait=0.5):
    """Run the child; return (latencies in s, rss before, rss after each round)."""
    root = str(Path(catmouse.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen([sys.executable, "-c", CHILD, twin_name, str(NODES), str(rounds)],
                             stdout=subprocess.PIPE, text=True, env=env)
    latencies, sizes = [], []
    try:
        for line in child.stdout:
            word, *rest = line.split()
            if word == "rss":
                sizes.append(int(rest[0]))
            elif word == "solving":
                time.sleep(wait)  # well inside the engine's run
                sent = time.monotonic()
                child.send_signal(signal.SIGINT)
            elif word == "interrupted":
                latencies.append(float(rest[0]) - sent)
            else:
                pytest.fail(f"the solve was not interrupted: {line!r}")
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
        child.wait()
    return latencies, sizes[0], sizes[1:]


def test_ctrl_c_stops_a_long_solve_and_frees_memory(engine):
    twin_name = engine.__name__
    latencies, before, after = interrupted_solves(twin_name)
    assert len(latencies) == ROUNDS
    # Generous for a loaded machine: the engine checks every 65536 positions.
    assert max(latencies) < 2.0, latencies
    # Each solve holds at least 5 bytes per position (outcome and remoteness);
    # memory not freed would grow the process by that much a round.  The
    # allocators may keep some after the first rounds, but never a table a round.
    table = 2 * NODES * NODES * 5
    assert after[-1] - before < table, (before, after)
    assert after[-1] - after[1] < table / 2, (before, after)
    print(f"\n{twin_name}: latency {[round(x * 1000, 1) for x in latencies]} ms, "
          f"rss {before >> 20} MiB before, {[x >> 20 for x in after]} MiB after each round")
