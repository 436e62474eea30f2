"""Input a user hands over: huge ids, several graphs in one file, natural Python objects."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import catmouse
from catmouse import Game, Graph, Outcome, Turn
from catmouse.cli.commands import main
from catmouse.engine.facts import MAX_NODES
from catmouse.io.graph_files import parse_graph6, parse_graph6_all, read_graph, read_graphs

EXAMPLE = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
EXAMPLE_EDGES = [(0, 2), (0, 5), (1, 3), (2, 4), (2, 5), (3, 4), (3, 5)]


def cli(*argv, stdin=None, limit_memory=False, timeout=60):
    """Run ``python -m catmouse`` as a user would; a 1 GiB address-space cap on request."""
    def cap():  # pragma: no cover - runs in the child
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    return subprocess.run(
        [sys.executable, "-m", "catmouse", *map(str, argv)], input=stdin,
        capture_output=True, text=True, timeout=timeout,
        preexec_fn=cap if limit_memory else None, env=dict(os.environ),
    )


# -- sizes are checked before anything is built -----------------------------------


def test_edge_list_with_a_huge_id_is_one_line_and_exit_1(tmp_path):
    path = tmp_path / "huge.edges"
    path.write_text("0 1\n1 99999999999999999999\n")
    done = cli("solve", path, limit_memory=True, timeout=30)
    assert done.returncode == 1
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "line 2" in done.stderr and "too large" in done.stderr
    assert f"at most {MAX_NODES} nodes" in done.stderr


def test_edge_list_just_past_the_node_limit_is_refused_by_line(tmp_path):
    path = tmp_path / "big.edges"
    path.write_text(f"0 1\n1 {MAX_NODES}\n")
    code = main(["solve", str(path)])
    assert code == 1
    with pytest.raises(ValueError, match="line 2: node id .* too large"):
        read_graph(str(path))


def test_json_and_graph6_past_the_node_limit_are_refused(tmp_path):
    n = MAX_NODES + 1
    path = tmp_path / "big.json"
    path.write_text("[" + ",".join(["[]"] * n) + "]")
    with pytest.raises(ValueError, match=f"{n} nodes is too large"):
        read_graph(str(path))
    # graph6's 18-bit node count, cut short: the size is what is wrong first.
    digits = [(n >> shift) & 63 for shift in (12, 6, 0)]
    header = chr(126) + "".join(chr(63 + d) for d in digits)
    with pytest.raises(ValueError, match=f"{n} nodes is too large"):
        parse_graph6(header + "?")


def test_from_edges_refuses_more_nodes_than_the_engine_solves():
    limit = MAX_NODES
    with pytest.raises(ValueError, match=f"at most {limit} nodes"):
        Graph.from_edges(limit + 1, [(0, 1)])
    assert Graph.from_edges(3, [(0, 1)]).n == 3


# -- a graph6 file of several graphs ------------------------------------------------


def write_g6(tmp_path, graphs, header=False):
    nx = pytest.importorskip("networkx")
    text = "".join(nx.to_graph6_bytes(g, header=header and k == 0).decode()
                   for k, g in enumerate(graphs))
    path = tmp_path / "many.g6"
    path.write_text(text)
    return path


def test_reader_gives_every_graph_of_a_g6_file(tmp_path):
    nx = pytest.importorskip("networkx")
    graphs = [nx.petersen_graph(), nx.cycle_graph(5), nx.complete_graph(4)]
    path = write_g6(tmp_path, graphs, header=True)
    files = read_graphs(str(path))
    assert [f.graph.num_edges for f in files] == [15, 5, 6]
    with pytest.raises(ValueError, match="holds 3 graphs"):
        read_graph(str(path))
    with pytest.raises(ValueError, match="holds 3 graphs"):
        parse_graph6(path.read_text())
    assert len(parse_graph6_all(path.read_text())) == 3


def test_cli_solves_each_graph_of_a_g6_file(tmp_path, capsys):
    nx = pytest.importorskip("networkx")
    graphs = [nx.petersen_graph(), nx.path_graph(3), nx.cycle_graph(6)]
    path = write_g6(tmp_path, graphs)
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    blocks = out.split("\n\n")
    assert len(blocks) == 3
    for k, (block, g) in enumerate(zip(blocks, graphs), 1):
        assert block.startswith(f"{path} graph {k} of 3: graph of {len(g)} nodes")
        expected = catmouse.solve(Graph.from_networkx(g))
        words = {Outcome.MOUSE_WIN: "the mouse wins", Outcome.CAT_WIN: "the cat wins",
                 Outcome.DRAW: "a draw"}[expected]
        assert f"outcome: {words}" in block
    # As JSON: one object per graph, in file order.
    assert main(["solve", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["outcome"] for d in data] == [
        catmouse.solve(Graph.from_networkx(g)).name for g in graphs]
    assert [d["graph"] for d in data] == [1, 2, 3]


def test_cli_analyze_of_several_graphs_is_refused_clearly(tmp_path, capsys):
    nx = pytest.importorskip("networkx")
    path = write_g6(tmp_path, [nx.path_graph(3), nx.path_graph(4)])
    assert main(["analyze", str(path), "-o", str(tmp_path / "t.json")]) == 1
    err = capsys.readouterr().err
    assert "holds 2 graphs" in err and err.count("\n") == 1
    assert not (tmp_path / "t.json").exists()


def test_a_bad_line_in_a_g6_file_is_named(tmp_path, capsys):
    path = tmp_path / "bad.g6"
    path.write_text("Bw\nC~\nC~~~\n")
    assert main(["solve", str(path)]) == 1
    assert "line 3" in capsys.readouterr().err


# -- natural inputs -------------------------------------------------------------------


def example_networkx():
    nx = pytest.importorskip("networkx")
    names = ["hole", "start", "den", "a", "b", "c"]
    G = nx.Graph()
    G.add_nodes_from(names)
    G.add_edges_from((names[u], names[v]) for u, v in EXAMPLE_EDGES)
    return G, names


def test_networkx_graph_to_solve_analyze_and_game(use_engine):
    G, names = example_networkx()
    assert catmouse.solve(G, "start", "den", hole="hole") == catmouse.solve(EXAMPLE)
    assert catmouse.solve(G, "a", "b", hole="hole") == catmouse.solve(EXAMPLE, 3, 4)
    assert catmouse.solve(G, mouse="a", cat="b", hole="hole") == catmouse.solve(EXAMPLE, 3, 4)
    analysis = catmouse.analyze(G, hole="hole")
    assert analysis.outcome("a", "b", Turn.CAT) == Outcome.CAT_WIN
    assert analysis.remoteness("a", "b", Turn.CAT) == 1
    assert analysis.best_moves("a", "b", Turn.CAT) == ["a"]  # answers are labels too
    assert analysis.line("start", "den")[0] == ("start", "den", Turn.MOUSE)
    game = Game(G, holes=("hole",), cat_goals=["c"], mouse_stays=True)
    same = Game(EXAMPLE, holes=(0,), cat_goals=[5], mouse_stays=True)
    assert game.solve("a", "b") == same.solve(3, 4)
    assert game.analyze().outcomes.tobytes() == same.analyze().outcomes.tobytes()
    with pytest.raises(ValueError, match="mouse='nowhere' is not a node of this graph"):
        catmouse.solve(G, mouse="nowhere", hole="hole")
    with pytest.raises(ValueError, match="holes names 'nowhere', which is not a node"):
        Game(G, holes=["nowhere"])
    batch = catmouse.solve_many([G, G], mouse="start", cat="den", hole="hole")
    assert batch == [catmouse.solve(EXAMPLE)] * 2


def test_labelled_starts_are_labels_only():
    nx = pytest.importorskip("networkx")
    # Integer labels that are not the node ids: 1 names the label 1 (id 2).
    G = nx.Graph([(5, 3), (3, 1)])
    g = Graph.from_networkx(G)
    assert g.labels == (5, 3, 1) and g.index(1) == 2
    a = catmouse.analyze(g, hole=5)
    assert a.outcome(1, 3) == Outcome(a.outcomes[0, 2, 1])
    # An id that is no label (2 is id of label 1) is refused, never read as an id.
    with pytest.raises(ValueError, match=r"cat=2 is not a node"):
        a.outcome(1, 2)
    with pytest.raises(ValueError, match=r"cat=2 \(LeetCode's default\) is not a node"):
        a.outcome(1)
    assert catmouse.solve(g, 1, 3, hole=5) == a.outcome(1, 3)
    # The result is the same on the second call (no cached board reading ids).
    assert catmouse.solve(g, 1, 3, hole=5) == a.outcome(1, 3)


@pytest.mark.parametrize("dtype", ["int64", "uint8", "bool", "float64", ">i4", "float16", ">f2",
                                   "object"])
def test_numpy_adjacency_matrix(use_engine, dtype):
    np = pytest.importorskip("numpy")
    matrix = np.zeros((6, 6), dtype=dtype)
    for u, v in EXAMPLE_EDGES:
        matrix[u, v] = matrix[v, u] = 1
    assert catmouse.solve(matrix) == catmouse.solve(EXAMPLE)
    assert catmouse.analyze(matrix).outcomes.tobytes() == \
        catmouse.analyze(EXAMPLE).outcomes.tobytes()
    assert Graph(matrix) == Graph(EXAMPLE) == Graph.from_matrix(matrix)
    assert Game(matrix).solve(1, 2) == catmouse.solve(EXAMPLE)


def test_a_memoryview_of_a_matrix_is_a_matrix(use_engine):
    # A 2-D buffer is a matrix wherever a graph goes, a memoryview as well as what it views
    # (memoryview cannot take a row of itself: it raised NotImplementedError, unnamed in a
    # batch).
    matrix = bytearray(36)
    for u, v in EXAMPLE_EDGES:
        matrix[6 * u + v] = matrix[6 * v + u] = 1
    view = memoryview(matrix).cast("B", (6, 6))
    assert Graph(view) == Graph(EXAMPLE) == Graph.from_matrix(view)
    assert catmouse.solve(view) == catmouse.solve(EXAMPLE)
    assert catmouse.solve_many([EXAMPLE, view], threads=2) == [catmouse.solve(EXAMPLE)] * 2
    with pytest.raises(ValueError, match=r"^graph 1 of the batch: .*self-loop at node 0"):
        catmouse.solve_many([EXAMPLE, memoryview(bytes([1])).cast("B", (1, 1))])
    with pytest.raises(ValueError, match=r"^an adjacency matrix must be square, got shape \(2, 3"):
        catmouse.solve(memoryview(bytes(6)).cast("B", (2, 3)))


def test_adjacency_matrix_errors_say_what_is_wrong():
    np = pytest.importorskip("numpy")
    loop = np.array([[0, 1], [1, 1]])
    with pytest.raises(ValueError, match=r"diagonal at \(1, 1\): a self-loop at node 1"):
        catmouse.solve(loop)
    one_way = np.array([[0, 1, 0], [0, 0, 1], [0, 1, 0]])
    with pytest.raises(ValueError, match=r"not symmetric: entry \(0, 1\) is 1 but \(1, 0\)"):
        catmouse.solve(one_way)
    assert Graph(one_way, directed=True).adjacency() == [[1], [2], [1]]
    with pytest.raises(ValueError, match=r"entry \(0, 1\) is 2"):
        Graph(np.array([[0, 2], [2, 0]]))
    with pytest.raises(ValueError, match="square"):
        Graph.from_matrix(np.zeros((2, 3)))
    # Text is no matrix of numbers: "0" was an entry, and a self-loop on the diagonal.
    for text in (np.array([["0", "1"], ["1", "0"]]), np.array([[b"0", b"1"], [b"1", b"0"]])):
        with pytest.raises(TypeError, match="holds numbers .*, not text"):
            Graph(text)
    with pytest.raises(TypeError, match=r"entry \(0, 1\) is '1': entries must be 0 or 1"):
        Graph(np.array([[0, "1"], [1, 0]], dtype=object))
    # Equal-length adjacency lists in a non-square array are still lists.
    assert Graph(np.array([[1, 2], [0, 2], [0, 1]])).num_edges == 3


def test_scipy_sparse_adjacency_matrix(use_engine):
    sparse = pytest.importorskip("scipy.sparse")
    np = pytest.importorskip("numpy")
    dense = np.zeros((6, 6), dtype=np.int8)
    for u, v in EXAMPLE_EDGES:
        dense[u, v] = dense[v, u] = 1
    for make in (sparse.csr_matrix, sparse.coo_matrix, sparse.csc_array, sparse.lil_matrix):
        matrix = make(dense)
        assert catmouse.solve(matrix) == catmouse.solve(EXAMPLE)
        assert Graph(matrix) == Graph(EXAMPLE)
    rows, cols = np.nonzero(dense)
    values = np.append(np.ones(len(rows)), 0)  # an explicitly stored zero is no edge
    with_zero = sparse.coo_matrix((values, (np.append(rows, 1), np.append(cols, 4))))
    assert with_zero.nnz == len(rows) + 1
    assert Graph(with_zero) == Graph(EXAMPLE)
    with pytest.raises(ValueError, match="self-loop at node 0"):
        catmouse.analyze(sparse.csr_matrix(np.eye(3)))


def test_scipy_dok_matrix_is_a_matrix_not_a_mapping(use_engine):
    """scipy's dok format is a dict subclass (keys (row, column)): taken for a mapping of
    neighbours, it failed with 'unhashable type: coo_array' instead of being read as the
    sparse matrix it is."""
    sparse = pytest.importorskip("scipy.sparse")
    np = pytest.importorskip("numpy")
    dense = np.zeros((6, 6), dtype=np.int8)
    for u, v in EXAMPLE_EDGES:
        dense[u, v] = dense[v, u] = 1
    for make in (sparse.dok_matrix, sparse.dok_array):
        matrix = make(dense)
        assert Graph(matrix) == Graph(EXAMPLE)
        assert catmouse.solve(matrix) == catmouse.solve(EXAMPLE)
