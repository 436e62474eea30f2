# Included by bits_c.pyx. Threads within one k-cops search (n <= 64): the rounds of cops.pxi
# split over a crew, with the same tables byte for byte whatever the thread count.
#
# A round is three phases, a barrier (CPython locks, as crew.pxi) after each:
#   robber: each thread takes the rows it owns whose cop set grew, and sets their robber bits;
#   push:   each thread pushes its rows' new robber bits to every team move of them, into a
#           gain table of its own (no thread writes another's: no atomics, no races);
#   merge:  each thread owns a block of rows, ORs every thread's gains for them, writes the
#           cop sets and the remoteness of the new bits, and lists the rows that grew.
# A bit's round does not depend on who found it, so the tables are those of one thread.

cdef int crew_reserve(CopCrew *w, int64_t rows) noexcept nogil:
    """Each thread's buffers for ``rows`` rows (kept when big enough); -1 if out of memory."""
    cdef int64_t size
    if rows <= w.capacity:
        return 0
    crew_free_buffers(w)
    size = <int64_t> w.threads * rows
    w.acc = <uint64_t *> PyMem_RawCalloc(<size_t> size, 8)
    w.touched = <int32_t *> PyMem_RawMalloc(<size_t> size * 4)
    w.changed = <int32_t *> PyMem_RawMalloc(<size_t> size * 4)
    w.pushed = <int32_t *> PyMem_RawMalloc(<size_t> size * 4)
    if w.acc == NULL or w.touched == NULL or w.changed == NULL or w.pushed == NULL:
        crew_free_buffers(w)
        return -1
    w.capacity = rows
    return 0


cdef void crew_free_buffers(CopCrew *w) noexcept nogil:
    PyMem_RawFree(w.acc)
    PyMem_RawFree(w.touched)
    PyMem_RawFree(w.changed)
    PyMem_RawFree(w.pushed)
    w.acc = NULL
    w.touched = w.changed = w.pushed = NULL
    w.capacity = 0


cdef int64_t crew_need(int64_t n, int64_t k, int64_t threads) noexcept nogil:
    """Bytes a crew of ``threads`` adds to a search: per thread and row a word, three ints."""
    cdef int64_t rows = cops_rows_c(n, k)
    if threads <= 1:
        return 0
    if rows < 0 or rows >= (<int64_t> 1) << 31:
        return (<int64_t> 1) << 62
    return <int64_t> sizeof(CopCrew) + min(threads, COPS_CREW_MAX) * rows * (8 + 3 * 4)


cdef int64_t crew_push(CopSearch *c, int64_t s, uint64_t new, uint64_t *acc,
                       int32_t *touched, int64_t *ntouched) noexcept nogil:
    """cops_push's walk over the team moves of row ``s``, gains into ``acc`` alone; returns
    the steps it took (the work between two polls)."""
    cdef int32_t k = c.k, m = c.k - 1, i, j, p, q, limit, inner
    cdef int64_t row
    cdef uint8_t a[COPS_MAX]
    cdef uint8_t b[COPS_MAX]
    cdef int32_t pick[COPS_MAX]
    cdef int64_t before[COPS_MAX + 1]
    cdef int64_t after[COPS_MAX + 1]
    cdef uint8_t v
    cdef uint64_t gain
    cdef int64_t steps = 0
    for i in range(k):
        a[i] = c.team[s * k + i]
        pick[i] = 0
    while True:
        for i in range(1, k):
            v = c.moves[a[i]][pick[i]]
            j = i - 1
            while j > 0 and b[j - 1] > v:
                b[j] = b[j - 1]
                j -= 1
            b[j] = v
        before[0] = 0
        for p in range(m):
            before[p + 1] = before[p] + c.weight[p][b[p]]
        after[m] = 0
        for p in range(m - 1, -1, -1):
            after[p] = after[p + 1] + c.weight[p + 1][b[p]]
        inner = pick[1] + 1 if k > 1 and a[0] == a[1] else c.degree[a[0]]
        steps += inner
        for q in range(inner):
            v = c.moves[a[0]][q]
            p = 0
            while p < m and b[p] < v:
                p += 1
            row = before[p] + c.weight[p][v] + after[p]
            gain = new & ~c.cops[row] & ~acc[row]  # the cop sets are read-only in this phase
            if gain:
                if acc[row] == 0:
                    touched[ntouched[0]] = <int32_t> row
                    ntouched[0] += 1
                acc[row] |= gain
        i = 1
        while i < k:
            pick[i] += 1
            limit = pick[i + 1] + 1 if i + 1 < k and a[i] == a[i + 1] else c.degree[a[i]]
            if pick[i] < limit:
                break
            pick[i] = 0
            i += 1
        if i >= k:
            return steps


