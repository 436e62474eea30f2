# cython: language_level=3
"""The retrograde engine in Cython: round-synchronous and bit-parallel.

Same contract as the pure twin ``bits_py`` (see ENGINE_CONTRACT): the same
checks, the same tables bit for bit.  Compiler directives are set once in
``setup.py``.

The search.  Round k decides exactly the positions of remoteness k, from what
rounds 0..k-1 decided: a position is won for its mover if some move reaches a
position won for the mover, lost if every move reaches a position won for the
opponent.  Rows of bits make both a whole-row operation: with rows indexed by
the mouse node and bits by the cat node, the mouse's "some move" is an OR of the
rows of its moves and "every move" an AND; the cat's step wants rows indexed
by the cat node.  So each turn's results are kept in the orientation its
predecessors read, and the new bits of each round are scattered into it:

- mouse to move: ``D0`` (decided, rows by mouse) for the mouse's own step;
  ``MW0T``, ``CW0T`` (mouse / cat wins, rows by cat) read by the cat's step;
- cat to move: ``D1T`` (decided, rows by cat) for the cat's own step;
  ``MW1``, ``CW1`` (rows by mouse) read by the mouse's step; ``FC``, ``FM``
  hold the cat step's new bits until the mouse step of the same round has read
  the old ``MW1``/``CW1`` (that keeps the rounds synchronous).

That is 8 bit tables: n*n bytes, half a byte per position, and no move
counters.  Only what changed is recomputed: each round records which 64-bit
words of which rows gained bits; a row is queued (a FIFO ring buffer over a C
array, one per thread, a row at most once per round, filled in row order) when
one of its moves' rows changed, and only the changed words are recomputed (all
of them, as contiguous loops, when a quarter or more changed).  New bits reach
the other orientation through 64x64 bit tiles transposed in registers, one
destination word per row and round rather than one per bit; the outcome table
is written at the end from the bit tables, the remoteness table as positions
are decided (the cat-to-move half by cat row, transposed in tiles at the end).
The answers depend on the move arrays alone: when the reverse arrays are not
their reverse (the raw entry does not check it), every row is recomputed every
round instead of trusting the work-list.

Threads: rows are owned in blocks of 64, so a thread's scatter writes only
words no other thread writes; a round is two phases (the cat's step, then the
mouse's) with a barrier each, made of CPython locks.  Change masks shared by
threads are set with relaxed atomic ORs (``_bitops.h``).

Graphs of at most 64 nodes (every LeetCode board) take another path: a row is
one word, a set of rows is one word, the whole game lives on the stack, and
``Board`` precomputes the move masks once.
"""

from cpython.array cimport array, clone
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.mem cimport PyMem_RawCalloc, PyMem_RawFree, PyMem_RawMalloc
from cpython.pyport cimport PY_SSIZE_T_MAX
from cpython.pythread cimport (
    PyThread_acquire_lock,
    PyThread_allocate_lock,
    PyThread_free_lock,
    PyThread_release_lock,
    PyThread_type_lock,
)
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset

import threading
from operator import index
from time import monotonic

cdef extern from "Python.h":
    # Declared without ``except``: the engine handles the error (it stops its threads first).
    int check_signals "PyErr_CheckSignals" ()

cdef extern from "_bitops.h" nogil:
    int cm_ctz64(uint64_t x)
    int cm_popcount64(uint64_t x)
    int CM_HAVE_ATOMICS
    uint64_t cm_load64(const uint64_t *p)
    void cm_or64(uint64_t *p, uint64_t v)
    int32_t cm_load32(const int32_t *p)
    int32_t cm_exchange32(int32_t *p, int32_t v)
    void cm_store_flag(int32_t *p, int32_t v)

cdef enum:
    # Per-node flags and outcome codes: the same values as in bits_py.
    HOLE = 1
    CAT_FORBIDDEN = 2
    CAT_GOAL = 4
    MOUSE_WIN = 1
    CAT_WIN = 2
    NO_POSITION = 3
    MAX_NODES = 65535
    # Word operations between two polls for Ctrl-C by the main thread (about a millisecond).
    POLL_WORK = 1 << 20
    # A row is recomputed whole (contiguous loops) when at least 1/DENSE of its words changed.
    DENSE = 4
    # Largest graph solve_lists takes on (the Python path checks memory for bigger ones).
    LISTS_MAX_NODES = 1024
    # Phases of a round, as commands to the worker threads.
    PHASE_CAT = 0
    PHASE_MOUSE = 1
    PHASE_OUTPUT = 2
    PHASE_EXIT = 3

# The C enum's facts, for the test that pins them to catmouse.engine.facts.
ENUM = {"HOLE": HOLE, "CAT_FORBIDDEN": CAT_FORBIDDEN, "CAT_GOAL": CAT_GOAL,
        "MOUSE_WIN": MOUSE_WIN, "CAT_WIN": CAT_WIN, "NO_POSITION": NO_POSITION,
        "MAX_NODES": MAX_NODES, "LISTS_MAX_NODES": LISTS_MAX_NODES}

cdef uint64_t ONES = ~(<uint64_t> 0)


cdef struct Game:
    # One game's arrays as C pointers: nodes, flags, move graphs and reverses.
    int32_t n
    const uint8_t *flags
    const int32_t *m_ip
    const int32_t *m_ix
    const int32_t *m_rip
    const int32_t *m_rix
    const int32_t *c_ip
    const int32_t *c_ix
    const int32_t *c_rip
    const int32_t *c_rix


# -- n <= 64: one word per row ------------------------------------------------------------

cdef struct Small:
    # A game of at most 64 nodes as masks: bit v of mouse_out[m] = the mouse may move m -> v.
    # The cat's masks leave out nodes it may not enter, and rows of nodes it may not stand on.
    int32_t n
    uint64_t all        # the n nodes
    uint64_t valid      # nodes the cat may stand on
    uint64_t hole
    uint64_t goal
    uint64_t mouse_stuck
    uint64_t cat_stuck
    uint64_t mouse_out[64]
    uint64_t mouse_in[64]
    uint64_t cat_out[64]
    uint64_t cat_in[64]


cdef void small_from_game(const Game *g, Small *s) noexcept nogil:
    cdef int32_t n = g.n, u, v
    cdef int64_t k
    memset(s, 0, sizeof(Small))
    s.n = n
    s.all = ONES if n == 64 else ((<uint64_t> 1) << n) - 1
    for u in range(n):
        if g.flags[u] & HOLE:
            s.hole |= (<uint64_t> 1) << u
        if g.flags[u] & CAT_GOAL:
            s.goal |= (<uint64_t> 1) << u
        if not g.flags[u] & CAT_FORBIDDEN:
            s.valid |= (<uint64_t> 1) << u
    for u in range(n):
        for k in range(g.m_ip[u], g.m_ip[u + 1]):
            v = g.m_ix[k]
            s.mouse_out[u] |= (<uint64_t> 1) << v
            s.mouse_in[v] |= (<uint64_t> 1) << u
        if not (s.valid >> u) & 1:
            continue
        for k in range(g.c_ip[u], g.c_ip[u + 1]):
            v = g.c_ix[k]
            if (s.valid >> v) & 1:
                s.cat_out[u] |= (<uint64_t> 1) << v
                s.cat_in[v] |= (<uint64_t> 1) << u
    small_finish(s)


