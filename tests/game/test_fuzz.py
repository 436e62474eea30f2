"""Property suite: any input gives the right answer or a TypeError/ValueError.

Run on both engines (the ``engine`` fixture).  Inputs are arbitrary Python
objects and near-valid graphs (a valid graph with a few entries spoiled, or
handed over in odd containers, dtypes and strides).  Whatever is accepted is
checked against an independent validator written here and the naive solver in
``tests/helpers/oracle.py``.

The raw engine entry ``propagate`` may also raise OverflowError (an integer
that does not fit the C type of its argument): it is internal, and the public
functions never hand it those.

``ci/fuzz.py`` runs the same properties with many more examples against a
build with bounds checks on; ``FUZZ_COUNTS`` counts the inputs per engine.
"""

from __future__ import annotations

import collections
import contextlib
import importlib
import itertools
import json
import math
import operator
import os
from array import array
from collections.abc import Mapping

import pytest
from engines import on_engine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import MOUSE, solve_classic

import catmouse
from catmouse import Graph
from catmouse.rules import need_bytes

try:
    import numpy as np
except ImportError:  # pragma: no cover - numpy is optional
    np = None

FUZZ_COUNTS: collections.Counter = collections.Counter()

# The raw entry may say "does not fit a C integer" its own way.
RAW_ERRORS = (TypeError, ValueError, OverflowError)
API_ERRORS = (TypeError, ValueError)

# ci/fuzz.py raises the count; 60 keeps this suite well under a minute.
SUITE = settings(
    max_examples=int(os.environ.get("CATMOUSE_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much],
)




@pytest.fixture(scope="module", autouse=True)
def _report_counts():
    """Write the inputs run per engine where ci/fuzz.py asks for them."""
    yield
    path = os.environ.get("CATMOUSE_FUZZ_REPORT")
    if path:
        with open(path, "w") as report:
            json.dump(dict(FUZZ_COUNTS), report)




# -- an independent validator and solver ------------------------------------------


class Invalid(Exception):
    pass


def as_id(value):
    """A node id as the package should read it, or Invalid."""
    if isinstance(value, bool) or (np is not None and isinstance(value, np.bool_)):
        raise Invalid
    try:
        return operator.index(value)
    except TypeError:
        raise Invalid from None


def reference_rows(adjacency, directed):
    """The rows ``Graph(adjacency)`` must give, or Invalid."""
    if isinstance(adjacency, (str, bytes, bytearray)) or not hasattr(adjacency, "__iter__"):
        raise Invalid
    if isinstance(adjacency, Mapping):
        # {node: neighbours}: the keys in order are the nodes; every neighbour is a key.
        ids = {key: i for i, key in enumerate(adjacency)}
        adjacency = [[_key_id(ids, v) for v in _row(row)] for row in adjacency.values()]
    rows = []
    for row in adjacency:
        # A row is an iterable of ids; a string or a dict is a mistake, not a row.
        if isinstance(row, (str, bytes, bytearray, dict)) or not hasattr(row, "__iter__"):
            raise Invalid
        rows.append([as_id(v) for v in row])
    n = len(rows)
    for u, row in enumerate(rows):
        if len(set(row)) != len(row) or any(not 0 <= v < n or v == u for v in row):
            raise Invalid
    if not directed:
        edges = {(u, v) for u, row in enumerate(rows) for v in row}
        if any((v, u) not in edges for u, v in edges):
            raise Invalid
    return rows


def _row(row):
    if isinstance(row, (str, bytes, bytearray)) or not hasattr(row, "__iter__"):
        raise Invalid
    return row


def _key_id(ids, node):
    try:
        return ids[node]
    except (KeyError, TypeError):
        raise Invalid from None


# Graphs above this many nodes are too big for the Python oracle (the fuzzer can
# make a valid graph of 32767 nodes: 2.1 billion positions).
ORACLE_NODES = 16


def check_against_oracle(graph, engine):
    """analyze/solve on ``engine`` agree with the oracle, and verify() passes.

    A graph too big for the oracle is checked for refusal instead: analyze with a
    memory cap one byte under its tables raises MemoryError, allocating nothing.
    """
    rows = graph.adjacency()
    n = graph.n
    with on_engine(engine):
        if n == 0:
            with pytest.raises(ValueError):
                catmouse.analyze(graph)
            return
        if n > ORACLE_NODES:
            with pytest.raises(MemoryError, match=r"up to \d+ bytes"):
                catmouse.analyze(graph, max_memory=need_bytes(
                    n, outcome=True, remoteness=True, target=False) - 1)
            return
        expected = solve_classic(rows)
        analysis = catmouse.analyze(graph)
        assert analysis.verify()
        for (m, c, t), value in expected.outcome.items():
            assert analysis.outcome(m, c, t) == value, (rows, m, c, t)
            assert analysis.remoteness(m, c, t) == expected.remoteness[m, c, t], (rows, m, c, t)
        if n >= 3:
            assert catmouse.solve(graph) == expected.outcome[1, 2, MOUSE]
        else:
            with pytest.raises(ValueError):
                catmouse.solve(graph)


# -- strategies -----------------------------------------------------------------

ODD_INTS = st.sampled_from([-1, -(2**31) - 1, 2**31 - 1, 2**31, 2**63, -(2**63) - 1, 2**100,
                            32767, 32768])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 9), ODD_INTS, st.floats(), st.just(math.nan),
    st.text(max_size=3), st.binary(max_size=3), st.complex_numbers(max_magnitude=4),
)


