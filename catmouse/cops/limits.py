"""The k-cops game's checks of its limits: threads, ``max_memory``, and the memory a search
may take (the system's free memory, and the address-space limit, ``ulimit -v``).
"""

from __future__ import annotations

import os
from typing import Any

from ..rules import MAX_THREADS, available_memory

__all__ = ["check_cop_threads", "check_max_memory", "cops_memory", "why_short"]


def check_cop_threads(threads: Any) -> int:
    """An int from 1 to MAX_THREADS (solve_many's range and words), else TypeError or
    ValueError.

    >>> check_cop_threads(2**70)
    Traceback (most recent call last):
    ...
    ValueError: threads must be from 1 to 1024, not 1180591620717411303424
    """
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int, not {type(threads).__name__}")
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be from 1 to {MAX_THREADS}, not {threads}")
    return threads


def check_max_memory(max_memory: Any) -> int | None:
    """None or a count of bytes (an int, at least 0), else TypeError or ValueError naming
    max_memory."""
    if max_memory is None:
        return None
    if isinstance(max_memory, bool) or not isinstance(max_memory, int):
        raise TypeError(f"max_memory must be an int (bytes) or None, not "
                        f"{type(max_memory).__name__}")
    if max_memory < 0:
        raise ValueError(f"max_memory must be at least 0 bytes, not {max_memory}")
    return max_memory


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


def cops_memory() -> tuple[int | None, str]:
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
    """``error`` with the reason its limit has (``cops_memory``'s) at the end."""
    text = str(error) or "the tables could not be allocated"
    return MemoryError(f"{text}: the limit is the memory {reason}" if reason else text)
