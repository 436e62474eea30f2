"""Graph: construction from every input form, validation of bad input, immutability."""

from __future__ import annotations

import os
import pickle
import re
import struct
import subprocess
import sys

import pytest

import catmouse
from catmouse import Graph

EXAMPLE = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
EXAMPLE_EDGES = [(0, 2), (0, 5), (1, 3), (2, 4), (2, 5), (3, 4), (3, 5)]


def csr_of(adjacency):
    indptr, indices = [0], []
    for row in adjacency:
        indices.extend(row)
        indptr.append(len(indices))
    return indptr, indices


# -- the input forms -------------------------------------------------------------------


def test_adjacency_lists():
    g = Graph(EXAMPLE)
    assert (g.n, g.num_edges, g.directed, len(g)) == (6, 7, False, 6)
    assert g.adjacency() == EXAMPLE
    assert [g.neighbors(u) for u in range(6)] == [tuple(row) for row in EXAMPLE]
    assert [g.degree(u) for u in range(6)] == [len(row) for row in EXAMPLE]
    assert g.indptr.format == "i" and g.indices.format == "i" and g.indptr.readonly
    assert (g.indptr.tolist(), g.indices.tolist()) == csr_of(EXAMPLE)


def test_tuples_generators_and_numpy_ints_are_accepted():
    assert Graph(tuple(tuple(row) for row in EXAMPLE)) == Graph(EXAMPLE)
    assert Graph(iter(EXAMPLE)) == Graph(EXAMPLE)
    np = pytest.importorskip("numpy")
    rows = [np.array(row, dtype=np.int64) for row in EXAMPLE]
    assert Graph(rows) == Graph(EXAMPLE)


def test_from_edges():
    g = Graph.from_edges(6, EXAMPLE_EDGES)
    assert [sorted(r) for r in g.adjacency()] == [sorted(r) for r in EXAMPLE]
    assert catmouse.solve(g) == catmouse.solve(EXAMPLE)
    reversed_edges = [(v, u) for u, v in EXAMPLE_EDGES]
    assert Graph.from_edges(6, reversed_edges).num_edges == 7
    assert Graph.from_edges(3, []).adjacency() == [[], [], []]


def test_from_csr_lists():
    g = Graph.from_csr(*csr_of(EXAMPLE))
    assert g == Graph(EXAMPLE)
    assert catmouse.analyze(g).outcomes.tobytes() == catmouse.analyze(EXAMPLE).outcomes.tobytes()


def test_from_csr_numpy_int32_is_copied():
    np = pytest.importorskip("numpy")
    indptr, indices = (np.array(a, dtype=np.int32) for a in csr_of(EXAMPLE))
    g = Graph.from_csr(indptr, indices)
    assert not np.shares_memory(np.asarray(g.indptr), indptr)
    assert not np.shares_memory(np.asarray(g.indices), indices)
    assert g.rindices.obj is g.indices.obj  # undirected: its own reverse
    assert g == Graph(EXAMPLE)


_MUTATE_AFTER_FROM_CSR = """
import numpy as np, catmouse
from catmouse import Graph
adjacency = {adjacency!r}
indptr = np.array({indptr!r}, dtype=np.int32)
indices = np.array({indices!r}, dtype=np.int32)
for make in (lambda a: a, lambda a: a[:]):   # the array itself, or a view of it
    g = Graph.from_csr(make(indptr), make(indices))
    before = catmouse.solve(g)
    indices[0] = 2_000_000_000
    indptr[1] = -5
    after = catmouse.solve(g), catmouse.analyze(g).outcomes.tobytes()
    indices[:] = {indices!r}
    indptr[:] = {indptr!r}
    assert after == (before, catmouse.analyze(adjacency).outcomes.tobytes()), after
    assert g == Graph(adjacency)
print("ok", int(before))
"""


@pytest.mark.parametrize("engine_off", ["0", "1"])
def test_from_csr_caller_writes_after_construction_change_nothing(engine_off):
    # The Graph used to keep the caller's numpy arrays; writing to them afterwards
    # crashed the interpreter (SIGSEGV) or gave a silently wrong answer.  A crash
    # must fail this test, not kill pytest, hence the subprocess.
    pytest.importorskip("numpy")
    indptr, indices = csr_of(EXAMPLE)
    script = _MUTATE_AFTER_FROM_CSR.format(adjacency=EXAMPLE, indptr=list(indptr),
                                           indices=list(indices))
    env = dict(os.environ, CATMOUSE_NO_EXTENSIONS=engine_off)
    if engine_off == "1":
        env["CATMOUSE_REQUIRE_EXTENSIONS"] = "0"  # the compiled run of the suite sets it
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.split() == ["ok", str(int(catmouse.solve(EXAMPLE)))]


