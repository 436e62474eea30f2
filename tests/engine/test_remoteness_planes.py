"""Remoteness kept as bit-planes during the search: tables equal to the pure twin's.

The compiled engine keeps each position's round in bit-planes of its own (a layer of 8, one
more for each further 8 bits a long search needs) and writes the int32 table from them at the
end.  It must give the pure twin's tables, byte for byte, on any thread count.
"""

from __future__ import annotations

import pytest
from engines import on_engine

import catmouse
from catmouse.engine import bits_py

pytest.importorskip("catmouse.engine.bits_c")


def _path(n: int) -> list[list[int]]:
    return [[v for v in (u - 1, u + 1) if 0 <= v < n] for u in range(n)]


def _grid(side: int) -> list[list[int]]:
    return [[(r + dr) * side + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
             if 0 <= r + dr < side and 0 <= c + dc < side]
            for r in range(side) for c in range(side)]


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("adjacency, long", [
    (_path(300), True),    # 595 rounds: past a layer's 255
    (_path(130), False),   # two words per row, the last one partly used
    (_grid(9), False),     # 81 nodes
    (_grid(12), False),
])
def test_remoteness_equals_the_twins(adjacency, long, threads):
    compiled = catmouse.analyze(adjacency, threads=threads, hole=len(adjacency) - 1)
    with on_engine(bits_py):
        pure = catmouse.analyze(adjacency, hole=len(adjacency) - 1)
    assert bytes(compiled.outcomes) == bytes(pure.outcomes)
    assert compiled._layers == pure._layers  # the planes, byte for byte
    assert (len(compiled._layers) > 1) == long
    assert bytes(compiled.remoteness_table) == bytes(pure.remoteness_table)
    assert (max(compiled.remoteness_table.cast("B").cast("i")) > 255) == long


def test_remoteness_in_a_buffer_not_8_byte_aligned():
    # An int32 table that is not 8-byte aligned (the planes once lived inside it).
    from array import array

    from catmouse.engine import bits_c
    from catmouse.graph import Graph
    from catmouse.rules import classic_rules

    graph = Graph(_path(97))
    rules = classic_rules(graph, 0)
    n = graph.n
    expected_out = bytearray(2 * n * n)
    expected_rem = array("i", bytes(8 * n * n))
    rules.run(expected_out, expected_rem)
    for shift in (0, 1):
        raw = array("i", bytes(4 * (2 * n * n + 1)))
        view = memoryview(raw)[shift:shift + 2 * n * n]
        out = bytearray(2 * n * n)
        m, c = graph, graph
        bits_c.propagate(n, rules.flags, m._indptr, m._indices, m._rindptr, m._rindices,
                         c._indptr, c._indices, c._rindptr, c._rindices, out, view)
        assert out == expected_out
        assert view.tobytes() == expected_rem.tobytes()


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("adjacency", [_grid(10), _path(300)], ids=["grid", "long path"])
def test_tables_do_not_depend_on_what_the_buffers_held(engine, adjacency, threads):
    # Every entry is written by the engine, not found clear: a buffer reused from another
    # call (or never zeroed) holds anything.
    from array import array

    from catmouse.graph import Graph
    from catmouse.rules import classic_rules

    graph = Graph(adjacency)
    rules = classic_rules(graph, 0)
    size = 2 * graph.n * graph.n
    m = c = graph
    tables = []
    for fill in (0, 0x55, 0xFF):
        out = bytearray([fill]) * size
        rem = array("i", bytes([fill]) * (4 * size))
        engine.propagate(graph.n, rules.flags, m._indptr, m._indices, m._rindptr,
                         m._rindices, c._indptr, c._indices, c._rindptr, c._rindices,
                         out, rem, threads=threads)
        tables.append((bytes(out), rem.tobytes()))
    assert tables[1] == tables[0] and tables[2] == tables[0]
