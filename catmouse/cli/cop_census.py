"""``catmouse cop-number FILE|-``: the cop number of each graph6 line, streamed.

Lines are read in blocks of about a megabyte; the engine decodes and solves a whole block
with the GIL released (in C on the compiled engine), ``--jobs`` blocks at a time on threads,
and answers are written in input order.  At most ``2 * jobs`` blocks are in flight, so memory
stays flat however many graphs the stream holds.  Ctrl-C or SIGTERM sets the blocks' stop
flag: a block being solved stops within milliseconds, not at its end.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from array import array
from collections import Counter, deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import BinaryIO

from .. import engine as _engine
from ..cops.limits import cops_memory, why_short
from ..rules import MAX_THREADS

__all__ = ["add_command", "run"]

BLOCK_BYTES = 1 << 20
# The engine's mark for a graph past --max-cops, and the most cops it counts.
PAST = 255
MOST = 254
PROGRESS_EVERY = 1.0
_LINE = re.compile(r"line (\d+): (.*)", re.S)


def add_command(commands: argparse._SubParsersAction) -> None:
    """Register ``cop-number`` on the CLI's subcommands."""
    help = "the cop number of each graph6 line (cops and robbers, k cops)"
    sub = commands.add_parser(name="cop-number", help=help, description=help + (
        ": one number per line in input order, or with --census one 'k count' line per cop "
        "number found. A graph past --max-cops prints as '>K'."))
    sub.add_argument("file", metavar="FILE", help="graph6, one graph a line ('-' reads stdin)")
    sub.add_argument("--census", action="store_true",
                     help="print 'k count' lines only, k ascending")
    sub.add_argument("--max-cops", type=int, default=MOST, metavar="K",
                     help=f"give up on a graph past K cops (default: {MOST})")
    sub.add_argument("--jobs", type=int, default=1, metavar="N",
                     help="solve N blocks of lines at once, on threads (default: 1)")
    sub.add_argument("--progress", action="store_true",
                     help="report progress on stderr (default: when stderr is a terminal)")


def _blocks(stream: BinaryIO) -> Iterator[bytes]:
    while True:
        lines = stream.readlines(BLOCK_BYTES)
        if not lines:
            return
        block = b"".join(lines)
        if not block.endswith(b"\n"):
            block += b"\n"
        yield block


def _solve(block: bytes, max_cops: int, max_bytes: int | None, cancel: array[int]) -> bytes:
    return _engine.current.cop_numbers_graph6(block, max_cops, max_bytes, cancel=cancel)


def _answers(stream: BinaryIO, jobs: int, max_cops: int, max_bytes: int | None,
             why: str = "") -> Iterator[tuple[bytes, int]]:
    """(cop numbers of a block, lines before it), in order, ``2 * jobs`` blocks ahead."""
    pending: deque[tuple[Future[bytes], int]] = deque()
    before = 0
    # The blocks' stop flag: set when the stream ends early (Ctrl-C, SIGTERM, an error), so
    # the pool's shutdown waits milliseconds for the blocks being solved, not their end.
    cancel = array("i", [0])
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        try:
            for block in _blocks(stream):
                pending.append((pool.submit(_solve, block, max_cops, max_bytes, cancel),
                                before))
                before += block.count(b"\n")
                if len(pending) >= 2 * jobs:
                    future, start = pending.popleft()
                    yield _result(future, start, why), start
            while pending:
                future, start = pending.popleft()
                yield _result(future, start, why), start
        finally:
            cancel[0] = 1
            for future, _ in pending:
                future.cancel()


def _result(future: Future[bytes], start: int, why: str = "") -> bytes:
    try:
        return future.result()
    except MemoryError as error:
        raise why_short(error, why) from None
    except ValueError as error:
        found = _LINE.match(str(error))
        if found is None:
            raise
        raise ValueError(f"line {start + int(found[1])}: {found[2]}") from None


def run(args: argparse.Namespace) -> int:
    """The command: see the module docstring.  Returns the exit status."""
    if not 1 <= args.jobs <= MAX_THREADS:
        raise ValueError(f"--jobs must be from 1 to {MAX_THREADS}, not {args.jobs}")
    if not 0 <= args.max_cops <= MOST:
        raise ValueError(f"--max-cops must be 0 to {MOST}, not {args.max_cops}")
    memory, why = cops_memory()
    max_bytes = None if memory is None else memory // (2 * args.jobs)
    show = args.progress or sys.stderr.isatty()
    out = sys.stdout
    census: Counter[int] = Counter()
    done, began, shown = 0, time.monotonic(), time.monotonic()
    with (sys.stdin.buffer if args.file == "-" else open(args.file, "rb")) as stream:
        for numbers, _ in _answers(stream, args.jobs, args.max_cops, max_bytes, why):
            if args.census:
                census.update(numbers)
            else:
                out.write("".join(f">{args.max_cops}\n" if c == PAST else f"{c}\n"
                                  for c in numbers))
            done += len(numbers)
            if show and time.monotonic() - shown >= PROGRESS_EVERY:
                shown = time.monotonic()
                rate = done / max(shown - began, 1e-9)
                print(f"cop-number: {done:,} graphs, {rate:,.0f} a second", file=sys.stderr)
    if args.census:
        for c in sorted(census):
            label = f">{args.max_cops}" if c == PAST else str(c)
            out.write(f"{label} {census[c]}\n")
    if show:
        spent = time.monotonic() - began
        print(f"cop-number: {done:,} graphs in {spent:.2f} s", file=sys.stderr)
    out.flush()
    return 0
