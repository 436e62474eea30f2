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
from catmouse.graph_files import parse_edge_list, parse_json


@pytest.mark.parametrize("said", ['"false"', '"true"', "[]", "0", "1", "null", '"no"'])
def test_directed_must_be_a_json_boolean(said):
    with pytest.raises(ValueError, match='"directed" must be true or false'):
        parse_json('{"graph": [[1], [0]], "directed": ' + said + '}')


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
@pytest.mark.parametrize("value", ["1_0", "+1", "\u0661", "-1"])
def test_node_options_are_ascii_digits(tmp_path, capsys, option, value):
    board = tmp_path / "b.json"
    board.write_text("[[1, 3], [0, 2], [1, 3], [0, 2]]")
    assert main(["solve", str(board), f"{option}={value}"]) == 2
    assert "digits 0-9" in capsys.readouterr().err


# -- the fuzz: mutated edge lists, read by the reader and by a strict parser written here --

ID = re.compile(r"[0-9]+\Z")


def strict_edge_list(text: str) -> tuple[int, set[tuple[int, int]]] | None:
    """The documented grammar, independently: lines 'u v' or 'u' (spaces or one comma between),
    '#' comments, ids ASCII digits; undirected, no self-loop, no edge twice.  None: refused."""
    top, edges = -1, set()
    for line in text.splitlines():
        body = line.split("#", 1)[0].replace(",", " ").split()
        if not body:
            continue
        if len(body) > 2 or not all(ID.match(field) for field in body):
            return None
        ids = [int(field) for field in body]
        if max(ids) >= 65535:
            return None
        top = max(top, *ids)
        if len(ids) == 2:
            u, v = ids
            key = (min(u, v), max(u, v))
            if u == v or key in edges:
                return None
            edges.add(key)
    return None if top < 0 else (top + 1, edges)


VALID = "0 1\n1 2\n2,3  # a comment\n3 0\n5\n"
JUNK = st.sampled_from(list("0123456789 ,#\n_+-.x\u0661\uff11e") + ["1_0", "+1", "  ", "\t"])


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
    n, edges = expected
    got = {(min(u, v), max(u, v)) for u, row in enumerate(graph.adjacency()) for v in row}
    assert (graph.n, got) == (n, edges)


def test_the_strict_parser_agrees_with_the_valid_file():
    assert strict_edge_list(VALID) == (6, {(0, 1), (1, 2), (2, 3), (0, 3)})
    assert json.loads("[[1], [0]]") == parse_json("[[1], [0]]").graph.adjacency()
