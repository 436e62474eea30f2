"""Node names from the files people have: networkx's edge lists and node-link JSON, read by the
command line and the Python readers, answered in the file's names."""

from __future__ import annotations

import io
import json

import networkx as nx
import pytest

import catmouse
from catmouse import Graph
from catmouse.cli.commands import main
from catmouse.io.graph_files import parse_json, read_graph

LETTERS = dict(zip(range(10), "abcdefghij"))


def petersen_letters() -> nx.Graph:
    graph = nx.relabel_nodes(nx.petersen_graph(), LETTERS)
    graph.graph.clear()
    return graph


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def petersen_files(tmp_path):
    graph = petersen_letters()
    edges = tmp_path / "p.edges"
    nx.write_edgelist(graph, edges, data=False)
    links = tmp_path / "p.json"
    links.write_text(json.dumps(nx.node_link_data(graph)))
    return graph, edges, links


@pytest.mark.parametrize("which", ["edges", "json"])
def test_the_cli_solves_a_named_petersen_and_answers_in_names(use_engine, capsys,
                                                              petersen_files, which):
    graph, edges, links = petersen_files
    path = edges if which == "edges" else links
    code, out, err = run(capsys, "solve", path, "--mouse", "b", "--cat", "c", "--hole", "a",
                         "--json")
    assert (code, err) == (0, "")
    answer = json.loads(out)
    expected = catmouse.solve(graph, "b", "c", hole="a")
    assert answer["outcome"] == expected.name
    assert (answer["mouse"], answer["cat"], answer["holes"]) == ("b", "c", ["a"])
    line = catmouse.analyze(graph, hole="a").line("b", "c")
    assert [(step["mouse"], step["cat"]) for step in answer["line"]] == \
        [(m, c) for m, c, _ in line]
    code, out, _ = run(capsys, "solve", path, "--mouse", "b", "--cat", "c", "--hole", "a")
    assert code == 0 and "start: mouse on b, cat on c, hole a;" in out
    first = line[1]
    assert f"mouse b -> {first[0]}" in out or "mouse stays on b" in out


def test_the_named_edge_list_reads_as_networkx_wrote_it(petersen_files):
    graph, edges, links = petersen_files
    for path in (edges, links):
        read = read_graph(path).graph
        assert set(read.labels) == set("abcdefghij")
        assert {frozenset((u, v)) for u in read.labels for v in read.neighbors(u)} == \
            {frozenset(e) for e in graph.edges}
    # networkx's default writes each edge's data after it: read, and ignored.
    with_data = edges.with_name("data.edges")
    nx.write_edgelist(graph, with_data)
    assert read_graph(with_data).graph == read_graph(edges).graph


def test_node_link_json_every_way_networkx_writes_it():
    grid = nx.grid_2d_graph(2, 3)  # tuple ids: JSON lists, read back as tuples
    for data in (nx.node_link_data(grid), nx.node_link_data(grid, edges="links")):
        read = parse_json(json.dumps(data)).graph
        assert read.labels == tuple(grid.nodes) and read.num_edges == grid.number_of_edges()
    directed = nx.DiGraph([("x", "y"), ("y", "z")])
    read = parse_json(json.dumps(nx.node_link_data(directed))).graph
    assert read.directed and read.neighbors("y") == ("z",)
    numbers = parse_json(json.dumps(nx.node_link_data(nx.path_graph(3)))).graph
    assert numbers.adjacency() == [[1], [0, 2], [1]] and numbers.labels == (0, 1, 2)
    mixed = nx.Graph([(1, "1")])
    assert parse_json(json.dumps(nx.node_link_data(mixed))).graph.labels == (1, "1")
    with pytest.raises(ValueError, match="joins 'a' and 'b' again"):
        parse_json(json.dumps(nx.node_link_data(nx.MultiGraph([("a", "b"), ("a", "b")]))))