cdef inline bint crew_stop(CopSearch *c, int32_t i, int64_t work) noexcept nogil:
    """Whether thread ``i`` must leave its share now: thread 0 (the caller's) polls (and
    sets ``stopped``), the helpers watch ``stopped``."""
    if i == 0:
        c.work += work
        return cops_poll(c) < 0
    return cm_load32(&c.stopped) != 0


cdef void crew_phase_here(CopSearch *c, int32_t i) noexcept nogil:
    """Thread ``i``'s share of the crew's current phase."""
    cdef CopCrew *w = c.crew
    cdef int32_t n = c.n, T = w.threads, j, other
    cdef int64_t cap = w.capacity, idx, s, lo, hi, row, steps
    cdef int32_t *mine
    cdef uint64_t outside, reach, new, g
    if w.phase == COPS_PHASE_ROBBER:
        mine = w.changed + i * cap
        w.npushed[i] = 0
        for idx in range(w.nchanged[i]):
            if idx & 1023 == 0 and crew_stop(c, i, 1024 * COPS_ROW_WORK):
                return
            s = mine[idx]
            outside = c.everyone & ~c.cops[s]
            reach = 0
            while outside:
                reach |= c.closed[cm_ctz64(outside)]
                outside &= outside - 1
            new = c.everyone & ~reach & ~c.robber[s]
            if new:
                c.robber[s] |= new
                c.fresh[s] = new
                w.pushed[i * cap + w.npushed[i]] = <int32_t> s
                w.npushed[i] += 1
                if c.rem != NULL:
                    cops_write(c.rem, s * n, new, w.t)
    elif w.phase == COPS_PHASE_PUSH:
        w.ntouched[i] = 0
        steps = 0  # since the last look at the stop flag
        for idx in range(w.npushed[i]):
            if steps >= 4096:
                if crew_stop(c, i, steps):
                    return
                steps = 0
            s = w.pushed[i * cap + idx]
            steps += crew_push(c, s, c.fresh[s], w.acc + i * cap, w.touched + i * cap,
                               &w.ntouched[i])
    elif w.phase == COPS_PHASE_MERGE:
        lo = c.rows * i // T
        hi = c.rows * (i + 1) // T
        w.nchanged[i] = 0
        for j in range(T):
            for idx in range(w.ntouched[j]):
                if idx & 1023 == 0 and crew_stop(c, i, 1024 * COPS_ROW_WORK):
                    return
                row = w.touched[j * cap + idx]
                if row < lo or row >= hi:
                    continue
                g = 0
                for other in range(T):
                    g |= w.acc[other * cap + row]
                    w.acc[other * cap + row] = 0
                if g == 0:
                    continue  # met already in an earlier thread's list
                c.cops[row] |= g
                if c.rem != NULL:
                    cops_write(c.rem, (c.rows + row) * n, g, w.t)
                w.changed[i * cap + w.nchanged[i]] = <int32_t> row
                w.nchanged[i] += 1


cdef void crew_wait(CopSearch *c, PyThread_type_lock lock) noexcept nogil:
    """lock_wait, waking every POLL_WAIT_US to poll (a signal sets ``stopped``: the helper
    waited for leaves its share at its next look, within a few ms)."""
    cdef int32_t i
    for i in range(c.crew.spins):
        if PyThread_acquire_lock(lock, 0):
            return
        cm_pause()
    while PyThread_acquire_lock_timed(lock, POLL_WAIT_US, 0) != 1:
        c.work = COPS_POLL_WORK
        cops_poll(c)


cdef int crew_phase(CopSearch *c, int32_t phase) noexcept nogil:
    """Run one phase on every thread (this one takes share 0), then wait for them all;
    -1 if the search was stopped (cops_poll) in it."""
    cdef CopCrew *w = c.crew
    cdef int32_t i
    w.phase = phase
    for i in range(1, w.threads):
        PyThread_release_lock(w.go[i])
    crew_phase_here(c, 0)
    for i in range(1, w.threads):
        crew_wait(c, w.done[i])
    return -1 if c.stopped else 0


cdef void crew_loop(CopSearch *c, int32_t i) noexcept nogil:
    """A helper thread: wait for a phase, run its share, report done; until told to exit."""
    cdef CopCrew *w = c.crew
    while True:
        lock_wait(w.go[i], w.spins)
        if w.phase == COPS_PHASE_EXIT:
            PyThread_release_lock(w.done[i])
            return
        crew_phase_here(c, i)
        PyThread_release_lock(w.done[i])


cdef int64_t crew_first_full(CopSearch *c) noexcept nogil:
    """The smallest row whose cop set grew this round and holds every robber node, or -1."""
    cdef CopCrew *w = c.crew
    cdef int32_t i
    cdef int64_t idx, row, first = -1
    for i in range(w.threads):
        for idx in range(w.nchanged[i]):
            row = w.changed[i * w.capacity + idx]
            if c.cops[row] == c.everyone and (first < 0 or row < first):
                first = row
    return first


