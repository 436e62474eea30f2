# Included by bits_c.pyx. Batches across threads: the calling thread reads each item (it must
# hold the GIL for that: a plain list's ints, a Board's position) while helpers solve what it
# has read, without the GIL.  Plain lists of at most 64 nodes and Boards share the crew.

cdef enum:
    # Graphs per chunk: the unit a helper claims, and the step between Ctrl-C checks.
    BATCH_CHUNK = 64
    # Graphs per window: the packed graphs of one window live at once (about 530 bytes each).
    BATCH_WINDOW = 8192


cdef struct Packed:
    # One graph of at most 64 nodes as read from its lists; target -1: declined.
    int32_t n
    int32_t hole
    int64_t target
    uint64_t rows[64]


cdef struct Helper:
    void *crew           # the ListCrew
    int32_t i


# Helper threads started so far by the batch paths (for the tests to count).
cdef int64_t helpers_started = 0


def _helpers_started():
    """How many helper threads the batch paths have started in this process."""
    return helpers_started


cdef struct ListCrew:
    # One window of a batch: the items read so far, their codes, and the chunk hand-out.
    # Lists are packed (``packed``); Boards are pointers with their targets (``games``).
    Packed *packed
    const void **games
    int64_t *targets
    uint8_t *small
    uint8_t *out
    int64_t count
    int64_t chunk         # items per chunk
    int64_t chunks
    int64_t next          # the next chunk to claim, under ``claim``
    int32_t stop          # set (atomically) when the batch is abandoned (Ctrl-C)
    PyThread_type_lock claim
    PyThread_type_lock *ready   # chunk k's lock is released once the caller has read it
    PyThread_type_lock *left    # each helper releases its own when it leaves
    Helper *helpers


cdef void small_from_rows(Small *s, int32_t n, int32_t h) noexcept nogil:
    """Complete ``s`` from ``s.mouse_out`` (symmetric neighbour masks) and the hole ``h``.

    The classic rules: the cat may neither enter the hole nor stand on it.
    """
    cdef int32_t u
    s.n = n
    s.all = ONES if n == 64 else ((<uint64_t> 1) << n) - 1
    s.hole = (<uint64_t> 1) << h
    s.goal = 0
    s.valid = s.all & ~s.hole
    for u in range(n):
        s.mouse_in[u] = s.mouse_out[u]
        s.cat_out[u] = s.mouse_out[u] & s.valid if u != h else 0
        s.cat_in[u] = s.mouse_out[u] & s.valid if u != h else 0
    small_finish(s)


cdef int pack_lists(object adjacency, long m, long c, long h, Packed *p) except -1:
    """Read one batch item into ``p``; ``p.target`` is -1 where the list path declines."""
    cdef int32_t n, u
    p.target = -1
    if type(adjacency) is not list or len(<list> adjacency) > 64:
        return 0
    n = <int32_t> len(<list> adjacency)
    if not (0 <= m < n and 0 <= c < n and 0 <= h < n) or c == h:
        return 0
    if not masks_from_lists(adjacency, n, p.rows):
        return 0
    for u in range(n):
        if not symmetric_row(p.rows, u):
            return 0
    p.n = n
    p.hole = <int32_t> h
    p.target = m * n + c
    return 0


cdef void solve_packed(const Packed *p, uint8_t *out) noexcept nogil:
    cdef Small s
    if p.target < 0:
        out[0] = 255
        return
    memcpy(s.mouse_out, p.rows, <size_t> p.n * sizeof(uint64_t))
    small_from_rows(&s, p.n, p.hole)
    out[0] = <uint8_t> small_solve(&s, p.target, NULL, NULL)


cdef void solve_board(ListCrew *w, int64_t i) noexcept nogil:
    cdef int64_t code
    if w.targets[i] < 0:
        w.out[i] = 255
    elif w.small[i]:
        w.out[i] = <uint8_t> small_solve(<const Small *> w.games[i], w.targets[i], NULL, NULL)
    else:
        code = solve_general_nogil(<const Game *> w.games[i], w.targets[i])
        w.out[i] = 254 if code < 0 else <uint8_t> code  # 254: its tables did not fit


cdef void solve_chunk(ListCrew *w, int64_t k) noexcept nogil:
    cdef int64_t i
    cdef int64_t hi = min((k + 1) * w.chunk, w.count)
    for i in range(k * w.chunk, hi):
        if cm_load32(&w.stop):
            return  # abandoned (Ctrl-C): the caller raises
        if w.packed != NULL:
            solve_packed(&w.packed[i], &w.out[i])
        else:
            solve_board(w, i)


cdef int64_t claim_chunk(ListCrew *w) noexcept nogil:
    cdef int64_t k
    PyThread_acquire_lock(w.claim, 1)
    k = w.next
    w.next += 1
    PyThread_release_lock(w.claim)
    return k


