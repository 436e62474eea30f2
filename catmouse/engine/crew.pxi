# Included by bits_c.pyx. The thread crew: phases with barriers, helper threads, Ctrl-C, one
# general solve.

cdef extern from "pythread.h":
    # The helpers of both crews (this one's and the batches') are plain C threads: they never
    # touch a Python object, so they need no thread state, and a launch either returns a thread
    # or fails, with nothing (no Ctrl-C, no failed allocation in Python code) in between.
    unsigned long PyThread_start_new_thread(void (*func)(void *) noexcept nogil, void *arg)
    unsigned long PYTHREAD_INVALID_THREAD_ID
    # A PyLockStatus: 1 (PY_LOCK_ACQUIRED) when the lock was taken within the time.
    int PyThread_acquire_lock_timed(PyThread_type_lock lock, long long microseconds,
                                    int intr_flag) nogil


cdef struct CrewHelper:
    Shared *s
    int32_t i

cdef enum:
    # Tries of a lock before blocking on it.  A phase of a thin round is short, and waking a
    # blocked thread was most of the time of a graph of a few hundred nodes on two threads
    # (analyze of a sparse 200-node graph: 0.55 ms blocking at once, 0.29 ms trying first).
    # A release that finds no sleeper makes no system call.
    SPINS = 2000


cdef inline void lock_wait(PyThread_type_lock lock, int32_t spins) noexcept nogil:
    """Acquire ``lock``: ``spins`` non-blocking tries, then block.

    The tries themselves are the delay: CPython's lock code reads the clock in each, and
    such a loop leaves a CPU that shares its core with this one at full speed, where a
    loop of plain reads of a flag halved it (measured on a 2-vCPU VM at a time when its
    vCPUs shared a core; watching a flag instead, with or without pause instructions,
    slowed 2-thread solves 2x there)."""
    cdef int32_t i
    for i in range(spins):
        if PyThread_acquire_lock(lock, 0):
            return
        cm_pause()
    PyThread_acquire_lock(lock, 1)


cdef int32_t spins_for(int64_t threads) except -1:
    """SPINS when each of ``threads`` can have a CPU of its own (usable_cpus: the
    process's affinity and CPU quota), else 0: a thread that spins on a shared CPU takes
    the time of the one it waits for."""
    return SPINS if threads <= usable_cpus() else 0


cdef int run_phase_here(Worker *w, int32_t phase) noexcept nogil:
    if phase == PHASE_CAT:
        return phase_step(w, True)
    if phase == PHASE_MOUSE:
        return phase_step(w, False)
    if phase == PHASE_OUTPUT:
        return phase_output(w)
    if phase == PHASE_SEED:
        seed_rows(w)
    return 0


cdef int run_phase(Shared *s, int32_t phase) noexcept nogil:
    """Run one phase on every thread: the main thread takes share 0; a barrier at the end.

    Or, while the threads do not pay (pace.pxi), every share on the main thread in turn."""
    cdef int32_t i
    cdef int status = 0
    cdef int64_t start, cpu, busy
    s.phase = phase
    if s.pace.restart:
        return 0  # (pace.pxi) starting again on one thread: the rest of this search is void
    if s.threads == 1:
        status = run_phase_here(&s.workers[0], phase)
        return -1 if status < 0 or s.abort else 0
    start = cm_wall_ns()
    if s.pace.solo:
        for i in range(s.threads):
            if run_phase_here(&s.workers[i], phase) < 0 or s.abort:
                return -1
        pace_alone(&s.pace, cm_wall_ns() - start)
        return 0
    for i in range(1, s.threads):
        PyThread_release_lock(s.go[i])
    cpu = cm_thread_ns()
    status = run_phase_here(&s.workers[0], phase)
    busy = cm_thread_ns() - cpu
    for i in range(1, s.threads):
        lock_wait(s.done[i], s.spins)
        busy += s.workers[i].busy_ns  # (written before its done lock was released)
    if status < 0 or s.abort:
        return -1
    if phase != PHASE_SEED:  # (pace.pxi: the seeding is not judged)
        pace_threaded(&s.pace, cm_wall_ns() - start, busy, phase == PHASE_OUTPUT)
    return 0


