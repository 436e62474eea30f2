# Included by bits_c.pyx. Remoteness at the price of outcomes: a position's remoteness is the
# round that decided it, so the search keeps it as bit-planes (plane p holds bit p of the round,
# a word of 64 positions at a time), written per word of new bits in the row being computed;
# the int32 table is written once at the end.  Scattering each new position's round into the
# table as it was decided cost a cache miss per position (90 ms of 212 on the sparse 3000-node
# graph).
#
# The planes live in the mouse-to-move half of the table itself, each turn's in the rows its
# step computes, the 8 planes of a word side by side (a word's new bits touch one cache line):
# the cat-to-move planes (rows by cat) at the start, the mouse-to-move planes (rows by mouse) at
# the end.  The cat-to-move half of the table is written first (64x64 tiles of each plane
# transposed, by every thread); then the mouse-to-move half in row order, which never
# overwrites the planes of a row not yet written (see planes_in).  A search past PLANES_TOP
# rounds writes the table from the planes then, and each later round's positions one by one.

cdef enum:
    PLANES = 8          # bits of a round kept per position
    PLANES_TOP = 255    # the last round the planes can hold

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


cdef uint64_t *planes_in(int32_t *rem, int64_t n, int64_t W,
                         uint64_t **cat_planes) noexcept nogil:
    """The mouse-to-move planes' place in the table ``rem`` (2*n*n int32), the cat-to-move
    ones' in ``cat_planes``; NULL if they do not fit.

    Each takes ``n * 8 * W`` words, 8-byte aligned: the cat's from the table's start, the
    mouse's ending by the end of the mouse-to-move half, less ``slack`` bytes.  Row m of that
    half ends at byte ``4n(m+1)``, at or before row m+1's planes when ``4n - 64W >= slack``:
    every row keeps its planes until its own turn.
    """
    cdef int64_t size = n * 8 * W * 8
    cdef uintptr_t start = <uintptr_t> rem
    cdef uintptr_t cat = (start + 7) & ~(<uintptr_t> 7)
    cdef uintptr_t tail = start + <uintptr_t> (4 * n * n - size)
    cdef uintptr_t at = tail & ~(<uintptr_t> 7)
    if 2 * size + 16 > 4 * n * n or at < cat + <uintptr_t> size:
        return NULL
    if 4 * n - 64 * W < <int64_t> (tail - at):
        return NULL
    cat_planes[0] = <uint64_t *> cat
    return <uint64_t *> at


cdef inline void plane_or(uint64_t *at, uint64_t bits, int32_t value) noexcept nogil:
    """OR ``bits`` into plane p's word (``at[p]``) for every bit p set in ``value``."""
    cdef int32_t p
    while value:
        p = cm_ctz64(<uint64_t> value)
        value &= value - 1
        at[p] |= bits


cdef inline void plane_later(Worker *w, uint64_t *at, uint64_t bits, int32_t k) noexcept nogil:
    """plane_or(at, bits, k) once PENDING more words are pending: the line is prefetched now
    and written after others, so that the misses overlap."""
    cdef int64_t i = w.n_pend & (PENDING - 1)
    if w.n_pend >= PENDING:
        plane_or(w.pend_at[i], w.pend_bits[i], k)
    cm_prefetch_w(at)
    w.pend_at[i] = at
    w.pend_bits[i] = bits
    w.n_pend += 1


cdef void planes_drain(Worker *w, int32_t k) noexcept nogil:
    """The pending words of plane_later, written."""
    cdef int64_t i
    for i in range(w.n_pend - PENDING if w.n_pend > PENDING else 0, w.n_pend):
        plane_or(w.pend_at[i & (PENDING - 1)], w.pend_bits[i & (PENDING - 1)], k)
    w.n_pend = 0


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
                     int64_t stride) noexcept nogil:
    """``count`` (<= 64) remoteness entries: each decided one's round from the planes
    (plane p's word at ``plane[p * stride]``), -1 for the others.

    The planes' bytes transposed give, for each group of eight entries, a word of their
    planes' bytes; each such word transposed as a bit matrix gives the eight entries' rounds
    as bytes.  The entries are then written in one branch-free loop that the compiler
    vectorizes: the round minus 1 where undecided (an undecided entry's round is 0)."""
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
        for i in range(count):
            out[i] = <int32_t> ((decided >> i) & 1) - 1
        return
    byte_transpose(groups)
    for g in range(8):
        x = transpose8(groups[g])
        for i in range(8):
            rounds[8 * g + i] = <uint8_t> (x >> (8 * i))
        undecided[g] = SPREAD[(~decided >> (8 * g)) & 255]  # bytes 0 or 1, in memory order
    for i in range(count):
        out[i] = <int32_t> rounds[i] - <int32_t> minus[i]


