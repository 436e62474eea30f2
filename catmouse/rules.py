"""Rules: a board plus who may go where, in the flat form the engine reads.

LeetCode 913 is one set of rules (one undirected graph, one hole the cat may not
enter, a repeated position is a draw); :class:`catmouse.Game` builds others.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from . import engine as _engine
from .engine.facts import (
    CAT_FORBIDDEN,
    CAT_GOAL,
    HOLE,
    MAX_NODES,
    SMALL_TABLES,
    THREAD_BYTES,
    THREADS_FROM_NODES,
)
from .graph import Graph, _node_id
from .outcome import Outcome, Turn

__all__ = ["Rules", "classic_rules", "check_memory", "check_threads", "need_bytes"]


def available_memory() -> int | None:
    """Bytes of memory this process could still get, or None if unknown."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def need_bytes(n: int, *, outcome: bool, remoteness: bool, target: bool,
               threads: int = 1, engine: bool = True) -> int:
    """Peak bytes of one engine call on ``n`` nodes: the output tables and the engine's own.

    ``engine=False`` counts the output tables only (for a graph the engine cannot take).
    """
    positions = 2 * n * n
    output = positions * ((1 if outcome else 0) + (4 if remoteness else 0))
    if not engine:
        return output
    # Helper threads (all but the caller's) add their stacks to the engine's own block.
    helpers = (threads - 1) * THREAD_BYTES if n else 0
    return output + helpers + _engine.current.peak_bytes(n, outcome, remoteness, target, threads)


def check_memory(n: int, *, outcome: bool = False, remoteness: bool = False,
                 target: bool = False, threads: int = 1,
                 max_memory: int | None = None) -> int:
    """Raise MemoryError before allocating tables that cannot fit; return the bytes."""
    if n > MAX_NODES:
        tables = need_bytes(n, outcome=outcome, remoteness=remoteness, target=target,
                            threads=threads, engine=False)
        raise MemoryError(
            f"a graph of {n} nodes has {2 * n * n} positions, needing {tables} bytes of "
            f"tables at least; the engine takes graphs of at most {MAX_NODES} nodes"
        )
    need = need_bytes(n, outcome=outcome, remoteness=remoteness, target=target,
                      threads=threads)
    if max_memory is not None:
        limit = _node_id(max_memory, "max_memory")
        if need > limit:
            raise MemoryError(
                f"solving {n} nodes needs up to {need} bytes, over max_memory={limit}"
            )
    # Reading /proc/meminfo costs more than solving a small board, so only
    # tables big enough to matter ask the system.
    available = available_memory() if need > SMALL_TABLES else None
    if available is not None and need > available:
        raise MemoryError(
            f"solving {n} nodes needs up to {need} bytes; only {available} are available"
        )
    if need > sys.maxsize:
        raise MemoryError(f"solving {n} nodes needs {need} bytes")
    return need


def check_threads(threads: Any, n: int) -> int:
    """The thread count for a game of ``n`` nodes: ``None`` picks one.

    ``None`` means one thread for small games (threads cost more than they
    save there) and every core from ``THREADS_FROM_NODES`` nodes on.
    """
    if threads is None:
        return (os.cpu_count() or 1) if n >= THREADS_FROM_NODES else 1
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    return threads


class Rules:
    """Move graphs for each player, per-node flags, and how a draw is scored."""

    __slots__ = ("mouse_graph", "cat_graph", "flags", "draw", "_draw_table")

    def __init__(self, mouse_graph: Graph, cat_graph: Graph, flags: bytes, draw: Outcome):
        self.mouse_graph = mouse_graph
        self.cat_graph = cat_graph
        self.flags = bytes(flags)
        self.draw = Outcome(draw)
        # bytes.translate table: undecided (0) becomes the draw's score.
        table = bytearray(range(256))
        table[0] = int(self.draw)
        self._draw_table = bytes(table)

    @property
    def n(self) -> int:
        return self.mouse_graph.n

    def run(self, outcome: Any = None, remoteness: Any = None, target: int = -1,
            threads: int = 1, progress: Any = None) -> int:
        m, c = self.mouse_graph, self.cat_graph
        # progress(decided) between rounds: passed only when given, so an engine
        # without the keyword still runs every other call.
        extra = {} if progress is None else {"progress": progress}
        result = _engine.current.propagate(
            m.n, self.flags,
            m.indptr, m.indices, m.rindptr, m.rindices,
            c.indptr, c.indices, c.rindptr, c.rindices,
            outcome, remoteness, target, threads=threads, **extra,
        )
        if outcome is not None and self.draw:
            outcome[:] = outcome.translate(self._draw_table)
        if target >= 0:
            return result or int(self.draw)
        return result

    def cat_may_stand(self, node: int) -> bool:
        return not self.flags[node] & CAT_FORBIDDEN

    def position(self, mouse: Any, cat: Any, turn: Any) -> int:
        """Validate a position and return its index ``turn*n*n + mouse*n + cat``."""
        n = self.n
        graph = self.mouse_graph
        if graph._index is not None:  # a labelled graph: labels name nodes, and only labels
            mouse = graph._id_of(mouse, "mouse")
            cat = graph._id_of(cat, "cat")
        mouse = _node_id(mouse, "mouse")
        cat = _node_id(cat, "cat")
        if not 0 <= mouse < n:
            raise ValueError(f"mouse node {mouse} is not in a graph of {n} nodes (0..{n - 1})")
        if not 0 <= cat < n:
            raise ValueError(f"cat node {cat} is not in a graph of {n} nodes (0..{n - 1})")
        if not self.cat_may_stand(cat):
            what = "the hole" if self.flags[cat] & HOLE else "a node the cat may not enter"
            raise ValueError(
                f"no such position: the cat cannot be on node {graph._name(cat)!r} ({what})")
        try:
            turn = Turn(turn)
        except ValueError:
            raise ValueError(f"turn must be Turn.MOUSE (0) or Turn.CAT (1), not {turn!r}") from None
        return (turn * n + mouse) * n + cat

    def moves(self, mouse: int, cat: int, turn: Turn) -> list[tuple[int, int]]:
        """Legal moves as ``(destination, child position index)``."""
        n = self.n
        if turn == Turn.MOUSE:
            base = n * n + cat
            return [(v, base + v * n) for v in self.mouse_graph._rows()[mouse]]
        base = mouse * n
        return [(v, base + v) for v in self.cat_graph._rows()[cat] if self.cat_may_stand(v)]

    def is_terminal(self, mouse: int, cat: int) -> bool:
        flags = self.flags
        return mouse == cat or bool(flags[mouse] & HOLE) or bool(flags[cat] & CAT_GOAL)

    def __reduce__(self) -> tuple:
        return (Rules, (self.mouse_graph, self.cat_graph, self.flags, self.draw))


def classic_rules(graph: Graph, hole: Any = 0) -> Rules:
    """LeetCode 913: both move on ``graph``; the cat may not enter ``hole``."""
    cache = graph._cache
    if graph._index is not None:  # a labelled graph: the hole is named by its label
        hole = graph._id_of(hole, "hole")
    key = ("classic", hole)
    rules = cache.get(key)
    if rules is None:
        hole = _node_id(hole, "hole")
        if not 0 <= hole < graph.n:
            raise ValueError(f"hole node {hole} is not in a graph of {graph.n} nodes")
        flags = bytearray(graph.n)
        flags[hole] = HOLE | CAT_FORBIDDEN
        rules = Rules(graph, graph, bytes(flags), Outcome.DRAW)
        cache[key] = rules
    return rules