def test_to_node_link_is_read_back_by_networkx_and_by_read_json():
    # networkx reads "edges" by default from 3.6 on, "links" before (3.4 is the last on 3.10).
    major, minor = (int(part) for part in nx.__version__.split(".")[:2])
    default = "edges" if (major, minor) >= (3, 6) else "links"
    for graph in (petersen_letters(), nx.grid_2d_graph(2, 2), nx.DiGraph([("x", "y")])):
        ours = Graph.from_networkx(graph)
        data = ours.to_node_link(edges=default)
        assert nx.utils.graphs_equal(nx.node_link_graph(data), graph)
        assert ours.to_node_link(edges="links")["links"] == ours.to_node_link()["edges"]
        back = parse_json(json.dumps(data)).graph
        assert back.labels == ours.labels and back.directed == ours.directed
        assert all(set(back.neighbors(u)) == set(ours.neighbors(u)) for u in ours.labels)
    with pytest.raises(ValueError, match='edges must be "edges" or "links"'):
        Graph([[1], [0]]).to_node_link(edges="arcs")


def test_a_json_object_of_neighbour_lists():
    graph = petersen_letters()
    read = parse_json(json.dumps(nx.to_dict_of_lists(graph))).graph
    assert read == Graph.from_networkx(graph)
    numbers = parse_json(json.dumps(nx.to_dict_of_lists(nx.path_graph(3)))).graph
    assert numbers.adjacency() == [[1], [0, 2], [1]]
    named = parse_json('{"graph": {"a b": ["c"], "c": ["a b"]}, "mouse": "a b"}')
    assert named.graph.labels == ("a b", "c") and named.mouse == "a b"
    with pytest.raises(ValueError, match="'a' lists 'z', which is not a node"):
        parse_json('{"a": ["z"]}')
    with pytest.raises(ValueError, match="lists 'b' but not the other way round"):
        parse_json('{"a": ["b"], "b": []}')


def test_quoted_names_and_names_that_read_as_numbers(tmp_path, capsys):
    path = tmp_path / "towns.edges"
    path.write_text('"New York" Boston\nBoston "1"\n"1" "New York"\n')
    graph = read_graph(path).graph
    assert graph.labels == ("New York", "Boston", "1")
    code, out, _ = run(capsys, "solve", path, "--mouse", "Boston", "--cat", "1",
                       "--hole", '"New York"', "--json")
    assert code == 0 and json.loads(out)["holes"] == ["New York"]
    with pytest.raises(ValueError, match=r"^line 1: node ids must be integers .* got '1\.5'"):
        catmouse.read_edge_list(io.StringIO("a 1.5\n"))


def test_an_option_that_names_two_nodes_is_read_as_json(tmp_path, capsys):
    path = tmp_path / "two.json"
    path.write_text(json.dumps(nx.node_link_data(nx.path_graph([1, "1", "x"]))))
    code, out, _ = run(capsys, "solve", path, "--mouse", "1", "--cat", "x", "--hole", '"1"',
                       "--json")
    answer = json.loads(out)
    assert code == 0 and (answer["mouse"], answer["holes"]) == (1, ["1"])
    code, _, err = run(capsys, "solve", path, "--mouse", "y", "--cat", "x", "--hole", "1")
    assert code == 1 and "mouse node y is not in the graph" in err and err.count("\n") == 1


def test_cop_number_reads_an_edge_list_json_and_several_files(use_engine, capsys,
                                                             petersen_files, tmp_path):
    _, edges, links = petersen_files
    assert run(capsys, "cop-number", edges) == (0, "3\n", "")
    assert run(capsys, "cop-number", links) == (0, "3\n", "")
    grid = tmp_path / "grids.g6"
    grid.write_text("Bw\nCl\n")
    code, out, err = run(capsys, "cop-number", edges, grid, links)
    assert (code, err) == (0, "")
    assert out.splitlines() == [f"{edges}: 3", f"{grid} graph 1: 1", f"{grid} graph 2: 2",
                                f"{links}: 3"]
    assert run(capsys, "cop-number", "--census", edges, grid, links) == (0, "1 1\n2 1\n3 2\n",
                                                                         "")
    assert run(capsys, "cop-number", "--max-cops", "2", edges)[1] == ">2\n"


def test_cop_win_takes_several_files(capsys, petersen_files, tmp_path):
    _, edges, links = petersen_files
    tree = tmp_path / "tree.edges"
    tree.write_text("a b\nb c\n")
    code, out, _ = run(capsys, "cop-win", edges, tree, links)
    assert code == 0
    assert [line.split(":")[:2] for line in out.splitlines()] == [
        [str(edges), " not cop-win"], [str(tree), " cop-win"], [str(links), " not cop-win"]]


