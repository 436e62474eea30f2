"""Checking what a Graph is built from: int32 buffers, CSR arrays, lists and matrices.

Everything here refuses bad input with a TypeError or ValueError that names what is wrong, so
that :class:`catmouse.Graph` holds only arrays the engines can read.
"""

from __future__ import annotations

import operator
import struct
import sys
from array import array
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .engine import facts

_INT32_MAX = 2**31 - 1


class DefaultNode(int):
    """A default node argument: the int it equals (LeetCode's 0, 1 or 2), known not to be the
    caller's.  An error about it says "default"; one about a node the caller passed does not.

    It hashes, compares and indexes as its int; the engines' fast paths take exact ints only,
    so the public functions pass them :func:`plain` values.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return int.__repr__(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (int, (int(self),))


#: LeetCode's starts and hole: the defaults of every function that takes them.
DEFAULT_MOUSE, DEFAULT_CAT, DEFAULT_HOLE = DefaultNode(1), DefaultNode(2), DefaultNode(0)


def plain(node: Any) -> Any:
    """``node`` as the engines' fast paths take it: a default or a numpy integer becomes
    its exact int (a numpy integer equals and hashes as that int, as a label too, so the
    answer is the same; the fast paths take exact ints only, and a batch of numpy starts
    took the slow path, 12 times slower on small lists).  operator.index, not int(): an
    array has ``__index__`` too, and int() made a float one (numpy.array(1.5)) node 1; what
    operator.index refuses goes on as it is, for the slow path's error."""
    kind = type(node)
    if kind is int:
        return node
    if kind is DefaultNode:
        return int(node)
    if kind.__module__ == "numpy" and hasattr(kind, "__index__") and not _is_numpy_bool(node):
        try:
            return operator.index(node)
        except TypeError:
            return node
    return node


def max_nodes() -> int:
    """The most nodes the engine solves (``facts.MAX_NODES``)."""
    return facts.MAX_NODES


def check_node_count(n: int, what: str = "a graph") -> None:
    """Refuse a node count the engine cannot solve, before anything is built for it."""
    limit = max_nodes()
    if n > limit:
        raise ValueError(
            f"{what} of {n} nodes is too large: catmouse solves graphs of at most "
            f"{limit} nodes (ids 0 to {limit - 1})"
        )


