# Included by bits_c.pyx. The general path's tables: each thread's worker, the shared block, the
# work-lists.

from libc.stdint cimport uintptr_t

# -- any n: rows of W words, a work-list per thread, threads -----------------------------

cdef struct Worker:
    # One thread's share: the rows of the 64-row blocks it owns (``owned``, from owner_of).
    void *shared
    int32_t id
    int32_t *ring          # the work-list: rows in FIFO order, capacity n (filled, then drained)
    int64_t head
    int64_t tail
    int32_t *changed_cat[2]    # cat rows whose MW0T/CW0T this thread marked, by parity
    int64_t n_changed_cat[2]
    int32_t *changed_mouse[2]  # mouse rows whose MW1/CW1 this thread marked
    int64_t n_changed_mouse[2]
    # This thread's change masks (n rows of CW words, by parity) and the round in which it
    # last listed each row: its own, so marking needs no atomics and shares no cache line.
    uint64_t *chg_cat[2]
    uint64_t *chg_mouse[2]
    int32_t *stamp_cat
    int32_t *stamp_mouse
    int32_t *fresh         # cat rows with bits in FC/FM
    int64_t n_fresh
    # The cat step's new bits from words of at most THIN_WORD bits, one entry a bit (cat
    # row << 16 | mouse), kept for the next round's scatter: the cat's wins from the front
    # of ``thin``, the mouse's from the back (THIN_WORD per word of the rows owned: room
    # for every thin word of a round).
    uint32_t *thin
    int64_t thin_cap
    int64_t n_thin_cat
    int64_t n_thin_mouse
    uint64_t *win          # W words of scratch each
    uint64_t *lose
    uint64_t *dirty        # CW words: which words of the row to recompute
    # 128 * W + 128 words: the mouse step's new bits of one 64-row block, two tiles for
    # the cat's scatter, the output's transposes
    uint64_t *tiles
    uint64_t *fresh_words  # W * CW words: per block of cat rows, the words with FC/FM bits
    uint64_t *touched      # CW words: the words of the block with new bits
    uint64_t *owned        # CW words: bit b for each block b this thread owns
    uint64_t *queue[2]     # W words each: rows this thread queued for the cat / mouse step
    int64_t block          # the block in ``tiles`` (-1: none)
    uint64_t block_rows    # the rows of that block with bits in ``tiles``
    # The last PENDING words of remoteness planes to write (word offsets in a layer),
    # prefetched (plane_later).
    int64_t pend_at[PENDING]
    uint64_t pend_bits[PENDING]
    int64_t n_pend
    # Positions this thread decided in the current round (words with new positions in a
    # round of a search that does not count them: Shared.counting).
    int64_t decided
    int64_t work           # word operations since the last poll for Ctrl-C
    int32_t found          # the target's code once this thread decided it
    int64_t busy_ns        # CPU time of this helper's last share (pace.pxi)


