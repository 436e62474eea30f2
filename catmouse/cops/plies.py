"""The remoteness table of a :class:`~catmouse.CopsAnalysis`, read as ints.

The search writes it a byte a position (captures up to ``BYTE_PLIES`` = 254 plies away, 255
for never): a quarter of an int32 table's memory and of its writes.  A game with a capture
further away is searched again with an int32 table (-1 for never), as pickles made before
the byte form also hold (0.2.0 pickled no ``CopsAnalysis``).  Either way a read gives the
plies as an int, -1 for never.
"""

from __future__ import annotations

from typing import overload

from ..engine.cops_checks import NO_CAPTURE_BYTE

__all__ = ["Plies"]


class Plies:
    """The plies to capture of each position, from a read-only table of ``positions``
    entries (bytes, or a view into the search's block): a byte each, or four (native int32).

    >>> table = Plies(bytes([0, 3, 255]), 3)
    >>> table[1], table[2], table[0:3]
    (3, -1, [0, 3, -1])
    """

    __slots__ = ("_view", "_narrow")

    def __init__(self, table: bytes | memoryview, positions: int):
        view = memoryview(table)
        if view.nbytes == positions:
            self._view = view
            self._narrow = True
        elif view.nbytes == 4 * positions:
            self._view = view.cast("i")
            self._narrow = False
        else:
            raise ValueError(f"the remoteness table has {view.nbytes} bytes for {positions} "
                             "positions (one or four a position)")

    @property
    def narrow(self) -> bool:
        """Whether the table holds a byte a position."""
        return self._narrow

    def tobytes(self) -> bytes:
        """The table's bytes (a copy): a byte a position, or four in this machine's order."""
        return self._view.tobytes()

    @overload
    def __getitem__(self, at: int) -> int: ...

    @overload
    def __getitem__(self, at: slice) -> list[int]: ...

    def __getitem__(self, at: int | slice) -> int | list[int]:
        if isinstance(at, slice):
            values = self._view[at].tolist()
            if self._narrow:
                return [-1 if r == NO_CAPTURE_BYTE else r for r in values]
            return values
        r = self._view[at]
        return -1 if self._narrow and r == NO_CAPTURE_BYTE else r

    def __len__(self) -> int:
        return len(self._view)
