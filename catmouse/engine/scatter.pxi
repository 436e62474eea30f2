# Included by bits_c.pyx. The scatters: each step's new bits written into the other turn's
# orientation (rows by cat for the mouse's step, rows by mouse for the cat's), marked in the
# writing thread's change masks for the next step.

cdef inline void scatter_bits(Worker *w, Shared *s, uint64_t *dest, uint64_t bits,
                              int64_t word, int64_t row, int32_t k) noexcept nogil:
    """The mouse step's new bits ``bits`` (cats) of ``word`` of ``row`` into the rows by cat."""
    cdef int64_t W = s.W, block = row >> 6, cat
    cdef int32_t par = k & 1
    cdef uint64_t bit = (<uint64_t> 1) << (row & 63)
    while bits:
        cat = (word << 6) + cm_ctz64(bits)
        bits &= bits - 1
        dest[cat * W + block] |= bit
        mark(w.chg_cat[par], w.stamp_cat, w.changed_cat[par], &w.n_changed_cat[par], cat,
             block, s.CW, k)


cdef inline void keep_thin(Worker *w, uint64_t cat_wins, uint64_t mouse_wins, int64_t row,
                           int64_t word) noexcept nogil:
    """List the cat step's new bits (mice) of ``word`` of cat row ``row``."""
    cdef uint32_t at = <uint32_t> (row << 16) | <uint32_t> (word << 6)
    while cat_wins:
        w.thin[w.n_thin_cat] = at | <uint32_t> cm_ctz64(cat_wins)
        w.n_thin_cat += 1
        cat_wins &= cat_wins - 1
    while mouse_wins:
        w.n_thin_mouse += 1
        w.thin[w.thin_cap - w.n_thin_mouse] = at | <uint32_t> cm_ctz64(mouse_wins)
        mouse_wins &= mouse_wins - 1


cdef void scatter_thin(Worker *w, Shared *s) noexcept nogil:
    """The thin lists' bits of last round into the rows by mouse (word cat >> 6 of each is
    this thread's, as the cat's block is)."""
    scatter_entries(w, s, w.thin, w.n_thin_cat, s.CW1)
    scatter_entries(w, s, w.thin + w.thin_cap - w.n_thin_mouse, w.n_thin_mouse, s.MW1)
    w.work += w.n_thin_cat + w.n_thin_mouse
    w.n_thin_cat = w.n_thin_mouse = 0


cdef inline void scatter_entries(Worker *w, Shared *s, const uint32_t *entries, int64_t count,
                                 uint64_t *dest) noexcept nogil:
    """One thin list's bits into ``dest`` (rows by mouse), marked for the mouse step."""
    cdef int64_t W = s.W, i, cat, mouse
    cdef int32_t k = s.round, par = k & 1
    for i in range(count):
        cat = entries[i] >> 16
        mouse = entries[i] & 0xFFFF
        dest[mouse * W + (cat >> 6)] |= (<uint64_t> 1) << (cat & 63)
        mark(w.chg_mouse[par], w.stamp_mouse, w.changed_mouse[par], &w.n_changed_mouse[par],
             mouse, cat >> 6, s.CW, k)


cdef enum:
    # Below this many bits, a tile is scattered bit by bit (about 20 instructions a bit)
    # rather than transposed (about 1,200 for the tile).
    SCATTER_ONE_BY_ONE = 48
    # Tables (n rows of W words) of at most this many bytes stay in the core's cache: there
    # a transposed tile that is not full writes only its rows with bits (the columns it had
    # bits in).  Bigger ones keep the plain loop of 64 rows, whose fixed stride the hardware
    # prefetches: the 60x60 grid's 1.6 MB tables were 1.5-3.7% slower the other way, where
    # sparse graphs of 200 and 1,000 nodes are 3-5% faster this way.
    SMALL_TABLE = 512 * 1024


