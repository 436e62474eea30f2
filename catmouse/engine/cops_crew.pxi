# Included by bits_c.pyx. Threads within one k-cops search (n <= 64): the rounds of cops.pxi
# split over a crew, with the same tables byte for byte whatever the thread count.
#
# A round is two phases, a barrier (CPython locks, as crew.pxi) after each:
#   robber: each thread takes the rows of its list whose cop set grew, and sets their
#           robber bits (no two lists share a row);
#   push:   the rows whose robber set grew, all lists one after another, are dealt to the
#           threads PUSH_CHUNK at a time (even shares, whatever the lists' lengths); each
#           pushes their new robber bits to every team move, ORing them into the shared cop
#           sets with an atomic OR (_crew.h): the bits it sets first are its to write in the
#           remoteness table, and the first thread to see a row grow (an atomic swap of its
#           mark) lists it for its next robber phase.
# A bit's round does not depend on who found it, so the tables are those of one thread.
# Rounds 0 and 1 and the outcome table split by blocks of rows (phases START, OUTCOME).
# (An earlier crew gave each thread a gain table of its own and merged them: twice the
# memory touched at random, and the 6-cube with 4 cops ran no faster on two threads.)
#
# threads=None (``auto``): a crew only for searches of AUTO_CREW_ROWS rows or more, and the
# caller times its phases: when it waits for the helpers half as long as it works on its own
# shares, and a helper ran for less than HELPER_CPU_PERCENT of the wall time its shares took
# (starved of CPU: another process on its core, a cgroup quota), the search finishes on the
# caller's thread alone (cops_rounds), never much slower than threads=1.  The helpers' CPU
# clocks tell starving from shares of unequal work, which also make the caller wait: on free
# cores cop_number(6-cube) sent its crew home in 3 of 4 calls by the waits alone.

cdef extern from "_clocks.h" nogil:  # (CM_HAVE_PACE_CLOCKS, cm_thread_ns: pace.pxi)
    int64_t cm_wall_ns()

cdef extern from "_crew.h" nogil:
    uint64_t cm_load64(const uint64_t *p)
    uint64_t cm_fetch_or64(uint64_t *p, uint64_t v)
    uint8_t cm_swap8(uint8_t *p, uint8_t v)

cdef enum:
    SOLO_MIN_WAIT_NS = 1000000   # waits below this (1 ms in all) never send a crew home
    # A helper with less CPU than this share of its shares' wall time is starved (beside a
    # spinning process: about 50).
    HELPER_CPU_PERCENT = 75
    PUSH_CHUNK = 16              # rows of the push lists a thread takes at a time
    HUGE_PIECE = 1 << 21         # a huge page: the share of a table a thread faults in at once


cdef int crew_reserve(CopCrew *w, int64_t rows) noexcept nogil:
    """Each thread's lists for ``rows`` rows (kept when big enough); -1 if out of memory."""
    cdef int64_t size
    if rows <= w.capacity:
        return 0
    crew_free_buffers(w)
    size = <int64_t> w.threads * rows
    w.changed = <int32_t *> PyMem_RawMalloc(<size_t> size * 4)
    w.pushed = <int32_t *> PyMem_RawMalloc(<size_t> size * 4)
    if w.changed == NULL or w.pushed == NULL:
        crew_free_buffers(w)
        return -1
    w.capacity = rows
    return 0


cdef void crew_free_buffers(CopCrew *w) noexcept nogil:
    PyMem_RawFree(w.changed)
    PyMem_RawFree(w.pushed)
    w.changed = w.pushed = NULL
    w.capacity = 0


cdef int64_t crew_need(int64_t n, int64_t k, int64_t threads) noexcept nogil:
    """Bytes a crew of ``threads`` adds to a search: per thread and row two ints."""
    cdef int64_t rows = cops_rows_c(n, k)
    if threads <= 1 or not CM_HAVE_ATOMICS:
        return 0
    if rows < 0 or rows >= (<int64_t> 1) << 31:
        return (<int64_t> 1) << 62
    return <int64_t> sizeof(CopCrew) + min(threads, COPS_CREW_MAX) * rows * 2 * 4


