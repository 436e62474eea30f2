"""The general crew's pacing (engine/pace.pxi): threads only while they pay.

Whether threads pay is measured by the engine (CPU time of the shares against the wall time
of the phase); the tests force each verdict through the private test modes of ``_pace_test``
and check what must not change with it: the tables, the answers, the progress reports,
Ctrl-C, the helper threads left.  The pure twin runs one thread whatever it is asked; its
tables are the reference the compiled engine's forced fallbacks are checked against.
"""

from __future__ import annotations

import random
import sys
from array import array

import pytest
from engines import (
    NEVER_ALONE,
    STARVED,
    STARVED_LATER,
    STARVED_WRITING,
    interrupt_a_solving_child,
    os_threads,
    os_threads_back_to,
    pace_mode,
)
from oracle import CAT_FORBIDDEN, HOLE, csr, engine_args, planes_run

import catmouse
from catmouse import Graph
from catmouse.engine.planes import layer_bytes

bits_c = pytest.importorskip("catmouse.engine.bits_c")

def sparse_game(n, seed):
    """Directed moves of about three a node for each player, a few holes and cat bans."""
    rng = random.Random(seed)

    def moves():
        return [rng.sample(range(n), rng.randint(0, 5)) for _ in range(n)]

    flags = [rng.choice((0,) * 12 + (HOLE, HOLE | CAT_FORBIDDEN, CAT_FORBIDDEN))
             for _ in range(n)]
    return moves(), moves(), flags


def tables(engine, game, threads, target=-1, progress=None):
    mouse, cat, flags = game
    n = len(flags)
    outcome = bytearray(2 * n * n)
    rem = array("i", [0]) * (2 * n * n)
    if target >= 0:
        return engine.propagate(n, bytes(flags), *csr(mouse), *csr(cat), None, None, target,
                                threads=threads)
    decided = engine.propagate(n, bytes(flags), *csr(mouse), *csr(cat), outcome, rem,
                               threads=threads, progress=progress)
    return decided, bytes(outcome), rem.tobytes()


@pytest.mark.parametrize("n", [300, 1100])
def test_a_starved_crew_starts_again_alone_with_the_same_tables(engine, n):
    game = sparse_game(n, n)
    one = tables(engine, game, 1)
    with pace_mode(STARVED):
        assert tables(engine, game, 2) == one
        assert tables(engine, game, 3) == one
        if engine is bits_c:
            assert bits_c._pace_counts()[:3] == (1, 0, 0)  # started again on one thread


@pytest.mark.parametrize("n", [300, 1100])
def test_a_crew_switching_between_alone_and_threads_gives_the_same_tables(engine, n):
    game = sparse_game(n, n + 1)
    one = tables(engine, game, 1)
    with pace_mode(STARVED_LATER):
        assert tables(engine, game, 2) == one
        if engine is bits_c:
            restarts, fallbacks, tries, _ = bits_c._pace_counts()
            assert restarts == 0 and fallbacks >= 2 and tries >= 1
        assert tables(engine, game, 3) == one


@pytest.mark.parametrize("n", [150, 700])
def test_a_crew_starved_once_the_search_is_done_writes_the_same_tables(engine, n):
    # Too late to start again: the phases that write the tables go on alone.
    game = sparse_game(n, n + 2)
    one = tables(engine, game, 1)
    with pace_mode(STARVED_WRITING):
        assert tables(engine, game, 2) == one
        if engine is bits_c:
            restarts, fallbacks, _, _ = bits_c._pace_counts()
            assert restarts == 0 and fallbacks >= 1


def test_a_crew_that_never_falls_back_gives_the_same_tables(engine):
    game = sparse_game(400, 7)
    with pace_mode(NEVER_ALONE):
        assert tables(engine, game, 2) == tables(engine, game, 1)
        if engine is bits_c:
            assert bits_c._pace_counts()[:3] == (0, 0, 0)


@pytest.mark.parametrize("n, threads", [(130, 2), (600, 2), (1100, 2), (2100, 2), (2100, 3)])
def test_threads_splitting_the_rows_by_blocks_give_one_threads_tables(n, threads):
    # With threads, each step's rows are computed by the thread that owns their block, a
    # contiguous range each (tables.pxi, owner_of), and its new bits go into the other
    # orientation's rows at its own blocks' words: 3 blocks on 2 threads (130 nodes), 10
    # (600), 18 (1100) and 33 (2100, on 2 and 3 threads), so a range ends inside a group of
    # four words and a cache line that both threads write.  The crew keeps its threads
    # whatever this machine's load.
    game = sparse_game(n, n + 5)
    one = tables(bits_c, game, 1)
    with pace_mode(NEVER_ALONE):
        assert tables(bits_c, game, threads) == one
        assert bits_c._pace_counts()[:3] == (0, 0, 0)


def planes_tables(game, threads, fill):
    """(decided, outcome, layers) of planes mode, the buffers filled with ``fill`` first."""
    return planes_run(bits_c, engine_args(*game), threads=threads, fill=fill,
                      outcome_fill=fill)


