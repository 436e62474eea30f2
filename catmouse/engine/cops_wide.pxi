# Included by bits_c.pyx. The k-cops game on more than 64 nodes: a row of several words per
# cop multiset.  The rounds of cops.pxi (see py_cops.py), the same tables; only the rows
# are arrays of W = ceil(n / 64) words, on the heap.

from libc.stdint cimport uint16_t

cdef struct Wide:
    int32_t n
    int32_t k
    int32_t W
    int64_t rows
    uint64_t *everyone        # W words: the n nodes
    uint64_t *closed          # n rows of W words: closed neighbourhoods
    int32_t *mip              # the closed neighbourhoods as sorted ids (CSR)
    int32_t *mix
    int64_t *weight           # k rows of n: C(v + i, i + 1)
    uint16_t *team            # rows * k
    uint64_t *cops            # rows * W
    uint64_t *robber
    uint64_t *fresh
    uint64_t *reach           # W words of scratch
    int32_t *changed
    int32_t *pushed
    uint8_t *mark
    uint8_t *outcome
    Plies plies
    int64_t work
    bint poll
    bint any_win
    int64_t found
    const int32_t *cancel     # the caller's stop flag (another thread sets it), or NULL


cdef int64_t wide_need(int64_t n, int64_t k) noexcept nogil:
    """Bytes a search on more than 64 nodes allocates (rows, the graph's words, its masks)."""
    cdef int64_t rows = cops_rows_c(n, k), W = (n + 63) // 64
    if rows < 0 or rows >= (<int64_t> 1) << 31:
        return (<int64_t> 1) << 62
    return (4096 + graph_need(n) + n * W * 8 + (n * n + n + 1) * 4 + k * n * 8
            + rows * (2 * k + 3 * 8 * W + 2 * 4 + 1))


cdef void wide_free(Wide *w) noexcept nogil:
    PyMem_RawFree(w.everyone)
    PyMem_RawFree(w.closed)
    PyMem_RawFree(w.mip)
    PyMem_RawFree(w.mix)
    PyMem_RawFree(w.weight)
    PyMem_RawFree(w.team)
    PyMem_RawFree(w.cops)
    PyMem_RawFree(w.robber)
    PyMem_RawFree(w.fresh)
    PyMem_RawFree(w.reach)
    PyMem_RawFree(w.changed)
    PyMem_RawFree(w.pushed)
    PyMem_RawFree(w.mark)
    memset(w, 0, sizeof(Wide))


cdef int wide_alloc(Wide *w, int32_t n, int32_t k) noexcept nogil:
    """Buffers of a search of ``k`` cops on ``n`` nodes; -1 if out of memory."""
    cdef int64_t rows = cops_rows_c(n, k)
    cdef int32_t W = (n + 63) // 64
    w.n = n
    w.k = k
    w.W = W
    w.rows = rows
    w.everyone = <uint64_t *> PyMem_RawCalloc(<size_t> W, 8)
    w.closed = <uint64_t *> PyMem_RawCalloc(<size_t> (n * W), 8)
    w.mip = <int32_t *> PyMem_RawMalloc(<size_t> (n + 1) * 4)
    w.mix = <int32_t *> PyMem_RawMalloc(<size_t> (n * n + 1) * 4)
    w.weight = <int64_t *> PyMem_RawMalloc(<size_t> (k * n) * 8)
    w.team = <uint16_t *> PyMem_RawMalloc(<size_t> (rows * k) * 2)
    w.cops = <uint64_t *> PyMem_RawMalloc(<size_t> (rows * W) * 8)
    w.robber = <uint64_t *> PyMem_RawMalloc(<size_t> (rows * W) * 8)
    w.fresh = <uint64_t *> PyMem_RawMalloc(<size_t> (rows * W) * 8)
    w.reach = <uint64_t *> PyMem_RawMalloc(<size_t> W * 8)
    w.changed = <int32_t *> PyMem_RawMalloc(<size_t> rows * 4)
    w.pushed = <int32_t *> PyMem_RawMalloc(<size_t> rows * 4)
    w.mark = <uint8_t *> PyMem_RawCalloc(<size_t> rows, 1)
    if (w.everyone == NULL or w.closed == NULL or w.mip == NULL or w.mix == NULL
            or w.weight == NULL or w.team == NULL or w.cops == NULL or w.robber == NULL
            or w.fresh == NULL or w.reach == NULL or w.changed == NULL or w.pushed == NULL
            or w.mark == NULL):
        wide_free(w)
        return -1
    return 0


