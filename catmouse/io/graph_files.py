"""Reading graph files: JSON adjacency lists, edge lists and graph6.

The public readers (exported from ``catmouse``): :func:`read_graph` (a file of
one graph), :func:`read_graphs` (every graph of a file, streamed),
:func:`read_graph6` (a graph6 stream, one :class:`Graph` at a time, as nauty's
``geng`` writes them), :func:`read_edge_list` and :func:`read_json`.  Each takes
a path, ``"-"`` for standard input, or an open file (text or binary).

Every reader raises ValueError with a message that names the problem (and the
line, for text formats); the command line prints it as a one-line error.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import sys
import warnings
from collections.abc import Iterable, Iterator
from typing import IO, Any, Union

from ..graph import Graph
from ..graph_checks import check_node_count, max_nodes

__all__ = ["FORMATS", "GraphFile", "Source", "parse_graph6", "parse_graph6_all", "read_edge_list",
           "read_graph", "read_graph6", "read_graphs", "read_json", "read_text"]

FORMATS = ("json", "edges", "graph6")
_SUFFIXES = {".json": "json", ".g6": "graph6", ".graph6": "graph6"}

#: What a reader takes: a path, ``"-"`` (standard input) or an open file, text or binary.
Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]


class GraphFile:
    """A graph read from a file, with the start positions the file suggests (if any).

    ``graph`` is the :class:`Graph`; ``source`` names the file (``<stdin>``);
    ``mouse``, ``cat`` and ``hole`` are the starts a JSON object gave, else None.

    >>> import io
    >>> f = read_json(io.StringIO('{"graph": [[1], [0]], "hole": 0}'))
    >>> f.graph.n, f.hole, f.mouse
    (2, 0, None)
    """

    __slots__ = ("cat", "graph", "hole", "mouse", "source")

    def __init__(self, graph: Graph, source: str, mouse: int | None = None,
                 cat: int | None = None, hole: int | None = None):
        self.graph = graph
        self.source = source
        self.mouse = mouse
        self.cat = cat
        self.hole = hole

    def __repr__(self) -> str:
        starts = "".join(f", {k}={getattr(self, k)}" for k in ("mouse", "cat", "hole")
                         if getattr(self, k) is not None)
        return f"<GraphFile {self.source}: {self.graph.n} nodes{starts}>"


def _is_graph6_line(line: str) -> bool:
    return line.startswith(">>graph6<<") or (
        len(line.split()) == 1 and all(63 <= ord(ch) <= 126 for ch in line)
        and not line.isdigit())


def guess_format(path: str, text: str) -> str:
    """The format of a file: from its suffix, else from its first character (or line)."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    start = text.lstrip()[:1]
    if start in ("[", "{"):
        return "json"
    first_line = text.strip().splitlines()[0] if text.strip() else ""
    return "graph6" if _is_graph6_line(first_line) else "edges"


def _name(source: Any) -> str:
    if isinstance(source, (str, os.PathLike)):
        source = os.fspath(source)
        return "<stdin>" if source == "-" else source
    return str(getattr(source, "name", "<stream>"))


def _lines(source: Any) -> Iterator[str]:
    """The lines of a source, read as they are needed (UTF-8; a byte-order mark dropped).

    The source's kind is checked now, the file opened at the first line asked for."""
    if not isinstance(source, (str, os.PathLike)) and not hasattr(source, "readline"):
        raise TypeError("a graph source is a path, '-' (standard input) or an open file, "
                        f"not {type(source).__name__}")
    return _read_lines(source)


def _read_lines(source: Any) -> Iterator[str]:
    if isinstance(source, (str, os.PathLike)):
        if os.fspath(source) == "-":
            stream: Any = getattr(sys.stdin, "buffer", sys.stdin)
            yield from _decoded(stream)
            return
        with open(source, "rb") as handle:
            yield from _decoded(handle)
        return
    yield from _decoded(source)


def _decoded(stream: Iterable[Any]) -> Iterator[str]:
    first = True
    for line in stream:
        if isinstance(line, bytes):
            line = line.decode("utf-8-sig" if first else "utf-8")
        elif first:
            line = line.removeprefix("\ufeff")
        first = False
        yield line


def read_text(path: Source) -> str:
    """A text file's contents as UTF-8 (a byte-order mark is dropped); ``-`` is stdin."""
    return "".join(_lines(path))


def read_graph(path: Source, format: str | None = None, directed: bool = False) -> GraphFile:
    """Read a file of one graph (``-`` reads stdin).

    ``format`` is ``"json"``, ``"edges"`` or ``"graph6"`` (default: guessed from
    the suffix, else the first line).  ``directed`` makes the edges of an edge
    list or JSON file one-way.  A graph6 file of several graphs is refused:
    :func:`read_graphs` reads them all.

    >>> import io
    >>> read_graph(io.StringIO("0 1\\n1 2\\n")).graph.adjacency()
    [[1], [0, 2], [1]]
    """
    graphs = read_graphs(path, format, directed)
    first = next(graphs)
    rest = sum(1 for _ in graphs)
    if rest:
        raise ValueError(f"the file holds {rest + 1} graphs, one per line; "
                         "read them with catmouse.read_graphs (the CLI's solve and cop-win "
                         "take them all)")
    return first