cdef void cat_half_to_rem(Shared *s, int64_t first, int64_t step) noexcept nogil:
    """The cat-to-move half of the table, mouse blocks ``first, first + step, ...``: each
    plane's 64x64 tile (cats by mice) transposed into mice by cats, then written."""
    cdef int64_t n = s.n, W = s.W, nn = <int64_t> s.n * s.n, bm, bc, i, p, m, c_end
    cdef uint64_t tiles[PLANES * 64]
    cdef uint64_t x, any
    cdef const uint64_t *planes = s.cat_planes
    bm = first
    while bm < W:
        for bc in range(W):
            c_end = 64 if (bc << 6) + 64 <= n else n - (bc << 6)
            for p in range(PLANES):
                any = 0
                for i in range(64):
                    x = planes[((bc << 6) + i) * 8 * W + 8 * bm + p] if i < c_end else 0
                    tiles[p * 64 + i] = x
                    any |= x
                if any:
                    transpose64(&tiles[p * 64])
            for i in range(64):
                m = (bm << 6) + i
                if m >= n:
                    break
                write_word(s.rem + nn + m * n + (bc << 6), c_end,
                           s.MW1[m * W + bc] | s.CW1[m * W + bc], &tiles[i], 64)
        bm += step


cdef void mouse_row_to_rem(Shared *s, uint64_t *scratch, int64_t m) noexcept nogil:
    """Row ``m`` of the mouse-to-move half of the table (``scratch``: 8 * W words); its
    planes are copied out first, as the row may be written over them.  Decided: D0 without
    the cells the cat may not stand on."""
    cdef int64_t n = s.n, W = s.W, j, count
    cdef const uint64_t *forbidden = s.scratch   # from seed
    memcpy(scratch, s.planes + m * 8 * W, <size_t> (8 * W * 8))
    for j in range(W):
        count = 64 if (j << 6) + 64 <= n else n - (j << 6)
        write_word(s.rem + m * n + (j << 6), count, s.D0[m * W + j] & ~forbidden[j],
                   scratch + 8 * j, 1)


cdef inline int64_t rows_clear_of(const Shared *s, int64_t done) noexcept nogil:
    """The rows of the mouse-to-move half that end before the planes of row ``done`` begin
    (at most n).  With the rows before ``done`` written, these overwrite no plane still to be
    read, so threads share them in any order: from ``done = 0`` (the rows before the planes,
    about three quarters) each such wave leaves about a quarter of the rows still to do, as a
    row of planes takes a quarter of a row of the table."""
    cdef int64_t rows = ((<const char *> (s.planes + done * 8 * s.W))
                         - (<const char *> s.rem)) // (4 * s.n)
    return rows if rows < s.n else s.n


cdef void mouse_half_to_rem(Shared *s, uint64_t *scratch, int64_t first) noexcept nogil:
    """Rows ``first`` to n - 1 of the mouse-to-move half, in row order: row m overwrites
    only planes of rows up to m, so every row keeps its planes until its own turn."""
    cdef int64_t m
    for m in range(first, s.n):
        mouse_row_to_rem(s, scratch, m)


cdef void mouse_share_to_rem(Worker *w) noexcept nogil:
    """This thread's rows of the wave ``s.wave_first`` to ``s.wave_end`` (PHASE_REMOTENESS)."""
    cdef Shared *s = <Shared *> w.shared
    cdef int64_t m
    for m in range(s.wave_first, s.wave_end):
        if owns(w, s, m):
            mouse_row_to_rem(s, w.tiles, m)


cdef void zero_own_planes(Worker *w) noexcept nogil:
    """Clear this thread's rows of both turns' planes (round 1, before any is set): in
    parallel, and the table's first touch of those pages with them."""
    cdef Shared *s = <Shared *> w.shared
    cdef int64_t row, W = s.W
    for row in range(s.n):
        if owns(w, s, row):
            memset(s.planes + row * 8 * W, 0, <size_t> (8 * W * 8))
            memset(s.cat_planes + row * 8 * W, 0, <size_t> (8 * W * 8))


cdef void planes_done(Shared *s, uint64_t *scratch) noexcept nogil:
    """Write the table from the planes and go on one position at a time (past PLANES_TOP)."""
    cat_half_to_rem(s, 0, 1)
    mouse_half_to_rem(s, scratch, 0)
    memset(scratch, 0, <size_t> (8 * s.W * 8))
    s.planes = NULL
    s.cat_planes = NULL