cdef int wide_closed(Wide *w, list masks) except -1:
    """Each node's closed neighbourhood (an int of n bits) into its row of W words.

    Read through ``to_bytes(..., "little")``: the same words on either byte order.
    """
    cdef int32_t u, j, t, W = w.W
    cdef const unsigned char *b
    cdef uint64_t word
    for u in range(w.n):
        data = (<object> masks[u]).to_bytes(8 * W, "little")
        b = data
        for j in range(W):
            word = 0
            for t in range(8):
                word |= (<uint64_t> b[8 * j + t]) << (8 * t)
            w.closed[u * W + j] = word
    return 0


cdef void wide_graph(Wide *w) noexcept nogil:
    """From the closed neighbourhoods: everyone, the sorted ids (CSR) and the rank weights."""
    cdef int32_t n = w.n, W = w.W, u, v, i, count = 0
    cdef int64_t x
    for u in range(n):
        w.everyone[u >> 6] |= (<uint64_t> 1) << (u & 63)
    for u in range(n):
        w.mip[u] = count
        for v in range(n):
            if (w.closed[u * W + (v >> 6)] >> (v & 63)) & 1:
                w.mix[count] = v
                count += 1
    w.mip[n] = count
    for i in range(w.k):
        for v in range(n):
            x = 1
            for u in range(1, i + 2):
                x = x * (v + i + 1 - u) // u
            w.weight[i * n + v] = x


cdef int wide_start(Wide *w) noexcept nogil:
    """Rounds 0 and 1, as cops_start: each row's team, ``robber = S``, ``cops = N[S]``;
    -1 if stopped (wide_poll) part way."""
    cdef int32_t n = w.n, k = w.k, W = w.W, i, j, x
    cdef int64_t s, turn1 = w.rows * n
    cdef uint16_t a[COPS_MAX]
    cdef uint64_t *cops
    cdef uint64_t *robber
    for i in range(k):
        a[i] = 0
    for s in range(w.rows):
        if s & 1023 == 0:
            w.work += 1024 * (k + 2) * (W + n)
            if wide_poll(w) < 0:
                return -1
        cops = w.cops + s * W
        robber = w.robber + s * W
        memset(cops, 0, <size_t> W * 8)
        memset(robber, 0, <size_t> W * 8)
        for i in range(k):
            w.team[s * k + i] = a[i]
            robber[a[i] >> 6] |= (<uint64_t> 1) << (a[i] & 63)
            for x in range(W):
                cops[x] |= w.closed[a[i] * W + x]
        w.changed[s] = <int32_t> s
        cops_start_plies(&w.plies, s * n, turn1 + s * n, n, robber, cops)
        i = 0
        while i < k and a[i] == (a[i + 1] if i + 1 < k else n - 1):
            i += 1
        if i == k:
            break
        a[i] += 1
        for j in range(i):
            a[j] = 0
    return 0


cdef inline bint wide_full(const Wide *w, int64_t s) noexcept nogil:
    cdef int32_t x
    for x in range(w.W):
        if w.cops[s * w.W + x] != w.everyone[x]:
            return False
    return True


cdef int64_t wide_push(Wide *w, int64_t s, int32_t t, int64_t count) noexcept nogil:
    """cops_push on rows of W words: OR ``fresh[s]`` into every team move of row ``s``."""
    cdef int32_t k = w.k, m = w.k - 1, n = w.n, W = w.W, i, j, p, q, x, limit, inner
    cdef int64_t row, turn1 = w.rows * n
    cdef uint16_t a[COPS_MAX]
    cdef int32_t b[COPS_MAX]
    cdef int32_t pick[COPS_MAX]
    cdef int64_t before[COPS_MAX + 1]
    cdef int64_t after[COPS_MAX + 1]
    cdef int32_t v
    cdef uint64_t gain
    cdef bint grew
    cdef const uint64_t *new = w.fresh + s * W
    memset(a, 0, sizeof(a))  # only a[:k] is read; gcc cannot tell when it inlines this
    for i in range(k):
        a[i] = w.team[s * k + i]
        pick[i] = 0
    while True:
        for i in range(1, k):
            v = w.mix[w.mip[a[i]] + pick[i]]
            j = i - 1
            while j > 0 and b[j - 1] > v:
                b[j] = b[j - 1]
                j -= 1
            b[j] = v
        before[0] = 0
        for p in range(m):
            before[p + 1] = before[p] + w.weight[p * n + b[p]]
        after[m] = 0
        for p in range(m - 1, -1, -1):
            after[p] = after[p + 1] + w.weight[(p + 1) * n + b[p]]
        if k > 1 and a[0] == a[1]:
            inner = pick[1] + 1
        else:
            inner = w.mip[a[0] + 1] - w.mip[a[0]]
        for q in range(inner):
            v = w.mix[w.mip[a[0]] + q]
            p = 0
            while p < m and b[p] < v:
                p += 1
            row = before[p] + w.weight[p * n + v] + after[p]
            grew = False
            for x in range(W):
                gain = new[x] & ~w.cops[row * W + x]
                if gain:
                    w.cops[row * W + x] |= gain
                    grew = True
                    cops_write(&w.plies, turn1 + row * n + 64 * x, gain, t)
            if grew:
                if not w.mark[row]:
                    w.mark[row] = 1
                    w.changed[count] = <int32_t> row
                    count += 1
                if w.any_win and wide_full(w, row):
                    w.found = row
                    return count
        w.work += inner * W
        i = 1
        while i < k:
            pick[i] += 1
            if i + 1 < k and a[i] == a[i + 1]:
                limit = pick[i + 1] + 1
            else:
                limit = w.mip[a[i] + 1] - w.mip[a[i]]
            if pick[i] < limit:
                break
            pick[i] = 0
            i += 1
        if i >= k:
            return count