def test_a_graph_of_names_without_leetcode_s_nodes_says_which_option_to_give(
        capsys, petersen_files, tmp_path):
    # It said "holes names 0 ...: pass holes=(...)", the Python API's words.
    _, edges, _ = petersen_files
    nodes = "its nodes are 'a', 'b', "
    for argv, option, default in ((["solve", edges], "--mouse", 1),
                                  (["solve", edges, "--mouse", "b", "--cat", "c"], "--hole", 0),
                                  (["solve", edges, "--hole", "a"], "--mouse", 1),
                                  (["solve", edges, "--hole", "a", "--mouse", "b"], "--cat", 2),
                                  (["analyze", edges, "-o", tmp_path / "t.json"], "--hole", 0)):
        code, out, err = run(capsys, *argv)
        assert (code, out) == (1, "")
        assert err.startswith(f"catmouse: error: {edges}: no node of the graph is named "
                              f"{default}, LeetCode's {option[2:]}: name one with {option} "
                              f"({nodes}")
    # analyze needs no players, --holes no hole.
    assert run(capsys, "analyze", edges, "--hole", "a", "-o", tmp_path / "t.json")[0] == 0
    assert run(capsys, "solve", edges, "--holes", "a", "--mouse", "b", "--cat", "c")[0] == 0


def test_a_list_option_naming_no_node_names_the_file_once(capsys, petersen_files):
    _, edges, _ = petersen_files
    code, out, err = run(capsys, "solve", edges, "--hole", "a", "--mouse", "b", "--cat", "c",
                         "--cat-goals", "zz top")
    assert (code, out) == (1, "")
    assert err.startswith(f"catmouse: error: {edges}: cat-goals names node zz, which is not")


def test_a_node_link_file_with_a_bool_node_is_refused_in_one_line(capsys, tmp_path):
    """networkx writes a node named False as JSON's false; Python takes it for 0 and catmouse's
    node arguments refuse bools, so the file is refused where it is read, naming the node (it
    was read, then `--mouse false` was "not in the graph (its nodes are 'h', False, ...)" and
    `--mouse 0` played False while printing "mouse on 0")."""
    graph = nx.Graph([("h", False), (False, True), (True, 3), (3, "h")])
    path = tmp_path / "bools.json"
    path.write_text(json.dumps(nx.node_link_data(graph, edges="links")))
    for options in (["--mouse", "false", "--cat", "true"], ["--mouse", "0", "--cat", "1"]):
        code, out, err = run(capsys, "solve", path, "--hole", "h", *options)
        assert (code, out) == (1, "")
        assert err == (f"catmouse: error: {path}: node False is a bool, which Python takes for "
                       "the number 0: name the node otherwise (e.g. the string 'False')\n")


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_name_that_would_drive_the_terminal_is_shown_escaped(tmp_path, monkeypatch):
    # JSON names may hold any character: ESC, BEL or a carriage return went to the terminal
    # as they were (colours, the window's title, a line overwritten).  On a terminal they are
    # escapes now; a pipe or a file gets the text whole (a CSV's data).  solve's lines show
    # such a name as JSON anyway (it would not read as itself), on a terminal or not.
    red = "\x1b[31mred\x07\r"
    graph = nx.Graph([("hole", "a"), ("a", red), (red, "b"), ("b", "hole")])
    links = tmp_path / "evil.json"
    links.write_text(json.dumps(nx.node_link_data(graph)))
    argv = ["solve", str(links), "--hole", "hole", "--mouse", "a", "--cat", red]
    for stream in ("stdout", "stderr"):
        monkeypatch.setattr(f"sys.{stream}", Terminal())
    import sys

    out, err = sys.stdout, sys.stderr
    assert main(argv) == 0
    assert 'cat on "\\u001b[31mred\\u0007\\r", hole hole' in out.getvalue()
    assert not set(out.getvalue()) & {"\x1b", "\x07", "\r"}
    assert main([*argv[:-1], red + "?"]) == 1
    assert "\x1b" not in err.getvalue() and "\\x1b" in err.getvalue()
    for stream in ("stdout", "stderr"):
        monkeypatch.setattr(f"sys.{stream}", io.StringIO())
    assert main(argv) == 0
    assert 'cat on "\\u001b[31mred\\u0007\\r", hole hole' in sys.stdout.getvalue()
    assert main([*argv[:-1], red + "?"]) == 1
    assert "\x1b[31mred\x07" in sys.stderr.getvalue()  # (not a terminal: the text whole)


