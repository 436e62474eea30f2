"""Reading graph files: JSON adjacency lists, edge lists and graph6.

Every reader raises ValueError with a message that names the problem (and the
line, for text formats); the command line prints it as a one-line error.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from .graph import Graph
from .graph_checks import check_node_count, max_nodes

__all__ = ["FORMATS", "GraphFile", "parse_graph6", "parse_graph6_all", "read_graph",
           "read_graphs", "read_text"]

FORMATS = ("json", "edges", "graph6")
_SUFFIXES = {".json": "json", ".g6": "graph6", ".graph6": "graph6"}


class GraphFile:
    """A graph read from a file, with the start positions the file suggests (if any)."""

    __slots__ = ("cat", "graph", "hole", "mouse", "source")

    def __init__(self, graph: Graph, source: str, mouse: int | None = None,
                 cat: int | None = None, hole: int | None = None):
        self.graph = graph
        self.source = source
        self.mouse = mouse
        self.cat = cat
        self.hole = hole


def guess_format(path: str, text: str) -> str:
    """The format of a file: from its suffix, else from its first character."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    start = text.lstrip()[:1]
    if start in ("[", "{"):
        return "json"
    first_line = text.strip().splitlines()[0] if text.strip() else ""
    if first_line.startswith(">>graph6<<") or (
        len(first_line.split()) == 1 and all(63 <= ord(ch) <= 126 for ch in first_line)
        and not first_line.isdigit()
    ):
        return "graph6"
    return "edges"


def read_text(path: str) -> str:
    """A text file's contents as UTF-8 (a byte-order mark is dropped); ``-`` is stdin."""
    if path == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else None
        if data is None:  # a text-only stdin (a test's StringIO, say)
            return sys.stdin.read().removeprefix("\ufeff")
        return data.decode("utf-8-sig")
    with open(path, encoding="utf-8-sig") as handle:
        return handle.read()


def read_graph(path: str, format: str | None = None, directed: bool = False) -> GraphFile:
    """Read a file of one graph (``-`` reads stdin).

    ``format`` is ``"json"``, ``"edges"`` or ``"graph6"`` (default: guessed).
    ``directed`` makes the edges of an edge list or JSON file one-way.  A
    graph6 file of several graphs is refused: :func:`read_graphs` reads them all.
    """
    files = read_graphs(path, format, directed)
    if len(files) != 1:
        raise ValueError(f"the file holds {len(files)} graphs, one per line; "
                         "read them with read_graphs (the CLI's solve takes them all)")
    return files[0]


def read_graphs(path: str, format: str | None = None,
                directed: bool = False) -> list[GraphFile]:
    """Read every graph of a file: graph6 files hold one per line, other formats one.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "two.g6")
    >>> with open(path, "w") as f:
    ...     _ = f.write("Bw\\nCx\\n")
    >>> [f.graph.n for f in read_graphs(path)]
    [3, 4]
    """
    text = read_text(path)
    name = "<stdin>" if path == "-" else path
    if format is None:
        format = guess_format(path, text)
    if format == "json":
        return [parse_json(text, name, directed)]
    if format == "edges":
        return [GraphFile(parse_edge_list(text, directed), name)]
    if format == "graph6":
        if directed:
            raise ValueError("graph6 holds undirected graphs; --directed does not apply")
        return [GraphFile(graph, name) for graph in parse_graph6_all(text)]
    raise ValueError(f"unknown graph format {format!r}; use one of {', '.join(FORMATS)}")


def parse_json(text: str, source: str = "<json>", directed: bool = False) -> GraphFile:
    """Adjacency lists ``[[1, 3], [0], ...]``, or an object with them under ``"graph"``.

    The object may also give ``"directed"``, ``"mouse"``, ``"cat"`` and ``"hole"``.

    >>> parse_json('{"graph": [[1], [0, 2], [1]], "mouse": 2}').mouse
    2
    """
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON: {error}") from None
    except RecursionError:
        raise ValueError("not a graph: its JSON is nested too deeply to read") from None
    starts: dict[str, Any] = {}
    if isinstance(data, dict):
        unknown = set(data) - {"graph", "directed", "mouse", "cat", "hole"}
        if unknown:
            raise ValueError(f"unknown key {min(unknown)!r} in the JSON object")
        if "graph" not in data:
            raise ValueError('a JSON object must hold the adjacency lists under "graph"')
        if "directed" in data:
            said = data["directed"]
            if type(said) is not bool:  # "false" or [] must not pass for a yes or a no
                raise ValueError(f'"directed" must be true or false, not {said!r}')
            directed = said  # the file's word wins over the reader's default (--directed)
        starts = {k: data[k] for k in ("mouse", "cat", "hole") if k in data}
        for key, value in starts.items():
            if type(value) is not int:
                raise ValueError(f'"{key}" must be a node id, not {value!r}')
        data = data["graph"]
    if not isinstance(data, list):
        raise ValueError(  # noqa: TRY004 - the file holds the wrong kind of value
            "JSON must be a list of adjacency lists (or an object with \"graph\")"
        )
    check_node_count(len(data), "the JSON graph")
    try:
        graph = Graph(data, directed=directed)
    except TypeError as error:
        raise ValueError(str(error)) from None
    return GraphFile(graph, source, **starts)


