# cython: language_level=3
"""The retrograde engine in Cython: the twin of ``_retro_py.py``.

Same signature, same checks, same tables, bit for bit; the algorithm is
described in ``_retro_py``.  Compiler directives (bounds checks off, and so on)
are set once in ``setup.py``.
"""

from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_RawFree, PyMem_RawMalloc
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.string cimport memcpy, memset

from operator import index

cdef enum:
    # Per-node flags and outcome codes: the same values as in _retro_py.
    HOLE = 1
    CAT_FORBIDDEN = 2
    CAT_GOAL = 4
    MOUSE_WIN = 1
    CAT_WIN = 2
    NO_POSITION = 3
    # Check for Ctrl-C once per this many positions taken off the queue (a power of 2).
    SIGNAL_INTERVAL = 65536


cdef struct Ring:
    # FIFO of positions in a circular C array; it grows, and never needs to
    # hold more than every position once.
    int32_t *data
    int64_t capacity
    int64_t head
    int64_t size
    int64_t limit


cdef int ring_grow(Ring *q) except -1 nogil:
    cdef int64_t capacity = q.capacity * 2
    if capacity > q.limit:
        capacity = q.limit
    cdef int32_t *data = <int32_t *> PyMem_RawMalloc(<size_t> capacity * sizeof(int32_t))
    if data == NULL:
        with gil:
            raise MemoryError(f"cannot grow the queue to {capacity * 4} bytes")
    # Unwrap: the oldest entries go first.
    cdef int64_t first = q.capacity - q.head
    if first > q.size:
        first = q.size
    memcpy(data, q.data + q.head, <size_t> first * sizeof(int32_t))
    memcpy(data + first, q.data, <size_t> (q.size - first) * sizeof(int32_t))
    PyMem_RawFree(q.data)
    q.data = data
    q.capacity = capacity
    q.head = 0
    return 0


cdef inline int ring_push(Ring *q, int32_t s) except -1 nogil:
    if q.size == q.capacity:
        ring_grow(q)
    cdef int64_t tail = q.head + q.size
    if tail >= q.capacity:
        tail -= q.capacity
    q.data[tail] = s
    q.size += 1
    return 0


cdef inline int32_t ring_pop(Ring *q) noexcept nogil:
    cdef int32_t s = q.data[q.head]
    q.head += 1
    if q.head == q.capacity:
        q.head = 0
    q.size -= 1
    return s


