"""The planes format (catmouse/engine/planes.py): a byte a position of remoteness, read back.

Tables are made at random (any int32 values where the outcome is a win), so layers past the
first are covered without a search that long; the engines' own planes are checked against
their int32 tables where planes mode is tested.
"""

from __future__ import annotations

import random
from array import array

import pytest

from catmouse.engine import planes
from catmouse.engine.facts import CAT_WIN, MOUSE_WIN, NO_POSITION

numpy = pytest.importorskip("numpy")


def random_tables(n: int, largest: int, seed: int) -> tuple[bytes, array]:
    """An outcome table and a remoteness table that agree: -1 exactly where no one wins."""
    rng = random.Random(seed)
    codes = bytes(rng.choice((0, MOUSE_WIN, CAT_WIN, NO_POSITION)) for _ in range(2 * n * n))
    table = array("i", (rng.randint(0, largest) if c in (MOUSE_WIN, CAT_WIN) else -1
                        for c in codes))
    return codes, table


@pytest.fixture(params=["numpy", "plain"])
def reader(request, monkeypatch):
    if request.param == "plain":
        monkeypatch.setattr(planes, "_numpy", lambda: None)
    return request.param


@pytest.mark.parametrize("n, largest", [(0, 3), (1, 0), (5, 9), (64, 255), (65, 300),
                                        (130, 70000), (70, 2**24 + 5)])
def test_layers_read_back_as_the_table(reader, n, largest):
    codes, table = random_tables(n, largest, seed=n)
    layers = planes.from_remoteness(table, n)
    assert len(layers) == planes.layers_for(max(table, default=-1))
    assert all(len(layer) == planes.layer_bytes(n) for layer in layers)
    for turn in (0, 1):
        rows = planes.remoteness_rows(layers, codes, n, turn, 0, n)
        assert list(numpy.asarray(rows).ravel()) == list(table[turn * n * n:(turn + 1) * n * n])


def test_both_readers_and_value_at_agree_on_blocks_across_groups(monkeypatch):
    n = 130
    codes, table = random_tables(n, 600, seed=7)
    layers = planes.from_remoteness(table, n)
    for turn, first, count in [(0, 60, 10), (1, 60, 10), (1, 0, 1), (1, 127, 3), (0, 129, 1)]:
        fast = numpy.asarray(planes.remoteness_rows(layers, codes, n, turn, first, count))
        with monkeypatch.context() as patch:
            patch.setattr(planes, "_numpy", lambda: None)
            plain = planes.remoteness_rows(layers, codes, n, turn, first, count)
            assert isinstance(plain, array)
        assert fast.shape == (count, n)
        assert list(fast.ravel()) == list(plain)
        at = (turn * n + first) * n
        assert list(plain) == list(table[at:at + count * n])
    for _ in range(200):
        turn, mouse, cat = random.randrange(2), random.randrange(n), random.randrange(n)
        entry = table[turn * n * n + mouse * n + cat]
        assert planes.value_at(layers, n, turn, mouse, cat) == max(entry, 0)


def test_no_bits_where_no_one_wins_nor_past_the_last_column():
    n = 70
    codes, table = random_tables(n, 255, seed=3)
    (layer,) = planes.from_remoteness(table, n)
    W = planes.words_per_row(n)
    words = memoryview(layer).cast("Q")
    for row in range(2 * n):
        for p in range(8):  # the last group's columns 70..127 stay clear
            assert words[(row * W + W - 1) * 8 + p] >> (n - 64) == 0
    assert planes.from_remoteness(array("i", [-1] * (2 * n * n)), n) == [bytes(len(layer))]


def test_the_plain_builder_writes_the_same_bytes(monkeypatch):
    n = 67
    _, table = random_tables(n, 1000, seed=11)
    fast = planes.from_remoteness(table, n)
    monkeypatch.setattr(planes, "_numpy", lambda: None)
    assert planes.from_remoteness(table, n) == fast


def test_little_endian_words_round_trip(monkeypatch):
    layer = array("Q", [1, 2**63 + 5, 0, 7] * 16).tobytes()
    assert planes.from_little(planes.to_little(layer)) == layer
    monkeypatch.setattr(planes, "_LITTLE", not planes._LITTLE)  # the other byte order's path
    swapped = planes.to_little(layer)
    assert swapped != layer and planes.from_little(swapped) == layer


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match="2 \\* 3 \\* 3"):
        planes.from_remoteness(array("i", [0] * 17), 3)
    codes, table = random_tables(3, 5, seed=1)
    with pytest.raises(ValueError, match="not rows of 3"):
        planes.remoteness_rows(planes.from_remoteness(table, 3), codes, 3, 0, 2, 2)


@pytest.mark.parametrize("n", [7, 70])
def test_an_engines_table_is_minus_one_exactly_where_no_one_wins(use_engine, n):
    """What the format assumes of every remoteness table: a value wherever someone wins."""
    import catmouse

    rng = random.Random(n)
    graph = [[] for _ in range(n)]
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < 3 / n:
                graph[a].append(b)
                graph[b].append(a)
    analysis = catmouse.analyze(graph)
    codes = bytes(analysis.outcomes.tobytes())
    table = array("i", analysis.remoteness_table.tobytes())
    assert [c in (MOUSE_WIN, CAT_WIN) for c in codes] == [r >= 0 for r in table]
    layers = planes.from_remoteness(table, n)
    rows = [planes.remoteness_rows(layers, codes, n, turn, 0, n) for turn in (0, 1)]
    assert list(numpy.concatenate([r.ravel() for r in rows])) == list(table)
