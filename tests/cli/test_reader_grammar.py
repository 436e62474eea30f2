"""One grammar per format, read the same by every reader, with limits checked before work:
graph6 (Python's readers, cop-win, and cop-number on both engines' decoders), edge lists, JSON.
"""

from __future__ import annotations

import io
import json
import os
import re
import select
import subprocess
import sys
import time
import tracemalloc

import pytest

import catmouse
from catmouse.cli.commands import main
from catmouse.io.graph_files import parse_edge_list, parse_graph6_all, read_graphs

# The triangle (cop number 1, cop-win) and the 4-cycle (2, not cop-win), as each file says.
ACCEPTED = {
    "plain": b"Bw\nCl\n",
    "byte-order mark": b"\xef\xbb\xbfBw\nCl\n",
    "blank lines": b"\nBw\n\n \t\r\nCl\n\n",
    "header": b">>graph6<<Bw\n>>graph6<<Cl\n",
    "trailing blanks": b"Bw \t\r\nCl\r\n",
    "CR LF": b"Bw\r\nCl\r\n",
    "no last newline": b"Bw\nCl",
}
# Each refused, with the line of the fault.
REFUSED = {
    "no-break space": ("Bw\u00a0\nCl\n".encode(), 1),
    "form feed": (b"Bw\nCl\x0c\n", 2),
    "vertical tab": (b"Bw\x0b\nCl\n", 1),
    "leading space": (b" Bw\nCl\n", 1),
    "inner space": (b"Bw\nC l\n", 2),
    "mark on line 2": (b"Bw\n\xef\xbb\xbfCl\n", 2),
    "nul": (b"Bw\nCl\x00\n", 2),
    "file separator": (b"Bw\x1c\nCl\n", 1),
    "line separator": ("Bw\u2028\nCl\n".encode(), 1),
    "lone CR inside": (b"B\rw\nCl\n", 1),
}


def graphs_read(reader: str, path, capsys) -> list[tuple[int, int]] | list[str]:
    """What one reader makes of the file: (nodes, edges) per graph, or the CLI's answers."""
    if reader == "read_graph6":
        return [(g.n, g.num_edges) for g in catmouse.read_graph6(path)]
    if reader == "read_graphs":
        return [(f.graph.n, f.graph.num_edges) for f in read_graphs(path)]
    if reader == "parse_graph6_all":
        text = path.read_bytes().decode()
        return [(g.n, g.num_edges) for g in parse_graph6_all(text)]
    command = "cop-win" if reader == "cop-win" else "cop-number"
    code = main([command, str(path)])
    out, err = capsys.readouterr()
    if code:
        raise ValueError(err)
    return out.split("\n")[:2] if command == "cop-number" else out.splitlines()[:2]


READERS = ["read_graph6", "read_graphs", "parse_graph6_all", "cop-win", "cop-number"]


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("name", list(ACCEPTED))
def test_every_graph6_reader_accepts_the_same_files(use_engine, tmp_path, capsys, reader, name):
    path = tmp_path / "g.g6"
    path.write_bytes(ACCEPTED[name])
    got = graphs_read(reader, path, capsys)
    if reader == "cop-number":
        assert got == ["1", "2"]
    elif reader == "cop-win":
        assert got[0].endswith("graph 1: cop-win: one cop catches the robber, whatever the "
                               "robber does") and "graph 2: not cop-win" in got[1]
    else:
        assert got == [(3, 3), (4, 4)]


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("name", list(REFUSED))
def test_every_graph6_reader_refuses_the_same_files(use_engine, tmp_path, capsys, reader,
                                                    name):
    data, line = REFUSED[name]
    path = tmp_path / "g.g6"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=f"line {line}: ") as error:
        graphs_read(reader, path, capsys)
    assert str(error.value).count("\n") <= 1