cdef struct Shared:
    const Game *g
    int32_t n
    int64_t W              # words per row
    int64_t CW             # words per change mask (bits = words of a row)
    int32_t threads
    bint poll              # the main thread may take the GIL to check for Ctrl-C
    bint small_tables      # a table of rows of W words fits SMALL_TABLE (scatter_tile)
    bint every_row         # the reverse arrays are not the moves' reverse: no work-list
    bint counting          # rounds count their positions (progress reports); else words
    uint64_t *D0
    uint64_t *MW0T
    uint64_t *CW0T
    uint64_t *D1T
    uint64_t *MW1
    uint64_t *CW1
    uint64_t *FC
    uint64_t *FM
    # The threads' change masks, thread t's at t * n * CW: by cat row, the words of
    # MW0T/CW0T changed in a mouse step; by mouse row, those of MW1/CW1 changed by the cat
    # step's scatter.  A reader ORs every thread's.
    uint64_t *chg_cat[2]
    uint64_t *chg_mouse[2]
    int32_t *stamps        # every thread's stamps (2n int32 each); thread 0's are scratch
    uint64_t *scratch      # 5 rows of per-node masks, used while seeding
    Worker *workers
    uint8_t *outcome
    int32_t *rem
    # Remoteness as bit-planes (remoteness.pxi): layers[0] NULL when no remoteness is wanted;
    # n_layers of them (layer L holds bits 8L..8L+7).
    uint64_t *layers[MAX_LAYERS]
    int32_t n_layers
    # The planes of this round's set bits (list_round_planes): a new word's bits go into
    # each, a plain loop instead of a walk over the round's bits per word.
    uint64_t *round_planes[8 * MAX_LAYERS]
    int32_t n_round_planes
    int64_t more_bytes     # bytes the layers past the first may take (-1: no limit)
    int32_t tt             # the target's turn (-1: none), mouse and cat
    int32_t tm
    int32_t tc
    int32_t round
    int32_t phase
    int32_t abort
    int64_t decided
    int32_t spins          # tries of a lock before blocking on it (crew.pxi)
    Pace pace              # threads only while they pay (pace.pxi)
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
    total += 4 * threads * n * CW * 8  # change masks, two per side, per thread
    total += threads * 2 * n * 4       # stamps, per thread
    total += 5 * W * 8                # seeding masks
    # per thread: ring, 2+2 changed lists, fresh list (rows), scratch words and tiles
    total += threads * (align8(6 * n * 4) + (4 * W + 3 * CW + 128 * W + 128 + W * CW) * 8)
    total += align8(THIN_WORD * 64 * W * W * 4)  # the thin lists, a share per block owned
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
    cdef int64_t b
    cdef Shared *s
    cdef Worker *w
    # On 32-bit, a count past the address space would wrap in the size_t cast below.
    if total > PY_SSIZE_T_MAX:
        return NULL
    p = <char *> PyMem_RawCalloc(<size_t> total, 1)
    if p == NULL:
        return NULL
    if total >= HUGE_TABLE:
        cm_advise_huge(p, <size_t> total)
    s = <Shared *> p
    p += align8(sizeof(Shared))
    s.workers = <Worker *> p
    p += align8(threads * sizeof(Worker))
    s.g = g
    s.n = g.n
    s.W = W
    s.CW = CW
    s.small_tables = n * W * 8 <= SMALL_TABLE
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
    s.chg_cat[1] = s.chg_cat[0] + threads * n * CW
    s.chg_mouse[0] = s.chg_cat[1] + threads * n * CW
    s.chg_mouse[1] = s.chg_mouse[0] + threads * n * CW
    s.scratch = s.chg_mouse[1] + threads * n * CW
    p = <char *> (s.scratch + 5 * W)
    s.stamps = <int32_t *> p
    p = <char *> (s.stamps + threads * 2 * n)
    p += (8 - (<uintptr_t> p) % 8) % 8  # aligned to 8 (a pointer is 4 bytes on i386)
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
        w.owned = w.touched + CW
        w.tiles = w.owned + CW
        w.fresh_words = w.tiles + 128 * W + 128
        w.queue[0] = w.fresh_words + W * CW
        w.queue[1] = w.queue[0] + W
        for b in range(W):
            if owner_of(b, W, threads) == i:
                w.owned[b >> 6] |= (<uint64_t> 1) << (b & 63)
        for par in range(2):
            w.chg_cat[par] = s.chg_cat[par] + i * n * CW
            w.chg_mouse[par] = s.chg_mouse[par] + i * n * CW
        w.stamp_cat = s.stamps + i * 2 * n
        w.stamp_mouse = w.stamp_cat + n
        w.block = -1
        p += (4 * W + 3 * CW + 128 * W + 128 + W * CW) * 8
    for i in range(threads):
        w = &s.workers[i]
        w.thin = <uint32_t *> p
        for b in range(W):
            if owns_block(w, b):
                w.thin_cap += THIN_WORD * 64 * W
        p += w.thin_cap * 4
    return s


