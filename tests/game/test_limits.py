"""Every limit is checked before any work, with one message on both engines.

Each test gives a maker an input past a limit and, where it can, parts that fail loudly if
read (rows, indices, a matrix's conversion): the refusal must come from the limit, first.
Nothing here builds a graph past MAX_NODES.
"""

from __future__ import annotations

import pickle
from array import array

import pytest

import catmouse
from catmouse import Game, Graph, Outcome
from catmouse.engine.facts import CAT_FORBIDDEN, CAT_GOAL, HOLE, MAX_NODES
from catmouse.graph import _unpickle_graph
from catmouse.rules import MAX_THREADS, Rules, check_memory

EXAMPLE = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
TOO_MANY = MAX_NODES + 1
REFUSED = f"{TOO_MANY} nodes is too large: catmouse solves graphs of at most {MAX_NODES} nodes"


class Untouchable:
    """Stands for data past the limit: reading it in any way fails the test."""

    def __iter__(self):
        raise AssertionError("read data past the node limit")

    def __len__(self):
        raise AssertionError("measured data past the node limit")


class Forged:
    """Pickles as ``function(*args)``: a hand-made pickle."""

    def __init__(self, function, args):
        self.function, self.args = function, args

    def __reduce__(self):
        return self.function, self.args


# -- graphs past MAX_NODES are refused by n, before their rows are read ---------------------


@pytest.mark.parametrize("indptr", [array("i", bytes(4 * (TOO_MANY + 1))),
                                    [0] * (TOO_MANY + 1)], ids=["array", "list"])
def test_from_csr_refuses_by_indptr_length_before_reading_indices(use_engine, indptr):
    with pytest.raises(ValueError, match=REFUSED):
        Graph.from_csr(indptr, Untouchable())


def test_from_csr_at_the_limit_is_a_graph(use_engine):
    graph = Graph.from_csr(array("i", bytes(4 * (MAX_NODES + 1))), array("i"))
    assert graph.n == MAX_NODES


def test_lists_past_the_limit_are_refused_before_their_rows_are_read(use_engine):
    with pytest.raises(ValueError, match=REFUSED):
        Graph([Untouchable()] * TOO_MANY)
    with pytest.raises(ValueError, match=REFUSED):
        catmouse.analyze([Untouchable()] * TOO_MANY)


class FakeNetworkx(Untouchable):
    """A networkx graph of TOO_MANY nodes as far as len() says; nothing else may be read."""

    nodes = adj = property(lambda self: Untouchable())

    def is_directed(self):
        return False

    def __len__(self):
        return TOO_MANY


def test_networkx_past_the_limit_is_refused_by_its_size(use_engine):
    with pytest.raises(ValueError, match=f"networkx graph of {REFUSED}"):
        Graph.from_networkx(FakeNetworkx())
    with pytest.raises(ValueError, match=f"networkx graph of {REFUSED}"):
        Graph(FakeNetworkx())


class FakeSparse(Untouchable):
    """A scipy.sparse matrix by its shape; converting it fails the test."""

    shape = (TOO_MANY, TOO_MANY)
    tocsr = property(lambda self: Untouchable())


def test_a_sparse_matrix_past_the_limit_is_refused_before_conversion(use_engine):
    for make in (Graph.from_matrix, Graph.from_csr, Graph):
        with pytest.raises(ValueError, match=f"adjacency matrix of {REFUSED}"):
            make(FakeSparse())


def test_a_real_sparse_matrix_past_the_limit(use_engine):
    sparse = pytest.importorskip("scipy.sparse")
    empty = sparse.csr_matrix((TOO_MANY, TOO_MANY), dtype="int8")
    for make in (Graph.from_matrix, Graph.from_csr):
        with pytest.raises(ValueError, match=REFUSED):
            make(empty)


def test_a_pickled_graph_past_the_limit_is_refused(use_engine):
    indptr = bytes(4 * (TOO_MANY + 1))
    with pytest.raises(ValueError, match=f"pickled Graph of {REFUSED}"):
        pickle.loads(pickle.dumps(Forged(_unpickle_graph, (TOO_MANY, False, indptr, b"", None))))


def test_a_pickled_graph_with_labels_not_one_per_node_is_refused():
    graph = Graph([[1], [0, 2], [1]])
    _, (n, directed, indptr, indices, _, _) = graph.__reduce__()
    for labels in [("a", "b"), ("a", "b", "a"), ["a", "b", "c"]]:
        forged = Forged(_unpickle_graph, (n, directed, indptr, indices, labels))
        with pytest.raises(ValueError, match="labels"):
            pickle.loads(pickle.dumps(forged))


def test_the_memory_check_past_the_limit_names_no_empty_tables():
    """solve's search has no output tables: no "needing 0 bytes" for it."""
    with pytest.raises(MemoryError) as error:
        check_memory(TOO_MANY, target=True)
    assert "0 bytes" not in str(error.value)
    assert f"at most {MAX_NODES} nodes" in str(error.value)


# -- threads: one check, one message, on both engines ----------------------------------------


def thread_calls():
    game = Game(EXAMPLE)
    return {
        "solve": lambda threads: catmouse.solve(EXAMPLE, threads=threads),
        "solve Graph": lambda threads: catmouse.solve(Graph(EXAMPLE), threads=threads),
        "analyze": lambda threads: catmouse.analyze(EXAMPLE, threads=threads),
        "Game.solve": lambda threads: game.solve(1, 2, threads=threads),
        "Game.analyze": lambda threads: game.analyze(threads=threads),
        "solve_many": lambda threads: catmouse.solve_many([EXAMPLE] * 2, threads=threads),
        "solve_many Graphs": lambda threads: catmouse.solve_many([Graph(EXAMPLE)] * 2,
                                                                 threads=threads),
    }


