"""solve_many as a user calls it: plain lists, Graphs, errors that name the graph, progress."""

from __future__ import annotations

import os
import random
import threading

import pytest

import catmouse
from catmouse import Graph, Outcome
from catmouse import batch as batch_module
from catmouse import engine as selector
from catmouse import graph as graph_module
from catmouse import rules as _rules
from catmouse.engine import cpus
from catmouse.engine.facts import SMALL_TABLES

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


def count_graphs_built(monkeypatch) -> list:
    """A list that gets one item per Graph built from now on (the list paths build none)."""
    built: list = []
    real_init = Graph.__init__

    def counting_init(self, *args, **kwargs):
        built.append(1)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(graph_module.Graph, "__init__", counting_init)
    return built


def test_lists_take_the_compiled_list_path_without_building_graphs(monkeypatch):
    # solve_many used to build a Graph per list, which made it slower than a loop
    # of solve(); valid lists now go straight to the compiled list path.
    if selector.current.name != "cython":
        pytest.skip("the compiled engine is not in use (the twin's list path declines)")
    built = count_graphs_built(monkeypatch)
    graphs = random_lists(random.Random(4), 40)
    outcomes = catmouse.solve_many(graphs, threads=2)
    assert built == []
    monkeypatch.undo()
    assert outcomes == [catmouse.solve(g) for g in graphs]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        ([[1], [0, 2], [1, 1]], ValueError, "lists neighbour 1 more than once"),
        ([[1], [2], [1]], ValueError, "edge"),
        ("not a graph", TypeError, "sequence of neighbour lists"),
        ([[1], [0]], ValueError, "cat node 2 is not in a graph of 2 nodes"),
        # Past MAX_NODES: the threads' list path asked the engine its size and let its
        # "n = 65536 is out of range" through, without the graph's index.
        ([[]] * (catmouse.MAX_NODES + 1), ValueError, "a graph of 65536 nodes is too large"),
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


# -- threads: how many a batch starts, whatever the split, the same answers ------------------


def ring(n):
    return [[(u - 1) % n, (u + 1) % n] for u in range(n)]


def _compiled_helpers() -> int:
    """Helper threads the compiled engine's batch paths have started (plain C threads)."""
    try:
        from catmouse.engine import bits_c
    except ImportError:
        return 0
    return bits_c._helpers_started()


@pytest.fixture
def started(monkeypatch):
    """How many threads calls have started since: Python threads and the engine's helpers."""
    names = []
    real_start = threading.Thread.start

    def counting_start(self):
        names.append(self.name)
        return real_start(self)

    monkeypatch.setattr(threading.Thread, "start", counting_start)
    # "Every core" means more than one thread, also on a one-core machine.
    monkeypatch.setattr(batch_module, "usable_cpus", lambda: 4)
    before = _compiled_helpers()
    return lambda: len(names) + _compiled_helpers() - before


def split_across_threads(started) -> bool:
    """Whether the batch ran on several threads: the compiled engine's helpers; the pure
    twin runs every graph on the caller's thread (Python code holds the GIL)."""
    return started() > 0 if selector.current.name == "cython" else started() == 0


def test_two_big_graphs_and_two_threads_start_a_helper(use_engine, started):
    # The smallest batch of Graphs that is split: two graphs past one word, two threads
    # (the engine's own helper; the pure twin runs on the caller's thread).
    graph = Graph(ring(70))
    assert catmouse.solve_many([graph, graph], threads=2) == [catmouse.solve(ring(70))] * 2
    assert started() == (1 if selector.current.name == "cython" else 0)
    # Small Graphs: a helper per 64 at most, so two of them stay on the caller's thread.
    assert catmouse.solve_many([Graph(EXAMPLE)] * 2, threads=2) == [Outcome.DRAW] * 2
    assert started() == (1 if selector.current.name == "cython" else 0)


def test_small_lists_get_a_helper_per_chunk_of_64(use_engine, started):
    """Lists of at most 64 nodes: a helper thread per 64 graphs at most (compiled engine)."""
    assert catmouse.solve_many([EXAMPLE] * 64, threads=2) == [Outcome.DRAW] * 64
    assert started() == 0  # one chunk: the caller's thread alone
    assert catmouse.solve_many([EXAMPLE] * 65, threads=8) == [Outcome.DRAW] * 65
    expected = 1 if selector.current.name == "cython" else 0  # the twin runs no thread
    assert started() == expected


