"""``catmouse cop-play FILE``: play cops and robber in the terminal against perfect play.

You are the robber (the default) against cops who start on ``best_start()`` (the page's and
the notebook's start) and capture as soon as they can, or the cops against a robber who
escapes if he can and else delays capture.  Nodes are typed as the graph names them; ``?``
at any prompt explains it, ``q`` or the end of input stops.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..cops.game import CopsAnalysis, CopsGame
from ..cops.number import cop_number
from ..cops.sides import CopsOutcome, CopsTurn
from ..engine.cops_checks import MAX_COPS, cops_text
from ..graph import Graph
from ..io.graph_files import read_graph
from ..show.cops_page import check_page_size, cops_page_html
from ..show.play import clashing_names, clashing_texts, shown_text, typed_node
from ..show.words import counted
from .node_options import OptionError
from .outputs import check_target, notes, write_page

__all__ = ["add_command", "run"]


class _Quit(Exception):
    """The player typed q or the input ended."""


def add_command(commands: argparse._SubParsersAction) -> None:
    """Register ``cop-play`` on the CLI's subcommands."""
    help = "play cops and robber in the terminal against perfect play"
    sub = commands.add_parser("cop-play", help=help, description=help)
    sub.add_argument("file", metavar="FILE", help="the graph file ('-' reads stdin)")
    sub.add_argument("--cops", type=int, help="how many cops (default: the cop number)")
    sub.add_argument("--as", dest="side", choices=("robber", "cops"), default="robber",
                     help="the side you play (default: robber)")
    sub.add_argument("--max-plies", type=int, default=200,
                     help="stop an escape after this many plies (default: 200)")
    sub.add_argument("--html", metavar="OUT.html",
                     help="write a self-contained page to play in a browser instead (your side "
                     "first: --as; the page can switch sides; '-' writes it to standard output)")


_HELP = "Type {what}, as the graph names them; q stops."


def _ask(prompt: str, read: Callable[[], str], parse: Callable[[str], Any],
         what: str = "a node") -> Any:
    while True:
        print(prompt, end=" ", flush=True)
        line = read()
        if not line or line.strip().lower() in ("q", "quit"):
            raise _Quit
        if line.strip() in ("?", "help"):
            print("  " + _HELP.format(what=what))
            continue
        try:
            return parse(line.strip())
        except ValueError as error:
            print(f"  {error}")


def _node_parser(graph: Graph, clashes: set[str]) -> Callable[[str], Any]:
    """A node as typed: its name, or its JSON where names read alike (``1`` and ``"1"``:
    ``clashes``, from clashing_texts)."""

    def parse(word: str) -> Any:
        label = typed_node(graph, word)
        if graph._labels is None and label is not None and label not in graph:
            label = None  # (an id past the last)
        if label is None:
            several = clashing_names(graph, clashes, word)
            if several:
                raise ValueError(f"{word!r} names several nodes: type one as shown, "
                                 + " or ".join(several))
            raise ValueError(f"{word!r} is not a node")
        return label
    return parse


def _shown(graph: Graph, clashes: set[str]) -> Callable[[Any], str]:
    """How a node is shown, the text that types it: its name, or its JSON where that is not
    one word (a space or comma in it) or where names read alike (``clashes``)."""
    return lambda label: shown_text(graph, clashes, label, " ,")


def _words(text: str) -> list[str]:
    """The names of a line, separated by spaces or commas; a JSON string or list is one
    (``"New York"``, ``[1, 2]``)."""
    words: list[str] = []
    at, decoder = 0, json.JSONDecoder()
    while at < len(text):
        if text[at] in " ,\t":
            at += 1
            continue
        end = None
        if text[at] in '"[':
            try:
                end = decoder.raw_decode(text, at)[1]
            except ValueError:
                end = None
        if end is None:
            end = at
            while end < len(text) and text[end] not in " ,\t":
                end += 1
        words.append(text[at:end])
        at = end
    return words


def _robber_start(analysis: CopsAnalysis, team: tuple[Any, ...]) -> Any:
    """The robber's best start against ``team``: an escape, else the latest capture."""
    def key(node: Any) -> float:
        r = analysis.remoteness(team, node, CopsTurn.COPS)
        return float("inf") if r is None else r
    return max(analysis.game.graph.labels, key=key)


