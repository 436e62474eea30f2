"""JSON graphs: adjacency lists, named adjacency and networkx's node-link data.

``Graph.to_node_link()`` writes the node-link shape read here.

Four shapes are read (the first matching one):

* adjacency lists of ids, ``[[1, 3], [0], ...]``, as LeetCode writes them;
* an object with node-link data (``"nodes"``, and ``"links"`` or ``"edges"``), as
  ``json.dump(networkx.node_link_data(G), f)`` writes it, directed or not, its node ids any
  JSON value (a list is read as a tuple, as networkx reads it back);
* an object with the graph under ``"graph"`` (adjacency lists, or an object of neighbour
  lists) and optional ``"directed"``, ``"mouse"``, ``"cat"`` and ``"hole"``;
* an object of neighbour lists, ``{"a": ["b"], "b": ["a"]}``
  (``json.dump(networkx.to_dict_of_lists(G), f)``), none of its keys one of the words above,
  with at least one edge (else it is read as a misspelt object: ``{"graf": []}``).

An object's keys are strings: ``{"0": [1], "1": [0]}``, digit keys with integer neighbours,
has integer nodes; otherwise a neighbour must be a string naming a key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Iterable
from typing import Any

from ..graph import Graph
from ..graph_checks import check_node_count
from .edge_lists import labelled_graph

__all__ = ["json_text", "parse_json_graph"]

_OBJECT_KEYS = {"graph", "directed", "mouse", "cat", "hole"}
_NODE_LINK_KEYS = {"directed", "multigraph", "graph", "nodes", "links", "edges",
                   "mouse", "cat", "hole"}
_STARTS = ("mouse", "cat", "hole")
# The longest integer a JSON graph may hold (a node id has at most 10 digits).
_MOST_DIGITS = 20
# Control characters JSON holds nowhere, not even in a string (its blanks are tab, LF, CR).
_NEVER_JSON = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


class _HugeNumber(Exception):
    pass


class _KeyTwice(Exception):
    pass


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused if it names a key twice: json keeps the last silently, so a
    second "links" (or "graph") emptied the graph without a word."""
    data = dict(pairs)
    if len(data) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _KeyTwice(key)
            seen.add(key)
    return data


def _small_int(text: str) -> int:
    if len(text.lstrip("-0")) > _MOST_DIGITS:  # before int(): CPython refuses 4,300 digits
        raise _HugeNumber(text)
    return int(text)


def _load(text: str) -> Any:
    try:
        return json.loads(text, parse_int=_small_int, object_pairs_hook=_object)
    except _KeyTwice as error:
        raise ValueError(f"the key {json.dumps(str(error))[:60]} is given twice in one JSON "
                         "object: say it once") from None
    except _HugeNumber as error:
        digits = str(error)
        line = text.count("\n", 0, max(text.find(digits), 0)) + 1
        raise ValueError(f"line {line}: a number of {len(digits.lstrip('-'))} digits is no "
                         "node id") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON: {error}") from None
    except RecursionError:
        raise ValueError("not a graph: its JSON is nested too deeply to read") from None


def json_text(pieces: Iterable[tuple[str, bool]]) -> str:
    """The text of a JSON file's ``(text, ends_line)`` pieces, read to the end unless a piece
    holds a control character JSON never holds: the text is refused then, with the error the
    whole text gets (the parser stops at that character at the latest).  A stream of NULs
    (``/dev/zero``) was read for ever before being parsed."""
    texts: list[str] = []
    for text, _ in pieces:
        texts.append(text)
        if _NEVER_JSON.search(text):
            _load("".join(texts))  # raises
    return "".join(texts)


def _label(value: Any, what: str) -> Hashable:
    """A node named in JSON, as networkx reads it back: a list is a tuple."""
    if isinstance(value, list):
        return tuple(_label(item, what) for item in value)
    if value is None or isinstance(value, dict):
        raise ValueError(f"{what} is {json.dumps(value)[:40]}, which cannot name a node")
    return value


def parse_json_graph(text: str, directed: bool = False) -> tuple[Graph, dict[str, Any]]:
    """The graph of a JSON text and the starts it gives (``mouse``, ``cat``, ``hole``)."""
    data: Any = _load(text)
    starts: dict[str, Any] = {}
    if isinstance(data, dict):
        if "nodes" in data:
            return _node_link(data, directed)
        if _neighbour_object(data):
            return _neighbour_lists(data, directed), {}
        unknown = set(data) - _OBJECT_KEYS
        if unknown:
            raise ValueError(f"unknown key {min(unknown)!r} in the JSON object")
        if "graph" not in data:
            raise ValueError('a JSON object must hold the adjacency lists under "graph"')
        directed = _directed(data, directed)
        starts = {k: data[k] for k in _STARTS if k in data}
        data = data["graph"]
        if isinstance(data, dict):
            graph = _neighbour_lists(data, directed)
            return graph, {k: _label(v, f'"{k}"') for k, v in starts.items()}
        for key, value in starts.items():
            if type(value) is not int:
                raise ValueError(f'"{key}" must be a node id, not {value!r}')
    if not isinstance(data, list):
        raise ValueError(  # noqa: TRY004 - the file holds the wrong kind of value
            "JSON must be a list of adjacency lists (or an object with \"graph\")"
        )
    check_node_count(len(data), "the JSON graph")
    try:
        graph = Graph(data, directed=directed)
    except TypeError as error:
        raise ValueError(str(error)) from None
    return graph, starts


