# Included by bits_c.pyx. Board: one game checked once, solved from many positions; solve_boards.

# -- Board: one game, checked once, solved from many positions ------------------------------

cdef class Board:
    """A game's arrays, checked once, for solving many positions without overhead.

    ``Board(n, flags, mouse_indptr, ..., cat_rindices)`` takes the first ten
    arguments of :func:`propagate` and makes the same checks.  It keeps copies:
    games of at most 64 nodes as move masks, bigger ones as private arrays.

    >>> from array import array
    >>> ip, ix = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])
    >>> Board(3, bytes([3, 0, 0]), ip, ix, ip, ix, ip, ix, ip, ix).solve(1, 2)
    1
    """

    cdef Game game
    cdef Small small
    cdef void *copy
    cdef readonly int32_t n

    def __init__(self, n,
                 const uint8_t[::1] flags not None,
                 const int32_t[::1] mouse_indptr not None,
                 const int32_t[::1] mouse_indices not None,
                 const int32_t[::1] mouse_rindptr not None,
                 const int32_t[::1] mouse_rindices not None,
                 const int32_t[::1] cat_indptr not None,
                 const int32_t[::1] cat_indices not None,
                 const int32_t[::1] cat_rindptr not None,
                 const int32_t[::1] cat_rindices not None):
        cdef Game g
        n = index(n)
        check_n(n)
        check_game(n, flags, mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
                   cat_indptr, cat_indices, cat_rindptr, cat_rindices, &g)
        if self.copy != NULL:
            PyMem_RawFree(self.copy)
            self.copy = NULL
        self.n = n
        if n <= 64:
            small_from_game(&g, &self.small)
            self.game.n = n
            return
        cdef size_t sizes[9]
        sizes[0] = n
        sizes[1] = mouse_indptr.shape[0] * 4
        sizes[2] = mouse_indices.shape[0] * 4
        sizes[3] = mouse_rindptr.shape[0] * 4
        sizes[4] = mouse_rindices.shape[0] * 4
        sizes[5] = cat_indptr.shape[0] * 4
        sizes[6] = cat_indices.shape[0] * 4
        sizes[7] = cat_rindptr.shape[0] * 4
        sizes[8] = cat_rindices.shape[0] * 4
        cdef size_t total = 0, i
        for i in range(9):
            total += (sizes[i] + 7) & ~(<size_t> 7)
        cdef char *p = <char *> PyMem_RawMalloc(total + 8)
        if p == NULL:
            raise MemoryError(f"cannot copy the game ({total} bytes)")
        self.copy = p
        cdef const void *sources[9]
        sources[0] = g.flags
        sources[1] = g.m_ip
        sources[2] = g.m_ix
        sources[3] = g.m_rip
        sources[4] = g.m_rix
        sources[5] = g.c_ip
        sources[6] = g.c_ix
        sources[7] = g.c_rip
        sources[8] = g.c_rix
        cdef void *copies[9]
        for i in range(9):
            copies[i] = p
            if sizes[i]:
                memcpy(p, sources[i], sizes[i])
            p += (sizes[i] + 7) & ~(<size_t> 7)
        self.game.n = n
        self.game.flags = <const uint8_t *> copies[0]
        self.game.m_ip = <const int32_t *> copies[1]
        self.game.m_ix = <const int32_t *> copies[2]
        self.game.m_rip = <const int32_t *> copies[3]
        self.game.m_rix = <const int32_t *> copies[4]
        self.game.c_ip = <const int32_t *> copies[5]
        self.game.c_ix = <const int32_t *> copies[6]
        self.game.c_rip = <const int32_t *> copies[7]
        self.game.c_rix = <const int32_t *> copies[8]
        self.game.reverse = reverse_known(&self.game)

    def __dealloc__(self):
        PyMem_RawFree(self.copy)

    cdef int64_t target(self, object mouse, object cat, object turn):
        """The position's index, or -1 for anything but plain ints naming a position."""
        cdef int overflow = 0
        cdef long m, c, t
        if type(mouse) is not int or type(cat) is not int or type(turn) is not int:
            return -1
        m = PyLong_AsLongAndOverflow(mouse, &overflow)
        c = PyLong_AsLongAndOverflow(cat, &overflow) if not overflow else 0
        t = PyLong_AsLongAndOverflow(turn, &overflow) if not overflow else 0
        if overflow or not (0 <= m < self.n and 0 <= c < self.n and 0 <= t <= 1):
            return -1
        if self.n <= 64:
            if not (self.small.valid >> c) & 1:
                return -1
        elif self.game.flags[c] & CAT_FORBIDDEN:
            return -1
        return (t * self.n + m) * <int64_t> self.n + c

    def solve(self, mouse, cat, turn=0):
        """Outcome code of one position (stopping early); -1 if it is not a position."""
        cdef int64_t target = self.target(mouse, cat, turn)
        if target < 0:
            return -1
        if self.n <= 64:
            return small_solve(&self.small, target, NULL, NULL)
        return solve_general(&self.game, NULL, NULL, target, 1, None, True)

    def analyze(self, bint remoteness=True):
        """Every position on one thread: ``(outcomes, layers)``, the outcome table as bytes and
        the remoteness planes as a list of layers of bytes (catmouse/engine/planes.py), or
        None with ``remoteness=False``: what ``propagate`` writes in planes mode, without its
        argument checks and buffers (the hot loop of small analyses)."""
        cdef int64_t n = self.n, layer = layer_size(self.n), result
        cdef bytes outcomes = new_bytes(2 * n * n, False)  # (the search writes every byte)
        cdef bytes planes = new_bytes(layer, True) if remoteness else None
        cdef uint8_t *state = <uint8_t *> PyBytes_AS_STRING(outcomes)
        cdef uint64_t *layers[MAX_LAYERS]
        cdef void *aligned = NULL
        cdef list more = []
        cdef int32_t i
        memset(layers, 0, sizeof(layers))
        if planes is not None and n:
            layers[0] = <uint64_t *> PyBytes_AS_STRING(planes)
            if (<uintptr_t> layers[0]) % 8:
                # The search writes the planes as words (see _propagate): an aligned copy.
                aligned = PyMem_RawCalloc(<size_t> layer, 1)
                if aligned == NULL:
                    raise MemoryError(f"cannot allocate {layer} bytes for the remoteness planes")
                layers[0] = <uint64_t *> aligned
        try:
            if n > 64:
                solve_game(&self.game, state, NULL, -1, 1, None, layers[0],
                           more if planes is not None else None)
            elif n:
                result = small_solve(&self.small, -1, state, NULL, layers)
                if result == -1:
                    raise MemoryError(f"cannot allocate {layer} bytes for a remoteness layer")
                for i in range(1, MAX_LAYERS):
                    if layers[i] != NULL:
                        more.append(PyBytes_FromStringAndSize(<char *> layers[i], layer))
            if aligned != NULL:
                memcpy(PyBytes_AS_STRING(planes), aligned, <size_t> layer)
        finally:
            PyMem_RawFree(aligned)
            for i in range(1, MAX_LAYERS):  # (the one-word path's; solve_game frees its own)
                PyMem_RawFree(layers[i])
        if planes is None:
            return outcomes, None
        return outcomes, [planes] + more


