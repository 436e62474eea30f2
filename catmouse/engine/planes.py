"""Remoteness kept as bit-planes: a byte a position, in the form the search writes it.

A *layer* holds 8 bits of every position's remoteness, 64 positions to a group of 8 words:

- ``n`` nodes, ``W = words_per_row(n)`` words a row; a layer is ``layer_bytes(n)`` bytes,
  ``2 * n * W * 8`` uint64 words in the machine's byte order.
- Half ``t`` (0: mouse to move, 1: cat to move) starts at word ``t * n * W * 8``; its row
  ``r`` at ``(t * n + r) * W * 8``; the row's group ``j`` (columns ``64j`` to ``64j + 63``) at
  ``+ 8j``; plane ``p`` of the group at ``+ p``.  Bit ``i`` of that word is bit ``8L + p``
  (layer ``L``) of column ``64j + i``'s value.
- Rows are mice and columns cats with the mouse to move; rows are cats and columns mice with
  the cat to move (the orientation each of the search's steps computes).
- A decided position's value is its remoteness; every other bit is 0 (draws, positions that
  do not exist, columns past ``n``), so a position's remoteness is its value where its
  outcome is a win and -1 elsewhere.
- Layer 0 always exists; layer ``L >= 1`` only when some remoteness is at least ``2**(8L)``.

Every engine writes the same bytes, so an Analysis pickles the same from either.  Pickles
keep the words little-endian (:func:`to_little`, :func:`from_little`).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from typing import Any

from .facts import CAT_WIN, MOUSE_WIN
from .optional import numpy_or_none as _numpy  # (numpy is optional: plain loops serve)

__all__ = ["words_per_row", "layer_bytes", "value_at", "remoteness_rows", "from_remoteness",
           "layers_for", "to_little", "from_little", "half_words", "or_rows", "BLOCK_POSITIONS"]

#: Rows converted at once hold about this many positions (bounded memory for any n).
BLOCK_POSITIONS = 1 << 20

_LITTLE = sys.byteorder == "little"
_WON = (MOUSE_WIN, CAT_WIN)
# value_at: bit 0 of each of a group's 8 words (word p at bit 64p), and the multiplier that
# moves bit 64p to bit 448 + p.
_GATHER = sum(1 << (64 * p) for p in range(8))
_SPREAD = sum(1 << (448 + p - 64 * p) for p in range(8))


def words_per_row(n: int) -> int:
    """64-bit words that hold one bit for each of ``n`` columns."""
    return (n + 63) >> 6


def layer_bytes(n: int) -> int:
    """Bytes of one layer of planes for ``n`` nodes (a little over one a position)."""
    return 2 * n * words_per_row(n) * 64


def layers_started(rounds: int) -> int:
    """Layers a search holds once it has started round ``rounds`` (its last, empty one
    included): layer L is made as round 256**L starts."""
    return max(1, (rounds.bit_length() + 7) // 8)


def over_max_memory(layer: int, size: int, more_bytes: int) -> MemoryError:
    """The error of a search that reaches round 256**layer when ``max_memory`` left
    ``more_bytes`` for the layers past the first (``size`` bytes each).  Past layer 1 it
    says what they take together: ``size`` alone may fit in ``more_bytes``."""
    together = f" ({layer * size} for the layers past the first)" if layer > 1 else ""
    return MemoryError(
        f"the search reached round {1 << (8 * layer)}: remoteness layer {layer} needs "
        f"{size} bytes more{together}, over max_memory (it left {more_bytes} bytes for the "
        "layers past the first)")


def _words(layer: Any) -> memoryview:
    return memoryview(layer).cast("B").cast("Q")


def value_at(layers: Sequence[Any], n: int, turn: int, mouse: int, cat: int) -> int:
    """The planes' value of one position (its remoteness if its outcome is a win).

    Each layer's group of 8 words is read as one int; bit ``column`` of each word is moved to
    bits 448..455 by one multiplication (no two products land on the same bit)."""
    row, column = (mouse, cat) if turn == 0 else (cat, mouse)
    at = ((turn * n + row) * words_per_row(n) + (column >> 6)) * 64  # the group's first byte
    shift = column & 63
    value = 0
    for level, layer in enumerate(layers):
        if _LITTLE:
            group = int.from_bytes(layer[at:at + 64], "little")
        else:  # each word big-endian: read word by word
            group = sum(int.from_bytes(layer[at + 8 * p:at + 8 * p + 8], "big") << (64 * p)
                        for p in range(8))
        value |= ((((group >> shift) & _GATHER) * _SPREAD) >> 448 & 255) << (8 * level)
    return value


def layers_for(largest: int) -> int:
    """Layers needed for values up to ``largest`` (at least 1)."""
    return max(1, (max(largest, 0).bit_length() + 7) >> 3)


def to_little(layer: Any) -> bytes:
    """A layer's bytes with little-endian words (a pickle's form)."""
    data = bytes(layer)
    if _LITTLE:
        return data
    words = array("Q", data)
    words.byteswap()
    return words.tobytes()


def from_little(data: Any) -> bytes:
    """A layer in this machine's byte order from little-endian words."""
    return to_little(data)  # (a swap is its own inverse)