cdef int run(
    int32_t n,
    const uint8_t *flags,
    const int32_t *m_ip,
    const int32_t *m_rip,
    const int32_t *m_rix,
    const int32_t *c_rip,
    const int32_t *c_rix,
    const int32_t *cat_moves,
    uint8_t *state,
    int32_t *rem,
    int32_t *undecided,
    Ring *q,
    int64_t target,
) except -1 nogil:
    """Fill ``state`` (and ``rem`` unless NULL); stop early once ``target`` is decided."""
    cdef int64_t nn = <int64_t> n * n
    cdef int64_t m, c, s, p, row, k, pops = 0
    cdef int32_t moves, r1 = 0
    cdef uint8_t value, win

    for m in range(n):
        moves = m_ip[m + 1] - m_ip[m]
        row = m * n
        for c in range(n):
            undecided[row + c] = moves
            undecided[nn + row + c] = cat_moves[c]

    for m in range(n):
        row = m * n
        for c in range(n):
            s = row + c
            if flags[c] & CAT_FORBIDDEN:
                state[s] = NO_POSITION
                state[nn + s] = NO_POSITION
                continue
            if m == c:
                value = CAT_WIN
            elif flags[m] & HOLE:
                value = MOUSE_WIN
            elif flags[c] & CAT_GOAL:
                value = CAT_WIN
            else:
                # A mover with no legal move loses.
                if undecided[s] == 0:
                    state[s] = CAT_WIN
                    ring_push(q, <int32_t> s)
                if undecided[nn + s] == 0:
                    state[nn + s] = MOUSE_WIN
                    ring_push(q, <int32_t> (nn + s))
                continue
            state[s] = value
            state[nn + s] = value
            ring_push(q, <int32_t> s)
            ring_push(q, <int32_t> (nn + s))
    if rem != NULL:
        for k in range(q.size):
            rem[q.data[k]] = 0
    if target >= 0 and state[target]:
        return 0

    while q.size:
        s = ring_pop(q)
        pops += 1
        if (pops & (SIGNAL_INTERVAL - 1)) == 0:
            with gil:
                PyErr_CheckSignals()
        value = state[s]
        if rem != NULL:
            r1 = rem[s] + 1
        if s >= nn:
            # Cat to move here, so the mouse just moved: (pm, c, MOUSE).
            m = (s - nn) // n
            c = (s - nn) - m * n
            win = value == MOUSE_WIN
            for k in range(m_rip[m], m_rip[m + 1]):
                p = <int64_t> m_rix[k] * n + c
                if state[p]:
                    continue
                if not win:
                    undecided[p] -= 1
                    if undecided[p]:
                        continue
                state[p] = value
                if rem != NULL:
                    rem[p] = r1
                if p == target:
                    return 0
                ring_push(q, <int32_t> p)
        else:
            # Mouse to move here, so the cat just moved: (m, pc, CAT).
            m = s // n
            c = s - m * n
            win = value == CAT_WIN
            row = nn + m * n
            for k in range(c_rip[c], c_rip[c + 1]):
                # A predecessor with the cat on a forbidden node is NO_POSITION,
                # so the state test below skips it.
                p = row + c_rix[k]
                if state[p]:
                    continue
                if not win:
                    undecided[p] -= 1
                    if undecided[p]:
                        continue
                state[p] = value
                if rem != NULL:
                    rem[p] = r1
                if p == target:
                    return 0
                ring_push(q, <int32_t> p)
    return 0


cdef int check_csr(str name, int32_t n, const int32_t[::1] indptr,
                   const int32_t[::1] indices) except -1:
    cdef int64_t u, k, prev = 0
    if indptr.shape[0] != n + 1:
        raise ValueError(f"{name} indptr has {indptr.shape[0]} entries, expected {n + 1}")
    for u in range(n + 1):
        if indptr[u] < prev or (u == 0 and indptr[u] != 0):
            raise ValueError(f"{name} indptr is not a monotone offset array at {u}")
        prev = indptr[u]
    if prev != indices.shape[0]:
        raise ValueError(f"{name} indptr ends at {prev}, but indices has {indices.shape[0]}")
    for k in range(indices.shape[0]):
        if indices[k] < 0 or indices[k] >= n:
            raise ValueError(f"{name} indices[{k}] = {indices[k]} is not a node")
    return 0


def propagate(n, flags, mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
              cat_indptr, cat_indices, cat_rindptr, cat_rindices,
              outcome=None, remoteness=None, target=-1):
    """Solve every position of the game; see ``_retro_py.propagate``."""
    # A typed C integer argument would take 2.7 as 2: accept integers only.
    return _propagate(index(n), flags, mouse_indptr, mouse_indices, mouse_rindptr,
                      mouse_rindices, cat_indptr, cat_indices, cat_rindptr, cat_rindices,
                      outcome, remoteness, index(target))