def run(args: argparse.Namespace, read: Callable[[], str] | None = None) -> int:
    """The command: see the module docstring.  Returns the exit status."""
    if args.max_plies < 1:
        raise OptionError(f"--max-plies must be at least 1, not {args.max_plies}")
    if args.cops is not None and not 1 <= args.cops <= MAX_COPS:
        raise OptionError(f"--cops must be 1 to {MAX_COPS}, not {args.cops}")
    if args.html and args.html != "-":  # (- is standard output)
        # A folder, a missing folder, the graph's own file: refused before reading.
        check_target(args.html, (args.file,))
    with notes():  # an edge list's missing ids: a note, as other commands
        graph = read_graph(args.file).graph
    if graph.directed:  # (said before the cop number is asked for: the game needs it so)
        raise ValueError("cops and robber needs an undirected graph")
    if graph.n == 0:  # (the default, the cop number, would be 0 cops)
        raise ValueError("the graph has no nodes: there is no game to play")
    if args.html:
        k = _cops_for_page(graph, args.cops)  # the page's limit, before any solving
    elif args.cops is None:
        k = cop_number(graph)
        if k > MAX_COPS:  # (the number itself, not an option the user gave)
            raise ValueError(f"its cop number is {k}, and a game takes at most {MAX_COPS} "
                             "cops: give --cops")
    else:
        k = args.cops
    analysis = CopsGame(graph, k).analyze()
    if args.html:
        where, report = write_page(args.html, cops_page_html(analysis, human=args.side))
        squad = cops_text(k)
        you, them = ("the robber", squad) if args.side == "robber" else (squad, "a robber")
        print(f"wrote {where}: open it in a browser to play {you} against {them}", file=report)
        return 0
    read = sys.stdin.readline if read is None else read  # (a page reads no moves)
    clashes = clashing_texts(graph)
    node = _node_parser(graph, clashes)
    shown = _shown(graph, clashes)

    def _text(team: tuple[Any, ...]) -> str:
        return " ".join(map(shown, team))

    print(f"{cops_text(k)} against a robber on {counted(graph.n, 'node')}; "
          f"you play the {args.side}. Type q to stop.")
    try:
        if args.side == "robber":
            team = analysis.best_start()[0]  # the page's and the notebook's start
            print(f"the cops start on {_text(team)}")
            robber = _ask("your start:", read, node, "the node you start on")
        else:
            team = _ask("your start node:" if k == 1 else f"your {k} start nodes:", read,
                        _team_parser(analysis, node, None),
                        "the node you start on" if k == 1
                        else f"{k} nodes, one per cop, separated by spaces")
            robber = _robber_start(analysis, team)
            print(f"the robber starts on {shown(robber)}")
        turn = CopsTurn.COPS
        for _ in range(args.max_plies):
            if robber in team:
                print(f"captured on {shown(robber)}: the cops win")
                return 0
            if turn == CopsTurn.COPS:
                if args.side == "cops":
                    team = _ask("your cops move to:", read, _team_parser(analysis, node, team),
                                f"{k} nodes, where each cop goes: its own node (it stays) or "
                                "a neighbour's")
                else:
                    team = analysis.best_moves(team, robber, CopsTurn.COPS)[0]
                    print(f"the cops move to {_text(team)}")
                turn = CopsTurn.ROBBER
            else:
                if args.side == "robber":
                    moves = [label for label in graph.labels
                             if label == robber or label in graph.neighbors(robber)]
                    robber = _ask(f"you move to (one of {_text(tuple(moves))}):", read,
                                  _move_parser(node, moves),
                                  "one of the nodes listed (your own stays put)")
                else:
                    robber = analysis.best_moves(team, robber, CopsTurn.ROBBER)[0]
                    print(f"the robber moves to {shown(robber)}")
                turn = CopsTurn.COPS
        if robber in team:  # (caught on the last ply)
            print(f"captured on {shown(robber)}: the cops win")
            return 0
        escaped = analysis.outcome(team, robber, turn) == CopsOutcome.ROBBER_WIN
        plies = f"{args.max_plies} pl{'y' if args.max_plies == 1 else 'ies'}"
        print(f"{plies} and no capture"
              + (": the robber escapes forever from here" if escaped else ""))
        return 0
    except _Quit:
        print("\nstopped")
        return 0


def _cops_for_page(graph: Graph, cops: int | None) -> int:
    """The page's team size: ``cops``, else the cop number, found without solving a game
    past the page's limit (each k is checked before its search)."""
    if cops is not None:
        check_page_size(graph.n, cops)
        return cops
    k = 1
    while True:
        try:
            check_page_size(graph.n, k)
        except ValueError as error:
            raise ValueError(f"its cop number is at least {k}, and the page of {k} cops is "
                             f"too big: {error}") from None
        try:
            return cop_number(graph, max_cops=k)
        except ValueError:  # more than k cops
            k += 1


def _move_parser(node: Callable[[str], Any], moves: list[Any]) -> Callable[[str], Any]:
    def parse(word: str) -> Any:
        label = node(word)
        if label not in moves:
            raise ValueError(f"{word} is not a move from here")
        return label
    return parse


def _team_parser(analysis: CopsAnalysis, node: Callable[[str], Any],
                 team: tuple[Any, ...] | None) -> Callable[[str], tuple[Any, ...]]:
    graph, k = analysis.game.graph, analysis.game.cops

    def parse(words: str) -> tuple[Any, ...]:
        chosen = [node(word) for word in _words(words)]
        if len(chosen) != k:
            raise ValueError("give one node" if k == 1 else f"give {k} nodes, one per cop")
        ids = sorted(graph.index(label) for label in chosen)
        if team is not None:
            before = sorted(graph.index(label) for label in team)
            if not _reachable(graph, before, ids):
                raise ValueError("each cop moves along an edge or stays: not a team move")
        return tuple(graph.label(u) for u in ids)
    return parse


def _reachable(graph: Graph, before: list[int], after: list[int]) -> bool:
    """Whether the cops on ``before`` can stand on ``after`` in one move (a matching)."""
    rows = graph._rows()

    def match(i: int, left: list[int]) -> bool:
        if i == len(before):
            return True
        u = before[i]
        for j, v in enumerate(left):
            if (v == u or v in rows[u]) and match(i + 1, left[:j] + left[j + 1:]):
                return True
        return False
    return match(0, after)