cdef int64_t crew_run(CopSearch *c, bint stop) noexcept nogil:
    """cops_run with the crew: a winning row, -1, COPS_INTERRUPTED or COPS_NO_MEMORY.

    In the cop number's mode (``any_win``) it stops after the round that fills a row, not
    mid-round: the same answer (some row wins), found a little later.
    """
    cdef CopCrew *w = c.crew
    cdef int32_t i, t = 1, T = w.threads
    cdef int64_t s, first = -1, grown, full
    cdef bint tables = c.outcome != NULL or c.rem != NULL
    if crew_reserve(w, c.rows) < 0:
        return COPS_NO_MEMORY
    c.found = -1
    c.work = 0
    if cops_start(c) < 0:
        return COPS_INTERRUPTED
    for s in range(c.rows):
        if cops_poll_rows(c, s, 1024 * 4) < 0:
            return COPS_INTERRUPTED
        if c.cops[s] == c.everyone:
            first = s
            break
    if first >= 0 and (c.any_win or stop and not tables):
        return first
    for i in range(T):  # every row starts changed: each thread takes its block
        w.nchanged[i] = 0
        for s in range(c.rows * i // T, c.rows * (i + 1) // T):
            w.changed[i * w.capacity + w.nchanged[i]] = <int32_t> s
            w.nchanged[i] += 1
    while True:
        t += 1  # the robber's round
        w.t = t
        if crew_phase(c, COPS_PHASE_ROBBER) < 0:
            return COPS_INTERRUPTED
        grown = 0
        for i in range(T):
            grown += w.npushed[i]
        if grown == 0:
            break
        t += 1  # the cops' round
        w.t = t
        if crew_phase(c, COPS_PHASE_PUSH) < 0 or crew_phase(c, COPS_PHASE_MERGE) < 0:
            return COPS_INTERRUPTED  # (the phases poll within, every few thousand steps)
        full = crew_first_full(c)
        if full >= 0 and c.any_win:
            return full
        if first < 0:
            first = full
        if first >= 0 and stop and not tables:
            return first
    if c.outcome != NULL and cops_outcome(c) < 0:
        return COPS_INTERRUPTED
    return first


cdef struct CopHelper:
    CopSearch *c
    int32_t i


cdef void cops_helper_main(void *arg) noexcept nogil:
    """A helper thread of one search (a C thread, as the general crew's)."""
    cdef CopHelper *h = <CopHelper *> arg
    crew_loop(h.c, h.i)


cdef class _CopCrewThreads:
    """The helper threads of one search; ``close()`` stops them, then frees."""

    cdef CopCrew w
    cdef CopHelper args[COPS_CREW_MAX]
    cdef int32_t helpers

    def __cinit__(self):
        memset(&self.w, 0, sizeof(CopCrew))
        self.helpers = 0

    cdef int start(self, CopSearch *c, int32_t threads) except -1:
        cdef int32_t i
        self.w.threads = 1
        self.w.spins = spins_for(threads)
        c.crew = &self.w
        for i in range(1, threads):
            self.w.go[i] = PyThread_allocate_lock()
            self.w.done[i] = PyThread_allocate_lock()
            if self.w.go[i] == NULL or self.w.done[i] == NULL:
                raise MemoryError("cannot allocate the thread locks")
            PyThread_acquire_lock(self.w.go[i], 1)
            PyThread_acquire_lock(self.w.done[i], 1)
        for i in range(1, threads):
            # A launch returns a running thread or fails: none can run unrecorded.
            self.args[i].c = c
            self.args[i].i = i
            if PyThread_start_new_thread(cops_helper_main, &self.args[i]) \
                    == PYTHREAD_INVALID_THREAD_ID:
                raise RuntimeError("can't start new thread")
            self.helpers = i
            self.w.threads = i + 1
        return 0

    def close(self):
        """Every helper leaves its loop (without the GIL: Ctrl-C cannot cut the wait short;
        its last touch of the search is its done lock), then the locks and buffers go."""
        cdef int32_t i, helpers = self.helpers
        self.w.phase = COPS_PHASE_EXIT
        for i in range(1, helpers + 1):
            PyThread_release_lock(self.w.go[i])
        with nogil:
            for i in range(1, helpers + 1):
                PyThread_acquire_lock(self.w.done[i], 1)
        self.helpers = 0
        for i in range(1, COPS_CREW_MAX):
            if self.w.go[i] != NULL:
                PyThread_free_lock(self.w.go[i])
                self.w.go[i] = NULL
            if self.w.done[i] != NULL:
                PyThread_free_lock(self.w.done[i])
                self.w.done[i] = NULL
        crew_free_buffers(&self.w)

    def __dealloc__(self):
        crew_free_buffers(&self.w)
