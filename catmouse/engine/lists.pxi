# Included by bits_c.pyx. Plain adjacency lists: CSR conversion and solve_lists (the hot-loop path).

# -- adjacency lists to CSR -----------------------------------------------------------

from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.long cimport PyLong_CheckExact
from cpython.ref cimport PyObject
from libc.stdint cimport uintptr_t

# CPython preallocates the ints 0..256 as one array of objects that live as long as the
# interpreter: a list entry among them is read from its address, with no call (most node
# ids of a batch are).  The layout is checked at import, and the objects are held here, so an
# address in that range is one of them; where it differs, every entry takes the call.
cdef uintptr_t small_int_zero = 0
cdef uintptr_t small_int_limit = 0   # 0: no shortcut
cdef int small_int_shift = 0
_SMALL_INTS = [int(str(v)) for v in range(257)]


cdef void find_small_ints():
    global small_int_zero, small_int_limit, small_int_shift
    cdef uintptr_t zero = <uintptr_t> <PyObject *> _SMALL_INTS[0]
    cdef uintptr_t step = <uintptr_t> <PyObject *> _SMALL_INTS[1] - zero
    cdef int shift = 0
    cdef Py_ssize_t v
    if step == 0 or step & (step - 1) or <uintptr_t> <PyObject *> _SMALL_INTS[1] < zero:
        return
    while ((<uintptr_t> 1) << shift) < step:
        shift += 1
    for v in range(257):
        if <uintptr_t> <PyObject *> _SMALL_INTS[v] != zero + ((<uintptr_t> v) << shift):
            return
    small_int_zero = zero
    small_int_shift = shift
    small_int_limit = (<uintptr_t> 257) << shift


find_small_ints()


cdef inline long node_id(PyObject *x) noexcept:
    """A list entry as a node id: its value if a plain int 0 <= v < 2**31, else -1."""
    cdef uintptr_t d = <uintptr_t> x - small_int_zero
    cdef int overflow = 0
    cdef long v
    if d < small_int_limit and not (d & (((<uintptr_t> 1) << small_int_shift) - 1)):
        return <long> (d >> small_int_shift)
    if not PyLong_CheckExact(<object> x):
        return -1
    v = PyLong_AsLongAndOverflow(<object> x, &overflow)
    if overflow or v < 0 or v > 0x7FFFFFFF:
        return -1
    return v


cdef int64_t fill_csr(list adjacency, int32_t n, int32_t *ip, int32_t *ix, int64_t room,
                      int32_t *seen) except -2:
    """Copy plain lists of in-range ints into CSR; -1 to decline anything else.

    Declines (never raises) on: a row that is not a list, an entry that is not
    an int, an id out of range, a self-loop, a neighbour listed twice, or more
    entries than ``room``.  ``seen`` is n scratch ints.
    """
    cdef int32_t u
    cdef int64_t total = 0
    cdef long v
    cdef Py_ssize_t i, size
    cdef object row
    for u in range(n):
        seen[u] = -1
    ip[0] = 0
    for u in range(n):
        row = adjacency[u]
        if type(row) is not list:
            return -1
        size = PyList_GET_SIZE(row)
        if total + size > room:
            return -1
        for i in range(size):
            v = node_id(PyList_GET_ITEM(row, i))
            if v < 0 or v >= n or v == u or seen[v] == u:
                return -1
            seen[v] = u
            ix[total] = <int32_t> v
            total += 1
        ip[u + 1] = <int32_t> total
    return total


cdef bint masks_from_lists(list adjacency, int32_t n, uint64_t *rows) except -1:
    """For n <= 64: each node's neighbours as bits of ``rows[u]``; False to decline."""
    cdef int32_t u
    cdef long v
    cdef Py_ssize_t i
    cdef uint64_t bit, seen
    cdef object row
    for u in range(n):
        row = adjacency[u]
        if type(row) is not list:
            return False
        seen = (<uint64_t> 1) << u  # a self-loop looks like a repeat
        for i in range(PyList_GET_SIZE(row)):
            v = node_id(PyList_GET_ITEM(row, i))
            if v < 0 or v >= n:
                return False
            bit = (<uint64_t> 1) << v
            if seen & bit:
                return False
            seen |= bit
        rows[u] = seen & ~((<uint64_t> 1) << u)
    return True


cdef void transpose(int32_t n, const int32_t *ip, const int32_t *ix,
                    int32_t *rip, int32_t *rix) noexcept nogil:
    """The reverse CSR: for each node, the nodes with an edge into it, in order."""
    cdef int32_t u, v
    cdef int64_t k
    memset(rip, 0, <size_t> (n + 1) * sizeof(int32_t))
    for k in range(ip[n]):
        rip[ix[k] + 1] += 1
    for u in range(n):
        rip[u + 1] += rip[u]
    for u in range(n):
        for k in range(ip[u], ip[u + 1]):
            v = ix[k]
            rix[rip[v]] = u
            rip[v] += 1
    for u in range(n, 0, -1):
        rip[u] = rip[u - 1]
    rip[0] = 0


cdef bint symmetric(int32_t n, const int32_t *ip, const int32_t *ix, const int32_t *rip,
                    const int32_t *rix, int32_t *seen) noexcept nogil:
    """Whether every edge u->v has v->u: each node's out- and in-lists are the same set."""
    cdef int32_t u
    cdef int64_t k
    for u in range(n):
        seen[u] = -1
    for u in range(n):
        if ip[u + 1] - ip[u] != rip[u + 1] - rip[u]:
            return False
        for k in range(ip[u], ip[u + 1]):
            seen[ix[k]] = u
        for k in range(rip[u], rip[u + 1]):
            if seen[rix[k]] != u:
                return False
    return True


