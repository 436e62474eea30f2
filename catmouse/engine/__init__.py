"""The engine layer: buffers and bits in, tables out; and the selector that picks a twin.

This layer imports nothing above it (no Graph, no display).  Everything the rest of the
package calls on an engine goes through one object, :data:`current`, built from one of the
twin modules (``bits_c``, compiled; ``bits_py``, its pure-Python twin); swapping that object (as
the tests do with :func:`load`) moves every entry point at once.

``CATMOUSE_NO_EXTENSIONS=1`` forces the twin; ``CATMOUSE_REQUIRE_EXTENSIONS=1``
turns a missing compiled engine into an ImportError.  Values are read as
true/false words, so ``=0`` means off.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from dataclasses import dataclass, fields
from types import ModuleType
from typing import Any, Protocol

from . import facts
from .switches import env_flag

__all__ = ["BACKEND", "Engine", "TableLike", "current", "load", "run_into_tables",
           "run_into_block", "env_flag"]

# Engine name -> module implementing the contract.
MODULES = {"cython": "catmouse.engine.bits_c", "python": "catmouse.engine.bits_py"}


class BoardLike(Protocol):
    """A game's arrays checked once (either twin's ``Board``)."""

    n: int

    def solve(self, mouse: Any, cat: Any, turn: Any = 0) -> int: ...

    def analyze(self, remoteness: bool = True) -> tuple[bytes, list[bytes] | None]: ...


class TableLike(Protocol):
    """A table an engine call writes through ``view()``, then ``take()`` as bytes:
    ``Table(size)`` is zeroed, ``Table(size, zeroed=False)`` may not be."""

    def view(self) -> memoryview: ...

    def take(self) -> bytes: ...


class TableMaker(Protocol):
    """Either twin's ``Table``: ``Table(size)`` zeroed, ``Table(size, zeroed=False)`` for a
    call that writes every byte (the compiled twin then skips clearing it)."""

    def __call__(self, size: int, zeroed: bool = True) -> TableLike: ...


class Propagate(Protocol):
    """``propagate(n, flags, 8 CSR arrays, outcome, remoteness, target, threads, progress,
    planes, more_planes, more_bytes)``: remoteness as an int32 table, or as planes
    (``planes.py``)."""

    def __call__(self, n: int, flags: Any, *arrays_and_tables: Any, threads: int = 1,
                 progress: Callable[[int], object] | None = None, planes: Any = None,
                 more_planes: list[Any] | None = None,
                 more_bytes: int | None = None) -> int: ...


class PeakBytes(Protocol):
    """``peak_bytes(n, outcome, remoteness, target, threads, planes)``: a propagate call's own
    bytes (planes mode's caller-given planes not counted)."""

    def __call__(self, n: int, outcome: bool, remoteness: bool, target: bool,
                 threads: int = 1, planes: bool = False) -> int: ...


@dataclass(frozen=True)
class Engine:
    """One engine's entry points (see either twin's module docstring), typed for callers."""

    name: str
    module: ModuleType
    propagate: Propagate
    peak_bytes: PeakBytes
    Table: TableMaker
    Board: Callable[..., BoardLike]
    classic_board: Callable[..., BoardLike | None]
    solve_boards: Callable[..., bytearray]
    csr_from_lists: Callable[[Any, bool], tuple[int, Any, Any, Any, Any] | None]
    solve_lists: Callable[[Any, Any, Any, Any], int]
    solve_lists_many: Callable[[list[Any], Any, Any, Any, int], bytearray]
    # The game of k cops (py_cops.py, cops.pxi).
    cops_search: Callable[..., int]
    cops_peak_bytes: Callable[..., int]
    cop_number: Callable[..., int]
    cop_numbers_graph6: Callable[..., bytes]


class StaleEngine(ImportError):
    """The compiled module imports but was built from older sources: an entry point is
    missing, or its ENGINE_API is not the sources' (facts.ENGINE_API)."""


def load(name: str) -> Engine:
    """The engine called ``name`` ("cython" or "python"); ImportError if it is missing, a
    StaleEngine (an ImportError) if it is out of date."""
    module = importlib.import_module(MODULES[name])
    entries = {}
    for field in fields(Engine)[2:]:  # (after name and module)
        try:
            entries[field.name] = getattr(module, field.name)
        except AttributeError:
            raise _stale(name, module, f"no {field.name}") from None
    # Every entry point there, but perhaps of older arguments (propagate without more_bytes=).
    api = getattr(module, "ENGINE_API", None)
    if api != facts.ENGINE_API:
        detail = "no ENGINE_API" if api is None else f"ENGINE_API {api!r}, not {facts.ENGINE_API}"
        raise _stale(name, module, detail)
    return Engine(name=name, module=module, **entries)


def _stale(name: str, module: ModuleType, detail: str) -> StaleEngine:
    return StaleEngine(
        f"{MODULES[name]} ({getattr(module, '__file__', '?')}) is out of date: it has "
        f"{detail}; build it again (pip install . or, in a checkout, "
        "python setup.py build_ext --inplace)")


def run_into_tables(positions: int, remoteness: bool,
                    run: Callable[[memoryview, memoryview | None], object],
                    outcomes_filled: bool = False,
                    remoteness_filled: bool = False) -> tuple[bytes, bytes | None]:
    """Zeroed tables of ``positions`` entries (1-byte outcomes; int32 remoteness if asked)
    that ``run(outcomes, remoteness)`` writes, handed back as immutable bytes.
    ``outcomes_filled`` / ``remoteness_filled``: ``run`` writes every entry of that table, so
    it is not cleared (nor, where the allocator reuses a freed table, faulted in afresh).

    The engine's ``Table`` becomes bytes without a copy.  The views are this function's
    alone, and all are released (even on an error) before the tables are taken.
    """
    outcome_table = current.Table(positions, zeroed=not outcomes_filled)
    remoteness_table = current.Table(4 * positions, zeroed=not remoteness_filled) \
        if remoteness else None
    outcomes = outcome_table.view()
    raw = table = None
    try:
        if remoteness_table is not None:
            raw = remoteness_table.view()
            table = raw.cast("i")
        run(outcomes, table)
    finally:
        for view in (table, raw, outcomes):
            if view is not None:
                view.release()
    return outcome_table.take(), None if remoteness_table is None else remoteness_table.take()


def run_into_block(positions: int, plies_bytes: int,
                   run: Callable[[memoryview, memoryview], object]) -> bytes:
    """One block, uncleared, that ``run(outcomes, remoteness)`` fills whole: the remoteness
    first (``plies_bytes`` a position: 1 as uint8, 4 as int32, aligned at the start) and the
    outcome byte of each position after it, handed back as immutable bytes.

    One allocation, not two: two tables of equal size were trimmed from the heap after each
    call of a loop (glibc trims a free top twice its biggest freed mapping), so every call
    faulted fresh pages in; one block comes back from the allocator already faulted in.
    """
    block = current.Table((plies_bytes + 1) * positions, zeroed=False)
    raw = block.view()
    views = [raw[plies_bytes * positions:],
             raw[:plies_bytes * positions].cast("i" if plies_bytes == 4 else "B")]
    try:
        run(views[0], views[1])
    finally:
        for view in (*views, raw):
            view.release()
    return block.take()


def _select() -> Engine:
    if env_flag("CATMOUSE_NO_EXTENSIONS"):
        if env_flag("CATMOUSE_REQUIRE_EXTENSIONS"):
            raise ImportError("CATMOUSE_NO_EXTENSIONS and CATMOUSE_REQUIRE_EXTENSIONS are both set")
        return load("python")
    try:
        return load("cython")
    except ImportError as error:
        if env_flag("CATMOUSE_REQUIRE_EXTENSIONS"):
            raise ImportError(
                "CATMOUSE_REQUIRE_EXTENSIONS is set but the compiled engine "
                f"catmouse.engine.bits_c did not import: {error}"
            ) from error
        if isinstance(error, StaleEngine):
            # A compiled module that is there but stale is a mistake to say, where a missing
            # one (a pure wheel) is a choice: the twin is many times slower.
            warnings.warn(f"{error}; catmouse uses its pure-Python engine meanwhile",
                          RuntimeWarning, stacklevel=2)
        return load("python")


#: The engine in use.  Read it at call time (``engine.current.propagate``), never
#: copy an entry point into another module: the tests swap this one object.
current: Engine = _select()

#: "cython" or "python": which engine the package chose at import.
BACKEND: str = current.name
