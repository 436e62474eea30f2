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