def block_rows(n: int) -> int:
    """Rows of ``n`` positions converted at once (at least 1)."""
    return max(1, BLOCK_POSITIONS // max(n, 1))


def remoteness_rows(layers: Sequence[Any], outcomes: Any, n: int, turn: int, first: int,
                    count: int) -> Any:
    """Remoteness of rows ``first`` to ``first + count - 1`` of ``turn``'s table, by mouse.

    ``outcomes`` is the ``2 * n * n`` outcome table.  Gives an int32 numpy array of shape
    ``(count, n)`` when numpy is installed, else an ``array('i')`` of ``count * n`` entries,
    row after row; -1 where the outcome is not a win.
    """
    if not 0 <= first <= first + count <= n:
        raise ValueError(f"rows {first} to {first + count} are not rows of {n}")
    numpy = _numpy()
    if numpy is None:
        return _rows_plain(layers, outcomes, n, turn, first, count)
    return _rows_numpy(numpy, layers, outcomes, n, turn, first, count)


def half_words(numpy: Any, layer: Any, n: int, turn: int) -> Any:
    """Half ``turn`` of a layer as words: shape (n rows, W groups, 8 planes)."""
    W = words_per_row(n)
    half = n * W * 8
    return numpy.frombuffer(layer, dtype=numpy.uint64, count=half,
                            offset=turn * half * 8).reshape(n, W, 8)


# Values gathered at once by or_rows (bounds the temporaries: about 16 bytes each).
_PIECE = 1 << 17


def or_rows(numpy: Any, words: Any, turn: int, ms: Any, n: int, out: Any, low: int) -> None:
    """OR into ``out`` (len(ms) rows of n int32) the values of rows ``ms`` (mice, an index
    array) of half ``turn`` (``words``: half_words), shifted up by ``low`` bits.

    Rows of the mouse-to-move half are its planes' rows; the cat-to-move half's rows by
    mouse are columns of its rows by cat.  Either is read a plane at a time in pieces, so the
    memory held stays a few bytes a value, whatever n.
    """
    step = max(1, _PIECE // max(n, 1))
    for k0 in range(0, len(ms), step):
        part = ms[k0:k0 + step]
        into = out[k0:k0 + len(part)]
        if turn == 0:
            group = words[part]  # (rows, W, 8 planes) words
            little = group.astype("<u8", copy=False).view(numpy.uint8).reshape(
                len(part), -1, 8, 8)
            for p in range(8):
                bits = numpy.unpackbits(little[:, :, p, :], axis=-1, bitorder="little")
                into |= bits.reshape(len(part), -1)[:, :n].astype(numpy.int32) << (low + p)
        else:
            groups, shifts = part >> 6, (part & 63).astype(numpy.uint64)
            for p in range(8):
                bits = (words[:, groups, p] >> shifts[None, :]) & numpy.uint64(1)  # (cats, mice)
                into |= bits.T.astype(numpy.int32) << (low + p)


def _rows_numpy(numpy: Any, layers: Sequence[Any], outcomes: Any, n: int, turn: int,
                first: int, count: int) -> Any:
    out = numpy.zeros((count, n), dtype=numpy.int32)
    if not count or not n:
        return out
    ms = numpy.arange(first, first + count, dtype=numpy.intp)
    for level, layer in enumerate(layers):
        or_rows(numpy, half_words(numpy, layer, n, turn), turn, ms, n, out, 8 * level)
    codes = numpy.frombuffer(outcomes, dtype=numpy.uint8, count=count * n,
                             offset=(turn * n + first) * n).reshape(count, n)
    out[(codes != MOUSE_WIN) & (codes != CAT_WIN)] = -1
    return out


def _rows_plain(layers: Sequence[Any], outcomes: Any, n: int, turn: int, first: int,
                count: int) -> array:
    out = array("i", bytes(4 * count * n))
    codes = memoryview(outcomes).cast("B")
    W = words_per_row(n)
    for level, layer in enumerate(layers):
        words = _words(layer)
        for p in range(8):
            weight = 1 << (8 * level + p)
            if turn == 0:
                for r in range(count):
                    base = ((first + r) * W) * 8 + p
                    for j in range(W):
                        word = words[base + 8 * j]
                        while word:
                            low = word & -word
                            out[r * n + 64 * j + low.bit_length() - 1] |= weight
                            word ^= low
            else:
                g0, g1 = first >> 6, (first + count + 63) >> 6
                for cat in range(n):
                    base = ((n + cat) * W) * 8 + p
                    for j in range(g0, g1):
                        word = words[base + 8 * j]
                        while word:
                            low = word & -word
                            mouse = 64 * j + low.bit_length() - 1
                            if first <= mouse < first + count:
                                out[(mouse - first) * n + cat] |= weight
                            word ^= low
    at = (turn * n + first) * n
    for i in range(count * n):
        if codes[at + i] not in _WON:
            out[i] = -1
    return out


def from_remoteness(table: Any, n: int) -> list[bytes]:
    """The layers of an int32 remoteness table (``2 * n * n`` entries, -1 where never).

    Negative entries get no bits.  For tables made before the planes (old pickles).
    """
    entries = memoryview(table).cast("B").cast("i")
    if len(entries) != 2 * n * n:
        raise ValueError(f"a remoteness table of {len(entries)} entries is not 2 * {n} * {n}")
    numpy = _numpy()
    if numpy is not None:
        return _from_numpy(numpy, entries, n)
    return _from_plain(entries, n)


def _from_numpy(numpy: Any, entries: Any, n: int) -> list[bytes]:
    W = words_per_row(n)
    values = numpy.frombuffer(entries, dtype=numpy.int32).reshape(2, n, n)
    largest = int(values.max()) if values.size else 0
    values = numpy.where(values < 0, 0, values).astype(numpy.uint32)
    halves = [values[0], values[1].T]  # rows by mouse; rows by cat
    layers = []
    for level in range(layers_for(largest)):
        parts = []
        for half in halves:
            padded = numpy.zeros((n, W * 64), dtype=numpy.uint32)
            padded[:, :n] = half
            planes = numpy.stack(
                [((padded >> (8 * level + p)) & 1).astype(numpy.uint8) for p in range(8)],
                axis=1)  # (n, 8, W * 64)
            packed = numpy.packbits(planes.reshape(n, 8, W, 64), axis=-1, bitorder="little")
            little = packed.transpose(0, 2, 1, 3)  # (n, W, 8 planes, 8 bytes)
            parts.append(numpy.ascontiguousarray(little).view("<u8").astype(numpy.uint64))
        layers.append(numpy.concatenate([part.ravel() for part in parts]).tobytes())
    return layers


def _from_plain(entries: Any, n: int) -> list[bytes]:
    W = words_per_row(n)
    nn = n * n
    largest = max(entries, default=0)
    layers = []
    for level in range(layers_for(largest)):
        words = array("Q", bytes(layer_bytes(n)))
        for turn in (0, 1):
            for mouse in range(n):
                for cat in range(n):
                    value = entries[turn * nn + mouse * n + cat]
                    if value <= 0:
                        continue
                    row, column = (mouse, cat) if turn == 0 else (cat, mouse)
                    at = ((turn * n + row) * W + (column >> 6)) * 8
                    bits = (value >> (8 * level)) & 255
                    while bits:
                        low = bits & -bits
                        words[at + low.bit_length() - 1] |= 1 << (column & 63)
                        bits ^= low
        layers.append(words.tobytes())
    return layers
