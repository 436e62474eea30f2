# Included by bits_c.pyx. The general path's rounds: recompute the changed rows (their new bits
# go to scatter.pxi), seed round 0, write the tables out.

cdef inline bint at_most_thin(uint64_t x) noexcept nogil:
    """Whether ``x`` has at most THIN_WORD bits."""
    cdef int i
    for i in range(THIN_WORD):
        x &= x - 1  # the lowest bit cleared
    return x == 0


cdef int64_t count_decided(const Shared *s) noexcept nogil:
    """Positions decided so far, from the boards: D0 (mouse to move, rows by mouse) less
    the cells the cat may not stand on, D1T (cat to move, rows by cat) less those cells'
    rows; neither with the bits past node n - 1."""
    cdef int64_t n = s.n, W = s.W, u, j, total = 0
    cdef const uint64_t *forbidden = s.scratch   # from seed_masks, pad bits included
    cdef uint64_t pad = 0 if n % 64 == 0 else ONES << (n % 64)
    for u in range(n):
        for j in range(W):
            total += cm_popcount64(s.D0[u * W + j] & ~forbidden[j])
        if (forbidden[u >> 6] >> (u & 63)) & 1:
            continue
        for j in range(W - 1):
            total += cm_popcount64(s.D1T[u * W + j])
        total += cm_popcount64(s.D1T[u * W + W - 1] & ~pad)
    return total


cdef void compute_row(Worker *w, Shared *s, int64_t row, bint cat, bint everything) noexcept nogil:
    """One row of one step: OR and AND over the moves' rows, only where inputs changed.

    With threads, a row of either step is computed whole by the thread that owns its
    block; its new bits go into the other orientation's rows at the word of that block,
    which only this thread writes.  So each step reads move rows whose words both threads
    wrote.  The mouse step split by words instead (every thread every row, in the words of
    its blocks), which kept its reads in one core's cache but left each thread nearly all
    of one thread's work: that work goes with the move rows read, not with their words
    (2 threads, sparse 3000 nodes: each thread's mouse step 19 to 22 ms of CPU against 26
    to 29 split by words, and 30 to 43 on one thread)."""
    cdef int64_t W = s.W, CW = s.CW, n = s.n
    cdef int32_t k = s.round, par = k & 1
    cdef const int32_t *ip
    cdef const int32_t *ix
    cdef const uint64_t *any_src
    cdef const uint64_t *all_src
    cdef uint64_t *decided
    cdef uint64_t *win = w.win
    cdef uint64_t *lose = w.lose
    cdef int64_t words, e, j, word, base, moves
    cdef uint64_t x, y, nw, nl, und, y1, y2, y3, n1, n2, n3
    cdef int32_t v
    cdef bint dense, thin, listed_fresh = False, counting = s.counting
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
    if everything or W <= DENSE:
        # (With at most DENSE words a queued row is recomputed whole: a changed move row
        # queued it, so at least one word changed.)
        words = W
    elif cat:
        words = dirty_words(w, s, s.chg_cat[par ^ 1], ip, ix, row, s.threads)
    else:
        words = dirty_words(w, s, s.chg_mouse[par], ip, ix, row, s.threads)
    if words == 0:
        return
    dense = words * DENSE_SHARE >= W
    moves = ip[row + 1] - ip[row]
    if dense:
        # Four words at a time, down the column of the move rows, kept in registers (a
        # word at a time through win/lose read and wrote them once a move).
        j = 0
        while j + 4 <= W:
            y = y1 = y2 = y3 = 0
            nw = n1 = n2 = n3 = ONES
            for e in range(ip[row], ip[row + 1]):
                base = ix[e] * W + j
                y |= any_src[base]
                y1 |= any_src[base + 1]
                y2 |= any_src[base + 2]
                y3 |= any_src[base + 3]
                nw &= all_src[base]
                n1 &= all_src[base + 1]
                n2 &= all_src[base + 2]
                n3 &= all_src[base + 3]
            win[j] = y
            win[j + 1] = y1
            win[j + 2] = y2
            win[j + 3] = y3
            lose[j] = nw
            lose[j + 1] = n1
            lose[j + 2] = n2
            lose[j + 3] = n3
            j += 4
        while j < W:
            y = 0
            nw = ONES
            for e in range(ip[row], ip[row + 1]):
                v = ix[e]
                y |= any_src[v * W + j]
                nw &= all_src[v * W + j]
            win[j] = y
            lose[j] = nw
            j += 1
        w.work += moves * W
    else:
        # Only the changed words, each an OR and an AND down the column of the move rows.
        for j in range(CW):
            x = w.dirty[j]
            while x:
                word = (j << 6) + cm_ctz64(x)
                x &= x - 1
                if decided[word] == ONES:
                    # (Nothing left to decide in this word: out of the pass below too.
                    # Outcomes-only, 1.1% fewer instructions at 1000 and 3000 nodes.)
                    w.dirty[j] &= ~((<uint64_t> 1) << (word & 63))
                    continue
                y = 0
                nw = ONES
                for e in range(ip[row], ip[row + 1]):
                    v = ix[e]
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
            # Positions are counted here only for progress reports; otherwise a word is
            # counted as one (the round decided something) and the total comes from the
            # boards at the end (count_decided): x86 wheels have no popcnt instruction.
            w.decided += cm_popcount64(nw | nl) if counting else 1
            thin = at_most_thin(nw | nl)
            if cat:
                # New bits are mice, kept until the next round's scatter: a thin word's in
                # the thin list, the others in FC/FM.
                if thin:
                    keep_thin(w, nw, nl, row, word)
                else:
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
                if s.layers[0] != NULL:
                    plane_later(w, s, (n + row) * 8 * W + 8 * word, nw | nl)
            else:
                if s.tt == 0 and row == s.tm and (s.tc >> 6) == word:
                    if ((nw | nl) >> (s.tc & 63)) & 1:
                        w.found = MOUSE_WIN if (nw >> (s.tc & 63)) & 1 else CAT_WIN
                if thin:
                    # A thin word: straight into the rows by cat, at the word of this row's
                    # block, which no other thread writes.
                    scatter_bits(w, s, s.MW0T, nw, word, row, k)
                    scatter_bits(w, s, s.CW0T, nl, word, row, k)
                else:
                    # New bits are cats: into this block's tiles, transposed into the rows
                    # by cat when the block is done (flush_tiles).
                    if w.block != row >> 6:
                        flush_tiles(w, s)
                        w.block = row >> 6
                    w.tiles[(word << 7) + (row & 63)] = nw
                    w.tiles[(word << 7) + 64 + (row & 63)] = nl
                    w.block_rows |= (<uint64_t> 1) << (row & 63)
                    w.touched[word >> 6] |= (<uint64_t> 1) << (word & 63)
                if s.layers[0] != NULL:
                    plane_later(w, s, row * 8 * W + 8 * word, nw | nl)