def numpy_arrays():
    if np is None:
        return st.nothing()

    @st.composite
    def build(draw):
        dtype = draw(st.sampled_from(["float64", "bool", "int8", "uint64", "int32", "int64",
                                      "uint8", ">i4", "object"]))
        values = draw(st.lists(st.integers(0, 9), max_size=8))
        array_ = np.array(values, dtype=dtype)
        shape = draw(st.sampled_from(["flat", "strided", "2d"]))
        if shape == "strided":
            array_ = np.repeat(array_, 2)[::2]
        elif shape == "2d" and len(values) % 2 == 0:
            array_ = array_.reshape(2, -1)
        return array_

    return build()


JUNK = st.recursive(
    SCALARS | numpy_arrays(),
    lambda inner: (st.lists(inner, max_size=4) | st.tuples(inner, inner)
                   | st.dictionaries(st.integers(-2, 5), inner, max_size=3)),
    max_leaves=12,
)

ELEMENTS = st.one_of(st.integers(-2, 9), ODD_INTS, st.booleans(), st.floats(), st.none(),
                     st.text(max_size=2), st.just(math.nan))
if np is not None:
    ELEMENTS = ELEMENTS | st.sampled_from([np.int64(1), np.int8(2), np.uint64(0), np.float64(1),
                                           np.bool_(True), np.int32(-1)])


@st.composite
def small_graphs(draw, max_n=7):
    """(rows, directed) of a valid graph."""
    n = draw(st.integers(0, max_n))
    directed = draw(st.booleans())
    rows = [[] for _ in range(n)]
    if n >= 2:
        pairs = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                             max_size=3 * n))
        for u, v in pairs:
            if u == v or v in rows[u]:
                continue
            rows[u].append(v)
            if not directed and u not in rows[v]:
                rows[v].append(u)
    return rows, directed


def _container(draw, values):
    kind = draw(st.sampled_from(["list", "tuple", "set", "array", "numpy"]))
    if kind == "tuple":
        return tuple(values)
    if kind == "set":
        try:
            return set(values) if len(set(map(repr, values))) == len(values) else values
        except TypeError:  # unhashable junk
            return values
    if kind == "array" and all(type(v) is int and -(2**31) <= v < 2**31 for v in values):
        return array("i", values)
    if kind == "numpy" and np is not None and all(type(v) is int for v in values):
        dtype = draw(st.sampled_from(["int64", "int8", "uint64", "float64", "object"]))
        with contextlib.suppress(OverflowError):
            return np.array(values, dtype=dtype)
    return list(values)


@st.composite
def near_valid_adjacency(draw):
    rows, directed = draw(small_graphs())
    rows = [list(row) for row in rows]
    for _ in range(draw(st.integers(0, 2))):
        if not rows:
            break
        u = draw(st.integers(0, len(rows) - 1))
        if not isinstance(rows[u], list):
            continue  # already replaced by junk
        what = draw(st.sampled_from(["element", "drop", "duplicate", "self", "row"]))
        if what == "element" and rows[u]:
            rows[u][draw(st.integers(0, len(rows[u]) - 1))] = draw(ELEMENTS)
        elif what == "drop" and rows[u]:
            rows[u].pop()
        elif what == "duplicate" and rows[u]:
            rows[u].append(rows[u][0])
        elif what == "self":
            rows[u].append(u)
        elif what == "row":
            rows[u] = draw(JUNK)
    adjacency = [_container(draw, row) if isinstance(row, list) else row for row in rows]
    return (tuple(adjacency) if draw(st.booleans()) else adjacency), directed


