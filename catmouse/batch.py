"""solve_many: one position on many graphs, with errors that say which graph.

Plain adjacency lists go straight to the compiled engine (checked and converted
in C, no ``Graph`` built): one ``solve_lists`` call each in one thread, or
compiled boards solved in parallel threads without the GIL.  ``Graph`` objects
go to their cached compiled boards, solved the same way.  Anything the
fast paths decline (bad input, the pure-Python engine, very large graphs) goes
through :func:`catmouse.solve`, whose error is re-raised naming the graph's index.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from . import engine as _engine
from . import solving
from .engine.cpus import usable_cpus
from .engine.facts import CAT_FORBIDDEN, HOLE, MAX_NODES, SMALL_TABLES
from .graph import DEFAULT_CAT, DEFAULT_HOLE, DEFAULT_MOUSE, Graph, GraphLike, as_graph
from .graph import plain as exact_int
from .outcome import Outcome
from .progress import ProgressLike, as_callback, finish
from .rules import MAX_THREADS, check_threads, classic_rules, need_bytes

__all__ = ["solve_many"]

_OUTCOMES = (Outcome.DRAW, Outcome.MOUSE_WIN, Outcome.CAT_WIN)

# With a progress callback, work is done in slices of about this share of the batch.
_SLICES = 50

# The engines' batch path takes graphs of at most this many nodes (a row is one word).
_ONE_WORD = 64


def _index_error(k: int, error: Exception) -> Exception:
    """``error`` again, its message prefixed with the graph's index in the batch."""
    message = f"graph {k} of the batch: {error}"
    try:
        named = type(error)(message)
    except Exception:  # an exception type with another constructor: keep its type's family
        named = ValueError(message) if isinstance(error, ValueError) else TypeError(message)
    return named


# With threads=None, a batch goes to every usable CPU (engine/cpus.py) from as many positions
# as one graph of this many nodes.  Measured on 2 cores: 256 graphs of 20 nodes (that many
# positions, 0.5 ms on one thread) 1.85 times as fast on two threads, 128 of 50 nodes 1.72
# (sparse) and 1.34 (dense); and the engine keeps fewer than 128 small graphs on one thread
# whatever it is given (a helper per 64), so a smaller batch past the mark loses nothing.
BATCH_THREADS_FROM_NODES = 320


def _threads(threads: Any, batch: list[Any]) -> int:
    """The thread count: ``None`` picks every usable CPU only for a batch big enough to pay.

    Starting threads and sharing the work costs more than it saves on a small
    batch: below as many positions as one graph of ``BATCH_THREADS_FROM_NODES``
    nodes, one thread.
    """
    if threads is None:
        positions = 0
        enough = 2 * BATCH_THREADS_FROM_NODES * BATCH_THREADS_FROM_NODES
        for g in batch:
            kind = type(g)  # the hot loop's two kinds sized inline, without a call per item
            n = len(g) if kind is list else g.n if kind is Graph else _nodes(g)
            positions += 2 * n * n
            if positions >= enough:
                return min(usable_cpus(), MAX_THREADS)
        return 1
    return check_threads(threads, 0)  # solve's own check: one message, before any work


def _nodes(g: Any) -> int:
    """A batch item's node count, read without building a ``Graph``; 0 if not known so.

    scipy.sparse matrices have a shape but refuse ``len()``; an iterator of rows
    has no size until it is read; a bad item is reported later, with its index.
    """
    if isinstance(g, Graph):
        return g.n
    shape = getattr(g, "shape", None)
    if isinstance(shape, tuple) and len(shape) == 2:
        return max(shape)  # a matrix (numpy or scipy.sparse); a graph's is square
    try:
        return len(g)
    except (TypeError, ValueError):
        return 0


