"""The facts every part of catmouse shares, in one place.

Node flags and outcome codes are the engine's data format: both engine twins,
the rules and the analysis read them from here (the Cython engine keeps a copy
in a C enum, which a test pins to these values).
"""

from __future__ import annotations

__all__ = [
    "HOLE", "CAT_FORBIDDEN", "CAT_GOAL",
    "DRAW", "MOUSE_WIN", "CAT_WIN", "NO_POSITION",
    "MAX_NODES", "LISTS_MAX_NODES", "SMALL_TABLES", "THREADS_FROM_NODES", "THREAD_BYTES",
]

# Per-node flags.
HOLE = 1  # the mouse wins on entering
CAT_FORBIDDEN = 2  # the cat may not enter (positions with the cat here do not exist)
CAT_GOAL = 4  # the cat wins on entering

# Outcome codes in the engine's tables (LeetCode 913's, plus one).
DRAW = 0  # also "not decided (yet)" while the engine runs
MOUSE_WIN = 1
CAT_WIN = 2
NO_POSITION = 3  # the cat stands on a node it may not enter

# The largest graph the engines take: 2*n*n positions are indexed with 64-bit
# integers, and a node id must fit the int32 CSR arrays.
MAX_NODES = 65535

# The most nodes the engines' list solver takes on; bigger graphs go through Graph, which
# checks the memory first.
LISTS_MAX_NODES = 1024

# The entry points' version: bumped whenever one's arguments or results change.  Each twin
# states the one it was written for (the compiled one as a literal, fixed when it is built):
# engine.load takes a compiled module built from older sources for stale (StaleEngine), where
# it would have failed at a call ("unexpected keyword argument").
ENGINE_API = 1

# A Board of at most this many nodes is its move masks, a word a row (about 2 KB); a bigger
# one copies the graph's arrays, so a Graph keeps one of those at a time, not one per hole.
ONE_WORD_NODES = 64

# Memory the tables may take without asking the system how much is available
# (reading /proc/meminfo costs more than solving a small board).
SMALL_TABLES = 1 << 24

# With threads=None, graphs of at least this many nodes use every core.
THREADS_FROM_NODES = 1024

# Memory a helper thread of the engine touches beyond the engine's tables: the
# pages of its stack and the interpreter's state for it (a 2000-node solve on two threads
# peaked 256 KiB above the engine's block and its output).
THREAD_BYTES = 1 << 20