cdef inline int32_t owner_of(int64_t block, int64_t W, int64_t threads) noexcept nogil:
    """The thread that owns 64-row block ``block`` of ``W``: each thread a contiguous range
    of blocks (ranges of the same size to within one block).

    So a row's words change owner only at the ranges' ends.  With runs of up to 8 blocks
    dealt in turn (a cache line of a row's words each), each thread's lines neighboured the
    other's: two threads spent 1.4 to 1.7 times one thread's CPU on a phase, where
    contiguous ranges spent 1.0 to 1.6 (phase counters: sparse graphs of 3000 and 3072
    nodes, the 60x60 grid), and the runs' shares taken one after the other on two cores
    1.15."""
    return <int32_t> (block * threads // W)


cdef void first_touch(Worker *w) noexcept nogil:
    """The start of the seeding: the pages of the bit tables, of the outcome table (and of
    an int32 remoteness table) and of layer 0 of the remoteness planes (cleared here; no
    plane is written before round 1), faulted in by the threads in turn by chunks, not by
    rows.

    The allocator seems to hand back the low part of these blocks from memory it kept, and
    the high part fresh from the kernel, whose first writes cost page faults (zeroing, perhaps
    compacting huge pages).  Where each thread wrote its own rows first, one thread took
    those faults alone: in some calls its share of the seeding or of round 1 took 6 to 15 ms
    against the other's 1 to 2 (analyze of a sparse 3000-node graph, threads owning
    contiguous ranges of rows), which cost the crew that time and made its pacing see about
    1.15 CPUs.  (The faulting keeps the pages' contents: where the kernel cannot do it,
    before Linux 5.14 and elsewhere, the pages are faulted in by their first writes.)"""
    cdef Shared *s = <Shared *> w.shared
    cdef int64_t n = s.n, c, end, r
    cdef char *start[4]
    cdef int64_t size[4]
    if s.threads == 1:
        if s.layers[0] != NULL:
            memset(s.layers[0], 0, <size_t> layer_size(n))
        return
    # The regions, each written whole by the search (so faulting them in costs no memory
    # that it would not take): the 6 bit tables the seeding writes, the outcome and int32
    # remoteness tables (faulted in), layer 0 of the planes (cleared); chunks of TOUCH_CHUNK
    # dealt in turn.  Not FC/FM, the lists and the masks: a search may never touch most of
    # them (layout_bytes gives the thin lists 450 MB at 60,000 nodes).
    start[0] = <char *> s.D0
    size[0] = 6 * n * s.W * 8
    start[1] = <char *> s.outcome
    size[1] = 2 * n * n if s.outcome != NULL else 0
    start[2] = <char *> s.rem
    size[2] = 8 * n * n if s.rem != NULL else 0
    start[3] = <char *> s.layers[0]
    size[3] = layer_size(n) if s.layers[0] != NULL else 0
    for r in range(4):
        c = <int64_t> w.id * TOUCH_CHUNK
        while c < size[r]:
            end = c + TOUCH_CHUNK if c + TOUCH_CHUNK < size[r] else size[r]
            if r == 3:
                memset(start[r] + c, 0, <size_t> (end - c))
            else:
                cm_populate(start[r] + c, <size_t> (end - c))
            c += <int64_t> s.threads * TOUCH_CHUNK


cdef inline bint owns_block(const Worker *w, int64_t block) noexcept nogil:
    return (w.owned[block >> 6] >> (block & 63)) & 1


cdef inline bint owns(const Worker *w, const Shared *s, int64_t row) noexcept nogil:
    return owns_block(w, row >> 6)


cdef inline void ring_push(Worker *w, int32_t row, int64_t cap) noexcept nogil:
    w.ring[w.tail] = row  # (each row at most once a step: never past cap)
    w.tail += 1


cdef int poll(Worker *w, Shared *s) noexcept nogil:
    """Every POLL_WORK word operations, the main thread checks for Ctrl-C; -1 to stop."""
    if cm_load32(&s.abort):
        return -1
    if w.work < POLL_WORK:
        return 0
    w.work = 0
    if (w.id != 0 and not s.pace.solo) or not s.poll:  # (alone: every share is on thread 0)
        return 0
    with gil:
        if check_signals() < 0:
            cm_store_flag(&s.abort, 1)
            return -1
    return 0


cdef inline void mark(uint64_t *mask, int32_t *stamp, int32_t *listed, int64_t *count,
                      int64_t row, int64_t word, int64_t CW, int32_t k) noexcept nogil:
    """Note in this thread's mask that ``word`` of ``row`` gained bits this round; list the
    row once per round in this thread's list."""
    mask[row * CW + (word >> 6)] |= (<uint64_t> 1) << (word & 63)
    if stamp[row] != k:
        stamp[row] = k
        listed[count[0]] = <int32_t> row
        count[0] += 1


cdef inline int64_t dirty_words(Worker *w, Shared *s, const uint64_t *chg, const int32_t *ip,
                                const int32_t *ix, int64_t row, int64_t masks) noexcept nogil:
    """OR of the change masks of the row's moves into w.dirty; returns the words set.
    ``chg``: the first of ``masks`` threads' masks (n rows of CW words each).  A cat's
    move onto a node it may not stand on is read too: that row never changes."""
    cdef int64_t CW = s.CW, j, k, t, total = 0, stride = <int64_t> s.n * s.CW
    cdef int32_t v
    cdef const uint64_t *at
    cdef uint64_t one
    if CW == 1 and masks <= 2:
        # (Up to 4,096 nodes and one or two masks: a word a row each.)
        one = 0
        if masks == 1:
            for k in range(ip[row], ip[row + 1]):
                one |= chg[ix[k]]
        else:
            for k in range(ip[row], ip[row + 1]):
                one |= chg[ix[k]] | chg[stride + ix[k]]
        w.dirty[0] = one
        w.work += (ip[row + 1] - ip[row]) * masks
        return cm_popcount64(one)
    for j in range(CW):
        w.dirty[j] = 0
    for k in range(ip[row], ip[row + 1]):
        v = ix[k]
        for t in range(masks):
            at = chg + t * stride + v * CW
            for j in range(CW):
                w.dirty[j] |= at[j]
    for j in range(CW):
        total += cm_popcount64(w.dirty[j])
    w.work += (ip[row + 1] - ip[row]) * CW * masks
    return total


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


cdef bint reverses_match(const Game *g, uint64_t *sums) noexcept nogil:
    """Whether both reverse arrays of ``g`` list its moves' reverse: as its Board found out
    once, else checked now (``sums``: n words of scratch, left zeroed)."""
    cdef bint same
    if g.reverse:
        return g.reverse > 0
    same = (reverse_matches(g.n, g.m_ip, g.m_ix, g.m_rip, g.m_rix, sums)
            and reverse_matches(g.n, g.c_ip, g.c_ix, g.c_rip, g.c_rix, sums))
    memset(sums, 0, <size_t> g.n * 8)
    return same


cdef int32_t reverse_known(const Game *g) except -2:
    """``Game.reverse`` of a Board's game, found once (a check per search cost 8% of
    analyze of a sparse 200-node graph)."""
    cdef uint64_t *sums = <uint64_t *> PyMem_RawMalloc(<size_t> g.n * 8 + 8)
    cdef bint same
    if sums == NULL:
        raise MemoryError(f"cannot allocate {g.n * 8 + 8} bytes to check the reverse arrays")
    with nogil:
        same = reverses_match(g, sums)
    PyMem_RawFree(sums)
    return 1 if same else -1
