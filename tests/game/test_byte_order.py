"""Byte order is a rule: pickles store int32 tables little-endian and say so.

A pickle written on x86-64 must read the same on s390x (big-endian) and the reverse.  Here the
other machine's pickles are made by hand (the bytes swapped and marked ">"); the s390x run
(``nox -s s390x``) runs these tests on a big-endian machine too.  A pickle without the mark
(0.1.0's) is read as little-endian.
"""

from __future__ import annotations

import json
import os
import pickle
import struct
import subprocess
import sys
from array import array
from pathlib import Path

import pytest

import catmouse
from catmouse.analysis import _unpickle_analysis
from catmouse.graph import _unpickle_graph

PETERSEN_LIKE = [[1, 4, 5], [0, 2, 6], [1, 3, 7], [2, 4, 8], [3, 0, 9],
                 [0, 7, 8], [1, 8, 9], [2, 9, 5], [3, 5, 6], [4, 6, 7]]


def swapped(data: bytes) -> bytes:
    items = array("i")
    items.frombytes(data)
    items.byteswap()
    return items.tobytes()


def flat(table: memoryview) -> list[int]:
    """A remoteness table's entries, in position order."""
    return table.cast("B").cast("i").tolist()


def little(values) -> bytes:
    return struct.pack(f"<{len(values)}i", *values)


def big(values) -> bytes:
    return struct.pack(f">{len(values)}i", *values)


def test_a_graph_pickle_stores_little_endian_and_says_so(use_engine):
    g = catmouse.Graph(PETERSEN_LIKE)
    _, (n, directed, indptr, indices, labels, order) = g.__reduce__()
    assert order == "<"
    assert indptr == little(g.indptr.tolist()) and indices == little(g.indices.tolist())


@pytest.mark.parametrize("order", ["<", ">"])
def test_a_graph_pickled_on_either_machine_loads_the_same(use_engine, order):
    g = catmouse.Graph(PETERSEN_LIKE)
    pack = little if order == "<" else big
    loaded = _unpickle_graph(g.n, False, pack(g.indptr.tolist()), pack(g.indices.tolist()),
                             None, order)
    assert loaded == g and catmouse.solve(loaded) == catmouse.solve(g)


def test_an_unmarked_graph_pickle_is_little_endian(use_engine):
    g = catmouse.Graph(PETERSEN_LIKE)
    loaded = _unpickle_graph(g.n, False, little(g.indptr.tolist()), little(g.indices.tolist()),
                             None)
    assert loaded == g


def test_an_unknown_byte_order_is_refused():
    g = catmouse.Graph(PETERSEN_LIKE)
    with pytest.raises(ValueError, match="byte order"):
        _unpickle_graph(g.n, False, little(g.indptr.tolist()), little(g.indices.tolist()),
                        None, "=")


def words_little(layer: bytes) -> bytes:
    """A layer's native words as little-endian words."""
    return struct.pack(f"<{len(layer) // 8}Q", *struct.unpack(f"={len(layer) // 8}Q", layer))


def test_an_analysis_pickle_stores_its_planes_little_endian_and_says_so(use_engine):
    a = catmouse.analyze(PETERSEN_LIKE)
    rules, outcomes, layers, first, mark, form = a.__reduce__()[1]
    assert mark == "<" and form == "planes"
    assert layers == tuple(words_little(layer) for layer in a._layers)


def test_planes_pickled_on_a_big_endian_machine_load_right_here(use_engine):
    """The pickle always holds little-endian words: a big-endian machine's pickle is the same
    bytes; here made by hand from the big-endian words that machine holds in memory."""
    a = catmouse.analyze(PETERSEN_LIKE)
    rules, outcomes, _, first, mark, form = a.__reduce__()[1]
    values = [struct.unpack(f"={len(layer) // 8}Q", layer) for layer in a._layers]
    in_memory_there = [struct.pack(f">{len(v)}Q", *v) for v in values]
    stored_there = tuple(struct.pack(f"<{len(v)}Q", *struct.unpack(f">{len(v)}Q", m))
                         for v, m in zip(values, in_memory_there))
    loaded = _unpickle_analysis(rules, outcomes, stored_there, first, mark, form)
    assert flat(loaded.remoteness_table) == flat(a.remoteness_table)
    assert [loaded.remoteness(m, c, t) for m in range(10) for c in range(1, 10) for t in (0, 1)]\
        == [a.remoteness(m, c, t) for m in range(10) for c in range(1, 10) for t in (0, 1)]
    assert loaded.verify()


@pytest.mark.parametrize("order", ["<", ">"])
def test_an_analysis_pickled_on_either_machine_loads_the_same(use_engine, order):
    a = catmouse.analyze(PETERSEN_LIKE)
    rules, outcomes, remoteness, first, mark, _ = a.__reduce__()[1]
    table = little if order == "<" else big
    loaded = _unpickle_analysis(rules, outcomes, table(flat(a.remoteness_table)), first,
                                order)
    assert flat(loaded.remoteness_table) == flat(a.remoteness_table)
    assert loaded.line(1, 2) == a.line(1, 2)
    # The 0.1.0 form: four fields, no mark, little-endian.
    old = _unpickle_analysis(rules, outcomes, little(flat(a.remoteness_table)), first)
    assert flat(old.remoteness_table) == flat(a.remoteness_table)
    assert flat(pickle.loads(pickle.dumps(a)).remoteness_table) == flat(a.remoteness_table)


@pytest.mark.parametrize("dtype", ["<i4", ">i4", "<i8", ">i8"])
def test_from_csr_reads_arrays_of_either_byte_order(use_engine, dtype):
    numpy = pytest.importorskip("numpy")
    g = catmouse.Graph(PETERSEN_LIKE)
    other = catmouse.Graph.from_csr(numpy.array(g.indptr.tolist(), dtype=dtype),
                                    numpy.array(g.indices.tolist(), dtype=dtype))
    assert other == g


def test_this_machine(record_property):
    record_property("byteorder", sys.byteorder)
    assert sys.byteorder in ("little", "big")


EXCHANGE = Path(__file__).resolve().parents[2] / "ci" / "byte_order_exchange.py"


@pytest.mark.skipif(not EXCHANGE.is_file(), reason="ci/ is not beside the tests")
def test_the_exchange_script_reads_what_it_wrote_and_catches_a_change(tmp_path):
    """ci/byte_order_exchange.py, which the foreign-architecture runs use both ways, here on
    one machine: what it writes reads back equal, and one changed answer fails the read."""
    pytest.importorskip("numpy")
    pytest.importorskip("networkx")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    run = [sys.executable, str(EXCHANGE)]
    subprocess.run([*run, "write", str(tmp_path)], check=True, env=env, capture_output=True)
    read = subprocess.run([*run, "read", str(tmp_path)], env=env, capture_output=True, text=True)
    assert read.returncode == 0 and "OK: read 3 boards'" in read.stdout, read.stdout
    answers = tmp_path / "answers.json"
    manifest = json.loads(answers.read_text(encoding="utf-8"))
    manifest["boards"]["named"]["remoteness"][5] += 1
    answers.write_text(json.dumps(manifest), encoding="utf-8")
    read = subprocess.run([*run, "read", str(tmp_path)], env=env, capture_output=True, text=True)
    assert read.returncode == 1 and "[remoteness]: item 5" in read.stdout, read.stdout