cdef inline void scatter_tile(Worker *w, Shared *s, uint64_t *tile, uint64_t *dest,
                              uint64_t *mask, int32_t *stamp, int32_t *listed, int64_t *count,
                              int64_t word, int64_t block, int32_t k,
                              uint64_t rows) noexcept nogil:
    """OR a 64x64 tile of new bits (rows of ``block``, bits of ``word``) into the other
    orientation, one destination word per row that gained bits; the tile ends zeroed.
    ``rows``: the tile's rows that may hold bits (the others are zero): a thin round's
    tile is read row by row only where it has any."""
    cdef int64_t W = s.W, CW = s.CW, j, row
    cdef uint64_t any = 0, x, left = rows
    cdef int bits = 0
    if cm_popcount64(rows) >= 40:
        bits = cm_tile_bits(tile, &any)  # (the whole tile, two words at a time)
    else:
        while left:
            j = cm_ctz64(left)
            left &= left - 1
            if tile[j]:
                any |= tile[j]
                if bits < SCATTER_ONE_BY_ONE:
                    bits += cm_popcount64(tile[j])
    if not any:
        return
    if bits < SCATTER_ONE_BY_ONE:
        # A few bits: one by one is cheaper than the transpose.
        while rows:
            j = cm_ctz64(rows)
            rows &= rows - 1
            x = tile[j]
            tile[j] = 0
            while x:
                row = (word << 6) + cm_ctz64(x)
                x &= x - 1
                dest[row * W + block] |= (<uint64_t> 1) << j
                mark(mask, stamp, listed, count, row, block, CW, k)
        return
    cm_transpose64(tile)  # (bit j of tile[i] becomes bit i of tile[j])
    if any == ONES:
        for j in range(64):
            x = tile[j]
            tile[j] = 0
            row = (word << 6) + j
            dest[row * W + block] |= x
            mark(mask, stamp, listed, count, row, block, CW, k)
    elif not s.small_tables and cm_popcount64(any) >= 32:
        for j in range(64):
            x = tile[j]
            if x:
                tile[j] = 0
                row = (word << 6) + j
                dest[row * W + block] |= x
                mark(mask, stamp, listed, count, row, block, CW, k)
    else:
        # The transposed tile's rows with bits are the columns the tile had bits in.
        while any:
            j = cm_ctz64(any)
            any &= any - 1
            x = tile[j]
            tile[j] = 0
            row = (word << 6) + j
            dest[row * W + block] |= x
            mark(mask, stamp, listed, count, row, block, CW, k)
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
            scatter_tile(w, s, w.tiles + (word << 7), s.MW0T, w.chg_cat[par], w.stamp_cat,
                         w.changed_cat[par], &w.n_changed_cat[par], word, w.block, k,
                         w.block_rows)
            scatter_tile(w, s, w.tiles + (word << 7) + 64, s.CW0T, w.chg_cat[par],
                         w.stamp_cat, w.changed_cat[par], &w.n_changed_cat[par], word,
                         w.block, k, w.block_rows)
    w.block = -1
    w.block_rows = 0


cdef void scatter_fresh(Worker *w, Shared *s) noexcept nogil:
    """The cat step's new bits of last round into the rows by mouse (this thread's words),
    a 64-row block at a time through transposed tiles."""
    cdef int64_t W = s.W, CW = s.CW, i = 0, j, first, last, word, row, block, h
    cdef int32_t k = s.round, par = k & 1
    cdef uint64_t *fc_tile = w.tiles
    cdef uint64_t *fm_tile = w.tiles + 64
    cdef uint64_t x, rows
    while i < w.n_fresh:
        # The fresh rows are in row order: take those of one block.
        block = w.fresh[i] >> 6
        first = i
        while i < w.n_fresh and w.fresh[i] >> 6 == block:
            i += 1
        last = i
        rows = 0
        for j in range(first, last):
            rows |= (<uint64_t> 1) << (w.fresh[j] & 63)
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
                scatter_tile(w, s, fc_tile, s.CW1, w.chg_mouse[par], w.stamp_mouse,
                             w.changed_mouse[par], &w.n_changed_mouse[par], word, block, k, rows)
                scatter_tile(w, s, fm_tile, s.MW1, w.chg_mouse[par], w.stamp_mouse,
                             w.changed_mouse[par], &w.n_changed_mouse[par], word, block, k, rows)
                w.work += last - first
    w.n_fresh = 0