def read_graphs(path: Source, format: str | None = None,
                directed: bool = False) -> Iterator[GraphFile]:
    """Every graph of a file, one at a time: graph6 files hold one per line, others one.

    A graph6 file is streamed: a million-graph file from ``geng`` is never held
    in memory, and each graph is read only when asked for.  ``-`` reads stdin.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "two.g6")
    >>> with open(path, "w") as f:
    ...     _ = f.write("Bw\\nCx\\n")
    >>> [f.graph.n for f in read_graphs(path)]
    [3, 4]
    """
    if format is not None and format not in FORMATS:
        raise ValueError(f"unknown graph format {format!r}; use one of {', '.join(FORMATS)}")
    name = _name(path)
    lines = _lines(path)
    if format is None:
        suffix = os.path.splitext(name)[1].lower()
        format = _SUFFIXES.get(suffix)
    if format is None:  # guess from the first line that holds something
        head = []
        for line in lines:
            head.append(line)
            if line.strip():
                break
        lines = itertools.chain(head, lines)
        format = guess_format("", "".join(head))
    if format == "graph6":
        if directed:
            raise ValueError("graph6 holds undirected graphs; --directed does not apply")
        return (GraphFile(graph, name) for graph in _graph6_stream(lines))
    text = "".join(lines)
    if format == "json":
        return iter([parse_json(text, name, directed)])
    return iter([GraphFile(parse_edge_list(text, directed), name)])


def read_graph6(source: Source) -> Iterator[Graph]:
    """The graphs of a graph6 file or stream, one :class:`Graph` per line, read lazily.

    Reads what nauty's ``geng`` writes (``geng -c 6 | python script.py`` with
    ``read_graph6("-")``), an optional ``>>graph6<<`` header on each line
    included; a bad line is a ValueError naming its line number.

    >>> import io
    >>> [g.num_edges for g in read_graph6(io.StringIO("Bw\\nC~\\n"))]
    [3, 6]
    """
    return _graph6_stream(_lines(source))


def read_edge_list(source: Source, directed: bool = False) -> Graph:
    """A graph from an edge list: lines ``u v`` (spaces or a comma), ``#`` comments.

    Nodes are the ids ``0..max``; an id the file never names is an isolated node
    (a warning says which).  The grammar is ``parse_edge_list``'s, in this module.

    >>> import io
    >>> read_edge_list(io.StringIO("0 1\\n1 2\\n")).num_edges
    2
    """
    return parse_edge_list(read_text(source), directed)


def read_json(source: Source, directed: bool = False) -> GraphFile:
    """A graph from JSON: adjacency lists, or an object with them under ``"graph"`` and
    optional ``"directed"``, ``"mouse"``, ``"cat"`` and ``"hole"`` (the grammar of
    ``parse_json``, in this module).

    >>> import io
    >>> read_json(io.StringIO("[[1], [0]]")).graph.n
    2
    """
    return parse_json(read_text(source), _name(source), directed)


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

    A line holding one node id declares that node (an isolated node, say).  Ids
    no line names (the gaps of ``1 2``, ``5 7``: 0, 3, 4, 6) still become nodes,
    isolated ones, since nodes are ``0..max``; a UserWarning names them.

    >>> parse_edge_list("0 1\\n1,2  # a comment\\n3\\n4").adjacency()
    [[1], [0, 2], [1], [], []]
    """
    edges = []
    named: set[int] = set()
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
        named.update(nodes)
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
    if len(named) <= top:
        gaps = sorted(set(range(top + 1)) - named)
        shown = ", ".join(map(str, gaps[:10])) + (", ..." if len(gaps) > 10 else "")
        warnings.warn(
            f"the edge list names no node {shown} ({len(gaps)} of ids 0..{top}): "
            "nodes are the ids 0..max, so each is an isolated node; write an id alone "
            "on a line to declare one", UserWarning, stacklevel=2)
    return Graph(rows, directed=directed)


def parse_graph6(text: str) -> Graph:
    """Decode a graph6 text of one graph (an optional ``>>graph6<<`` header).

    A text of several graphs (one per line, as nauty writes them) is refused
    with a message saying so: :func:`read_graph6` reads them all.

    >>> parse_graph6("IheA@GUAo").num_edges     # the Petersen graph
    15
    """
    graphs = parse_graph6_all(text)
    if len(graphs) != 1:
        raise ValueError(f"the graph6 text holds {len(graphs)} graphs, one per line; "
                         "catmouse.read_graph6 reads them all")
    return graphs[0]


def parse_graph6_all(text: str) -> list[Graph]:
    """Decode every graph of a graph6 text, one per non-blank line.

    >>> [g.num_edges for g in parse_graph6_all(">>graph6<<Bw\\nC~\\n")]
    [3, 6]
    """
    return list(_graph6_stream(io.StringIO(text)))


def _graph6_stream(lines: Iterable[str]) -> Iterator[Graph]:
    """Decode graph6 lines as they come; an error names its line when the text has more."""
    numbered = ((number, line.strip()) for number, line in enumerate(lines, 1))
    numbered = ((number, line) for number, line in numbered if line)
    first = next(numbered, None)
    if first is None:
        raise ValueError("the graph6 file is empty")
    second = next(numbered, None)
    if second is None:  # one graph: its errors need no line number
        yield _graph6_line(first[1])
        return
    for number, line in itertools.chain((first, second), numbered):
        try:
            graph = _graph6_line(line)
        except ValueError as error:
            raise ValueError(f"line {number}: {error}") from None
        yield graph


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