@pytest.mark.parametrize("graph", [EXAMPLE, Graph(EXAMPLE)], ids=["lists", "Graphs"])
def test_one_thread_or_one_graph_starts_none(use_engine, started, graph):
    assert catmouse.solve_many([graph] * 5, threads=1) == [Outcome.DRAW] * 5
    assert catmouse.solve_many([graph], threads=4) == [Outcome.DRAW]
    assert started() == 0


def test_threads_none_splits_only_a_batch_as_big_as_one_320_node_graph(started):
    assert batch_module.BATCH_THREADS_FROM_NODES == 320
    # 2 * (316**2 + 6**2) positions: under one graph of 320 nodes, one thread.
    small = [ring(316), EXAMPLE]
    assert catmouse.solve_many(small) == [catmouse.solve(g) for g in small]
    assert started() == 0 and batch_module._threads(None, small) == 1
    big = [ring(320), EXAMPLE]
    assert catmouse.solve_many(big) == [catmouse.solve(g) for g in big]
    assert batch_module._threads(None, big) == 4  # every core (usable_cpus, patched)
    two_big = [ring(320), ring(316)]
    assert catmouse.solve_many(two_big) == [catmouse.solve(g) for g in two_big]
    assert split_across_threads(started)  # two graphs past one word: split across threads


def test_threads_none_counts_an_iterator_of_rows_as_no_positions(started):
    # Its size is not known before it is read: the lists alone decide, and here
    # they are two positions short of one graph of 320 nodes.
    sizes = [319, 18, 17, 5]
    assert sum(n * n for n in sizes) == 320 * 320 - 1
    batch = [ring(n) for n in sizes] + [iter(EXAMPLE)]
    assert batch_module._threads(None, batch) == 1  # sizing it reads none of its rows
    assert catmouse.solve_many(batch) == [catmouse.solve(ring(n)) for n in sizes] + [
        Outcome.DRAW]
    assert started() == 0


def matrix(sparse, rows):
    """The 0/1 adjacency matrix of ``rows`` as a scipy.sparse CSR matrix."""
    entries = [(u, v) for u, row in enumerate(rows) for v in row]
    us, vs = zip(*entries)
    return sparse.csr_matrix(([1] * len(entries), (us, vs)), shape=(len(rows), len(rows)))


def test_threads_none_sizes_scipy_sparse_matrices(started):
    # Bug: a scipy.sparse matrix refuses len(), and solve_many's thread choice
    # raised TypeError ("sparse array length is ambiguous") for any batch holding one.
    sparse = pytest.importorskip("scipy.sparse")
    small = matrix(sparse, EXAMPLE)
    assert catmouse.solve_many([small, EXAMPLE]) == [Outcome.DRAW, Outcome.DRAW]
    assert started() == 0
    # Its shape counts: one matrix of 320 nodes is enough for every core.
    big = matrix(sparse, ring(320))
    assert catmouse.solve_many([big, small]) == [catmouse.solve(ring(320)), Outcome.DRAW]
    assert split_across_threads(started)


def test_threads_none_splits_a_batch_of_exactly_one_320_node_graph(started):
    sizes = [319, 23, 7, 6, 5]
    assert sum(n * n for n in sizes) == 320 * 320
    batch = [ring(n) for n in sizes]
    assert catmouse.solve_many(batch) == [catmouse.solve(g) for g in batch]
    assert batch_module._threads(None, batch) == 4  # every core (usable_cpus, patched)


def test_threads_none_with_no_known_core_count_uses_one_thread(started, monkeypatch):
    monkeypatch.setattr(batch_module, "usable_cpus", cpus.usable_cpus)
    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    batch = [ring(320), EXAMPLE]
    assert batch_module._threads(None, batch) == 1
    assert catmouse.solve_many(batch) == [catmouse.solve(g) for g in batch]
    assert started() == 0


def test_threads_none_sizes_graphs(started):
    small = [Graph(ring(316)), Graph(EXAMPLE)]
    assert catmouse.solve_many(small) == [catmouse.solve(g) for g in small]
    assert started() == 0
    big = [Graph(ring(320)), Graph(EXAMPLE)]
    assert catmouse.solve_many(big) == [catmouse.solve(g) for g in big]
    assert split_across_threads(started)


def test_a_matrix_of_no_dimensions_is_an_error_naming_it():
    numpy = pytest.importorskip("numpy")
    with pytest.raises((TypeError, ValueError), match="^graph 1 of the batch: "):
        catmouse.solve_many([EXAMPLE, numpy.array(5)])


class OddValueError(ValueError):
    """A ValueError whose constructor takes two arguments (the message cannot be its only one)."""

    def __init__(self, what, code):
        super().__init__(f"{what} failed with code {code}")


class OddTypeError(TypeError):
    def __init__(self, what, code):
        super().__init__(f"{what} failed with code {code}")