@st.composite
def near_valid_csr(draw):
    """(indptr, indices, directed, values): values are the integers, or None if unreadable."""
    rows, directed = draw(small_graphs())
    indptr = [0]
    for row in rows:
        indptr.append(indptr[-1] + len(row))
    indices = [v for row in rows for v in row]
    for _ in range(draw(st.integers(0, 2))):
        what = draw(st.sampled_from(["start", "swap", "index", "short", "long", "shift"]))
        if what == "start":
            indptr[0] = draw(st.sampled_from([1, -1, 3]))
        elif what == "swap" and len(indptr) > 2:
            i = draw(st.integers(0, len(indptr) - 2))
            indptr[i], indptr[i + 1] = indptr[i + 1], indptr[i]
        elif what == "index" and indices:
            indices[draw(st.integers(0, len(indices) - 1))] = draw(
                st.sampled_from([-1, len(rows), len(rows) + 5, 2**31 - 1, -(2**31), 2**40]))
        elif what == "short" and indices:
            indices.pop()
        elif what == "long":
            indices.append(0)
        elif what == "shift":
            indptr = [x + 1 for x in indptr]
    return _csr_form(draw, indptr), _csr_form(draw, indices), directed, (indptr, indices)


def _csr_form(draw, values):
    """``values`` as a list, array, memoryview, or numpy array of some dtype and stride."""
    kind = draw(st.sampled_from(["list", "tuple", "array", "memoryview", "numpy"]))
    fits32 = all(-(2**31) <= v < 2**31 for v in values)
    if kind == "tuple":
        return tuple(values)
    if kind in ("array", "memoryview") and fits32:
        data = array(draw(st.sampled_from(["i", "q", "h"])) if max(map(abs, values), default=0)
                     < 2**15 else "i", values)
        return memoryview(data) if kind == "memoryview" else data
    if kind == "numpy" and np is not None:
        dtype = draw(st.sampled_from(["int32", "int64", "int8", "uint64", ">i4", "float64",
                                      "bool", "object"]))
        try:
            data = np.array(values, dtype=dtype)
        except OverflowError:
            return list(values)
        if draw(st.booleans()):
            data = np.repeat(data, 2)[::2]  # not contiguous
        return data
    return list(values)


def _readable(obj):
    """The integers the package should read from a CSR argument, or Invalid."""
    if np is not None and isinstance(obj, np.ndarray) and obj.dtype.kind not in "iu":
        raise Invalid  # floats, bools, objects: not integer buffers
    return [as_id(v) for v in obj]


# -- properties: the Graph layer and the public API --------------------------------


@SUITE
@given(obj=JUNK, directed=st.booleans())
def test_graph_of_anything(engine, obj, directed):
    FUZZ_COUNTS[engine.__name__] += 1
    try:
        rows = reference_rows(obj, directed)
    except (Invalid, TypeError):
        rows = None
    try:
        graph = Graph(obj, directed=directed)
    except API_ERRORS:
        return
    # Accepted: it must be a valid graph with exactly the given neighbours.
    assert rows is not None and graph.adjacency() == rows
    if graph.n <= 5:
        # By ids (a mapping's keys may be labels other than 0..n-1).
        check_against_oracle(Graph(rows, directed=directed), engine)


@SUITE
@given(near=near_valid_adjacency())
def test_near_valid_adjacency(engine, near):
    FUZZ_COUNTS[engine.__name__] += 1
    adjacency, directed = near
    try:
        rows = reference_rows(adjacency, directed)
    except Invalid:
        rows = None
    try:
        graph = Graph(adjacency, directed=directed)
    except API_ERRORS as error:
        assert rows is None, f"valid input refused: {error}"
        assert str(error)
        return
    assert rows is not None, "invalid input accepted"
    assert graph.adjacency() == rows
    check_against_oracle(graph, engine)


@SUITE
@given(n=st.one_of(st.integers(-3, 6), ODD_INTS.filter(lambda x: x < 0 or x > 2**30), JUNK),
       edges=st.one_of(st.lists(st.tuples(ELEMENTS, ELEMENTS), max_size=6),
                       st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=8),
                       JUNK),
       directed=st.booleans())
