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


def solve_boards(list boards not None, mouse, cat, turn=0):
    """Outcome codes of one position on each board, solved in one call without the GIL.

    Returns a bytearray of codes; a board where ``(mouse, cat, turn)`` is not a
    position gets 255 (the caller reports the error).
    """
    cdef Py_ssize_t count = len(boards), i
    cdef Board board
    cdef void **games = NULL
    cdef uint8_t *small = NULL
    cdef int64_t *targets = NULL
    cdef int64_t code
    cdef bint short_of_memory = False
    cdef bytearray codes = bytearray(count)
    cdef uint8_t *out = codes
    if count == 0:
        return codes
    games = <void **> PyMem_RawMalloc(<size_t> count * sizeof(void *))
    targets = <int64_t *> PyMem_RawMalloc(<size_t> count * sizeof(int64_t))
    small = <uint8_t *> PyMem_RawMalloc(<size_t> count)
    try:
        if games == NULL or targets == NULL or small == NULL:
            raise MemoryError("cannot allocate the batch")
        for i in range(count):
            board = <Board?> boards[i]
            small[i] = board.n <= 64
            games[i] = <void *> &board.small if small[i] else <void *> &board.game
            targets[i] = board.target(mouse, cat, turn)
        # ``boards`` holds every Board, so their copies outlive the loop.
        with nogil:
            for i in range(count):
                if targets[i] < 0:
                    out[i] = 255
                elif small[i]:
                    out[i] = <uint8_t> small_solve(<const Small *> games[i], targets[i],
                                                   NULL, NULL)
                else:
                    code = solve_general_nogil(<const Game *> games[i], targets[i])
                    if code < 0:
                        short_of_memory = True
                        break
                    out[i] = <uint8_t> code
        if short_of_memory:
            raise MemoryError("cannot allocate the bit tables of a board")
    finally:
        PyMem_RawFree(games)
        PyMem_RawFree(targets)
        PyMem_RawFree(small)
    return codes
