"""``catmouse cop-number FILE...``: the cop number of each graph, streamed.

Every format ``cop-win`` reads is read; several files are read one after the other.  graph6
takes the fast path: the input is read in blocks of at most about a megabyte, taking what is
there without waiting for a full block; the engine decodes and solves a whole block with the
GIL released (in C on the compiled engine), ``--jobs`` blocks at a time on threads, and
answers are written in input order, each block's as soon as it is solved (before a read that
would wait on a slow pipe, every answer so far is written and flushed).  At most
``2 * jobs`` blocks are in flight, so memory stays flat however many graphs the stream
holds.  A line is never held whole: one longer than its node count allows is refused as
soon as that shows.  The grammar is graph6's everywhere (``catmouse.io.graph6``): a
byte-order mark, blank lines and trailing spaces, tabs and ``\r`` are dropped before a
block reaches the engine.  Ctrl-C or SIGTERM sets the blocks' stop flag: a block being
solved stops within milliseconds, not at its end.
"""

from __future__ import annotations

import argparse
import io
import re
import select
import sys
import time
from array import array
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, BinaryIO, NamedTuple

from .. import engine as _engine
from ..cops.number import cop_number
from ..engine.cops_checks import MAX_GRAPH6_NODES, TOO_MANY_FOR_GRAPH6
from ..io.graph6 import line_size
from ..io.graph_files import FORMATS, guess_format, read_graphs, suffix_format
from ..rules import MAX_THREADS, memory_limit, why_short
from .node_options import OptionError
from .outputs import notes
from .solver_options import threads_text

__all__ = ["add_command", "run"]

BLOCK_BYTES = 1 << 20
# The engine's mark for a graph past --max-cops, and the most cops it counts.
PAST = 255
MOST = 254
PROGRESS_EVERY = 1.0
# An unfinished line longer than this is checked against its node count (a graph6 line of
# the cops' at most 64 nodes holds at most 350 characters).
LONGEST_LINE = 4096
_LINE = re.compile(r"line (\d+): (.*)", re.S)
_BOM = b"\xef\xbb\xbf"


def add_command(commands: argparse._SubParsersAction) -> None:
    """Register ``cop-number`` on the CLI's subcommands."""
    help = "the cop number of each graph (cops and robbers, k cops)"
    sub = commands.add_parser(name="cop-number", help=help, description=help + (
        ": one number per graph in input order, or with --census one 'k count' line per cop "
        "number found. A graph past --max-cops prints as '>K'. With several files, each "
        "answer is preceded by its file's name (and 'graph k' in a graph6 file)."))
    sub.add_argument("files", nargs="+", metavar="FILE",
                     help="graph6 (one graph a line), an edge list or JSON ('-' reads stdin)")
    sub.add_argument("--format", choices=FORMATS, help="the files' format (default: guessed)")
    sub.add_argument("--census", action="store_true",
                     help="print 'k count' lines only, k ascending, over all the files")
    sub.add_argument("--max-cops", type=int, default=MOST, metavar="K",
                     help=f"give up on a graph past K cops (default: {MOST})")
    sub.add_argument("--jobs", type=int, default=None, metavar="N",
                     help="solve N blocks of graph6 lines at once, on threads (default: 1)")
    sub.add_argument("--threads", type=threads_text, metavar="N",
                     help="threads for the search of an edge list's or JSON file's graph "
                          "(default: as cop_number's threads=None, the CPUs free to this "
                          "process for a search big enough; --jobs N, if given, as before)")
    sub.add_argument("--progress", action="store_true",
                     help="report progress on stderr (default: when stderr is a terminal)")


class _Block(NamedTuple):
    """graph6 lines for the engine: ``data``, one graph a line; ``lines`` the file's line
    number of each (None: they run on from ``first``, none dropped)."""

    data: bytes
    lines: list[int] | None
    first: int


_WAIT = _Block(b"", None, 0)  # the next read may wait: answer what is in flight first


def _ready(stream: Any) -> bool:
    """Whether a read of ``stream`` returns without waiting (a file, or a pipe with data)."""
    try:
        return bool(select.select([stream.fileno()], [], [], 0)[0])
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return True  # no descriptor to ask (or no select for it): read as before


def _clean(block: bytes, first: int) -> _Block:
    """The block in the engine's strict graph6: blank lines and trailing blanks dropped."""
    if not (b" " in block or b"\t" in block or b"\r" in block or b"\n\n" in block
            or block.startswith(b"\n")):
        return _Block(block, None, first)  # geng's output: as it is
    kept, lines = [], []
    for k, text in enumerate(block.split(b"\n")[:-1]):
        text = text.rstrip(b" \t\r")
        if text:
            kept.append(text)
            lines.append(first + k)
    return _Block(b"\n".join(kept) + b"\n" if kept else b"", lines, first)