@pytest.mark.parametrize("dtype", ["int64", "int16", "uint32"])
def test_from_csr_numpy_other_ints_are_copied(dtype):
    np = pytest.importorskip("numpy")
    indptr, indices = (np.array(a, dtype=dtype) for a in csr_of(EXAMPLE))
    g = Graph.from_csr(indptr, indices)
    assert not np.shares_memory(np.asarray(g.indices), indices)
    assert g.indices.format == "i"
    assert g == Graph(EXAMPLE)


def test_from_csr_non_contiguous_numpy_is_copied():
    np = pytest.importorskip("numpy")
    indptr, indices = csr_of(EXAMPLE)
    spaced = np.zeros(2 * len(indices), dtype=np.int32)
    spaced[::2] = indices
    g = Graph.from_csr(np.array(indptr, np.int32), spaced[::2])
    assert g == Graph(EXAMPLE)


def test_from_csr_scipy_sparse():
    sparse = pytest.importorskip("scipy.sparse")
    np = pytest.importorskip("numpy")
    dense = np.zeros((6, 6), dtype=np.int8)
    for u, v in EXAMPLE_EDGES:
        dense[u, v] = dense[v, u] = 1
    for make in (sparse.csr_matrix, sparse.coo_matrix, sparse.csc_matrix, sparse.csr_array):
        g = Graph.from_csr(make(dense))
        assert [sorted(r) for r in g.adjacency()] == [sorted(r) for r in EXAMPLE]
        assert catmouse.solve(g) == catmouse.solve(EXAMPLE)
    with pytest.raises(ValueError, match="square"):
        Graph.from_csr(sparse.csr_matrix(np.zeros((2, 3))))
    one_way = np.array([[0, 1], [0, 0]])
    with pytest.raises(ValueError, match="edge 0-1"):
        Graph.from_csr(sparse.csr_matrix(one_way))
    assert Graph.from_csr(sparse.csr_matrix(one_way), directed=True).directed


def test_from_csr_leaves_the_callers_unsorted_matrix_as_it_was():
    """from_csr sorted a CSR matrix's indices in place (tocsr() is the matrix itself): the
    caller's matrix changed under it, and one with read-only arrays failed with numpy's
    'WRITEBACKIFCOPY base is read-only'."""
    sparse = pytest.importorskip("scipy.sparse")
    np = pytest.importorskip("numpy")
    indptr, indices = csr_of(EXAMPLE)
    backwards = [v for row in EXAMPLE for v in reversed(row)]
    matrix = sparse.csr_matrix((np.ones(len(indices)), np.array(backwards, np.int32),
                                np.array(indptr, np.int32)), shape=(6, 6))
    assert Graph.from_csr(matrix) == Graph(EXAMPLE)
    assert matrix.indices.tolist() == backwards
    matrix.indices.setflags(write=False)
    matrix.indptr.setflags(write=False)
    assert Graph.from_csr(matrix) == Graph(EXAMPLE)


def test_from_networkx_maps_labels_both_ways():
    nx = pytest.importorskip("networkx")
    G = nx.Graph([("hole", "a"), ("a", "mouse"), ("mouse", "b"), ("b", "cat"), ("cat", "hole")])
    g = Graph.from_networkx(G, nodes=["hole", "mouse", "cat", "a", "b"])
    assert g.labels == ("hole", "mouse", "cat", "a", "b")
    assert [g.index(x) for x in g.labels] == [0, 1, 2, 3, 4]
    assert [g.label(i) for i in range(5)] == list(g.labels)
    for x in g.labels:  # a labelled graph's neighbours are labels too
        assert set(g.neighbors(x)) == set(G.adj[x]) and g.degree(x) == 2
    assert g.adjacency()[g.index("a")] == [g.index("hole"), g.index("mouse")]  # ids
    # The 5-cycle hole-a-mouse-b-cat: the mouse walks to the hole via a.
    assert catmouse.solve(g, "mouse", "cat", hole="hole") == catmouse.Outcome.MOUSE_WIN
    assert catmouse.analyze(g, hole="hole").best_moves("mouse", "cat") == ["a"]
    with pytest.raises(ValueError, match="'nowhere'"):
        g.index("nowhere")