def test_from_edges(engine, n, edges, directed):
    FUZZ_COUNTS[engine.__name__] += 1
    try:
        graph = Graph.from_edges(n, edges, directed=directed)
    except API_ERRORS as error:
        assert str(error)
        return
    # Accepted: n is an int and every edge a distinct valid pair.
    assert as_id(n) == graph.n
    expected = [[] for _ in range(graph.n)]
    for u, v in edges:
        expected[as_id(u)].append(as_id(v))
        if not directed:
            expected[as_id(v)].append(as_id(u))
    assert graph.adjacency() == expected
    check_against_oracle(graph, engine)


@SUITE
@given(csr=near_valid_csr())
def test_from_csr(engine, csr):
    FUZZ_COUNTS[engine.__name__] += 1
    indptr, indices, directed, (ip, ix) = csr
    try:
        _readable(indptr), _readable(indices)
        if isinstance(indptr, np.ndarray if np is not None else ()) and indptr.ndim != 1:
            raise Invalid
        n = len(ip) - 1
        assert n >= 0
        if ip[0] != 0 or ip[-1] != len(ix) or any(a > b for a, b in itertools.pairwise(ip)):
            raise Invalid
        rows = reference_rows([ix[ip[u] : ip[u + 1]] for u in range(n)], directed)
    except Invalid:
        rows = None
    try:
        graph = Graph.from_csr(indptr, indices, directed=directed)
    except API_ERRORS as error:
        assert rows is None, f"valid CSR refused: {error}"
        return
    assert rows is not None, "invalid CSR accepted"
    assert graph.adjacency() == rows
    check_against_oracle(graph, engine)


@SUITE
@given(g=small_graphs(max_n=6), mouse=st.one_of(st.integers(-1, 7), ELEMENTS),
       cat=st.one_of(st.integers(-1, 7), ELEMENTS), hole=st.one_of(st.integers(-1, 7), ELEMENTS),
       max_memory=st.one_of(st.none(), st.integers(-1, 10**6), ELEMENTS))
def test_solve_arguments(engine, g, mouse, cat, hole, max_memory):
    FUZZ_COUNTS[engine.__name__] += 1
    rows, directed = g
    graph = Graph(rows, directed=directed)
    with on_engine(engine):
        try:
            got = catmouse.solve(graph, mouse=mouse, cat=cat, hole=hole, max_memory=max_memory)
        except API_ERRORS + (MemoryError,) as error:
            if isinstance(error, MemoryError):
                # Only a cap below what this engine says the search needs may refuse (the
                # twin's Python objects make that about 15 kB on 2 nodes, not 2 * n * n * 9).
                assert as_id(max_memory) < need_bytes(graph.n, outcome=False, remoteness=False,
                                                      target=True)
            return
    m, c, h = as_id(mouse), as_id(cat), as_id(hole)
    assert 0 <= m < graph.n and 0 <= c < graph.n and 0 <= h < graph.n and c != h
    assert got == solve_classic(rows, h).outcome[m, c, MOUSE]


@SUITE
@given(obj=JUNK, kwargs=st.dictionaries(st.sampled_from(["mouse", "cat", "hole", "max_memory"]),
                                        JUNK, max_size=2))
def test_api_with_anything(engine, obj, kwargs):
    FUZZ_COUNTS[engine.__name__] += 1
    with on_engine(engine):
        for call in (catmouse.solve, catmouse.analyze):
            if call is catmouse.analyze:
                kwargs = {k: v for k, v in kwargs.items() if k in ("hole", "max_memory")}
            with contextlib.suppress(API_ERRORS):
                result = call(obj, **kwargs)
                # Accepted: then the input was a valid graph and the answer is checked.
                check_against_oracle(Graph(obj), engine)
                assert result is not None


# -- properties: the raw engine entry -------------------------------------------------


def _csr_of(rows):
    indptr = [0]
    for row in rows:
        indptr.append(indptr[-1] + len(row))
    return array("i", indptr), array("i", [v for row in rows for v in row])


