"""``catmouse cop-win FILE...``: whether one cop catches a robber, graph by graph.

Each file in turn; a graph6 stream (geng's) is answered a line at a time as it comes.
"""

from __future__ import annotations

import argparse
import itertools

from ..io.graph_files import read_graphs
from .outputs import file_label, notes

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Each file in turn; a graph6 stream is answered graph by graph as its lines come.

    A graph of a stream that is not connected (or has no node) gets its line's answer, a
    line saying why there is none, and the stream goes on; the exit status is then 1."""
    status = 0
    for path in args.files:
        args.file = path
        status = max(status, _answer_file(args))
    return status


def _answer_file(args: argparse.Namespace) -> int:
    from ..family import is_cop_win

    # Streamed: a graph is read, answered and printed before the next is read (geng's output).
    with notes():  # an edge list or JSON file is read here, a graph6 stream as it goes
        sources = read_graphs(args.file, format=args.format)
    name = file_label(args.file)
    first = next(sources)
    second = next(sources, None)
    if second is None:
        print(f"{name}: {_words(is_cop_win(first.graph))}", flush=True)
        return 0
    wins = refused = 0
    for k, source in enumerate(itertools.chain((first, second), sources), 1):
        try:
            win = is_cop_win(source.graph)
        except ValueError as error:  # not connected, or no node: say so, and go on
            refused += 1
            print(f"{name} graph {k} (line {source.line}): no answer: {error}", flush=True)
            continue
        wins += win
        print(f"{name} graph {k}: {_words(win)}", flush=True)  # answers as they come
    others = k - wins - refused
    print(f"{name}: {k:,} graphs, {wins:,} cop-win, {others:,} not"
          + (f", {refused:,} with no answer (see their lines)" if refused else ""), flush=True)
    return 1 if refused else 0


def _words(win: bool) -> str:
    if win:
        return "cop-win: one cop catches the robber, whatever the robber does"
    return "not cop-win: the robber escapes one cop forever"