def test_from_networkx_default_order_and_errors():
    nx = pytest.importorskip("networkx")
    G = nx.path_graph(["x", "y", "z"])
    g = Graph.from_networkx(G)
    assert g.labels == ("x", "y", "z") and g.index("y") == 1 and g.label(2) == "z"
    assert Graph.from_networkx(nx.DiGraph([(0, 1)])).directed
    with pytest.raises(ValueError, match="self-loop"):
        Graph.from_networkx(nx.Graph([(1, 1), (1, 2)]))
    with pytest.raises(ValueError, match="'w'"):
        Graph.from_networkx(G, nodes=["x", "y", "w"])
    with pytest.raises(ValueError, match="'z'"):
        Graph.from_networkx(G, nodes=["x", "y"])
    with pytest.raises(ValueError, match="twice"):
        Graph.from_networkx(G, nodes=["x", "y", "y"])
    with pytest.raises(TypeError, match="networkx"):
        Graph.from_networkx([[1], [0]])


def test_labels_of_a_plain_graph_are_its_ids():
    g = Graph(EXAMPLE)
    assert g.labels == tuple(range(6)) and g.label(4) == 4 and g.index(4) == 4
    with pytest.raises(ValueError, match="6"):
        g.index(6)


# -- immutability, reuse, pickling -----------------------------------------------------


def test_graph_is_immutable():
    g = Graph(EXAMPLE)
    with pytest.raises(AttributeError):
        g.n = 3
    with pytest.raises(AttributeError):
        del g.indices
    with pytest.raises(TypeError):
        g.indices[0] = 1  # read-only buffer


def test_input_lists_are_copied():
    rows = [list(r) for r in EXAMPLE]
    g = Graph(rows)
    rows[0].append(1)
    assert g.adjacency() == EXAMPLE
    g.adjacency()[0].append(3)
    assert g.adjacency() == EXAMPLE


def test_pickle_round_trip_and_equality():
    g = Graph(EXAMPLE)
    assert pickle.loads(pickle.dumps(g)) == g
    assert hash(pickle.loads(pickle.dumps(g))) == hash(g)
    assert Graph(g) == g
    assert g != Graph.from_edges(6, EXAMPLE_EDGES[:-1])


def test_pickle_with_labels():
    nx = pytest.importorskip("networkx")
    g = Graph.from_networkx(nx.path_graph("abc"))
    h = pickle.loads(pickle.dumps(g))
    assert h == g and h.index("c") == 2 and h.label(0) == "a"


def test_directed_graph_has_a_reverse():
    g = Graph([[1, 2], [2], []], directed=True)
    assert g.num_edges == 3
    assert list(g.rindptr) == [0, 0, 1, 3] and list(g.rindices) == [0, 0, 1]
    with pytest.raises(ValueError, match="directed"):
        Graph(g, directed=False)


# -- bad input: each names the node or the edge ------------------------------------------

BAD_LISTS = [
    ("not a sequence", 5, TypeError, "not int"),
    ("a string", "0123", TypeError, "not str"),
    ("a dict with a string row", {0: "1", 1: [0]}, TypeError, "node 0's neighbours"),
    ("a dict naming no key", {0: [1], 1: [2]}, ValueError, "neighbour 2, which is not a key"),
    ("None", None, TypeError, "not NoneType"),
    ("a row that is an int", [[1], 0], TypeError, "node 1's neighbours"),
    ("a row that is None", [[1], [0], None], TypeError, "node 2's neighbours"),
    ("a row that is a string", [[1], "0"], TypeError, "node 1's neighbours"),
    ("a float id", [[1.0], [0]], TypeError, "neighbour 0 of node 0"),
    ("an integral float id", [[1], [0, 2.0], [1]], TypeError, "neighbour 1 of node 1"),
    ("a bool id", [[True], [0]], TypeError, "neighbour 0 of node 0 is a bool"),
    ("False as an id", [[1], [False]], TypeError, "neighbour 0 of node 1 is a bool"),
    ("a string id", [["1"], [0]], TypeError, "neighbour 0 of node 0"),
    ("None as an id", [[None], [0]], TypeError, "neighbour 0 of node 0"),
    ("an id too large", [[1], [0, 2], [1, 3]], ValueError, "node 2 lists neighbour 3"),
    ("a negative id", [[1], [0], [-1]], ValueError, "node 2 lists neighbour -1"),
    ("a huge id", [[2**40], [0]], ValueError, "node 0 lists neighbour 1099511627776"),
    ("a self-loop", [[1], [0, 1]], ValueError, "node 1 lists itself"),
    ("a duplicate neighbour", [[1, 2, 1], [0], [0]], ValueError, "node 0 lists neighbour 1 more"),
    ("an edge listed one way", [[1, 2], [0], []], ValueError, "edge 0-2 is listed at node 0"),
]


