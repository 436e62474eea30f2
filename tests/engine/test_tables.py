"""The output tables: zeroed, written through views, handed over as immutable bytes."""

from __future__ import annotations

import sys

import pytest

import catmouse

# 0 and 1 byte; an odd size; past the compiled twin's huge-page threshold (4 MiB).
SIZES = [0, 1, 12, 5 << 20]


@pytest.mark.parametrize("size", SIZES)
def test_a_table_starts_zeroed_and_is_taken_as_the_bytes_written(engine, size):
    table = engine.Table(size)
    with table.view() as view:
        assert not view.readonly and view.nbytes == size
        assert not any(view[:: max(1, size // 4096)])
        if size >= 4:
            ints = view.cast("i")
            ints[0] = -1
            ints[len(ints) - 1] = 123456
            ints.release()
    data = table.take()
    assert type(data) is bytes and len(data) == size
    if size >= 4:
        assert data[:4] == b"\xff" * 4
        assert int.from_bytes(data[-4:], sys.byteorder) == 123456
        assert not any(data[4:-4])


def test_take_waits_for_every_view_and_happens_once(engine):
    table = engine.Table(16)
    view = table.view()
    with pytest.raises(BufferError):
        table.take()
    view[3] = 9
    view.release()
    assert table.take() == bytes(3) + b"\x09" + bytes(12)
    with pytest.raises(BufferError, match="taken"):
        table.take()
    with pytest.raises(BufferError, match="taken"):
        table.view()


def test_a_negative_size_is_refused(engine):
    with pytest.raises(ValueError, match="-1 bytes"):
        engine.Table(-1)


def test_analyze_hands_out_tables_nobody_can_write(use_engine):
    analysis = catmouse.analyze([[2], [2], [0, 1]])
    for table in (analysis.outcomes, analysis.remoteness):
        with pytest.raises(TypeError):
            table[0] = 1