@st.composite
def raw_calls(draw):
    """(args, kwargs, spoilt, how): a valid engine call, and one with an argument spoilt.

    ``how`` says what the spoilt call may give: "same" (the valid call's answer, or
    an error), "bad" (an error), "junk" (an error or anything: it may be valid).
    Each reverse CSR is its move graph's transpose, as ``Graph`` makes them, and
    both twins must give the same answer.  A reverse that is not the transpose
    is a spoilt argument like any other ("junk"): the engines only promise to
    read it safely, since they read moves forward and schedule work backward.
    """
    n = draw(st.integers(0, 5))

    def rows():
        return [draw(st.lists(st.integers(0, n - 1), max_size=3)) if n else []
                for _ in range(n)]

    def transpose(forward):
        backward = [[] for _ in range(n)]
        for u, row in enumerate(forward):
            for v in row:
                backward[v].append(u)
        return backward

    mouse, cat = rows(), rows()
    csr = [part for graph in (mouse, transpose(mouse), cat, transpose(cat))
           for part in _csr_of(graph)]
    flags = bytearray(draw(st.lists(st.sampled_from([0, 1, 2, 4, 3, 255]), min_size=n,
                                    max_size=n)))
    size = 2 * n * n
    args = [n, flags, *csr]
    if size and draw(st.booleans()):
        kwargs = {"target": draw(st.integers(0, size - 1))}
    else:
        kwargs = {"outcome": bytearray(size)}
        if draw(st.booleans()):
            kwargs["remoteness"] = array("i", [7]) * size
    slot = draw(st.sampled_from(list(range(len(args))) + list(kwargs) + ["drop", "add"]))
    bad_args, bad_kwargs = list(args), dict(kwargs)
    if slot == "drop":  # no outcome buffer and no target
        bad_kwargs.pop("target", None)
        bad_kwargs.pop("outcome", None)
        how = "bad"
    elif slot == "add":  # both an outcome buffer and a target, or a stray remoteness
        bad_kwargs.setdefault("target", 0)
        bad_kwargs.setdefault("remoteness", array("i", [0]) * size)
        how = "bad"
    else:
        value = args[slot] if isinstance(slot, int) else kwargs[slot]
        new, how = _spoil(draw, value, slot, n, size)
        if isinstance(slot, int):
            bad_args[slot] = new
        else:
            bad_kwargs[slot] = new
    return (args, kwargs), (bad_args, bad_kwargs), how


def _typed(values, like):
    return np.array(values, dtype="uint8" if isinstance(like, bytearray) else "int32")


def _spoil(draw, value, slot, n, size):
    """A spoilt ``value`` and what it may give ("same", "bad" or "junk")."""
    kind = draw(st.sampled_from(["junk", "same", "length", "value", "dtype", "2d",
                                 "strided", "readonly", "permuted"]))
    if kind == "junk":
        return draw(JUNK), "junk"
    if kind == "permuted":
        if slot in (3, 5, 7, 9) and len(set(value)) > 1:
            # Indices no longer the transpose of (or equal to) their partner's.
            values = list(value)
            k = next(k for k, v in enumerate(values) if v != values[0])
            values[0], values[k] = values[k], values[0]
            return array("i", values), "junk"
        kind = "same"
    if isinstance(value, int):  # n or target
        if kind == "same":
            same = [value] + ([np.int64(value), np.int32(value)] if np is not None else [])
            return draw(st.sampled_from(same)), "same"
        if slot == "target":
            return draw(st.sampled_from([size, size + 1, 2**31, 2**40, float(value),
                                         math.nan, 0.5])), "bad"
        return draw(st.sampled_from([value + 1, value - 1, -1, 2**31, 2**40, -(2**63) - 1,
                                     32768, float(value), math.nan, None])), "bad"
    values = list(value)
    output = slot in ("outcome", "remoteness")
    if kind == "same" or np is None:
        if isinstance(value, bytearray) and not output:
            return bytes(value), "same"
        return (_typed(values, value) if np is not None else value), "same"
    if kind == "length":
        make = bytearray if isinstance(value, bytearray) else (lambda v: array("i", v))
        if values and draw(st.booleans()):
            return make(values[:-1]), "bad"
        return make(values + (values[:1] or [0])), "bad"
    if kind == "value":
        if isinstance(value, bytearray) or output or not values:
            return value, "same"  # any byte is a valid flag, any output cell is overwritten
        k = draw(st.integers(0, len(values) - 1))
        if slot in (2, 4, 6, 8) and draw(st.booleans()):
            values[-1] += draw(st.sampled_from([1, -1, 2**20]))  # indptr not ending at len
        elif slot in (2, 4, 6, 8):
            values[k] = -1  # a start other than 0, or a fall
        else:  # indices off the board
            values[k] = draw(st.sampled_from([-1, n, n + 3, 2**31 - 1, -(2**31)]))
        return array("i", values), "bad"
    if kind == "dtype":
        dtype = draw(st.sampled_from(["int64", "float64", "bool", "int8", "uint32", "float32"]))
        if values and max(values) > 1 and dtype == "bool":
            dtype = "float64"
        # astype wraps (flag 255 as int8 is the same byte); values stay exact otherwise.
        return np.array(values, dtype="int64").astype(dtype), "junk" if output else "same"
    if kind == "2d":
        if values and len(values) % 2 == 0:
            return _typed(values, value).reshape(2, -1), "same"
        return _typed(values, value)[None, :], "same"
    if kind == "strided":
        return np.repeat(_typed(values, value), 2)[::2], "same"
    # read-only
    readonly = bytes(value) if isinstance(value, bytearray) else \
        memoryview(array("i", values)).toreadonly()
    return readonly, "bad" if output else "same"