@pytest.mark.parametrize("what, graph, error, message", BAD_LISTS, ids=[b[0] for b in BAD_LISTS])
def test_bad_adjacency_lists(what, graph, error, message):
    with pytest.raises(error, match=re.escape(message)):
        Graph(graph)
    # Every entry point validates the same way.
    with pytest.raises(error, match=re.escape(message)):
        catmouse.solve(graph)
    with pytest.raises(error, match=re.escape(message)):
        catmouse.analyze(graph)


def test_numpy_bools_and_floats_are_rejected():
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match="neighbour 0 of node 0 is a bool"):
        Graph([[np.bool_(True)], [0]])
    with pytest.raises(TypeError, match="neighbour 0 of node 0"):
        Graph([[np.float64(1)], [0]])
    with pytest.raises(TypeError, match="neighbour 0 of node 0"):
        Graph(np.array([[1.0], [0.0]]))


BAD_EDGES = [
    ("not an iterable", 3, 5, TypeError, "edges must be an iterable"),
    ("n a float", 3.0, [], TypeError, "n must be an integer"),
    ("n negative", -1, [], ValueError, "n must be non-negative"),
    ("not a pair", 3, [(0, 1), (1,)], TypeError, "edge 1 must be a pair"),
    ("a float node", 3, [(0, 1), (1, 2.0)], TypeError, "edge 1's second node"),
    ("a bool node", 3, [(True, 2)], TypeError, "edge 0's first node is a bool"),
    ("out of range", 3, [(0, 1), (1, 3)], ValueError, "edge 1 (1, 3) names node 3"),
    ("negative", 3, [(0, -1)], ValueError, "edge 0 (0, -1) names node -1"),
    ("a self-loop", 3, [(0, 1), (2, 2)], ValueError, "edge 1 (2, 2) is a self-loop"),
    ("a duplicate", 3, [(0, 1), (1, 0)], ValueError, "edge 1 (1, 0) is listed more than once"),
]


@pytest.mark.parametrize("what, n, edges, error, message", BAD_EDGES, ids=[b[0] for b in BAD_EDGES])
def test_bad_edges(what, n, edges, error, message):
    with pytest.raises(error, match=re.escape(message)):
        Graph.from_edges(n, edges)


BAD_CSR = [
    ("indptr not a sequence", 5, [1], TypeError, "indptr must be a sequence"),
    ("a float entry", [0, 1.0, 2], [1, 0], TypeError, "indptr[1]"),
    ("a bool entry", [0, 1, 2], [True, 0], TypeError, "indices[0] is a bool"),
    ("empty indptr", [], [], ValueError, "indptr must have n + 1 entries"),
    ("indptr not from 0", [1, 1, 2], [1, 0], ValueError, "indptr[0] must be 0"),
    ("indptr too short for indices", [0, 1, 1], [1, 0], ValueError, "indptr[-1] = 1"),
    ("indptr going down", [0, 2, 1, 2], [1, 2], ValueError, "not monotone at node 1"),
    # A row past the end of indices was sliced short, and blamed as a self-loop.
    ("indptr past indices", [0, 5, 2], [1, 0], ValueError, "indptr[1] = 5 runs past the end"),
    ("index too large", [0, 1, 2], [2, 0], ValueError, "node 0 lists neighbour 2"),
    ("negative index", [0, 1, 2], [-1, 0], ValueError, "node 0 lists neighbour -1"),
    ("over int32", [0, 1, 2], [1, 2**40], ValueError, "indices[1] = 1099511627776"),
    ("a self-loop", [0, 1, 2], [0, 1], ValueError, "node 0 lists itself"),
    ("a duplicate", [0, 2, 4], [1, 1, 0, 0], ValueError, "node 0 lists neighbour 1 more"),
    ("one way", [0, 1, 1], [1], ValueError, "edge 0-1 is listed at node 0"),
]