@pytest.mark.parametrize("threads", [2, 3])
def test_the_threads_clear_every_chunk_of_a_filled_planes_buffer(threads):
    # Each thread starts its seeding by clearing its 2 MB chunks of layer 0 (tables.pxi,
    # first_touch, chunks dealt in turn): 1,500 nodes make a layer of 4.6 MB, three chunks.
    # The buffers come filled, so a chunk left uncleared would show in the planes.
    game = sparse_game(1500, 1505)
    assert layer_bytes(1500) > 2 * 2**21
    one = planes_tables(game, 1, 0x00)
    with pace_mode(NEVER_ALONE):
        assert planes_tables(game, threads, 0xA5) == one
        assert bits_c._pace_counts()[:3] == (0, 0, 0)


@pytest.mark.parametrize("mode", [STARVED, STARVED_LATER])
def test_targets_are_the_same_whichever_way_the_crew_goes(engine, mode):
    game = sparse_game(300, 11)
    n = len(game[2])
    rng = random.Random(mode)
    targets = [rng.randrange(2 * n * n) for _ in range(8)]
    expected = [tables(engine, game, 1, target) for target in targets]
    with pace_mode(mode):
        assert [tables(engine, game, 2, target) for target in targets] == expected


@pytest.mark.parametrize("mode", [STARVED, STARVED_LATER])
def test_progress_never_goes_back_when_the_crew_starts_again(engine, mode):
    game = sparse_game(700, 3)
    seen = []
    with pace_mode(mode):
        decided, _, _ = tables(engine, game, 2, progress=seen.append)
    assert seen and seen[-1] == decided
    assert seen == sorted(seen)


def test_the_public_api_gives_the_same_analysis(use_engine):
    edges = {(u, u + 1) for u in range(1099)}
    edges |= {tuple(sorted((u, (u * 7 + 3) % 1100))) for u in range(1100)}
    graph = Graph.from_edges(1100, sorted(e for e in edges if e[0] != e[1]))
    one = catmouse.analyze(graph, threads=1)
    for mode in (STARVED, STARVED_LATER):
        with pace_mode(mode):
            other = catmouse.analyze(graph, threads=None)
            assert bytes(other.outcomes) == bytes(one.outcomes)
            assert other.remoteness_table == one.remoteness_table
            assert catmouse.solve(graph, threads=2) == catmouse.solve(graph, threads=1)


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="pace mode"):
        bits_c._pace_test(5)


def test_the_helpers_leave_after_a_restart_and_after_switching():
    before = os_threads()
    game = sparse_game(1100, 5)
    for mode in (STARVED, STARVED_LATER):
        with pace_mode(mode):
            tables(bits_c, game, 3)
    # (At most as many as before: a thread an earlier test left may end meanwhile.)
    assert os_threads_back_to(before) <= before


CTRL_C_CHILD = """
import random, signal, sys, threading, time
from array import array
from catmouse.engine import bits_c

signal.signal(signal.SIGINT, signal.default_int_handler)  # ignored if started in background
bits_c._pace_test(3)  # every other phase alone: the calling thread runs the helper's share too
n = int(sys.argv[1])
rng = random.Random(2)
rows = [sorted(set(rng.sample(range(n), 3))) for _ in range(n)]
indptr, indices = array("i", [0]), array("i")
for row in rows:
    indices.extend(row)
    indptr.append(len(indices))
flags = bytearray(n)
flags[0] = 3
outcome = bytearray(2 * n * n)
print("solving", flush=True)
try:
    while True:  # until interrupted
        bits_c.propagate(n, bytes(flags), *(indptr, indices) * 4, outcome, None, threads=2)
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), threading.active_count(), flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_crew_that_runs_shares_alone():
    word, delay, alive = interrupt_a_solving_child(CTRL_C_CHILD, "2000",
                                                   engine_file=bits_c.__file__)
    assert word == "interrupted"
    assert delay < 2.0  # generous for a loaded machine
    assert alive == 1


MS = 1_000_000


@pytest.mark.skipif(sys.platform == "win32", reason="no thread CPU clock: the crew keeps threads")
def test_the_policy_judges_windows_of_cpus_had():
    replay = bits_c._pace_replay
    # Two CPUs' worth on free cores: the threads stay.
    assert replay([(1 * MS, 2 * MS)] * 8) == ["threads"] * 8
    # Barely more than one CPU in the first 5 ms: start again alone (not before 5 ms).
    assert replay([(1 * MS, 11 * MS // 10)] * 8) == ["threads"] * 4 + ["restart"]
    # Later, the bar is one CPU (the shares alone cost more than one thread's own search).
    assert replay([(5 * MS, 9 * MS), (5 * MS, 55 * MS // 10)]) == ["threads", "threads"]
    # A good first window, then a busy machine: alone, and the threads again after 100 ms.
    phases = [(5 * MS, 9 * MS), (5 * MS, 4 * MS)] + [(10 * MS, 0)] * 10
    assert replay(phases) == ["threads", "alone"] + ["alone"] * 9 + ["threads"]
    # A try that fails (judged by the first window's bar) doubles the time alone before the
    # next; one that pays starts afresh.
    tries = [(5 * MS, 9 * MS), (5 * MS, 4 * MS)] + [(100 * MS, 0), (5 * MS, 55 * MS // 10)]
    tries += [(100 * MS, 0)] * 2 + [(5 * MS, 9 * MS), (5 * MS, 4 * MS), (100 * MS, 0)]
    assert replay(tries) == ["threads", "alone", "threads", "alone", "alone", "threads",
                             "threads", "alone", "threads"]