# Faults every reader names in the same words (cop-number's fast path named a byte: 'Â' for
# a no-break space, and ':' for sparse6).
NAMED = {
    "no-break space": ("Bw\nCl\u00a0\n".encode(), "graph6 holds the character '\\xa0'"),
    "mark on line 2": (b"Bw\n\xef\xbb\xbfCl\n", "graph6 holds the character '\\ufeff'"),
    "line separator": ("Bw\nCl\u2028\n".encode(), "graph6 holds the character '\\u2028'"),
    "sparse6": (b"Bw\n:Bw\n", "sparse6 is not supported"),
    "digraph6": (b"Bw\n&Bw\n", "digraph6 is not supported"),
    "not UTF-8": (b"Bw\nC\xff\n", "not UTF-8 text (byte 0xff)"),
    "a cut character": (b"Bw\nC\xc2\n", "not UTF-8 text (byte 0xc2)"),
    "count cut short": (b"Bw\n~?\n", "graph6 node count is cut short"),
}


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("name", list(NAMED))
def test_every_graph6_reader_names_the_fault_alike(use_engine, tmp_path, capsys, reader, name):
    data, words = NAMED[name]
    path = tmp_path / "g.g6"
    path.write_bytes(data)
    if reader == "parse_graph6_all" and name in ("not UTF-8", "a cut character"):
        return  # (it takes text)
    with pytest.raises(ValueError, match=re.escape(f"line 2: {words}")):
        graphs_read(reader, path, capsys)


def test_a_huge_graph6_line_fails_after_its_header_in_small_memory(use_engine, tmp_path,
                                                                   capsys):
    """A 16 MB line whose header says 2 nodes: each reader stops within a piece or a block."""
    path = tmp_path / "long.g6"
    path.write_bytes(b"A_" + b"?" * (16 << 20) + b"\nBw\n")
    for reader, most in (("read_graph6", 1 << 20), ("read_graphs", 1 << 20),
                         ("cop-win", 1 << 20), ("cop-number", 4 << 20)):
        tracemalloc.start()
        began = time.perf_counter()
        try:
            with pytest.raises(ValueError, match="line 1: .*2 nodes.*holds more"):
                graphs_read(reader, path, capsys)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < most, (reader, peak)
        assert time.perf_counter() - began < 5, reader


class Endless:
    """A stream of one character for ever and no newline (``/dev/zero``), counting what it
    gave: a reader must refuse it after a bounded read."""

    def __init__(self, character: str = "\0", lines: tuple[str, ...] = ()):
        self.character, self.taken, self.lines = character, 0, list(lines)

    def readline(self, size: int = -1) -> str:
        if self.lines:
            return self.lines.pop(0)
        assert size > 0, "a whole line of an endless stream was asked for"
        if self.taken > 8 << 20:
            raise AssertionError("read for ever")
        self.taken += size
        return self.character * size


@pytest.mark.parametrize("read", [
    lambda s: list(catmouse.read_graph6(s)),
    lambda s: list(read_graphs(s, format="graph6")),
])
@pytest.mark.parametrize("character", ["\0", "\u00a0", ":"])
def test_an_endless_graph6_line_with_no_node_count_is_refused_at_once(read, character):
    """A line whose first characters give no node count cannot become graph6: it was read
    piece by piece for ever (the bound on a line needs its count)."""
    stream = Endless(character)
    with pytest.raises(ValueError, match="graph6 holds the character|sparse6 is not"):
        read(stream)
    assert stream.taken <= 1 << 20


@pytest.mark.parametrize("read, text", [
    (catmouse.read_edge_list, parse_edge_list),
    (lambda s: read_graphs(s).__next__().graph,  # (the format guessed)
     lambda t: read_graphs(io.StringIO(t)).__next__().graph),
    (lambda s: read_graphs(s, format="edges").__next__().graph, parse_edge_list),
    (catmouse.read_json, catmouse.io.graph_files.parse_json),
    (lambda s: read_graphs(s, format="json").__next__().graph,
     catmouse.io.graph_files.parse_json),
])
@pytest.mark.parametrize("lines", [(), ("0 1\n", "1 2\n"), ("0 1 2\n",), ("[[1],\n",)])
def test_an_endless_edge_list_or_json_line_that_cannot_be_read_is_refused_at_once(read, text,
                                                                                  lines):
    """/dev/zero as an edge list or JSON was read for ever before being parsed: a line that
    runs on with a character no token (or no JSON) holds is refused there, with the error the
    text read so far gets (an earlier line's, if it has one)."""
    stream = Endless("\0", lines)
    with pytest.raises(ValueError) as error:
        read(stream)
    assert stream.taken <= 1 << 20
    with pytest.raises(ValueError) as whole:
        text("".join(lines) + "\0" * 100)
    assert str(error.value) == str(whole.value)