def _neighbour_object(data: dict[str, Any]) -> bool:
    """Whether a top-level object is neighbour lists: none of its keys is one of the words
    above, its values are lists of names, and it has an edge (``{"graf": []}`` is a typo)."""
    if set(data) & _OBJECT_KEYS:
        return False
    rows = data.values()
    return (all(isinstance(row, list) and all(isinstance(v, (str, int)) for v in row)
                for row in rows) and any(rows))


def _directed(data: dict[str, Any], directed: bool) -> bool:
    if "directed" not in data:
        return directed
    said = data["directed"]
    if type(said) is not bool:  # "false" or [] must not pass for a yes or a no
        raise ValueError(f'"directed" must be true or false, not {said!r}')
    return said  # the file's word wins over the reader's default (--directed)


def _neighbour_lists(data: dict[str, Any], directed: bool) -> Graph:
    """``{"a": ["b"], ...}``: keys are the nodes in order; digit keys with int neighbours are
    integer nodes."""
    check_node_count(len(data), "the JSON graph")
    for key, row in data.items():
        if not isinstance(row, list):
            raise ValueError(f"node {key!r} must map to a list of neighbours, not "  # noqa: TRY004
                             f"{type(row).__name__}")
    numbers = all(key.isascii() and key.isdigit() and len(key) <= _MOST_DIGITS
                  for key in data) and all(type(v) is int for row in data.values()
                                           for v in row)
    labels: list[Hashable] = [int(key) for key in data] if numbers else list(data)
    index = {label: i for i, label in enumerate(labels)}
    if len(index) != len(labels):
        raise ValueError("two keys name the same node")
    rows: list[list[int]] = []
    for label, row in zip(labels, data.values()):
        ids = []
        for value in row:
            if not numbers and type(value) is not str:
                raise ValueError(f"node {label!r} lists {json.dumps(value)[:40]}: the nodes of "
                                 "a JSON object are its keys, strings, so neighbours are "
                                 "strings too")
            if value not in index:
                raise ValueError(f"node {label!r} lists {value!r}, which is not a node (a key)")
            ids.append(index[value])
        rows.append(ids)
    return _checked(rows, labels, directed, "lists")


def _checked(rows: list[list[int]], labels: list[Hashable], directed: bool,
             verb: str) -> Graph:
    """The labelled graph, after the checks Graph makes, said in the file's names."""
    seen: set[tuple[int, int]] = set()
    for u, row in enumerate(rows):
        for v in row:
            if u == v:
                raise ValueError(f"node {labels[u]!r} {verb} itself: a self-loop")
            if (u, v) in seen:
                raise ValueError(f"node {labels[u]!r} {verb} {labels[v]!r} twice")
            seen.add((u, v))
    if not directed:
        for u, v in seen:
            if (v, u) not in seen:
                raise ValueError(f"node {labels[u]!r} lists {labels[v]!r} but not the other "
                                 "way round: an undirected graph lists each edge both ways "
                                 '(or say "directed": true)')
    return labelled_graph(rows, labels, directed)


def _node_link(data: dict[str, Any], directed: bool) -> tuple[Graph, dict[str, Any]]:
    unknown = set(data) - _NODE_LINK_KEYS
    if unknown:
        raise ValueError(f"unknown key {min(unknown)!r} in the node-link JSON object")
    if "links" in data and "edges" in data:
        raise ValueError('node-link JSON holds "links" or "edges", not both')
    directed = _directed(data, directed)
    nodes, links = data["nodes"], data.get("links", data.get("edges", []))
    if not isinstance(nodes, list) or not isinstance(links, list):
        raise ValueError('node-link JSON\'s "nodes" and "links" (or "edges") are lists')
    check_node_count(len(nodes), "the JSON graph")
    labels: list[Hashable] = []
    index: dict[Hashable, int] = {}
    for k, node in enumerate(nodes):
        if not isinstance(node, dict) or "id" not in node:
            raise ValueError(f'node {k} of "nodes" must be an object with an "id"')
        label = _label(node["id"], f"the id of node {k}")
        if label in index:
            raise ValueError(f"node {label!r} is listed twice")
        index[label] = len(labels)
        labels.append(label)
    rows: list[list[int]] = [[] for _ in labels]
    seen: set[tuple[int, int]] = set()
    for k, link in enumerate(links):
        if not isinstance(link, dict) or "source" not in link or "target" not in link:
            raise ValueError(f'link {k} must be an object with a "source" and a "target"')
        ends = []
        for side in ("source", "target"):
            label = _label(link[side], f"the {side} of link {k}")
            if label not in index:
                raise ValueError(f"link {k}'s {side} {label!r} is not a node")
            ends.append(index[label])
        u, v = ends
        if u == v:
            raise ValueError(f"link {k} is a self-loop on {labels[u]!r}")
        key = (u, v) if directed else (min(u, v), max(u, v))
        if key in seen:
            raise ValueError(f"link {k} joins {labels[u]!r} and {labels[v]!r} again: catmouse "
                             "plays on graphs without parallel edges")
        seen.add(key)
        rows[u].append(v)
        if not directed:
            rows[v].append(u)
    starts = {k: _label(data[k], f'"{k}"') for k in _STARTS if k in data}
    return labelled_graph(rows, labels, directed), starts