class Unreadable:
    """Six rows, by its length, that raise ``error`` when read."""

    def __init__(self, error):
        self.error = error

    def __len__(self):
        return 6

    def __iter__(self):
        raise self.error

    def __getitem__(self, k):
        raise self.error


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("family", [ValueError, TypeError])
def test_an_error_of_another_constructor_keeps_its_family(use_engine, threads, family):
    odd = (OddValueError if family is ValueError else OddTypeError)("row 3", 7)
    with pytest.raises(family, match="^graph 1 of the batch: row 3 failed with code 7$") as info:
        catmouse.solve_many([EXAMPLE, Unreadable(odd), EXAMPLE], threads=threads)
    assert type(info.value) is family
    assert info.value.__cause__ is odd


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("who", ["mouse", "cat", "hole"])
def test_a_label_on_plain_lists_is_an_error_naming_the_graph(use_engine, threads, who):
    # Lists have no labels: one non-int node among three ints is reported, not crashed on.
    with pytest.raises(TypeError, match=f"^graph 0 of the batch: {who} must be an integer"):
        catmouse.solve_many([EXAMPLE, EXAMPLE], threads=threads, **{who: "den"})


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("hole", [-1, 6, 7])
def test_a_hole_off_the_lists_is_an_error_naming_the_graph(use_engine, threads, hole):
    # The list path in threads must not place a hole outside the graph (an
    # IndexError, or for -1 the last node taken as the hole): solve() reports it.
    with pytest.raises(ValueError, match=f"^graph 0 of the batch: hole node {hole} is not in"):
        catmouse.solve_many([EXAMPLE, EXAMPLE], threads=threads, hole=hole)


# -- progress on each path: bounded by the batch, never going back, reported as it goes ------


