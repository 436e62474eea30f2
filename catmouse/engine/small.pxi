# Included by bits_c.pyx. The one-word path: games of at most 64 nodes, a row per word, on the
# stack.

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
                         int32_t *rem, uint64_t **layers=NULL,
                         int64_t more_bytes=-1) noexcept nogil:
    """Solve a game of at most 64 nodes on the stack.

    With ``target >= 0`` return its code as soon as it is decided (0: a draw);
    otherwise fill ``outcome`` (and ``rem`` unless NULL) and return the number of
    decided positions.  Orientation as in the module docstring.  Planes mode:
    ``layers[0]`` (unless ``layers`` or it is NULL) gets layer 0 of the remoteness planes
    (remoteness.pxi), ``layers[1]``... (NULL on entry) the layers past it, allocated here
    (the caller frees them); -1 if one cannot be had, -3 if it would pass ``more_bytes``
    (-1: no limit), the bytes the layers past the first may take.
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
    cdef int32_t tt = -1, tm = 0, tc = 0, n_layers = 0
    if n == 0:
        return 0
    if layers != NULL and layers[0] != NULL and target < 0:
        memset(layers[0], 0, <size_t> layer_size(n))
        n_layers = 1
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
        if n_layers and layer_due(n_layers, k):
            if more_bytes >= 0 and layer_size(n) * n_layers > more_bytes:
                return -3
            layers[n_layers] = <uint64_t *> PyMem_RawCalloc(<size_t> layer_size(n), 1)
            if layers[n_layers] == NULL:
                return -1
            n_layers += 1
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
                if n_layers:
                    plane_or(layers, (n + c) * 8, nw | nl, k)
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
                if n_layers:
                    plane_or(layers, m * 8, nw | nl, k)
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
    # The last round decided nothing: a layer it started (remoteness 255 at most) is empty.
    while n_layers > 1 and not layer_due(n_layers - 1, k - 1):
        n_layers -= 1
        PyMem_RawFree(layers[n_layers])
        layers[n_layers] = NULL
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