cdef inline void clear_rows(uint64_t *mask, const int32_t *rows, int64_t count,
                            int64_t CW) noexcept nogil:
    """Zero the listed rows of a change mask (CW words a row; a store each below 4,097
    nodes, where a memset call a row cost more than the store)."""
    cdef int64_t i
    if CW == 1:
        for i in range(count):
            mask[rows[i]] = 0
        return
    for i in range(count):
        memset(&mask[rows[i] * CW], 0, <size_t> CW * 8)


cdef int phase_step(Worker *w, bint cat) noexcept nogil:
    """One thread's part of one step of the round: clear, scatter, queue, compute."""
    cdef Shared *s = <Shared *> w.shared
    cdef int64_t n = s.n, CW = s.CW, W = s.W, cap = s.n, i, row, b
    cdef int32_t k = s.round, par = k & 1
    cdef const uint8_t *flags = s.g.flags
    cdef uint64_t *queue
    cdef uint64_t x
    cdef int64_t u
    if cat:
        # Masks of two rounds ago are free again: clear the rows this thread listed.
        clear_rows(w.chg_cat[par], w.changed_cat[par], w.n_changed_cat[par], CW)
        w.n_changed_cat[par] = 0
        scatter_thin(w, s)
        scatter_fresh(w, s)
    else:
        clear_rows(w.chg_mouse[par ^ 1], w.changed_mouse[par ^ 1],
                   w.n_changed_mouse[par ^ 1], CW)
        w.n_changed_mouse[par ^ 1] = 0
    w.head = w.tail = 0
    # The work-list, in row order so that the scatters of one 64-row block stay in cache:
    # in round 1 every row this thread owns, else the rows queued for this step
    # (queue_predecessors): from every thread's bitmap, the blocks this one owns.
    if k == 1 or s.every_row:
        for row in range(n):
            if owns(w, s, row) and not (cat and flags[row] & CAT_FORBIDDEN):
                ring_push(w, <int32_t> row, cap)
    else:
        for b in range(W):
            if not owns_block(w, b):
                continue
            x = 0
            for u in range(s.threads):
                queue = s.workers[u].queue[0 if cat else 1]
                x |= queue[b]
                queue[b] = 0
            if cat:
                x &= ~s.scratch[b]  # (not the nodes the cat may not stand on: seed_masks)
            while x:
                ring_push(w, <int32_t> ((b << 6) + cm_ctz64(x)), cap)
                x &= x - 1
    # (The work-list is filled whole before it is drained, so it never wraps: no modulo,
    # which was a division per row.)
    while w.head != w.tail:
        row = w.ring[w.head]
        w.head += 1
        compute_row(w, s, row, cat, k == 1 or s.every_row)
        if w.work >= POLL_WORK and poll(w, s) < 0:
            w.head = w.tail
            flush_tiles(w, s)
            return -1
    if not cat:
        flush_tiles(w, s)
    planes_drain(w, s)
    if not s.every_row:
        queue_predecessors(w, s, cat)
    return 0