def _node_id(value: Any, what: str) -> int:
    """Return ``value`` as a Python int, or raise TypeError naming ``what``."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or _is_numpy_bool(value):
        raise TypeError(f"{what} is a bool ({value!r}), not a node id")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(
            f"{what} must be an integer node id, not {type(value).__name__} ({value!r})"
        ) from None


def distinct(labels: tuple[Any, ...]) -> set[Any]:
    """The set of ``labels``; empty when one cannot be a label (unhashable)."""
    try:
        return set(labels)
    except TypeError:
        return set()


def not_a_collection(obj: Any) -> bool:
    """Whether ``obj`` cannot be a collection of nodes or rows: text, bytes, something not
    iterable, or a 0-d numpy array (it has ``__iter__`` but refuses iteration: one number)."""
    return (isinstance(obj, (str, bytes, bytearray)) or not isinstance(obj, Iterable)
            or getattr(obj, "ndim", None) == 0)


def _is_numpy_bool(value: Any) -> bool:
    return type(value).__name__ in ("bool_", "bool") and type(value).__module__ == "numpy"


def _readonly_int32(values: array | bytes) -> memoryview:
    """An int32 view over ``bytes``: no one can write the storage behind it.

    A read-only view of an ``array`` still hands out the writable array as its
    ``.obj``, and writing that under a running engine crashes the process; the
    one copy made here is what keeps a Graph immutable.
    """
    data = values if isinstance(values, bytes) else values.tobytes()
    return memoryview(data).cast("i")


def _as_int32_buffer(obj: Any, name: str) -> memoryview:
    """A read-only int32 view of ``obj``: zero-copy for contiguous 4-byte ints."""
    try:
        view = memoryview(obj)
    except (TypeError, ValueError):  # (numpy refuses a datetime64 buffer with ValueError)
        view = None
    if view is not None:
        if view.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional, got {view.ndim} dimensions")
        fmt = view.format.lstrip("@=<>!")
        if view.itemsize == 4 and fmt in ("i", "l") and view.c_contiguous:
            if view.format[0] in "<>!" and view.format[0] != _NATIVE_ORDER:
                return _copy_int32(_buffer_ints(view), name)
            # Copied (one memcpy): the caller can still write its own buffer, and a
            # Graph must never change under the engine's feet (a read-only view of
            # a writable base would not stop that).
            return _readonly_int32(view.cast("B").tobytes())
        if fmt not in ("b", "B", "h", "H", "i", "I", "l", "L", "q", "Q", "n", "N"):
            raise TypeError(
                f"{name} must hold integers, got a buffer of format {view.format!r}"
            )
        return _copy_int32(_buffer_ints(view), name)
    if isinstance(obj, (str, bytes)) or not isinstance(obj, Iterable):
        raise TypeError(f"{name} must be a sequence of integers, not {type(obj).__name__}")
    return _copy_int32(
        [_node_id(v, f"{name}[{i}]") for i, v in enumerate(obj)], name
    )


_NATIVE_ORDER = "<" if array("i", [1]).tobytes()[0] == 1 else ">"


def _buffer_ints(view: memoryview) -> list:
    """The integers of a 1-D integer buffer, whatever its byte order."""
    if view.format[0] not in "<>!=":
        return view.tolist()
    # memoryview.tolist reads native formats only (numpy's ">i4" is ">i").
    order = "<" if view.format[0] == "<" else "=" if view.format[0] == "=" else ">"
    item = order + view.format[1:]
    if struct.calcsize(item) != view.itemsize:
        raise TypeError(f"cannot read a buffer of format {view.format!r}")
    return [v for (v,) in struct.iter_unpack(item, view.tobytes())]


def _known_size(obj: Any) -> int | None:
    """How many entries a sized sequence or 1-D buffer holds, without reading them."""
    try:
        view = memoryview(obj)
    except (TypeError, ValueError):
        pass
    else:
        with view:
            return len(view) if view.ndim == 1 else None
    try:
        return len(obj)
    except TypeError:
        return None


def _copy_int32(values: list, name: str) -> memoryview:
    for i, v in enumerate(values):
        if not -(2**31) <= v <= _INT32_MAX:
            raise ValueError(f"{name}[{i}] = {v} does not fit in int32")
    return _readonly_int32(array("i", values))


def _check_row(u: int, ids: list[int], n: int) -> None:
    """Node ``u``'s neighbours: in range, not ``u`` itself, each listed once."""
    for v in ids:
        if not 0 <= v < n:
            raise ValueError(f"node {u} lists neighbour {v}, but node ids run from 0 to {n - 1}")
        if v == u:
            raise ValueError(f"node {u} lists itself as a neighbour (self-loop)")
    if len(set(ids)) != len(ids):
        dup = next(v for v in ids if ids.count(v) > 1)
        raise ValueError(f"node {u} lists neighbour {dup} more than once")


def _reads_as_matrix(rows: Sequence[Any]) -> bool:
    """Whether neighbour lists that failed their checks are a square 0/1 matrix instead."""
    n = len(rows)
    try:
        return n > 1 and all(len(row) == n and all(type(v) is int and v in (0, 1) for v in row)
                             for row in rows)
    except TypeError:  # a row without a length
        return False


