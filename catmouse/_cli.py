"""The command line: solve, analyze and draw a game read from a graph file.

    catmouse solve FILE [--mouse M] [--cat C] [--hole H]
    catmouse analyze FILE -o OUT.json|OUT.npz
    catmouse draw FILE -o game.svg

FILE holds JSON adjacency lists, an edge list or graph6.  Errors are one line
on stderr and a non-zero exit status.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import os
import sys
import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from . import _retro
from ._analysis import Analysis
from ._api import analyze
from ._io import FORMATS, GraphFile, read_graph
from ._outcome import Outcome, Turn

__all__ = ["main"]

PROG = "catmouse"
# Tables of at least this many positions get a message before and after solving.
PROGRESS_POSITIONS = 200_000

_WORDS = {
    Outcome.MOUSE_WIN: "the mouse wins",
    Outcome.CAT_WIN: "the cat wins",
    Outcome.DRAW: "a draw: neither side can force a win",
}


class CliError(Exception):
    """A problem to report as one line, without a traceback."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Cat and Mouse (LeetCode 913) on any graph, solved exactly.",
        epilog="Graph files: JSON adjacency lists ([[1, 3], [0], ...] or "
               '{"graph": [...], "mouse": 1, "cat": 2, "hole": 0}), '
               "an edge list (one 'u v' per line), or graph6.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def graph_command(name: str, help: str, starts: bool) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        sub.add_argument("file", metavar="FILE", help="the graph file")
        if starts:
            sub.add_argument("--mouse", type=int, help="the mouse's start (default: 1)")
            sub.add_argument("--cat", type=int, help="the cat's start (default: 2)")
        sub.add_argument("--hole", type=int, help="the hole (default: 0)")
        sub.add_argument("--format", choices=FORMATS, help="the file's format (default: guessed)")
        sub.add_argument("--directed", action="store_true",
                         help="read the edges of an edge list or JSON file as one-way")
        return sub

    graph_command("solve", "who wins, in how many moves, and an optimal game", True)
    sub = graph_command("analyze", "write every position's outcome and remoteness", False)
    sub.add_argument("-o", "--output", required=True, metavar="OUT",
                     help="OUT.json, or OUT.npz (needs numpy)")
    sub = graph_command("draw", "draw the graph and an optimal game as SVG", True)
    sub.add_argument("-o", "--output", required=True, metavar="OUT", help="the SVG file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit:  # --help, or a usage error argparse has printed
        return exit.code if isinstance(exit.code, int) else 2
    try:
        return {"solve": _solve, "analyze": _analyze, "draw": _draw}[args.command](args)
    except CliError as error:
        _error(str(error))
    except BrokenPipeError:  # the reader went away (``catmouse solve big | head``)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - stays open until exit
        return 1
    except FileNotFoundError as error:
        _error(f"cannot read {error.filename}: no such file")
    except (OSError, UnicodeDecodeError) as error:
        _error(f"cannot read {args.file}: {error}")
    except (ValueError, TypeError) as error:
        _error(f"{args.file}: {error}")
    except MemoryError as error:
        _error(f"{args.file}: too large to solve here: {error}")
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    return 1


def _error(message: str) -> None:
    print(f"{PROG}: error: {' '.join(str(message).split())}", file=sys.stderr)


# -- shared steps ---------------------------------------------------------------


def _read(args: argparse.Namespace) -> GraphFile:
    return read_graph(args.file, format=args.format, directed=args.directed)


def _starts(args: argparse.Namespace, source: GraphFile) -> tuple[int, int, int]:
    """Command-line starts, else the file's, else LeetCode's (mouse 1, cat 2, hole 0)."""
    def pick(name: str, default: int) -> int:
        given = getattr(args, name, None)
        if given is not None:
            return given
        from_file = getattr(source, name)
        return default if from_file is None else from_file

    return pick("mouse", 1), pick("cat", 2), pick("hole", 0)


def _solve_all(source: GraphFile, hole: int) -> Analysis:
    """Analyze with a note on stderr around large tables (no per-position work)."""
    graph = source.graph
    positions = 2 * graph.n * graph.n
    loud = positions >= PROGRESS_POSITIONS
    if loud:
        print(f"{PROG}: solving {positions:,} positions ({graph.n} nodes) with the "
              f"{_retro.BACKEND} engine...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    analysis = analyze(graph, hole=hole)
    elapsed = time.perf_counter() - start
    if loud or elapsed >= 1.0:
        print(f"{PROG}: solved {positions:,} positions in {elapsed:.2f} s",
              file=sys.stderr, flush=True)
    return analysis


def _check_start(analysis: Analysis, mouse: int, cat: int) -> None:
    try:
        analysis.outcome(mouse, cat, Turn.MOUSE)
    except ValueError as error:
        raise CliError(f"bad start: {error}") from None


def _plies(count: int) -> str:
    return f"{count} move" + ("" if count == 1 else "s")


def _summary(analysis: Analysis, mouse: int, cat: int) -> tuple[Outcome, str]:
    outcome = analysis.outcome(mouse, cat, Turn.MOUSE)
    remoteness = analysis.remoteness(mouse, cat, Turn.MOUSE)
    if remoteness is None:
        return outcome, "the game never ends"
    if remoteness == 0:
        return outcome, "the game is over before it starts"
    return outcome, f"the game ends after {_plies(remoteness)} (mouse and cat moves counted)"


def _ending(analysis: Analysis, line: list[tuple[int, int, Turn]], hole: int) -> str:
    mouse, cat, turn = line[-1]
    if mouse == cat:
        return f"the cat catches the mouse on node {mouse}"
    if mouse == hole:
        return f"the mouse reaches the hole (node {mouse})"
    if not analysis.best_moves(mouse, cat, turn):
        mover = "mouse" if turn == Turn.MOUSE else "cat"
        return f"the {mover} cannot move, and loses"
    # A line that never ends stops where its next move would repeat a position.
    step = analysis.best_moves(mouse, cat, turn)[0]
    move = f"mouse {mouse} -> {step}" if turn == Turn.MOUSE else f"cat {cat} -> {step}"
    return f"then {move} repeats a position: the game goes round forever"


# -- the commands ------------------------------------------------------------------


def _solved(
    args: argparse.Namespace,
) -> tuple[GraphFile, tuple[int, int, int], Analysis, tuple[Outcome, str]]:
    """Read the file, solve it, and check the start: what solve and draw both begin with."""
    source = _read(args)
    mouse, cat, hole = _starts(args, source)
    analysis = _solve_all(source, hole)
    _check_start(analysis, mouse, cat)
    return source, (mouse, cat, hole), analysis, _summary(analysis, mouse, cat)


def _solve(args: argparse.Namespace) -> int:
    source, (mouse, cat, hole), analysis, (outcome, length) = _solved(args)
    graph = source.graph
    kind = "directed graph" if graph.directed else "graph"
    print(f"{args.file}: {kind} of {graph.n} nodes and {graph.num_edges} edges")
    print(f"start: mouse on {mouse}, cat on {cat}, hole {hole}; the mouse moves first")
    print(f"outcome: {_WORDS[outcome]}")
    print(f"remoteness: {length}")
    line = analysis.line(mouse, cat, Turn.MOUSE)
    print("optimal line:")
    for number, (before, after) in enumerate(itertools.pairwise(line), 1):
        if before[2] == Turn.MOUSE:
            print(f"  {number:3}. mouse {before[0]} -> {after[0]}")
        else:
            print(f"  {number:3}. cat   {before[1]} -> {after[1]}")
    print(f"  end: {_ending(analysis, line, hole)}")
    return 0


def _analyze(args: argparse.Namespace) -> int:
    source = _read(args)
    hole = _starts(args, source)[2]
    output = args.output
    numpy: ModuleType | None = None
    if output.lower().endswith(".npz"):
        try:
            # Imported by name: optional, and typed the same with or without numpy installed.
            numpy = importlib.import_module("numpy")
        except ImportError:
            raise CliError("writing .npz needs numpy (pip install numpy); "
                           "or write a .json file") from None
    analysis = _solve_all(source, hole)
    graph = source.graph
    try:
        if numpy is not None:
            numpy.savez_compressed(
                output,
                outcomes=numpy.asarray(analysis.outcomes),
                remoteness=numpy.asarray(analysis.remoteness_table),
                hole=numpy.int32(hole),
                directed=numpy.bool_(graph.directed),
            )
        else:
            with open(output, "w", encoding="utf-8") as handle:
                json.dump(_table_json(analysis, hole), handle, separators=(",", ":"))
                handle.write("\n")
    except OSError as error:
        raise CliError(f"cannot write {output}: {error.strerror or error}") from None
    counts = analysis.counts()
    print(f"wrote {output}: {2 * graph.n * graph.n:,} positions of {graph.n} nodes: "
          f"{counts[Outcome.MOUSE_WIN]:,} mouse wins, {counts[Outcome.CAT_WIN]:,} cat wins, "
          f"{counts[Outcome.DRAW]:,} draws")
    return 0


def _table_json(analysis: Analysis, hole: int) -> dict[str, Any]:
    return {
        "n": analysis.n,
        "hole": hole,
        "directed": analysis.graph.directed,
        "index": "[turn][mouse][cat], turn 0 = mouse to move, 1 = cat to move",
        "outcome_codes": {"0": "draw", "1": "mouse wins", "2": "cat wins",
                          "3": "no such position (the cat on the hole)"},
        "remoteness_codes": "moves to the end with optimal play; -1 = never ends / no position",
        "outcomes": analysis.outcomes.tolist(),
        "remoteness": analysis.remoteness_table.tolist(),
    }


def _draw(args: argparse.Namespace) -> int:
    from ._svg import game_svg

    source, (mouse, cat, hole), analysis, (outcome, length) = _solved(args)
    line = analysis.line(mouse, cat, Turn.MOUSE)
    name = os.path.basename(args.file)
    title = f"{name}: {_WORDS[outcome].split(':')[0]}"
    if outcome != Outcome.DRAW:
        title += f" in {_plies(len(line) - 1)}"
    subtitle = (f"mouse starts on {mouse}, cat on {cat}, hole {hole}; the mouse moves first\n"
                f"{_ending(analysis, line, hole)}")
    svg = game_svg(source.graph, line, holes=(hole,), title=title, subtitle=subtitle)
    try:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(svg)
    except OSError as error:
        raise CliError(f"cannot write {args.output}: {error.strerror or error}") from None
    print(f"wrote {args.output}: {_WORDS[outcome]}; {length}")
    return 0
