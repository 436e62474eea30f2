"""The k-cops game's checks of its limits: threads and ``max_memory`` (the memory a search
may take is :func:`catmouse.rules.memory_limit`'s, as for every game).
"""

from __future__ import annotations

from typing import Any

from ..engine.checks import thread_count
from ..rules import MAX_THREADS, check_max_memory

__all__ = ["check_cop_threads", "check_max_memory"]


def check_cop_threads(threads: Any) -> int | None:
    """None (the engine picks: see below) or an int from 1 to MAX_THREADS (solve_many's
    range and words), else TypeError or ValueError.

    With None the compiled engine takes every CPU this process may use (its affinity and
    cgroup quota) for a search of at least 16,384 cop teams (fewer: one thread), and goes on
    alone when it finds its helpers starved of CPU (it waited for them half as long as it
    worked): never much slower than one thread, on free or shared cores.

    >>> check_cop_threads(None) is None
    True
    >>> check_cop_threads(2**70)
    Traceback (most recent call last):
    ...
    ValueError: threads must be from 1 to 1024, not 1180591620717411303424
    """
    if threads is None:
        return None
    return thread_count(threads, MAX_THREADS)
