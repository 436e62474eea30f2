"""Argument checks that both engine twins make, in one neutral module.

The compiled engine (``bits_c``) and the pure twin (``bits_py``) refuse the same bad arrays with
the same words: the twin calls these checks up front; the compiled engine calls them on the way
out of a failed buffer conversion, to name the argument as the twin does.  Standard library
only, and nothing of catmouse above the engine.
"""

from __future__ import annotations

import operator
from array import array
from typing import Any

from .facts import MAX_NODES

__all__ = ["check_game", "check_arrays", "check_planes", "check_threads", "thread_count"]

_INT_FORMATS = frozenset("bBhHiIlLqQnN")


def _buffer(obj: Any, name: str, formats: tuple[str, ...], itemsize: int,
            writable: bool) -> memoryview:
    """A 1-D C-contiguous buffer of one of ``formats``, or TypeError/ValueError."""
    try:
        view = memoryview(obj)
    except TypeError:
        raise TypeError(f"{name} must be a buffer, not {type(obj).__name__}") from None
    if view.ndim != 1 or not view.c_contiguous:
        raise ValueError(f"{name} must be a one-dimensional contiguous buffer")
    if view.format.lstrip("@=") not in formats or view.itemsize != itemsize:
        raise ValueError(f"{name} has items of format {view.format!r}, expected {formats[0]!r}")
    if writable and view.readonly:
        raise TypeError(f"{name} is read-only")
    return view


def _offsets(values: Any) -> list[int]:
    """An indptr as a list of Python ints (each item through ``operator.index``)."""
    if isinstance(values, (memoryview, array)):
        view = memoryview(values)
        if view.ndim == 1 and view.format.lstrip("@=") in _INT_FORMATS:
            return view.tolist()  # already ints, converted in C
    return list(map(operator.index, values))


def _ids(values: Any) -> memoryview | list[int]:
    """Indices readable by slicing: a native int buffer as it is, else a list of ints."""
    if isinstance(values, (memoryview, array)):
        view = memoryview(values)
        if view.ndim == 1 and view.format.lstrip("@=") in _INT_FORMATS:
            return view
    return list(map(operator.index, values))


def check_game(n: int, flags: Any, csr: tuple[Any, ...]) -> tuple[int, bytes, list]:
    """Check a game's arrays as the C engine does (TypeError/ValueError).

    Returns ``n``, the flags as bytes and the eight CSR arrays: indptrs as lists
    of ints, indices as int buffers or lists, ready for ``_Game``.
    """
    n = operator.index(n)
    if not 0 <= n <= MAX_NODES:
        raise ValueError(f"n = {n} is out of range: the engine takes 0 to {MAX_NODES} nodes")
    # Buffers as the C engine's typed memoryviews take them: a float, a wider int or a
    # list read as bytes would give a silently wrong table.
    flags = _buffer(flags, "flags", ("B", "b", "c"), 1, writable=False)
    if len(flags) != n:
        raise ValueError(f"flags has {len(flags)} entries for {n} nodes")
    arrays: list = []
    checked: list[tuple[Any, Any, list]] = []
    for name, (indptr, indices) in zip(("mouse", "mouse reverse", "cat", "cat reverse"),
                                       zip(csr[0::2], csr[1::2])):
        same = next((pair for ip, ix, pair in checked if ip is indptr and ix is indices), None)
        if same is not None:
            # The same objects as a pair already checked (an undirected graph's
            # reverse, the cat's graph being the mouse's): reuse it.
            arrays += same
            continue
        if len(indptr) != n + 1:
            raise ValueError(f"{name} indptr has {len(indptr)} entries, expected {n + 1}")
        offsets = _offsets(indptr)
        if offsets[0] != 0 or offsets != sorted(offsets):
            # Slow only on the way to the error: find where it goes wrong.
            prev = 0
            for u in range(n + 1):
                x = offsets[u]
                if x < prev or (u == 0 and x != 0):
                    raise ValueError(f"{name} indptr is not a monotone offset array at {u}")
                prev = x
        prev = offsets[n]
        if prev != len(indices):
            raise ValueError(f"{name} indptr ends at {prev}, but indices has {len(indices)}")
        ids = _ids(indices)
        if len(ids) and not (0 <= min(ids) and max(ids) < n):
            k = next(k for k, v in enumerate(ids) if not 0 <= v < n)
            raise ValueError(f"{name} indices[{k}] = {ids[k]} is not a node")
        pair = [offsets, ids]
        checked.append((indptr, indices, pair))
        arrays += pair
    return n, bytes(flags), arrays


