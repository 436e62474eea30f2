"""Graph: the board, validated once and kept in compressed sparse row form.

Every entry point of the package accepts a :class:`Graph` or raw adjacency lists;
a ``Graph`` is immutable, so building one outside a hot loop and reusing it skips
validation and conversion on every call.
"""

from __future__ import annotations

import operator
import struct
from array import array
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from . import engine as _engine
from .engine import facts

__all__ = ["Graph", "as_graph"]

# The engine reads CSR arrays as C int32; array('i') is that on every platform
# CPython supports, which this check keeps honest.
if array("i").itemsize != 4:  # pragma: no cover
    raise ImportError("catmouse needs a 4-byte C int")

_INT32_MAX = 2**31 - 1


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
    except TypeError:
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
    except TypeError:
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


def _csr_from_lists(adjacency: Any) -> tuple[int, array, array]:
    """Validate adjacency lists; return ``(n, indptr, indices)``.

    Checks types, ranges, self-loops and duplicate neighbours; symmetry is
    checked by the caller, which knows whether the graph is directed.
    """
    if isinstance(adjacency, (str, bytes, bytearray)) or not isinstance(adjacency, Sequence):
        # A mapping iterates over its keys, which would be misread as rows.
        if (not isinstance(adjacency, Iterable)
                or isinstance(adjacency, (str, bytes, bytearray, Mapping))):
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
        if isinstance(row, (str, bytes, bytearray, dict)) or not isinstance(row, Iterable):
            raise TypeError(
                f"node {u}'s neighbours must be a list of node ids, not {type(row).__name__}"
            )
        ids = [_node_id(v, f"neighbour {j} of node {u}") for j, v in enumerate(row)]
        _check_row(u, ids, n)
        indices.extend(ids)
        total += len(ids)
        indptr[u + 1] = total
    return n, indptr, indices


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


def _is_networkx(obj: Any) -> bool:
    return all(hasattr(obj, name) for name in ("nodes", "adj", "is_directed"))


def _natural_graph(obj: Any, directed: bool) -> Graph | None:
    """A networkx graph or an adjacency matrix as a Graph; None for anything else."""
    if _is_networkx(obj):
        if directed and not obj.is_directed():
            raise ValueError("directed=True, but the networkx graph is undirected "
                             "(pass a networkx DiGraph for one-way edges)")
        return Graph.from_networkx(obj)
    if hasattr(obj, "tocsr") and hasattr(obj, "shape"):
        return Graph.from_matrix(obj, directed=directed)
    if isinstance(obj, (str, bytes, bytearray, memoryview, array)):
        return None
    try:
        shape = memoryview(obj).shape or ()
    except TypeError:
        return None
    # Only a square 2-D array is a matrix: n distinct neighbours per node cannot be
    # adjacency lists (a node has at most n - 1), so nothing valid is misread.
    if len(shape) == 2 and shape[0] == shape[1]:
        return Graph.from_matrix(obj, directed=directed)
    return None


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
        except TypeError:
            raise TypeError(f"an adjacency matrix must be a 2-D array or a scipy.sparse "
                            f"matrix, not {type(matrix).__name__}") from None
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
                                       "f", "d", "e") and view.format[0] not in "<>!":
        return view.tolist()
    # numpy dtypes memoryview cannot read (non-native byte order, say): ask numpy.
    numpy = __import__("numpy")
    return numpy.asarray(view.obj).tolist()


def _check_entry(u: int, v: int, value: Any) -> None:
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