def _csr_from_lists(adjacency: Any) -> tuple[int, array, array]:
    """Validate adjacency lists; return ``(n, indptr, indices)``.

    Checks types, ranges, self-loops and duplicate neighbours; symmetry is
    checked by the caller, which knows whether the graph is directed.
    """
    if isinstance(adjacency, (str, bytes, bytearray)) or not isinstance(adjacency, Sequence):
        # A mapping iterates over its keys, which would be misread as rows.
        if not_a_collection(adjacency) or isinstance(adjacency, Mapping):
            raise TypeError(
                "a graph must be a sequence of neighbour lists, "
                f"not {type(adjacency).__name__}"
            )
        adjacency = list(adjacency)
    n = len(adjacency)
    check_node_count(n)
    indptr = array("i", [0]) * (n + 1)
    indices = array("i")
    total = 0
    for u, row in enumerate(adjacency):
        if not_a_collection(row) or isinstance(row, dict):
            raise TypeError(
                f"node {u}'s neighbours must be a list of node ids, not {type(row).__name__}"
            )
        ids = [_node_id(v, f"neighbour {j} of node {u}") for j, v in enumerate(row)]
        try:
            _check_row(u, ids, n)
        except ValueError as error:
            if _reads_as_matrix(adjacency):
                raise ValueError(f"{error}; these rows read as a 0/1 adjacency matrix, but a "
                                 "graph's rows are neighbour lists (in Python, a 2-D array, "
                                 "numpy.array(rows), is read as a matrix)") from None
            raise
        indices.extend(ids)
        total += len(ids)
        indptr[u + 1] = total
    return n, indptr, indices


def mapping_rows(mapping: Mapping[Any, Any], directed: bool
                 ) -> tuple[tuple[Any, ...], dict[Any, int], list[list[int]]]:
    """``{node: iterable of neighbours}`` checked: ``(labels, label -> id, rows of ids)``.

    The keys, in order, are the nodes; a neighbour that is no key, a self-loop, a neighbour
    listed twice or (undirected) an edge listed one way is an error naming the nodes.
    """
    check_node_count(len(mapping), "a mapping of neighbours")
    labels = tuple(mapping)
    index: dict[Any, int] = {label: i for i, label in enumerate(labels)}
    rows: list[list[int]] = []
    for label in labels:
        neighbours = mapping[label]
        if not_a_collection(neighbours):
            raise TypeError(f"node {label!r}'s neighbours must be an iterable of nodes, "
                            f"not {type(neighbours).__name__}")
        row = []
        for other in neighbours:
            try:
                v = index.get(other)
            except TypeError:  # unhashable: no key
                v = None
            if v is None:
                raise ValueError(f"node {label!r} lists neighbour {other!r}, which is not "
                                 "a key of the mapping (every node is a key)")
            if v == len(rows):
                raise ValueError(f"node {label!r} lists itself as a neighbour (self-loop)")
            row.append(v)
        if len(set(row)) != len(row):
            dup = next(labels[v] for v in row if row.count(v) > 1)
            raise ValueError(f"node {label!r} lists neighbour {dup!r} more than once")
        rows.append(row)
    if not directed:
        edges = {(u, v) for u, row in enumerate(rows) for v in row}
        for u, v in sorted(edges):
            if (v, u) not in edges:
                raise ValueError(
                    f"edge {labels[u]!r}-{labels[v]!r} is listed at node {labels[u]!r} but "
                    f"not at node {labels[v]!r} (an undirected graph lists each edge both "
                    "ways; pass directed=True for one-way edges)")
    return labels, index, rows


def _check_csr(n: int, indptr: memoryview, indices: memoryview) -> None:
    """Check CSR arrays for the invariants the engine relies on."""
    if len(indptr) != n + 1:
        raise ValueError(f"indptr must have n + 1 = {n + 1} entries, got {len(indptr)}")
    if indptr[0] != 0:
        raise ValueError(f"indptr[0] must be 0, got {indptr[0]}")
    if indptr[n] != len(indices):
        raise ValueError(
            f"indptr[-1] = {indptr[n]} must equal len(indices) = {len(indices)}"
        )
    for u in range(n):
        lo, hi = indptr[u], indptr[u + 1]
        if hi < lo:
            raise ValueError(f"indptr is not monotone at node {u}: {lo} then {hi}")
        if hi > len(indices):  # (a slice would stop at the end, and blame the row it cut)
            raise ValueError(f"indptr[{u + 1}] = {hi} runs past the end of indices "
                             f"({len(indices)} entries)")
        _check_row(u, indices[lo:hi].tolist(), n)