@pytest.mark.parametrize("what, indptr, indices, error, message", BAD_CSR,
                         ids=[b[0] for b in BAD_CSR])
def test_bad_csr(what, indptr, indices, error, message):
    with pytest.raises(error, match=re.escape(message)):
        Graph.from_csr(indptr, indices)


def test_bad_numpy_csr():
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match="format 'd'"):
        Graph.from_csr(np.array([0.0, 1, 2]), np.array([1, 0]))
    with pytest.raises(TypeError, match="indices"):
        Graph.from_csr(np.array([0, 1, 2]), np.array([True, False]))
    with pytest.raises(ValueError, match="one-dimensional"):
        Graph.from_csr(np.zeros((2, 2), np.int32), np.array([1, 0]))
    with pytest.raises(ValueError, match="node 0 lists neighbour 7"):
        Graph.from_csr(np.array([0, 1, 2], np.int32), np.array([7, 0], np.int32))
    with pytest.raises(TypeError, match="scipy.sparse"):
        Graph.from_csr(np.array([0, 1, 2], np.int32))


def test_a_tampered_pickle_is_validated_again():
    g = Graph([[1], [0]])
    func, args = g.__reduce__()
    self_loop = struct.pack("<2i", 1, 1)  # node 1 now lists itself (pickles are little-endian)
    with pytest.raises(ValueError, match="node 1 lists itself"):
        func(args[0], args[1], args[2], self_loop, args[4])


def _pickled_with(labels):
    func, args = Graph({"a": ["b"], "b": ["a"]}).__reduce__()
    return func(*args[:4], labels)


def _networkx_with(node):
    nx = pytest.importorskip("networkx")
    return Graph.from_networkx(nx.path_graph(["a", node]))


# A graph with a node named True or False (or a numpy bool), from every way a label comes in.
BOOL_NAMED = {
    "mapping": lambda: Graph({"a": [True], True: ["a"]}),
    "pickle": lambda: _pickled_with(("a", True)),
    "networkx": lambda: _networkx_with(False),
    "numpy bool": lambda: _networkx_with(pytest.importorskip("numpy").bool_(True)),
}


@pytest.mark.parametrize("case", BOOL_NAMED)
def test_a_bool_is_no_node_name(case):
    """True is 1 to Python, and catmouse's node arguments refuse bools: a graph that names a
    node True could never have it named (the CLI said both "node false is not in the graph (its
    nodes are ... False)" and, for --mouse 0, "mouse on 0" while playing False)."""
    with pytest.raises(ValueError, match=r"^node (np\.)?(True|False)_? is a bool, which Python "
                                         r"takes for the number [01]"):
        BOOL_NAMED[case]()


@pytest.mark.parametrize("node", [6, -1, 1.5, "0"])
def test_node_queries_check_the_node(node):
    g = Graph(EXAMPLE)
    for query in (g.neighbors, g.degree, g.label):
        with pytest.raises((ValueError, TypeError)):
            query(node)


def test_graph_keeps_no_instance_dict():
    """A Graph holds only its slots: no per-instance dict to grow or to write into."""
    g = Graph(EXAMPLE)
    assert not hasattr(g, "__dict__")


@pytest.mark.parametrize("value, message", [
    (-100, "lists neighbour -100"),
    (-(2**31), "lists neighbour -2147483648"),  # the least int32: fits, but is no node
    (-(2**31) - 1, "does not fit in int32"),
    (2**31, "does not fit in int32"),
])
def test_from_csr_int32_range(value, message):
    with pytest.raises(ValueError, match=message):
        Graph.from_csr([0, 1], [value], directed=True)


def test_len_is_the_node_count():
    assert len(Graph(EXAMPLE)) == 6 and len(Graph([])) == 0


def test_from_matrix_reads_a_plain_2d_memoryview():
    """A buffer that is not numpy's: read through memoryview itself."""
    cells = bytearray([0, 1, 1, 1, 0, 0, 1, 0, 0])
    g = Graph.from_matrix(memoryview(cells).cast("B", (3, 3)))
    assert g.adjacency() == [[1, 2], [0], [0]]


