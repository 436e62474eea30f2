# Included by bits_c.pyx. Remoteness at the price of outcomes: a position's remoteness is the
# round that decided it, so the search keeps it as bit-planes (plane p holds bit p of the round,
# a word of 64 positions at a time), written per word of new bits in the row being computed.
# Scattering each new position's round into an int32 table as it was decided cost a cache miss
# per position (90 ms of 212 on the sparse 3000-node graph).
#
# The planes are the format of catmouse/engine/planes.py: a layer of 8 planes, each turn's in
# the rows its step computes (half 0: rows by mouse, half 1: rows by cat), the 8 planes of a
# word side by side (a word's new bits touch one cache line).  Planes mode writes them into the
# caller's buffer and nothing else; the int32 mode runs in planes mode on planes of its own
# and writes the table from them at the end (every thread a share).  Layer L >= 1 (bits 8L to
# 8L + 7, the same word places) is allocated when round 2**(8L) starts.

cdef enum:
    PLANES = 8          # bits of a round kept per position in a layer

# Bit i of a byte -> the i-th byte in memory of a word, 0 or 1 (in memory order, so a word
# built from them is stored as 8 bytes in position order on either byte order; shifts and
# small multiples stay within each byte).
cdef uint64_t SPREAD[256]


cdef void fill_spread() noexcept:
    cdef int x, i
    for x in range(256):
        for i in range(8):
            (<uint8_t *> &SPREAD[x])[i] = (x >> i) & 1


fill_spread()


cdef inline void plane_or(uint64_t **layers, int64_t at, uint64_t bits,
                          int32_t value) noexcept nogil:
    """OR ``bits`` into the word ``at`` of plane p (layer p >> 3, plane p & 7) for every bit
    p set in ``value``."""
    cdef int32_t p
    cdef uint64_t *base = layers[0] + at
    while value:
        p = cm_ctz64(<uint64_t> value)
        value &= value - 1
        if p < PLANES:
            base[p] |= bits
        else:
            layers[p >> 3][at + (p & 7)] |= bits


cdef void list_round_planes(Shared *s) noexcept nogil:
    """s.round_planes: the plane of each bit set in s.round (once its layer is there), for
    plane_round."""
    cdef int32_t value = s.round, p
    s.n_round_planes = 0
    while value:
        p = cm_ctz64(<uint64_t> value)
        value &= value - 1
        if (p >> 3) < s.n_layers:
            s.round_planes[s.n_round_planes] = s.layers[p >> 3] + (p & 7)
            s.n_round_planes += 1


cdef inline void plane_round(const Shared *s, int64_t at, uint64_t bits) noexcept nogil:
    """plane_or(s.layers, at, bits, s.round), from the round's list of planes."""
    cdef int32_t i
    for i in range(s.n_round_planes):
        s.round_planes[i][at] |= bits


cdef inline void plane_later(Worker *w, const Shared *s, int64_t at, uint64_t bits) noexcept nogil:
    """plane_round(s, at, bits) once PENDING more words are pending: the line is
    prefetched now and written after others, so that the misses overlap."""
    cdef int64_t i = w.n_pend & (PENDING - 1)
    if w.n_pend >= PENDING:
        plane_round(s, w.pend_at[i], w.pend_bits[i])
    cm_prefetch_w(s.layers[0] + at)
    w.pend_at[i] = at
    w.pend_bits[i] = bits
    w.n_pend += 1


cdef void planes_drain(Worker *w, const Shared *s) noexcept nogil:
    """The pending words of plane_later, written."""
    cdef int64_t i
    for i in range(w.n_pend - PENDING if w.n_pend > PENDING else 0, w.n_pend):
        plane_round(s, w.pend_at[i & (PENDING - 1)], w.pend_bits[i & (PENDING - 1)])
    w.n_pend = 0


cdef inline int64_t layer_size(int64_t n) noexcept nogil:
    """Bytes of one layer of planes (planes.layer_bytes)."""
    return 2 * n * ((n + 63) >> 6) * 64


cdef inline bint layer_due(int32_t n_layers, int32_t k) noexcept nogil:
    """Whether round ``k`` needs a layer more than the ``n_layers`` there are."""
    return n_layers < MAX_LAYERS and (<int64_t> k >> (8 * n_layers)) != 0


cdef inline uint64_t transpose8(uint64_t x) noexcept nogil:
    """An 8-by-8 bit matrix transposed: bit i of byte p (by value, not memory order) becomes
    bit p of byte i (three swaps of off-diagonal blocks)."""
    cdef uint64_t t
    t = (x ^ (x >> 7)) & <uint64_t> 0x00AA00AA00AA00AA
    x ^= t ^ (t << 7)
    t = (x ^ (x >> 14)) & <uint64_t> 0x0000CCCC0000CCCC
    x ^= t ^ (t << 14)
    t = (x ^ (x >> 28)) & <uint64_t> 0x00000000F0F0F0F0
    x ^= t ^ (t << 28)
    return x


