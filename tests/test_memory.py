"""Memory: a table that cannot fit is refused with MemoryError before any allocation."""

from __future__ import annotations

import re
from array import array

import pytest

import catmouse
from catmouse import Graph, _rules
from catmouse._rules import ANALYZE_BYTES, MAX_NODES, check_memory


def empty_graph(n):
    """n nodes and no edges, built in O(n): cheap however many positions it has."""
    return Graph.from_csr(array("i", bytes(4 * (n + 1))), array("i"))


def rss():
    page = 4096
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * page


def needed_bytes(error):
    """The byte count a MemoryError names."""
    match = re.search(r"needs (?:up to )?(\d+) bytes", str(error))
    assert match, str(error)
    return int(match.group(1))


@pytest.mark.parametrize("call", [catmouse.solve, catmouse.analyze])
def test_max_memory_names_the_bytes_needed(call):
    graph = empty_graph(300)
    with pytest.raises(MemoryError) as error:
        call(graph, max_memory=1000)
    need = needed_bytes(error.value)
    assert "max_memory=1000" in str(error.value)
    # At least an outcome byte per position, and for analyze a 4-byte remoteness too.
    positions = 2 * 300 * 300
    assert need >= positions * (5 if call is catmouse.analyze else 1)
    # The figure is the real threshold: that many bytes is enough, one fewer is not.
    call(graph, max_memory=need)
    with pytest.raises(MemoryError):
        call(graph, max_memory=need - 1)


def test_too_big_for_available_memory(monkeypatch):
    """n = 30000 (1.8e9 positions) from a cheap CSR, with 1 GB said to be available."""
    monkeypatch.setattr(_rules, "available_memory", lambda: 10**9)
    graph = empty_graph(30000)
    before = rss()
    for call in (catmouse.solve, catmouse.analyze):
        with pytest.raises(MemoryError) as error:
            call(graph)
        assert needed_bytes(error.value) >= 2 * 30000**2
        assert f"only {10**9} are available" in str(error.value)
    # Refused before allocating: the process did not take a table's worth of memory.
    assert rss() - before < 100 * 2**20


def test_too_big_for_this_machine():
    """The largest board, 2 * 32767**2 positions: its full analysis outgrows 24 GB."""
    n = MAX_NODES
    # The check first, so a machine where the tables would fit allocates nothing.
    with pytest.raises(MemoryError):
        check_memory(n, ANALYZE_BYTES)
    before = rss()
    with pytest.raises(MemoryError) as error:
        catmouse.analyze(empty_graph(n))
    assert needed_bytes(error.value) >= 2 * n * n * 5
    assert "available" in str(error.value)
    assert rss() - before < 100 * 2**20


@pytest.mark.parametrize("n", [MAX_NODES + 1, 40000])
def test_more_nodes_than_the_engine_indexes(n):
    graph = empty_graph(n)
    for call in (catmouse.solve, catmouse.analyze):
        with pytest.raises(MemoryError, match=f"a graph of {n} nodes"):
            call(graph)