@pytest.mark.parametrize("call", list(thread_calls()))
@pytest.mark.parametrize("threads", [2**63, 2**64, MAX_THREADS + 1, 0, -1])
def test_thread_counts_out_of_range_are_one_value_error(use_engine, call, threads):
    with pytest.raises(ValueError) as error:
        thread_calls()[call](threads)
    assert str(error.value).endswith(f"threads must be from 1 to {MAX_THREADS}, not {threads}")


@pytest.mark.parametrize("call", list(thread_calls()))
@pytest.mark.parametrize("threads", ["2", 1.5, True])
def test_thread_counts_must_be_ints_everywhere(use_engine, call, threads):
    with pytest.raises(TypeError, match="threads must be an int or None"):
        thread_calls()[call](threads)


def answer(result):
    return result.outcomes.tobytes() if isinstance(result, catmouse.Analysis) else result


@pytest.mark.parametrize("call", list(thread_calls()))
def test_numpy_thread_counts_are_taken_as_node_ids_are(use_engine, call):
    """threads=numpy.int64(2) said "threads must be an int or None, not int64", where numpy
    ints are taken for nodes and max_memory; numpy's bool stays refused, as bools are."""
    numpy = pytest.importorskip("numpy")
    run = thread_calls()[call]
    assert answer(run(numpy.int64(2))) == answer(run(2))
    assert answer(run(numpy.uint8(1))) == answer(run(1))
    with pytest.raises(TypeError, match="threads must be an int or None, not bool"):
        run(numpy.True_)


@pytest.mark.parametrize("call", list(thread_calls()))
def test_the_most_threads_are_allowed(use_engine, call):
    run = thread_calls()[call]
    assert answer(run(MAX_THREADS)) == answer(run(1))


# -- play --html: the page's limit before the solve ------------------------------------------


def test_play_html_refuses_a_board_too_big_for_the_page_before_solving(tmp_path, monkeypatch,
                                                                        capsys):
    from catmouse.cli import commands
    from catmouse.show.draw import LEGIBLE_NODES

    n = LEGIBLE_NODES + 1
    board = tmp_path / "path.txt"
    board.write_text("".join(f"{u} {u + 1}\n" for u in range(n - 1)))

    def solve_all(*args):
        raise AssertionError("solved a board the page cannot draw")

    monkeypatch.setattr(commands, "_solve_all", solve_all)
    page = tmp_path / "page.html"
    assert commands.main(["play", str(board), "--html", str(page)]) == 1
    err = capsys.readouterr().err
    assert f"draws at most {LEGIBLE_NODES} nodes and this graph has {n}" in err
    assert not page.exists()


# -- pickles are checked as construction checks ----------------------------------------------


def rules_args():
    graph = Graph(EXAMPLE)
    flags = bytes([HOLE | CAT_FORBIDDEN]) + bytes(5)
    return graph, flags


@pytest.mark.parametrize("bad", ["short flags", "long flags", "cat graph", "goal forbidden",
                                 "unknown bit", "draw"])
def test_rules_refuse_what_their_makers_refuse_built_or_unpickled(use_engine, bad):
    graph, flags = rules_args()
    args = {
        "short flags": (graph, graph, flags[:-1], Outcome.DRAW),
        "long flags": (graph, graph, flags + b"\0", Outcome.DRAW),
        "cat graph": (graph, Graph([[1], [0]]), flags, Outcome.DRAW),
        "goal forbidden": (graph, graph, flags[:-1] + bytes([CAT_GOAL | CAT_FORBIDDEN]),
                           Outcome.DRAW),
        "unknown bit": (graph, graph, flags[:-1] + b"\x08", Outcome.DRAW),
        "draw": (graph, graph, flags, 7),
    }[bad]
    with pytest.raises(ValueError):
        pickle.loads(pickle.dumps(Forged(Rules, args)))
    with pytest.raises(ValueError):
        Rules(*args)


def test_rules_pickle_round_trip(use_engine):
    graph, flags = rules_args()
    rules = Rules(graph, graph, flags, Outcome.DRAW)
    copy = pickle.loads(pickle.dumps(rules))
    assert (copy.flags, copy.draw, copy.mouse_graph) == (flags, Outcome.DRAW, graph)


@pytest.mark.parametrize("remoteness", [True, False])
def test_a_pickled_analysis_checks_its_rules_with_or_without_remoteness(use_engine, remoteness):
    analysis = catmouse.analyze(EXAMPLE, remoteness=remoteness)
    function, (rules, outcomes, table, *_) = analysis.__reduce__()
    short = Forged(Rules, (rules.mouse_graph, rules.cat_graph, rules.flags[:-1], rules.draw))
    with pytest.raises(ValueError, match="flags"):
        pickle.loads(pickle.dumps(Forged(function, (short, outcomes, table))))
    for wrong in (outcomes[:-1], bytearray(outcomes)):
        with pytest.raises(ValueError):
            pickle.loads(pickle.dumps(Forged(function, (rules, wrong, table))))
    copy = pickle.loads(pickle.dumps(analysis))
    assert copy.outcomes.tobytes() == analysis.outcomes.tobytes()
