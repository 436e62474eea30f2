"""Readers that never guess: a graph file or a node option is read by its documented grammar,
exactly, or refused in one line that names the file, line and field.

The fuzz test mutates valid files and compares the readers with an independent strict parser
written here (it shares no code with catmouse/graph_files.py).
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catmouse.cli import main
from catmouse.io.graph_files import parse_edge_list, parse_json


@pytest.mark.parametrize("said", ['"false"', '"true"', "[]", "0", "1", "null", '"no"'])
def test_directed_must_be_a_json_boolean(said):
    with pytest.raises(ValueError, match='"directed" must be true or false'):
        parse_json('{"graph": [[1], [0]], "directed": ' + said + '}')


@pytest.mark.parametrize("text, key", [
    ('{"nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1}], "links": []}',
     "links"),
    ('{"graph": [[1], [0]], "graph": [[]]}', "graph"),
    ('{"graph": [[1], [0]], "directed": false, "directed": true}', "directed"),
    ('{"graph": [[1], [0]], "mouse": 0, "mouse": 1}', "mouse"),
    ('{"a": ["b"], "b": ["a"], "a": []}', "a"),
    ('{"nodes": [{"id": 0, "id": 1}], "links": []}', "id"),
])
def test_a_key_given_twice_in_a_json_object_is_refused(text, key):
    """json keeps the last of two equal keys without a word: a second "links" emptied the
    graph, a second "graph" replaced it; which one the writer meant is not said."""
    with pytest.raises(ValueError, match=f'^the key "{key}" is given twice in one JSON object'):
        parse_json(text)


@pytest.mark.parametrize("field", ["1_0", "+1", "\u0661", "\uff11", "1.0", "0x1", " 1e1"])
def test_edge_list_ids_are_ascii_digits(field):
    with pytest.raises(ValueError, match=r"^line 2: node ids must be"):
        parse_edge_list(f"0 1\n1 {field}\n")


def test_a_negative_id_is_named_as_such():
    with pytest.raises(ValueError, match="non-negative, got '-1'"):
        parse_edge_list("0 -1\n")


def test_a_json_file_nested_deep_is_one_line(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["solve", str(deep)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested too deeply" in err and str(deep) in err


@pytest.mark.parametrize("option", ["--mouse", "--cat", "--hole", "--holes"])
@pytest.mark.parametrize("value", ["1_0", "+1", "\u0661", "-1", "01x"])
def test_node_options_name_the_files_nodes_only(tmp_path, capsys, option, value):
    """On integer ids an option is ASCII digits: ``1_0``, ``+1``, ``١`` never read as a number."""
    board = tmp_path / "b.json"
    board.write_text("[[1, 3], [0, 2], [1, 3], [0, 2]]")
    assert main(["solve", str(board), f"{option}={value}"]) == 1
    err = capsys.readouterr().err
    assert f"node {value}" in err and "not in the graph (its nodes are 0..3)" in err
    assert err.count("\n") == 1


# -- the fuzz: mutated edge lists, read by the reader and by a strict parser written here --

ID = re.compile(r"[0-9]+\Z")
DIGITS = r"\d(?:_?\d)*"  # Unicode digits, an underscore between two
NUMBER = re.compile(rf"[+-]?(?:(?:{DIGITS}(?:\.(?:{DIGITS})?)?|\.{DIGITS})(?:[eE][+-]?{DIGITS})?"
                    r"|0[xX](?:_?(?:[0-9a-fA-F]|\d))+)\Z")  # int("0x1\u06610", 0) is 272


def strict_edge_list(text: str) -> tuple[list, set[tuple]] | None:
    """The documented grammar, independently: lines split on \\n only; 'u v' or 'u' (spaces,
    tabs or commas between), '#' comments; all-digit files have ids 0..max, any other token
    (that does not read as a number) makes every token a name, nodes in order of first
    appearance; undirected, no self-loop, no edge twice.  None: refused."""
    rows = []
    for line in text.split("\n"):
        body = re.split(r"[ \t,]+", line.removesuffix("\r").split("#", 1)[0])
        body = [field for field in body if field]
        if not body:
            continue
        if len(body) > 2 or any(not field.isprintable() for field in body):
            return None
        if any(not ID.match(field) and NUMBER.match(field) for field in body):
            return None
        rows.append(body)
    if not rows:
        return None
    if all(ID.match(field) for body in rows for field in body):
        ids = [[int(field) for field in body] for body in rows]
        if max(max(body) for body in ids) >= 65535:
            return None
        nodes = list(range(max(max(body) for body in ids) + 1))
    else:
        ids, nodes = rows, []
        for body in rows:
            nodes += [field for field in body if field not in nodes]
    edges = set()
    for body in ids:
        if len(body) == 2:
            key = frozenset(body)
            if len(key) == 1 or key in edges:
                return None
            edges.add(key)
    return nodes, edges


VALID = "0 1\n1 2\n2,3  # a comment\n3 0\n5\n"
JUNK = st.sampled_from(list("0123456789 ,#\n_+-.x\u0661\uff11e\r\f\x1c\u00a0\u2028")
                       + ["1_0", "+1", "  ", "\t", "0x1", "a"])


@pytest.mark.filterwarnings("ignore:the edge list names no node")  # gaps: a note
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(VALID)), JUNK), max_size=4))
def test_mutated_edge_lists_are_read_exactly_or_refused_in_one_line(edits):
    text = VALID
    for at, piece in edits:
        text = text[:at] + piece + text[at:]
    expected = strict_edge_list(text)
    try:
        graph = parse_edge_list(text)
    except ValueError as error:
        assert "\n" not in str(error)
        assert expected is None, (text, str(error))
        return
    assert expected is not None, text
    nodes, edges = expected
    got = {frozenset(pair) for u in graph.labels for pair in ((u, v) for v in graph.neighbors(u))}
    assert (list(graph.labels), got) == (nodes, edges), text


def test_the_strict_parser_agrees_with_the_valid_file():
    pairs = {frozenset(pair) for pair in ((0, 1), (1, 2), (2, 3), (0, 3))}
    assert strict_edge_list(VALID) == (list(range(6)), pairs)
    assert strict_edge_list("a b\n7 a\n") == (["a", "b", "7"], {frozenset("ab"),
                                                                 frozenset(("7", "a"))})
    assert json.loads("[[1], [0]]") == parse_json("[[1], [0]]").graph.adjacency()


# -- the fuzz for JSON and graph6: when the reader accepts a mutated file, a strict parser of
# -- the documented grammar, written here, must read the same graph; else one line refuses it.

class _Refused(Exception):
    pass


def strict_json_value(text: str) -> object:
    """RFC 8259 JSON, strictly: no NaN/Infinity, no trailing commas, no duplicate keys,
    numbers as ints only where they are integers (a fraction or exponent stays a float)."""
    at = 0

    def space() -> None:
        nonlocal at
        while at < len(text) and text[at] in " \t\n\r":
            at += 1

    def value() -> object:
        nonlocal at
        space()
        if at >= len(text):
            raise _Refused("end")
        ch = text[at]
        if ch == "[":
            at += 1
            items: list = []
            space()
            if text[at:at + 1] == "]":
                at += 1
                return items
            while True:
                items.append(value())
                space()
                if text[at:at + 1] == ",":
                    at += 1
                elif text[at:at + 1] == "]":
                    at += 1
                    return items
                else:
                    raise _Refused("array")
        if ch == "{":
            at += 1
            obj: dict = {}
            space()
            if text[at:at + 1] == "}":
                at += 1
                return obj
            while True:
                space()
                key = value()
                if not isinstance(key, str) or key in obj:
                    raise _Refused("key")
                space()
                if text[at:at + 1] != ":":
                    raise _Refused("colon")
                at += 1
                obj[key] = value()
                space()
                if text[at:at + 1] == ",":
                    at += 1
                elif text[at:at + 1] == "}":
                    at += 1
                    return obj
                else:
                    raise _Refused("object")
        if ch == '"':
            found = re.compile(r'"((?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*)"')
            match = found.match(text, at)
            if not match:
                raise _Refused("string")
            at = match.end()
            return json.loads(match.group(0))
        for word, meaning in (("true", True), ("false", False), ("null", None)):
            if text.startswith(word, at):
                at += len(word)
                return meaning
        number = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?").match(text, at)
        if not number or number.end() == at:
            raise _Refused("value")
        at = number.end()
        return int(number.group(0)) if not (number.group(2) or number.group(3)) \
            else float(number.group(0))

    result = value()
    space()
    if at != len(text):
        raise _Refused("trailing")
    return result


def strict_json_graph(text: str) -> tuple[list[list[int]], dict] | None:
    """The documented JSON graph: lists of int ids, or an object with "graph" and optional
    "directed" (a boolean), "mouse", "cat", "hole" (ints).  None: not that grammar."""
    try:
        data = strict_json_value(text)
    except (_Refused, IndexError):
        return None
    extra: dict = {}
    if isinstance(data, dict):
        if not set(data) <= {"graph", "directed", "mouse", "cat", "hole"} or "graph" not in data:
            return None
        if "directed" in data and type(data["directed"]) is not bool:
            return None
        if any(k in data and type(data[k]) is not int for k in ("mouse", "cat", "hole")):
            return None
        extra = {k: data[k] for k in ("mouse", "cat", "hole", "directed") if k in data}
        data = data["graph"]
    if type(data) is not list or not all(type(row) is list for row in data):
        return None
    if not all(type(v) is int for row in data for v in row):
        return None
    return data, extra


JSON_VALID = '{"graph": [[1, 3], [0, 2], [1, 3], [0, 2]], "mouse": 1, "hole": 0}'
JSON_JUNK = st.sampled_from(list('0123456789[]{},:"-. eE') + ["true", "false", "null", "NaN",
                                                               "Infinity", '"directed"', "1.0"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(JSON_VALID)), JSON_JUNK), max_size=3))
def test_mutated_json_graphs_are_read_exactly_or_refused_in_one_line(edits):
    text = JSON_VALID
    for at, piece in edits:
        text = text[:at] + piece + text[at:]
    try:
        read = parse_json(text)
    except ValueError as error:
        assert "\n" not in str(error)
        return
    expected = strict_json_graph(text)
    assert expected is not None, text
    rows, extra = expected
    assert read.graph.adjacency() == [sorted(row) for row in rows] or \
        read.graph.adjacency() == rows, text
    for key in ("mouse", "cat", "hole"):
        assert getattr(read, key) == extra.get(key), (text, key)
    assert read.graph.directed == extra.get("directed", False)


def strict_graph6(line: str) -> tuple[int, set[tuple[int, int]]] | None:
    """One graph6 line by its specification (nauty's formats.txt): bytes 63..126, the node
    count in one, four or eight bytes, the upper triangle column by column, six bits a byte,
    padded with zero bits.  None: not graph6."""
    if line.startswith(">>graph6<<"):
        line = line[len(">>graph6<<"):]
    data = [ord(ch) - 63 for ch in line]
    if not data or any(not 0 <= x <= 63 for x in data):
        return None
    if data[0] < 63:
        n, body = data[0], data[1:]
    elif len(data) >= 4 and data[1] < 63:
        n, body = (data[1] << 12) | (data[2] << 6) | data[3], data[4:]
    elif len(data) >= 8 and data[1] == 63:
        n = 0
        for x in data[2:8]:
            n = (n << 6) | x
        body = data[8:]
    else:
        return None
    pairs = n * (n - 1) // 2
    if len(body) != (pairs + 5) // 6:
        return None
    bits = [(x >> (5 - k)) & 1 for x in body for k in range(6)]
    if any(bits[pairs:]):
        return None  # padding must be zero
    edges, k = set(), 0
    for v in range(1, n):
        for u in range(v):
            if bits[k]:
                edges.add((u, v))
            k += 1
    return n, edges


G6_VALID = "IheA@GUAo"  # the Petersen graph
G6_JUNK = st.sampled_from([chr(c) for c in range(60, 128)] + ["\u00e9", " "])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(G6_VALID)), G6_JUNK, st.booleans()), max_size=3))
def test_mutated_graph6_is_read_exactly_or_refused_in_one_line(edits):
    from catmouse.io.graph_files import parse_graph6

    text = G6_VALID
    for at, piece, replace in edits:
        text = text[:at] + piece + text[at + (1 if replace else 0):]
    try:
        graph = parse_graph6(text)
    except ValueError as error:
        assert "\n" not in str(error)
        return
    expected = strict_graph6(text.strip())
    assert expected is not None, text
    n, edges = expected
    got = {(min(u, v), max(u, v)) for u, row in enumerate(graph.adjacency()) for v in row}
    assert (graph.n, got) == (n, edges), text