def check_arrays(
    n: int,
    flags: Any,
    csr: tuple[Any, ...],
    outcome: Any,
    remoteness: Any,
    target: int,
) -> tuple[int, bytes, list, int]:
    """Reject arrays the engine cannot read safely (the C engine checks the same).

    Returns what ``check_game`` returns and the target as an int.
    """
    n, flags, arrays = check_game(n, flags, csr)
    size = 2 * n * n
    if outcome is not None:
        outcome = _buffer(outcome, "outcome", ("B", "b", "c"), 1, writable=True)
    if remoteness is not None:
        remoteness = _buffer(remoteness, "remoteness", ("i", "l"), 4, writable=True)
    target = operator.index(target)
    if outcome is not None and len(outcome) != size:
        raise ValueError(f"outcome buffer has {len(outcome)} entries, expected {size}")
    if remoteness is not None and len(remoteness) != size:
        raise ValueError(f"remoteness buffer has {len(remoteness)} entries, expected {size}")
    if (outcome is None) == (target < 0):
        raise ValueError("give either an outcome buffer or a target position")
    if remoteness is not None and outcome is None:
        raise ValueError("a remoteness buffer needs an outcome buffer")
    if target >= size:
        raise ValueError(f"target {target} is not a position (there are {size})")
    return n, flags, arrays, target


def check_planes(n: int, outcome: Any, remoteness: Any, planes: Any, more_planes: Any
                 ) -> memoryview | None:
    """Check planes mode's buffers (after ``check_arrays``): ``planes`` a writable byte buffer of
    one layer (2 * n * W * 64 bytes, W = (n + 63) // 64), with an outcome buffer and no
    remoteness buffer, and ``more_planes`` a list.  Returns the planes as a byte view, or None.
    """
    if planes is None:
        if more_planes is not None:
            raise TypeError("more_planes is only for a search given planes")
        return None
    if not isinstance(more_planes, list):
        raise TypeError(f"more_planes must be a list, not {type(more_planes).__name__}")
    view = _buffer(planes, "planes", ("B", "b", "c"), 1, writable=True)
    size = 2 * n * ((n + 63) // 64) * 64
    if len(view) != size:
        raise ValueError(f"planes buffer has {len(view)} bytes, expected {size}")
    if outcome is None:
        raise ValueError("a planes buffer needs an outcome buffer")
    if remoteness is not None:
        raise ValueError("give either a remoteness buffer or a planes buffer, not both")
    return view


def check_more_bytes(more_bytes: Any) -> int:
    """``more_bytes`` (None, or the bytes a search's layers past the first may take) as the
    engines read it: -1 for no limit, at most an int64 (a limit past it is no limit: no
    machine has the bytes)."""
    if more_bytes is None:
        return -1
    if isinstance(more_bytes, bool) or not isinstance(more_bytes, int):
        raise TypeError(f"more_bytes must be an int or None, not {type(more_bytes).__name__}")
    if more_bytes < 0:
        raise ValueError(f"more_bytes must be at least 0, not {more_bytes}")
    return min(more_bytes, 2**63 - 1)


def check_threads(threads: Any) -> int:
    """A positive thread count, or TypeError/ValueError (the twin runs one thread)."""
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int, not {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    return threads


def thread_count(threads: Any, most: int) -> int:
    """A thread count the public functions take (not None): an int from 1 to ``most`` (numpy
    ints too, as node ids are taken; never a bool), as a Python int; else TypeError or
    ValueError."""
    try:
        if isinstance(threads, bool):
            raise TypeError
        count = operator.index(threads)  # (numpy's bool has no __index__)
    except TypeError:
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}") from None
    if not 1 <= count <= most:
        raise ValueError(f"threads must be from 1 to {most}, not {count}")
    return count
