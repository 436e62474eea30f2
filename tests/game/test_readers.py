"""The public readers: graph6 streamed line by line, edge lists, JSON, stdin."""

from __future__ import annotations

import io
import warnings

import pytest

import catmouse
from catmouse import Graph

# Graph6 lines of three graphs: a triangle, a path of 4 nodes, K4.
TRIANGLE, PATH4, K4 = "Bw", "Ch", "C~"


class Lines:
    """A text stream that records how many lines were read, and refuses past ``stop``."""

    def __init__(self, lines, stop=None):
        self.lines, self.read, self.stop = iter(lines), 0, stop

    def readline(self, size=-1):
        if self.stop is not None and self.read >= self.stop:
            raise AssertionError("read past what was asked for")
        line = next(self.lines, "")
        assert len(line) <= size or size < 0  # the lines here are short
        self.read += 1
        return line


def test_the_readers_are_public_and_documented():
    for name in ("read_graph", "read_graphs", "read_graph6", "read_edge_list", "read_json",
                 "GraphFile"):
        assert name in catmouse.__all__
        assert ">>> " in getattr(catmouse, name).__doc__


def test_read_graph6_streams_one_graph_per_line_without_reading_ahead():
    stream = Lines([TRIANGLE + "\n", PATH4 + "\n", K4 + "\n"] * 1000, stop=3)
    graphs = catmouse.read_graph6(stream)
    assert stream.read == 0  # nothing read before the first graph is asked for
    first = next(graphs)
    assert (first.n, first.num_edges) == (3, 3)
    # Each graph as soon as its line is read: no line of lookahead (a slow pipe's graph is
    # answered before the next line comes).
    assert stream.read == 1
    assert next(graphs).num_edges == 3 and next(graphs).num_edges == 6
    with pytest.raises(AssertionError, match="read past"):
        next(graphs)


def test_read_graph6_takes_paths_binary_files_headers_and_names_bad_lines(tmp_path):
    path = tmp_path / "many.g6"
    path.write_text(f">>graph6<<{TRIANGLE}\n\n{PATH4}\r\n{K4}\n")
    assert [g.num_edges for g in catmouse.read_graph6(path)] == [3, 3, 6]
    assert [g.n for g in catmouse.read_graph6(io.BytesIO(b"\xef\xbb\xbfBw\nC~\n"))] == [3, 4]
    graphs = catmouse.read_graph6(io.StringIO(f"{TRIANGLE}\n{PATH4}\nC!\n"))
    assert len([next(graphs), next(graphs)]) == 2  # the good lines come before the error
    with pytest.raises(ValueError, match="line 3: graph6 holds the character '!'"):
        next(graphs)
    with pytest.raises(ValueError, match="empty"):
        list(catmouse.read_graph6(io.StringIO("\n\n")))
    with pytest.raises(TypeError, match="a path, '-'"):
        catmouse.read_graph6(42)  # type: ignore[arg-type]


def test_read_graph6_reads_stdin(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"Bw\nC~\n")))
    assert [g.num_edges for g in catmouse.read_graph6("-")] == [3, 6]


def test_read_graphs_streams_and_read_graph_points_to_it(tmp_path):
    path = tmp_path / "three"  # no suffix: the format is guessed from the first line
    path.write_text(f"{TRIANGLE}\n{PATH4}\n{K4}\n")
    files = catmouse.read_graphs(str(path))
    assert iter(files) is files  # an iterator, not a list
    assert [(f.graph.n, f.source) for f in files] == [(3, str(path)), (4, str(path)),
                                                      (4, str(path))]
    with pytest.raises(ValueError, match=r"holds 3 graphs.*catmouse\.read_graphs") as error:
        catmouse.read_graph(path)
    # The function the message names is public.
    assert "catmouse.read_graphs" in str(error.value) and callable(catmouse.read_graphs)
    with pytest.raises(ValueError, match="catmouse.read_graph6"):
        from catmouse.io.graph_files import parse_graph6

        parse_graph6(f"{TRIANGLE}\n{K4}\n")


def test_read_json_and_edge_list_from_paths_and_streams(tmp_path):
    source = catmouse.read_json(io.StringIO('{"graph": [[1], [0, 2], [1]], "mouse": 2}'))
    assert (source.graph.adjacency(), source.mouse, source.cat) == ([[1], [0, 2], [1]], 2, None)
    assert "mouse=2" in repr(source)
    path = tmp_path / "g.edges"
    path.write_text("0 1\n1 2\n")
    assert catmouse.read_edge_list(path).adjacency() == [[1], [0, 2], [1]]
    assert catmouse.read_edge_list(path, directed=True).adjacency() == [[1], [2], []]
    assert isinstance(catmouse.read_graph(path).graph, Graph)


def test_an_edge_list_with_gaps_says_what_it_did_with_the_missing_ids():
    with pytest.warns(UserWarning, match=r"names no node 0, 3, 4, 6 \(4 of ids 0\.\.7\).*"
                                         "isolated node"):
        graph = catmouse.read_edge_list(io.StringIO("1 2\n5 7\n"))
    assert graph.n == 8 and graph.adjacency()[0] == [] and graph.adjacency()[6] == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no gap, or every gap declared: no warning
        catmouse.read_edge_list(io.StringIO("1 2\n5 7\n0\n3\n4\n6\n"))


def test_a_byte_order_mark_is_dropped_on_the_first_line_only(tmp_path):
    path = tmp_path / "bom.edges"
    path.write_bytes("\ufeff0 1\n1 2\n".encode())
    assert catmouse.read_edge_list(path).adjacency() == [[1], [0, 2], [1]]
    assert catmouse.read_edge_list(io.StringIO("\ufeff0 1\n1 2\n")).adjacency() == [
        [1], [0, 2], [1]]
    # Further on, U+FEFF is a character in a line (a zero-width space), not a mark.
    path.write_bytes("0 1\n\ufeff1 2\n".encode())
    for source in (path, io.StringIO("0 1\n\ufeff1 2\n")):
        with pytest.raises(ValueError, match=r"^line 2, column 1: the character '\\ufeff'"):
            catmouse.read_edge_list(source)


def test_read_edge_list_is_undirected_unless_told():
    assert catmouse.read_edge_list(io.StringIO("0 1\n")).adjacency() == [[1], [0]]
    assert not catmouse.read_edge_list(io.StringIO("0 1\n")).directed


def test_the_graph6_node_count_in_its_longer_headers():
    # 63 nodes and more: '~' then 18 bits; past 258047, '~~' then 36 bits.
    graph = catmouse.read_graph6(io.StringIO("~??~" + "?" * 326)).__next__()
    assert (graph.n, graph.num_edges) == (63, 0)
    # 4032 nodes: the middle six bits all set, the first and last clear.
    with pytest.raises(ValueError, match="^graph6 for 4032 nodes needs 1354416 bytes of edges"):
        next(catmouse.read_graph6(io.StringIO("~?~?")))
    # The eight-byte header whole, and nothing after it: its count is read and refused.
    with pytest.raises(ValueError, match="graph of 258048 nodes is too large"):
        next(catmouse.read_graph6(io.StringIO("~~???~??")))
    with pytest.raises(ValueError, match="node count is cut short"):
        next(catmouse.read_graph6(io.StringIO("~~???~?")))


def test_graph_file_repr_names_the_starts_given_only():
    source = catmouse.read_json(io.StringIO('{"graph": [[1], [0]], "cat": 0, "hole": 1}'))
    assert repr(source).endswith(": 2 nodes, cat=0, hole=1>")
    assert repr(catmouse.read_json(io.StringIO("[[1], [0]]"))).endswith(": 2 nodes>")