def run_batch(graphs: Iterable[Any], threads: int | None, *, mouse: Hashable, cat: Hashable,
              hole: Hashable, progress: Any) -> list[Outcome]:
    """The batch behind :func:`solve_many` (which holds the defaults)."""
    # The engines take exact ints; the originals go to solve(), whose errors say "default"
    # only of an argument the caller did not pass.
    names = (mouse, cat, hole)
    mouse, cat, hole = exact_int(mouse), exact_int(cat), exact_int(hole)
    # A copy even of a list: a progress callback (or another thread) changing the caller's
    # list must not change which graphs this batch solves.
    batch = list(graphs)
    threads = _threads(threads, batch)
    callback = as_callback(progress, len(batch), "solve_many")
    out: list[Outcome | None] = [None] * len(batch)
    # Read at call time: the tests swap the engine object.
    kernel = _engine.current
    # Lists in C, one call each (solve_lists declines, with -1, anything but
    # plain valid lists, Graphs included); the rest go to boards.
    plain = type(mouse) is int and type(cat) is int and type(hole) is int
    first = None
    if callback is None and batch and type(batch[0]) is Graph and type(hole) is int:
        # The hot loop's case for Graphs: every board cached, solved in one call.  (The hole
        # an exact int: True and 1.0 hash as 1, and would find hole 1's boards.)
        key = ("board", hole, kernel.name)
        boards = [g._cache.get(key) if type(g) is Graph else None for g in batch]
        if None not in boards:
            board_codes = kernel.solve_boards(boards, mouse, cat, 0, threads)
            if 255 not in board_codes:
                return list(map(_OUTCOMES.__getitem__, board_codes))
    elif plain and callback is None:
        # The hot loop's case for lists: every graph a small plain list, solved in one call.
        first = kernel.solve_lists_many(batch, mouse, cat, hole, threads)
        if 255 not in first:
            return list(map(_OUTCOMES.__getitem__, first))
    if plain:
        codes = _solve_lists(kernel, batch, mouse, cat, hole, threads, callback, first)
    else:
        codes = [-1] * len(batch)
    outcomes = _OUTCOMES
    others = []
    for k, code in enumerate(codes):
        if code >= 0:
            out[k] = outcomes[code]
        else:
            others.append(k)
    done = len(batch) - len(others)
    if others:
        _solve_boards(kernel, batch, others, out, threads, names, callback, done)
    finish(callback, len(batch))
    return out  # type: ignore[return-value]


