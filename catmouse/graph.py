"""Graph: the board, validated once and kept in compressed sparse row form.

Every entry point of the package accepts a :class:`Graph` or raw adjacency lists;
a ``Graph`` is immutable, so building one outside a hot loop and reusing it skips
validation and conversion on every call.
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from . import engine as _engine
from .display import Displayed
from .graph_checks import (
    DEFAULT_CAT,
    DEFAULT_HOLE,
    DEFAULT_MOUSE,
    STORED_ORDER,
    DefaultNode,
    _as_int32_buffer,
    _check_csr,
    _check_matrix_symmetric,
    _check_symmetric,
    _csr_from_lists,
    _is_numpy_bool,
    _known_size,
    _matrix_rows,
    _node_id,
    _readonly_int32,
    _reverse_csr,
    check_direction_kept,
    check_node_count,
    distinct,
    mapping_rows,
    native,
    not_a_collection,
    place_edge,
    plain,
    stored,
)

if TYPE_CHECKING:
    from .io.graph_files import GraphFile

__all__ = ["DEFAULT_CAT", "DEFAULT_HOLE", "DEFAULT_MOUSE", "Graph", "GraphLike", "as_graph",
           "plain"]

# The engine reads CSR arrays as C int32; array('i') is that on every platform
# CPython supports, which this check keeps honest.
if array("i").itemsize != 4:  # pragma: no cover
    raise ImportError("catmouse needs a 4-byte C int")

def _not_a_node(graph: Graph, value: Any, what: str) -> str:
    """Why ``value`` names no node of a labelled graph, and which argument to pass instead.

    ``what`` is the argument (``"hole"``) or one item of a collection (``"holes[0]"``).
    """
    arg = what.split("[")[0]
    note = " (LeetCode's default)" if type(value) is DefaultNode else ""
    if arg == what:
        return (f"{arg}={value!r}{note} is not a node of this graph (its nodes are "
                f"{graph._nodes_text()}): pass {arg}=<one of them>")
    return (f"{arg} names {value!r}{note}, which is not a node of this graph (its nodes "
            f"are {graph._nodes_text()}): pass {arg}=(...) with its nodes")


def _is_networkx(obj: Any) -> bool:
    return all(hasattr(obj, name) for name in ("nodes", "adj", "is_directed"))


def held_graph(obj: Any) -> Graph | None:
    """The Graph a reader's answer holds (a :class:`~catmouse.GraphFile`), else None.

    Known by its shape, a ``graph`` that is a Graph beside a ``source``, because the readers
    live above this module (catmouse/io/ imports it, never the other way round).
    """
    graph = getattr(obj, "graph", None)
    return graph if isinstance(graph, Graph) and hasattr(obj, "source") else None


def _natural_graph(obj: Any, directed: bool | None) -> Graph | None:
    """A networkx graph, a mapping of neighbours, a GraphFile or an adjacency matrix as a
    Graph; None for anything else.  ``directed`` None: as a networkx graph or a GraphFile
    says, else undirected."""
    held = held_graph(obj)
    if held is not None:
        check_direction_kept(held.directed, directed, "the file's graph")
        return held
    if _is_networkx(obj):
        check_direction_kept(bool(obj.is_directed()), directed, "the networkx graph")
        return Graph.from_networkx(obj)
    directed = bool(directed)
    # A sparse matrix before a mapping: scipy's dok format is a dict of (row, column) keys.
    if hasattr(obj, "tocsr") and hasattr(obj, "shape"):
        return Graph.from_matrix(obj, directed=directed)
    if isinstance(obj, Mapping):
        return Graph._from_mapping(obj, directed)
    if isinstance(obj, (str, bytes, bytearray, array)):
        return None  # (one-dimensional: no matrix; a memoryview may have two dimensions)
    try:
        shape = memoryview(obj).shape or ()
    except (TypeError, ValueError):  # (numpy refuses a datetime64 buffer with ValueError)
        return None
    if len(shape) == 2:
        check_node_count(max(shape), "an adjacency matrix")  # before converting it
    # Only a square 2-D array is a matrix: n distinct neighbours per node cannot be
    # adjacency lists (a node has at most n - 1), so nothing valid is misread.
    if len(shape) == 2 and shape[0] == shape[1]:
        return Graph.from_matrix(obj, directed=directed)
    if type(obj) is memoryview and len(shape) > 1:
        # A memoryview gives no row of itself, so it cannot be lists: the matrix's error.
        return Graph.from_matrix(obj, directed=directed)
    return None


class Graph(Displayed):
    """An immutable graph in CSR form, validated once.

    ``Graph(adjacency)`` takes LeetCode-style adjacency lists: ``adjacency[u]``
    lists the neighbours of node ``u``; or a mapping ``{node: neighbours}``
    (its keys, in order, are the nodes: labels, unless they are ``0..n-1``), a
    networkx graph, a 0/1 matrix, or a reader's :class:`~catmouse.GraphFile`.
    Undirected graphs (the default) must list every edge both ways;
    ``directed=True`` makes each listed edge one-way.  Left out, ``directed``
    follows a Graph, networkx graph or GraphFile; given, it must agree.

    >>> g = Graph([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    >>> g.n, g.num_edges
    (6, 7)
    >>> g.neighbors(2)
    (0, 4, 5)

    **Node names.**  A graph built from networkx (:meth:`from_networkx`, or a
    networkx graph passed anywhere) is *labelled*: its nodes are named by their
    labels wherever a node goes in or comes out (starts, holes, ``outcome``,
    ``remoteness``, ``best_moves``, ``line``, ``Game`` node sets, ``neighbors``,
    errors and reprs), and a value that is not a label is an error, never read
    as a node id.  Other graphs name nodes by their ids ``0..n-1``.  Indexed by
    ids on every graph: the tables (``Analysis.outcomes``, ``remoteness_table``,
    ``outcomes_for``, ``remoteness_for``), ``indptr``/``indices``,
    :meth:`adjacency`; :meth:`index` and :meth:`label` translate.

    **Defaults** are LeetCode 913's nodes, read as names on every graph (on a
    labelled graph, the nodes labelled 0, 1 and 2):

    =========  ========  ==========================================================
    argument   default   taken by
    =========  ========  ==========================================================
    ``hole``   ``0``     ``solve``, ``solve_many``, ``analyze``, ``draw``, ``Game``
    ``holes``  ``(0,)``  ``Game``
    ``mouse``  ``1``     ``solve``, ``solve_many``, ``Analysis`` queries, ``draw``
    ``cat``    ``2``     ``solve``, ``solve_many``, ``Analysis`` queries, ``draw``
    =========  ========  ==========================================================

    Where a default is not a node of the graph (nodes named ``1..n``, or
    strings), the call stops with a ValueError naming the argument to pass,
    e.g. ``hole=0 (LeetCode's default) is not a node of this graph (its nodes
    are 1..6): pass hole=<one of them>`` (without "default" when the caller
    passed it).  ``draw`` without starts draws no
    line when 1 or 2 is not a node.
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

    def __init__(self, adjacency: GraphLike, *, directed: bool | None = None):
        if isinstance(adjacency, Graph):
            check_direction_kept(adjacency.directed, directed, "an existing Graph")
            directed = adjacency.directed
            reverse = (adjacency._rindptr, adjacency._rindices)
            self._init_from(adjacency.n, adjacency._indptr, adjacency._indices, directed,
                            adjacency._labels, checked=True, reverse=reverse)
            object.__setattr__(self, "_index", adjacency._index)
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
        directed = bool(directed)  # (lists: undirected unless told)
        if type(adjacency) is list:
            check_node_count(len(adjacency))  # before the engine's builder reads the rows
        fast = _engine.current.csr_from_lists(adjacency, directed)
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
        if not_a_collection(edges):
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
            place_edge(rows, seen, u, v, directed, lambda: f"edge {k} ({u}, {v})")
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
            if not csr.has_sorted_indices:
                # A sorted copy: tocsr() of a CSR matrix is the caller's own, not ours to sort.
                csr = csr.sorted_indices()
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
        return cls(rows, directed=graph.is_directed())._name_nodes(labels, index)

    @classmethod
    def _from_mapping(cls, mapping: Mapping[Any, Any], directed: bool) -> Graph:
        """``{node: iterable of neighbours}``: the keys, in order, are the nodes.

        Keys ``0..n-1`` in that order make a plain graph (equal to its lists); any other keys
        are labels.  A neighbour that is no key is an error naming it.
        """
        labels, index, rows = mapping_rows(mapping, directed)
        self = cls(rows, directed=directed)
        if not all(type(label) is int and label == i for i, label in enumerate(labels)):
            self._name_nodes(labels, index)
        return self

    # -- the CSR arrays ---------------------------------------------------------

    @property
    def indptr(self) -> memoryview:
        """Read-only int32 view, ``n + 1`` entries: node ``u``'s moves are
        ``indices[indptr[u]:indptr[u + 1]]``, by id.  Its ``.obj`` is immutable ``bytes``."""
        return self._indptr[:]

    @property
    def indices(self) -> memoryview:
        """Read-only int32 view: every node's move destinations (ids), row after row."""
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

    def neighbors(self, node: Hashable) -> tuple[Hashable, ...]:
        """The nodes reachable from ``node`` in one move, in stored order.

        On a labelled graph ``node`` is a label and so are the answers.
        """
        node = self._check_node(self._id_of(node, "node"), "node")
        row = self._indices[self._indptr[node] : self._indptr[node + 1]].tolist()
        labels = self._labels
        return tuple(row) if labels is None else tuple(labels[v] for v in row)

    def degree(self, node: Hashable) -> int:
        """How many moves leave ``node`` (a label on a labelled graph)."""
        node = self._check_node(self._id_of(node, "node"), "node")
        return self._indptr[node + 1] - self._indptr[node]

    def adjacency(self) -> list[list[int]]:
        """The graph as adjacency lists of node ids (a fresh copy), whatever its labels."""
        return [list(row) for row in self._rows()]

    def label(self, node: int) -> Hashable:
        """The label of node id ``node`` (the id itself unless built from networkx).

        With :meth:`index`, the bridge between labels and the ids that index the
        tables (``Analysis.outcomes``, ``indptr``/``indices``).
        """
        node = self._check_node(node, "node")
        return node if self._labels is None else self._labels[node]

    def index(self, label: Hashable) -> int:
        """The node id of a label (inverse of :meth:`label`)."""
        if self._index is None:
            return self._check_node(label, "label")
        try:
            return self._index[label]
        except KeyError:
            raise ValueError(f"{label!r} is not a node of this graph") from None

    def _name_nodes(self, labels: tuple[Hashable, ...],
                    index: dict[Hashable, int] | None = None) -> Graph:
        """Name node ``i`` ``labels[i]`` (``index``: their inverse, if made); returns ``self``.

        A bool label is refused: Python takes True for 1 and False for 0 (as dict keys too), so
        such a node could not be named apart from a number, and catmouse's node arguments
        refuse bools.
        """
        for label in labels:
            if isinstance(label, bool) or _is_numpy_bool(label):
                raise ValueError(
                    f"node {label!r} is a bool, which Python takes for the number "
                    f"{1 if label else 0}: name the node otherwise (e.g. the string '{label}')")
        object.__setattr__(self, "_labels", labels)
        object.__setattr__(self, "_index", {label: i for i, label in enumerate(labels)}
                           if index is None else index)
        return self

    def _id_of(self, value: Any, what: str) -> Any:
        """The id of the node ``value`` names: its label's id on a labelled graph.

        On a labelled graph (``Graph.from_networkx``) a node is named by its label
        and nothing else: a value that is not a label is a ValueError naming the
        argument ``what``, never read as an id.  On a plain graph ``value`` is
        returned as is, for the caller's id checks.
        """
        index = self._index
        if index is None or type(value) is bool:
            return value
        try:
            node = index.get(value)
        except TypeError:  # unhashable: not a label
            node = None
        if node is None:
            raise ValueError(_not_a_node(self, value, what))
        return node

    def _name(self, node: int) -> Hashable:
        """What node id ``node`` is called outside: its label, or the id on a plain graph."""
        return node if self._labels is None else self._labels[node]

    def _nodes_text(self) -> str:
        """The graph's nodes in a few words, for error messages: ``1..6``, ``'a', 'b', 'c'``."""
        labels = self.labels
        n = len(labels)
        if not n:
            return "it has none"
        first = labels[0]
        if type(first) is int and labels == tuple(range(first, first + n)):
            return f"{first}..{first + n - 1}"
        if n <= 6:
            return ", ".join(map(repr, labels))
        return ", ".join(map(repr, labels[:3])) + f", ..., {labels[-1]!r} ({n} in all)"

    @property
    def labels(self) -> tuple[Hashable, ...]:
        """Every node's label, in node order."""
        return tuple(range(self.n)) if self._labels is None else self._labels

    @property
    def nodes(self) -> tuple[Hashable, ...]:
        """The nodes by name, in id order (a tuple: read-only): labels, or ``0..n-1``.

        >>> Graph({"a": ["b"], "b": ["a", "c"], "c": ["b"]}).nodes
        ('a', 'b', 'c')
        """
        return self.labels

    @property
    def edges(self) -> tuple[tuple[Hashable, Hashable], ...]:
        """The edges as pairs of node names, in id order: each undirected edge once (the
        lower id first), each arc of a directed graph ``(tail, head)``.

        >>> Graph({"a": ["b"], "b": ["a", "c"], "c": ["b"]}).edges
        (('a', 'b'), ('b', 'c'))
        """
        edges = self._cache.get("edges")
        if edges is None:
            name = self._name
            edges = tuple((name(u), name(v)) for u, row in enumerate(self._rows())
                          for v in row if self.directed or u < v)
            self._cache["edges"] = edges
        return edges

    def to_networkx(self) -> Any:
        """A new networkx ``Graph`` (``DiGraph`` when directed) with these nodes, in this
        order, and these edges (needs networkx).

        >>> import networkx as nx                                   # doctest: +SKIP
        >>> sorted(Graph({"a": ["b"], "b": ["a"]}).to_networkx().edges)  # doctest: +SKIP
        [('a', 'b')]
        """
        import networkx

        graph = networkx.DiGraph() if self.directed else networkx.Graph()
        graph.add_nodes_from(self.labels)
        graph.add_edges_from(self.edges)
        return graph

    def __iter__(self) -> Iterator[Hashable]:
        """The nodes by name, in id order (as :attr:`nodes`)."""
        return iter(self.labels)

    def __contains__(self, node: object) -> bool:
        """Whether ``node`` names a node: a label on a labelled graph, else an id."""
        index = self._index
        if index is not None:
            try:
                return node in index and type(node) is not bool
            except TypeError:  # unhashable: no label
                return False
        if isinstance(node, bool):
            return False
        try:
            return 0 <= operator.index(node) < self.n  # type: ignore[arg-type]
        except TypeError:
            return False

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


    def _key(self) -> tuple:
        return (self.n, self.directed, self._rows(), self._labels)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple:
        # Little-endian bytes, marked so: a pickle reads the same on any machine.
        return (_unpickle_graph, (self.n, self.directed, stored(self._indptr.tobytes()),
                                  stored(self._indices.tobytes()), self._labels, STORED_ORDER))

    def to_node_link(self, *, edges: str = "edges") -> dict[str, Any]:
        """The graph as node-link data: ``networkx.node_link_graph`` reads it back, its nodes
        named by the labels; ``json.dump`` of it is a file ``catmouse.read_json`` reads where
        every label is a string, a finite number or a tuple of them (not None: ``null``).

        The shape ``catmouse.read_json`` reads back (docs/cli.rst): each undirected edge once.
        ``edges`` is the edge list's key: ``"edges"``, networkx's default from 3.6 on, or
        ``"links"``, the default of the networkx versions before it.

        >>> Graph([[1], [0]]).to_node_link()["edges"]
        [{'source': 0, 'target': 1}]
        """
        if edges not in ("edges", "links"):
            raise ValueError(f'edges must be "edges" or "links", not {edges!r}')
        labels = self.labels
        pairs = [{"source": labels[u], "target": labels[v]}
                 for u, row in enumerate(self._rows()) for v in row if self.directed or u < v]
        return {"directed": self.directed, "multigraph": False, "graph": {},
                "nodes": [{"id": label} for label in labels], edges: pairs}


def _unpickle_graph(n, directed, indptr_bytes, indices_bytes, labels, order=STORED_ORDER):
    # Validate again: a pickle is input like any other (its node count first).
    n = _node_id(n, "a pickled Graph's n")
    check_node_count(n, "a pickled Graph")
    for name, data in (("indptr", indptr_bytes), ("indices", indices_bytes)):
        if type(data) is not bytes or len(data) % 4:
            raise ValueError(f"a pickled Graph's {name} is not int32 bytes")
    if type(directed) is not bool:
        raise ValueError(f"a pickled Graph's directed is {directed!r}, not True or False")
    if labels is not None and (type(labels) is not tuple or len(labels) != n
                               or len(distinct(labels)) != n):
        raise ValueError(f"a pickled Graph's labels are not {n} distinct labels")
    indptr_bytes, indices_bytes = native(indptr_bytes, order), native(indices_bytes, order)
    self = Graph.__new__(Graph)
    self._init_from(n, _readonly_int32(indptr_bytes), _readonly_int32(indices_bytes), directed,
                    None, checked=False)
    return self if labels is None else self._name_nodes(labels)


# What every function that takes a graph takes.  networkx graphs and adjacency matrices (numpy,
# scipy.sparse, any 2-D buffer) have no types here: the last member lets them through.
GraphLike: TypeAlias = (
    "Graph | GraphFile | Sequence[Sequence[int]] | Mapping[Any, Iterable[Any]] | Any")


def as_graph(graph: Any) -> Graph:
    """Return ``graph`` itself if it is a :class:`Graph`, else validate it into one.

    Adjacency lists, a mapping ``{node: neighbours}`` (its keys the nodes, in order), a
    networkx graph (its labels kept), a square 0/1 adjacency matrix (numpy, a 2-D buffer or
    scipy.sparse) and a reader's :class:`~catmouse.GraphFile` (its ``graph``) are all accepted.
    """
    if isinstance(graph, Graph):
        return graph
    held = held_graph(graph)
    return held if held is not None else Graph(graph)
