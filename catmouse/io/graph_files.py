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
import os
from collections.abc import Hashable, Iterator

from ..graph import Graph
from .edge_lists import edge_list_text, parse_edge_list
from .graph6 import TRAILING, numbered_graphs
from .json_graphs import json_text, parse_json_graph
from .sources import Source, check_source, pieces, read_text, source_name

__all__ = ["FORMATS", "GraphFile", "Source", "guess_format", "parse_edge_list", "parse_graph6",
           "parse_graph6_all", "parse_json", "read_edge_list", "read_graph", "read_graph6",
           "read_graphs", "read_json", "read_text", "suffix_format"]

FORMATS = ("json", "edges", "graph6")
_SUFFIXES = {".json": "json", ".g6": "graph6", ".graph6": "graph6", ".edges": "edges",
             ".edgelist": "edges"}


class GraphFile:
    """A graph read from a file, with the start positions the file suggests (if any).

    ``graph`` is the :class:`Graph`; ``source`` names the file (``<stdin>``);
    ``mouse``, ``cat`` and ``hole`` are the starts a JSON object gave (node names), else
    None; ``line`` is the line a graph6 graph was read from, else None.

    >>> import io
    >>> f = read_json(io.StringIO('{"graph": [[1], [0]], "hole": 0}'))
    >>> f.graph.n, f.hole, f.mouse
    (2, 0, None)
    """

    __slots__ = ("cat", "graph", "hole", "line", "mouse", "source")

    def __init__(self, graph: Graph, source: str, mouse: Hashable | None = None,
                 cat: Hashable | None = None, hole: Hashable | None = None,
                 line: int | None = None):
        self.graph = graph
        self.source = source
        self.mouse = mouse
        self.cat = cat
        self.hole = hole
        self.line = line

    def __repr__(self) -> str:
        starts = "".join(f", {k}={getattr(self, k)!r}" for k in ("mouse", "cat", "hole")
                         if getattr(self, k) is not None)
        return f"<GraphFile {self.source}: {self.graph.n} nodes{starts}>"


def suffix_format(path: str) -> str | None:
    """The format a file's suffix names (``.json``, ``.g6``, ``.edges``, ...), else None."""
    return _SUFFIXES.get(os.path.splitext(path)[1].lower())


def _is_graph6_line(line: str) -> bool:
    return line.startswith(">>graph6<<") or (
        len(line.split()) == 1 and all(63 <= ord(ch) <= 126 for ch in line)
        and not line.isdigit())


def guess_format(path: str, text: str) -> str:
    """The format of a file: from its suffix, else from its first character (or line).

    A first line that is one token of graph6's characters (``?`` to ``~``) is graph6: an edge
    list whose first line names one node so (``abc``) needs its suffix or ``--format``."""
    by_suffix = suffix_format(path)
    if by_suffix is not None:
        return by_suffix
    start = text.lstrip()[:1]
    if start in ("[", "{"):
        return "json"
    first_line = next((line.rstrip(TRAILING) for line in text.split("\n")
                       if line.strip(TRAILING)), "")
    return "graph6" if _is_graph6_line(first_line) else "edges"


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
    name = source_name(path)
    parts = pieces(path)
    if format is None:
        format = suffix_format(name)
    if format is None:  # guess from the first piece that holds something
        head = []
        for part in parts:
            head.append(part)
            if part[0].strip():
                break
        parts = itertools.chain(head, parts)
        format = guess_format("", "".join(text for text, _ in head))
    if format == "graph6":
        if directed:
            raise ValueError("graph6 holds undirected graphs; --directed does not apply")
        return (GraphFile(graph, name, line=line) for line, graph in numbered_graphs(parts))
    # (Read whole, but refused on the way where the text can no longer be one: /dev/zero.)
    if format == "json":
        return iter([parse_json(json_text(parts), name, directed)])
    return iter([GraphFile(parse_edge_list(edge_list_text(parts), directed), name)])


def read_graph6(source: Source) -> Iterator[Graph]:
    """The graphs of a graph6 file or stream, one :class:`Graph` per line, read lazily.

    Reads what nauty's ``geng`` writes (``geng -c 6 | python script.py`` with
    ``read_graph6("-")``), an optional ``>>graph6<<`` header on each line
    included; a bad line is a ValueError, naming its line number in a file of more than
    one graph.

    >>> import io
    >>> [g.num_edges for g in read_graph6(io.StringIO("Bw\\nC~\\n"))]
    [3, 6]
    """
    check_source(source)
    return (graph for _, graph in numbered_graphs(pieces(source)))


def read_edge_list(source: Source, directed: bool = False) -> Graph:
    """A graph from an edge list: lines ``u v`` (spaces, tabs or a comma), ``#`` comments.

    Integer ids give nodes ``0..max`` (an id the file never names is an isolated node; a
    warning says which); any other token makes every token a node name, in the order the
    names first appear.  The grammar is in ``catmouse.io.edge_lists`` and docs/cli.rst.

    >>> import io
    >>> read_edge_list(io.StringIO("0 1\\n1 2\\n")).num_edges
    2
    >>> read_edge_list(io.StringIO("a b\\nb c\\n")).neighbors("b")
    ('a', 'c')
    """
    return parse_edge_list(edge_list_text(pieces(source)), directed)


def read_json(source: Source, directed: bool = False) -> GraphFile:
    """A graph from JSON: adjacency lists; networkx's node-link data (``node_link_data``,
    ``"links"`` or ``"edges"``); an object of neighbour lists (``to_dict_of_lists``); or an
    object with the graph under ``"graph"`` and optional ``"directed"``, ``"mouse"``,
    ``"cat"`` and ``"hole"`` (the grammar is in ``catmouse.io.json_graphs``).

    >>> import io
    >>> read_json(io.StringIO("[[1], [0]]")).graph.n
    2
    """
    return parse_json(json_text(pieces(source)), source_name(source), directed)


def parse_json(text: str, source: str = "<json>", directed: bool = False) -> GraphFile:
    """A JSON graph (the shapes :func:`read_json` reads) and its starts, as a GraphFile.

    >>> parse_json('{"graph": [[1], [0, 2], [1]], "mouse": 2}').mouse
    2
    """
    graph, starts = parse_json_graph(text, directed)
    return GraphFile(graph, source, **starts)


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
    return [graph for _, graph in numbered_graphs(pieces(io.StringIO(text)))]