def _solve_lists(engine: Any, batch: list[Any], mouse: Any, cat: Any, hole: Any,
                 threads: int, callback: Callable[[int], object] | None,
                 first: bytearray | None = None) -> list[int]:
    """Outcome codes straight from lists, -1 where the list path declines (Graphs too).

    Graphs of at most 64 nodes go through the engine's batch path (read once, solved by
    ``threads`` threads while the lists are read); bigger lists one by one, or as boards in
    threads; anything declined is left to the Graph path.  ``first``: the engine's codes
    for the whole batch, when the caller has them already (no progress to report).
    """
    step = max(1, len(batch) // _SLICES) if callback is not None else max(1, len(batch))
    codes: list[int] = []
    for lo in range(0, len(batch), step):
        part = first if first is not None else engine.solve_lists_many(
            batch[lo:lo + step], mouse, cat, hole, threads)
        codes += [-1 if code == 255 else code for code in part]
        if callback is not None:
            callback(sum(1 for code in codes if code >= 0))
    rest = [k for k, code in enumerate(codes) if code < 0 and type(batch[k]) is list
            and len(batch[k]) > _ONE_WORD]
    if not rest:
        return codes
    # Reported as they go, counted on from the graphs done so far (the small ones).
    report = None if callback is None else _counted_on(
        callback, sum(1 for code in codes if code >= 0))
    if threads > 1:
        more = _solve_lists_parallel(engine, [batch[k] for k in rest], mouse, cat, hole,
                                     threads, report)
    else:
        more = _solve_lists_alone(engine, [batch[k] for k in rest], mouse, cat, hole, report)
    for k, code in zip(rest, more):
        codes[k] = code
    if callback is not None:
        callback(sum(1 for code in codes if code >= 0))
    return codes


def _counted_on(callback: Callable[[int], object], done: int) -> Callable[[int], object]:
    """``callback`` for a part of the batch: its count of graphs solved, plus ``done``."""
    return lambda solved: callback(done + solved)


def _solve_lists_alone(engine: Any, batch: list[Any], mouse: int, cat: int, hole: int,
                       callback: Callable[[int], object] | None) -> list[int]:
    """Codes of lists past one word, one ``solve_lists`` call each in this thread (-1 where
    declined), ``callback(solved)`` told every 2% of them."""
    step = max(1, len(batch) // _SLICES)
    codes = []
    solved = 0
    for lo in range(0, len(batch), step):
        part = [engine.solve_lists(g, mouse, cat, hole) for g in batch[lo:lo + step]]
        codes += part
        solved += sum(1 for code in part if code >= 0)
        if callback is not None:
            callback(solved)
    return codes


def _solve_lists_parallel(engine: Any, batch: list[Any], mouse: int, cat: int, hole: int,
                          threads: int, callback: Callable[[int], object] | None) -> list[int]:
    """Lists converted in C (with the GIL), then solved in threads without it.

    The list path holds the GIL while it solves a small graph, so threads
    would wait on each other; converting each list to a compiled board (about
    a quarter of the work) and solving the boards in GIL-free threads lets the
    solving run in parallel.
    """
    csr_from_lists, board_type = engine.csr_from_lists, engine.Board
    codes = [-1] * len(batch)
    boards, where = [], []
    flags_by_n: dict[int, bytes] = {}
    for k, g in enumerate(batch):
        if type(g) is not list or not 0 <= hole < len(g) or _big(len(g)):
            continue  # declined: the Graph path checks it and reports any error
        csr = csr_from_lists(g, False)
        if csr is None:
            continue
        n, ip, ix, rip, rix = csr
        flags = flags_by_n.get(n)
        if flags is None:
            row = bytearray(n)
            row[hole] = HOLE | CAT_FORBIDDEN
            flags = flags_by_n[n] = bytes(row)
        boards.append(board_type(n, flags, ip, ix, rip, rix, ip, ix, rip, rix))
        where.append(k)
    step = max(1, len(boards) // _SLICES) if callback is not None else max(1, len(boards))
    solved = 0
    for lo in range(0, len(boards), step):
        part = _parallel(engine.solve_boards, boards[lo:lo + step], mouse, cat, threads)
        for k, code in zip(where[lo:lo + step], part):
            # 255: not a position of this graph; the Graph path reports why.
            codes[k] = -1 if code == 255 else code
        # Graphs done: a 255 goes on to the Graph path, which reports it.
        solved += len(part) - part.count(255)
        if callback is not None:
            callback(solved)
    return codes


def _graph_at(batch: list[Any], k: int) -> Graph:
    try:
        return as_graph(batch[k])
    except (TypeError, ValueError) as error:
        raise _index_error(k, error) from error


def _solve_one(g: Any, k: int, mouse: Hashable, cat: Hashable, hole: Hashable) -> Outcome:
    try:
        return solving.solve(g, mouse, cat, hole=hole)
    except (TypeError, ValueError, MemoryError) as error:
        raise _index_error(k, error) from error


def _big(n: int) -> bool:
    """Whether a graph is too big for a board: the memory check must ask the system first
    (past MAX_NODES the engine has no size for it: the Graph path refuses it by index)."""
    if n > MAX_NODES:
        return True
    return need_bytes(n, outcome=False, remoteness=False, target=True) > SMALL_TABLES


def _solve_boards(engine: Any, batch: list[Any], indices: list[int], out: list[Any],
                  threads: int, names: tuple[Hashable, Hashable, Hashable],
                  callback: Callable[[int], object] | None, done: int) -> None:
    """Graphs (and lists the list path declined) on cached boards, in GIL-free threads.

    ``names``: the starts and hole as the caller gave them (defaults kept as such, for
    solve()'s errors); the engine gets them as exact ints."""
    mouse, cat, hole = map(exact_int, names)
    boards, on_boards, one_by_one = [], [], []
    key = ("board", hole, engine.name)
    for k in indices:
        item = batch[k]
        # A Graph solved before has its board cached: the hot loop's path, no Python work.
        board = item._cache.get(key) if type(item) is Graph and type(hole) is int else None
        if board is not None:
            boards.append(board)
            on_boards.append(k)
            continue
        g = batch[k] = _graph_at(batch, k)
        # (Kept in the batch's own list: an iterator of rows is read once, and the solve or
        # error below must be of the graph read here.)
        if g._index is not None:
            # Starts may be labels: solve() translates them (boards read ids only).
            one_by_one.append(k)
            continue
        try:
            board = solving._board(g, hole, classic_rules(g, hole))
        except (TypeError, ValueError) as error:
            raise _index_error(k, error) from error
        if board is None:
            one_by_one.append(k)  # too big for a board: solve() checks its memory first
            continue
        boards.append(board)
        on_boards.append(k)
    solve_boards = engine.solve_boards
    if callback is None:
        codes = _parallel(solve_boards, boards, mouse, cat, threads)
    else:
        # Slices, so that progress is reported as the work goes.
        codes = bytearray()
        step = max(1, len(boards) // _SLICES)
        for lo in range(0, len(boards), step):
            codes += _parallel(solve_boards, boards[lo:lo + step], mouse, cat, threads)
            # Graphs done: a 255 is an error, raised below.
            callback(done + len(codes) - codes.count(255))
    for k, code in zip(on_boards, codes):
        # 255: not a position of this graph; solve() reports why.
        out[k] = _OUTCOMES[code] if code != 255 else _solve_one(batch[k], k, *names)
    for count, k in enumerate(sorted(one_by_one), 1):
        out[k] = _solve_one(batch[k], k, *names)
        if callback is not None:
            callback(done + len(codes) + count)


def _parallel(solve_boards: Any, boards: list[Any], mouse: Any, cat: Any,
              threads: int) -> bytearray:
    """The engine's codes for ``boards``: its own helper threads solve them without the GIL."""
    return solve_boards(boards, mouse, cat, 0, threads)


def solve_many(
    graphs: Iterable[GraphLike],
    threads: int | None = None,
    *,
    mouse: Hashable = DEFAULT_MOUSE,
    cat: Hashable = DEFAULT_CAT,
    hole: Hashable = DEFAULT_HOLE,
    progress: ProgressLike = None,
) -> list[Outcome]:
    """:func:`solve` over many graphs, in up to ``threads`` threads.

    ``threads=None`` uses one thread for a batch of fewer positions than one graph of
    320 nodes (threads cost more than they save there), every CPU this process may use
    for more (its affinity and cgroup CPU quota, not the machine's count).  A thread
    count is a ceiling: plain lists of at most 64 nodes get a helper thread per 64
    graphs at most (a thread costs more to start than a few small graphs take).

    Plain adjacency lists are checked and solved in C without building a ``Graph``:
    the calling thread reads the lists (it needs the GIL for that) while the other
    threads solve the graphs already read, without it.  ``Graph`` objects are solved
    in parallel threads that hold no GIL; build them once when the same graphs are
    solved again.  An error names the graph's index
    in the batch.  ``progress``: True for a bar on stderr, or a callable
    ``progress(graphs_done)``, called as the work goes: at most 2% of the batch
    (one graph, below 100) between calls; a graph that fails is not counted.

    The batch is read whole before anything is solved: a generator that yields one
    buffer, changed in place between items, gives every item the last graph's answer
    (yield a copy, or a ``Graph``, each time).

    >>> solve_many([[[1, 3], [0], [3], [0, 2]]] * 3, threads=2)
    [<Outcome.MOUSE_WIN: 1>, <Outcome.MOUSE_WIN: 1>, <Outcome.MOUSE_WIN: 1>]
    """
    return run_batch(graphs, threads, mouse=mouse, cat=cat, hole=hole, progress=progress)