class Graph:
    """An immutable graph in CSR form, validated once.

    ``Graph(adjacency)`` takes LeetCode-style adjacency lists: ``adjacency[u]``
    lists the neighbours of node ``u``.  Undirected graphs (the default) must list
    every edge both ways; ``directed=True`` makes each listed edge one-way.

    >>> g = Graph([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    >>> g.n, g.num_edges
    (6, 7)
    >>> g.neighbors(2)
    (0, 4, 5)
    """

    __slots__ = (
        "n",
        "directed",
        "_indptr",
        "_indices",
        "_rindptr",
        "_rindices",
        "_labels",
        "_index",
        "_cache",
    )

    n: int
    directed: bool
    # int32 views over bytes (see _readonly_int32); the public properties hand out
    # fresh views of them, so a caller releasing one cannot break the graph.
    _indptr: memoryview
    _indices: memoryview
    _rindptr: memoryview
    _rindices: memoryview
    # Labels and their inverse when built from networkx, else None (labels are the ids).
    _labels: tuple[Hashable, ...] | None
    _index: dict[Hashable, int] | None
    # Derived objects memoized per graph, keyed by what they are: neighbour rows,
    # Rules per hole, compiled Boards per hole; each key's user knows its type.
    _cache: dict[Hashable, Any]

    def __init__(self, adjacency: Sequence[Sequence[int]] | Graph, *, directed: bool = False):
        if isinstance(adjacency, Graph):
            if adjacency.directed != bool(directed):
                raise ValueError("cannot change whether an existing Graph is directed")
            reverse = (adjacency._rindptr, adjacency._rindices)
            self._init_from(adjacency.n, adjacency._indptr, adjacency._indices, directed,
                            adjacency._labels, checked=True, reverse=reverse)
            return
        if type(adjacency) is not list:
            natural = _natural_graph(adjacency, directed)
            if natural is not None:
                # A networkx graph or an adjacency matrix: take over its checked arrays.
                reverse = (natural._rindptr, natural._rindices)
                self._init_from(natural.n, natural._indptr, natural._indices, natural.directed,
                                natural._labels, checked=True, reverse=reverse)
                object.__setattr__(self, "_index", natural._index)
                return
        if type(adjacency) is list:
            check_node_count(len(adjacency))  # before the engine's builder reads the rows
        fast = _engine.current.csr_from_lists(adjacency, bool(directed))
        if fast is not None:
            # The engine's builder took plain lists it found valid (it declines,
            # never raises, so the errors below stay the only ones).
            n, ip, ix, rip, rix = fast
            indptr, indices = _readonly_int32(ip), _readonly_int32(ix)
            reverse = (indptr, indices) if rip is ip else (_readonly_int32(rip),
                                                          _readonly_int32(rix))
            self._init_from(n, indptr, indices, directed, None, checked=True, reverse=reverse)
            return
        n, ip, ix = _csr_from_lists(adjacency)
        self._init_from(n, _readonly_int32(ip), _readonly_int32(ix), directed,
                        None, checked=True)

    def _init_from(self, n, indptr, indices, directed, labels, *, checked, reverse=None):
        directed = bool(directed)
        check_node_count(n)
        if not checked:
            _check_csr(n, indptr, indices)
        if not directed and reverse is None:
            _check_symmetric(n, indptr, indices)
        if reverse is not None:
            rindptr, rindices = reverse
        elif directed:
            rp, ri = _reverse_csr(n, indptr, indices)
            rindptr, rindices = _readonly_int32(rp), _readonly_int32(ri)
        else:
            # Undirected: predecessors are the neighbours themselves.
            rindptr, rindices = indptr, indices
        setter = object.__setattr__
        setter(self, "n", n)
        setter(self, "directed", directed)
        setter(self, "_indptr", indptr)
        setter(self, "_indices", indices)
        setter(self, "_rindptr", rindptr)
        setter(self, "_rindices", rindices)
        setter(self, "_labels", labels)
        setter(self, "_index", None)
        setter(self, "_cache", {})

    # -- other constructors -------------------------------------------------

    @classmethod
    def from_edges(
        cls, n: int, edges: Iterable[tuple[int, int]], *, directed: bool = False
    ) -> Graph:
        """Build a graph on nodes ``0..n-1`` from ``(u, v)`` pairs.

        Undirected edges are given once (either way round).

        >>> Graph.from_edges(3, [(0, 1), (1, 2)]).neighbors(1)
        (0, 2)
        """
        n = _node_id(n, "n")
        if n < 0:
            raise ValueError(f"n must be non-negative, got {n}")
        # Refuse before allocating a row per node.
        check_node_count(n)
        if isinstance(edges, (str, bytes)) or not isinstance(edges, Iterable):
            raise TypeError(
                f"edges must be an iterable of (u, v) pairs, not {type(edges).__name__}")
        rows: list[list[int]] = [[] for _ in range(n)]
        seen: set[tuple[int, int]] = set()
        for k, edge in enumerate(edges):
            try:
                u, v = edge
            except (TypeError, ValueError):
                raise TypeError(f"edge {k} must be a pair (u, v), got {edge!r}") from None
            u = _node_id(u, f"edge {k}'s first node")
            v = _node_id(v, f"edge {k}'s second node")
            for x in (u, v):
                if not 0 <= x < n:
                    raise ValueError(
                        f"edge {k} ({u}, {v}) names node {x}, but ids run from 0 to {n - 1}")
            if u == v:
                raise ValueError(f"edge {k} ({u}, {v}) is a self-loop")
            key = (u, v) if directed else (min(u, v), max(u, v))
            if key in seen:
                raise ValueError(f"edge {k} ({u}, {v}) is listed more than once")
            seen.add(key)
            rows[u].append(v)
            if not directed:
                rows[v].append(u)
        return cls(rows, directed=directed)

    @classmethod
    def from_csr(cls, indptr: Any, indices: Any | None = None, *, directed: bool = False) -> Graph:
        """Build a graph from CSR arrays, or from a ``scipy.sparse`` matrix.

        ``indptr`` and ``indices`` may be any integer buffers or sequences; they
        are always copied (int32 C-contiguous buffers in one ``memcpy``), so
        writing to them later cannot change the graph.
        A scipy sparse matrix or array may be passed as the only argument: its
        pattern is the graph (stored values are ignored).

        >>> Graph.from_csr([0, 1, 2], [1, 0]).neighbors(0)
        (1,)
        """
        if indices is None:
            matrix = indptr
            if not hasattr(matrix, "tocsr"):
                raise TypeError("from_csr needs indptr and indices, or one scipy.sparse matrix")
            shape = matrix.shape
            if len(shape) != 2 or shape[0] != shape[1]:
                raise ValueError(f"an adjacency matrix must be square, got shape {shape}")
            check_node_count(shape[0], "an adjacency matrix")
            csr = matrix.tocsr()
            csr.sort_indices()
            indptr, indices = csr.indptr, csr.indices
        # Refuse by n before converting (let alone reading) a huge indices array.
        size = _known_size(indptr)
        if size is not None:
            check_node_count(size - 1)
        ip = _as_int32_buffer(indptr, "indptr")
        check_node_count(len(ip) - 1)
        ix = _as_int32_buffer(indices, "indices")
        if len(ip) == 0:
            raise ValueError("indptr must have n + 1 entries, got 0")
        self = cls.__new__(cls)
        self._init_from(len(ip) - 1, ip, ix, directed, None, checked=False)
        return self

    @classmethod
    def from_matrix(cls, matrix: Any, *, directed: bool = False) -> Graph:
        """Build a graph from a square 0/1 (or bool) adjacency matrix.

        ``matrix[u][v]`` is 1 when the graph has the edge ``u -> v``: a numpy
        array, any 2-D buffer, or a ``scipy.sparse`` matrix or array (its stored
        values must be 0 or 1 too).  Undirected graphs (the default) need a
        symmetric matrix; the diagonal must be 0 (no self-loops: a player who may
        stay is a :class:`Game` option).  ``solve``, ``analyze`` and ``Graph()``
        take such matrices directly.

        >>> import numpy as np                                     # doctest: +SKIP
        >>> Graph.from_matrix(np.array([[0, 1], [1, 0]])).adjacency()  # doctest: +SKIP
        [[1], [0]]
        """
        n, rows = _matrix_rows(matrix)
        self = cls.__new__(cls)
        indptr = array("i", [0]) * (n + 1)
        indices = array("i")
        for u, row in enumerate(rows):
            indices.extend(row)
            indptr[u + 1] = len(indices)
        if not directed:
            _check_matrix_symmetric(rows)
        self._init_from(n, _readonly_int32(indptr), _readonly_int32(indices), directed, None,
                        checked=True)
        return self

    @classmethod
    def from_networkx(cls, graph: Any, *, nodes: Sequence[Hashable] | None = None) -> Graph:
        """Build a graph from a networkx graph, numbering its nodes.

        Node ``i`` of the result is ``nodes[i]`` (default: networkx's node
        order).  A directed networkx graph gives a directed ``Graph``.  Use
        :meth:`label` and :meth:`index` to translate between the two.

        >>> import networkx as nx                         # doctest: +SKIP
        >>> g = Graph.from_networkx(nx.path_graph("abc"))  # doctest: +SKIP
        >>> g.index("b"), g.label(2)                      # doctest: +SKIP
        (1, 'c')
        """
        if not all(hasattr(graph, name) for name in ("nodes", "adj", "is_directed")):
            raise TypeError(f"expected a networkx graph, not {type(graph).__name__}")
        check_node_count(len(graph), "a networkx graph")
        labels = tuple(graph.nodes if nodes is None else nodes)
        index = {}
        for i, label in enumerate(labels):
            if label not in graph:
                raise ValueError(f"node {label!r} is not in the networkx graph")
            if label in index:
                raise ValueError(f"node {label!r} is listed twice in nodes")
            index[label] = i
        if len(index) != len(graph):
            missing = next(v for v in graph.nodes if v not in index)
            raise ValueError(f"nodes leaves out networkx node {missing!r}")
        rows = []
        for label in labels:
            row = []
            for other in graph.adj[label]:
                if other == label:
                    raise ValueError(f"node {label!r} has a self-loop")
                row.append(index[other])
            rows.append(row)
        self = cls(rows, directed=graph.is_directed())
        object.__setattr__(self, "_labels", labels)
        object.__setattr__(self, "_index", index)
        return self

    # -- the CSR arrays ---------------------------------------------------------

    @property
    def indptr(self) -> memoryview:
        """Read-only int32 view, ``n + 1`` entries: node ``u``'s moves are
        ``indices[indptr[u]:indptr[u + 1]]``.  Its ``.obj`` is immutable ``bytes``."""
        return self._indptr[:]

    @property
    def indices(self) -> memoryview:
        """Read-only int32 view: every node's move destinations, row after row."""
        return self._indices[:]

    @property
    def rindptr(self) -> memoryview:
        """Read-only int32 view: :attr:`indptr` of the reversed graph (moves into a node)."""
        return self._rindptr[:]

    @property
    def rindices(self) -> memoryview:
        """Read-only int32 view: :attr:`indices` of the reversed graph."""
        return self._rindices[:]

    # -- queries --------------------------------------------------------------

    @property
    def num_edges(self) -> int:
        """Edges of the graph (an undirected edge counts once)."""
        return len(self._indices) if self.directed else len(self._indices) // 2

    def neighbors(self, node: int) -> tuple[int, ...]:
        """The nodes reachable from ``node`` in one move, in stored order."""
        node = self._check_node(node, "node")
        return tuple(self._indices[self._indptr[node] : self._indptr[node + 1]].tolist())

    def degree(self, node: int) -> int:
        """How many moves leave ``node``."""
        node = self._check_node(node, "node")
        return self._indptr[node + 1] - self._indptr[node]

    def adjacency(self) -> list[list[int]]:
        """The graph as adjacency lists (a fresh copy)."""
        return [list(row) for row in self._rows()]

    def label(self, node: int) -> Hashable:
        """The original label of node ``node`` (itself unless built from networkx)."""
        node = self._check_node(node, "node")
        return node if self._labels is None else self._labels[node]

    def index(self, label: Hashable) -> int:
        """The node id of an original label (inverse of :meth:`label`)."""
        if self._index is None:
            return self._check_node(label, "label")
        try:
            return self._index[label]
        except KeyError:
            raise ValueError(f"{label!r} is not a node of this graph") from None

    def _label_id(self, value: Any, what: str) -> Any:
        """``value``'s node id when it is one of this graph's labels, else ``value`` as is.

        Labels come first on a labelled graph (``Graph.from_networkx``); an int
        that is not a label is left to be read as a node id.  Anything else is a
        ValueError naming it.
        """
        index = self._index
        if index is None or type(value) is bool:
            return value
        try:
            node = index.get(value)
        except TypeError:  # unhashable: not a label
            node = None
        if node is not None:
            return node
        try:
            operator.index(value)
        except TypeError:
            raise ValueError(
                f"{what} {value!r} is not a node of this graph (not one of its labels)"
            ) from None
        return value

    @property
    def labels(self) -> tuple[Hashable, ...]:
        """Every node's label, in node order."""
        return tuple(range(self.n)) if self._labels is None else self._labels

    def _check_node(self, node: Any, what: str) -> int:
        node = _node_id(node, what)
        if not 0 <= node < self.n:
            raise ValueError(f"{what} {node} is not a node: ids run from 0 to {self.n - 1}")
        return node

    def _rows(self) -> tuple[tuple[int, ...], ...]:
        """Neighbour tuples per node, cached: the pure-Python paths read these."""
        rows = self._cache.get("rows")
        if rows is None:
            ip, ix = self._indptr.tolist(), self._indices.tolist()
            rows = tuple(tuple(ix[ip[u] : ip[u + 1]]) for u in range(self.n))
            self._cache["rows"] = rows
        return rows

    # -- immutability, equality, pickling ------------------------------------

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Graph is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Graph is immutable")

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        kind = "directed, " if self.directed else ""
        edges = self.num_edges
        return f"<Graph {kind}{self.n} nodes, {edges} edge{'' if edges == 1 else 's'}>"

    def _repr_svg_(self) -> str | None:
        """Jupyter's picture: the board and an optimal game (None when too big to read)."""
        from .show.draw import repr_svg

        return repr_svg(self)

    def _repr_html_(self) -> str:
        """Jupyter's display: the picture, or a short summary for a board too big to read."""
        from .show.draw import repr_html

        return repr_html(self)

    def _key(self) -> tuple:
        return (self.n, self.directed, self._rows(), self._labels)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple:
        return (_unpickle_graph, (self.n, self.directed, self._indptr.tobytes(),
                                  self._indices.tobytes(), self._labels))


