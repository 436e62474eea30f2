"""The checks an :class:`~catmouse.Analysis` makes of the tables it is given (a pickle is
input like any other): their sizes, the planes' layers, the outcome codes.

Cheap ones only: :meth:`Analysis.verify` re-derives every entry.
"""

from __future__ import annotations

import sys
from typing import Any

from .engine import planes as _planes
from .engine.facts import CAT_FORBIDDEN

__all__ = ["MOST_LAYERS", "INT32_ITEMS", "WORD_ITEMS", "check_codes", "check_layers",
           "check_tables", "table_bytes"]

# Layers a remoteness below 2**31 can need (an int32 table's largest value).
MOST_LAYERS = 4

# The item formats (struct codes, this machine's byte order) of the tables' own items, with
# their size: an int32 remoteness table's, and the 64-bit words of a layer of planes.
INT32_ITEMS = (("i", "l"), 4)
WORD_ITEMS = (("Q", "L"), 8)
# Prefixes that name this machine's byte order.
_NATIVE = "@=" + ("<" if sys.byteorder == "little" else ">!")

# Byte 3 (no such position) to 1, every other byte to 0.
_IS_NO_POSITION = bytes(int(b == 3) for b in range(256))
# Rows of outcomes checked at a time: a few MB, not a copy of the whole table.
_CHUNK_BYTES = 1 << 22


def _nonzero(words: memoryview) -> bool:
    """Whether any of ``words`` is not 0."""
    raw = words.tobytes()
    return raw.count(0) != len(raw)


def table_bytes(table: Any, what: str, items: tuple[tuple[str, ...], int] = ((), 0)
                ) -> bytes:
    """``table`` as bytes: a buffer of bytes, or of ``items`` (formats, size) in this
    machine's byte order; TypeError for anything else (``bytes(5)`` is five zero bytes), and
    ValueError naming ``what`` for items of another kind (a float's or a big-endian int's
    bytes would be read as other numbers)."""
    if type(table) is bytes:
        return table
    try:
        view = memoryview(table)
    except TypeError:
        raise TypeError(f"the {what} must be a buffer (bytes, an array), not "
                        f"{type(table).__name__}") from None
    with view:
        code = view.format[1:] if view.format[:1] in _NATIVE else view.format
        formats, size = items
        if not (code in ("B", "b", "c") and view.itemsize == 1
                or code in formats and view.itemsize == size):
            raise ValueError(f"the {what} has items of format {view.format!r}: give bytes"
                             + (f" or {formats[0]!r} items in this machine's byte order"
                                if formats else ""))
        return view.tobytes()


def check_layers(n: int, layers: tuple[bytes, ...]) -> None:
    """Planes of the format's shape: 1 to 4 layers of layer_bytes(n), no empty last layer,
    no value past an int32's (bit 31: plane 7 of layer 3), no bit past the last column."""
    size = _planes.layer_bytes(n)
    if not 1 <= len(layers) <= MOST_LAYERS:
        raise ValueError(f"remoteness planes have {len(layers)} layers, not 1 to {MOST_LAYERS}")
    for level, layer in enumerate(layers):
        if len(layer) != size:
            raise ValueError(
                f"remoteness layer {level} has {len(layer)} bytes, not {size} for {n} nodes")
    # (bytes.count and tobytes run in C: a Python loop over a layer's bytes or words took
    # milliseconds a million positions.)
    if len(layers) > 1 and layers[-1].count(0) == len(layers[-1]):
        raise ValueError(f"remoteness layer {len(layers) - 1} is empty (the format has none)")
    # (Each word of positions has its 8 planes side by side: plane 7 is every 8th word.)
    if len(layers) == MOST_LAYERS and _nonzero(memoryview(layers[-1]).cast("Q")[7::8]):
        raise ValueError("remoteness planes hold a value past 2**31 - 1 (an int32's largest)")
    # Columns past node n - 1 in each row's last word are 0 in the format: a bit there would
    # be read as the next row's first columns, or past the table's end.
    if n % 64:
        stride = 8 * _planes.words_per_row(n)
        # Each plane's last word of every row, as one int, against the past columns' bits
        # repeated a word at a time (a plain loop over the words took 5.5 ms at n = 3000).
        past = ((1 << 64) - (1 << (n % 64))).to_bytes(8, sys.byteorder)
        mask = int.from_bytes(past * (2 * n), "little")
        for layer in layers:
            with memoryview(layer) as raw, raw.cast("Q") as words:
                last = 0
                for p in range(8):
                    last |= int.from_bytes(words[stride - 8 + p::stride].tobytes(), "little")
            if last & mask:
                raise ValueError(f"remoteness planes hold values in columns past node "
                                 f"{n - 1} (the format has none there)")


def check_tables(rules: Any, outcomes: bytes, remoteness: bytes | None) -> None:
    """Tables the size of the positions of ``rules`` (a Rules: the caller checks that),
    rules whose parts agree (O(1) checks)."""
    n = rules.n
    size = 2 * n * n
    if len(rules.flags) != n or rules.cat_graph.n != n:  # Rules checks this too
        raise ValueError("the Analysis' rules do not match its graph")
    if len(outcomes) != size:
        raise ValueError(
            f"the outcome table has {len(outcomes)} entries for {size} positions")
    if remoteness is not None and len(remoteness) != 4 * size:
        raise ValueError(
            f"the remoteness table has {len(remoteness)} bytes for {size} int32 entries")


def check_codes(rules: Any, outcomes: bytes) -> None:
    """Outcome codes 0 to 3, and 3 (no such position) exactly where the cat may not stand:
    in every row, the cells of the nodes it may not enter (a block of rows at a time)."""
    n = rules.n
    if n == 0:
        return
    row = bytes(int(bool(flag & CAT_FORBIDDEN)) for flag in rules.flags)
    rows = max(1, _CHUNK_BYTES // n)
    block = row * rows
    for first in range(0, 2 * n, rows):
        part = outcomes[first * n:(first + rows) * n]
        if part.translate(None, b"\0\1\2\3"):
            raise ValueError("pickled Analysis tables hold codes no solve gives")
        if part.translate(_IS_NO_POSITION) != block[:len(part)]:
            raise ValueError("pickled Analysis tables mark positions that do not exist "
                             "elsewhere than the cat's forbidden nodes")