cdef void worker_loop(Shared *s, int32_t i) noexcept nogil:
    """A helper thread: wait for a phase, run its share, report done; until told to exit."""
    cdef int32_t phase
    cdef int64_t cpu
    while True:
        lock_wait(s.go[i], s.spins)
        phase = s.phase
        if phase == PHASE_EXIT:
            PyThread_release_lock(s.done[i])
            return
        cpu = cm_thread_ns()
        run_phase_here(&s.workers[i], phase)
        s.workers[i].busy_ns = cm_thread_ns() - cpu
        PyThread_release_lock(s.done[i])


cdef int64_t general_run(Shared *s, object progress, list layers) except -2:
    """Round after round until nothing changes (or the target is decided); GIL held.
    ``layers``: the Tables of the remoteness layers past the first, as allocated."""
    cdef int64_t code, found
    cdef int32_t i, status
    cdef double last = 0.0
    s.counting = progress is not None
    with nogil:
        seed_masks(s)
        run_phase(s, PHASE_SEED)
    if s.pace.restart:
        return START_ALONE
    for i in range(s.threads):
        s.decided += s.workers[i].decided
    if s.tt >= 0:
        code = target_code(s)
        if code >= 0:
            return code
    if progress is not None:
        last = monotonic()
    while True:
        if s.round == 0x7FFFFFFF:
            raise OverflowError("the search needs more rounds than remoteness (int32) holds")
        s.round += 1
        if s.layers[0] != NULL:
            if layer_due(s.n_layers, s.round):
                add_layer(s, layers)  # (between barriers: no thread is writing planes)
            list_round_planes(s)
        for i in range(s.threads):
            s.workers[i].decided = 0
        with nogil:
            status = run_phase(s, PHASE_CAT)
            if status == 0:
                status = run_phase(s, PHASE_MOUSE)
        if status < 0:
            return -2  # a signal handler raised (Ctrl-C): the exception is set
        found = 0
        code = 0
        for i in range(s.threads):
            code += s.workers[i].decided
            if s.workers[i].found:
                found = s.workers[i].found
        if s.counting:  # (else code counts words, and the end counts the positions)
            s.decided += code
        if found:
            return found
        if s.pace.restart:
            return START_ALONE  # (pace.pxi) the threads did not pay: none of this is kept
        check_signals_raise()
        if progress is not None and (code == 0 or monotonic() - last >= 0.2):
            s.pace.keep = True
            progress(s.decided)
            last = monotonic()
        if code == 0:
            break
    # The last round decided nothing: a layer it started (remoteness 255 at most) is empty.
    while s.n_layers > 1 and not layer_due(s.n_layers - 1, s.round - 1):
        s.n_layers -= 1
        s.layers[s.n_layers] = NULL
        del layers[s.n_layers - 1]
    # The search is done: the phases that write the tables may still go alone, never start
    # again (pace.pxi).
    s.pace.keep = True
    if s.tt >= 0:
        return 0
    if not s.counting:
        with nogil:
            s.decided = count_decided(s)
    if s.outcome != NULL:
        with nogil:
            status = run_phase(s, PHASE_OUTPUT)
        if status < 0:
            return -2  # Ctrl-C during the int32 table's writing: the exception is set
    return s.decided


cdef int add_layer(Shared *s, list layers) except -1:
    """The next layer of remoteness planes, zeroed (a Table: fresh pages, handed over as
    bytes without a copy); MemoryError naming its bytes."""
    cdef int64_t size = layer_size(s.n)
    cdef Table table
    if s.more_bytes >= 0 and size * s.n_layers > s.more_bytes:
        raise over_max_memory(s.n_layers, size, s.more_bytes)
    try:
        table = Table(size)
    except MemoryError:
        raise MemoryError(f"cannot allocate {size} bytes for remoteness layer {s.n_layers} "
                          f"(rounds past {(1 << (8 * s.n_layers)) - 1})") from None
    layers.append(table)
    s.layers[s.n_layers] = <uint64_t *> PyBytes_AS_STRING(table.data)
    s.n_layers += 1
    return 0


cdef int check_signals_raise() except -1:
    if check_signals() < 0:
        return -1
    return 0


cdef void crew_helper_main(void *arg) noexcept nogil:
    """A helper thread of one general solve: its ``CrewHelper`` is read once, here."""
    cdef CrewHelper *h = <CrewHelper *> arg
    worker_loop(h.s, h.i)