def test_from_matrix_sorts_scipy_rows():
    sp = pytest.importorskip("scipy.sparse")
    np = pytest.importorskip("numpy")
    unsorted = sp.csr_matrix((np.ones(4), np.array([2, 1, 0, 0]), np.array([0, 2, 3, 4])),
                             shape=(3, 3))
    assert not unsorted.has_sorted_indices
    assert Graph.from_matrix(unsorted).neighbors(0) == (1, 2)
    assert Graph.from_csr(unsorted).neighbors(0) == (1, 2)
    assert Graph.from_csr(unsorted) == Graph.from_matrix(unsorted)


def test_directed_true_takes_a_networkx_digraph_and_refuses_an_undirected_graph():
    nx = pytest.importorskip("networkx")
    assert Graph(nx.DiGraph([(0, 1)]), directed=True).adjacency() == [[1], []]
    with pytest.raises(ValueError, match="^directed=True, but the networkx graph is undirected"):
        Graph(nx.path_graph(3), directed=True)


def test_directed_left_out_follows_a_graph_that_says_and_a_contrary_word_is_refused():
    # Graph(g) of a directed g raised "cannot change", and Graph(DiGraph, directed=False)
    # quietly gave one-way edges: the default could not be told from an explicit False.
    nx = pytest.importorskip("networkx")
    one_way = Graph([[1], [2], [0]], directed=True)
    assert Graph(one_way).directed and Graph(one_way, directed=True) == one_way
    assert not Graph(Graph([[1], [0]])).directed
    assert Graph(nx.DiGraph([(0, 1)])).directed
    assert not Graph(nx.path_graph(3)).directed
    assert not Graph(nx.path_graph(3), directed=False).directed
    with pytest.raises(ValueError, match=r"^directed=False, but the networkx graph is directed"
                       r".*G\.to_undirected\(\)"):
        Graph(nx.DiGraph([(0, 1)]), directed=False)
    with pytest.raises(ValueError, match="^directed=False, but an existing Graph is directed"
                       r".*\(its edges listed both ways\)$"):
        Graph(one_way, directed=False)
    with pytest.raises(ValueError, match="^directed=True, but an existing Graph is undirected"):
        Graph(Graph([[1], [0]]), directed=True)
    # Lists say nothing: undirected unless told, so one-way lists are refused.
    with pytest.raises(ValueError):
        Graph([[1], [2], [0]])


def test_a_two_dimensional_array_past_the_node_limit_is_refused_as_a_matrix():
    # Before a row of it is read, whatever its shape.
    numpy = pytest.importorskip("numpy")
    shapes = [(70000, 3), (3, 70000)]
    if numpy.dtype(numpy.intp).itemsize == 8:
        # A 32-bit numpy cannot make an array of 70000 x 70000 elements at all.
        shapes.append((70000, 70000))
    for shape in shapes:
        huge = numpy.broadcast_to(numpy.int8(0), shape)  # no memory behind it
        with pytest.raises(ValueError, match="^an adjacency matrix of 70000 nodes is too large"):
            Graph(huge)


def test_int32_bytes_come_in_groups_of_four():
    from catmouse.graph_checks import int32_bytes

    assert int32_bytes(bytes([1, 0, 0, 0]), "<", ">") == bytes([0, 0, 0, 1])
    with pytest.raises(ValueError, match="^int32 bytes must come in groups of 4$"):
        int32_bytes(bytes(6), "<", ">")


def test_from_csr_refuses_too_many_nodes_given_as_an_iterator():
    # A generator has no size to read first: the count is checked once it is read, and
    # before indices is read (it could be as long as the graph is big).
    def never_read():
        raise AssertionError("indices read for a graph already too big")
        yield  # pragma: no cover

    for indices in ([], never_read()):
        with pytest.raises(ValueError, match="^a graph of 65537 nodes is too large"):
            Graph.from_csr((0 for _ in range(65538)), indices)


