"""Edge lists: one grammar, with integer ids or node names.

A file is lines split on ``\\n`` (a ``\\r`` before it is dropped); ``#`` starts a comment; a
line holds one node or two (an edge), its tokens separated by ASCII spaces, tabs or commas.
A token is ASCII digits, a name, or a name in double quotes written as a JSON string
(``"New York"``: spaces, commas, ``#`` and escapes allowed).  After an edge, a ``{...}``
field (the edge data ``networkx.write_edgelist`` writes) is ignored.

A file whose tokens are all unquoted ASCII digits has integer ids and reads as it always
has (nodes ``0..max``); any other token makes every token a name, a string, with nodes in
the order they first appear.  A token that reads as a number but is not plain digits
(``-1``, ``+1``, ``1.5``, ``1e3``, ``0x1``, ``1_0``, other scripts' digits) is refused as
ambiguous, as is any other control or whitespace character (no-break space, form feed,
``\\u2028``, ...) in a token.
"""

from __future__ import annotations

import json
import re
import unicodedata
import warnings
from collections.abc import Hashable, Iterable, Sequence

from ..graph import Graph
from ..graph_checks import max_nodes, place_edge

__all__ = ["edge_list_text", "labelled_graph", "parse_edge_list"]

_SEPARATORS = re.compile(r"[ \t,]+")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_ANY_DIGIT = re.compile(r"\d")
# Where a line's tokens may end and text of any kind begin: a comment, a quoted name, edge data.
_FREE_TEXT = re.compile(r'[#"{]')


def labelled_graph(rows: list[list[int]], labels: Sequence[Hashable], directed: bool) -> Graph:
    """A Graph on ``rows`` whose node ``i`` is named ``labels[i]``; ids ``0..n-1`` stay plain."""
    graph = Graph(rows, directed=directed)
    labels = tuple(labels)
    if all(type(label) is int for label in labels) and labels == tuple(range(len(labels))):
        return graph
    return graph._name_nodes(labels)


def _reads_as_number(token: str) -> bool:
    if not _ANY_DIGIT.search(token):
        return False
    for read in (int, lambda text: int(text, 0), float):
        try:
            read(token)
        except ValueError:
            continue
        return True
    return False


def _column(line: str, token: str, start: int = 0) -> int:
    return line.find(token, start) + 1


def _bad_character(number: int, line: str, token: str) -> ValueError:
    ch = next(ch for ch in token if not ch.isprintable())
    name = unicodedata.name(ch, f"U+{ord(ch):04X}")
    return ValueError(f"line {number}, column {line.find(ch) + 1}: the character "
                      f"{ch!r} ({name}) in a token; tokens are separated by ASCII spaces, "
                      "tabs or commas (quote a name that holds other characters)")


def _tokens(number: int, line: str) -> list[tuple[str, bool]]:
    """The ``(token, quoted)`` pairs of one line (its comment and edge data dropped)."""
    if '"' not in line:
        body = line.split("#", 1)[0]
        fields = [field for field in _SEPARATORS.split(body) if field]
        if len(fields) > 2 and fields[2].startswith("{") and body.rstrip().endswith("}"):
            fields = fields[:2]  # networkx's edge data
        for field in fields:
            if not field.isprintable():
                raise _bad_character(number, line, field)
        return [(field, False) for field in fields]
    found: list[tuple[str, bool]] = []
    at, size = 0, len(line)
    while at < size:
        ch = line[at]
        if ch in " \t,":
            at += 1
            continue
        if ch == "#":
            break
        if ch == "{" and len(found) == 2 and line.rstrip().endswith("}"):
            break
        if ch == '"':
            match = _QUOTED.match(line, at)
            if match is None:
                raise ValueError(f"line {number}, column {at + 1}: a quoted name with no "
                                 "closing quote")
            try:
                found.append((json.loads(match.group()), True))
            except json.JSONDecodeError as error:
                raise ValueError(f"line {number}, column {at + 1}: a quoted name must be a "
                                 f"JSON string: {error.msg}") from None
            at = match.end()
            if at < size and line[at] not in " \t,#":
                raise ValueError(f"line {number}, column {at + 1}: a quoted name runs into "
                                 f"{line[at]!r}; separate tokens with spaces")
            continue
        end = at
        while end < size and line[end] not in ' \t,#"':
            end += 1
        if end < size and line[end] == '"':
            raise ValueError(f"line {number}, column {end + 1}: a quote inside a name; quote "
                             "the whole name")
        field = line[at:end]
        if not field.isprintable():
            raise _bad_character(number, line, field)
        found.append((field, False))
        at = end
    return found


