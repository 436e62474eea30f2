"""Rules: a board plus who may go where, in the flat form the engine reads.

LeetCode 913 is one set of rules (one undirected graph, one hole the cat may not
enter, a repeated position is a draw); :class:`catmouse.Game` builds others.
"""

from __future__ import annotations

import operator
import os
import sys
from collections.abc import Hashable
from typing import Any

from . import engine as _engine
from .engine import BoardLike
from .engine.checks import thread_count
from .engine.cpus import crew_cpus, free_cpus
from .engine.facts import (
    CAT_FORBIDDEN,
    CAT_GOAL,
    HOLE,
    MAX_NODES,
    ONE_WORD_NODES,
    SMALL_TABLES,
    THREAD_BYTES,
    THREADS_FROM_NODES,
)
from .engine.planes import layer_bytes
from .graph import Graph, _node_id
from .graph_checks import DefaultNode, _is_numpy_bool
from .outcome import Outcome, Turn, as_outcome, as_turn

__all__ = ["Rules", "classic_rules", "check_max_memory", "check_memory", "check_threads",
           "need_bytes", "MAX_THREADS"]

#: The most threads a call may ask for.  Checked here, once, so that both engines
#: refuse more with one message (past it one overflowed a C integer, the other ran
#: out of memory for its thread list).
MAX_THREADS = 1024

# The flag bytes a node may have: the engine's bits, never a goal the cat may not enter.
_NODE_FLAGS = bytes(bits for bits in range((HOLE | CAT_FORBIDDEN | CAT_GOAL) + 1)
                    if not (bits & CAT_GOAL and bits & CAT_FORBIDDEN))


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


def _address_space_left() -> int | None:
    """Bytes the address-space limit (RLIMIT_AS, ``ulimit -v``) leaves this process, or
    None where there is no such limit (or no way to read it)."""
    try:
        import resource
    except ImportError:  # not POSIX
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        with open("/proc/self/statm") as statm:
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        used = 0
    return max(0, soft - used)


def memory_limit() -> tuple[int | None, str]:
    """The bytes a search may allocate, and why that many: ``(None, "")`` if unknown.

    The smaller of the system's available memory and what the address-space limit leaves:
    under ``ulimit -v`` an allocation fails long before memory runs out.
    """
    free = available_memory()
    left = _address_space_left()
    if left is not None and (free is None or left < free):
        return left, "left under this process's address-space limit (ulimit -v)"
    return free, "available" if free is not None else ""


def why_short(error: MemoryError, reason: str) -> MemoryError:
    """``error`` with the reason its limit has (``memory_limit``'s) at the end."""
    text = str(error) or "the tables could not be allocated"
    return MemoryError(f"{text}: the limit is the memory {reason}" if reason else text)


def need_bytes(n: int, *, outcome: bool, remoteness: bool, target: bool,
               threads: int = 1, engine: bool = True) -> int:
    """Peak bytes of one engine call on ``n`` nodes: the output tables and the engine's own.

    The outcome table is a byte a position; remoteness is kept as bit-planes, one layer of
    ``layer_bytes(n)`` (a little over a byte a position; a search that reaches round 256
    makes another layer then, which the engine checks against what ``max_memory`` leaves).
    ``engine=False`` counts the output tables only (for a graph the engine cannot take).
    """
    positions = 2 * n * n
    output = positions if outcome else 0
    if remoteness:
        output += layer_bytes(n)
    if not engine:
        return output
    # Helper threads (all but the caller's) add their stacks to the engine's own block.
    helpers = (threads - 1) * THREAD_BYTES if n else 0
    return output + helpers + _engine_peak(n, outcome, remoteness, target, threads)


def _engine_peak(n: int, outcome: bool, remoteness: bool, target: bool, threads: int) -> int:
    """The engine's own bytes, remoteness given to it as planes (its layer 0 counted by the
    caller; layers past it, made as rounds 256 and 65,536 start, by the engine then)."""
    if not remoteness:
        return _engine.current.peak_bytes(n, outcome, remoteness, target, threads)
    return _engine.current.peak_bytes(n, outcome, False, target, threads,
                                      planes=True)


def check_max_memory(max_memory: Any) -> int | None:
    """None or a count of bytes (an int, numpy's too; at least 0), else TypeError or
    ValueError naming max_memory (solve, analyze and the cops' analyze alike)."""
    if max_memory is None:
        return None
    if isinstance(max_memory, bool) or _is_numpy_bool(max_memory):
        raise TypeError("max_memory must be an int (bytes) or None, not bool")
    try:
        limit = operator.index(max_memory)
    except TypeError:
        raise TypeError(f"max_memory must be an int (bytes) or None, not "
                        f"{type(max_memory).__name__}") from None
    if limit < 0:
        raise ValueError(f"max_memory must be at least 0 bytes, not {limit}")
    return limit


