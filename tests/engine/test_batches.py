"""The engines' batch path for plain lists: read once, solved by several threads.

``solve_lists_many`` must give, graph by graph, what ``solve_lists`` gives (255 where the
list path declines), for every thread count, on both twins, byte for byte; and stop at once
on Ctrl-C, with its helper threads joined.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from catmouse import engine as selector
from catmouse.engine import bits_py


def random_lists(rng: random.Random, n: int, p: float) -> list[list[int]]:
    rows: list[set[int]] = [set() for _ in range(n)]
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < p:
                rows[u].add(v)
                rows[v].add(u)
    return [sorted(row) for row in rows]


def mixed_batch(rng: random.Random, count: int) -> list:
    """Graphs of 3 to 70 nodes, with some items the list path must decline."""
    batch: list = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.03:
            batch.append([[1], []])  # a one-way edge
        elif roll < 0.05:
            batch.append("not a graph")
        elif roll < 0.07:
            batch.append([[1, 1], [0]])  # a neighbour listed twice
        else:
            batch.append(random_lists(rng, rng.randint(3, 70), rng.choice([0.1, 0.3, 0.6])))
    return batch


def expected_codes(batch: list, mouse: int, cat: int, hole: int) -> bytes:
    codes = bytearray()
    for g in batch:
        small = type(g) is list and len(g) <= 64
        code = bits_py.solve_lists(g, mouse, cat, hole) if small else -1
        codes.append(255 if code < 0 else code)
    return bytes(codes)


@pytest.mark.parametrize("threads", [1, 2, 3, 8])
def test_each_graph_gets_what_solve_lists_gives(engine, threads):
    rng = random.Random(913 + threads)
    batch = mixed_batch(rng, 700)  # several chunks of 64, a part-filled last one
    expected = expected_codes(batch, 1, 2, 0)
    assert bytes(engine.solve_lists_many(batch, 1, 2, 0, threads)) == expected
    # Other starts, one of them the hole (declined everywhere) and one past every graph.
    for mouse, cat, hole in ((2, 1, 0), (0, 2, 1), (1, 0, 0), (1, 2, 99)):
        got = engine.solve_lists_many(batch[:130], mouse, cat, hole, threads)
        assert bytes(got) == expected_codes(batch[:130], mouse, cat, hole)


def test_starts_that_are_no_plain_ints_decline_everything(engine):
    batch = [[[1], [0, 2], [1]]] * 3
    for mouse in (True, 1.0, 2**70, -1):
        assert bytes(engine.solve_lists_many(batch, mouse, 2, 0, 2)) == b"\xff" * 3
    assert bytes(engine.solve_lists_many([], 1, 2, 0, 4)) == b""


@pytest.mark.parametrize("threads", [0, -1, 2.0, "2", None, True])
def test_a_bad_thread_count_is_refused(engine, threads):
    with pytest.raises((TypeError, ValueError), match="threads"):
        engine.solve_lists_many([[[1], [0]]], 1, 2, 0, threads)


def test_the_batch_is_not_a_list(engine):
    with pytest.raises(TypeError):
        engine.solve_lists_many(([[1], [0]],), 1, 2, 0, 1)


# A child builds a batch (the setup below), then runs ``CALL`` until Ctrl-C; it prints how long
# the batch ran and how many threads outlived it (counted against its own start: an emulator
# such as qemu-user runs a thread of its own).
INTERRUPTED = r"""
import os, random, sys, threading, time
def tasks():
    # OS threads: the engine's helpers are C threads, which threading does not list.
    return len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 1
threads = int(sys.argv[1])
%(setup)s
before = tasks()
print("ready", flush=True)
start = time.monotonic()
try:
    %(call)s
    print("finished", time.monotonic() - start)
except KeyboardInterrupt:
    time.sleep(0.2)
    print("interrupted", time.monotonic() - start, tasks() - before,
          threading.active_count(), flush=True)
"""

# 64 nodes, two random neighbours each: about 5 us a solve. The child times a slice and sizes
# the batch to last about 30 s on one thread, so a faster machine or engine cannot finish it
# before the Ctrl-C (a fixed 2,000,000 once ran out in 1.35 s on two threads).
SMALL_LISTS = """
import time
from catmouse.engine import bits_c
rng = random.Random(3)
rows = [set() for _ in range(64)]
for u in range(64):
    for v in rng.sample(range(64), 2):
        if v != u:
            rows[u].add(v)
            rows[v].add(u)