def test_a_directed_graph_solves_alike_however_it_is_built():
    # Lists go through the engine's builder; from_edges and from_csr find the predecessors
    # (the reverse arrays the solver walks back along) in Python.
    import random

    rng = random.Random(12)
    n = 12
    edges = sorted({(u, v) for u, v in (rng.sample(range(n), 2) for _ in range(40))})
    rows = [[v for u2, v in edges if u2 == u] for u in range(n)]
    indptr = [0]
    for row in rows:
        indptr.append(indptr[-1] + len(row))
    built = [Graph(rows, directed=True), Graph.from_edges(n, edges, directed=True),
             Graph.from_csr(indptr, [v for row in rows for v in row], directed=True)]
    tables = [catmouse.analyze(g).outcomes.tobytes() for g in built]
    assert tables[1] == tables[0] and tables[2] == tables[0]
    assert len(set(tables[0])) > 1


def test_a_directed_graphs_reverse_arrays_list_each_nodes_predecessors():
    # The engine's work-list reads them; wrong ones are caught there (it then recomputes
    # every row each round), so the answers alone cannot tell: check the arrays themselves.
    rows = [[1, 2], [2], [0, 3], [], [0, 1, 2, 3]]
    indptr = [0]
    for row in rows:
        indptr.append(indptr[-1] + len(row))
    built = [Graph(rows, directed=True),  # (the compiled list reader makes its own)
             Graph.from_csr(indptr, [v for row in rows for v in row], directed=True),
             Graph.from_edges(5, [(u, v) for u, row in enumerate(rows) for v in row],
                              directed=True)]
    for g in built:
        for v in range(g.n):
            into = sorted(u for u in range(g.n) if v in rows[u])
            assert sorted(g._rindices[g._rindptr[v]:g._rindptr[v + 1]]) == into, (g, v)


def test_a_0_1_matrix_given_as_lists_is_named_as_one():
    # Rows of 0s and 1s are neighbour lists to Graph(), so a matrix failed as "node 0 lists
    # itself" with nothing to say what was meant; the error now says which reading fits.
    hint = ("these rows read as a 0/1 adjacency matrix, but a graph's rows are neighbour lists "
            "(in Python, a 2-D array, numpy.array(rows), is read as a matrix)")
    for rows in ([[0, 1, 1], [1, 0, 0], [1, 0, 0]], [[1, 0], [0, 1]]):
        with pytest.raises(ValueError, match=re.escape(hint)):
            Graph(rows)
    np = pytest.importorskip("numpy")
    assert Graph(np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]])).n == 3
    for rows in ([[0, 1], [1]], [[1, 2], [0], [0, 0]], [[0]]):  # not square 0/1, or n = 1
        with pytest.raises(ValueError) as error:
            Graph(rows)
        assert "matrix" not in str(error.value)


def test_a_zero_dimensional_array_is_refused_as_the_number_it_is():
    """A 0-d numpy array has __iter__ but refuses iteration: as a graph, a node's
    neighbours or from_edges' edges it stopped with numpy's bare 'iteration over a 0-d
    array' instead of the error a plain number gets."""
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match="^a graph must be a sequence of neighbour lists"):
        Graph(np.array(0))
    with pytest.raises(TypeError, match="^a graph must be a sequence of neighbour lists"):
        catmouse.solve(np.array(0))
    with pytest.raises(TypeError, match="^node 0's neighbours must be a list of node ids"):
        Graph([np.array(1), np.array(0)])
    with pytest.raises(TypeError, match="^node 0's neighbours must be an iterable of nodes"):
        Graph({0: np.array(1), 1: np.array(0)})
    with pytest.raises(TypeError, match="^edges must be an iterable of"):
        Graph.from_edges(2, np.array(0))


def test_a_datetime_array_is_refused_with_catmouse_words():
    """numpy exports no buffer of datetime64 or timedelta64 and says so with a ValueError,
    which leaked out bare ('cannot include dtype 'M' in a buffer') from Graph, from_csr and
    from_matrix."""
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match=r"^indptr\[0\] must be an integer node id"):
        Graph.from_csr(np.array([0, 1, 2], "M8[s]"), [1, 0])
    with pytest.raises(TypeError, match=r"^indices\[0\] must be an integer node id"):
        Graph.from_csr([0, 1, 2], np.array([1, 0], "m8[s]"))
    with pytest.raises(TypeError, match="^neighbour 0 of node 0 must be an integer node id"):
        catmouse.solve(np.zeros((3, 3), "m8[s]"))
    with pytest.raises(TypeError, match="^an adjacency matrix must be a 2-D array of numbers"):
        Graph.from_matrix(np.zeros((3, 3), "M8[s]"))