def check_memory(n: int, *, outcome: bool = False, remoteness: bool = False,
                 target: bool = False, threads: int = 1,
                 max_memory: int | None = None) -> int:
    """Raise MemoryError before allocating tables that cannot fit; return the bytes."""
    if n > MAX_NODES:
        tables = need_bytes(n, outcome=outcome, remoteness=remoteness, target=target,
                            threads=threads, engine=False)
        # solve's target search has no output tables: name the bytes only when there are some.
        needing = f", needing {tables} bytes of tables at least" if tables else ""
        raise MemoryError(
            f"a graph of {n} nodes has {2 * n * n} positions{needing}; "
            f"the engine takes graphs of at most {MAX_NODES} nodes"
        )
    need = need_bytes(n, outcome=outcome, remoteness=remoteness, target=target,
                      threads=threads)
    limit = check_max_memory(max_memory)
    if limit is not None and need > limit:
        raise MemoryError(f"solving {n} nodes needs up to {need} bytes, over max_memory={limit}")
    # Reading /proc/meminfo costs more than solving a small board, so only
    # tables big enough to matter ask the system.
    available, why = memory_limit() if need > SMALL_TABLES else (None, "")
    if available is not None and need > available:
        raise MemoryError(
            f"solving {n} nodes needs up to {need} bytes; only {available} are {why}"
        )
    if need > sys.maxsize:
        raise MemoryError(f"solving {n} nodes needs {need} bytes")
    return need


def check_threads(threads: Any, n: int) -> int:
    """The thread count for a game of ``n`` nodes: ``None`` picks one.

    ``None`` means one thread for small games (threads cost more than they
    save there) and every CPU this process may use from ``THREADS_FROM_NODES``
    nodes on (its affinity and cgroup quota, a quota's part CPU counted from half a CPU:
    ``crew_cpus``; at most ``MAX_THREADS``), less those other threads are running on
    right now (``free_cpus``);
    the compiled engine's search goes on with one of them where they measurably lose
    (engine/pace.pxi).  Anything else must be an int from 1 to ``MAX_THREADS``:
    TypeError or ValueError, the same on both engines, before any work.
    """
    if threads is None:
        return min(free_cpus(crew_cpus()), MAX_THREADS) if n >= THREADS_FROM_NODES else 1
    return thread_count(threads, MAX_THREADS)


def _check_rules(mouse_graph: Any, cat_graph: Any, flags: bytes, draw: Any) -> Outcome:
    """The checks every maker of Rules makes (Game, classic_rules), for any other caller
    (an unpickled Rules, say); returns ``draw`` as an Outcome."""
    for name, graph in (("mouse_graph", mouse_graph), ("cat_graph", cat_graph)):
        if not isinstance(graph, Graph):
            raise TypeError(f"Rules' {name} must be a Graph, not {type(graph).__name__}")
    n = mouse_graph.n
    if cat_graph.n != n:
        raise ValueError(
            f"Rules' cat_graph has {cat_graph.n} nodes but the mouse's graph has {n}")
    if len(flags) != n:
        raise ValueError(f"Rules' flags has {len(flags)} entries for a graph of {n} nodes")
    bad = flags.translate(None, _NODE_FLAGS)  # empty for good flags, in C
    if bad:
        node = flags.index(bad[0])
        raise ValueError(f"Rules' flags[{node}] = {bad[0]} is no node's rule (a cat goal "
                         "the cat may not enter, or bits no rule has)")
    return as_outcome(draw, "Rules' draw")