cdef int wide_poll(Wide *w) noexcept nogil:
    """cops_poll's twin: -1 if the caller's flag is set or a signal handler raised."""
    cdef int code = 0
    if w.cancel != NULL and cm_load32(w.cancel):
        return -1
    if w.work < COPS_POLL_WORK:
        return 0
    w.work = 0
    if w.poll:
        with gil:
            code = check_signals()
    return -1 if code < 0 else 0


cdef int64_t wide_run(Wide *w, bint stop) noexcept nogil:
    """cops_run on rows of W words: a winning row, -1, or COPS_INTERRUPTED."""
    cdef int32_t n = w.n, W = w.W, t = 1, x, y, r
    cdef int64_t s, idx, first = -1, nchanged = w.rows, npushed, row
    cdef uint64_t outside, any_new, bits
    cdef bint tables = cops_tables(w.outcome, &w.plies)
    w.work = 0
    w.found = -1
    if wide_start(w) < 0:
        return COPS_INTERRUPTED
    for s in range(w.rows):
        if wide_full(w, s):
            first = s
            break
    if first >= 0 and stop and not tables:
        return first
    while True:
        t += 1  # the robber's round
        npushed = 0
        for idx in range(nchanged):
            if idx & 63 == 0 and wide_poll(w) < 0:
                for row in range(idx, nchanged):
                    w.mark[w.changed[row]] = 0
                return COPS_INTERRUPTED
            s = w.changed[idx]
            w.mark[s] = 0
            memset(w.reach, 0, <size_t> W * 8)
            for x in range(W):
                outside = w.everyone[x] & ~w.cops[s * W + x]
                while outside:
                    r = 64 * x + cm_ctz64(outside)
                    for y in range(W):
                        w.reach[y] |= w.closed[r * W + y]
                    outside &= outside - 1
                    w.work += W
            any_new = 0
            for x in range(W):
                bits = w.everyone[x] & ~w.reach[x] & ~w.robber[s * W + x]
                w.fresh[s * W + x] = bits
                w.robber[s * W + x] |= bits
                any_new |= bits
                if bits:
                    cops_write(&w.plies, s * n + 64 * x, bits, t)
            w.work += W
            if any_new:
                w.pushed[npushed] = <int32_t> s
                npushed += 1
        if npushed == 0:
            break
        if cops_past_byte(&w.plies, t, npushed):
            return COPS_PAST_BYTE
        t += 1  # the cops' round
        nchanged = 0
        for idx in range(npushed):
            nchanged = wide_push(w, w.pushed[idx], t, nchanged)
            if w.found >= 0 or wide_poll(w) < 0:
                for idx in range(nchanged):
                    w.mark[w.changed[idx]] = 0
                return w.found if w.found >= 0 else COPS_INTERRUPTED
        if cops_past_byte(&w.plies, t, nchanged):
            for idx in range(nchanged):
                w.mark[w.changed[idx]] = 0
            return COPS_PAST_BYTE
        if first < 0:
            for idx in range(nchanged):
                row = w.changed[idx]
                if wide_full(w, row) and (first < 0 or row < first):
                    first = row
        if first >= 0 and stop and not tables:
            for idx in range(nchanged):
                w.mark[w.changed[idx]] = 0
            return first
    if w.outcome != NULL:
        for s in range(w.rows):
            if s & 1023 == 0:
                w.work += 1024 * 2 * n
                if wide_poll(w) < 0:
                    return COPS_INTERRUPTED
            cops_outcome_bytes(w.outcome + s * n, w.robber + s * W, n)
            cops_outcome_bytes(w.outcome + w.rows * n + s * n, w.cops + s * W, n)
    return first