def edge_list_text(pieces: Iterable[tuple[str, bool]]) -> str:
    """The text of an edge list's ``(text, ends_line)`` pieces, read to the end unless it is
    refused on the way: a line that runs on past its piece, holding a character no token may
    hold (not printable, not a blank) before its first ``#``, ``"`` or ``{``, is an error
    then, the one the whole text gets (it comes from that character at the latest).  An
    endless line of NULs (``/dev/zero``) was read for ever before being parsed."""
    texts: list[str] = []
    tokens = True  # the unfinished line holds no '#', '"' or '{' yet: all of it is tokens
    for text, ends in pieces:
        texts.append(text)
        if ends:
            tokens = True
            continue
        if tokens:
            free = _FREE_TEXT.search(text)
            head = text if free is None else text[:free.start()]
            tokens = free is None
            if not head.replace("\t", " ").replace("\r", " ").isprintable():
                parse_edge_list("".join(texts))  # raises: this line's error, or an earlier one
    return "".join(texts)


def parse_edge_list(text: str, directed: bool = False) -> Graph:
    """Read an edge list by the grammar above (the module's docstring).

    >>> parse_edge_list("0 1\\n1,2  # a comment\\n3\\n4").adjacency()
    [[1], [0, 2], [1], [], []]
    >>> parse_edge_list("a b\\nb c\\n").labels
    ('a', 'b', 'c')
    """
    lines: list[tuple[int, list[tuple[str, bool]]]] = []
    names = False
    for number, line in enumerate(text.split("\n"), 1):
        line = line.removesuffix("\r")
        tokens = _tokens(number, line)
        if not tokens:
            continue
        if len(tokens) > 2:
            raise ValueError(f"line {number}: expected 'u v', got {line.strip()!r}")
        for token, quoted in tokens:
            if quoted:
                names = True
            elif not (token.isascii() and token.isdigit()):
                if token.startswith("-") and token[1:].isascii() and token[1:].isdigit():
                    raise ValueError(f"line {number}: node ids must be non-negative, got "
                                     f"{token!r} (quote it, \"{token}\", for a name)")
                if _reads_as_number(token):
                    raise ValueError(
                        f"line {number}: node ids must be integers (ASCII digits) or names "
                        f"that do not read as numbers, got {token!r} (quote it, "
                        f'"{token}", for a name)')
                names = True
        lines.append((number, tokens))
    if not lines:
        raise ValueError("the edge list holds no edges")
    if names:
        return _named(lines, directed)
    return _numbered(lines, directed)


def _named(lines: list[tuple[int, list[tuple[str, bool]]]], directed: bool) -> Graph:
    index: dict[str, int] = {}
    for _, tokens in lines:
        for token, _ in tokens:
            if token not in index:
                index[token] = len(index)
                if len(index) > max_nodes():
                    raise ValueError(f"the edge list names more than {max_nodes()} nodes: "
                                     f"catmouse solves graphs of at most {max_nodes()}")
    edges = [(index[tokens[0][0]], index[tokens[1][0]], number)
             for number, tokens in lines if len(tokens) == 2]
    return labelled_graph(_rows(edges, len(index), directed, list(index)), list(index),
                          directed)


def _numbered(lines: list[tuple[int, list[tuple[str, bool]]]], directed: bool) -> Graph:
    digits = len(str(max_nodes()))
    top, named, edges = -1, set(), []
    for number, tokens in lines:
        for token, _ in tokens:
            if len(token.lstrip("0")) > digits:  # before int(): no 5,000-digit conversion
                shown = token if len(token) <= 20 else f"{token[:8]}...({len(token)} digits)"
                raise ValueError(f"line {number}: node id {shown} is too large: catmouse "
                                 f"solves graphs of at most {max_nodes()} nodes "
                                 f"(ids 0 to {max_nodes() - 1})")
        nodes = [int(token) for token, _ in tokens]
        if max(nodes) >= max_nodes():
            # Before any list is built: the ids up to it would all become nodes.
            raise ValueError(
                f"line {number}: node id {max(nodes)} is too large: catmouse solves graphs "
                f"of at most {max_nodes()} nodes (ids 0 to {max_nodes() - 1})")
        top = max(top, *nodes)
        named.update(nodes)
        if len(nodes) == 2:
            edges.append((nodes[0], nodes[1], number))
    rows = _rows(edges, top + 1, directed, None)
    if len(named) <= top:
        gaps = sorted(set(range(top + 1)) - named)
        shown = ", ".join(map(str, gaps[:10])) + (", ..." if len(gaps) > 10 else "")
        warnings.warn(
            f"the edge list names no node {shown} ({len(gaps)} of ids 0..{top}): "
            "nodes are the ids 0..max, so each is an isolated node; write an id alone "
            "on a line to declare one", UserWarning, stacklevel=3)
    return Graph(rows, directed=directed)


def _rows(edges: list[tuple[int, int, int]], n: int, directed: bool,
          names: list[str] | None) -> list[list[int]]:
    rows: list[list[int]] = [[] for _ in range(n)]
    seen: set[tuple[int, int]] = set()
    for u, v, number in edges:
        place_edge(rows, seen, u, v, directed, lambda: f"line {number}: edge " + (
            f"{u} {v}" if names is None else f"{names[u]!r} {names[v]!r}"), "is listed twice")
    return rows
