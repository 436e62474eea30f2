"""The k-cops engine: both twins against an independent oracle, and against each other.

The oracle (tests/helpers/cops_oracle.py) iterates capture times over *ordered* cop tuples;
the engine keeps one row per multiset.  Every position of every random board must get the
same outcome and the same remoteness, on both twins, and the twins must give the same bytes.
"""

from __future__ import annotations

import importlib
import random
import signal
import subprocess
import sys
import time
from array import array
from math import comb

import pytest
from cops_oracle import COPS, solve_cops
from oracle import gnp_rows

from catmouse.engine import py_cops
from catmouse.engine.cops_checks import MAX_COPS, check_cop_graph, graph6_masks

ORACLE_BOARDS = 120
TWIN_BOARDS = 200


def random_board(rng: random.Random, n: int) -> list[list[int]]:
    return gnp_rows(rng, n, rng.random())


def csr(adjacency: list[list[int]]) -> tuple[int, list[int], list[int]]:
    indptr, indices = [0], []
    for row in adjacency:
        indices += row
        indptr.append(len(indices))
    return len(adjacency), indptr, indices


def tables(engine, adjacency, k, stop=True):
    """The search's code and tables, both handed in full of values no search writes (a 5 an
    outcome, a 7 a remoteness the oracle rarely names), so a missed entry shows:
    CopsGame.analyze hands the engine uncleared tables."""
    n, indptr, indices = csr(adjacency)
    size = 2 * comb(n + k - 1, k) * n
    outcome, remoteness = bytearray(b"\x05") * size, array("i", [7]) * size
    found = engine.cops_search(n, indptr, indices, k, outcome, remoteness, stop=stop)
    return found, bytes(outcome), remoteness.tobytes()


def test_every_position_agrees_with_the_oracle(engine):
    rng = random.Random(22)
    compared = 0
    for _ in range(ORACLE_BOARDS):
        n, k = rng.randint(1, 6), rng.randint(1, 3)
        adjacency = random_board(rng, n)
        found, outcome, remoteness = tables(engine, adjacency, k)
        rem = array("i", remoteness)
        rows = {team: i for i, team in enumerate(py_cops._multisets(n, k))}
        count = len(rows)
        expected = solve_cops(adjacency, k)
        winners = set()
        for (team, robber, turn), value in expected.items():
            row = rows[tuple(sorted(team))]
            at = turn * count * n + row * n + robber
            assert outcome[at] == (2 if value is not None else 1), (adjacency, k, team, robber)
            assert rem[at] == (-1 if value is None else value), (adjacency, k, team, robber)
            compared += 1
            if turn == COPS and all(expected[(team, r, COPS)] is not None for r in range(n)):
                winners.add(row)
        assert (found >= 0) == bool(winners)
        assert found < 0 or found in winners
    assert compared > 20_000  # the boards are not all trivial


def test_the_twins_give_the_same_bytes(compiled_engine):
    rng = random.Random(913)
    for _ in range(TWIN_BOARDS):
        n, k = rng.randint(0, 12), rng.randint(1, 3)
        adjacency = random_board(rng, n)
        assert tables(compiled_engine, adjacency, k) == tables(py_cops, adjacency, k)
        for stop in (True, False):
            args = (*csr(adjacency), k)
            assert (compiled_engine.cops_search(*args, stop=stop)
                    == py_cops.cops_search(*args, stop=stop))
        assert (compiled_engine.cop_number(*csr(adjacency), 6)
                == py_cops.cop_number(*csr(adjacency), 6))