cdef int64_t crew_push(CopSearch *c, int64_t s, uint64_t new, int32_t me,
                       int64_t *won) noexcept nogil:
    """cops_push's walk over the team moves of row ``s``, on thread ``me`` of the crew;
    returns the steps it took (the work between two polls).  In the cop number's mode it
    stops at a row it fills, left in ``won``."""
    cdef CopCrew *w = c.crew
    cdef int32_t *mine = w.changed + me * w.capacity
    cdef int32_t k = c.k, m = c.k - 1, i, j, p, q, limit, inner
    cdef int64_t row, turn1 = c.rows * c.n
    cdef uint8_t a[COPS_MAX]
    cdef uint8_t b[COPS_MAX]
    cdef int32_t pick[COPS_MAX]
    cdef int64_t before[COPS_MAX + 1]
    cdef int64_t after[COPS_MAX + 1]
    cdef uint8_t v
    cdef uint64_t gain, old
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
            gain = new & ~cm_load64(&c.cops[row])
            if gain:
                old = cm_fetch_or64(&c.cops[row], gain)
                gain &= ~old  # the bits this thread set first
                if gain:
                    cops_write(&c.plies, turn1 + row * c.n, gain, w.t)
                    if not c.mark[row] and not cm_swap8(&c.mark[row], 1):
                        mine[w.nchanged[me]] = <int32_t> row
                        w.nchanged[me] += 1
                    if c.any_win and (old | gain) == c.everyone:
                        won[0] = row
                        return steps
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


cdef void crew_pushes(CopSearch *c, int32_t i) noexcept nogil:
    """Thread ``i``'s share of the push phase: chunk j of the lists, one after another, is
    thread j % T's."""
    cdef CopCrew *w = c.crew
    cdef int32_t T = w.threads, j = 0
    cdef int64_t base = 0, start = i * PUSH_CHUNK, g, s, steps = 0
    w.nchanged[i] = 0
    w.won_row[i] = -1
    while True:
        for g in range(start, start + PUSH_CHUNK):  # (a chunk may span two lists)
            while j < T and g >= base + w.npushed[j]:
                base += w.npushed[j]
                j += 1
            if j >= T:
                return
            if steps >= 4096:  # steps since the last look at the stop flags
                if crew_stop(c, i, steps) or cm_load32(&w.won):
                    return
                steps = 0
            s = w.pushed[j * w.capacity + g - base]
            steps += crew_push(c, s, c.fresh[s], i, &w.won_row[i])
            if w.won_row[i] >= 0:
                cm_store_flag(&w.won, 1)  # the others leave at their next look
                return
        start += T * PUSH_CHUNK


cdef void populate_share(void *table, int64_t size, int32_t i, int32_t T) noexcept nogil:
    """Thread ``i``'s share of a caller's fresh table faulted in (2 MiB pieces dealt in turn,
    at 2 MiB boundaries, so no two threads fault in one huge page), the kernel clearing each
    thread's pages on its own CPU.  The 6-cube with 3 cops on two threads took 15-16 ms into
    fresh tables against 11 ms into tables already written; faulted in here, paired
    (benchmarks/paired.py --graph q6 --cops 3 --threads 2): 0.985 of the time, twice.
    (CopsGame.analyze no longer has its tables cleared, so from its second call on the
    allocator usually hands back pages already in: then this is a walk of the page tables.)"""
    cdef char *start = <char *> table
    cdef char *end = start + size
    cdef char *piece = <char *> ((<uintptr_t> start + HUGE_PIECE) & ~(<uintptr_t> HUGE_PIECE - 1))
    if piece > end:
        piece = end
    if i == 0:
        cm_populate(start, <size_t> (piece - start))
    piece += <int64_t> i * HUGE_PIECE
    while piece < end:
        cm_populate(piece, <size_t> (min(HUGE_PIECE, end - piece)))
        piece += <int64_t> T * HUGE_PIECE


cdef void crew_phase_here(CopSearch *c, int32_t i) noexcept nogil:
    """Thread ``i``'s share of the crew's current phase."""
    cdef CopCrew *w = c.crew
    cdef int32_t n = c.n, T = w.threads
    cdef int64_t cap = w.capacity, idx, s
    cdef int64_t lo = c.rows * i // T, hi = c.rows * (i + 1) // T
    cdef int32_t *mine = w.changed + i * cap
    cdef uint64_t outside, reach, new
    if w.phase == COPS_PHASE_START:
        if c.outcome != NULL:
            populate_share(c.outcome, 2 * c.rows * n, i, T)
        if c.plies.wide != NULL:
            populate_share(c.plies.wide, 8 * c.rows * n, i, T)
        elif c.plies.narrow != NULL:
            populate_share(c.plies.narrow, 2 * c.rows * n, i, T)
        if cops_start_rows(c, i, lo, hi) < 0:
            return
        for s in range(lo, hi):  # every row starts changed: each thread takes its block
            mine[s - lo] = <int32_t> s
        w.nchanged[i] = hi - lo
    elif w.phase == COPS_PHASE_OUTCOME:
        cops_outcome_rows(c, i, lo, hi)
    elif w.phase == COPS_PHASE_ROBBER:
        w.npushed[i] = 0
        for idx in range(w.nchanged[i]):
            if idx & 1023 == 0 and crew_stop(c, i, 1024 * COPS_ROW_WORK):
                return
            s = mine[idx]
            c.mark[s] = 0
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
                cops_write(&c.plies, s * n, new, w.t)
    elif w.phase == COPS_PHASE_PUSH:
        crew_pushes(c, i)