def _reverse_csr(n: int, indptr: memoryview, indices: memoryview) -> tuple[array, array]:
    """The transpose: for each node, the nodes that have an edge into it."""
    counts = [0] * (n + 1)
    for v in indices:
        counts[v + 1] += 1
    for v in range(n):
        counts[v + 1] += counts[v]
    rindptr = array("i", counts)
    fill = counts[:-1]
    rindices = array("i", [0]) * len(indices)
    for u in range(n):
        for k in range(indptr[u], indptr[u + 1]):
            v = indices[k]
            rindices[fill[v]] = u
            fill[v] += 1
    return rindptr, rindices


def _check_symmetric(n: int, indptr: memoryview, indices: memoryview) -> None:
    edges = set()
    for u in range(n):
        for v in indices[indptr[u] : indptr[u + 1]].tolist():
            edges.add(u * n + v)
    for key in edges:
        u, v = divmod(key, n)
        if v * n + u not in edges:
            raise ValueError(
                f"edge {u}-{v} is listed at node {u} but not at node {v} "
                "(an undirected graph lists each edge both ways; pass directed=True "
                "for one-way edges)"
            )


def _matrix_rows(matrix: Any) -> tuple[int, list[list[int]]]:
    """Each row's columns holding 1 in a square 0/1 matrix, checked."""
    if hasattr(matrix, "tocsr") and hasattr(matrix, "shape"):
        shape = tuple(matrix.shape)
        if len(shape) == 2:
            check_node_count(max(shape), "an adjacency matrix")  # before converting it
        csr = matrix.tocsr()
        indptr, indices, data = csr.indptr.tolist(), csr.indices.tolist(), csr.data.tolist()
        get_rows = None
    else:
        try:
            view = memoryview(matrix)
        except (TypeError, ValueError):  # (numpy refuses a datetime64 buffer with ValueError)
            dtype = getattr(matrix, "dtype", None)
            of = "" if dtype is None else f" of dtype {dtype}"
            raise TypeError(f"an adjacency matrix must be a 2-D array of numbers or a "
                            f"scipy.sparse matrix, not {type(matrix).__name__}{of}") from None
        shape = view.shape or ()
        get_rows = view
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"an adjacency matrix must be square, got shape {shape}")
    n = shape[0]
    check_node_count(n, "an adjacency matrix")
    rows: list[list[int]] = []
    if get_rows is not None:
        for u, values in enumerate(_dense_rows(get_rows)):
            row = []
            for v, x in enumerate(values):
                if x:  # NaN too, which _check_entry refuses
                    _check_entry(u, v, x)
                    row.append(v)
            rows.append(row)
        return n, rows
    for u in range(n):
        row = []
        for k in range(indptr[u], indptr[u + 1]):
            v, x = indices[k], data[k]
            if x == 0:  # an explicitly stored zero is no edge
                continue
            _check_entry(u, v, x)
            row.append(v)
        rows.append(sorted(row))  # tocsr summed any duplicates
    return n, rows


def _dense_rows(view: memoryview) -> Any:
    if view.format.lstrip("@=<>!") in ("?", "b", "B", "h", "H", "i", "I", "l", "L", "q", "Q",
                                       "f", "d") and view.format[0] not in "<>!":
        return view.tolist()
    if view.format[-1:] in ("s", "w", "c", "u"):  # text (numpy's str and bytes arrays)
        raise TypeError(f"an adjacency matrix holds numbers (0 and 1, or booleans), not text "
                        f"(buffer format {view.format!r})")
    # numpy dtypes memoryview cannot read (non-native byte order, say): ask numpy.
    numpy = __import__("numpy")
    return numpy.asarray(view.obj).tolist()