def _unpickle_graph(n, directed, indptr_bytes, indices_bytes, labels):
    # Validate again: a pickle is input like any other (its node count first).
    n = _node_id(n, "a pickled Graph's n")
    check_node_count(n, "a pickled Graph")
    for name, data in (("indptr", indptr_bytes), ("indices", indices_bytes)):
        if type(data) is not bytes or len(data) % 4:
            raise ValueError(f"a pickled Graph's {name} is not int32 bytes")
    if labels is not None and (type(labels) is not tuple or len(labels) != n
                               or len(set(labels)) != n):
        raise ValueError(f"a pickled Graph's labels are not {n} distinct labels")
    self = Graph.__new__(Graph)
    self._init_from(n, _readonly_int32(indptr_bytes), _readonly_int32(indices_bytes), directed,
                    labels, checked=False)
    if labels is not None:
        object.__setattr__(self, "_index", {label: i for i, label in enumerate(labels)})
    return self


def as_graph(graph: Any) -> Graph:
    """Return ``graph`` itself if it is a :class:`Graph`, else validate it into one.

    Adjacency lists, a networkx graph (its labels kept) and a square 0/1
    adjacency matrix (numpy, a 2-D buffer or scipy.sparse) are all accepted.
    """
    return graph if isinstance(graph, Graph) else Graph(graph)