class TerminalBytes(io.TextIOWrapper):
    def isatty(self):
        return True


@pytest.mark.parametrize("format", ["csv", "json"])
def test_a_table_written_to_the_terminal_shows_names_escaped(tmp_path, monkeypatch, format):
    # analyze -o - writes its table through stdout's binary buffer, which the terminal's
    # escaping did not see: a CSV gave ESC and BEL to the terminal as they were.  (JSON
    # escapes them itself, and reads back the same.)  A pipe still gets the names whole.
    red = "\x1b[31mred\x07\x9b"
    graph = nx.Graph([("hole", "a"), ("a", red), (red, "b"), ("b", "hole")])
    links = tmp_path / "evil.json"
    links.write_text(json.dumps(nx.node_link_data(graph)))
    argv = ["analyze", str(links), "--hole", "hole", "-o", "-", "--output-format", format]
    monkeypatch.setattr("sys.stderr", io.StringIO())
    for kind in (TerminalBytes, io.TextIOWrapper):
        out = kind(io.BytesIO(), encoding="utf-8")
        monkeypatch.setattr("sys.stdout", out)
        assert main(argv) == 0
        out.flush()
        text = out.buffer.getvalue().decode("utf-8")
        if kind is TerminalBytes:
            assert not set(text) & {"\x1b", "\x07", "\x9b"}
        if format == "json":
            assert red in json.loads(text)["labels"]
        elif kind is TerminalBytes:
            assert ",\\x1b[31mred\\x07\\x9b\n" in text
        else:
            assert f",{red}\n" in text


def test_the_terminal_streams_escape_every_write_and_count_what_they_were_given():
    # writelines went to the stream unescaped, and write returned the escaped text's length.
    from catmouse.cli.outputs import GuardedStdout, ShownStderr

    for wrapper in (GuardedStdout, ShownStderr):
        screen = Terminal()
        stream = wrapper(screen)
        assert stream.write("a\x1bb\n") == 4
        stream.writelines(["\x07c\n", "d\x9b\n"])
        assert screen.getvalue() == "a\\x1bb\n\\x07c\nd\\x9b\n"


def test_solve_names_nodes_that_read_alike_as_they_are_typed(tmp_path, capsys):
    # solve printed labels raw: of the nodes 1 and "1", "mouse on 1, cat on 1", and a name
    # holding a newline split its line.  Such names are shown as JSON, as the options take them
    # (and the terminal game shows them).
    graph = nx.Graph([("hole", 1), (1, "1"), ("1", "two\nlines"), ("two\nlines", "hole")])
    links = tmp_path / "alike.json"
    links.write_text(json.dumps(nx.node_link_data(graph)))
    code, out, _ = run(capsys, "solve", links, "--hole", "hole", "--mouse", '"1"',
                       "--cat", '"two\\nlines"')
    assert code == 0
    assert 'start: mouse on "1", cat on "two\\nlines", hole hole;' in out
    assert ('    1. mouse "1" -> 1\n    2. cat   "two\\nlines" -> "1"\n'
            '    3. mouse 1 -> hole\n') in out
    assert len(out.splitlines()) == 9  # (no name split a line)


def test_names_the_output_encoding_cannot_hold_are_escaped_not_an_error(tmp_path, monkeypatch):
    # Windows gives a redirected or piped stdout the locale's code page (cp1252), which has no
    # 猫 or Ω: ``catmouse solve`` printed its first line, then failed with "'charmap' codec
    # can't encode character" as if the graph file were bad.  Such names are written as
    # Python's escapes (as stderr writes them), the rest as it is.
    graph = tmp_path / "u.json"
    graph.write_text(json.dumps({"猫": ["Ω", "b"], "Ω": ["猫", "b"], "b": ["猫", "Ω", "h"],
                                 "h": ["b"]}), encoding="utf-8")
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    out = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    monkeypatch.setattr("sys.stdout", out)
    assert main(["solve", str(graph), "--mouse", "猫", "--cat", "Ω", "--hole", "h"]) == 0
    out.flush()
    text = out.buffer.getvalue().decode("cp1252")
    assert "start: mouse on \\u732b, cat on \\u03a9, hole h;" in text
    assert "optimal line:" in text and err.getvalue() == ""