def check_progress(seen, total):
    assert seen and seen[-1] == total
    assert seen == sorted(seen) and all(0 <= x <= total for x in seen)
    # Reported while working, not only at the end: at most 2% of the batch (one
    # graph, below 100) between two calls.
    assert any(0 < x < total for x in seen)
    most = max(1, total // 50)
    assert all(later - earlier <= most for earlier, later in zip([0] + seen, seen))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("kind", ["lists", "Graphs"])
@pytest.mark.parametrize("count", [30, 120])
def test_progress_on_each_path(use_engine, threads, kind, count):
    graphs = random_lists(random.Random(6), count)
    if kind == "Graphs":
        graphs = [Graph(g) for g in graphs]
    seen = []
    outcomes = catmouse.solve_many(graphs, threads=threads, progress=seen.append)
    assert outcomes == [catmouse.solve(g) for g in graphs]
    check_progress(seen, count)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("last", [[[1], [0]], Graph([[1], [0]])], ids=["list", "Graph"])
def test_progress_does_not_count_a_graph_that_fails(use_engine, threads, last):
    # The cat's node 2 is not in the last graph: four graphs are done, never five.
    seen = []
    with pytest.raises(ValueError, match="^graph 4 of the batch: cat node 2 is not in"):
        catmouse.solve_many([EXAMPLE] * 4 + [last], threads=threads, progress=seen.append)
    assert seen == sorted(seen) and max(seen) == 4
    # No position at all: nothing is done.
    seen.clear()
    with pytest.raises(ValueError, match="^graph 0 of the batch: .*the cat cannot be on node 0"):
        catmouse.solve_many([EXAMPLE] * 3, threads=threads, cat=0, progress=seen.append)
    assert set(seen) <= {0}


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("others", [0, 7])
def test_progress_with_labelled_graphs_after_the_boards(use_engine, threads, others):
    # Graphs with labels are solved one by one after the others: their
    # progress follows on from the boards' count, never going back, and
    # is reported as they go.
    nx = pytest.importorskip("networkx")
    labelled = Graph.from_networkx(nx.Graph(
        [(u, v) for u, row in enumerate(EXAMPLE) for v in row]))
    graphs = [EXAMPLE] * (others // 2) + [Graph(EXAMPLE)] * (others - others // 2)
    graphs += [labelled] * 3
    seen = []
    assert catmouse.solve_many(graphs, threads=threads, progress=seen.append) == [
        Outcome.DRAW] * len(graphs)
    check_progress(seen, len(graphs))


@pytest.mark.parametrize("threads", [1, 2])
def test_progress_counts_draws_too(use_engine, threads):
    # EXAMPLE is a draw (outcome code 0): a draw is a graph done like any other.
    seen = []
    assert catmouse.solve_many([EXAMPLE] * 120, threads=threads, progress=seen.append) == [
        Outcome.DRAW] * 120
    check_progress(seen, 120)


@pytest.mark.parametrize("threads", [1, 2])
def test_progress_of_graphs_whose_boards_are_cached(use_engine, threads):
    # Boards cached by an earlier solve: with progress asked for, the batch still reports.
    graphs = [Graph(g) for g in random_lists(random.Random(8), 60)]
    expected = [catmouse.solve(g) for g in graphs]
    seen = []
    assert catmouse.solve_many(graphs, threads=threads, progress=seen.append) == expected
    check_progress(seen, 60)


@pytest.mark.parametrize("threads", [1, 2])
def test_progress_of_lists_past_one_word_never_passes_the_batch(use_engine, threads):
    # Lists of more than 64 nodes are solved one by one (or as boards in threads) after
    # the small ones: the count they report is of graphs, the batch's size at most.
    batch = [ring(70), EXAMPLE, ring(80), ring(66)]
    seen = []
    assert catmouse.solve_many(batch, threads=threads, progress=seen.append) == [
        catmouse.solve(g) for g in batch]
    assert seen == sorted(seen) and seen[-1] == 4 and max(seen) <= 4


@pytest.mark.parametrize("threads", [1, 2])
def test_a_one_way_edge_in_a_big_undirected_list_is_an_error_naming_the_graph(use_engine,
                                                                               threads):
    one_way = ring(70)
    one_way[5].remove(6)  # 6 still lists 5
    with pytest.raises(ValueError, match="^graph 1 of the batch: .*edge"):
        catmouse.solve_many([ring(70), one_way, ring(70)], threads=threads)


# -- graphs too big for a board: solve() checks the memory first ------------------------------

def board_limit():
    """The most nodes whose search fits in SMALL_TABLES (a board), for the engine in use."""
    def fits(n):
        return _rules.need_bytes(n, outcome=False, remoteness=False, target=True) <= SMALL_TABLES

    low, high = 3, 1 << 15
    assert fits(low) and not fits(high)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


@pytest.fixture
def no_memory(monkeypatch):
    """A system with 1000 bytes free: only work past SMALL_TABLES asks it."""
    monkeypatch.setattr(_rules, "available_memory", lambda: 1000)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("kind", ["lists", "Graphs"])
def test_a_graph_too_big_for_a_board_has_its_memory_checked(no_memory, threads, kind):
    big = ring(board_limit() + 1)
    batch = [EXAMPLE, EXAMPLE, big if kind == "lists" else Graph(big)]
    with pytest.raises(MemoryError, match="^graph 2 of the batch: .*only 1000 are available"):
        catmouse.solve_many(batch, threads=threads)


def test_the_biggest_lists_that_fit_a_board_take_the_list_path(no_memory, monkeypatch):
    # No Graph built and no memory asked (the answers still right) at the board limit.
    if selector.current.name != "cython":
        pytest.skip("the compiled engine is not in use (the twin's list path declines)")
    built = count_graphs_built(monkeypatch)
    batch = [ring(board_limit()), EXAMPLE]
    assert catmouse.solve_many(batch, threads=2) == [Outcome.MOUSE_WIN, Outcome.DRAW]
    assert built == []


# -- an item that can be read only once ------------------------------------------------------

@pytest.mark.parametrize("threads", [1, 2])
def test_rows_read_once_are_solved_past_a_board(use_engine, threads):
    # An iterator of rows too big for a board is solved as solve() solves it, not read a
    # second time (empty: "hole node 0 is not in a graph of 0 nodes").
    big = ring(board_limit() + 1)
    assert catmouse.solve_many([EXAMPLE, iter(big)], threads=threads) == [
        Outcome.DRAW, catmouse.solve(big)]


@pytest.mark.parametrize("threads", [1, 2])
def test_rows_read_once_get_solves_error(use_engine, threads):
    # The error that solve() gives, about the graph that was read, not about an empty one.
    with pytest.raises(ValueError, match="^graph 1 of the batch: mouse node 9 is not in a "
                                         "graph of 6 nodes"):
        catmouse.solve_many([ring(10), iter(EXAMPLE)], threads=threads, mouse=9)


@pytest.mark.parametrize("threads", [1, 2])
def test_progress_of_lists_past_one_word_is_reported_as_they_go(use_engine, threads):
    # Lists of more than 64 nodes are solved after the small ones: their progress too comes
    # as they go, not in one jump from 0 to the whole batch at the end.
    batch = [ring(66 + k % 5) for k in range(120)]
    seen = []
    assert catmouse.solve_many(batch, threads=threads, progress=seen.append) == [
        catmouse.solve(g) for g in batch]
    check_progress(seen, 120)