def parse_edge_list(text: str, directed: bool = False) -> Graph:
    """Lines ``u v`` (spaces or a comma), ``#`` comments; nodes are ``0..max``.

    A line holding one node id declares that node (an isolated node, say).

    >>> parse_edge_list("0 1\\n1,2  # a comment\\n4").adjacency()
    [[1], [0, 2], [1], [], []]
    """
    edges = []
    top = -1
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].replace(",", " ").strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) > 2:
            raise ValueError(f"line {number}: expected 'u v', got {line!r}")
        # ASCII digits only: int() would also take "1_0" (as 10), "+1" and other scripts' digits.
        bad = next((field for field in fields if not (field.isascii() and field.isdigit())),
                   None)
        if bad is not None:
            kind = "non-negative" if bad.startswith("-") else "integers (ASCII digits)"
            raise ValueError(f"line {number}: node ids must be {kind}, got {bad!r}")
        nodes = [int(field) for field in fields]
        if max(nodes) >= max_nodes():
            # Before any list is built: the ids up to it would all become nodes.
            raise ValueError(
                f"line {number}: node id {max(nodes)} is too large: catmouse solves graphs "
                f"of at most {max_nodes()} nodes (ids 0 to {max_nodes() - 1})"
            )
        top = max(top, *nodes)
        if len(nodes) == 2:
            edges.append((nodes[0], nodes[1], number))
    if top < 0:
        raise ValueError("the edge list holds no edges")
    rows: list[list[int]] = [[] for _ in range(top + 1)]
    seen = set()
    for u, v, number in edges:
        if u == v:
            raise ValueError(f"line {number}: edge {u} {v} is a self-loop")
        key = (u, v) if directed else (min(u, v), max(u, v))
        if key in seen:
            raise ValueError(f"line {number}: edge {u} {v} is listed twice")
        seen.add(key)
        rows[u].append(v)
        if not directed:
            rows[v].append(u)
    return Graph(rows, directed=directed)


def parse_graph6(text: str) -> Graph:
    """Decode a graph6 file of one graph (an optional ``>>graph6<<`` header).

    A file of several graphs (one per line, as nauty writes them) is refused
    with a message saying so: :func:`parse_graph6_all` decodes them all.

    >>> parse_graph6("IheA@GUAo").num_edges     # the Petersen graph
    15
    """
    graphs = parse_graph6_all(text)
    if len(graphs) != 1:
        raise ValueError(f"the graph6 text holds {len(graphs)} graphs, one per line; "
                         "parse_graph6_all decodes them all")
    return graphs[0]


def parse_graph6_all(text: str) -> list[Graph]:
    """Decode every graph of a graph6 file, one per non-blank line.

    >>> [g.num_edges for g in parse_graph6_all(">>graph6<<Bw\\nC~\\n")]
    [3, 6]
    """
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)
             if line.strip()]
    if not lines:
        raise ValueError("the graph6 file is empty")
    if len(lines) == 1:
        return [_graph6_line(lines[0][1])]
    graphs = []
    for number, line in lines:
        try:
            graphs.append(_graph6_line(line))
        except ValueError as error:
            raise ValueError(f"line {number}: {error}") from None
    return graphs


def _graph6_line(line: str) -> Graph:
    """Decode one graph6 line."""
    line = line.removeprefix(">>graph6<<")
    if not line:
        raise ValueError("the graph6 line is empty")
    if line[0] in ":;&":
        kind = {":": "sparse6", ";": "incremental sparse6", "&": "digraph6"}[line[0]]
        raise ValueError(f"{kind} is not supported; give graph6, an edge list or JSON")
    data = [ord(ch) - 63 for ch in line]
    if any(not 0 <= x < 64 for x in data):
        bad = next(ch for ch in line if not 63 <= ord(ch) <= 126)
        raise ValueError(f"graph6 holds the character {bad!r}, outside '?'..'~'")

    def number(values: list[int]) -> int:
        n = 0
        for x in values:
            n = (n << 6) | x
        return n

    # The node count: one byte, or 63 then three bytes, or 63, 63 then six bytes.
    if data[0] < 63:
        n, body = data[0], data[1:]
    elif len(data) >= 4 and data[1] < 63:
        n, body = number(data[1:4]), data[4:]
    elif len(data) >= 8:
        n, body = number(data[2:8]), data[8:]
    else:
        raise ValueError("graph6 node count is cut short")
    check_node_count(n, "the graph6 graph")
    bits_needed = n * (n - 1) // 2
    if len(body) != -(-bits_needed // 6):
        raise ValueError(
            f"graph6 for {n} nodes needs {-(-bits_needed // 6)} bytes of edges, got {len(body)}"
        )
    rows: list[list[int]] = [[] for _ in range(n)]
    k = 0
    # Upper triangle, column by column: (0,1), (0,2), (1,2), (0,3), ...
    for v in range(1, n):
        for u in range(v):
            if body[k // 6] >> (5 - k % 6) & 1:
                rows[u].append(v)
                rows[v].append(u)
            k += 1
    # The last byte's unused bits are zero in graph6; other bits mean another text, not this graph.
    if body and body[-1] & ((1 << (6 * len(body) - bits_needed)) - 1):
        raise ValueError("graph6 padding bits after the last edge must be zero")
    return Graph(rows)