cdef void crew_clear(CopSearch *c) noexcept nogil:
    """Unmark the rows of the threads' lists when a search ends early (a win, a stop): the
    next search on these buffers starts with no row marked."""
    cdef CopCrew *w = c.crew
    cdef int32_t j
    cdef int64_t idx
    for j in range(w.threads):
        for idx in range(w.nchanged[j]):
            c.mark[w.changed[j * w.capacity + idx]] = 0


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
    -1 if the search was stopped (cops_poll) in it.  With ``auto``, the time of this
    thread's share and of its wait after it are added up (crew_starved)."""
    cdef CopCrew *w = c.crew
    cdef int32_t i
    cdef int64_t begin = 0, mid = 0
    w.phase = phase
    if w.auto:
        begin = cm_wall_ns()
        w.begin_ns = begin
    for i in range(1, w.threads):
        PyThread_release_lock(w.go[i])
    crew_phase_here(c, 0)
    if w.auto:
        mid = cm_wall_ns()
    for i in range(1, w.threads):
        crew_wait(c, w.done[i])
    if w.auto:
        w.own_ns += mid - begin
        w.waited_ns += cm_wall_ns() - mid
    return -1 if c.stopped else 0


# For the tests (_cops_crews): a round from which every auto crew is sent home (0: none),
# and how many crews were hired and how many went home.
cdef int32_t crew_solo_from = 0
cdef int64_t crew_hired_count = 0
cdef int64_t crew_solo_count = 0


def _cops_crews(solo_from=None):
    """(crews hired, crews sent home) since the import: k-cops searches that started
    helper threads, and threads=None searches that ended on their own thread.  With
    ``solo_from`` (tests only), every threads=None crew goes home before that round
    (0: only when measured starved)."""
    global crew_solo_from
    if solo_from is not None:
        crew_solo_from = solo_from
    return crew_hired_count, crew_solo_count


cdef bint crew_starved(CopCrew *w) noexcept nogil:
    """Whether the helpers lag so far behind that this thread alone would do better: it
    waited for them, in all, more than half its own shares' time (balanced shares on free
    cores wait a few percent), and at least SOLO_MIN_WAIT_NS."""
    if not w.auto:
        return False
    if crew_solo_from > 0 and w.t + 1 >= crew_solo_from:
        return True
    return starved_by(w.own_ns, w.waited_ns, w.help_cpu_ns, w.help_wall_ns, w.threads,
                      CM_HAVE_PACE_CLOCKS)


cdef bint starved_by(int64_t own, int64_t waited, const int64_t *cpu, const int64_t *wall,
                     int32_t threads, bint clocks) noexcept nogil:
    """crew_starved's rule: long waits, and a helper (1 .. threads - 1) short of CPU in its
    shares; without thread clocks (``clocks`` false, or a helper's count -1) the waits alone."""
    cdef int32_t i
    if not (waited > SOLO_MIN_WAIT_NS and 2 * waited > own):
        return False
    for i in range(1, threads):
        if not clocks or cpu[i] < 0 or cpu[i] * 100 < wall[i] * HELPER_CPU_PERCENT:
            return True
    return False


def _crew_starved_rule(own_ns, waited_ns, helpers, clocks=True):
    """For the tests: crew_starved's rule on given counts (the caller's own and waited
    nanoseconds, each helper's (cpu_ns, wall_ns))."""
    cdef int64_t cpu[COPS_CREW_MAX]
    cdef int64_t wall[COPS_CREW_MAX]
    cdef int32_t i
    if len(helpers) >= COPS_CREW_MAX:
        raise ValueError(f"at most {COPS_CREW_MAX - 1} helpers")
    for i, (c, w) in enumerate(helpers, 1):
        cpu[i] = c
        wall[i] = w
    return starved_by(own_ns, waited_ns, cpu, wall, len(helpers) + 1, clocks)