cdef bytes new_bytes(Py_ssize_t size, bint zeroed):
    """``size`` bytes for the caller to fill before anyone else sees them, as Table's (zero
    bytes, or as the allocator gives them): a big table through Table (the huge-page hint),
    a small one at once."""
    cdef bytes data
    if size >= HUGE_TABLE:
        return Table(size, zeroed).take()
    data = PyBytes_FromStringAndSize(NULL, size)
    if zeroed:
        memset(PyBytes_AS_STRING(data), 0, <size_t> size)
    return data


cdef bint csr_fits(int32_t n, const int32_t *ip, Py_ssize_t nip, const int32_t *ix,
                   Py_ssize_t nix) noexcept:
    """Whether CSR arrays pass check_csr (without its errors: the caller declines)."""
    cdef Py_ssize_t u, k
    if nip != n + 1 or ip[0] != 0 or ip[n] != nix:
        return False
    for u in range(n):
        if ip[u + 1] < ip[u]:
            return False
    for k in range(nix):
        if ix[k] < 0 or ix[k] >= n:
            return False
    return True


def classic_board(n, hole, indptr, indices, rindptr, rindices):
    """LeetCode 913's Board on one graph of at most 64 nodes, or None to decline.

    The graph's CSR arrays and their reverse, each a 1-D C-contiguous int32 buffer; the cat
    may not enter ``hole``.  The same Board as ``Board(n, flags, indptr, indices, rindptr,
    rindices)`` twice over with ``flags[hole] = HOLE | CAT_FORBIDDEN``, made without the
    typed views' cost (a graph's first solve is mostly this).  Anything else (bigger graphs,
    other buffers, arrays check_csr refuses) is declined: the caller's Board path reports it.

    >>> from array import array
    >>> ip, ix = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])
    >>> classic_board(3, 0, ip, ix, ip, ix).solve(1, 2)
    1
    """
    cdef Py_buffer views[4]
    cdef int taken = 0, i
    cdef long nodes, h
    cdef uint8_t flags[64]
    cdef Game g
    cdef Board board
    # (Compared as Python ints first: a hole past a C long, say 2**63, is declined too.)
    if type(n) is not int or type(hole) is not int or not 0 <= hole < n <= 64:
        return None
    nodes, h = n, hole
    arrays = (indptr, indices, rindptr, rindices)
    try:
        for i in range(4):
            if PyObject_GetBuffer(arrays[i], &views[i], PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0:
                return None
            taken += 1
            if (views[i].ndim != 1 or views[i].itemsize != 4 or views[i].format == NULL
                    or views[i].format[0] not in (b"i", b"l") or views[i].format[1] != 0):
                return None
        if not (csr_fits(<int32_t> nodes, <const int32_t *> views[0].buf, views[0].len // 4,
                         <const int32_t *> views[1].buf, views[1].len // 4)
                and csr_fits(<int32_t> nodes, <const int32_t *> views[2].buf,
                             views[2].len // 4, <const int32_t *> views[3].buf,
                             views[3].len // 4)):
            return None
        memset(flags, 0, sizeof(flags))
        flags[h] = HOLE | CAT_FORBIDDEN
        g.n = <int32_t> nodes
        g.flags = flags
        g.m_ip = g.c_ip = <const int32_t *> views[0].buf
        g.m_ix = g.c_ix = <const int32_t *> views[1].buf
        g.m_rip = g.c_rip = <const int32_t *> views[2].buf
        g.m_rix = g.c_rix = <const int32_t *> views[3].buf
        g.reverse = 0
        board = Board.__new__(Board)
        board.n = g.n
        small_from_game(&g, &board.small)
        board.game.n = g.n
        return board
    except (TypeError, BufferError, ValueError):  # not such a buffer
        return None
    finally:
        for i in range(taken):
            PyBuffer_Release(&views[i])


def solve_boards(list boards not None, mouse, cat, turn=0, threads=1):
    """Outcome codes of one position on each board, solved without the GIL in ``threads``.

    Returns a bytearray of codes; a board where ``(mouse, cat, turn)`` is not a
    position gets 255 (the caller reports the error).  The calling thread reads each
    board's position while up to ``threads - 1`` helpers solve the boards already read.

    >>> from array import array
    >>> ip, ix = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])
    >>> board = Board(3, bytes([3, 0, 0]), ip, ix, ip, ix, ip, ix, ip, ix)
    >>> bytes(solve_boards([board] * 3, 1, 2, threads=2))
    b'\\x01\\x01\\x01'
    """
    cdef Py_ssize_t count = len(boards), lo, hi, i
    cdef int64_t chunk = BATCH_CHUNK, chunks
    cdef int32_t helpers
    check_threads(threads)
    cdef bytearray codes = bytearray(count)
    cdef uint8_t *out = codes
    # Big boards are handed out one by one (they take long); small ones by the chunk.
    for i in range(count):
        if (<Board?> boards[i]).n > 64:
            chunk = 1
            break
    for lo in range(0, count, BATCH_WINDOW):
        hi = min(lo + BATCH_WINDOW, count)
        chunks = (hi - lo + chunk - 1) // chunk
        helpers = <int32_t> min(threads - 1, chunks - 1)
        if helpers <= 0 and chunk == BATCH_CHUNK:  # small boards, no helper
            solve_alone(boards, lo, hi, 0, 0, 0, mouse, cat, turn, True, out + lo)
        else:
            solve_window(boards, lo, hi, 0, 0, 0, mouse, cat, turn, chunk, max(helpers, 0),
                         True, out + lo)
    if 254 in codes:
        raise MemoryError("cannot allocate the bit tables of a board")
    return codes
