"""The pure twin's remoteness planes: a search's round numbers kept bit by bit, written out in
the canonical layout (``planes`` describes it) at the end.

During a search, plane p of a half is a list of n row ints: row r's bit i is bit p of the
remoteness of that half's position (r, i) (half 0: the mouse to move, row = mouse, bit = cat;
half 1: the cat to move, row = cat, bit = mouse).  A round with depth d ORs its new rows into
the planes of d's set bits only, so remoteness costs a few ORs per new row, not a write per
position.  A plane exists once some remoteness has its bit: planes 8 and up (remoteness >= 256)
become more layers.
"""

from __future__ import annotations

import sys
from array import array
from typing import Any

from .planes import layer_bytes, layers_started, over_max_memory, words_per_row

# The planes of a layer, and the bytes a word holds.
_PLANES = 8
_WORD = 8


def new_plane_lists(planes: list[list[int]], depth: int, n: int) -> list[list[int]]:
    """The planes a round of ``depth`` sets (its set bits), made as needed in ``planes``."""
    while len(planes) < depth.bit_length():
        planes.append([0] * n)
    return [plane for p, plane in enumerate(planes) if depth >> p & 1]


def _words(rows: list[int] | None, n: int, row_bytes: int) -> array:
    """The rows as native-order 64-bit words, row after row (zeros for ``None``)."""
    if rows is None:
        return array("Q", bytes(n * row_bytes))
    words = array("Q", b"".join([row.to_bytes(row_bytes, "little") for row in rows]))
    if sys.byteorder == "big":
        words.byteswap()  # the ints were written little-endian, words are read natively
    return words


def write_layers(n: int, halves: tuple[list[list[int]], list[list[int]]], planes: Any,
                 more_planes: Any, rounds: int = 0, more_bytes: int = -1) -> None:
    """Write both halves' plane lists into ``planes`` (layer 0, every byte of it) and append
    one zeroed-then-written bytearray per further layer to ``more_planes``.

    ``rounds``: the search's last round (the empty one); ``more_bytes`` (-1: no limit): the
    bytes the layers past the first may take.  The compiled engine makes layer L as round
    256**L starts and refuses it there if it would pass ``more_bytes``: the same
    MemoryError here, before any layer is written."""
    size = layer_bytes(n)
    if not size:
        return
    if more_bytes >= 0:
        for layer in range(1, layers_started(rounds)):
            if layer * size > more_bytes:
                raise over_max_memory(layer, size, more_bytes)
    half_words = size // _WORD // 2
    row_bytes = words_per_row(n) * _WORD
    layers = max(1, -(-max(map(len, halves)) // _PLANES))
    for layer in range(layers):
        if layer:
            try:
                target: Any = bytearray(size)
            except MemoryError:
                raise MemoryError(f"remoteness layer {layer} needs {size} bytes") from None
        else:
            target = planes
        with memoryview(target) as raw, raw.cast("B") as flat, flat.cast("Q") as out:
            for turn, half in enumerate(halves):
                with out[turn * half_words : (turn + 1) * half_words] as part:
                    for p in range(_PLANES):
                        plane = layer * _PLANES + p
                        part[p::_PLANES] = _words(half[plane] if plane < len(half) else None,
                                                  n, row_bytes)
        if layer:
            more_planes.append(target)