cdef int64_t crew_solo(CopSearch *c, int32_t t, int64_t first, bint stop) noexcept nogil:
    """The rest of the search on this thread (cops_rounds), from the crew's round ``t``."""
    cdef CopCrew *w = c.crew
    cdef int32_t i
    cdef int64_t idx, count = 0
    global crew_solo_count
    crew_solo_count += 1
    for i in range(w.threads):
        for idx in range(w.nchanged[i]):
            c.changed[count] = w.changed[i * w.capacity + idx]
            count += 1
    return cops_rounds(c, t, count, first, stop)


cdef void crew_loop(CopSearch *c, int32_t i) noexcept nogil:
    """A helper thread: wait for a phase, run its share, report done; until told to exit."""
    cdef CopCrew *w = c.crew
    while True:
        lock_wait(w.go[i], w.spins)
        if w.phase == COPS_PHASE_EXIT:
            PyThread_release_lock(w.done[i])
            return
        if w.auto:
            crew_share_timed(c, i)
        else:
            crew_phase_here(c, i)
        PyThread_release_lock(w.done[i])


cdef void crew_share_timed(CopSearch *c, int32_t i) noexcept nogil:
    """Helper ``i``'s share of the phase, its CPU time and the wall time since the phase was
    handed out added to its counts (crew_starved)."""
    cdef CopCrew *w = c.crew
    cdef int64_t cpu = cm_thread_ns(), end
    crew_phase_here(c, i)
    end = cm_thread_ns()
    if cpu < 0 or end < 0 or w.help_cpu_ns[i] < 0:
        w.help_cpu_ns[i] = -1
    else:
        w.help_cpu_ns[i] += end - cpu
    w.help_wall_ns[i] += cm_wall_ns() - w.begin_ns


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

    In the cop number's mode (``any_win``) every thread leaves its pushes at the first row
    one of them fills: some row wins, as cops_run finds mid-round.
    """
    cdef CopCrew *w = c.crew
    cdef int32_t i, t = 1, T = w.threads
    cdef int64_t s, first = -1, grown, full
    cdef bint tables = cops_tables(c.outcome, &c.plies)
    if crew_reserve(w, c.rows) < 0:
        return COPS_NO_MEMORY
    c.found = -1
    c.work = 0
    w.won = 0
    w.t = 1
    w.own_ns = w.waited_ns = 0
    for i in range(T):
        w.help_wall_ns[i] = w.help_cpu_ns[i] = 0
    if crew_phase(c, COPS_PHASE_START) < 0:
        return COPS_INTERRUPTED
    for s in range(c.rows):
        if cops_poll_rows(c, s, 1024 * 4) < 0:
            return COPS_INTERRUPTED
        if c.cops[s] == c.everyone:
            first = s
            break
    if first >= 0 and (c.any_win or stop and not tables):
        return first
    while True:
        if crew_starved(w):
            return crew_solo(c, t, first, stop)
        t += 1  # the robber's round
        w.t = t
        if crew_phase(c, COPS_PHASE_ROBBER) < 0:
            crew_clear(c)
            return COPS_INTERRUPTED
        grown = 0
        for i in range(T):
            grown += w.npushed[i]
        if grown == 0:
            break
        if cops_past_byte(&c.plies, t, grown):
            return COPS_PAST_BYTE
        t += 1  # the cops' round
        w.t = t
        if crew_phase(c, COPS_PHASE_PUSH) < 0:
            crew_clear(c)
            return COPS_INTERRUPTED  # (the phases poll within, every few thousand steps)
        if w.won:
            crew_clear(c)
            for i in range(T):
                if w.won_row[i] >= 0:
                    return w.won_row[i]
        grown = 0
        for i in range(T):
            grown += w.nchanged[i]
        if cops_past_byte(&c.plies, t, grown):
            crew_clear(c)
            return COPS_PAST_BYTE
        full = crew_first_full(c)
        if full >= 0 and c.any_win:
            return full
        if first < 0:
            first = full
        if first >= 0 and stop and not tables:
            return first
    if c.outcome != NULL and crew_phase(c, COPS_PHASE_OUTCOME) < 0:
        return COPS_INTERRUPTED
    return first


cdef void crew_hire(CopSearch *c) noexcept nogil:
    """Start the crew ``c.hire`` holds, for ``c.want`` threads, at the first search that
    takes one.  A helper that cannot start (no memory, no threads left) is done without:
    the search runs on those that started, the same tables."""
    global crew_hired_count
    with gil:
        crew_hired_count += 1
        crew = <_CopCrewThreads> c.hire
        c.hire = NULL
        try:
            crew.start(c, c.want)
        except (MemoryError, RuntimeError):
            pass


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
        self.w.auto = c.auto
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