def _propagate(
    int32_t n,
    const uint8_t[::1] flags not None,
    const int32_t[::1] mouse_indptr not None,
    const int32_t[::1] mouse_indices not None,
    const int32_t[::1] mouse_rindptr not None,
    const int32_t[::1] mouse_rindices not None,
    const int32_t[::1] cat_indptr not None,
    const int32_t[::1] cat_indices not None,
    const int32_t[::1] cat_rindptr not None,
    const int32_t[::1] cat_rindices not None,
    uint8_t[::1] outcome=None,
    int32_t[::1] remoteness=None,
    int64_t target=-1,
):
    """Solve every position of the game; see ``_retro_py.propagate``."""
    if n < 0 or n > 32767:
        raise ValueError(f"n = {n} is out of range: 2*n*n positions must fit in int32")
    if flags.shape[0] != n:
        raise ValueError(f"flags has {flags.shape[0]} entries for {n} nodes")
    check_csr("mouse", n, mouse_indptr, mouse_indices)
    check_csr("mouse reverse", n, mouse_rindptr, mouse_rindices)
    check_csr("cat", n, cat_indptr, cat_indices)
    check_csr("cat reverse", n, cat_rindptr, cat_rindices)
    cdef int64_t nn = <int64_t> n * n
    cdef int64_t size = 2 * nn
    if outcome is not None and outcome.shape[0] != size:
        raise ValueError(f"outcome buffer has {outcome.shape[0]} entries, expected {size}")
    if remoteness is not None and remoteness.shape[0] != size:
        raise ValueError(
            f"remoteness buffer has {remoteness.shape[0]} entries, expected {size}")
    if (outcome is None) == (target < 0):
        raise ValueError("give either an outcome buffer or a target position")
    if remoteness is not None and outcome is None:
        raise ValueError("a remoteness buffer needs an outcome buffer")
    if target >= size:
        raise ValueError(f"target {target} is not a position (there are {size})")

    cdef uint8_t *state = NULL
    cdef int32_t *rem = NULL
    cdef int32_t *undecided = NULL
    cdef int32_t *cat_moves = NULL
    cdef Ring q
    q.data = NULL
    q.head = 0
    q.size = 0
    q.limit = size if size > 0 else 1
    q.capacity = 4096 if q.limit > 4096 else q.limit
    cdef int64_t c, k, decided
    cdef int result
    try:
        if outcome is not None:
            state = &outcome[0] if size else NULL
        else:
            state = <uint8_t *> PyMem_RawMalloc(<size_t> size)
            if state == NULL:
                raise MemoryError(f"cannot allocate {size} bytes for the outcome table")
        if remoteness is not None and size:
            rem = &remoteness[0]
        undecided = <int32_t *> PyMem_RawMalloc(<size_t> (size + 1) * sizeof(int32_t))
        cat_moves = <int32_t *> PyMem_RawMalloc(<size_t> (n + 1) * sizeof(int32_t))
        q.data = <int32_t *> PyMem_RawMalloc(<size_t> q.capacity * sizeof(int32_t))
        if undecided == NULL or cat_moves == NULL or q.data == NULL:
            raise MemoryError(f"cannot allocate {size * 4} bytes for the move counters")
        for c in range(n):
            cat_moves[c] = 0
            for k in range(cat_indptr[c], cat_indptr[c + 1]):
                if not flags[cat_indices[k]] & CAT_FORBIDDEN:
                    cat_moves[c] += 1
        if size:
            memset(state, 0, <size_t> size)
            if rem != NULL:
                memset(rem, 0xFF, <size_t> size * sizeof(int32_t))  # -1: never ends
            with nogil:
                run(n, &flags[0], &mouse_indptr[0], &mouse_rindptr[0],
                    &mouse_rindices[0] if mouse_rindices.shape[0] else NULL,
                    &cat_rindptr[0],
                    &cat_rindices[0] if cat_rindices.shape[0] else NULL,
                    cat_moves, state, rem, undecided, &q, target)
        if target >= 0:
            result = state[target]
            return result
        decided = 0
        for k in range(size):
            if state[k] == MOUSE_WIN or state[k] == CAT_WIN:
                decided += 1
        return decided
    finally:
        if outcome is None:
            PyMem_RawFree(state)
        PyMem_RawFree(undecided)
        PyMem_RawFree(cat_moves)
        PyMem_RawFree(q.data)