def _bounded(carry: bytes, line: int) -> bytes:
    """An unfinished line, checked against its node count; trailing blanks kept as one."""
    text = carry.rstrip(b" \t\r")
    size = line_size(text[:18].decode("latin-1"))
    if size is None:
        raise ValueError(f"line {line}: not a graph6 line")
    nodes, length = size
    if nodes > MAX_GRAPH6_NODES:
        raise ValueError(f"line {line}: graph6 line of {nodes} nodes; {TOO_MANY_FOR_GRAPH6}")
    if len(text) > length:
        raise ValueError(f"line {line}: graph6 line of {nodes} nodes needs {length} "
                         "characters in all, and holds more")
    return text + b" " if len(text) < len(carry) else text


def _blocks(stream: BinaryIO, head: bytes = b"") -> Iterator[_Block]:
    """The stream's complete lines in blocks, as they come; :data:`_WAIT` before a read that
    may wait."""
    read = getattr(stream, "read1", None) or stream.read
    carry, line, start = b"", 1, True
    queued = head
    while True:
        if queued:
            chunk, queued = queued, b""
        else:
            if not _ready(stream):
                yield _WAIT
            chunk = read(BLOCK_BYTES)
        if start:
            if len(carry + chunk) < len(_BOM) and chunk:
                carry += chunk
                continue
            carry, chunk, start = b"", (carry + chunk).removeprefix(_BOM), False
        if not chunk:
            if carry.strip(b" \t\r"):
                yield _clean(carry + b"\n", line)
            return
        data = carry + chunk
        cut = data.rfind(b"\n") + 1
        carry = data[cut:]
        if cut:
            yield _clean(data[:cut], line)
            line += data.count(b"\n", 0, cut)
        if len(carry) > LONGEST_LINE:
            carry = _bounded(carry, line)


def _solve(block: bytes, max_cops: int, max_bytes: int | None, cancel: array[int]) -> bytes:
    return _engine.current.cop_numbers_graph6(block, max_cops, max_bytes, cancel=cancel)


def _answers(stream: BinaryIO, jobs: int, max_cops: int, max_bytes: int | None,
             head: bytes = b"", why: str = "") -> Iterator[tuple[bytes, int]]:
    """(cop numbers of a block, lines before it), in order, as soon as each is solved and
    at most ``2 * jobs`` blocks ahead."""
    pending: deque[tuple[Future[bytes], _Block]] = deque()
    # The blocks' stop flag: set when the stream ends early (Ctrl-C, SIGTERM, an error), so
    # the pool's shutdown waits milliseconds for the blocks being solved, not their end.
    cancel = array("i", [0])
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        try:
            for block in _blocks(stream, head):
                if block is _WAIT:
                    while pending:
                        yield from _results(*pending.popleft(), why, max_cops, max_bytes)
                    continue
                pending.append((pool.submit(_solve, block.data, max_cops, max_bytes, cancel),
                                block))
                while pending and (pending[0][0].done() or len(pending) >= 2 * jobs):
                    yield from _results(*pending.popleft(), why, max_cops, max_bytes)
            while pending:
                yield from _results(*pending.popleft(), why, max_cops, max_bytes)
        finally:
            cancel[0] = 1
            for future, _ in pending:
                future.cancel()


def _results(future: Future[bytes], block: _Block, why: str, max_cops: int,
             max_bytes: int | None) -> Iterator[tuple[bytes, int]]:
    """A block's answers and the lines before it; at a bad line, the answers of the lines
    before it in the block (solved again: the block's call gave none), then the error."""
    try:
        yield future.result(), block.first - 1
        return
    except MemoryError as error:
        raise why_short(error, why) from None
    except ValueError as error:
        found = _LINE.match(str(error))
        if found is None:
            raise
        k = int(found[1])
        line = block.first + k - 1 if block.lines is None else block.lines[k - 1]
        failed = ValueError(f"line {line}: {found[2]}")
    if k > 1:
        # (Lines as the block holds them, each ending in a newline.)
        good = b"".join(block.data.splitlines(keepends=True)[:k - 1])
        try:
            yield _solve(good, max_cops, max_bytes, array("i", [0])), block.first - 1
        except MemoryError as error:
            raise why_short(error, why) from None
    raise failed