def test_a_long_line_of_printable_text_or_a_comment_is_still_read_whole():
    name = "a" * (1 << 18)
    assert catmouse.read_edge_list(io.StringIO(f"{name} b # {chr(1) * (1 << 18)}\n"
                                               )).labels == (name, "b")
    assert catmouse.read_json(io.StringIO(f'{{"{name}": ["b"], "b": ["{name}"]}}'
                                          )).graph.labels == (name, "b")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
@pytest.mark.parametrize("command", [["solve"], ["solve", "--format", "json"],
                                     ["solve", "--format", "graph6"], ["cop-win"],
                                     ["cop-number"], ["cop-number", "--format", "json"]])
def test_dev_zero_is_refused_by_every_command_at_once(command):
    result = subprocess.run([sys.executable, "-m", "catmouse", *command, "/dev/zero"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("catmouse: error: /dev/zero: ")
    assert result.stderr.count("\n") == 1
    assert "'\\x00'" in result.stderr or "not valid JSON" in result.stderr


def test_graph6_blanks_after_a_short_graph_stay_bounded_and_allowed():
    text = "Bw" + " " * (1 << 18) + "\nCl\n"
    assert [g.n for g in catmouse.read_graph6(io.StringIO(text))] == [3, 4]
    with pytest.raises(ValueError, match="line 1: graph6 holds the character ' '"):
        list(catmouse.read_graph6(io.StringIO(text.replace("\n", "x\n", 1))))


@pytest.mark.parametrize("text, where", [
    ("0 1\f0 0\n", "line 1, column 4: the character '\\x0c'"),
    ("0 1\n1\x1c2\n", "line 2, column 2: the character '\\x1c'"),
    ("0 1\n1\u20282\n", "line 2, column 2: the character '\\u2028' (LINE SEPARATOR)"),
    ("a\u00a0b c\n", "line 1, column 2: the character '\\xa0' (NO-BREAK SPACE)"),
    ("a b\rc d\n", "line 1, column 4: the character '\\r'"),
    ("a\u2003b c\n", "line 1, column 2: the character '\\u2003' (EM SPACE)"),
])
def test_edge_lists_split_on_ascii_blanks_and_newlines_only(text, where):
    with pytest.raises(ValueError, match="^" + re.escape(where)):
        parse_edge_list(text)


def test_edge_lists_take_tabs_and_crlf():
    assert parse_edge_list("0\t1\r\n1 ,2\r\n").adjacency() == [[1], [0, 2], [1]]


def test_an_id_of_5000_digits_is_one_line_with_its_line(tmp_path, capsys):
    digits = "9" * 5000
    for name, text, message in (
        ("e.edges", f"0 1\n1 {digits}\n", "line 2: node id 99999999...(5000 digits) is too large"),
        ("j.json", f'{{"graph": [[1],\n [0, {digits}]]}}', "line 2: a number of 5000 digits"),
    ):
        path = tmp_path / name
        path.write_text(text)
        assert main(["solve", str(path)]) == 1
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and "4300" not in err


@pytest.mark.parametrize("name, data", [
    ("e.edges", b"0 1\n\xff 2\n"),
    ("j.json", b'{"graph":\n [[1], [0]], "hole": "\xff"}'),
    ("g.g6", b"Bw\n\xffw\n"),
])
def test_bad_utf8_on_line_2_is_named(tmp_path, capsys, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    assert main(["solve", str(path)]) == 1
    err = capsys.readouterr().err
    assert "line 2: " in err and err.count("\n") == 1
    if not name.endswith(".g6"):
        assert "not UTF-8" in err


def test_cop_win_names_a_disconnected_graph_and_goes_on(tmp_path, capsys):
    path = tmp_path / "three.g6"
    path.write_text("Bw\n\nC?\nCl\n")  # the triangle, four lone nodes (line 3), the 4-cycle
    assert main(["cop-win", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1] == (f"{path} graph 2 (line 3): no answer: is_cop_win needs a connected "
                      "graph")
    assert out[2].startswith(f"{path} graph 3: not cop-win")
    assert out[3] == f"{path}: 3 graphs, 1 cop-win, 1 not, 1 with no answer (see their lines)"


def _read_line(stream, seconds: float = 30.0) -> bytes:
    ready, _, _ = select.select([stream], [], [], seconds)
    assert ready, "no answer while the next line is still to come"
    return stream.readline()


@pytest.mark.skipif(os.name != "posix", reason="select on a pipe")
@pytest.mark.parametrize("argv", [
    ["-c", "import sys, catmouse\nfor g in catmouse.read_graph6('-'):\n"
           "    print(g.n, flush=True)"],
    ["-m", "catmouse", "cop-number", "-"],
    ["-m", "catmouse", "cop-number", "--jobs", "2", "-"],
])
def test_a_slow_pipe_gets_each_answer_when_its_line_is_complete(argv):
    process = subprocess.Popen([sys.executable, *argv], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        answers = []
        for line in (b"Bw\n", b"Cl\n", b"IheA@GUAo\n"):
            process.stdin.write(line)
            process.stdin.flush()
            answers.append(_read_line(process.stdout).strip())
        process.stdin.close()
        assert process.wait(timeout=30) == 0, process.stderr.read()
    finally:
        process.kill()
    expected = [b"3", b"4", b"10"] if argv[0] == "-c" else [b"1", b"2", b"3"]
    assert answers == expected


def test_read_graph6_of_stdin_yields_before_the_next_line(monkeypatch):
    class OneLineAtATime(io.RawIOBase):
        def __init__(self):
            self.lines = [b"Bw\n", b"Cl\n"]

        def readable(self):
            return True

        def readinto(self, buffer):
            if not self.lines:
                return 0
            assert len(self.lines) == 2 or self.first_seen, "read on before the answer"
            line = self.lines.pop(0)
            buffer[:len(line)] = line
            return len(line)

    raw = OneLineAtATime()
    raw.first_seen = False
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(raw)))
    graphs = catmouse.read_graph6("-")
    assert next(graphs).n == 3
    raw.first_seen = True
    assert next(graphs).n == 4


def test_json_output_of_tuple_names_is_json(tmp_path, capsys):
    import networkx as nx

    path = tmp_path / "grid.json"
    path.write_text(json.dumps(nx.node_link_data(nx.grid_2d_graph(2, 2))))
    code = main(["solve", str(path), "--mouse", "[0, 1]", "--cat", "(1, 1)", "--hole",
                 "(0, 0)", "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert code == 0 and (answer["mouse"], answer["cat"]) == ([0, 1], [1, 1])


def test_solve_json_is_strict_json_for_infinite_float_names(tmp_path, capsys):
    """A node named Infinity (networkx's json.dump of a float('inf') node, which the reader
    takes) made ``solve --json`` print ``"mouse": Infinity``, which is no JSON: it is written
    as the table's JSON writes such a name."""
    path = tmp_path / "inf.json"
    path.write_text('{"nodes": [{"id": 0}, {"id": Infinity}, {"id": -Infinity}], "links": '
                    '[{"source": Infinity, "target": -Infinity}, {"source": 0, "target": '
                    'Infinity}], "mouse": Infinity, "cat": -Infinity, "hole": 0}')
    assert main(["solve", str(path), "--json"]) == 0

    def refuse(word: str) -> None:
        raise AssertionError(f"{word} is not JSON")

    answer = json.loads(capsys.readouterr().out, parse_constant=refuse)
    assert (answer["mouse"], answer["cat"]) == ({"float": "inf"}, {"float": "-inf"})
    assert answer["line"][0]["mouse"] == {"float": "inf"} and answer["holes"] == [0]


@pytest.mark.parametrize("suffix", [".edges", ".edgelist", ".json"])
def test_an_empty_file_is_read_as_its_suffix_says_by_every_command(tmp_path, capsys, suffix):
    """cop-number took an empty ``.edgelist`` for geng's empty output (graph6) and answered
    nothing, exit 0, where ``.edges`` and the other commands say the file holds no graph."""
    path = tmp_path / f"empty{suffix}"
    path.write_bytes(b"")
    errors = []
    for command in ("cop-number", "cop-win", "solve"):
        assert main([command, str(path)]) == 1, command
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1
        errors.append(err)
    assert len(set(errors)) == 1, errors
