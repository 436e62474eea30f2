# Included by bits_c.pyx. Entry points of the k-cops game (cops.pxi): the same names,
# arguments, checks and answers as py_cops.py.

from cpython.exc cimport PyErr_Fetch, PyErr_NormalizeException, PyErr_Occurred
from cpython.ref cimport PyObject, Py_XDECREF

import threading

from catmouse.engine.cops_checks import (
    PliesPastByte,
    check_cancel,
    check_cop_threads,
    components,
    csr_of,
    most_cops_searched,
)

cdef class _CopTables:
    """The buffers of one search, freed with this object (whatever raised in between)."""

    cdef CopSearch c

    def __cinit__(self):
        memset(&self.c, 0, sizeof(CopSearch))
        # Only the main thread runs signal handlers: elsewhere a poll would take the GIL
        # for nothing (a search in a worker thread stops through its ``cancel`` flag).
        self.c.poll = threading.current_thread() is threading.main_thread()

    def __dealloc__(self):
        cops_free(&self.c)


cdef class _WideTables:
    """The buffers of one search on more than 64 nodes, freed with this object."""

    cdef Wide w

    def __cinit__(self):
        memset(&self.w, 0, sizeof(Wide))
        self.w.poll = threading.current_thread() is threading.main_thread()

    def __dealloc__(self):
        wide_free(&self.w)


cdef int64_t wide_search(list masks, int32_t k, object outcome, object remoteness,
                         bint stop, bint any_win, object cancel=None) except -5:
    """One search of ``k`` cops on a graph of more than 64 nodes (``masks``: closed
    neighbourhoods as ints); the memory guard has been passed."""
    cdef int32_t m = len(masks)
    cdef _WideTables tables = _WideTables()
    cdef Wide *w = &tables.w
    cdef uint8_t[::1] out_view
    cdef int32_t[::1] flag
    cdef int64_t code
    if cancel is not None:
        flag = cancel
        w.cancel = &flag[0]
    if wide_alloc(w, m, k) < 0:
        raise MemoryError(f"cannot allocate {wide_need(m, k):,} bytes for {k} cops on {m} nodes")
    wide_closed(w, masks)
    if outcome is not None:
        out_view = outcome
        w.outcome = &out_view[0]
    held = hold_plies(&w.plies, remoteness)
    w.any_win = any_win
    with nogil:
        wide_graph(w)
        code = wide_run(w, stop)
    if code == COPS_INTERRUPTED:
        cops_raise()
    if code == COPS_PAST_BYTE:
        raise PliesPastByte(w.plies.most)
    return code


cdef object hold_plies(Plies *p, object remoteness):
    """Point ``p`` at the caller's remoteness table (checked: int32, or a byte a position);
    the view returned keeps the table exported (never resized) while the search runs."""
    cdef uint8_t[::1] narrow
    cdef int32_t[::1] wide
    p.most = min(_cops_checks.BYTE_PLIES, NO_CAPTURE_BYTE - 1)
    if remoteness is None:
        return None
    held = memoryview(remoteness)
    if held.itemsize == 1:
        narrow = remoteness
        p.narrow = &narrow[0]
    else:
        wide = remoteness
        p.wide = &wide[0]
    return held


cdef int cops_masks(object closed, uint64_t *out) except -1:
    cdef int32_t u
    for u in range(len(closed)):
        out[u] = closed[u]
    return 0