def _format(stream: BinaryIO, path: str, given: str | None) -> tuple[bytes, str]:
    """The bytes read to tell the file's format (to be read again), and the format."""
    if given is not None:
        return b"", given
    read = getattr(stream, "read1", None) or stream.read
    head = b""
    while True:
        chunk = read(BLOCK_BYTES)
        head += chunk
        if not chunk or head.removeprefix(_BOM).strip():
            break
    text = head[:BLOCK_BYTES].decode("utf-8", "replace").removeprefix("\ufeff")
    if not text.strip() and suffix_format(path) in (None, "graph6"):
        return head, "graph6"  # nothing to answer, as geng's empty output
    return head, guess_format("" if path == "-" else path, text)


def _one_graph_answers(stream: BinaryIO, head: bytes, format: str, max_cops: int,
                       threads: int | None) -> Iterator[tuple[list[int], int]]:
    """An edge list's or JSON file's graph(s), as graph6 blocks' answers are given."""
    again = io.BufferedReader(_Again(head, stream))  # (not read whole first: /dev/zero)
    with notes():  # an edge list's missing ids: a note, as other commands
        sources = list(read_graphs(again, format=format))
    for source in sources:
        try:
            found = cop_number(source.graph, max_cops, threads=threads)
        except ValueError as error:
            if not str(error).startswith("the cop number is more than"):
                raise
            found = PAST
        yield [found], 0


class _Again(io.RawIOBase):
    """``head`` (the bytes read to tell the format), then the rest of ``stream``: the file as
    the reader would have read it, a piece at a time, so that it can refuse the file on the
    way (the whole of it was read first, and /dev/zero for ever)."""

    def __init__(self, head: bytes, stream: BinaryIO):
        self._head = head
        self._read = getattr(stream, "read1", None) or stream.read

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = len(buffer)
        if self._head:
            data, self._head = self._head[:size], self._head[size:]
        else:
            data = self._read(size)
        buffer[:len(data)] = data
        return len(data)


def _open(path: str) -> BinaryIO:
    if path == "-":
        stdin: Any = sys.stdin
        return getattr(stdin, "buffer", stdin)
    return open(path, "rb")  # noqa: SIM115 - closed by the caller


def _words(numbers: Iterable[int], max_cops: int, prefix: Any) -> str:
    return "".join(f"{prefix()}>{max_cops}\n" if c == PAST else f"{prefix()}{c}\n"
                   for c in numbers)


def run(args: argparse.Namespace) -> int:
    """The command: see the module docstring.  Returns the exit status."""
    jobs = 1 if args.jobs is None else args.jobs
    if not 1 <= jobs <= MAX_THREADS:
        raise OptionError(f"--jobs must be from 1 to {MAX_THREADS}, not {args.jobs}")
    # One graph's search: --threads, else --jobs where given (its meaning before --threads
    # came), else threads=None, cop_number's own default.
    threads = args.threads if args.threads is not None else args.jobs
    if not 0 <= args.max_cops <= MOST:
        raise OptionError(f"--max-cops must be 0 to {MOST}, not {args.max_cops}")
    memory, why = memory_limit()
    max_bytes = None if memory is None else memory // (2 * jobs)
    show = args.progress or sys.stderr.isatty()
    out = sys.stdout
    census: Counter[int] = Counter()
    done, began, shown = 0, time.monotonic(), time.monotonic()
    several = len(args.files) > 1
    for path in args.files:
        args.file = path  # errors name the file being read
        name = "<stdin>" if path == "-" else path
        stream = _open(path)
        try:
            head, format = _format(stream, path, args.format)
            if format == "graph6":
                answers: Iterator[tuple[Any, int]] = _answers(stream, jobs, args.max_cops,
                                                              max_bytes, head, why)
            else:
                answers = _one_graph_answers(stream, head, format, args.max_cops, threads)
            count = 0

            def prefix() -> str:
                nonlocal count
                count += 1
                if not several:
                    return ""
                return f"{name} graph {count}: " if format == "graph6" else f"{name}: "

            for numbers, _ in answers:
                if args.census:
                    census.update(numbers)
                else:
                    out.write(_words(numbers, args.max_cops, prefix))
                    out.flush()  # each block's answers as soon as they are known
                done += len(numbers)
                if show and time.monotonic() - shown >= PROGRESS_EVERY:
                    shown = time.monotonic()
                    rate = done / max(shown - began, 1e-9)
                    print(f"cop-number: {done:,} graphs, {rate:,.0f} a second",
                          file=sys.stderr)
        finally:
            if path != "-":
                stream.close()
    if args.census:
        for c in sorted(census):
            label = f">{args.max_cops}" if c == PAST else str(c)
            out.write(f"{label} {census[c]}\n")
    if show:
        spent = time.monotonic() - began
        print(f"cop-number: {done:,} graphs in {spent:.2f} s", file=sys.stderr)
    out.flush()
    return 0
