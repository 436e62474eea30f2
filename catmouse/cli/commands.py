"""The command line: solve, analyze and draw a game read from a graph file.

    catmouse solve FILE [--mouse M] [--cat C] [--hole H] [GAME OPTIONS] [--json]
    catmouse analyze FILE -o OUT.json|OUT.csv|OUT.npz|- [--output-format F] [GAME OPTIONS]
    catmouse draw FILE -o game.svg|game.png [GAME OPTIONS]
    catmouse play FILE [--as mouse|cat] [--html OUT.html] [GAME OPTIONS]
    catmouse cop-win FILE...   (each graph of a graph6 stream: geng -c 6 | catmouse cop-win -)
    catmouse cop-number FILE... [--census] [--max-cops K] [--jobs N] [--threads N]
    catmouse cop-play FILE [--cops K] [--as robber|cops]
    catmouse cat-mouse-ii GRID [--cat-jump J] [--mouse-jump J]

FILE holds JSON (adjacency lists, networkx's node-link data, neighbour lists), an edge list
or graph6 (several graphs, one per line: solve and cop-win take each); ``-`` reads stdin.
Node options name nodes as the file does (docs/cli.rst gives each format's grammar).  The
game options are those of :class:`catmouse.Game`.  Errors are one line on stderr and a
non-zero exit status.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

from .. import engine as _engine
from ..analysis import Analysis
from ..engine.optional import import_optional
from ..game import Game
from ..graph import Graph
from ..io.atomic import replacing, terminated
from ..io.export import FORMATS as FORMATS_OUT
from ..io.export import format_of, positions_written, write_table
from ..io.graph_files import FORMATS, GraphFile, read_graph, read_graphs, read_text
from ..outcome import Outcome, Turn
from ..progress import Bar, engine_takes_progress
from ..show.words import counted, ending, first_mover, outcome_words, plies, short_outcome, winner
from . import census, cop_census, cop_play, cop_win
from .node_options import (
    OptionError,
    default_named,
    node_named,
    node_text,
    nodes_named,
    nodes_text,
)
from .outputs import (
    STDOUT,
    GuardedStdout,
    ShownBytes,
    ShownStderr,
    WriteFailed,
    check_target,
    file_label,
    notes,
    on_terminal,
    report_stream,
    write_page,
    writing,
)
from .solver_options import add_solver_options, solver_kwargs

__all__ = ["main"]

PROG = "catmouse"
# Tables of at least this many positions get a message before and after solving.
PROGRESS_POSITIONS = 200_000
# The progress bar appears once work has taken this long (seconds).
PROGRESS_DELAY = 1.0

class CliError(Exception):
    """A problem to report as one line, without a traceback."""


_DRAW_SCORES = {"draw": Outcome.DRAW, "mouse": Outcome.MOUSE_WIN, "cat": Outcome.CAT_WIN}
_MOVERS = {"mouse": Turn.MOUSE, "cat": Turn.CAT}


def _game_options(sub: argparse.ArgumentParser) -> None:
    """The rules of catmouse.Game, as options (defaults: LeetCode 913)."""
    group = sub.add_argument_group("game options (catmouse.Game; default: LeetCode 913)")
    group.add_argument("--holes", type=nodes_text, metavar="NODES",
                       help="nodes where the mouse wins, e.g. 0,4 ('' for none; "
                            "default: the hole)")
    group.add_argument("--cat-forbidden", type=nodes_text, metavar="NODES",
                       help="nodes the cat may not enter (default: the holes)")
    group.add_argument("--cat-goals", type=nodes_text, metavar="NODES", default="",
                       help="nodes where the cat wins on arrival")
    group.add_argument("--mouse-stays", action="store_true", help="the mouse may pass")
    group.add_argument("--cat-stays", action="store_true", help="the cat may pass")
    group.add_argument("--draw", choices=tuple(_DRAW_SCORES), default="draw",
                       help="how a game that never ends is scored (default: draw)")
    group.add_argument("--first", choices=tuple(_MOVERS), default="mouse",
                       help="who moves first (default: mouse)")
    group.add_argument("--cat-graph", metavar="FILE",
                       help="the cat moves on this graph (same nodes) instead")


def _parser() -> argparse.ArgumentParser:
    from ..version import __version__

    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Cat and Mouse (LeetCode 913) on any graph, solved exactly.",
        epilog="Graph files: JSON adjacency lists ([[1, 3], [0], ...] or "
               '{"graph": [...], "mouse": 1, "cat": 2, "hole": 0}) or networkx node-link '
               "data, an edge list (one 'u v' per line; ids or names), or graph6 (one graph "
               "per line); '-' reads stdin. Node options name nodes as the file does.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def graph_command(name: str, help: str, starts: bool, game: bool = True,
                      several: bool = False, directed: bool = True) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        if several:
            sub.add_argument("files", nargs="+", metavar="FILE",
                             help="graph files ('-' reads stdin), one after the other")
        else:
            sub.add_argument("file", metavar="FILE", help="the graph file ('-' reads stdin)")
        if starts:
            sub.add_argument("--mouse", type=node_text, help="the mouse's start (default: 1)")
            sub.add_argument("--cat", type=node_text, help="the cat's start (default: 2)")
        if game:
            sub.add_argument("--hole", type=node_text, help="the hole (default: 0)")
        sub.add_argument("--format", choices=FORMATS, help="the file's format (default: guessed)")
        if directed:  # (not for cops and robbers, which needs an undirected graph)
            sub.add_argument("--directed", action="store_true",
                             help="read the edges of an edge list or JSON file as one-way")
        if game:
            _game_options(sub)
            add_solver_options(sub, outcomes_only=name == "analyze")
        return sub

    sub = graph_command("solve", "who wins, in how many moves, and an optimal game", True)
    sub.add_argument("--json", action="store_true",
                     help="print the result as JSON (a list for a file of several graphs)")
    sub = graph_command("analyze", "write every position's outcome and remoteness", False)
    sub.add_argument("-o", "--output", required=True, metavar="OUT",
                     help="OUT.json, OUT.csv (one row per position) or OUT.npz (needs numpy); "
                          "'-' writes to standard output")
    sub.add_argument("--output-format", choices=FORMATS_OUT, default=None,
                     help="the table's format (default: OUT's suffix)")
    sub = graph_command("draw", "draw the graph and an optimal game as SVG", True)
    sub.add_argument("-o", "--output", required=True, metavar="OUT",
                     help="OUT.svg, or OUT.png (needs rsvg-convert, cairosvg or chromium); "
                          "'-' writes the SVG to standard output")
    sub = graph_command("play", "play against the solver, in the terminal or a web page", True)
    sub.add_argument("--as", dest="side", choices=("mouse", "cat"), default="mouse",
                     help="the side you play (default: mouse)")
    sub.add_argument("--html", metavar="OUT.html",
                     help="write a self-contained page to play in a browser instead ('-' "
                          "writes it to standard output)")
    graph_command("cop-win", "whether one cop catches a robber on the graph (cops and robbers); "
                  "a graph6 file or stream (geng's) gets one line per graph", False, game=False,
                  several=True, directed=False)
    cop_census.add_command(commands)
    cop_play.add_command(commands)
    census.add_command(commands)
    sub = commands.add_parser(
        "cat-mouse-ii", help="LeetCode 1728 (Cat and Mouse II) on a grid file",
        description="LeetCode 1728 on a grid file: rows of '#' walls, '.' floor, "
                    "'C' cat, 'M' mouse, 'F' food.")
    sub.add_argument("file", metavar="GRID", help="the grid file ('-' reads stdin)")
    sub.add_argument("--cat-jump", type=int, default=1, help="the cat's jump (default: 1)")
    sub.add_argument("--mouse-jump", type=int, default=1, help="the mouse's jump (default: 1)")
    sub.add_argument("--max-turns", type=int, default=1000,
                     help="moves in all within which the mouse must eat (default: 1000)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if sys.stdout is None:  # started with stdout closed (``>&-``): nowhere for the answers
        _error(f"cannot write {STDOUT}: standard output is closed")
        return 1
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = guarded = GuardedStdout(stdout)
    if on_terminal(stderr):
        sys.stderr = ShownStderr(stderr)
    try:
        return _run(argv, guarded)
    finally:
        sys.stdout, sys.stderr = stdout, stderr


def _run(argv: list[str], stdout: GuardedStdout) -> int:
    _exit_cleanly_on_sigterm()
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit:  # --help, or a usage error argparse has printed
        return exit.code if isinstance(exit.code, int) else 2
    if getattr(args, "files", None):  # errors name the file being read
        args.file = args.files[0]
    try:
        if sys.stdin is None and _reads_stdin(args):
            raise CliError("cannot read <stdin>: standard input is closed")
        command = {"solve": _solve, "analyze": _analyze, "draw": _draw, "cop-win": cop_win.run,
                   "cat-mouse-ii": _cat_mouse_ii, "play": _play,
                   "cop-number": cop_census.run, "cop-play": cop_play.run,
                   "census": census.run}[args.command]
        status = command(args)
        stdout.flush()  # a full disk or a closed pipe is found here, not at the exit
        return status
    except CliError as error:
        _error(str(error))
    except OptionError as error:  # a node option the file does not name (names the file)
        _error(str(error))
    except WriteFailed as failed:  # every write of a command: -o, --html, stdout
        _error(str(failed))
        if failed.where == STDOUT:
            stdout.silence()
    except BrokenPipeError:  # the reader went away (``catmouse solve big | head``)
        stdout.silence()
        return 1
    except FileNotFoundError as error:
        _error(f"cannot read {error.filename}: no such file")
    except ImportError as error:  # an optional dependency an output format needs
        _error(str(error))
    except (OSError, UnicodeDecodeError) as error:  # the writes are WriteFailed: a read
        _error(f"cannot read {_subject(args)}: {error}")
    except (ValueError, TypeError) as error:
        _error(f"{_subject(args)}: {error}")
    except MemoryError as error:
        _error(f"{_subject(args)}: too large to solve here: "
               f"{str(error) or 'the tables could not be allocated'}")  # (an error is true)
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    return 1


def _reads(args: argparse.Namespace) -> tuple[str | None, ...]:
    """The files a command reads its game from: an output may not be one of them."""
    return (getattr(args, "file", None), getattr(args, "cat_graph", None))


def _reads_stdin(args: argparse.Namespace) -> bool:
    """Whether the command reads standard input: a graph file ``-``, or the moves of a game
    in the terminal.  (Python's stdin is None when the process starts with it closed.)"""
    files = [*(getattr(args, "files", None) or ()), getattr(args, "file", None),
             getattr(args, "cat_graph", None)]
    plays = args.command in ("play", "cop-play") and not args.html
    return "-" in files or plays


def _subject(args: argparse.Namespace) -> str:
    """What an error is about: the file being read, or the command where it reads none
    (``census``)."""
    file = getattr(args, "file", None)
    return file_label(file) if file else f"catmouse {args.command}"


def _exit_cleanly_on_sigterm() -> None:
    """SIGTERM unwinds like Ctrl-C (exit status 143), so a file being written is left as it
    was; only from the main thread of a process whose SIGTERM is still the default."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, terminated)


def _error(message: str) -> None:
    print(f"{PROG}: error: {' '.join(str(message).split())}", file=sys.stderr)


# -- shared steps ---------------------------------------------------------------


def _read(args: argparse.Namespace) -> GraphFile:
    with notes():
        return read_graph(args.file, format=args.format,
                          directed=getattr(args, "directed", False))


def _graphs(args: argparse.Namespace) -> Iterator[GraphFile]:
    """Every graph of the file, streamed (graph6 is read line by line as it is asked for)."""
    with notes():  # an edge list or JSON file is read here, a graph6 stream as it goes
        return read_graphs(args.file, format=args.format,
                           directed=getattr(args, "directed", False))


def _starts(args: argparse.Namespace, source: GraphFile,
            players: bool = True) -> tuple[Any, Any, Any]:
    """Command-line starts, else the file's, else LeetCode's (mouse 1, cat 2, hole 0), as
    the file names its nodes.  ``players``: the mouse and the cat are needed (a graph of
    names without LeetCode's is then an error naming the option), not only the hole."""
    def pick(name: str, default: int) -> Any:
        given = getattr(args, name, None)
        if given is not None:
            return node_named(source.graph, given, f"--{name}", file_label(args.file))
        from_file = getattr(source, name)
        if from_file is not None:
            return from_file
        if (name == "hole" and getattr(args, "holes", None) is not None
                or name != "hole" and not players):
            return default_named(source.graph, default)  # (unused)
        return default_named(source.graph, default, f"--{name}", file_label(args.file))

    return pick("mouse", 1), pick("cat", 2), pick("hole", 0)


def _node_list(args: argparse.Namespace, source: GraphFile, name: str) -> Any:
    text = getattr(args, name)
    if text is None:
        return None
    option = "--" + name.replace("_", "-")
    return nodes_named(source.graph, text, option, file_label(args.file))


def _game(args: argparse.Namespace, source: GraphFile, hole: int) -> Game:
    """The game the options describe on the file's graph (LeetCode 913 by default)."""
    if args.holes is not None and args.hole is not None:
        raise CliError("give --hole or --holes, not both")
    n = source.graph.n
    # (A labelled graph names its hole by label: Game checks it.)
    if args.holes is None and source.graph._index is None and not 0 <= hole < n:
        raise CliError(f"{file_label(args.file)}: hole node {hole} is not in a graph of {n} nodes")
    holes = _node_list(args, source, "holes")
    holes = holes if holes is not None else (hole,)
    cat_graph = _cat_graph(args)
    try:
        return Game(source.graph, cat_graph=cat_graph, holes=holes,
                    cat_forbidden=_node_list(args, source, "cat_forbidden"),
                    cat_goals=_node_list(args, source, "cat_goals"),
                    mouse_stays=args.mouse_stays, cat_stays=args.cat_stays,
                    draw=_DRAW_SCORES[args.draw], first=_MOVERS[args.first])
    except OptionError:
        raise  # (its message names the file already)
    except ValueError as error:
        raise CliError(f"{file_label(args.file)}: {error}") from None


def _cat_graph(args: argparse.Namespace) -> Graph | None:
    """The cat's own graph (``--cat-graph``), read as the mouse's is, its errors naming its
    file (they named the mouse's graph file) and its notes one line each."""
    if args.cat_graph is None:
        return None
    name = file_label(args.cat_graph)
    try:
        with notes():
            return read_graph(args.cat_graph, format=args.format, directed=args.directed).graph
    except FileNotFoundError:
        raise CliError(f"cannot read {name}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"cannot read {name}: {error}") from None
    except (ValueError, TypeError) as error:
        raise CliError(f"{name}: {error}") from None


def _solve_all(source: GraphFile, game: Game, args: argparse.Namespace) -> Analysis:
    """Analyze (as the solver options say), with a note on stderr around large tables and a
    bar past about a second."""
    graph = source.graph
    positions = 2 * graph.n * graph.n
    loud = positions >= PROGRESS_POSITIONS
    if loud:
        print(f"{PROG}: solving {positions:,} positions ({graph.n} nodes: 2 turns x "
              f"{graph.n} x {graph.n} places) with the {_engine.BACKEND} engine...",
              file=sys.stderr, flush=True)
    start = time.perf_counter()
    # The engine reports decided positions between rounds, where it can.
    bar = Bar(positions, "solving", delay=PROGRESS_DELAY) if engine_takes_progress() else None
    analysis = game.analyze(progress=bar, **solver_kwargs(args))
    elapsed = time.perf_counter() - start
    if loud or elapsed >= 1.0:
        print(f"{PROG}: solved {positions:,} positions in {elapsed:.2f} s",
              file=sys.stderr, flush=True)
    return analysis


def _check_start(args: argparse.Namespace, game: Game, mouse: int, cat: int) -> None:
    """A start that is no position (the cat on the hole), refused before the search."""
    try:
        game._rules.position(mouse, cat, game.first)
    except ValueError as error:
        raise CliError(f"{file_label(args.file)}: bad start: {error}") from None


def _summary(analysis: Analysis, mouse: int, cat: int, first: Turn) -> tuple[Outcome, str]:
    outcome = analysis.outcome(mouse, cat, first)
    remoteness = analysis.remoteness(mouse, cat, first)
    if remoteness is None:
        return outcome, "the game never ends"
    if remoteness == 0:
        return outcome, "the game is over before it starts"
    return outcome, f"the game ends after {plies(remoteness)} (mouse and cat moves counted)"


def _outcome_words(game: Game, outcome: Outcome, remoteness: int | None) -> str:
    if remoteness is None and game.draw != Outcome.DRAW:
        return outcome_words(outcome, None)  # the rules score the endless game as a win
    return short_outcome(outcome)


def _ending(analysis: Analysis, line: list[tuple[int, int, Turn]], game: Game,
            shown: Callable[[Any], str] = str) -> str:
    from ..show.draw import game_over_words

    over = game_over_words(analysis, line[-1], game.holes, game.cat_goals, shown)
    if over:
        return over
    mouse, cat, turn = line[-1]
    # A line that never ends stops where its next move would repeat a position.
    step = analysis.best_moves(mouse, cat, turn)[0]
    k = 0 if turn == Turn.MOUSE else 1
    if step == (mouse, cat)[k]:
        return ending("stays round", player=Turn(k), node=shown(step))
    move = " ".join(_move_text(k, (mouse, cat)[k], step, shown).split())
    return ending("moves round", move=move)


def _holes_text(holes: Sequence[int], shown: Callable[[Any], str] = str) -> str:
    if not holes:
        return "no hole"
    return ("hole " if len(holes) == 1 else "holes ") + ", ".join(map(shown, holes))


def _rules_text(game: Game, args: argparse.Namespace,
                shown: Callable[[Any], str] = str) -> str | None:
    """The rules that differ from LeetCode 913's, in words, or None."""
    parts = []
    if game.cat_forbidden != game.holes:
        nodes = ", ".join(map(shown, game.cat_forbidden)) or "none"
        parts.append(f"the cat may not enter {nodes}")
    if game.cat_goals:
        parts.append(f"the cat wins on reaching {', '.join(map(shown, game.cat_goals))}")
    if game.mouse_stays:
        parts.append("the mouse may stay put")
    if game.cat_stays:
        parts.append("the cat may stay put")
    if game.draw != Outcome.DRAW:
        parts.append(f"a game that never ends counts as a {args.draw} win")
    if args.cat_graph is not None:
        parts.append(f"the cat moves on {args.cat_graph}")
    return "; ".join(parts) if parts else None


# -- the commands ------------------------------------------------------------------


def solved_game(
    args: argparse.Namespace, source: GraphFile | None = None,
) -> tuple[GraphFile, Game, tuple[int, int], Analysis, tuple[Outcome, str]]:
    """Read the file, solve it, and check the start: what solve and draw both begin with."""
    if source is None:
        source = _read(args)
    mouse, cat, hole = _starts(args, source)
    if getattr(args, "html", None):  # play --html: a page too big to draw is refused unsolved
        from ..show.draw import LEGIBLE_NODES

        if source.graph.n > LEGIBLE_NODES:
            raise CliError(f"{file_label(args.file)}: the play page draws at most {LEGIBLE_NODES} "
                           f"nodes and this graph has {source.graph.n}: play it in the "
                           "terminal (catmouse play without --html)")
    game = _game(args, source, hole)
    _check_start(args, game, mouse, cat)
    analysis = _solve_all(source, game, args)
    return source, game, (mouse, cat), analysis, _summary(analysis, mouse, cat, game.first)


def _solve(args: argparse.Namespace) -> int:
    sources = list(_graphs(args))
    results = []
    for k, source in enumerate(sources, 1):
        name = file_label(args.file)
        if len(sources) > 1:
            name = f"{name} graph {k} of {len(sources)}"
        if args.json:
            results.append(_solve_json(args, source, k))
            continue
        if k > 1:
            print()
        _solve_text(args, source, name)
    if args.json:
        print(json.dumps(results[0] if len(sources) == 1 else results, allow_nan=False))
    return 0


def _solve_text(args: argparse.Namespace, source: GraphFile, name: str) -> None:
    source, game, (mouse, cat), analysis, (outcome, length) = solved_game(args, source)
    from ..show.play import clashing_texts, shown_text

    graph = source.graph
    # Names as the terminal game shows them: JSON where two read alike (1 and "1") or one
    # would not read as itself on a line (a newline, spaces round it).
    shown = partial(shown_text, graph, clashing_texts(graph))
    kind = "directed graph" if graph.directed else "graph"
    print(f"{name}: {kind} of {counted(graph.n, 'node')} and {counted(graph.num_edges, 'edge')}")
    print(f"start: mouse on {shown(mouse)}, cat on {shown(cat)}, "
          f"{_holes_text(game.holes, shown)}; {first_mover(game.first)}")
    rules = _rules_text(game, args, shown)
    if rules:
        print(f"rules: {rules}")
    remoteness = analysis.remoteness(mouse, cat, game.first)
    print(f"outcome: {_outcome_words(game, outcome, remoteness)}")
    print(f"remoteness: {length}")
    line = analysis.line(mouse, cat, game.first)
    print("optimal line:")
    for number, (before, after) in enumerate(itertools.pairwise(line), 1):
        k = 0 if before[2] == Turn.MOUSE else 1
        print(f"  {number:3}. {_move_text(k, before[k], after[k], shown)}")
    print(f"  end: {_ending(analysis, line, game, shown)}")


def _move_text(k: int, source: Any, destination: Any,
               shown: Callable[[Any], str] = str) -> str:
    """One move in words: ``mouse 3 -> 2``, or ``cat   stays on 4`` for a pass."""
    who = "mouse" if k == 0 else "cat  "
    if source == destination:
        return f"{who} stays on {shown(source)}"
    return f"{who} {shown(source)} -> {shown(destination)}"


def _solve_json(args: argparse.Namespace, source: GraphFile, k: int) -> dict[str, Any]:
    from ..io.export import json_label as label  # (as the table's JSON: an inf is no JSON)

    source, game, (mouse, cat), analysis, (outcome, _) = solved_game(args, source)
    graph = source.graph
    line = analysis.line(mouse, cat, game.first)
    return {
        "file": file_label(args.file),
        "graph": k,
        "nodes": graph.n,
        "edges": graph.num_edges,
        "directed": graph.directed,
        "mouse": label(mouse),
        "cat": label(cat),
        "holes": [label(hole) for hole in game.holes],
        "first": game.first.name,
        "outcome": outcome.name,
        "remoteness": analysis.remoteness(mouse, cat, game.first),
        "line": [{"mouse": label(m), "cat": label(c), "turn": t.name} for m, c, t in line],
        "ending": _ending(analysis, line, game),
    }


def _analyze(args: argparse.Namespace) -> int:
    output = args.output
    to_stdout = output == "-"
    # The format first: refuse before reading or solving anything.
    if to_stdout and args.output_format is None:
        raise CliError("-o - writes the table to standard output: name its format with "
                       "--output-format json, csv or npz")
    try:
        format = format_of(output, args.output_format)
    except ValueError as error:
        raise CliError(f"{error}, or name the format with --output-format") from None
    if format == "npz":
        if import_optional("numpy") is None:
            raise CliError("writing .npz needs numpy (pip install numpy); "
                           "or write a .json or .csv file")
    if not to_stdout:
        # A folder, a socket, a missing folder, the graph's own file: refused before solving.
        check_target(output, _reads(args))
    source = _read(args)
    hole = _starts(args, source, players=False)[2]
    game = _game(args, source, hole)
    analysis = _solve_all(source, game, args)
    # A bar once the writing has taken a second (a 3,000-node table is 290 MB of CSV).
    bar = Bar(positions_written(analysis, format), "writing", delay=PROGRESS_DELAY)
    if to_stdout:
        with writing(STDOUT):
            stream = sys.stdout.buffer
            if format != "npz" and on_terminal(sys.stdout):
                stream = ShownBytes(stream)  # (names escaped, as every command's on a terminal)
            write_table(analysis, stream, format, progress=bar)
            stream.flush()
    else:
        with writing(output):
            analysis.save(output, progress=bar, format=format)
    counts = analysis.counts()
    positions = sum(counts.values())
    left_out = 2 * source.graph.n ** 2 - positions  # the cat on a forbidden node: no position
    why = (f" (2 x {source.graph.n:,} x {source.graph.n:,} less the {left_out:,} with the cat "
           "on a node it may not enter)" if left_out else "")
    print(f"wrote {STDOUT if to_stdout else output}: {counted(positions, 'position')} of "
          f"{graph_nodes(source)}{why}: "
          f"{counts[Outcome.MOUSE_WIN]:,} mouse wins, {counts[Outcome.CAT_WIN]:,} cat wins, "
          f"{counted(counts[Outcome.DRAW], 'draw')}",
          file=sys.stderr if to_stdout else report_stream(output))
    return 0


def graph_nodes(source: GraphFile) -> str:
    return counted(source.graph.n, "node")


def _play(args: argparse.Namespace) -> int:
    """``catmouse play``: in the terminal, or ``--html FILE`` writes the self-contained page."""
    from ..show.draw import Setup
    from ..show.play import PLAYER, play_terminal

    # The file, the Game options and the start, solved and checked as solve and draw do.
    if args.html and args.html != "-":  # (- is standard output)
        check_target(args.html, _reads(args))
    _, game, (mouse, cat), analysis, _ = solved_game(args)
    setup = Setup.of_game(game, analysis)
    human = Turn.CAT if args.side == "cat" else Turn.MOUSE
    name = os.path.basename(file_label(args.file))
    if args.html:
        from ..show.page import page_html

        where, report = write_page(args.html, page_html(setup, mouse, cat, human, title=name))
        print(f"wrote {where}: open it in a browser and play the {PLAYER[human]} "
              f"against the solver", file=report)
        return 0
    play_terminal(setup, mouse, cat, human, name=name)
    return 0


def _draw(args: argparse.Namespace) -> int:
    from ..show.draw import who_moves_first
    from ..show.svg import game_svg

    # Write what the suffix says, or refuse before solving anything ('-': SVG on stdout).
    to_stdout = args.output == "-"
    suffix = ".svg" if to_stdout else os.path.splitext(args.output)[1].lower()
    if suffix not in (".svg", ".png"):
        raise CliError(f"cannot write {args.output}: draw writes .svg, or .png "
                       "when a converter is installed")
    converter = None
    if suffix == ".png":
        from ..show.png import CONVERTER_HELP, find_converter

        converter = find_converter()
        if converter is None:
            raise CliError(f"cannot write {args.output}: PNG needs a converter, and none was "
                           f"found; install one of: {CONVERTER_HELP}; or write .svg")
    if not to_stdout:
        check_target(args.output, _reads(args))
    source, game, (mouse, cat), analysis, (outcome, length) = solved_game(args)
    line = analysis.line(mouse, cat, game.first)
    name = os.path.basename(file_label(args.file))
    remoteness = analysis.remoteness(mouse, cat, game.first)
    title = f"{name}: {short_outcome(outcome).split(':')[0]}"
    if len(line) > 1 and remoteness is not None:
        title += f" in {plies(len(line) - 1)}"
    subtitle = (f"mouse starts on {mouse}, cat on {cat}, {_holes_text(game.holes)}; "
                f"{who_moves_first(line[0], game.holes, game.cat_goals)}\n"
                f"{_ending(analysis, line, game)}")
    if remoteness is None and outcome != Outcome.DRAW:  # (the title alone said "wins")
        subtitle += f"\n(the rules count an endless game as {winner(outcome)}'s win)"
    if game.cat_graph is not game.graph:  # as catmouse.draw says it
        subtitle += "\n(the cat moves on a graph of its own, not drawn)"
    index = source.graph.index  # the picture works in node ids, the words in names
    svg = game_svg(source.graph, [(index(m), index(c), t) for m, c, t in line],
                   holes=[index(u) for u in game.holes],
                   goals=[index(u) for u in game.cat_goals], title=title, subtitle=subtitle)
    if to_stdout:  # (as play --html -: the picture on stdout, the "wrote" line on stderr)
        where, report = write_page(args.output, svg)
        print(f"wrote {where}: {short_outcome(outcome)}; {length}", file=report)
        return 0
    if converter is not None:
        width, height = (int(v) for v in svg.split('viewBox="0 0 ', 1)[1].split('"')[0]
                         .split())
    try:
        with writing(args.output):
            if converter is not None:
                from ..show.png import write_png

                write_png(svg, args.output, width, height, converter)
            else:
                with replacing(args.output, "w", encoding="utf-8") as handle:
                    handle.write(svg)
    except RuntimeError as error:
        raise CliError(f"cannot write {args.output}: {error}") from None
    print(f"wrote {args.output}: {short_outcome(outcome)}; {length}",
          file=report_stream(args.output))
    return 0


def _cat_mouse_ii(args: argparse.Namespace) -> int:
    from ..family import cat_mouse_ii

    rows = [row.strip() for row in read_text(args.file).splitlines() if row.strip()]
    if not rows:
        raise CliError(f"{file_label(args.file)}: the grid file is empty")
    mouse_wins = cat_mouse_ii(rows, args.cat_jump, args.mouse_jump, max_turns=args.max_turns)
    verdict = "the mouse wins" if mouse_wins else "the cat wins"
    print(f"{file_label(args.file)}: {verdict} (cat jump {args.cat_jump}, "
          f"mouse jump {args.mouse_jump}, at most {args.max_turns} moves)")
    return 0