cdef int32_t quick_masks(object n, object indptr, object indices, uint64_t *closed):
    """check_cop_graph in C for the common case, a graph of at most 64 nodes in int32
    buffers (a Graph's): its closed neighbourhoods into ``closed`` and its node count; -1
    for anything else or anything wrong, which the Python check then reads (and words).
    That check was a Python loop an edge: 0.1 ms of the 6-cube's 3-cop analysis, 2 ms of
    a 64-clique's cop number."""
    cdef const int32_t[::1] ip
    cdef const int32_t[::1] ix
    cdef int32_t m, u, v
    cdef int64_t e
    cdef uint64_t bits
    if type(n) is not int or not 0 <= n <= 64:
        return -1
    m = n
    try:
        ip = indptr
        ix = indices
    except (TypeError, ValueError, BufferError):
        return -1
    if ip.shape[0] != m + 1 or ip[0] != 0 or ip[m] != ix.shape[0]:
        return -1
    memset(closed, 0, 64 * sizeof(uint64_t))  # (no mask past the nodes holds a bit)
    for u in range(m):
        if ip[u + 1] < ip[u]:
            return -1
        closed[u] = (<uint64_t> 1) << u
        for e in range(ip[u], ip[u + 1]):
            v = ix[e]
            if not 0 <= v < m:
                return -1
            closed[u] |= (<uint64_t> 1) << v
    for u in range(m):  # undirected: u in the mask of each node of its own
        bits = closed[u]
        while bits:
            if not (closed[cm_ctz64(bits)] >> u) & 1:
                return -1
            bits &= bits - 1
    return m


cdef object checked_graph(object n, object indptr, object indices, uint64_t *closed,
                          int32_t *m):
    """The graph checked: its node count into ``m`` and, up to 64 nodes, its closed
    neighbourhoods into ``closed``; returns check_cop_graph's masks where quick_masks could
    not take it (a graph past 64 nodes needs them), else None."""
    m[0] = quick_masks(n, indptr, indices, closed)
    if m[0] >= 0:
        return None
    masks = check_cop_graph(n, indptr, indices)
    m[0] = len(masks)
    if m[0] <= 64:
        cops_masks(masks, closed)
    return masks


cdef object take_pending_error():
    """The error a signal handler left pending while the rounds polled (Ctrl-C), cleared from
    the interpreter and returned (None if there is none).  Python code must not run with an
    error set: Python 3.13 stops the crew's cleanup with a SystemError if it does."""
    cdef PyObject *kind = NULL
    cdef PyObject *value = NULL
    cdef PyObject *trace = NULL
    PyErr_Fetch(&kind, &value, &trace)
    if kind == NULL:
        return None
    PyErr_NormalizeException(&kind, &value, &trace)
    error = <object> value
    if trace != NULL:
        # Kept, so that ``raise`` adds the caller's frames to the handler's own.
        error.__traceback__ = <object> trace
    Py_XDECREF(kind)
    Py_XDECREF(value)
    Py_XDECREF(trace)
    return error


cdef int cops_raise() except -1:
    """Raise the error a signal handler left (Ctrl-C) while the search polled."""
    if PyErr_Occurred() != NULL or check_signals() < 0:
        return -1
    raise KeyboardInterrupt


def cops_peak_bytes(n, k, tables=False, threads=1):
    """An upper bound on the bytes one search of ``k`` cops on ``n`` nodes allocates.

    Counted: the tables, the checked graph held as Python ints, the threads' buffers
    (``threads`` above 1, or None: as many as it may use; n <= 64).  Not counted: the
    caller's tables, and the list copy of ``indices`` made while they are checked when they
    are not an int buffer (8 bytes an entry).  tests/engine/test_cops.py holds it against
    the peak tracemalloc measures.

    >>> cops_peak_bytes(10, 2) > 55 * 37
    True
    """
    k = check_cops(k)
    if n > 64:
        return wide_need(n, k)
    threads = crew_threads(threads, NULL, cops_rows_c(n, k))
    return cops_need(n, k) + crew_need(n, k, threads)


cdef int32_t crew_threads(object threads, bint *auto, int64_t rows) except -1:
    """The threads a search may hire (at most COPS_CREW_MAX); ``auto``: None was asked.
    ``rows``: the most rows a search of the call can have, or -1 (check_cop_threads)."""
    count, left = check_cop_threads(threads, rows)
    if auto != NULL:
        auto[0] = left
    return <int32_t> min(count, COPS_CREW_MAX)


cdef int hire_crew(CopSearch *c, _CopCrewThreads crew, int32_t threads, bint auto) except -1:
    """Let the search start ``crew`` at its first search that takes threads (crew_hire)."""
    c.want = threads
    c.auto = auto
    c.hire = <void *> crew if threads > 1 else NULL
    return 0