def _check_entry(u: int, v: int, value: Any) -> None:
    if not isinstance(value, (int, float)):  # (an object array's entries: anything)
        raise TypeError(f"adjacency matrix entry ({u}, {v}) is {value!r}: entries must be 0 "
                        "or 1 (or booleans)")
    if u == v:
        raise ValueError(
            f"the adjacency matrix has {value!r} on its diagonal at ({u}, {u}): a self-loop at "
            f"node {u}, which graphs may not have (to let a player stay put, use "
            "Game(..., mouse_stays=True) or cat_stays=True)"
        )
    if value != 1:
        raise ValueError(
            f"adjacency matrix entry ({u}, {v}) is {value!r}: entries must be 0 or 1 "
            "(or booleans)"
        )


def _check_matrix_symmetric(rows: list[list[int]]) -> None:
    edges = {(u, v) for u, row in enumerate(rows) for v in row}
    for u, v in sorted(edges):
        if (v, u) not in edges:
            raise ValueError(
                f"the adjacency matrix is not symmetric: entry ({u}, {v}) is 1 but "
                f"({v}, {u}) is 0 (pass directed=True for one-way edges)"
            )


# Pickles and exports store int32 tables little-endian, whatever machine wrote them, and say so
# ("<"); a pickle without the mark (0.1.0's) is read as little-endian, as x86-64 wrote it.
STORED_ORDER = "<"
_NATIVE = "<" if sys.byteorder == "little" else ">"


def int32_bytes(data: bytes, order: str, to: str) -> bytes:
    """``data`` (int32 items in byte order ``order``, ``"<"`` or ``">"``) in order ``to``."""
    if order not in ("<", ">"):
        raise ValueError(f"unknown byte order {order!r} (expected '<' or '>')")
    if order == to or not data:
        return data
    if len(data) % 4:
        raise ValueError("int32 bytes must come in groups of 4")
    items = array("i")
    items.frombytes(data)
    items.byteswap()
    return items.tobytes()


def stored(data: bytes) -> bytes:
    """Native int32 bytes as pickles store them (little-endian)."""
    return int32_bytes(data, _NATIVE, STORED_ORDER)


def native(data: bytes, order: str = STORED_ORDER) -> bytes:
    """Stored int32 bytes (in ``order``) as this machine reads them."""
    return int32_bytes(data, order, _NATIVE)


def place_edge(rows: list[list[int]], seen: set[tuple[int, int]], u: int, v: int,
               directed: bool, shown: Any, twice: str = "is listed more than once") -> None:
    """Add edge ``u``-``v`` to ``rows`` once, refusing a self-loop or a repeat.

    ``shown()`` names the edge in an error (called only then: the happy path formats nothing).
    """
    if u == v:
        raise ValueError(f"{shown()} is a self-loop")
    key = (u, v) if directed else (min(u, v), max(u, v))
    if key in seen:
        raise ValueError(f"{shown()} {twice}")
    seen.add(key)
    rows[u].append(v)
    if not directed:
        rows[v].append(u)


def check_direction_kept(is_directed: bool, directed: bool | None, what: str) -> None:
    """Refuse a ``directed=`` that contradicts a graph that says which it is (None: as it
    says)."""
    if directed is None or bool(directed) == is_directed:
        return
    if is_directed:
        how = "G.to_undirected()" if "networkx" in what else "its edges listed both ways"
        raise ValueError(f"directed=False, but {what} is directed: leave directed out to keep "
                         f"its one-way edges, or make it undirected first ({how})")
    raise ValueError(f"directed=True, but {what} is undirected: leave directed out, or give "
                     "one-way edges (a networkx DiGraph, or lists with directed=True)")