class Rules:
    """Move graphs for each player, per-node flags, and how a draw is scored.

    Immutable, like its graphs: the rules are cached on the graph and shared by
    every analysis made with them.
    """

    __slots__ = ("mouse_graph", "cat_graph", "flags", "draw", "_draw_table", "_board",
                 "_stuck")

    mouse_graph: Graph
    cat_graph: Graph
    flags: bytes
    draw: Outcome
    _draw_table: bytes
    _board: tuple[str, BoardLike] | None
    _stuck: list[Any] | None

    def __init__(self, mouse_graph: Graph, cat_graph: Graph, flags: bytes, draw: Outcome):
        # bytes(5) would be five zero bytes (and bytes(10**12) a terabyte): bytes-like only.
        if not isinstance(flags, (bytes, bytearray, memoryview)):
            raise TypeError(f"Rules' flags must be bytes, not {type(flags).__name__}")
        flags = bytes(flags)
        draw = _check_rules(mouse_graph, cat_graph, flags, draw)
        setter = object.__setattr__
        setter(self, "mouse_graph", mouse_graph)
        setter(self, "cat_graph", cat_graph)
        setter(self, "flags", flags)
        setter(self, "draw", draw)
        # bytes.translate table: undecided (0) becomes the draw's score.
        table = bytearray(range(256))
        table[0] = int(draw)
        setter(self, "_draw_table", bytes(table))
        setter(self, "_board", None)  # (engine name, its Board): see board()
        setter(self, "_stuck", None)  # by turn, the nodes the mover is stuck on (plane_rows)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Rules is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Rules is immutable")

    @property
    def n(self) -> int:
        return self.mouse_graph.n

    def run(self, outcome: Any = None, remoteness: Any = None, target: int = -1,
            threads: int = 1, progress: Any = None, planes: Any = None,
            more_planes: list[Any] | None = None, more_bytes: int | None = None) -> int:
        m, c = self.mouse_graph, self.cat_graph
        # progress(decided) between rounds, and the planes: passed only when given, so an
        # engine without the keyword still runs every other call.
        extra: dict[str, Any] = {} if progress is None else {"progress": progress}
        if planes is not None:
            extra.update(planes=planes, more_planes=more_planes)
            if more_bytes is not None:
                extra["more_bytes"] = more_bytes
        # The graphs' own views over bytes: storage no caller can write under the engine.
        result = _engine.current.propagate(
            m.n, self.flags,
            m._indptr, m._indices, m._rindptr, m._rindices,
            c._indptr, c._indices, c._rindptr, c._rindices,
            outcome, remoteness, target, threads=threads, **extra,
        )
        if outcome is not None and self.draw:
            outcome[:] = self.score_draws(bytes(outcome))
        if target >= 0:
            return result or int(self.draw)
        return result

    def score_draws(self, outcomes: bytes) -> bytes:
        """An engine's outcome table with its draws (code 0) scored by ``draw``."""
        return outcomes.translate(self._draw_table)

    def board(self) -> BoardLike:
        """The current engine's Board of these rules, made on first use and kept (a small
        game's analyses in a hot loop check its arrays once).

        A Board past ONE_WORD_NODES copies the graphs' arrays, and a graph keeps its classic
        rules for every hole: making one drops the others the graphs keep (forget_boards),
        so a loop over the holes holds one copy, not one a hole.
        """
        kernel = _engine.current
        made = self._board
        if made is None or made[0] != kernel.name:
            m, c = self.mouse_graph, self.cat_graph
            board = kernel.Board(m.n, self.flags, m._indptr, m._indices, m._rindptr,
                                 m._rindices, c._indptr, c._indices, c._rindptr, c._rindices)
            if m.n > ONE_WORD_NODES:
                forget_boards(m)
                if c is not m:
                    forget_boards(c)
            made = (kernel.name, board)
            object.__setattr__(self, "_board", made)
        return made[1]

    def cat_may_stand(self, node: int) -> bool:
        return not self.flags[node] & CAT_FORBIDDEN

    def position(self, mouse: Hashable, cat: Hashable, turn: Any) -> int:
        """Validate a position and return its index ``turn*n*n + mouse*n + cat``."""
        n = self.n
        graph = self.mouse_graph
        if graph._index is not None:  # a labelled graph: labels name nodes, and only labels
            mouse = graph._id_of(mouse, "mouse")
            cat = graph._id_of(cat, "cat")
        m, c = _node_id(mouse, "mouse"), _node_id(cat, "cat")
        if not 0 <= m < n:
            raise outside_the_graph("mouse", m, n, mouse)
        if not 0 <= c < n:
            raise outside_the_graph("cat", c, n, cat)
        mouse, cat = m, c
        if not self.cat_may_stand(cat):
            what = "the hole" if self.flags[cat] & HOLE else "a node the cat may not enter"
            raise ValueError(
                f"no such position: the cat cannot be on node {graph._name(cat)!r} ({what})")
        turn = as_turn(turn)
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


def forget_boards(graph: Graph) -> None:
    """Drop the Boards ``graph`` keeps: solve's (its cache's "board" keys) and its classic
    rules'.  (list(): another thread may add to the cache.)"""
    cache = graph._cache
    for key, value in list(cache.items()):
        if type(key) is tuple and key[0] == "board":
            cache.pop(key, None)
        elif type(value) is Rules and value._board is not None:
            object.__setattr__(value, "_board", None)


def outside_the_graph(what: str, node: int, n: int, given: Any = None) -> ValueError:
    """The error of the id ``node``, named by the argument ``what``, outside a graph of ``n``
    nodes (``given``: as the caller passed it, to say when it was LeetCode's default)."""
    return ValueError(f"{what} node {node} is not in a graph of {n} nodes (0..{n - 1})"
                      + _default_note(given, what))


def _default_note(node: Any, what: str) -> str:
    """For an error about a node the caller did not pass (LeetCode's default): say so, and
    what to pass instead."""
    if type(node) is not DefaultNode:
        return ""
    return f"; {int(node)} is LeetCode's default {what}: pass {what}=<a node of this graph>"


def classic_rules(graph: Graph, hole: Hashable = 0) -> Rules:
    """LeetCode 913: both move on ``graph``; the cat may not enter ``hole``."""
    cache = graph._cache
    if graph._index is not None:  # a labelled graph: the hole is named by its label
        hole = graph._id_of(hole, "hole")
    # Checked before the cache is asked: True and 1.0 hash as 1, and would find hole 1's rules.
    given, hole = hole, _node_id(hole, "hole")
    key = ("classic", hole)
    rules = cache.get(key)
    if rules is None:
        if not 0 <= hole < graph.n:
            raise ValueError(f"hole node {hole} is not in a graph of {graph.n} nodes"
                             + _default_note(given, "hole"))
        flags = bytearray(graph.n)
        flags[hole] = HOLE | CAT_FORBIDDEN
        rules = Rules(graph, graph, bytes(flags), Outcome.DRAW)
        cache[key] = rules
    return rules
