"""Type stub for the compiled engine ``bits_c.pyx`` (its Python-visible names only).

``propagate`` has the signature of its twin ``bits_py.propagate`` (ENGINE_CONTRACT): it
takes any objects and checks them itself (TypeError/ValueError), so the buffers stay ``Any``.
"""

from array import array
from collections.abc import Callable, Sequence
from typing import Any

from typing_extensions import Buffer, disjoint_base

# Kept for the former queue engine's tests; the most nodes ``solve_lists`` takes on.
# The C enum's flags and outcome codes (pinned to catmouse.engine.facts by a test).
ENGINE_API: int
ENUM: dict[str, int]

def propagate(
    n: int,
    flags: Any,
    mouse_indptr: Any,
    mouse_indices: Any,
    mouse_rindptr: Any,
    mouse_rindices: Any,
    cat_indptr: Any,
    cat_indices: Any,
    cat_rindptr: Any,
    cat_rindices: Any,
    outcome: Any = None,
    remoteness: Any = None,
    target: int = -1,
    *,
    threads: int = 1,
    progress: Callable[[int], object] | None = None,
    planes: Any = None,
    more_planes: list[Any] | None = None,
    more_bytes: int | None = None,
) -> int: ...
def check_threads(threads: Any) -> int: ...
def peak_bytes(
    n: int, outcome: bool, remoteness: bool, target: bool, threads: int = 1, planes: bool = False
) -> int:
    """Bytes this engine allocates itself for such a call (the caller's buffers not counted)."""

@disjoint_base
class Table:
    """A table an engine call writes through ``view()``, then ``take()`` as bytes (zeroed
    unless ``zeroed=False``, for a call that writes every byte)."""

    def __new__(cls, size: int, zeroed: bool = True) -> Table: ...
    def view(self) -> memoryview: ...
    def take(self) -> bytes: ...

def _propagate(
    n: int,
    flags: Any,
    mouse_indptr: Any,
    mouse_indices: Any,
    mouse_rindptr: Any,
    mouse_rindices: Any,
    cat_indptr: Any,
    cat_indices: Any,
    cat_rindptr: Any,
    cat_rindices: Any,
    outcome: Any = None,
    remoteness: Any = None,
    target: int = -1,
    threads: int = 1,
    progress: Any = None,
    planes: Any = None,
    more_planes: list[Any] | None = None,
    more_bytes: int | None = None,
) -> int: ...
@disjoint_base
class Board:
    """A game's arrays, checked once, for solving many positions without overhead."""

    @property
    def n(self) -> int: ...
    def __init__(
        self,
        n: int,
        flags: Buffer,
        mouse_indptr: Buffer,
        mouse_indices: Buffer,
        mouse_rindptr: Buffer,
        mouse_rindices: Buffer,
        cat_indptr: Buffer,
        cat_indices: Buffer,
        cat_rindptr: Buffer,
        cat_rindices: Buffer,
    ) -> None: ...
    def solve(self, mouse: int, cat: int, turn: int = 0) -> int:
        """Outcome code of one position (stopping early); -1 if it is not a position."""
    def analyze(self, remoteness: bool = True) -> tuple[bytes, list[bytes] | None]:
        """Every position on one thread: (outcomes, layers of remoteness planes or None)."""

def classic_board(
    n: int, hole: int, indptr: Buffer, indices: Buffer, rindptr: Buffer, rindices: Buffer
) -> Board | None:
    """LeetCode 913's Board on one graph of at most 64 nodes, or None to decline."""

def solve_boards(
    boards: list[Board], mouse: int, cat: int, turn: int = 0, threads: int = 1
) -> bytearray:
    """Outcome codes of one position on each board (255 where it is not a position)."""

def csr_from_lists(
    adjacency: object, directed: bool
) -> tuple[int, array[int], array[int], array[int], array[int]] | None:
    """``(n, indptr, indices, rindptr, rindices)`` for plain adjacency lists, or None."""

def solve_lists(adjacency: object, mouse: int, cat: int, hole: int) -> int:
    """LeetCode 913's outcome code straight from adjacency lists, or -1 to decline."""
def solve_lists_many(
    batch: list[object], mouse: object, cat: object, hole: object, threads: int = 1
) -> bytearray: ...
def _helpers_started() -> int: ...

# The game of k cops (cops.pxi, cops_entry.pxi): see py_cops.py for the contract.
def cops_peak_bytes(n: int, k: int, tables: bool = False, threads: int | None = 1) -> int: ...
def cops_search(
    n: int,
    indptr: Any,
    indices: Any,
    k: int,
    outcome: Any = None,
    remoteness: Any = None,
    *,
    stop: bool = True,
    max_bytes: int | None = None,
    threads: int | None = 1,
    cancel: Any = None,
) -> int: ...
def cop_number(
    n: int,
    indptr: Any,
    indices: Any,
    max_cops: int,
    max_bytes: int | None = None,
    threads: int | None = 1,
    cancel: Any = None,
) -> int: ...
def _cops_crews(solo_from: int | None = None) -> tuple[int, int]: ...
def _crew_starved_rule(own_ns: int, waited_ns: int, helpers: Sequence[tuple[int, int]],
                       clocks: bool = True) -> bool: ...
def cop_numbers_graph6(
    data: Buffer, max_cops: int, max_bytes: int | None = None, cancel: Any = None
) -> bytes: ...
@disjoint_base
class _CopTables: ...
@disjoint_base
class _WideTables: ...
