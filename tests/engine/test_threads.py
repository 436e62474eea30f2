"""Threads: shared Graph objects solved from many threads give one thread's answers."""

from __future__ import annotations

import contextlib
import random
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from engines import on_engine

import catmouse
from catmouse import Graph, Turn

THREADS = 8


@contextlib.contextmanager
def threaded_on_engine(engine):
    """The public API on ``engine``, switching threads often so pure-Python threads interleave."""
    with on_engine(engine):
        interval = sys.getswitchinterval()
        sys.setswitchinterval(1e-5)
        try:
            yield
        finally:
            sys.setswitchinterval(interval)


def random_graphs(count, n, seed):
    rng = random.Random(seed)
    graphs = []
    for _ in range(count):
        edges = set()
        while len(edges) < 2 * n:
            u, v = rng.sample(range(n), 2)
            edges.add((min(u, v), max(u, v)))
        graphs.append(Graph.from_edges(n, sorted(edges)))
    return graphs


def jobs(graphs, count, seed):
    """(graph index, mouse, cat, hole) start positions, all valid."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        k = rng.randrange(len(graphs))
        hole, mouse, cat = rng.sample(range(graphs[k].n), 3)
        out.append((k, mouse, cat, hole))
    return out


def module_state():
    """Every catmouse module's globals, by identity: a solve must change none."""
    return {name: {key: id(value) for key, value in vars(module).items()}
            for name, module in sys.modules.items() if name.startswith("catmouse")}


def test_many_threads_same_answers(engine):
    per_thread = 200
    graphs = random_graphs(6, 24, seed=1)
    work = jobs(graphs, THREADS * per_thread, seed=2)
    with threaded_on_engine(engine):
        expected = [catmouse.solve(graphs[k], mouse=m, cat=c, hole=h) for k, m, c, h in work]
        analyses = [catmouse.analyze(g, hole=0) for g in graphs]
        state = module_state()
        barrier = threading.Barrier(THREADS)

        def worker(i):
            barrier.wait()
            mine = work[i::THREADS]
            answers = [catmouse.solve(graphs[k], mouse=m, cat=c, hole=h) for k, m, c, h in mine]
            # Analyses too, on the same shared graphs, compared table for table.
            tables = [catmouse.analyze(graphs[(i + j) % len(graphs)], hole=0)
                      for j in range(2)]
            return answers, tables

        with ThreadPoolExecutor(THREADS) as pool:
            results = list(pool.map(worker, range(THREADS)))
        assert module_state() == state
    for i, (answers, tables) in enumerate(results):
        assert answers == expected[i::THREADS]
        for j, table in enumerate(tables):
            single = analyses[(i + j) % len(graphs)]
            assert table.outcomes.tobytes() == single.outcomes.tobytes()
            assert table.remoteness_table.tobytes() == single.remoteness_table.tobytes()


def test_concurrent_first_use_of_a_graph(engine):
    """Fresh graphs hit Graph._cache (rules, neighbour rows) from all threads at once."""
    with threaded_on_engine(engine):
        for round_ in range(5):
            graph = random_graphs(1, 20, seed=10 + round_)[0]
            reference = Graph(graph.adjacency())
            expected = catmouse.analyze(reference, hole=3)
            barrier = threading.Barrier(THREADS)

            def first_use(_, graph=graph, barrier=barrier):
                barrier.wait()
                analysis = catmouse.analyze(graph, hole=3)
                return (analysis.outcomes.tobytes(), analysis.best_moves(5, 6, Turn.MOUSE),
                        graph._rows())

            with ThreadPoolExecutor(THREADS) as pool:
                results = list(pool.map(first_use, range(THREADS)))
            for outcomes, best, rows in results:
                assert outcomes == expected.outcomes.tobytes()
                assert best == expected.best_moves(5, 6, Turn.MOUSE)
                assert rows == reference._rows()
            # One cache entry per key, whichever thread's value won.
            assert set(graph._cache) == {"rows", ("classic", 3)}


def test_solve_many_matches_serial(engine):
    graphs = random_graphs(16, 20, seed=4)
    with threaded_on_engine(engine):
        assert catmouse.solve_many(graphs, threads=4) == [catmouse.solve(g) for g in graphs]
