"""Node options (``--mouse b``, ``--holes a,c``) read as the names the graph file gives.

An option's text names the node whose name reads the same (``b``, ``7``, ``(0, 1)``); when
that is several nodes (``1`` on a graph with the nodes ``1`` and ``"1"``) or none, the text
is read as JSON (``'"1"'``, ``'[0, 1]'``, a list being a tuple).  A list option is names
separated by commas or spaces, or a JSON list (``'["New York", "b"]'``) for names that hold
them.  The options are kept as text until the file is read.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Hashable
from typing import Any

from ..graph import Graph
from ..io.export import label_from_json

__all__ = ["OptionError", "node_named", "node_text", "nodes_named", "nodes_text"]


class OptionError(ValueError):
    """An option's error, said as it is: a node option that names no node of the file (its
    message names the file), or a value out of range (about no file)."""


def node_text(text: str) -> str:
    """argparse's type for one node: any text but the empty one, read once the file is."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a node name, got nothing")
    return text


def nodes_text(text: str) -> str:
    """argparse's type for a list of nodes: checked once the file is read."""
    return text


def _lookup(graph: Graph, text: str) -> tuple[bool, Any]:
    """``(True, label)`` for the node ``text`` names on ``graph``, else ``(False, the labels
    whose text is ``text``)`` (several: ambiguous; none: no such node)."""
    if graph._index is None:  # plain ids 0..n-1: ASCII digits only (never "+1" or "1_0")
        if text.isascii() and text.isdigit() and len(text) <= 10 and int(text) < graph.n:
            return True, int(text)
        return False, []
    matches = [label for label in graph.labels if str(label) == text]
    if len(matches) == 1:
        return True, matches[0]
    try:
        value = label_from_json(json.loads(text))
        if value in graph._index and type(value) is not bool:
            return True, value
    except (ValueError, TypeError, RecursionError):
        pass
    return False, matches


def _nodes_words(graph: Graph) -> str:
    return graph._nodes_text()


def node_named(graph: Graph, text: str, option: str, file: str) -> Hashable:
    """The node ``text`` names on ``graph`` (the file ``file``); OptionError if none."""
    found, label = _lookup(graph, text)
    if found:
        return label
    what = option.lstrip("-").replace("-", " ")
    if label:  # several names read as text
        shown = " and ".join(repr(v) for v in label[:3])
        raise OptionError(f"{file}: {option} {text} names several nodes ({shown}): write it "
                          f"as JSON, e.g. {option} '{json.dumps(text)}' for the string")
    raise OptionError(f"{file}: {what} node {text} is not in the graph (its nodes are "
                      f"{_nodes_words(graph)})")


def nodes_named(graph: Graph, text: str, option: str, file: str) -> tuple[Hashable, ...]:
    """The nodes a list option names: commas or spaces between names, or a JSON list."""
    if text.lstrip().startswith("["):
        try:
            values = json.loads(text)
        except (ValueError, RecursionError):
            raise OptionError(f"{file}: {option} {text} starts like a JSON list but is "
                              "not one") from None
        if not isinstance(values, list):
            raise OptionError(f"{file}: {option} expects a JSON list, got {text}")
        found = []
        for value in values:
            label = label_from_json(value)
            if graph._index is None:
                ok = type(label) is int and 0 <= label < graph.n
            else:
                ok = isinstance(label, Hashable) and label in graph._index
            if not ok:
                raise OptionError(f"{file}: {option.lstrip('-')} names node "
                                  f"{json.dumps(value)}, which is not in the graph (its nodes "
                                  f"are {_nodes_words(graph)})")
            found.append(label)
        return tuple(found)
    found = []
    for word in text.replace(",", " ").split():
        try:
            found.append(node_named(graph, word, option, file))
        except OptionError as error:
            if "several" in str(error):
                raise
            raise OptionError(f"{file}: {option.lstrip('-')} names node {word}, which is not "
                              f"in the graph (its nodes are {_nodes_words(graph)})") from None
    return tuple(found)


def default_named(graph: Graph, value: int, option: str | None = None,
                  file: str = "") -> Hashable:
    """LeetCode's default node (0, 1 or 2) as the graph names it, else the number itself (so
    that the error says it is a default); with ``option``, a graph of names without that
    node is an OptionError that says which option names one."""
    found, label = _lookup(graph, str(value))
    if found:
        return label
    if option is not None and graph._index is not None:
        what = option.lstrip("-")
        raise OptionError(f"{file}: no node of the graph is named {value}, LeetCode's {what}: "
                          f"name one with {option} (its nodes are {_nodes_words(graph)})")
    return value