cdef void queue_predecessors(Worker *w, Shared *s, bint cat) noexcept nogil:
    """Queue for the next step the predecessors of the rows this thread changed in this
    one, in its own bitmap (any thread's rows): after the barrier each thread takes its
    blocks' bits from every bitmap.  Each changed row's predecessors are listed once, by
    the thread that changed it, rather than by every thread.  (Cats on nodes they may
    not stand on are queued too, and left out where the work-list is built.)"""
    cdef int32_t par = s.round & 1
    cdef const int32_t *rip
    cdef const int32_t *rix
    cdef const int32_t *rows
    cdef uint64_t *queue
    cdef int64_t count, i, e, row
    cdef int32_t pred
    if cat:
        # The cat's scatter changed rows by mouse: the mouse step recomputes their
        # predecessors under the mouse's moves.
        rows = w.changed_mouse[par]
        count = w.n_changed_mouse[par]
        rip = s.g.m_rip
        rix = s.g.m_rix
        queue = w.queue[1]
    else:
        # The mouse's scatter changed rows by cat: the next cat step recomputes theirs.
        rows = w.changed_cat[par]
        count = w.n_changed_cat[par]
        rip = s.g.c_rip
        rix = s.g.c_rix
        queue = w.queue[0]
    for i in range(count):
        row = rows[i]
        for e in range(rip[row], rip[row + 1]):
            pred = rix[e]
            queue[pred >> 6] |= (<uint64_t> 1) << (pred & 63)
        w.work += rip[row + 1] - rip[row]


cdef void write_row(uint8_t *out, int64_t n, const uint64_t *mw, const uint64_t *cw,
                    const uint64_t *forbidden) noexcept nogil:
    """Outcome bytes of one row from its mouse-win and cat-win words, 8 at a time
    (``forbidden``: the cells the cat may not stand on, whose code is NO_POSITION)."""
    cdef int64_t j, g, c
    cdef uint64_t f, m, k, v
    for j in range((n + 63) >> 6):
        f = forbidden[j]
        m = mw[j] & ~f
        k = cw[j] & ~mw[j] & ~f
        if f == 0 and (j << 6) + 64 <= n:
            # (Most words: no cell the cat may not stand on, and the word whole.)
            for g in range(0, 64, 8):
                v = SPREAD[(m >> g) & 255] * MOUSE_WIN | SPREAD[(k >> g) & 255] * CAT_WIN
                memcpy(out + (j << 6) + g, &v, 8)  # (a constant size: one store)
            continue
        for g in range(0, 64, 8):
            c = (j << 6) + g
            if c >= n:
                break
            v = (SPREAD[(m >> g) & 255] * MOUSE_WIN | SPREAD[(k >> g) & 255] * CAT_WIN
                 | SPREAD[(f >> g) & 255] * NO_POSITION)
            if c + 8 <= n:
                memcpy(out + c, &v, 8)  # (a constant size: one store)
            else:
                memcpy(out + c, &v, <size_t> (n - c))


