"""The pure twin's small search reads each round's board through one buffer of row views,
kept for the next search once a search ends (``py_small._read_rows``).  A search that starts
while another is under way must read through a buffer of its own: here a second search runs
from the first one's progress callback, between the round's write of the buffer and its
reads, on a board of the same row width."""

from __future__ import annotations

import random
from array import array

from oracle import classic_flags, csr, random_board

from catmouse.engine import bits_py, py_small


def classic_args(adjacency, hole):
    n = len(adjacency)
    return (n, bytes(classic_flags(n, hole)), *csr(adjacency) * 2)


def tables(args, progress=None):
    """The outcome and remoteness tables of a full solve, as bytes."""
    n = args[0]
    outcome, remoteness = bytearray(2 * n * n), array("i", bytes(8 * n * n))
    bits_py.propagate(*args, outcome, remoteness, progress=progress)
    return bytes(outcome), remoteness.tobytes()


def test_a_search_inside_another_reads_its_own_board(monkeypatch):
    monkeypatch.setattr(py_small, "_PROGRESS_EVERY", 0.0)  # a report every round
    rng = random.Random(21)
    outer = classic_args(*random_board(rng, 40, 64))
    inner = classic_args(*random_board(rng, 40, 64))  # 64-bit fields, as the outer board's
    n = inner[0]
    expect_outer, expect_inner = tables(outer), tables(inner)
    targets = [rng.randrange(2 * n * n) for _ in range(8)]
    expect_codes = [bits_py.propagate(*inner, None, None, t) for t in targets]
    seen = []

    def progress(decided):
        seen.append((tables(inner), [bits_py.propagate(*inner, None, None, t)
                                     for t in targets]))

    assert tables(outer, progress) == expect_outer
    assert len(seen) > 2
    assert all(found == (expect_inner, expect_codes) for found in seen)