def sparse_board(rng: random.Random, n: int) -> list[list[int]]:
    """A random connected-ish sparse graph: a spanning path plus a few chords."""
    adjacency: list[set[int]] = [set() for _ in range(n)]
    for u in range(1, n):
        v = rng.randrange(u)
        adjacency[u].add(v)
        adjacency[v].add(u)
    for _ in range(rng.randint(0, n // 2)):
        u, v = rng.sample(range(n), 2)
        adjacency[u].add(v)
        adjacency[v].add(u)
    return [sorted(row) for row in adjacency]


@pytest.mark.parametrize("threads", [1, 2])
def test_one_word_rows_of_every_length_give_the_same_bytes(compiled_engine, threads):
    """Rows of 13 to 64 nodes: the compiled twin writes a row's bytes and round-0/1
    remoteness eight nodes at a time, so each tail (n mod 8) and the full word are checked
    against the pure twin's tables, on one thread and on a crew of two."""
    rng = random.Random(8)
    for n in (13, 16, 23, 30, 41, 52, 63, 64):
        k = 2 if n <= 30 else 1
        adjacency = sparse_board(rng, n)
        size = 2 * comb(n + k - 1, k) * n
        outcome, remoteness = bytearray(b"\x05") * size, array("i", [7]) * size
        found = compiled_engine.cops_search(*csr(adjacency), k, outcome, remoteness,
                                            stop=False, threads=threads)
        assert ((found, bytes(outcome), remoteness.tobytes())
                == tables(py_cops, adjacency, k, stop=False)), (n, k)


def test_rows_of_several_words_give_the_same_bytes(compiled_engine):
    """Past 64 nodes the compiled twin's rows take several words: still the twin's tables."""
    rng = random.Random(65)
    for n, k in [(65, 1), (70, 2), (128, 1), (130, 1), (80, 2), (200, 1)]:
        adjacency = sparse_board(rng, n)
        assert tables(compiled_engine, adjacency, k) == tables(py_cops, adjacency, k), (n, k)
        # Up to one cop: the pure twin's two-cop search on 200 nodes takes half a minute.
        assert (compiled_engine.cop_number(*csr(adjacency), 1)
                == py_cops.cop_number(*csr(adjacency), 1))


def test_several_words_against_the_oracle(engine):
    rng = random.Random(66)
    adjacency = sparse_board(rng, 67)
    _, outcome, remoteness = tables(engine, adjacency, 1)
    rem = array("i", remoteness)
    for (team, robber, turn), value in solve_cops(adjacency, 1).items():
        at = turn * 67 * 67 + team[0] * 67 + robber
        assert (outcome[at], rem[at]) == ((2, value) if value is not None else (1, -1))


# Three components: {0, 1, 3, 5, 7, 8, 9, 11}, the path 2-10-4 and the lone node 6.  With four
# cops some teams stack two cops on one node (a[i] == a[i + 1] past the first cop), where the
# enumeration of a team's moves bounds a cop's pick by the next cop's: no cop may move past
# its own closed neighbourhood, and no move may be left out.
STACKED_BOARD = [[3, 5, 9], [9], [10], [0, 5, 8, 11], [10], [0, 3], [], [11], [3, 11],
                 [0, 1, 11], [2, 4], [3, 7, 8, 9]]


def test_four_cops_on_several_words_keep_a_boards_tables(compiled_engine):
    """A board padded past 64 nodes with nodes it does not touch: the rows of its own teams
    (the first C(g+3, 4) ranks; colex ranks do not depend on n) hold, for its own robber
    nodes, the pure twin's outcomes of the board alone.  The tests above stop at two cops
    past 64 nodes; four reach the stacked cops of the several-word push (cops_wide.pxi).
    The pure twin on 65 nodes and 4 cops takes minutes, hence the padding."""
    board, k, n = STACKED_BOARD, 4, 65
    g = len(board)
    # Lone nodes, then a clique of five: the last node's closed neighbourhood is as large
    # as any (a pick past a neighbourhood would still read a node, not past the lists).
    padded = [list(row) for row in board] + [[] for _ in range(g, n - 5)] + [
        [v for v in range(n - 5, n) if v != u] for u in range(n - 5, n)]
    small_rows, rows = comb(g + k - 1, k), comb(n + k - 1, k)
    expected = bytearray(2 * small_rows * g)
    py_cops.cops_search(*csr(board), k, expected, stop=False)
    outcome = bytearray(2 * rows * n)  # 106 MB
    compiled_engine.cops_search(*csr(padded), k, outcome, stop=False)
    for turn in (0, 1):
        for row in range(small_rows):
            at, small_at = turn * rows * n + row * n, turn * small_rows * g + row * g
            assert outcome[at:at + g] == expected[small_at:small_at + g], (turn, row)


def test_the_early_exit_names_a_winning_start(engine):
    """Stopping early gives the row the full search finds first: a start that wins."""
    c5 = [[1, 4], [0, 2], [1, 3], [2, 4], [3, 0]]
    assert engine.cops_search(*csr(c5), 1) == -1
    assert engine.cops_search(*csr(c5), 2) == engine.cops_search(*csr(c5), 2, stop=False) >= 0


CYCLE4 = (4, [0, 2, 4, 6, 8], [1, 3, 0, 2, 1, 3, 0, 2])


@pytest.mark.parametrize("args, error, words", [
    ((1025, [0] * 1026, []), ValueError, "0 to 1024 nodes"),
    ((2, [0, 1, 1], [1]), ValueError, "must be undirected: 0 -> 1 without 1 -> 0"),
    ((2, [0, 1, 2], [1, 2]), ValueError, "neighbour 2, which is not a node"),
    ((2, [0, 1, 2], [1]), ValueError, "indptr ends at 2, but indices has 1"),
    ((2, [0, 1], [1]), ValueError, "indptr has 2 entries, expected 3"),
    ((2, [0, 2, 1], [1, 0]), ValueError, "not a monotone offset array"),
    ((2, [1, 1, 2], [1, 0]), ValueError, "not a monotone offset array from 0"),
    ((2, [0, 1, 2], [-1, 0]), ValueError, "neighbour -1, which is not a node"),
    ((2, [0, 1, 3], [1, 0, 2]), ValueError, "neighbour 2, which is not a node"),
    ((3, [0, 1, 2, 4], [1, 0, 0, 1]), ValueError, "undirected: 2 -> 0 without 0 -> 2"),
])
@pytest.mark.parametrize("form", [list, lambda values: array("i", values)])
def test_bad_graphs_are_refused_alike(engine, args, error, words, form):
    """As lists and as int32 buffers (which the compiled twin checks in C first)."""
    n, indptr, indices = args
    args = (n, form(indptr), form(indices))
    with pytest.raises(error, match=words):
        engine.cops_search(*args, 1)
    with pytest.raises(error, match=words):
        engine.cop_number(*args, 3)


def test_int32_buffers_are_checked_in_c(compiled_engine, monkeypatch):
    """A graph of at most 64 nodes in int32 buffers (a Graph's) never meets the Python check:
    64 nodes, a lone node, node 0 as a neighbour, a self-loop."""
    cycle64 = [[(u - 1) % 64, (u + 1) % 64] for u in range(64)]
    boards = [cycle64, [[1, 2], [0, 2], [0, 1], []], [[1], [0, 1]], [[]]]
    expected = [(compiled_engine.cops_search(*csr(board), 2),
                 compiled_engine.cop_number(*csr(board), 3)) for board in boards]

    def refuse(*args):
        raise AssertionError("checked in Python")
    monkeypatch.setattr(compiled_engine, "check_cop_graph", refuse)
    for board, (row, number) in zip(boards, expected):
        n, indptr, indices = csr(board)
        as_arrays = (n, array("i", indptr), array("i", indices))
        assert compiled_engine.cops_search(*as_arrays, 2) == row
        assert compiled_engine.cop_number(*as_arrays, 3) == number


def test_int32_buffers_give_what_lists_give(engine):
    rng = random.Random(64)
    most = 64 if engine.__name__.endswith("bits_c") else 14
    for _ in range(30):
        n, p = rng.randint(1, most), rng.random()
        adjacency: list[list[int]] = [[] for _ in range(n)]
        for u, v in ((u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < p):
            adjacency[u].append(v)
            adjacency[v].append(u)
        n, indptr, indices = csr(adjacency)
        k = rng.randint(1, 2)
        as_arrays = (n, array("i", indptr), array("i", indices))
        assert engine.cops_search(*as_arrays, k) == engine.cops_search(n, indptr, indices, k)
        assert engine.cop_number(*as_arrays, 3) == engine.cop_number(n, indptr, indices, 3)


@pytest.mark.parametrize("k, error", [(0, ValueError), (MAX_COPS + 1, ValueError),
                                      (True, TypeError), (1.0, TypeError)])
def test_bad_cop_counts_are_refused(engine, k, error):
    with pytest.raises(error, match="the number of cops must be"):
        engine.cops_search(*CYCLE4, k)
    with pytest.raises(error, match="the number of cops must be"):
        engine.cops_peak_bytes(4, k)


def test_tables_of_the_wrong_size_or_type_are_refused(engine):
    with pytest.raises(ValueError, match="expected 80"):
        engine.cops_search(*CYCLE4, 2, bytearray(79))
    with pytest.raises(ValueError, match="format"):
        engine.cops_search(*CYCLE4, 2, bytearray(80), array("d", [0]) * 80)
    with pytest.raises(TypeError, match="read-only"):
        engine.cops_search(*CYCLE4, 2, bytes(80))


def test_the_pure_twins_bound_holds_its_measured_peak():
    """cops_peak_bytes is what the memory guard compares with max_bytes: it must not be below
    the peak Python allocates (tracemalloc), nor far above it.  It once was below, by 5%, on
    a 20-node graph with 3 cops (the round's two dicts were under-counted: 0.89 of the peak)."""
    import tracemalloc

    import networkx as nx

    from catmouse.engine import py_cops

    rng = random.Random(5)
    ratios = []
    # Many rows and few moves make the dicts weigh most: the first was 0.89 of its peak.
    for n, k, p in [(20, 3, 0.1), (30, 2, 0.05), (8, 3, 0.3), (5, 4, 0.4), (40, 1, 0.1)]:
        graph = nx.gnp_random_graph(n, p, seed=rng.randrange(10**6))
        args = csr([sorted(graph[u]) for u in range(n)])
        tracemalloc.start()
        try:
            py_cops.cops_search(*args, k, stop=False)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        ratios.append((py_cops.cops_peak_bytes(n, k) / peak, n, k, p))
    assert min(ratios)[0] >= 1.0, min(ratios)
    # Counted at 64-bit object sizes, which a 32-bit Python about halves (7.2 on i386).
    assert max(ratios)[0] <= (4.0 if sys.maxsize > 2**32 else 8.0), max(ratios)


@pytest.mark.parametrize("n,k,p", [(10, 2, 0.3), (64, 3, 0.1), (20, 4, 0.3), (65, 1, 0.9),
                                   (80, 2, 0.1), (130, 1, 0.5), (300, 1, 0.02)])
def test_the_compiled_bound_holds_its_measured_peak(n, k, p):
    """The compiled twin's cops_peak_bytes against tracemalloc (which sees PyMem_Raw): past
    64 nodes it was up to 7% below, the one-word path's struct and a copy of the graph
    uncounted.  The indices as an int buffer: a list is copied while it is checked, 8 bytes
    an entry, which the bound leaves out as it leaves out the caller's tables."""
    import tracemalloc

    import networkx as nx

    bits_c = pytest.importorskip("catmouse.engine.bits_c")
    graph = nx.gnp_random_graph(n, p, seed=n * k)
    size, indptr, indices = csr([sorted(graph[u]) for u in range(n)])
    arrays = (size, array("i", indptr), array("i", indices))
    peaks = []
    for args, copy in ((arrays, 0), ((size, indptr, indices), 8 * len(indices))):
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            bits_c.cops_search(*args, k, stop=False)
            peaks.append(tracemalloc.get_traced_memory()[1] - base - copy)
        finally:
            tracemalloc.stop()
    claimed = bits_c.cops_peak_bytes(n, k)
    assert max(peaks) <= claimed <= 1.5 * peaks[0], (claimed, peaks)


def test_the_memory_guard_speaks_before_allocating(engine):
    need = engine.cops_peak_bytes(64, 8)
    assert need > 10**11  # 64 multichoose 8 rows: no machine here holds them
    with pytest.raises(MemoryError, match=r"6 cops on 4 nodes need 84 rows"):
        engine.cops_search(*CYCLE4, 6, max_bytes=1000)
    with pytest.raises(MemoryError, match=r"2 cops on 4 nodes need 10 rows"):
        engine.cop_number(*CYCLE4, 5, max_bytes=engine.cops_peak_bytes(4, 1))
    assert engine.cop_number(*CYCLE4, 5, max_bytes=engine.cops_peak_bytes(4, 2)) == 2


def test_max_cops_and_components(engine):
    two_squares = [[1, 3], [0, 2], [1, 3], [0, 2], [5, 7], [4, 6], [5, 7], [4, 6], []]
    assert engine.cop_number(*csr(two_squares), 10) == 5  # 2 + 2 + 1 (a lone node)
    assert engine.cop_number(*csr(two_squares), 4) == -1
    assert engine.cop_number(*CYCLE4, 1) == -1
    assert engine.cop_number(0, [0], [], 3) == 0


GRAPH6 = [(b"Bw", [1]), (b"Cl", [2]), (b"IheA@GUAo", [3]), (b">>graph6<<Bw", [1]),
          (b"Bw\r\nCl\n", [1, 2]), (b"Bw\nA_\nA?", [1, 1, 2]), (b"", []), (b"?\n", [0])]


@pytest.mark.parametrize("data, expected", GRAPH6)
def test_graph6_lines(engine, data, expected):
    assert list(engine.cop_numbers_graph6(data, 10)) == expected


def test_graph6_past_max_cops_is_255(engine):
    assert list(engine.cop_numbers_graph6(b"IheA@GUAo\nBw\n", 2)) == [255, 1]


@pytest.mark.parametrize("line, words", [
    (b"Bx", "padding"), (b"B", "needs 1 bytes"), (b"B w", "the character ' ', outside"),
    (b"~~?????????", "more than 64"), (b"~?@@" + b"?" * 347, "65 nodes"), (b"\n", "is empty"),
    (b"~?A?", "128 nodes"), (b"~@??", "4096 nodes"),  # the 4-byte size: 18 bits
])
def test_bad_graph6_lines_are_named(engine, line, words):
    with pytest.raises(ValueError, match=f"line 2: .*{words}"):
        engine.cop_numbers_graph6(b"Bw\n" + line + b"\nBw\n", 3)


@pytest.mark.parametrize("line", ["Bx", "B", "Bww", "B w", "B\x7f", ""])
def test_the_census_decoder_words_a_bad_line_as_the_graph_reader_does(line):
    """cop-number (the census decoder) and cop-win (the graphs' reader) once worded the same
    bad padding two ways ("graph6 line with nonzero padding bits" and "graph6 padding bits
    after the last edge must be zero"), and the same for a wrong length or character."""
    from catmouse.engine.cops_checks import graph6_masks
    from catmouse.io.graph6 import decode_line
    with pytest.raises(ValueError) as census:
        graph6_masks(line.encode("latin-1"))
    with pytest.raises(ValueError) as reader:
        decode_line(line)
    assert str(census.value) == str(reader.value)


def test_the_c_decoder_reads_what_the_shared_reader_reads(compiled_engine):
    rng = random.Random(6)
    for n in range(0, 65, 3):
        adjacency = random_board(rng, n)
        bits = [(j, i) for j in range(1, n) for i in range(j)]
        flags = [int(i in adjacency[j]) for j, i in bits]
        flags += [0] * (-len(flags) % 6)
        body = bytes(63 + int("".join(map(str, flags[p:p + 6])), 2)
                     for p in range(0, len(flags), 6))
        head = bytes([63 + n]) if n < 63 else b"~" + bytes([63, 63 + (n >> 6), 63 + (n & 63)])
        line = head + body
        assert graph6_masks(line) == check_cop_graph(*csr(adjacency))
        expected = py_cops.cop_number(*csr(adjacency), 3) if n <= 20 else None
        got = compiled_engine.cop_numbers_graph6(line, 3)
        if expected is not None:
            assert list(got) == [255 if expected < 0 else expected]


def test_the_selector_offers_the_cops_entry_points():
    from catmouse import engine as selector

    for name in ("cython", "python"):
        try:
            loaded = selector.load(name)
        except ImportError:
            continue
        module = importlib.import_module(selector.MODULES[name])
        assert loaded.cop_number is module.cop_number
        assert loaded.cops_search is module.cops_search


CHILD = """
import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
from catmouse.engine import bits_c
n = 64  # the 6-cube: four cops win, after about a minute of rounds
indptr = list(range(0, 6 * n + 1, 6))
indices = [u ^ (1 << b) for u in range(n) for b in range(6)]
print("ready", flush=True)
try:
    bits_c.cops_search(n, indptr, indices, 4)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_long_search(compiled_engine):
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        word, *when = child.stdout.readline().split()
        assert word == "interrupted"
        assert float(when[0]) - sent < 2.0  # polled about every millisecond of work
    finally:
        child.kill()
        child.wait()