cdef int phase_output(Worker *w) noexcept nogil:
    """The outcome table from the bit tables; and an int32 remoteness table from the planes
    (-1 if Ctrl-C stopped it)."""
    cdef Shared *s = <Shared *> w.shared
    cdef int64_t n = s.n, W = s.W, m, b, word, j, c_end
    cdef uint64_t *mw = w.tiles
    cdef uint64_t *cw = w.tiles + 64
    cdef uint64_t *mrow = w.tiles + 128
    cdef uint64_t *crow = w.tiles + 128 + 64 * W
    for m in range(n):
        if owns(w, s, m):
            write_row(s.outcome + n * n + m * n, n, s.MW1 + m * W, s.CW1 + m * W, s.scratch)
    # The mouse-to-move half: its values are in rows by cat; transpose them a 64x64 tile
    # at a time into rows by mouse (block b of mice, word ``word`` of cats).
    for b in range(W):
        if not owns_block(w, b):
            continue
        for word in range(W):
            c_end = 64 if (word << 6) + 64 <= n else n - (word << 6)
            for j in range(64):
                mw[j] = s.MW0T[((word << 6) + j) * W + b] if j < c_end else 0
                cw[j] = s.CW0T[((word << 6) + j) * W + b] if j < c_end else 0
            cm_transpose64(mw)
            cm_transpose64(cw)
            for j in range(64):
                mrow[j * W + word] = mw[j]
                crow[j * W + word] = cw[j]
        for j in range(64):
            m = (b << 6) + j
            if m >= n:
                break
            write_row(s.outcome + m * n, n, mrow + j * W, crow + j * W, s.scratch)
    if s.rem == NULL:
        return 0
    if cat_half_to_rem(w, s, w.id, s.threads) < 0:
        return -1
    return mouse_rows_to_rem(w, s)


cdef void seed(Shared *s) noexcept nogil:
    """Round 0 on one thread (the crew's runs seed_rows as a phase of its own)."""
    seed_masks(s)
    seed_rows(&s.workers[0])
    s.decided = s.workers[0].decided


cdef void seed_masks(Shared *s) noexcept nogil:
    """Round 0's per-node masks (s.scratch): the cat's forbidden nodes, holes, the cat's
    goals, and the nodes where the mouse or the cat cannot move."""
    cdef const Game *g = s.g
    cdef const uint8_t *flags = g.flags
    cdef int64_t n = s.n, W = s.W, u, e
    cdef uint64_t *forbidden = s.scratch
    cdef uint64_t *hole = s.scratch + W
    cdef uint64_t *goal = s.scratch + 2 * W
    cdef uint64_t *mouse_stuck = s.scratch + 3 * W
    cdef uint64_t *cat_stuck = s.scratch + 4 * W
    cdef uint64_t bit
    cdef bint moves
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
    # Bits past node n-1 in the last word: decided from the start, so never computed.
    forbidden[W - 1] |= 0 if n % 64 == 0 else ONES << (n % 64)


cdef void seed_rows(Worker *w) noexcept nogil:
    """Round 0: the terminal positions by rule precedence, in every orientation, in this
    thread's rows; their count in w.decided if the search counts (Shared.counting: else
    count_decided counts them all at the end).  First this thread's share of the first
    touch."""
    cdef Shared *s = <Shared *> w.shared
    cdef const Game *g = s.g
    cdef const uint8_t *flags = g.flags
    cdef int64_t n = s.n, W = s.W, u, j, base
    cdef const uint64_t *forbidden = s.scratch
    cdef const uint64_t *hole = s.scratch + W
    cdef const uint64_t *goal = s.scratch + 2 * W
    cdef const uint64_t *mouse_stuck = s.scratch + 3 * W
    cdef const uint64_t *cat_stuck = s.scratch + 4 * W
    cdef uint64_t pad, bit, mw, cw, x, valid
    cdef int64_t decided = 0
    cdef bint counting = s.counting
    first_touch(w)
    pad = 0 if n % 64 == 0 else ONES << (n % 64)
    # Rows by cat (bits are mice).
    for u in range(n):
        if not owns(w, s, u):
            continue
        base = u * W
        if flags[u] & CAT_FORBIDDEN:
            # The cat never stands here, and a move here is no move: the row is every mouse
            # winning and none losing, which an AND and an OR over the cat's moves pass by,
            # so the cat step reads it without asking which moves count.  No step writes it.
            for j in range(W):
                s.D1T[base + j] = ONES
                s.MW0T[base + j] = ONES
                s.CW0T[base + j] = 0
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
            if counting:
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
        if not owns(w, s, u):
            continue
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
            mw |= cat_stuck[j] & ~cw
            s.MW1[base + j] = mw
            s.CW1[base + j] = cw
            if counting:
                decided += cm_popcount64(mw | cw)
    w.decided = decided


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
