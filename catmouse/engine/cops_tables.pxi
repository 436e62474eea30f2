# Included by bits_c.pyx after cops.pxi. The k-cops search's tables: the remoteness in the
# table the caller gave (int32, or a byte a position: Plies in cops.pxi), rounds 0 and 1
# written eight nodes at a time, and the outcome bytes from the win sets.


cdef inline void cops_write(Plies *p, int64_t base, uint64_t bits, int32_t t) noexcept nogil:
    """Ply ``t`` at the positions ``base + i`` of the set bits ``i`` of ``bits``; a byte
    table past its plies is left as it is (the search then stops: cops_past_byte)."""
    if p.wide != NULL:
        while bits:
            p.wide[base + cm_ctz64(bits)] = t
            bits &= bits - 1
    elif p.narrow != NULL and t <= p.most:
        while bits:
            p.narrow[base + cm_ctz64(bits)] = <uint8_t> t
            bits &= bits - 1


cdef inline bint cops_past_byte(const Plies *p, int32_t t, int64_t grown) noexcept nogil:
    """Whether a round of ply ``t`` that decided positions in ``grown`` rows went past the
    byte table's plies."""
    return p.narrow != NULL and t > p.most and grown > 0


cdef inline bint cops_tables(const uint8_t *outcome, const Plies *p) noexcept nogil:
    return outcome != NULL or p.wide != NULL or p.narrow != NULL


cdef int32_t BIT32[256][8]  # bit q of x as BIT32[x][q]: a byte of bits as eight int32


cdef void fill_bit32() noexcept:
    cdef int x, q
    for x in range(256):
        for q in range(8):
            BIT32[x][q] = (x >> q) & 1


fill_bit32()


cdef inline void cops_start_remoteness(int32_t *robber_turn, int32_t *cops_turn, int32_t n,
                                       const uint64_t *here, const uint64_t *mask) noexcept nogil:
    """A row's remoteness after rounds 0 and 1, eight nodes at a time, without branches:
    the robber to move is caught (0) on the team's nodes, else undecided (-1); the cops to
    move are on him (0) there, a move away (1) on the rest of their closed neighbourhoods,
    else undecided.  ``here`` (the team's nodes) and ``mask`` (its closed neighbourhood)
    are bit words; ``here`` lies inside ``mask``, so the cops' value is 2 * m - 1 - h."""
    cdef int32_t g, q
    cdef int32_t h[8]
    cdef int32_t m[8]
    cdef int32_t *robber_at
    cdef int32_t *cops_at
    for g in range(0, n, 8):
        memcpy(h, BIT32[(here[g >> 6] >> (g & 63)) & 255], sizeof(h))
        memcpy(m, BIT32[(mask[g >> 6] >> (g & 63)) & 255], sizeof(m))
        robber_at = robber_turn + g
        cops_at = cops_turn + g
        if g + 8 <= n:
            # (Constant counts, one table a loop: each loop is two vector stores.)
            for q in range(8):
                robber_at[q] = h[q] - 1
            for q in range(8):
                cops_at[q] = 2 * m[q] - 1 - h[q]
        else:
            for q in range(n - g):
                robber_at[q] = h[q] - 1
                cops_at[q] = 2 * m[q] - 1 - h[q]


cdef inline void cops_start_plies(Plies *p, int64_t robber_at, int64_t cops_at, int32_t n,
                                  const uint64_t *here, const uint64_t *mask) noexcept nogil:
    """A row's remoteness after rounds 0 and 1 in the table the caller gave."""
    if p.wide != NULL:
        cops_start_remoteness(p.wide + robber_at, p.wide + cops_at, n, here, mask)
    elif p.narrow != NULL:
        cops_start_bytes(p.narrow + robber_at, p.narrow + cops_at, n, here, mask)


cdef inline void cops_start_bytes(uint8_t *robber_turn, uint8_t *cops_turn, int32_t n,
                                  const uint64_t *here, const uint64_t *mask) noexcept nogil:
    """cops_start_remoteness a byte a position, eight in a word: SPREAD's bytes (0 or 1)
    times 255 are 255 on the nodes, so their complement is 0 there and NO_CAPTURE_BYTE
    elsewhere; the cops' 1s are the rest of their closed neighbourhood."""
    cdef int32_t g
    cdef uint64_t h, m, robber, cops
    for g in range(0, n, 8):
        h = (here[g >> 6] >> (g & 63)) & 255
        m = (mask[g >> 6] >> (g & 63)) & 255
        robber = ~(SPREAD[h] * 255)
        cops = ~(SPREAD[m] * 255) | SPREAD[m & ~h]
        if g + 8 <= n:
            memcpy(robber_turn + g, &robber, 8)  # (a constant size: one store)
            memcpy(cops_turn + g, &cops, 8)
        else:
            memcpy(robber_turn + g, &robber, <size_t> (n - g))
            memcpy(cops_turn + g, &cops, <size_t> (n - g))


cdef int cops_outcome(CopSearch *c) noexcept nogil:
    """The outcome table from the win sets; -1 if stopped (cops_poll) part way."""
    return cops_outcome_rows(c, 0, 0, c.rows)


cdef int cops_outcome_rows(CopSearch *c, int32_t i, int64_t lo, int64_t hi) noexcept nogil:
    """The outcome table's rows lo..hi (thread ``i``); -1 if stopped part way."""
    cdef int32_t n = c.n
    cdef int64_t s, turn1 = c.rows * n
    for s in range(lo, hi):
        if cops_halt(c, i, s, 1024 * 2 * n):
            return -1
        cops_outcome_bytes(c.outcome + s * n, &c.robber[s], n)
        cops_outcome_bytes(c.outcome + turn1 + s * n, &c.cops[s], n)
    return 0


cdef inline void cops_outcome_bytes(uint8_t *out, const uint64_t *won, int64_t n) noexcept nogil:
    """``n`` outcome bytes from the bit words ``won``: COPS_CAPTURED where a bit is set, else
    COPS_ESCAPED, eight at a time (SPREAD's bytes, 0 or 1, times the codes' difference)."""
    cdef int64_t g
    cdef uint64_t v
    for g in range(0, n, 8):
        v = (ESCAPED_BYTES
             ^ SPREAD[(won[g >> 6] >> (g & 63)) & 255] * <uint64_t> (COPS_CAPTURED ^ COPS_ESCAPED))
        if g + 8 <= n:
            memcpy(out + g, &v, 8)  # (a constant size: one store)
        else:
            memcpy(out + g, &v, <size_t> (n - g))