def cops_search(n, indptr, indices, k, outcome=None, remoteness=None, *, stop=True,
                max_bytes=None, threads=1, cancel=None):
    """Solve the game of ``k`` cops on an undirected graph; see ``py_cops.cops_search``.

    >>> cops_search(4, [0, 2, 4, 6, 8], [1, 3, 0, 2, 1, 3, 0, 2], 2, threads=2)
    1
    """
    cdef uint64_t closed[64]
    cdef _CopTables tables
    cdef CopSearch *c
    cdef uint8_t[::1] out_view
    cdef int32_t m, kk
    cdef int64_t need, code
    cdef bint halt = bool(stop)
    cdef bint auto = False
    cdef int32_t T = 1
    cdef _CopCrewThreads crew
    cdef int32_t[::1] flag
    if threads is not None:
        T = crew_threads(threads, &auto, -1)  # (checked first, as before the graph)
    masks = checked_graph(n, indptr, indices, closed, &m)
    kk = check_cops(k)
    cancel = check_cancel(cancel)
    check_cop_tables(m, kk, outcome, remoteness)
    if threads is None:
        # (A small search takes one thread, and is not counted for more.)
        T = crew_threads(None, &auto, cops_rows_c(m, kk) if m <= 64 else 0)
    need = cops_need(m, kk) + crew_need(m, kk, T) if m <= 64 else wide_need(m, kk)
    if max_bytes is not None and need > max_bytes:
        raise too_big(m, kk, need, max_bytes)
    if m == 0:
        return -1
    if m > 64:
        return wide_search(masks, kk, outcome, remoteness, halt, False, cancel)
    tables = _CopTables()  # not before: a search past 64 nodes has tables of its own
    c = &tables.c
    if cancel is not None:
        flag = cancel
        c.cancel = &flag[0]
    if cops_reserve(c, cops_rows_c(m, kk), kk) < 0:
        raise MemoryError(f"cannot allocate {need:,} bytes for {kk} cops on {m} nodes")
    cops_graph(c, closed, m, kk)
    if outcome is not None:
        out_view = outcome
        c.outcome = &out_view[0]
    held = hold_plies(&c.plies, remoteness)
    if T > 1:
        crew = _CopCrewThreads()
        hire_crew(c, crew, T, auto)
        pending = None
        try:
            with nogil:
                code = cops_run(c, halt)
            pending = take_pending_error()  # before the crew's Python-level cleanup runs
        finally:
            crew.close()
            c.crew = NULL
            c.hire = NULL
        if pending is not None:
            raise pending
    else:
        with nogil:
            code = cops_run(c, halt)
    if code == COPS_INTERRUPTED:
        cops_raise()
    if code == COPS_NO_MEMORY:
        raise MemoryError(f"cannot allocate {need:,} bytes for {kk} cops on {m} nodes")
    if code == COPS_PAST_BYTE:
        raise PliesPastByte(c.plies.most)
    return code


cdef object cops_number_error(int64_t code, int32_t *bad, int64_t max_bytes,
                              int32_t threads=1, bint auto=False):
    if code == COPS_INTERRUPTED:
        cops_raise()
    if code == COPS_TOO_BIG:
        # The need cops_number refused: the crew's buffers count too.
        threads = crew_for(threads, auto, cops_rows_c(bad[0], bad[1]))
        raise too_big(bad[0], bad[1],
                      cops_need(bad[0], bad[1]) + crew_need(bad[0], bad[1], threads), max_bytes)
    raise MemoryError("cannot allocate the cops' tables")