def _run(engine, call):
    """Call the engine on private copies of the output buffers: (result, tables) or error."""
    args, kwargs = call
    kwargs = dict(kwargs)
    for key in ("outcome", "remoteness"):
        value = kwargs.get(key)
        if isinstance(value, bytearray):
            kwargs[key] = bytearray(value)
        elif isinstance(value, array):
            kwargs[key] = array(value.typecode, value)
        elif np is not None and isinstance(value, np.ndarray):
            kwargs[key] = value.copy()
    try:
        result = engine.propagate(*args, **kwargs)
    except RAW_ERRORS as error:
        return error
    tables = tuple(bytes(memoryview(kwargs[k]).cast("B")) if kwargs.get(k) is not None
                   else None for k in ("outcome", "remoteness"))
    return result, tables


@SUITE
@given(call=raw_calls())
def test_raw_engine_entry(engine, call):
    FUZZ_COUNTS[engine.__name__] += 1
    valid, spoilt, how = call
    # The valid call: both twins give the same tables, bit for bit.
    reference = _run(importlib.import_module("catmouse.engine.bits_py"), valid)
    assert not isinstance(reference, Exception), reference
    assert _run(engine, valid) == reference
    got = _run(engine, spoilt)
    if isinstance(got, Exception):
        assert str(got) or isinstance(got, OverflowError)
        return
    assert how != "bad", f"accepted a spoilt call: {spoilt}"
    if how == "same":
        assert got == reference


# -- regressions the properties found --------------------------------------------


@pytest.mark.parametrize("directed", [False, True])
def test_csr_of_no_nodes_must_start_at_zero(directed):
    with pytest.raises(ValueError, match="indptr\\[0\\]"):
        Graph.from_csr([3], [7, 8, 9], directed=directed)
    assert Graph.from_csr([0], [], directed=directed).n == 0


@pytest.mark.skipif(np is None, reason="numpy")
@pytest.mark.parametrize("dtype", [">i4", ">i8", ">u2", "<i8"])
def test_csr_of_either_byte_order(dtype):
    graph = Graph.from_csr(np.array([0, 1, 3, 4], dtype), np.array([1, 0, 2, 1], dtype))
    assert graph.adjacency() == [[1], [0, 2], [1]]


def test_from_edges_refuses_huge_n_before_allocating():
    with pytest.raises(ValueError, match="too large"):
        Graph.from_edges(2**40, [])


def _triangle_call():
    indptr, indices = _csr_of([[1, 2], [0, 2], [0, 1]])
    return [3, bytearray([3, 0, 0]), *[indptr, indices] * 4]


def test_raw_entry_takes_integers_only(engine):
    args = _triangle_call()
    with pytest.raises(TypeError):
        engine.propagate(3.0, *args[1:], bytearray(18))
    with pytest.raises(TypeError):
        engine.propagate(*args, target=4.5)
    nan_indptr = [0, math.nan, 4, 6]
    with pytest.raises(TypeError):
        engine.propagate(*args[:2], nan_indptr, *args[3:], bytearray(18))


@pytest.mark.skipif(np is None, reason="numpy")
def test_raw_entry_takes_uint8_and_int32_buffers_only(engine):
    args = _triangle_call()
    with pytest.raises(ValueError):
        engine.propagate(*args, bytearray(18), np.zeros(18, np.float32))
    with pytest.raises(ValueError):
        engine.propagate(*args, bytearray(18), np.zeros(18, np.uint32))
    with pytest.raises(ValueError):
        engine.propagate(3, np.array([3, 0, 0], np.uint64), *args[2:], bytearray(18))