cdef int64_t count_entries(list adjacency) except -2:
    cdef int64_t total = 0
    for row in adjacency:
        if type(row) is not list:
            return -1
        total += len(<list> row)
    return total


cdef inline int32_t *ints(array a) noexcept:
    return <int32_t *> a.data.as_ints


def csr_from_lists(adjacency, bint directed):
    """``(n, indptr, indices, rindptr, rindices)`` as ``array('i')``, or None to decline.

    The fast path of ``Graph(lists)``: it takes only a list of lists of plain
    ints that the Python validator would accept, and declines everything else
    so that the Python validator, the one source of error messages, handles it.
    An undirected graph's reverse arrays are its own.

    >>> csr_from_lists([[1], [0]], False)[0]
    2
    """
    if type(adjacency) is not list or len(<list> adjacency) > MAX_NODES:
        return None
    cdef int32_t n = <int32_t> len(<list> adjacency)
    cdef int64_t total = count_entries(adjacency)
    if total < 0 or total > 0x7FFFFFFF:
        return None
    cdef array template = array("i")
    cdef array indptr = clone(template, n + 1, False)
    cdef array indices = clone(template, total, False)
    cdef array seen = clone(template, n + 1, False)
    cdef array rindptr = clone(template, n + 1, False)
    cdef array rindices = clone(template, total, False)
    if fill_csr(adjacency, n, ints(indptr), ints(indices), total, ints(seen)) != total:
        return None
    transpose(n, ints(indptr), ints(indices),
              ints(rindptr), ints(rindices))
    if directed:
        return n, indptr, indices, rindptr, rindices
    if not symmetric(n, ints(indptr), ints(indices),
                     ints(rindptr), ints(rindices), ints(seen)):
        return None
    return n, indptr, indices, indptr, indices


def solve_lists(adjacency, mouse, cat, hole):
    """LeetCode 913 straight from adjacency lists: the outcome code, or -1 to decline.

    Takes a list of lists of plain ints forming an undirected graph of at most
    LISTS_MAX_NODES nodes, the mouse to move from ``(mouse, cat)`` and the hole the
    cat may not enter; declines anything else (the Python path then builds a
    ``Graph`` and reports any error).

    >>> solve_lists([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]], 1, 2, 0)
    0
    """
    cdef int overflow = 0
    cdef long m, c, h
    cdef int32_t n, u
    cdef int64_t total
    cdef Small small
    cdef Game g
    if type(adjacency) is not list or len(<list> adjacency) > LISTS_MAX_NODES:
        return -1
    if type(mouse) is not int or type(cat) is not int or type(hole) is not int:
        return -1
    n = <int32_t> len(<list> adjacency)
    m = PyLong_AsLongAndOverflow(mouse, &overflow)
    c = PyLong_AsLongAndOverflow(cat, &overflow) if not overflow else 0
    h = PyLong_AsLongAndOverflow(hole, &overflow) if not overflow else 0
    if overflow or not (0 <= m < n and 0 <= c < n and 0 <= h < n) or c == h:
        return -1
    if n <= 64:
        # Every LeetCode board: neighbour masks straight from the lists, no CSR at all.
        if not masks_from_lists(adjacency, n, small.mouse_out):
            return -1
        for u in range(n):
            if not symmetric_row(small.mouse_out, u):
                return -1
        small_from_rows(&small, n, <int32_t> h)
        return small_solve(&small, m * n + c, NULL, NULL)
    total = count_entries(adjacency)
    if total < 0:
        return -1
    # One allocation: flags, then indptr, indices, rindptr, rindices, seen.
    buffer = <int32_t *> PyMem_RawMalloc(
        <size_t> (3 * (n + 1) + 2 * total) * sizeof(int32_t) + <size_t> n + 1)
    if buffer == NULL:
        raise MemoryError("cannot allocate the graph")
    cdef int32_t *ip = buffer
    cdef int32_t *ix = ip + n + 1
    cdef int32_t *rip = ix + total
    cdef int32_t *rix = rip + n + 1
    cdef int32_t *seen = rix + total
    cdef uint8_t *flags = <uint8_t *> (seen + n + 1)
    try:
        if fill_csr(adjacency, n, ip, ix, total, seen) != total:
            return -1
        transpose(n, ip, ix, rip, rix)
        if not symmetric(n, ip, ix, rip, rix, seen):
            return -1
        memset(flags, 0, <size_t> n)
        flags[h] = HOLE | CAT_FORBIDDEN
        g.n = n
        g.flags = flags
        g.m_ip = g.c_ip = g.m_rip = g.c_rip = ip
        g.m_ix = g.c_ix = g.m_rix = g.c_rix = ix
        g.reverse = 0
        return solve_general(&g, NULL, NULL, m * n + c, 1, None, True)
    finally:
        PyMem_RawFree(buffer)


cdef inline bint symmetric_row(const uint64_t *rows, int32_t u) noexcept nogil:
    """Whether every neighbour v of u lists u back."""
    cdef uint64_t x = rows[u]
    cdef int32_t v
    while x:
        v = cm_ctz64(x)
        x &= x - 1
        if not (rows[v] >> u) & 1:
            return False
    return True