def cop_number(n, indptr, indices, max_cops, max_bytes=None, threads=1, cancel=None):
    """The cop number of an undirected graph, or -1 past ``max_cops``; see ``py_cops``.

    >>> cop_number(4, [0, 2, 4, 6, 8], [1, 3, 0, 2, 1, 3, 0, 2], 5, threads=2)
    2
    """
    cdef uint64_t closed[64]
    cdef _CopTables tables = _CopTables()
    cdef int32_t bad[2]
    cdef int32_t m
    cdef int64_t code, limit = -1 if max_bytes is None else max_bytes
    cdef int64_t most = max(0, min(max_cops, 1 << 30))
    cdef bint auto = False
    cdef int32_t T = 1
    cdef _CopCrewThreads crew
    cdef int32_t[::1] flag
    if threads is not None:
        T = crew_threads(threads, &auto, -1)
    masks = checked_graph(n, indptr, indices, closed, &m)
    cancel = check_cancel(cancel)
    if threads is None:  # (sized by the biggest search the call can make)
        T = crew_threads(None, &auto, cops_rows_c(m, most_cops_searched(m, most))
                         if m <= 64 else 0)
    if m > 64:
        return wide_number(masks, most, max_bytes, cancel)
    if cancel is not None:
        flag = cancel
        tables.c.cancel = &flag[0]
    if T > 1:
        crew = _CopCrewThreads()
        hire_crew(&tables.c, crew, T, auto)
        pending = None
        try:
            with nogil:
                code = cops_number(&tables.c, closed, m, most, limit, bad)
            pending = take_pending_error()  # before the crew's Python-level cleanup runs
        finally:
            crew.close()
            tables.c.crew = NULL
            tables.c.hire = NULL
        if pending is not None:
            raise pending
    else:
        with nogil:
            code = cops_number(&tables.c, closed, m, most, limit, bad)
    if code < -1:
        cops_number_error(code, bad, limit, T, auto)
    return code


cdef object wide_number(list masks, int64_t most, object max_bytes, object cancel):
    """cop_number of a graph of more than 64 nodes: each component on its own path."""
    total = 0
    for part in components(masks):
        m = len(part)
        if m <= 64:
            found = cop_number(m, *csr_of(part), most - total, max_bytes, cancel=cancel)
            if found < 0:
                return -1
            total += found
            continue
        k = 1
        while total + k <= most:
            need = wide_need(m, k)
            if max_bytes is not None and need > max_bytes:
                raise too_big(m, k, need, max_bytes)
            if wide_search(part, k, None, None, True, True, cancel) >= 0:
                break
            k += 1
        total += k
        if total > most:
            return -1
    return total


def cop_numbers_graph6(data, max_cops, max_bytes=None, cancel=None):
    """One byte per graph6 line of ``data``: its cop number, 255 past ``max_cops``.

    The GIL is released over the whole block; see ``py_cops.cop_numbers_graph6``.

    >>> list(cop_numbers_graph6(b"Bw\\nCl\\n", 3))
    [1, 2]
    """
    cdef const uint8_t[::1] view = data
    cdef _CopTables tables = _CopTables()
    cdef uint64_t closed[64]
    cdef int32_t bad[2]
    cdef int32_t m = 0
    cdef int64_t size = view.shape[0], start = 0, end, line = 0, lines = 0, i, code = 0
    cdef int64_t limit = -1 if max_bytes is None else max_bytes
    cdef int64_t most = max(0, min(max_cops, 254))
    cdef const uint8_t *p = &view[0] if size else NULL
    cdef int64_t length
    cdef int32_t[::1] flag
    cancel = check_cancel(cancel)
    if cancel is not None:
        flag = cancel
        tables.c.cancel = &flag[0]
    for i in range(size):
        if p[i] == 10:
            lines += 1
    if size and p[size - 1] != 10:
        lines += 1
    result = bytearray(lines)
    cdef uint8_t[::1] out = result
    with nogil:
        while line < lines:
            end = start
            while end < size and p[end] != 10:
                end += 1
            length = end - start
            if length and p[end - 1] == 13:
                length -= 1
            if cops_graph6(p + start, length, closed, &m) < 0:
                code = COPS_TOO_BIG - 10  # a bad line: named below with the GIL
                break
            code = cops_number(&tables.c, closed, m, most, limit, bad)
            if code < -1:
                break
            out[line] = 255 if code < 0 else <uint8_t> code
            line += 1
            start = end + 1
    if code == COPS_TOO_BIG - 10:
        text = bytes(view[start:start + length])
        try:
            graph6_masks(text)
        except ValueError as error:
            raise ValueError(f"line {line + 1}: {error}") from None
        raise ValueError(f"line {line + 1}: not a graph6 line")
    if code < -1:
        cops_number_error(code, bad, limit)
    return bytes(result)