cdef void small_finish(Small *s) noexcept nogil:
    """The stuck masks, from the move masks."""
    cdef int32_t u
    s.mouse_stuck = 0
    s.cat_stuck = 0
    for u in range(s.n):
        if s.mouse_out[u] == 0:
            s.mouse_stuck |= (<uint64_t> 1) << u
        if (s.valid >> u) & 1 and s.cat_out[u] == 0:
            s.cat_stuck |= (<uint64_t> 1) << u


cdef int64_t small_solve(const Small *s, int64_t target, uint8_t *outcome,
                         int32_t *rem) noexcept nogil:
    """Solve a game of at most 64 nodes on the stack.

    With ``target >= 0`` return its code as soon as it is decided (0: a draw);
    otherwise fill ``outcome`` (and ``rem`` unless NULL) and return the number of
    decided positions.  Orientation as in the module docstring.
    """
    cdef int32_t n = s.n, m, c, j, k = 0
    cdef int64_t nn = <int64_t> n * n, count = 0
    cdef uint64_t D0[64]
    cdef uint64_t MW0T[64]
    cdef uint64_t CW0T[64]
    cdef uint64_t D1T[64]
    cdef uint64_t MW1[64]
    cdef uint64_t CW1[64]
    cdef uint64_t FC[64]
    cdef uint64_t FM[64]
    cdef uint64_t valid = s.valid, allbits = s.all
    cdef uint64_t bit, mw, cw, win, lose, und, nw, nl, x, rows, queue_cat, queue_mouse
    cdef uint64_t changed_cat, changed_mouse, fresh
    cdef int32_t tt = -1, tm = 0, tc = 0
    if n == 0:
        return 0
    if rem != NULL:
        memset(rem, 0xFF, <size_t> (2 * nn) * sizeof(int32_t))  # -1: never ends
    if target >= 0:
        tt = <int32_t> (target // nn)
        tm = <int32_t> ((target - tt * nn) // n)
        tc = <int32_t> (target % n)
        if not (valid >> tc) & 1:
            return NO_POSITION
    # Terminal positions by rule precedence: the cat on the mouse, the mouse in a hole, the
    # cat on a goal, a stuck mover loses.  Rows by cat first (bits are mice).
    for c in range(n):
        MW0T[c] = CW0T[c] = 0
        if not (valid >> c) & 1:
            D1T[c] = ONES
            continue
        bit = (<uint64_t> 1) << c
        # Mouse to move at (m, c).
        cw = bit
        mw = s.hole & ~cw
        if (s.goal >> c) & 1:
            cw |= allbits & ~mw
        cw |= s.mouse_stuck & ~mw
        MW0T[c] = mw
        CW0T[c] = cw
        # Cat to move at (m, c).
        cw = bit
        mw = s.hole & ~cw
        if (s.goal >> c) & 1:
            cw |= allbits & ~mw
        if (s.cat_stuck >> c) & 1:
            mw |= allbits & ~cw
        D1T[c] = mw | cw | ~allbits
    for m in range(n):
        bit = (<uint64_t> 1) << m
        cw = bit & valid
        mw = (valid & ~cw) if (s.hole >> m) & 1 else 0
        cw |= s.goal & valid & ~mw
        # Mouse to move.
        x = cw
        if (s.mouse_stuck >> m) & 1:
            x |= valid & ~mw
        D0[m] = ~valid | mw | x
        if rem != NULL:
            rows = mw | x
            while rows:
                j = cm_ctz64(rows)
                rows &= rows - 1
                rem[m * n + j] = 0
        # Cat to move.
        mw |= s.cat_stuck & ~cw
        MW1[m] = mw
        CW1[m] = cw
        if rem != NULL:
            rows = mw | cw
            while rows:
                j = cm_ctz64(rows)
                rows &= rows - 1
                rem[nn + m * n + j] = 0
    if tt == 0 and (D0[tm] >> tc) & 1:
        return MOUSE_WIN if (MW0T[tc] >> tm) & 1 else CAT_WIN
    if tt == 1 and ((MW1[tm] | CW1[tm]) >> tc) & 1:
        return MOUSE_WIN if (MW1[tm] >> tc) & 1 else CAT_WIN

    queue_cat = valid
    queue_mouse = allbits
    while True:
        k += 1
        # The cat's step: rows by cat, reading the mouse-to-move results of earlier rounds.
        fresh = 0
        rows = queue_cat
        while rows:
            c = cm_ctz64(rows)
            rows &= rows - 1
            win = 0
            lose = ONES
            x = s.cat_out[c]
            while x:
                j = cm_ctz64(x)
                x &= x - 1
                win |= CW0T[j]
                lose &= MW0T[j]
            und = ~D1T[c]
            nw = win & und
            nl = lose & und
            if nw | nl:
                D1T[c] |= nw | nl
                FC[c] = nw
                FM[c] = nl
                fresh |= (<uint64_t> 1) << c
                if tt == 1 and c == tc and ((nw | nl) >> tm) & 1:
                    return CAT_WIN if (nw >> tm) & 1 else MOUSE_WIN
                if rem != NULL:
                    x = nw | nl
                    while x:
                        j = cm_ctz64(x)
                        x &= x - 1
                        rem[nn + j * n + c] = k
        # The mouse's step: rows by mouse, reading the cat-to-move results of earlier rounds.
        changed_cat = 0
        rows = queue_mouse
        while rows:
            m = cm_ctz64(rows)
            rows &= rows - 1
            win = 0
            lose = ONES
            x = s.mouse_out[m]
            while x:
                j = cm_ctz64(x)
                x &= x - 1
                win |= MW1[j]
                lose &= CW1[j]
            und = ~D0[m]
            nw = win & und
            nl = lose & und
            if nw | nl:
                D0[m] |= nw | nl
                if tt == 0 and m == tm and ((nw | nl) >> tc) & 1:
                    return MOUSE_WIN if (nw >> tc) & 1 else CAT_WIN
                changed_cat |= nw | nl
                bit = (<uint64_t> 1) << m
                x = nw
                while x:
                    j = cm_ctz64(x)
                    x &= x - 1
                    MW0T[j] |= bit
                x = nl
                while x:
                    j = cm_ctz64(x)
                    x &= x - 1
                    CW0T[j] |= bit
                if rem != NULL:
                    x = nw | nl
                    while x:
                        j = cm_ctz64(x)
                        x &= x - 1
                        rem[m * n + j] = k
        # The cat step's new bits into rows by mouse, now that the mouse step has read them.
        changed_mouse = 0
        rows = fresh
        while rows:
            c = cm_ctz64(rows)
            rows &= rows - 1
            bit = (<uint64_t> 1) << c
            x = FC[c]
            changed_mouse |= x | FM[c]
            while x:
                j = cm_ctz64(x)
                x &= x - 1
                CW1[j] |= bit
            x = FM[c]
            while x:
                j = cm_ctz64(x)
                x &= x - 1
                MW1[j] |= bit
        if changed_cat == 0 and changed_mouse == 0:
            break
        queue_cat = 0
        rows = changed_cat
        while rows:
            c = cm_ctz64(rows)
            rows &= rows - 1
            queue_cat |= s.cat_in[c]
        queue_mouse = 0
        rows = changed_mouse
        while rows:
            m = cm_ctz64(rows)
            rows &= rows - 1
            queue_mouse |= s.mouse_in[m]
    if target >= 0:
        return 0
    for m in range(n):
        for c in range(n):
            if not (valid >> c) & 1:
                outcome[m * n + c] = NO_POSITION
                outcome[nn + m * n + c] = NO_POSITION
                continue
            if (MW0T[c] >> m) & 1:
                outcome[m * n + c] = MOUSE_WIN
            elif (CW0T[c] >> m) & 1:
                outcome[m * n + c] = CAT_WIN
            else:
                outcome[m * n + c] = 0
            if (MW1[m] >> c) & 1:
                outcome[nn + m * n + c] = MOUSE_WIN
            elif (CW1[m] >> c) & 1:
                outcome[nn + m * n + c] = CAT_WIN
            else:
                outcome[nn + m * n + c] = 0
        count += cm_popcount64(MW1[m] | CW1[m])
    for c in range(n):
        count += cm_popcount64(MW0T[c] | CW0T[c])
    return count


# -- any n: rows of W words, a work-list per thread, threads -----------------------------

cdef struct Worker:
    # One thread's share: the rows of the 64-row blocks b with b % threads == id.
    void *shared
    int32_t id
    int32_t *ring          # the work-list: a FIFO ring buffer of rows, capacity n
    int64_t head
    int64_t tail
    int32_t *changed_cat[2]    # cat rows whose MW0T/CW0T this thread first marked, by parity
    int64_t n_changed_cat[2]
    int32_t *changed_mouse[2]  # mouse rows whose MW1/CW1 this thread first marked
    int64_t n_changed_mouse[2]
    int32_t *fresh         # cat rows with bits in FC/FM
    int64_t n_fresh
    uint64_t *win          # W words of scratch each
    uint64_t *lose
    uint64_t *dirty        # CW words: which words of the row to recompute
    # 128 * W + 128 words: the mouse step's new bits of one 64-row block, two tiles for
    # the cat's scatter, the output's transposes
    uint64_t *tiles
    uint64_t *fresh_words  # W * CW words: per block of cat rows, the words with FC/FM bits
    uint64_t *touched      # CW words: the words of the block with new bits
    int64_t block          # the block in ``tiles`` (-1: none)
    int64_t decided        # positions this thread decided in the current round
    int64_t work           # word operations since the last poll for Ctrl-C
    int32_t found          # the target's code once this thread decided it


cdef struct Shared:
    const Game *g
    int32_t n
    int64_t W              # words per row
    int64_t CW             # words per change mask (bits = words of a row)
    int32_t threads
    bint poll              # the main thread may take the GIL to check for Ctrl-C
    bint every_row         # the reverse arrays are not the moves' reverse: no work-list
    uint64_t *D0
    uint64_t *MW0T
    uint64_t *CW0T
    uint64_t *D1T
    uint64_t *MW1
    uint64_t *CW1
    uint64_t *FC
    uint64_t *FM
    uint64_t *chg_cat[2]   # by cat row: words of MW0T/CW0T changed in a mouse step
    uint64_t *chg_mouse[2]  # by mouse row: words of MW1/CW1 changed by the cat step's scatter
    int32_t *stamp_cat     # round in which a cat row was last listed as changed
    int32_t *stamp_mouse
    uint64_t *queued       # W words: rows queued for the current step, a bit each
    uint64_t *scratch      # 5 rows of per-node masks, used while seeding
    Worker *workers
    uint8_t *outcome
    int32_t *rem
    int32_t tt             # the target's turn (-1: none), mouse and cat
    int32_t tm
    int32_t tc
    int32_t round
    int32_t phase
    int32_t abort
    int64_t decided
    PyThread_type_lock *go
    PyThread_type_lock *done


cdef inline int64_t align8(int64_t x) noexcept nogil:
    return (x + 7) & ~(<int64_t> 7)


cdef int64_t layout_bytes(int64_t n, int64_t threads) noexcept nogil:
    """Bytes of the one block the general path allocates (peak_bytes reports this)."""
    cdef int64_t W = (n + 63) >> 6
    cdef int64_t CW = (W + 63) >> 6
    cdef int64_t total = 0
    total += align8(sizeof(Shared))
    total += align8(threads * sizeof(Worker))
    total += 8 * n * W * 8            # the 8 bit tables
    total += 4 * n * CW * 8           # change masks, two per side
    total += 2 * n * 4                # stamps
    total += 6 * W * 8                # seeding masks, the queued rows
    # per thread: ring, 2+2 changed lists, fresh list (rows), scratch words and tiles
    total += threads * (align8(6 * n * 4) + (2 * W + 2 * CW + 128 * W + 128 + W * CW) * 8)
    return total


cdef int64_t general_threads(int64_t n, int64_t threads) noexcept nogil:
    """Threads actually used: at most one per 64-row block, one without atomics."""
    cdef int64_t blocks = (n + 63) >> 6
    if not CM_HAVE_ATOMICS:
        return 1
    if threads > blocks:
        threads = blocks
    return threads if threads > 1 else 1


cdef Shared *shared_alloc(const Game *g, int32_t threads) noexcept nogil:
    """One zeroed block holding everything, carved up; NULL if it cannot be had."""
    cdef int64_t n = g.n
    cdef int64_t W = (n + 63) >> 6
    cdef int64_t CW = (W + 63) >> 6
    cdef int64_t total = layout_bytes(n, threads)
    cdef char *p
    cdef int32_t i, par
    cdef Shared *s
    cdef Worker *w
    # On 32-bit, a count past the address space would wrap in the size_t cast below.
    if total > PY_SSIZE_T_MAX:
        return NULL
    p = <char *> PyMem_RawCalloc(<size_t> total, 1)
    if p == NULL:
        return NULL
    s = <Shared *> p
    p += align8(sizeof(Shared))
    s.workers = <Worker *> p
    p += align8(threads * sizeof(Worker))
    s.g = g
    s.n = g.n
    s.W = W
    s.CW = CW
    s.threads = threads
    s.D0 = <uint64_t *> p
    s.MW0T = s.D0 + n * W
    s.CW0T = s.MW0T + n * W
    s.D1T = s.CW0T + n * W
    s.MW1 = s.D1T + n * W
    s.CW1 = s.MW1 + n * W
    s.FC = s.CW1 + n * W
    s.FM = s.FC + n * W
    s.chg_cat[0] = s.FM + n * W
    s.chg_cat[1] = s.chg_cat[0] + n * CW
    s.chg_mouse[0] = s.chg_cat[1] + n * CW
    s.chg_mouse[1] = s.chg_mouse[0] + n * CW
    s.scratch = s.chg_mouse[1] + n * CW
    s.queued = s.scratch + 5 * W
    p = <char *> (s.queued + W)
    s.stamp_cat = <int32_t *> p
    s.stamp_mouse = s.stamp_cat + n
    p = <char *> (s.stamp_mouse + n)
    p = <char *> align8(<int64_t> p)
    for i in range(threads):
        w = &s.workers[i]
        w.shared = s
        w.id = i
        w.ring = <int32_t *> p
        w.fresh = w.ring + n
        for par in range(2):
            w.changed_cat[par] = w.fresh + n + par * n
            w.changed_mouse[par] = w.fresh + 3 * n + par * n
        p += align8(6 * n * 4)
        w.win = <uint64_t *> p
        w.lose = w.win + W
        w.dirty = w.lose + W
        w.touched = w.dirty + CW
        w.tiles = w.touched + CW
        w.fresh_words = w.tiles + 128 * W + 128
        w.block = -1
        p += (2 * W + 2 * CW + 128 * W + 128 + W * CW) * 8
    return s


cdef inline bint owns(const Worker *w, const Shared *s, int64_t row) noexcept nogil:
    return (row >> 6) % s.threads == w.id


cdef inline void ring_push(Worker *w, int32_t row, int64_t cap) noexcept nogil:
    w.ring[w.tail % cap] = row
    w.tail += 1


cdef int poll(Worker *w, Shared *s) noexcept nogil:
    """Every POLL_WORK word operations, the main thread checks for Ctrl-C; -1 to stop."""
    if cm_load32(&s.abort):
        return -1
    if w.work < POLL_WORK:
        return 0
    w.work = 0
    if w.id != 0 or not s.poll:
        return 0
    with gil:
        if check_signals() < 0:
            cm_store_flag(&s.abort, 1)
            return -1
    return 0


cdef inline void mark(uint64_t *mask, int32_t *stamp, int32_t *listed, int64_t *count,
                      int64_t row, int64_t word, int64_t CW, int32_t k,
                      bint shared) noexcept nogil:
    """Note that ``word`` of ``row`` gained bits this round; list the row once per round."""
    cdef uint64_t *at = mask + row * CW + (word >> 6)
    cdef uint64_t bit = (<uint64_t> 1) << (word & 63)
    if shared:
        if not cm_load64(at) & bit:
            cm_or64(at, bit)
        if cm_load32(&stamp[row]) != k and cm_exchange32(&stamp[row], k) != k:
            listed[count[0]] = <int32_t> row
            count[0] += 1
    else:
        at[0] |= bit
        if stamp[row] != k:
            stamp[row] = k
            listed[count[0]] = <int32_t> row
            count[0] += 1


cdef int64_t dirty_words(Worker *w, Shared *s, const uint64_t *chg, const int32_t *ip,
                         const int32_t *ix, int64_t row, bint cat) noexcept nogil:
    """OR of the change masks of the row's moves into w.dirty; returns the words set."""
    cdef int64_t CW = s.CW, j, k, total = 0
    cdef int32_t v
    cdef const uint8_t *flags = s.g.flags
    for j in range(CW):
        w.dirty[j] = 0
    for k in range(ip[row], ip[row + 1]):
        v = ix[k]
        if cat and flags[v] & CAT_FORBIDDEN:
            continue
        for j in range(CW):
            w.dirty[j] |= chg[v * CW + j]
    for j in range(CW):
        total += cm_popcount64(w.dirty[j])
    w.work += (ip[row + 1] - ip[row]) * CW
    return total


cdef void compute_row(Worker *w, Shared *s, int64_t row, bint cat, bint everything) noexcept nogil:
    """One row of one step: OR and AND over the moves' rows, only where inputs changed."""
    cdef int64_t W = s.W, CW = s.CW, n = s.n, nn = <int64_t> s.n * s.n
    cdef int32_t k = s.round, par = k & 1
    cdef const uint8_t *flags = s.g.flags
    cdef const int32_t *ip
    cdef const int32_t *ix
    cdef const uint64_t *any_src
    cdef const uint64_t *all_src
    cdef uint64_t *decided
    cdef uint64_t *win = w.win
    cdef uint64_t *lose = w.lose
    cdef int64_t words, e, j, word, base, col, moves
    cdef uint64_t x, y, nw, nl, und, bits
    cdef int32_t v
    cdef bint dense, listed_fresh = False
    if cat:
        ip = s.g.c_ip
        ix = s.g.c_ix
        any_src = s.CW0T
        all_src = s.MW0T
        decided = s.D1T + row * W
    else:
        ip = s.g.m_ip
        ix = s.g.m_ix
        any_src = s.MW1
        all_src = s.CW1
        decided = s.D0 + row * W
    if everything:
        words = W
    else:
        words = dirty_words(w, s, s.chg_cat[par ^ 1] if cat else s.chg_mouse[par],
                            ip, ix, row, cat)
        if words == 0:
            return
    dense = words * DENSE >= W
    moves = ip[row + 1] - ip[row]
    if dense:
        for j in range(W):
            win[j] = 0
            lose[j] = ONES
        for e in range(ip[row], ip[row + 1]):
            v = ix[e]
            if cat and flags[v] & CAT_FORBIDDEN:
                continue
            base = v * W
            for j in range(W):
                win[j] |= any_src[base + j]
                lose[j] &= all_src[base + j]
        w.work += moves * W
    else:
        # Only the changed words, each an OR and an AND down the column of the move rows.
        for j in range(CW):
            x = w.dirty[j]
            while x:
                word = (j << 6) + cm_ctz64(x)
                x &= x - 1
                y = 0
                nw = ONES
                for e in range(ip[row], ip[row + 1]):
                    v = ix[e]
                    if cat and flags[v] & CAT_FORBIDDEN:
                        continue
                    y |= any_src[v * W + word]
                    nw &= all_src[v * W + word]
                win[word] = y
                lose[word] = nw
        w.work += moves * words
    for j in range(CW):
        x = ONES if dense else w.dirty[j]
        while x:
            word = (j << 6) + cm_ctz64(x)
            x &= x - 1
            if word >= W:
                break
            und = ~decided[word]
            nw = win[word] & und
            nl = lose[word] & und
            if not (nw | nl):
                continue
            decided[word] |= nw | nl
            w.decided += cm_popcount64(nw | nl)
            if cat:
                # New bits are mice: kept in FC/FM until the next round's scatter.
                s.FC[row * W + word] = nw
                s.FM[row * W + word] = nl
                w.fresh_words[(row >> 6) * CW + (word >> 6)] |= (<uint64_t> 1) << (word & 63)
                if not listed_fresh:
                    listed_fresh = True
                    w.fresh[w.n_fresh] = <int32_t> row
                    w.n_fresh += 1
                if s.tt == 1 and row == s.tc and (s.tm >> 6) == word:
                    if ((nw | nl) >> (s.tm & 63)) & 1:
                        w.found = CAT_WIN if (nw >> (s.tm & 63)) & 1 else MOUSE_WIN
                if s.rem != NULL:
                    bits = nw | nl
                    while bits:
                        col = (word << 6) + cm_ctz64(bits)
                        bits &= bits - 1
                        # Rows by cat here too (contiguous); transposed at the end.
                        s.rem[nn + row * n + col] = k
            else:
                if s.tt == 0 and row == s.tm and (s.tc >> 6) == word:
                    if ((nw | nl) >> (s.tc & 63)) & 1:
                        w.found = MOUSE_WIN if (nw >> (s.tc & 63)) & 1 else CAT_WIN
                # New bits are cats: into this block's tiles, transposed into the rows
                # by cat when the block is done (flush_tiles).
                if w.block != row >> 6:
                    flush_tiles(w, s)
                    w.block = row >> 6
                w.tiles[(word << 7) + (row & 63)] = nw
                w.tiles[(word << 7) + 64 + (row & 63)] = nl
                w.touched[word >> 6] |= (<uint64_t> 1) << (word & 63)
                if s.rem != NULL:
                    bits = nw | nl
                    while bits:
                        col = (word << 6) + cm_ctz64(bits)
                        bits &= bits - 1
                        s.rem[row * n + col] = k


cdef inline void transpose64(uint64_t *a) noexcept nogil:
    """Transpose a 64-by-64 bit matrix in place: bit j of a[i] becomes bit i of a[j]."""
    cdef int64_t j = 32, k
    cdef uint64_t m = 0x00000000FFFFFFFF, t
    while j:
        k = 0
        while k < 64:
            t = ((a[k] >> j) ^ a[k + j]) & m
            a[k + j] ^= t
            a[k] ^= t << j
            k = (k + j + 1) & ~j
        j >>= 1
        m ^= m << j


cdef inline void scatter_tile(Worker *w, Shared *s, uint64_t *tile, uint64_t *dest,
                              uint64_t *mask, int32_t *stamp, int32_t *listed, int64_t *count,
                              int64_t word, int64_t block, int32_t k) noexcept nogil:
    """OR a 64x64 tile of new bits (rows of ``block``, bits of ``word``) into the other
    orientation, one destination word per row that gained bits; the tile ends zeroed."""
    cdef int64_t W = s.W, CW = s.CW, j, row
    cdef uint64_t any = 0, x
    cdef int bits = 0
    cdef bint shared = s.threads > 1
    for j in range(64):
        if tile[j]:
            any |= tile[j]
            if bits < 8:
                bits += cm_popcount64(tile[j])
    if not any:
        return
    if bits < 8:
        # A few bits: one by one is cheaper than the transpose.
        for j in range(64):
            x = tile[j]
            tile[j] = 0
            while x:
                row = (word << 6) + cm_ctz64(x)
                x &= x - 1
                dest[row * W + block] |= (<uint64_t> 1) << j
                mark(mask, stamp, listed, count, row, block, CW, k, shared)
        return
    transpose64(tile)
    for j in range(64):
        x = tile[j]
        if x:
            tile[j] = 0
            row = (word << 6) + j
            dest[row * W + block] |= x
            mark(mask, stamp, listed, count, row, block, CW, k, shared)
    w.work += 64 * 8


cdef void flush_tiles(Worker *w, Shared *s) noexcept nogil:
    """The mouse step's new bits of block w.block into the rows by cat (this block's word)."""
    cdef int64_t j, word
    cdef uint64_t x
    cdef int32_t k = s.round, par = k & 1
    if w.block < 0:
        return
    for j in range(s.CW):
        x = w.touched[j]
        w.touched[j] = 0
        while x:
            word = (j << 6) + cm_ctz64(x)
            x &= x - 1
            scatter_tile(w, s, w.tiles + (word << 7), s.MW0T, s.chg_cat[par], s.stamp_cat,
                         w.changed_cat[par], &w.n_changed_cat[par], word, w.block, k)
            scatter_tile(w, s, w.tiles + (word << 7) + 64, s.CW0T, s.chg_cat[par],
                         s.stamp_cat, w.changed_cat[par], &w.n_changed_cat[par], word,
                         w.block, k)
    w.block = -1


cdef void scatter_fresh(Worker *w, Shared *s) noexcept nogil:
    """The cat step's new bits of last round into the rows by mouse (this thread's words),
    a 64-row block at a time through transposed tiles."""
    cdef int64_t W = s.W, CW = s.CW, i = 0, j, first, last, word, row, block, h
    cdef int32_t k = s.round, par = k & 1
    cdef uint64_t *fc_tile = w.tiles
    cdef uint64_t *fm_tile = w.tiles + 64
    cdef uint64_t x
    while i < w.n_fresh:
        # The fresh rows are in row order: take those of one block.
        block = w.fresh[i] >> 6
        first = i
        while i < w.n_fresh and w.fresh[i] >> 6 == block:
            i += 1
        last = i
        for h in range(CW):
            x = w.fresh_words[block * CW + h]
            w.fresh_words[block * CW + h] = 0
            while x:
                word = (h << 6) + cm_ctz64(x)
                x &= x - 1
                for j in range(first, last):
                    row = w.fresh[j]
                    fc_tile[row & 63] = s.FC[row * W + word]
                    fm_tile[row & 63] = s.FM[row * W + word]
                    s.FC[row * W + word] = 0
                    s.FM[row * W + word] = 0
                scatter_tile(w, s, fc_tile, s.CW1, s.chg_mouse[par], s.stamp_mouse,
                             w.changed_mouse[par], &w.n_changed_mouse[par], word, block, k)
                scatter_tile(w, s, fm_tile, s.MW1, s.chg_mouse[par], s.stamp_mouse,
                             w.changed_mouse[par], &w.n_changed_mouse[par], word, block, k)
                w.work += last - first
    w.n_fresh = 0


cdef int phase_step(Worker *w, bint cat) noexcept nogil:
    """One thread's part of one step of the round: clear, scatter, queue, compute."""
    cdef Shared *s = <Shared *> w.shared
    cdef int64_t n = s.n, CW = s.CW, W = s.W, cap = s.n, i, e, row, pred, b
    cdef int32_t k = s.round, par = k & 1, u
    cdef const uint8_t *flags = s.g.flags
    cdef const int32_t *rip
    cdef const int32_t *rix
    cdef uint64_t *queued = s.queued
    cdef uint64_t x
    cdef Worker *other
    cdef int64_t count
    if cat:
        # Masks of two rounds ago are free again: clear the rows this thread listed.
        for i in range(w.n_changed_cat[par]):
            memset(&s.chg_cat[par][w.changed_cat[par][i] * CW], 0, <size_t> CW * 8)
        w.n_changed_cat[par] = 0
        scatter_fresh(w, s)
        rip = s.g.c_rip
        rix = s.g.c_rix
    else:
        for i in range(w.n_changed_mouse[par ^ 1]):
            memset(&s.chg_mouse[par ^ 1][w.changed_mouse[par ^ 1][i] * CW], 0,
                   <size_t> CW * 8)
        w.n_changed_mouse[par ^ 1] = 0
        rip = s.g.m_rip
        rix = s.g.m_rix
    # The work-list: every owned row in round 1, then the predecessors of changed rows,
    # marked in the queued bitmap (word b is block b: this thread's words only), then
    # pushed in row order, so that the scatters of one 64-row block stay in cache.
    if k == 1 or s.every_row:
        for row in range(n):
            if owns(w, s, row) and not (cat and flags[row] & CAT_FORBIDDEN):
                ring_push(w, <int32_t> row, cap)
    else:
        for u in range(s.threads):
            other = &s.workers[u]
            if cat:
                count = other.n_changed_cat[par ^ 1]
            else:
                count = other.n_changed_mouse[par]
            for i in range(count):
                row = other.changed_cat[par ^ 1][i] if cat else other.changed_mouse[par][i]
                for e in range(rip[row], rip[row + 1]):
                    pred = rix[e]
                    if owns(w, s, pred) and not (cat and flags[pred] & CAT_FORBIDDEN):
                        queued[pred >> 6] |= (<uint64_t> 1) << (pred & 63)
                w.work += rip[row + 1] - rip[row]
        b = w.id
        while b < W:
            x = queued[b]
            queued[b] = 0
            while x:
                ring_push(w, <int32_t> ((b << 6) + cm_ctz64(x)), cap)
                x &= x - 1
            b += s.threads
    while w.head != w.tail:
        row = w.ring[w.head % cap]
        w.head += 1
        compute_row(w, s, row, cat, k == 1 or s.every_row)
        if w.work >= POLL_WORK and poll(w, s) < 0:
            w.head = w.tail
            flush_tiles(w, s)
            return -1
    if not cat:
        flush_tiles(w, s)
    return 0


cdef void write_row(uint8_t *out, int64_t n, const uint64_t *mw, const uint64_t *cw,
                    const uint8_t *flags) noexcept nogil:
    """Outcome bytes of one row from its mouse-win and cat-win words."""
    cdef int64_t c
    for c in range(n):
        if flags[c] & CAT_FORBIDDEN:
            out[c] = NO_POSITION
        elif (mw[c >> 6] >> (c & 63)) & 1:
            out[c] = MOUSE_WIN
        elif (cw[c >> 6] >> (c & 63)) & 1:
            out[c] = CAT_WIN
        else:
            out[c] = 0


cdef void phase_output(Worker *w) noexcept nogil:
    """The cat-to-move half of the outcome table, from the rows by mouse; and that half
    of the remoteness table, kept in rows by cat during the search, transposed in place."""
    cdef Shared *s = <Shared *> w.shared
    cdef int64_t n = s.n, W = s.W, m, ti, tj, tiles = (s.n + 63) >> 6, b, word, j, c_end
    cdef uint64_t *mw = w.tiles
    cdef uint64_t *cw = w.tiles + 64
    cdef uint64_t *mrow = w.tiles + 128
    cdef uint64_t *crow = w.tiles + 128 + 64 * W
    for m in range(n):
        if owns(w, s, m):
            write_row(s.outcome + n * n + m * n, n, s.MW1 + m * W, s.CW1 + m * W, s.g.flags)
    # The mouse-to-move half: its values are in rows by cat; transpose them a 64x64 tile
    # at a time into rows by mouse (block b of mice, word ``word`` of cats).
    b = w.id
    while b < W:
        for word in range(W):
            c_end = 64 if (word << 6) + 64 <= n else n - (word << 6)
            for j in range(64):
                mw[j] = s.MW0T[((word << 6) + j) * W + b] if j < c_end else 0
                cw[j] = s.CW0T[((word << 6) + j) * W + b] if j < c_end else 0
            transpose64(mw)
            transpose64(cw)
            for j in range(64):
                mrow[j * W + word] = mw[j]
                crow[j * W + word] = cw[j]
        for j in range(64):
            m = (b << 6) + j
            if m >= n:
                break
            write_row(s.outcome + m * n, n, mrow + j * W, crow + j * W, s.g.flags)
        b += s.threads
    if s.rem == NULL:
        return
    for ti in range(tiles):
        for tj in range(ti, tiles):
            if (ti + tj) % s.threads == w.id:
                transpose_tiles(s.rem + n * n, n, ti << 6, tj << 6)


cdef void transpose_tiles(int32_t *table, int64_t n, int64_t bi, int64_t bj) noexcept nogil:
    """Swap the 64-by-64 tiles at (bi, bj) and (bj, bi) of an n-by-n table, transposing."""
    cdef int64_t i, j, i_end = bi + 64 if bi + 64 < n else n
    cdef int64_t j_end = bj + 64 if bj + 64 < n else n
    cdef int32_t held
    for i in range(bi, i_end):
        for j in range(bj if bi != bj else i + 1, j_end):
            held = table[i * n + j]
            table[i * n + j] = table[j * n + i]
            table[j * n + i] = held


cdef int run_phase_here(Worker *w, int32_t phase) noexcept nogil:
    if phase == PHASE_CAT:
        return phase_step(w, True)
    if phase == PHASE_MOUSE:
        return phase_step(w, False)
    if phase == PHASE_OUTPUT:
        phase_output(w)
    return 0


cdef int run_phase(Shared *s, int32_t phase) noexcept nogil:
    """Run one phase on every thread: the main thread takes share 0; a barrier at the end."""
    cdef int32_t i
    cdef int status
    s.phase = phase
    for i in range(1, s.threads):
        PyThread_release_lock(s.go[i])
    status = run_phase_here(&s.workers[0], phase)
    for i in range(1, s.threads):
        PyThread_acquire_lock(s.done[i], 1)
    if status < 0 or s.abort:
        return -1
    return 0


cdef void worker_loop(Shared *s, int32_t i) noexcept nogil:
    """A helper thread: wait for a phase, run its share, report done; until told to exit."""
    cdef int32_t phase
    while True:
        PyThread_acquire_lock(s.go[i], 1)
        phase = s.phase
        if phase == PHASE_EXIT:
            PyThread_release_lock(s.done[i])
            return
        run_phase_here(&s.workers[i], phase)
        PyThread_release_lock(s.done[i])


cdef void seed(Shared *s) noexcept nogil:
    """Round 0: the terminal positions by rule precedence, in every orientation."""
    cdef const Game *g = s.g
    cdef const uint8_t *flags = g.flags
    cdef int64_t n = s.n, W = s.W, nn = <int64_t> s.n * s.n, u, j, base, col
    cdef uint64_t *forbidden = s.scratch
    cdef uint64_t *hole = s.scratch + W
    cdef uint64_t *goal = s.scratch + 2 * W
    cdef uint64_t *mouse_stuck = s.scratch + 3 * W
    cdef uint64_t *cat_stuck = s.scratch + 4 * W
    cdef uint64_t pad, bit, mw, cw, x, valid
    cdef int64_t e
    cdef bint moves
    cdef int64_t decided = 0
    # Bits past node n-1 in the last word: decided from the start, so never computed.
    pad = 0 if n % 64 == 0 else ONES << (n % 64)
    for u in range(n):
        bit = (<uint64_t> 1) << (u & 63)
        if flags[u] & CAT_FORBIDDEN:
            forbidden[u >> 6] |= bit
        if flags[u] & HOLE:
            hole[u >> 6] |= bit
        if flags[u] & CAT_GOAL:
            goal[u >> 6] |= bit
        if g.m_ip[u + 1] == g.m_ip[u]:
            mouse_stuck[u >> 6] |= bit
        if not flags[u] & CAT_FORBIDDEN:
            moves = False
            for e in range(g.c_ip[u], g.c_ip[u + 1]):
                if not flags[g.c_ix[e]] & CAT_FORBIDDEN:
                    moves = True
                    break
            if not moves:
                cat_stuck[u >> 6] |= bit
    forbidden[W - 1] |= pad
    # Rows by cat (bits are mice).
    for u in range(n):
        base = u * W
        if flags[u] & CAT_FORBIDDEN:
            for j in range(W):
                s.D1T[base + j] = ONES
            continue
        for j in range(W):
            bit = ((<uint64_t> 1) << (u & 63)) if j == (u >> 6) else 0
            # Mouse to move at (m, u).
            cw = bit
            mw = hole[j] & ~cw
            if flags[u] & CAT_GOAL:
                cw |= ~mw
            cw |= mouse_stuck[j] & ~mw
            if j == W - 1:
                cw &= ~pad
                mw &= ~pad
            s.MW0T[base + j] = mw
            s.CW0T[base + j] = cw
            decided += cm_popcount64(mw | cw)
            # Cat to move at (m, u).
            cw = bit
            mw = hole[j] & ~cw
            if flags[u] & CAT_GOAL:
                cw |= ~mw
            if (cat_stuck[u >> 6] >> (u & 63)) & 1:
                mw |= ~cw
            s.D1T[base + j] = mw | cw | (pad if j == W - 1 else 0)
    # Rows by mouse (bits are cats).
    for u in range(n):
        base = u * W
        for j in range(W):
            valid = ~forbidden[j]
            bit = ((<uint64_t> 1) << (u & 63)) if j == (u >> 6) else 0
            cw = bit & valid
            mw = (valid & ~cw) if flags[u] & HOLE else 0
            cw |= goal[j] & valid & ~mw
            x = cw
            if g.m_ip[u + 1] == g.m_ip[u]:
                x |= valid & ~mw
            s.D0[base + j] = ~valid | mw | x
            if s.rem != NULL:
                bit = mw | x
                while bit:
                    col = (j << 6) + cm_ctz64(bit)
                    bit &= bit - 1
                    s.rem[u * n + col] = 0
            mw |= cat_stuck[j] & ~cw
            s.MW1[base + j] = mw
            s.CW1[base + j] = cw
            decided += cm_popcount64(mw | cw)
            if s.rem != NULL:
                bit = mw | cw
                while bit:
                    col = (j << 6) + cm_ctz64(bit)
                    bit &= bit - 1
                    s.rem[nn + col * n + u] = 0  # rows by cat, as in the search
    s.decided = decided


cdef int64_t target_code(Shared *s) noexcept nogil:
    """The target's code if round 0 decided it, else -1."""
    cdef int64_t W = s.W
    cdef uint64_t bit
    if s.tt == 0:
        bit = (<uint64_t> 1) << (s.tm & 63)
        if s.MW0T[s.tc * W + (s.tm >> 6)] & bit:
            return MOUSE_WIN
        if s.CW0T[s.tc * W + (s.tm >> 6)] & bit:
            return CAT_WIN
    elif s.tt == 1:
        bit = (<uint64_t> 1) << (s.tc & 63)
        if s.MW1[s.tm * W + (s.tc >> 6)] & bit:
            return MOUSE_WIN
        if s.CW1[s.tm * W + (s.tc >> 6)] & bit:
            return CAT_WIN
    return -1


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    """A 64-bit mixing of a node id (splitmix64's finaliser)."""
    x += <uint64_t> 0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * <uint64_t> 0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * <uint64_t> 0x94D049BB133111EBULL
    return x ^ (x >> 31)


cdef bint reverse_matches(int64_t n, const int32_t *ip, const int32_t *ix, const int32_t *rip,
                          const int32_t *rix, uint64_t *sums) noexcept nogil:
    """Whether (rip, rix) lists each node's predecessors under (ip, ix), as multisets.

    Compared through per-node sums of mixed ids (n words of scratch), so a mismatch
    goes unnoticed only by a 64-bit coincidence.  The answers are defined by the move
    arrays alone; the work-list reads the reverse ones, so it is used only if they match.
    """
    cdef int64_t u, k
    if ip[n] != rip[n]:
        return False
    memset(sums, 0, <size_t> n * 8)
    for u in range(n):
        for k in range(ip[u], ip[u + 1]):
            sums[ix[k]] += mix(<uint64_t> u)
    for u in range(n):
        for k in range(rip[u], rip[u + 1]):
            sums[u] -= mix(<uint64_t> rix[k])
    for u in range(n):
        if sums[u]:
            return False
    return True


cdef int64_t general_run(Shared *s, object progress) except -2:
    """Round after round until nothing changes (or the target is decided); GIL held."""
    cdef int64_t code, found
    cdef int32_t i, status
    cdef double last = 0.0
    with nogil:
        seed(s)
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
        s.decided += code
        if found:
            return found
        check_signals_raise()
        if progress is not None and (code == 0 or monotonic() - last >= 0.2):
            progress(s.decided)
            last = monotonic()
        if code == 0:
            break
    if s.tt >= 0:
        return 0
    if s.outcome != NULL:
        with nogil:
            run_phase(s, PHASE_OUTPUT)
    return s.decided


cdef int check_signals_raise() except -1:
    if check_signals() < 0:
        return -1
    return 0


cdef class _Crew:
    """Helper threads of one general solve (no Python object is touched while they run)."""

    cdef Shared *s

    def run(self, int32_t i):
        with nogil:
            worker_loop(self.s, i)


cdef int64_t solve_general(const Game *g, uint8_t *outcome, int32_t *rem, int64_t target,
                           int64_t threads, object progress, bint poll) except -2:
    """Solve ``g`` on the general path with up to ``threads`` threads; GIL held."""
    cdef int64_t n = g.n, nn = <int64_t> g.n * g.n
    cdef int32_t T = <int32_t> general_threads(n, threads), i
    cdef Shared *s
    cdef _Crew crew
    cdef list started = []
    cdef int32_t helpers
    if target >= 0 and g.flags[target % n] & CAT_FORBIDDEN:
        return NO_POSITION
    with nogil:
        s = shared_alloc(g, T)
    if s == NULL:
        raise MemoryError(f"cannot allocate {layout_bytes(n, T)} bytes for the bit tables")
    s.poll = poll
    with nogil:
        # The stamps (2n int32, unused until round 1) serve as the n words of scratch.
        s.every_row = not (
            reverse_matches(n, g.m_ip, g.m_ix, g.m_rip, g.m_rix, <uint64_t *> s.stamp_cat)
            and reverse_matches(n, g.c_ip, g.c_ix, g.c_rip, g.c_rix,
                                <uint64_t *> s.stamp_cat))
        memset(s.stamp_cat, 0, <size_t> n * 8)
    s.outcome = outcome
    s.rem = rem
    s.tt = -1
    if target >= 0:
        s.tt = <int32_t> (target // nn)
        s.tm = <int32_t> ((target - s.tt * nn) // n)
        s.tc = <int32_t> (target % n)
    try:
        if rem != NULL:
            with nogil:
                memset(rem, 0xFF, <size_t> (2 * nn) * sizeof(int32_t))
        if T > 1:
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
            crew = _Crew.__new__(_Crew)
            crew.s = s
            for i in range(1, T):
                thread = threading.Thread(target=crew.run, args=(i,), daemon=True,
                                          name=f"catmouse-engine-{i}")
                try:
                    thread.start()
                except RuntimeError:
                    raise  # no thread was started
                except BaseException:
                    started.append(thread)  # Ctrl-C while start() waited: it runs
                    raise
                started.append(thread)
        return general_run(s, progress)
    finally:
        if started:
            # Every helper leaves its loop (done, without the GIL: Ctrl-C cannot cut this
            # short) before anything is freed; then the threads are joined, through Ctrl-C.
            s.phase = PHASE_EXIT
            helpers = <int32_t> len(started)
            for i in range(1, helpers + 1):
                PyThread_release_lock(s.go[i])
            with nogil:
                for i in range(1, helpers + 1):
                    PyThread_acquire_lock(s.done[i], 1)
            interrupted = None
            for thread in started:
                # is_alive() runs Python code too: Ctrl-C can land in it as well as in join().
                while True:
                    try:
                        if not thread.is_alive():
                            break
                        thread.join()
                    except BaseException as error:
                        interrupted = error
        if s.go != NULL:
            for i in range(T):
                if s.go[i] != NULL:
                    PyThread_free_lock(s.go[i])
                if s.done[i] != NULL:
                    PyThread_free_lock(s.done[i])
        PyMem_RawFree(s.go)
        PyMem_RawFree(s.done)
        PyMem_RawFree(s)
        if started and interrupted is not None:
            raise interrupted


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
    s.every_row = not (
        reverse_matches(n, g.m_ip, g.m_ix, g.m_rip, g.m_rix, <uint64_t *> s.stamp_cat)
        and reverse_matches(n, g.c_ip, g.c_ix, g.c_rip, g.c_rix, <uint64_t *> s.stamp_cat))
    memset(s.stamp_cat, 0, <size_t> n * 8)
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
                        int64_t threads, object progress) except -2:
    """Either path; GIL held (released inside for the long parts)."""
    cdef Small small
    cdef int64_t result
    if g.n == 0:
        if progress is not None:
            progress(0)
        return 0
    if g.n <= 64:
        small_from_game(g, &small)
        result = small_solve(&small, target, outcome, rem)
        if progress is not None:
            progress(result if target < 0 else 0)
        return result
    return solve_general(g, outcome, rem, target, threads, progress, True)


# -- entry points -----------------------------------------------------------------------

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


cdef int check_n(object n) except -1:
    if not 0 <= n <= MAX_NODES:
        raise ValueError(f"n = {n} is out of range: the engine takes 0 to {MAX_NODES} nodes")
    return 0


cdef int check_game(int32_t n, const uint8_t[::1] flags,
                    const int32_t[::1] mouse_indptr, const int32_t[::1] mouse_indices,
                    const int32_t[::1] mouse_rindptr, const int32_t[::1] mouse_rindices,
                    const int32_t[::1] cat_indptr, const int32_t[::1] cat_indices,
                    const int32_t[::1] cat_rindptr, const int32_t[::1] cat_rindices,
                    Game *g) except -1:
    """The entry checks every engine call makes; fills ``g`` with the pointers."""
    check_n(n)
    if flags.shape[0] != n:
        raise ValueError(f"flags has {flags.shape[0]} entries for {n} nodes")
    check_csr("mouse", n, mouse_indptr, mouse_indices)
    check_csr("mouse reverse", n, mouse_rindptr, mouse_rindices)
    check_csr("cat", n, cat_indptr, cat_indices)
    check_csr("cat reverse", n, cat_rindptr, cat_rindices)
    g.n = n
    g.flags = &flags[0] if n else NULL
    g.m_ip = &mouse_indptr[0]
    g.m_ix = &mouse_indices[0] if mouse_indices.shape[0] else NULL
    g.m_rip = &mouse_rindptr[0]
    g.m_rix = &mouse_rindices[0] if mouse_rindices.shape[0] else NULL
    g.c_ip = &cat_indptr[0]
    g.c_ix = &cat_indices[0] if cat_indices.shape[0] else NULL
    g.c_rip = &cat_rindptr[0]
    g.c_rix = &cat_rindices[0] if cat_rindices.shape[0] else NULL
    return 0


def propagate(n, flags, mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
              cat_indptr, cat_indices, cat_rindptr, cat_rindices,
              outcome=None, remoteness=None, target=-1, *, threads=1, progress=None):
    """Solve every position of the game (or one, ``target``); see ENGINE_CONTRACT.

    >>> from array import array
    >>> ip, ix = array("i", [0, 1, 2]), array("i", [1, 0])
    >>> out = bytearray(8)
    >>> propagate(2, bytes(2), ip, ix, ip, ix, ip, ix, ip, ix, out)
    8
    """
    # A typed C integer argument would take 2.7 as 2: accept integers only.
    n = index(n)
    check_n(n)
    check_threads(threads)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable or None, not {type(progress).__name__}")
    try:
        return _propagate(n, flags, mouse_indptr, mouse_indices, mouse_rindptr,
                          mouse_rindices, cat_indptr, cat_indices, cat_rindptr, cat_rindices,
                          outcome, remoteness, index(target), threads, progress)
    except (BufferError, TypeError, ValueError) as error:
        # Cython's buffer conversion words its errors by exporter (a strided memoryview gives
        # BufferError, a read-only one ValueError): on the way out, let the twin's checks
        # name the argument, so both engines refuse bad arrays with the same error.
        from catmouse.engine.bits_py import check_arrays
        check_arrays(n, flags, (mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
                                cat_indptr, cat_indices, cat_rindptr, cat_rindices),
                     outcome, remoteness, target)
        if isinstance(error, BufferError):  # the twin reads what C cannot (a strided index)
            raise ValueError(str(error)) from None
        raise


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
    int64_t threads=1,
    object progress=None,
):
    cdef Game g
    check_game(n, flags, mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
               cat_indptr, cat_indices, cat_rindptr, cat_rindices, &g)
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
    cdef uint8_t *state = &outcome[0] if outcome is not None and size else NULL
    cdef int32_t *rem = &remoteness[0] if remoteness is not None and size else NULL
    return solve_game(&g, state, rem, target, threads, progress)


def check_threads(threads):
    """A positive thread count, or TypeError/ValueError (as the twin).

    >>> check_threads(2)
    2
    """
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int, not {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    return threads


def peak_bytes(n, outcome, remoteness, target, threads=1):
    """Bytes this engine allocates itself for such a call (the caller's buffers not counted).

    Exact for the layout: games of at most 64 nodes live on the stack (0); bigger ones
    take one block of eight n-by-n bit tables (half a byte per position) and
    per-node and per-thread lists.  ``outcome``/``remoteness``/``target`` do not change it.

    >>> peak_bytes(50, True, True, False)
    0
    """
    n = index(n)
    check_n(n)
    check_threads(threads)
    if n <= 64:
        return 0
    return layout_bytes(n, general_threads(n, threads))


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


# -- adjacency lists to CSR -----------------------------------------------------------

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
    cdef int overflow = 0
    cdef object row, x
    for u in range(n):
        seen[u] = -1
    ip[0] = 0
    for u in range(n):
        row = adjacency[u]
        if type(row) is not list:
            return -1
        if total + len(<list> row) > room:
            return -1
        for x in <list> row:
            if type(x) is not int:
                return -1
            v = PyLong_AsLongAndOverflow(x, &overflow)
            if overflow or v < 0 or v >= n or v == u or seen[v] == u:
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
    cdef int overflow = 0
    cdef uint64_t bit, seen
    cdef object row, x
    for u in range(n):
        row = adjacency[u]
        if type(row) is not list:
            return False
        seen = (<uint64_t> 1) << u  # a self-loop looks like a repeat
        for x in <list> row:
            if type(x) is not int:
                return False
            v = PyLong_AsLongAndOverflow(x, &overflow)
            if overflow or v < 0 or v >= n:
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
        small.n = n
        small.all = ONES if n == 64 else ((<uint64_t> 1) << n) - 1
        small.hole = (<uint64_t> 1) << h
        small.goal = 0
        small.valid = small.all & ~small.hole
        for u in range(n):
            small.mouse_in[u] = small.mouse_out[u]
            # The cat's moves: never into the hole, and none from it.
            small.cat_out[u] = small.mouse_out[u] & small.valid if u != h else 0
            small.cat_in[u] = small.mouse_out[u] & small.valid if u != h else 0
        small_finish(&small)
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