cdef int64_t solve_general(const Game *g, uint8_t *outcome, int32_t *rem, int64_t target,
                           int64_t threads, object progress, bint poll,
                           uint64_t *planes=NULL, list more_planes=None,
                           int64_t more_bytes=-1) except -2:
    """Solve ``g`` on the general path with up to ``threads`` threads; GIL held.

    Remoteness: into ``planes`` (a layer, 8-byte aligned; layers past it appended to
    ``more_planes`` as bytes; MemoryError where they would pass ``more_bytes``, -1: no limit),
    or into ``rem`` from planes of its own.  Started again on one
    thread if the threads do not pay from the start (pace.pxi)."""
    cdef int32_t T = <int32_t> general_threads(g.n, threads)
    cdef int64_t code = general_attempt(g, outcome, rem, target, T, progress, poll, planes,
                                        more_planes, more_bytes)
    if code == START_ALONE:
        code = general_attempt(g, outcome, rem, target, 1, progress, poll, planes, more_planes,
                               more_bytes)
    return code


cdef int64_t general_attempt(const Game *g, uint8_t *outcome, int32_t *rem, int64_t target,
                             int32_t T, object progress, bint poll, uint64_t *planes,
                             list more_planes, int64_t more_bytes) except -2:
    """One search on ``T`` threads: its answer, or START_ALONE (pace.pxi; nothing of it is
    kept: layer 0 is cleared again by first_touch, the layers past it are dropped); GIL
    held."""
    global last_pace
    cdef int64_t n = g.n, nn = <int64_t> g.n * g.n, result
    cdef int32_t i
    cdef Shared *s
    cdef CrewHelper *helper_args = NULL
    cdef int32_t helpers = 0
    cdef uint64_t *own_planes = NULL
    cdef list layers = []
    if target >= 0 and g.flags[target % n] & CAT_FORBIDDEN:
        return NO_POSITION
    with nogil:
        s = shared_alloc(g, T)
    if s == NULL:
        raise MemoryError(f"cannot allocate {layout_bytes(n, T)} bytes for the bit tables")
    s.poll = poll
    s.more_bytes = more_bytes
    pace_start(&s.pace)
    with nogil:
        # Thread 0's stamps (2n int32, unused until round 1) serve as the n words of scratch.
        s.every_row = not reverses_match(g, <uint64_t *> s.stamps)
    s.outcome = outcome
    s.rem = rem
    s.tt = -1
    if target >= 0:
        s.tt = <int32_t> (target // nn)
        s.tm = <int32_t> ((target - s.tt * nn) // n)
        s.tc = <int32_t> (target % n)
    try:
        # (Layer 0 is cleared by the threads as they seed: first_touch.)
        if rem != NULL:
            own_planes = <uint64_t *> PyMem_RawMalloc(<size_t> layer_size(n))
            if own_planes == NULL:
                raise MemoryError(f"cannot allocate {layer_size(n)} bytes for the remoteness "
                                  f"planes")
            if layer_size(n) >= HUGE_TABLE:
                cm_advise_huge(own_planes, <size_t> layer_size(n))
            planes = own_planes
        s.layers[0] = planes
        s.n_layers = 1 if planes != NULL else 0
        if T > 1:
            s.spins = spins_for(T)
            s.go = <PyThread_type_lock *> PyMem_RawCalloc(T, sizeof(PyThread_type_lock))
            s.done = <PyThread_type_lock *> PyMem_RawCalloc(T, sizeof(PyThread_type_lock))
            if s.go == NULL or s.done == NULL:
                raise MemoryError("cannot allocate the thread locks")
            for i in range(1, T):
                s.go[i] = PyThread_allocate_lock()
                s.done[i] = PyThread_allocate_lock()
                if s.go[i] == NULL or s.done[i] == NULL:
                    raise MemoryError("cannot allocate the thread locks")
                PyThread_acquire_lock(s.go[i], 1)
                PyThread_acquire_lock(s.done[i], 1)
            helper_args = <CrewHelper *> PyMem_RawCalloc(T, sizeof(CrewHelper))
            if helper_args == NULL:
                raise MemoryError("cannot allocate the helper threads' arguments")
            for i in range(1, T):
                helper_args[i].s = s
                helper_args[i].i = i
                if PyThread_start_new_thread(crew_helper_main, &helper_args[i]) \
                        == PYTHREAD_INVALID_THREAD_ID:
                    raise RuntimeError("can't start new thread")
                helpers += 1
        result = general_run(s, progress, layers)
        if more_planes is not None and result != START_ALONE:
            for i in range(len(layers)):
                more_planes.append((<Table> layers[i]).take())
        return result
    finally:
        if T > 1:
            last_pace = s.pace
        if helpers:
            # Every helper leaves its loop (its last touch of the shared state is releasing
            # its done lock, waited for without the GIL: Ctrl-C cannot cut this short) before
            # anything is freed.
            s.phase = PHASE_EXIT
            for i in range(1, helpers + 1):
                PyThread_release_lock(s.go[i])
            with nogil:
                for i in range(1, helpers + 1):
                    PyThread_acquire_lock(s.done[i], 1)
        for i in range(T):  # either array may be missing: its calloc failed
            if s.go != NULL and s.go[i] != NULL:
                PyThread_free_lock(s.go[i])
            if s.done != NULL and s.done[i] != NULL:
                PyThread_free_lock(s.done[i])
        PyMem_RawFree(s.go)
        PyMem_RawFree(s.done)
        PyMem_RawFree(helper_args)
        PyMem_RawFree(own_planes)
        PyMem_RawFree(s)


cdef int64_t solve_general_nogil(const Game *g, int64_t target) noexcept nogil:
    """A one-thread early-stop solve without the GIL (solve_boards); -1 if out of memory."""
    cdef Shared *s
    cdef int64_t n = g.n, nn = <int64_t> g.n * g.n, code, found
    cdef int32_t status
    if g.flags[target % n] & CAT_FORBIDDEN:
        return NO_POSITION
    s = shared_alloc(g, 1)
    if s == NULL:
        return -1
    s.every_row = not reverses_match(g, <uint64_t *> s.stamps)
    s.tt = <int32_t> (target // nn)
    s.tm = <int32_t> ((target - s.tt * nn) // n)
    s.tc = <int32_t> (target % n)
    seed(s)
    code = target_code(s)
    while code < 0:
        s.round += 1
        s.workers[0].decided = 0
        status = phase_step(&s.workers[0], True)
        if status == 0:
            status = phase_step(&s.workers[0], False)
        found = s.workers[0].found
        if found:
            code = found
        elif s.workers[0].decided == 0 or status < 0 or s.round == 0x7FFFFFFF:
            code = 0
    PyMem_RawFree(s)
    return code


cdef int64_t solve_game(const Game *g, uint8_t *outcome, int32_t *rem, int64_t target,
                        int64_t threads, object progress, uint64_t *planes=NULL,
                        list more_planes=None, int64_t more_bytes=-1) except -2:
    """Either path; GIL held (released inside for the long parts).  ``planes``,
    ``more_planes``, ``more_bytes``: planes mode (solve_general)."""
    cdef Small small
    cdef int64_t result, size = layer_size(g.n)
    cdef uint64_t *layers[MAX_LAYERS]
    cdef int32_t i
    if g.n == 0:
        if progress is not None:
            progress(0)
        return 0
    if g.n <= 64:
        small_from_game(g, &small)
        memset(layers, 0, sizeof(layers))
        layers[0] = planes
        try:
            result = small_solve(&small, target, outcome, rem, layers, more_bytes)
            if result == -1:
                raise MemoryError(f"cannot allocate {size} bytes for a remoteness layer")
            if result == -3:  # (the first layer past more_bytes)
                raise over_max_memory(more_bytes // size + 1, size, more_bytes)
            for i in range(1, MAX_LAYERS):
                if layers[i] != NULL and more_planes is not None:
                    more_planes.append(PyBytes_FromStringAndSize(<char *> layers[i], size))
        finally:
            for i in range(1, MAX_LAYERS):
                PyMem_RawFree(layers[i])
        if progress is not None:
            progress(result if target < 0 else 0)
        return result
    return solve_general(g, outcome, rem, target, threads, progress, True, planes,
                         more_planes, more_bytes)
