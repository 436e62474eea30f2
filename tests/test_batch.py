"""solve_many as a user calls it: plain lists, Graphs, errors that name the graph, progress."""

from __future__ import annotations

import random

import pytest

import catmouse
from catmouse import Graph, Outcome, _retro
from catmouse import _graph as graph_module

EXAMPLE = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]


def random_lists(rng, count):
    graphs = []
    for _ in range(count):
        n = rng.randint(3, 40)
        rows = [[] for _ in range(n)]
        for u in range(n):
            for v in range(u + 1, n):
                if rng.random() < 0.2:
                    rows[u].append(v)
                    rows[v].append(u)
        graphs.append(rows)
    return graphs


@pytest.mark.parametrize("threads", [1, 2])
def test_lists_give_the_loops_answers(use_engine, threads):
    graphs = random_lists(random.Random(3), 60)
    expected = [catmouse.solve(g) for g in graphs]
    assert catmouse.solve_many(graphs, threads) == expected
    # Mixed with Graphs, in a generator, in the same order.
    mixed = (Graph(g) if k % 3 == 0 else g for k, g in enumerate(graphs))
    assert catmouse.solve_many(mixed, threads=threads) == expected


def test_lists_take_the_compiled_list_path_without_building_graphs(monkeypatch):
    # Bug 4: solve_many built a Graph per list, which made it slower than a loop
    # of solve(); valid lists now go straight to the compiled list path.
    if _retro.engine.name != "cython":
        pytest.skip("the compiled engine is not in use (the twin's list path declines)")
    built = []
    real_init = Graph.__init__

    def counting_init(self, *args, **kwargs):
        built.append(1)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(graph_module.Graph, "__init__", counting_init)
    graphs = random_lists(random.Random(4), 40)
    outcomes = catmouse.solve_many(graphs, threads=2)
    assert built == []
    monkeypatch.setattr(graph_module.Graph, "__init__", real_init)
    assert outcomes == [catmouse.solve(g) for g in graphs]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        ([[1], [0, 2], [1, 1]], ValueError, "lists neighbour 1 more than once"),
        ([[1], [2], [1]], ValueError, "edge"),
        ("not a graph", TypeError, "sequence of neighbour lists"),
        ([[1], [0]], ValueError, "cat node 2 is not in a graph of 2 nodes"),
    ],
)
def test_an_error_names_the_graph_by_index(use_engine, threads, bad, error, message):
    graphs = [EXAMPLE, Graph(EXAMPLE), bad, EXAMPLE]
    with pytest.raises(error, match=f"^graph 2 of the batch: .*{message}"):
        catmouse.solve_many(graphs, threads=threads)


def test_progress_callback_counts_graphs(use_engine):
    graphs = random_lists(random.Random(5), 120)
    seen = []
    outcomes = catmouse.solve_many(graphs, threads=2, progress=seen.append)
    assert len(outcomes) == 120 and all(isinstance(o, Outcome) for o in outcomes)
    assert seen and seen[-1] == 120
    assert seen == sorted(seen) and all(0 <= x <= 120 for x in seen)


def test_progress_true_draws_a_bar_on_stderr(use_engine, capsys):
    catmouse.solve_many([EXAMPLE] * 5, progress=True)
    out, err = capsys.readouterr()
    assert out == ""
    assert "solve_many [" in err and "100% 5/5" in err and err.endswith("\n")


def test_progress_that_raises_stops_the_batch(use_engine):
    class Stop(Exception):
        pass

    def stop(done):
        raise Stop

    with pytest.raises(Stop):
        catmouse.solve_many([EXAMPLE] * 200, progress=stop)