cdef void crew_solve(ListCrew *w, int32_t i) noexcept nogil:
    """A helper: claim chunks in order, wait until each is read, solve it."""
    cdef int64_t k
    while not cm_load32(&w.stop):
        k = claim_chunk(w)
        if k >= w.chunks:
            break
        PyThread_acquire_lock(w.ready[k], 1)
        if cm_load32(&w.stop):
            break  # abandoned: the chunk may not be packed
        solve_chunk(w, k)  # once claimed and packed, solved: the caller counts on it
    PyThread_release_lock(w.left[i])


cdef void helper_main(void *arg) noexcept nogil:
    cdef Helper *h = <Helper *> arg
    crew_solve(<ListCrew *> h.crew, h.i)


cdef ListCrew *crew_alloc(int64_t count, int64_t chunk, int32_t helpers,
                          bint boards) noexcept:
    cdef ListCrew *w = <ListCrew *> PyMem_RawCalloc(1, sizeof(ListCrew))
    cdef int64_t k
    cdef int32_t i
    if w == NULL:
        return NULL
    w.count = count
    w.chunk = chunk
    w.chunks = (count + chunk - 1) // chunk
    if boards:
        w.games = <const void **> PyMem_RawMalloc(<size_t> count * sizeof(void *))
        w.targets = <int64_t *> PyMem_RawMalloc(<size_t> count * sizeof(int64_t))
        w.small = <uint8_t *> PyMem_RawMalloc(<size_t> count)
        if w.games == NULL or w.targets == NULL or w.small == NULL:
            return w
    else:
        w.packed = <Packed *> PyMem_RawMalloc(<size_t> count * sizeof(Packed))
    w.ready = <PyThread_type_lock *> PyMem_RawCalloc(<size_t> w.chunks,
                                                     sizeof(PyThread_type_lock))
    w.helpers = <Helper *> PyMem_RawCalloc(<size_t> helpers + 1, sizeof(Helper))
    w.left = <PyThread_type_lock *> PyMem_RawCalloc(<size_t> helpers + 1,
                                                    sizeof(PyThread_type_lock))
    w.claim = PyThread_allocate_lock()
    if (w.packed == NULL and w.games == NULL) or w.ready == NULL or w.helpers == NULL \
            or w.left == NULL or w.claim == NULL:
        return w  # crew_free frees what was made; crew_complete sees what is missing
    for k in range(w.chunks):
        w.ready[k] = PyThread_allocate_lock()
        if w.ready[k] == NULL:
            return w
        PyThread_acquire_lock(w.ready[k], 1)
    for i in range(helpers):
        w.helpers[i].crew = w
        w.helpers[i].i = i
        w.left[i] = PyThread_allocate_lock()
        if w.left[i] == NULL:
            return w
        PyThread_acquire_lock(w.left[i], 1)
    return w


cdef bint crew_complete(ListCrew *w, int32_t helpers) noexcept nogil:
    cdef int64_t k
    cdef int32_t i
    if (w.packed == NULL and (w.games == NULL or w.targets == NULL or w.small == NULL)) \
            or w.ready == NULL or w.helpers == NULL or w.left == NULL or w.claim == NULL:
        return False
    for k in range(w.chunks):
        if w.ready[k] == NULL:
            return False
    for i in range(helpers):
        if w.left[i] == NULL:
            return False
    return True


cdef void crew_free(ListCrew *w, int32_t helpers) noexcept:
    cdef int64_t k
    cdef int32_t i
    if w == NULL:
        return
    if w.ready != NULL:
        for k in range(w.chunks):
            if w.ready[k] != NULL:
                PyThread_free_lock(w.ready[k])
    for i in range(helpers):
        if w.left != NULL and w.left[i] != NULL:
            PyThread_free_lock(w.left[i])
    if w.claim != NULL:
        PyThread_free_lock(w.claim)
    PyMem_RawFree(w.ready)
    PyMem_RawFree(w.helpers)
    PyMem_RawFree(w.left)
    PyMem_RawFree(w.packed)
    PyMem_RawFree(w.games)
    PyMem_RawFree(w.targets)
    PyMem_RawFree(w.small)
    PyMem_RawFree(w)


cdef int read_item(ListCrew *w, list batch, Py_ssize_t at, int64_t i, long m, long c,
                   long h, object mouse, object cat, object turn) except -1:
    """Read ``batch[at]`` into item ``i`` of the window (GIL held)."""
    cdef Board board
    if w.packed != NULL:
        return pack_lists(batch[at], m, c, h, &w.packed[i])
    board = <Board?> batch[at]
    w.small[i] = board.n <= 64
    w.games[i] = <const void *> &board.small if w.small[i] else <const void *> &board.game
    w.targets[i] = board.target(mouse, cat, turn)
    return 0