cdef inline void byte_stage(uint64_t *a, int d, int shift, uint64_t mask) noexcept nogil:
    """One stage of byte_transpose: rows ``d`` apart swap their off-diagonal blocks."""
    cdef uint64_t t
    cdef int p
    for p in range(8):
        if not p & d:
            t = ((a[p] >> shift) ^ a[p + d]) & mask
            a[p] ^= t << shift
            a[p + d] ^= t


cdef inline void byte_transpose(uint64_t *a) noexcept nogil:
    """An 8-by-8 byte matrix transposed in place: byte g of a[p] (by value) becomes byte p
    of a[g]."""
    byte_stage(a, 4, 32, 0x00000000FFFFFFFF)
    byte_stage(a, 2, 16, 0x0000FFFF0000FFFF)
    byte_stage(a, 1, 8, 0x00FF00FF00FF00FF)


cdef void write_word(int32_t *out, int64_t count, uint64_t decided, const uint64_t *plane,
                     int64_t stride, int32_t shift) noexcept nogil:
    """``count`` (<= 64) remoteness entries from one layer's planes (plane p's word at
    ``plane[p * stride]``): with ``shift`` 0 (layer 0) each decided one's bits 0..7, -1 for
    the others; else each decided one gains its bits ``shift``..``shift + 7``.

    The planes' bytes transposed give, for each group of eight entries, a word of their
    planes' bytes; each such word transposed as a bit matrix gives the eight entries' bytes.
    The entries are then written in one branch-free loop that the compiler vectorizes: the
    byte minus 1 where undecided (an undecided entry's bits are 0)."""
    cdef uint64_t groups[PLANES]
    cdef uint8_t rounds[64]
    cdef uint64_t undecided[8]
    cdef const uint8_t *minus = <const uint8_t *> undecided
    cdef uint64_t x, any = 0
    cdef int64_t i, g, p
    for p in range(PLANES):
        groups[p] = plane[p * stride] & decided
        any |= groups[p]
    if not any:
        if shift == 0:
            for i in range(count):
                out[i] = <int32_t> ((decided >> i) & 1) - 1
        return
    byte_transpose(groups)
    for g in range(8):
        x = transpose8(groups[g])
        for i in range(8):
            rounds[8 * g + i] = <uint8_t> (x >> (8 * i))
        undecided[g] = SPREAD[(~decided >> (8 * g)) & 255]  # bytes 0 or 1, in memory order
    if shift:
        for i in range(count):
            out[i] += <int32_t> rounds[i] << shift
        return
    for i in range(count):
        out[i] = <int32_t> rounds[i] - <int32_t> minus[i]


cdef int cat_half_to_rem(Worker *w, Shared *s, int64_t first, int64_t step) noexcept nogil:
    """The cat-to-move half of the table, mouse blocks ``first, first + step, ...``: each
    plane's 64x64 tile (cats by mice) transposed into mice by cats, then written; each
    layer in turn.  -1 if Ctrl-C stopped it."""
    cdef int64_t n = s.n, W = s.W, nn = <int64_t> s.n * s.n, bm, bc, i, p, m, c_end
    cdef uint64_t tiles[PLANES * 64]
    cdef uint64_t x, any
    cdef const uint64_t *planes
    cdef int32_t layer
    bm = first
    while bm < W:
        for bc in range(W):
            c_end = 64 if (bc << 6) + 64 <= n else n - (bc << 6)
            for layer in range(s.n_layers):
                planes = s.layers[layer] + n * 8 * W   # half 1
                for p in range(PLANES):
                    any = 0
                    for i in range(c_end):  # (the rows past cat n - 1 are not in the layer)
                        x = planes[((bc << 6) + i) * 8 * W + 8 * bm + p]
                        tiles[p * 64 + i] = x
                        any |= x
                    for i in range(c_end, 64):
                        tiles[p * 64 + i] = 0
                    if any:
                        cm_transpose64(&tiles[p * 64])
                for i in range(64):
                    m = (bm << 6) + i
                    if m >= n:
                        break
                    write_word(s.rem + nn + m * n + (bc << 6), c_end,
                               s.MW1[m * W + bc] | s.CW1[m * W + bc], &tiles[i], 64,
                               8 * layer)
            w.work += 64 * 64
            if poll(w, s) < 0:
                return -1
        bm += step
    return 0


cdef int mouse_rows_to_rem(Worker *w, Shared *s) noexcept nogil:
    """This thread's rows of the mouse-to-move half of the table.  Decided: D0 without the
    cells the cat may not stand on.  -1 if Ctrl-C stopped it."""
    cdef int64_t n = s.n, W = s.W, j, count, m
    cdef const uint64_t *forbidden = s.scratch   # from seed
    cdef int32_t layer
    for m in range(n):
        if not owns(w, s, m):
            continue
        for j in range(W):
            count = 64 if (j << 6) + 64 <= n else n - (j << 6)
            for layer in range(s.n_layers):
                write_word(s.rem + m * n + (j << 6), count, s.D0[m * W + j] & ~forbidden[j],
                           s.layers[layer] + m * 8 * W + 8 * j, 1, 8 * layer)
        w.work += 8 * W * s.n_layers
        if poll(w, s) < 0:
            return -1
    return 0