graph = [sorted(row) for row in rows]
clock = time.monotonic()
bits_c.solve_lists_many([graph] * 20_000, 1, 2, 0, 1)
each = max((time.monotonic() - clock) / 20_000, 1e-7)
batch = [graph] * min(8_000_000, max(400_000, int(30 / each)))
"""


BIG_GRAPHS = """
import catmouse
rng = random.Random(7)
n = 2500
rows = [set() for _ in range(n)]
for u in range(n):
    for v in rng.sample(range(n), 3):
        if v != u:
            rows[u].add(v)
            rows[v].add(u)
graph = catmouse.Graph([sorted(row) for row in rows])
batch = [graph] * 4000  # about 100 s on one thread, 60 s on two: far past the Ctrl-C
"""


def interrupted(setup: str, call: str, threads: int, env: dict | None = None) -> None:
    """Run the child, Ctrl-C it inside its batch; it must stop at once, every helper thread
    joined.

    "At once" is well under a second on a quiet machine; the bound of 5 s leaves room for a
    loaded or emulated one (1.6 s was seen at a load of 8 on two cores) and is still far
    below the batch's own length, so a batch that ran on to its end would fail."""
    script = INTERRUPTED.replace("%(setup)s", setup).replace("%(call)s", call)
    child = subprocess.Popen([sys.executable, "-c", script, str(threads)],
                             stdout=subprocess.PIPE, text=True, env=env)
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.5)  # well inside the batch (it takes many seconds)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=120)
    stopped = time.monotonic() - sent
    words = out.split()
    assert words[0] == "interrupted", out
    assert words[2:] == ["0", "1"], "a helper thread outlived the batch"
    assert stopped < 5.0, f"stopped {stopped:.2f} s after Ctrl-C"


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_long_batch_at_once(compiled_engine, threads):
    interrupted(SMALL_LISTS, "bits_c.solve_lists_many(batch, 1, 2, 0, threads)", threads)


# The same graph as a Graph, its board cached by a first call: solve_many's hot loop.
SMALL_GRAPHS = SMALL_LISTS + """
import catmouse
batch = [catmouse.Graph(graph)] * len(batch)
catmouse.solve_many(batch[:1])
"""


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_long_batch_of_small_graphs_at_once(compiled_engine, threads):
    # One thread: each board is solved in turn with the GIL held; two: a crew.
    interrupted(SMALL_GRAPHS, "catmouse.solve_many(batch, threads=threads)", threads)


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_batch_of_big_graphs_within_a_second(use_engine, threads):
    """solve_many of 4000 graphs of 2500 nodes stops on Ctrl-C within a second, joined."""
    env = dict(os.environ)
    if selector.current.name == "python":
        env["CATMOUSE_NO_EXTENSIONS"], env["CATMOUSE_REQUIRE_EXTENSIONS"] = "1", "0"
    interrupted(BIG_GRAPHS, "catmouse.solve_many(batch, threads=threads)", threads, env)


@pytest.mark.parametrize("change", ["clear", "delete half", "replace"])
@pytest.mark.parametrize("as_graphs", [False, True])
def test_solve_many_solves_the_batch_it_was_given_whatever_the_callback_does(
        use_engine, change, as_graphs):
    # The progress callback empties, shortens or rewrites the caller's own list mid-batch:
    # the answers are still one Outcome per graph given, each the graph's own.
    import catmouse
    rng = random.Random(913)
    lists = [random_lists(rng, rng.randrange(3, 12), 0.4) for _ in range(60)]
    for g in lists:
        for u, row in enumerate(g):
            if not row:  # no isolated node: every list is a valid graph
                v = (u + 1) % len(g)
                row.append(v)
                g[v].append(u)
                g[v].sort()
    graphs = [catmouse.Graph(g) for g in lists] if as_graphs else [list(g) for g in lists]
    expected = [catmouse.solve(g) for g in graphs]
    given = list(graphs)

    def meddle(done: int) -> None:
        if change == "clear":
            given.clear()
        elif change == "delete half":
            del given[: len(given) // 2]
        else:
            given[:] = [[[1], [0]]] * len(given)

    assert catmouse.solve_many(given, progress=meddle) == expected