cdef int solve_window(list batch, Py_ssize_t lo, Py_ssize_t hi, long m, long c, long h,
                      object mouse, object cat, object turn, int64_t chunk, int32_t helpers,
                      bint boards, uint8_t *out) except -1:
    """Codes of ``batch[lo:hi]`` into ``out``: read here, solved here and by ``helpers``.

    Boards stay alive meanwhile: ``batch`` holds them, and the caller holds ``batch``.
    """
    global helpers_started
    cdef int64_t count = hi - lo, k, i, top
    cdef ListCrew *w
    cdef int64_t packed = 0
    cdef bint done = False
    cdef int32_t j, running = 0
    w = crew_alloc(count, chunk, helpers, boards)
    if w == NULL:
        raise MemoryError("cannot allocate the batch")
    w.out = out
    try:
        if not crew_complete(w, helpers):
            raise MemoryError(f"cannot allocate the batch ({count} graphs)")
        while running < helpers:
            if PyThread_start_new_thread(helper_main, &w.helpers[running]) \
                    == PYTHREAD_INVALID_THREAD_ID:
                break  # no thread to spare: the caller's thread does the rest
            running += 1
            helpers_started += 1
        for k in range(w.chunks):
            top = min((k + 1) * chunk, count)
            for i in range(k * chunk, top):
                read_item(w, batch, lo + i, i, m, c, h, mouse, cat, turn)
            PyThread_release_lock(w.ready[k])
            packed = k + 1
            check_signals_raise()
        # Everything is read: the caller's thread claims chunks too, checking for Ctrl-C
        # between them.
        while True:
            with nogil:
                k = claim_chunk(w)
                if k < w.chunks:
                    PyThread_acquire_lock(w.ready[k], 1)
                    solve_chunk(w, k)
            if k >= w.chunks:
                break
            check_signals_raise()
        done = True
    finally:
        # Done: every chunk is solved by whoever claimed it.  Abandoned (Ctrl-C, an error):
        # stop the helpers (each finishes at most the item it is on) and open every chunk
        # not yet read, so that none waits.  Either way, wait until each helper has left
        # before freeing what they read.
        if not done:
            cm_store_flag(&w.stop, 1)
        if running:
            for k in range(packed, w.chunks):
                PyThread_release_lock(w.ready[k])
            with nogil:
                while running > 0:
                    running -= 1
                    PyThread_acquire_lock(w.left[running], 1)
        crew_free(w, helpers)
    return 0


cdef int solve_alone(list batch, Py_ssize_t lo, Py_ssize_t hi, long m, long c, long h,
                     object mouse, object cat, object turn, bint boards,
                     uint8_t *out) except -1:
    """Codes of ``batch[lo:hi]`` into ``out``, each item read and solved in turn by the
    calling thread: without helpers, a crew's locks and allocations cost more than a small
    batch's solving.  Lists of at most 64 nodes, or Boards (at most 64 nodes: the caller
    sends bigger ones to a crew, which solves them without the GIL); a solve takes
    microseconds, so the GIL stays held, as in ``solve_lists``.  Ctrl-C is checked once a
    chunk."""
    cdef Packed packed
    cdef Board board
    cdef int64_t target
    cdef Py_ssize_t i
    for i in range(lo, hi):
        if boards:
            board = <Board?> batch[i]
            target = board.target(mouse, cat, turn)
            out[i - lo] = 255 if target < 0 else \
                <uint8_t> small_solve(&board.small, target, NULL, NULL)
        else:
            pack_lists(batch[i], m, c, h, &packed)
            solve_packed(&packed, out + i - lo)
        if (i - lo) % BATCH_CHUNK == BATCH_CHUNK - 1:
            check_signals_raise()
    return 0


def solve_lists_many(list batch not None, mouse, cat, hole, threads=1):
    """Outcome codes of LeetCode 913 on each plain-list graph of ``batch``, 255 where declined.

    The fast path of ``solve_many`` for graphs of at most 64 nodes: the calling thread reads
    each list once (no ``Graph``, no CSR) while ``threads - 1`` helpers solve the graphs
    already read, without the GIL.  Anything else (a bigger graph, a bad list, a start that
    is not a position) gets 255, for the caller's other paths to solve or report.

    >>> bytes(solve_lists_many([[[1, 3], [0], [3], [0, 2]]] * 3, 1, 2, 0, threads=2))
    b'\\x01\\x01\\x01'
    """
    cdef int overflow = 0
    cdef long m, c, h
    cdef Py_ssize_t count = len(batch), lo, hi
    cdef int32_t helpers
    check_threads(threads)
    cdef bytearray codes = bytearray(b"\xff") * count
    cdef uint8_t *out = codes
    if type(mouse) is not int or type(cat) is not int or type(hole) is not int or count == 0:
        return codes
    m = PyLong_AsLongAndOverflow(mouse, &overflow)
    c = PyLong_AsLongAndOverflow(cat, &overflow) if not overflow else 0
    h = PyLong_AsLongAndOverflow(hole, &overflow) if not overflow else 0
    if overflow:
        return codes
    for lo in range(0, count, BATCH_WINDOW):
        hi = min(lo + BATCH_WINDOW, count)
        # A helper per chunk at most: a short batch needs fewer.
        helpers = <int32_t> min(threads - 1, (hi - lo - 1) // BATCH_CHUNK)
        if helpers <= 0:
            solve_alone(batch, lo, hi, m, c, h, None, None, None, False, out + lo)
        else:
            solve_window(batch, lo, hi, m, c, h, None, None, None, BATCH_CHUNK, helpers,
                         False, out + lo)
    return codes
