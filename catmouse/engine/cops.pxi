# Included by bits_c.pyx. The game of k cops and a robber (the cop number): the twin of
# py_cops.py, whose docstring explains the rounds; the same rows, bits and tables here in C.

from libc.string cimport memcmp

import catmouse.engine.cops_checks as _cops_checks
from catmouse.engine.cops_checks import AUTO_CREW_ROWS as _AUTO_CREW_ROWS
from catmouse.engine.cops_checks import (
    check_cop_graph,
    check_cop_tables,
    check_cops,
    graph6_masks,
    too_big,
)

cdef enum:
    # Arrays sized for the most cops one search takes (cops_checks.MAX_COPS).
    COPS_MAX = 16
    COPS_ESCAPED = 1
    COPS_CAPTURED = 2
    # Returns of the C searches besides a row or -1.
    COPS_INTERRUPTED = -2
    COPS_TOO_BIG = -3
    COPS_NO_MEMORY = -4
    COPS_PAST_BYTE = -6       # a byte remoteness table met a capture past its plies
    NO_CAPTURE_BYTE = 255     # a byte table's "never" (cops_start_bytes spells it ~0)


# threads=None hires a crew for a search of this many rows or more (cops_checks, which also
# gives such a small search one thread without looking at the CPUs).
cdef int64_t AUTO_CREW_ROWS = _AUTO_CREW_ROWS

# COPS_ESCAPED in each byte of a word.
cdef uint64_t ESCAPED_BYTES = <uint64_t> 0x0101010101010101 * COPS_ESCAPED


cdef enum:
    COPS_CREW_MAX = 64        # threads one search takes at most (more are cut to this)
    COPS_PHASE_ROBBER = 1
    COPS_PHASE_PUSH = 2
    COPS_PHASE_EXIT = 4
    COPS_PHASE_START = 5
    COPS_PHASE_OUTCOME = 6
    COPS_BAD_GRAPH6 = -1      # cops_graph6's answer for a line that is not graph6
    POLL_WAIT_US = 20000      # a crew's caller, waiting on a helper, polls this often
    # Steps between two polls for Ctrl-C: a step of the cops' rounds is a row's random
    # access (a cache miss, ~100 ns on 100 million rows), so far fewer than POLL_WORK.
    COPS_POLL_WORK = 1 << 16
    COPS_ROW_WORK = 64        # the steps a row of the robber's round counts for


cdef struct CopCrew:
    # The helpers of one search (cops_crew.pxi): per thread, its own lists and gains.
    int32_t threads
    int32_t phase
    int32_t t
    int32_t spins             # tries of a lock before blocking on it (crew.pxi)
    PyThread_type_lock go[COPS_CREW_MAX]
    PyThread_type_lock done[COPS_CREW_MAX]
    int64_t capacity          # rows each thread's lists hold
    int32_t *changed          # threads * capacity: the rows it listed whose cop set grew
    int32_t *pushed           # threads * capacity: the rows whose robber set grew
    int64_t nchanged[COPS_CREW_MAX]
    int64_t npushed[COPS_CREW_MAX]
    int32_t won               # a thread saw a row fill (the cop number's mode): all leave
    int64_t won_row[COPS_CREW_MAX]  # per thread, the row it saw fill, or -1
    bint auto                 # threads=None: may leave the crew for this thread alone
    int64_t own_ns            # the caller's time in its shares of the phases
    int64_t waited_ns         # and waiting, after its share, for the helpers'
    int64_t begin_ns          # when the caller handed out the current phase
    int64_t help_wall_ns[COPS_CREW_MAX]  # per helper, from handing out to its share done
    int64_t help_cpu_ns[COPS_CREW_MAX]   # and its own CPU time in its share (-1: no clock)


cdef struct Plies:
    # The remoteness table a search writes, as the caller gave it: int32 (``wide``, -1 for
    # never) or a byte a position (``narrow``, NO_CAPTURE_BYTE for never), or neither.  A
    # byte holds captures up to ``most`` plies (cops_checks.BYTE_PLIES); a search that
    # decides a position past them stops with COPS_PAST_BYTE (cops_past_byte).
    int32_t *wide
    uint8_t *narrow
    int32_t most


cdef struct CopSearch:
    # One graph of at most 64 nodes and the tables of one k (reused across graphs).
    int32_t n
    int32_t k
    int64_t rows
    uint64_t everyone
    uint64_t closed[64]
    uint8_t moves[64][64]     # the closed neighbourhood of each node, as ids
    int32_t degree[64]        # its size
    int64_t weight[COPS_MAX][64]   # C(v + i, i + 1): a sorted team's rank is a sum of these
    int32_t weight_rows       # rows of ``weight`` filled (for every v < 64): kept across graphs
    int64_t capacity          # rows the buffers below hold
    int32_t capacity_k
    uint8_t *team             # rows * k: each row's nodes, sorted
    uint64_t *cops            # robber nodes the cops catch from, cops to move
    uint64_t *robber          # robber nodes he is caught from, robber to move
    uint64_t *fresh           # the robber's round's new bits, per row
    int32_t *changed          # rows whose cop set grew in the last cops' round
    int32_t *pushed           # rows whose robber set grew in the last robber's round
    uint8_t *mark             # row already in ``changed`` this round
    uint8_t *outcome
    Plies plies
    int64_t work
    bint poll
    bint any_win              # stop at the first full row, mid-round (the cop number)
    int64_t found             # that row, or -1
    CopCrew *crew             # helper threads (cops_crew.pxi), or NULL: this thread alone
    void *hire                # the _CopCrewThreads that starts them on first need, or NULL
    int32_t want              # the threads asked for (1: none)
    bint auto                 # threads=None: a crew only for searches of AUTO_CREW_ROWS rows
    int32_t stopped           # set once the search must end (a signal, or ``cancel``)
    const int32_t *cancel     # the caller's stop flag (another thread sets it), or NULL


cdef int64_t cops_rows_c(int64_t n, int64_t k) noexcept nogil:
    """C(n+k-1, k), or -1 above 2**40 (no such table is ever allocated)."""
    cdef int64_t r = 1, i
    if n == 0:
        return 0
    for i in range(1, k + 1):
        r = r * (n - 1 + i) // i
        if r > (<int64_t> 1) << 40:
            return -1
    return r


cdef int64_t graph_need(int64_t n) noexcept nogil:
    """Bytes of the checked graph that Python holds during a search: the list of closed
    neighbourhoods (ints of n bits: 32 bytes and 4 per 30 bits, a list slot of 8 each) and
    the check's two lists of n + 1 offsets (ints of 32 bytes, slots of 8)."""
    return n * (8 + 32 + 4 * ((n + 29) // 30)) + 2 * (n + 1) * (8 + 32)


cdef int64_t cops_need(int64_t n, int64_t k) noexcept nogil:
    """Bytes a search allocates: per row k team bytes, three words, two list slots, a mark."""
    cdef int64_t rows = cops_rows_c(n, k)
    if rows < 0 or rows >= (<int64_t> 1) << 31:
        return (<int64_t> 1) << 62
    return (4096 + <int64_t> sizeof(CopSearch) + graph_need(n)
            + rows * (k + 3 * 8 + 2 * 4 + 1))


cdef void cops_free(CopSearch *c) noexcept nogil:
    PyMem_RawFree(c.team)
    PyMem_RawFree(c.cops)
    PyMem_RawFree(c.robber)
    PyMem_RawFree(c.fresh)
    PyMem_RawFree(c.changed)
    PyMem_RawFree(c.pushed)
    PyMem_RawFree(c.mark)
    c.team = NULL
    c.cops = c.robber = c.fresh = NULL
    c.changed = c.pushed = NULL
    c.mark = NULL
    c.capacity = 0
    c.capacity_k = 0


cdef int cops_reserve(CopSearch *c, int64_t rows, int32_t k) noexcept nogil:
    """Buffers for ``rows`` rows of ``k`` cops (kept when big enough); -1 if out of memory."""
    if rows <= c.capacity and k <= c.capacity_k:
        return 0
    cops_free(c)
    rows = max(rows, 64)
    c.team = <uint8_t *> PyMem_RawMalloc(<size_t> (rows * k))
    c.cops = <uint64_t *> PyMem_RawMalloc(<size_t> rows * 8)
    c.robber = <uint64_t *> PyMem_RawMalloc(<size_t> rows * 8)
    c.fresh = <uint64_t *> PyMem_RawMalloc(<size_t> rows * 8)
    c.changed = <int32_t *> PyMem_RawMalloc(<size_t> rows * 4)
    c.pushed = <int32_t *> PyMem_RawMalloc(<size_t> rows * 4)
    c.mark = <uint8_t *> PyMem_RawCalloc(<size_t> rows, 1)
    if (c.team == NULL or c.cops == NULL or c.robber == NULL or c.fresh == NULL
            or c.changed == NULL or c.pushed == NULL or c.mark == NULL):
        cops_free(c)
        return -1
    # Huge pages where the system gives them on request: a search of 100 million rows
    # reads its rows at random, and freeing its 4 KB pages took 0.5 s after a Ctrl-C.
    cm_advise_huge(c.team, <size_t> (rows * k))
    cm_advise_huge(c.cops, <size_t> rows * 8)
    cm_advise_huge(c.robber, <size_t> rows * 8)
    cm_advise_huge(c.fresh, <size_t> rows * 8)
    cm_advise_huge(c.changed, <size_t> rows * 4)
    cm_advise_huge(c.pushed, <size_t> rows * 4)
    cm_advise_huge(c.mark, <size_t> rows)
    c.capacity = rows
    c.capacity_k = k
    return 0


cdef void cops_graph(CopSearch *c, const uint64_t *closed, int32_t n, int32_t k) noexcept nogil:
    """Take the graph's closed neighbourhoods and the rank weights for ``k`` cops."""
    cdef int32_t u, v, i
    cdef int64_t w
    c.n = n
    c.k = k
    c.rows = cops_rows_c(n, k)
    c.everyone = ONES if n == 64 else ((<uint64_t> 1) << n) - 1
    for u in range(n):
        c.closed[u] = closed[u]
        c.degree[u] = 0
        for v in range(n):
            if (closed[u] >> v) & 1:
                c.moves[u][c.degree[u]] = <uint8_t> v
                c.degree[u] += 1
    # The weights depend on neither the graph nor n: filled once per search object (a census
    # solves millions of small graphs with one), not once per graph.
    for i in range(c.weight_rows, k):
        for v in range(64):
            # C(v + i, i + 1): at most C(78, 16), so exact in int64 (and every partial product).
            w = 1
            for u in range(1, i + 2):
                w = w * (v + i + 1 - u) // u
            c.weight[i][v] = w
    if k > c.weight_rows:
        c.weight_rows = k


cdef int cops_poll(CopSearch *c) noexcept nogil:
    """-1 if the search must stop: the caller's flag is set (a look each call), or, every
    POLL_WORK steps, a Python signal handler raised (Ctrl-C).  Sets ``stopped`` then, which
    the crew's helpers watch.  Only the thread that started the search calls this."""
    cdef int code = 0
    if c.stopped or (c.cancel != NULL and cm_load32(c.cancel)):
        cm_store_flag(&c.stopped, 1)
        return -1
    if c.work < COPS_POLL_WORK:
        return 0
    c.work = 0
    if c.poll:
        with gil:
            code = check_signals()
    if code < 0:
        cm_store_flag(&c.stopped, 1)
        return -1
    return 0


cdef inline int cops_poll_rows(CopSearch *c, int64_t s, int64_t work) noexcept nogil:
    """cops_poll every 1024 rows of a pass over rows (``work``: steps of 1024 rows)."""
    if s & 1023:
        return 0
    c.work += work
    return cops_poll(c)


cdef inline bint cops_halt(CopSearch *c, int32_t i, int64_t s, int64_t work) noexcept nogil:
    """Every 1024 rows of a pass, whether thread ``i`` must stop: thread 0 (the search's
    own) polls (cops_poll, ``work``: steps of 1024 rows), a crew's helpers watch ``stopped``."""
    if s & 1023:
        return False
    if i == 0:
        c.work += work
        return cops_poll(c) < 0
    return cm_load32(&c.stopped) != 0


cdef void cops_team_of(const CopSearch *c, int64_t s, uint8_t *a) noexcept nogil:
    """Row ``s``'s team into ``a``: its rank is the sum of ``weight[i][a[i]]`` (colex order),
    so each cop from the last takes the largest node whose weight fits what is left."""
    cdef int32_t i, v
    for i in range(c.k - 1, -1, -1):
        v = 0
        while v + 1 < c.n and c.weight[i][v + 1] <= s:
            v += 1
        a[i] = <uint8_t> v
        s -= c.weight[i][v]


cdef int cops_start_rows(CopSearch *c, int32_t i, int64_t lo, int64_t hi) noexcept nogil:
    """Rounds 0 and 1 on rows lo..hi (thread ``i``): each row's team (the multisets in colex
    order, the first found from its rank), ``robber[S] = S``, ``cops[S] = N[S]`` and their
    remoteness; -1 if stopped part way."""
    cdef int32_t n = c.n, k = c.k, j, q
    cdef int64_t s, turn1 = c.rows * n
    cdef uint64_t here, mask
    cdef uint8_t a[COPS_MAX]
    if lo >= hi:
        return 0
    cops_team_of(c, lo, a)
    for s in range(lo, hi):
        if cops_halt(c, i, s, 1024 * (2 * n + k)):
            return -1
        here = mask = 0
        for j in range(k):
            c.team[s * k + j] = a[j]
            here |= (<uint64_t> 1) << a[j]
            mask |= c.closed[a[j]]
        c.cops[s] = mask
        c.robber[s] = here
        cops_start_plies(&c.plies, s * n, turn1 + s * n, n, &here, &mask)
        # The next team: the first cop that can move up (not onto the next one's node, nor
        # past the last node) does, and those below it go back to node 0.
        j = 0
        while j < k and a[j] == (a[j + 1] if j + 1 < k else n - 1):
            j += 1
        if j == k:
            break
        a[j] += 1
        for q in range(j):
            a[q] = 0
    return 0


cdef int cops_start(CopSearch *c) noexcept nogil:
    """Round 0 and 1 on this thread, every row changed; -1 if stopped (cops_poll) part way."""
    cdef int64_t s
    if cops_start_rows(c, 0, 0, c.rows) < 0:
        return -1
    for s in range(c.rows):
        c.changed[s] = <int32_t> s
    return 0


cdef int64_t cops_push(CopSearch *c, int64_t s, uint64_t new, int32_t t,
                       int64_t count) noexcept nogil:
    """OR ``new`` into the cop set of every move of row ``s``; returns the changed count.

    Cops 1..k-1 choose their moves in an odometer; for each choice, sorted, the rank of the
    team with cop 0's node inserted at place p is ``before[p] + weight[p][v] + after[p]``,
    so the innermost loop (cop 0's moves) costs a few comparisons and adds.
    """
    cdef int32_t k = c.k, m = c.k - 1, i, j, p, q, limit, inner
    cdef int64_t row, turn1 = c.rows * c.n
    cdef uint8_t a[COPS_MAX]
    cdef uint8_t b[COPS_MAX]
    cdef int32_t pick[COPS_MAX]
    cdef int64_t before[COPS_MAX + 1]
    cdef int64_t after[COPS_MAX + 1]
    cdef uint8_t v
    cdef uint64_t gain
    for i in range(k):
        a[i] = c.team[s * k + i]
        pick[i] = 0
    while True:
        for i in range(1, k):
            v = c.moves[a[i]][pick[i]]
            j = i - 1
            while j > 0 and b[j - 1] > v:
                b[j] = b[j - 1]
                j -= 1
            b[j] = v
        before[0] = 0
        for p in range(m):
            before[p + 1] = before[p] + c.weight[p][b[p]]
        after[m] = 0
        for p in range(m - 1, -1, -1):
            after[p] = after[p + 1] + c.weight[p + 1][b[p]]
        # Cops on one node choose their moves in order (the other orders give the same teams).
        inner = pick[1] + 1 if k > 1 and a[0] == a[1] else c.degree[a[0]]
        for q in range(inner):
            v = c.moves[a[0]][q]
            p = 0
            while p < m and b[p] < v:
                p += 1
            row = before[p] + c.weight[p][v] + after[p]
            gain = new & ~c.cops[row]
            if gain:
                c.cops[row] |= gain
                if not c.mark[row]:
                    c.mark[row] = 1
                    c.changed[count] = <int32_t> row
                    count += 1
                cops_write(&c.plies, turn1 + row * c.n, gain, t)
                if c.any_win and c.cops[row] == c.everyone:
                    c.found = row
                    return count
        c.work += inner
        i = 1
        while i < k:
            pick[i] += 1
            limit = pick[i + 1] + 1 if i + 1 < k and a[i] == a[i + 1] else c.degree[a[i]]
            if pick[i] < limit:
                break
            pick[i] = 0
            i += 1
        if i >= k:
            return count


cdef inline int32_t crew_for(int32_t want, bint auto, int64_t rows) noexcept nogil:
    """The threads a search of ``rows`` rows takes: ``want``, but one for a small search
    when the count was left to the engine (``auto``); one where the compiler gives the
    crew no atomics (_bitops.h)."""
    return 1 if auto and rows < AUTO_CREW_ROWS or not CM_HAVE_ATOMICS else want


cdef int64_t cops_run(CopSearch *c, bint stop) noexcept nogil:
    """The search on the buffers of ``c``: a winning row, -1, or COPS_INTERRUPTED."""
    cdef int64_t s, first = -1
    cdef bint tables = cops_tables(c.outcome, &c.plies)
    if c.n == 0:
        return -1
    if crew_for(c.want, c.auto, c.rows) > 1:
        if c.crew == NULL and c.hire != NULL:
            crew_hire(c)
        if c.crew != NULL and c.crew.threads > 1:
            return crew_run(c, stop)
    c.work = 0
    c.found = -1
    if cops_start(c) < 0:
        return COPS_INTERRUPTED
    for s in range(c.rows):
        if cops_poll_rows(c, s, 1024 * 4) < 0:
            return COPS_INTERRUPTED
        if c.cops[s] == c.everyone:
            first = s
            break
    if first >= 0 and stop and not tables:
        return first
    return cops_rounds(c, 1, c.rows, first, stop)


cdef int64_t cops_rounds(CopSearch *c, int32_t t, int64_t nchanged, int64_t first,
                         bint stop) noexcept nogil:
    """cops_run's rounds on this thread, from round ``t`` done, the rows of
    ``changed[:nchanged]`` (none marked) changed in it, ``first`` the first full row or -1."""
    cdef int32_t n = c.n
    cdef int64_t s, idx, npushed, row
    cdef uint64_t outside, reach, new
    cdef bint tables = cops_tables(c.outcome, &c.plies)
    while True:
        t += 1  # the robber's round
        npushed = 0
        for idx in range(nchanged):
            if cops_poll_rows(c, idx, 1024 * COPS_ROW_WORK) < 0:
                for row in range(idx, nchanged):
                    c.mark[c.changed[row]] = 0
                return COPS_INTERRUPTED
            s = c.changed[idx]
            c.mark[s] = 0
            outside = c.everyone & ~c.cops[s]
            reach = 0
            while outside:
                reach |= c.closed[cm_ctz64(outside)]
                outside &= outside - 1
            new = c.everyone & ~reach & ~c.robber[s]
            if new:
                c.robber[s] |= new
                c.fresh[s] = new
                c.pushed[npushed] = <int32_t> s
                npushed += 1
                cops_write(&c.plies, s * n, new, t)
        if npushed == 0:
            break
        if cops_past_byte(&c.plies, t, npushed):
            return COPS_PAST_BYTE
        t += 1  # the cops' round
        nchanged = 0
        for idx in range(npushed):
            s = c.pushed[idx]
            nchanged = cops_push(c, s, c.fresh[s], t, nchanged)
            if c.found >= 0:
                for idx in range(nchanged):
                    c.mark[c.changed[idx]] = 0
                return c.found
            if cops_poll(c) < 0:
                for idx in range(nchanged):
                    c.mark[c.changed[idx]] = 0
                return COPS_INTERRUPTED
        if cops_past_byte(&c.plies, t, nchanged):
            for idx in range(nchanged):
                c.mark[c.changed[idx]] = 0
            return COPS_PAST_BYTE
        if first < 0:
            for idx in range(nchanged):
                row = c.changed[idx]
                if c.cops[row] == c.everyone and (first < 0 or row < first):
                    first = row
        if first >= 0 and stop and not tables:
            for idx in range(nchanged):
                c.mark[c.changed[idx]] = 0
            return first
    if c.outcome != NULL and cops_outcome(c) < 0:
        return COPS_INTERRUPTED
    return first


cdef int32_t cops_component(const uint64_t *closed, int32_t n, uint64_t *seen_all,
                            uint64_t *part) noexcept nogil:
    """The next component not in ``seen_all`` as masks over its own nodes; its size."""
    cdef uint64_t left = ~seen_all[0], seen, grow, reach, bits, mask
    cdef int32_t m = 0, u, v, i, j
    cdef int32_t ids[64]
    if n < 64:
        left &= ((<uint64_t> 1) << n) - 1
    seen = left & (~left + 1)
    grow = seen
    while grow:
        reach = 0
        bits = grow
        while bits:
            reach |= closed[cm_ctz64(bits)]
            bits &= bits - 1
        grow = reach & ~seen
        seen |= reach
    seen_all[0] |= seen
    bits = seen
    while bits:
        ids[m] = cm_ctz64(bits)
        m += 1
        bits &= bits - 1
    for i in range(m):
        u = ids[i]
        mask = 0
        for j in range(m):
            v = ids[j]
            if (closed[u] >> v) & 1:
                mask |= (<uint64_t> 1) << j
        part[i] = mask
    return m


cdef bint cops_dominating(const uint64_t *closed, int32_t n, int32_t k) noexcept nogil:
    """Whether some ``k`` nodes (k is 1 or 2) have closed neighbourhoods covering all ``n``."""
    cdef uint64_t everyone = ONES if n == 64 else ((<uint64_t> 1) << n) - 1
    cdef int32_t u, v
    for u in range(n):
        if closed[u] == everyone:
            return True
        if k == 2:
            for v in range(u + 1, n):
                if (closed[u] | closed[v]) == everyone:
                    return True
    return False


cdef bint cops_has_corner(const uint64_t *closed, int32_t n) noexcept nogil:
    """Whether some node's closed neighbourhood lies inside another node's."""
    cdef int32_t u, v
    for u in range(n):
        for v in range(n):
            if u != v and (closed[u] & ~closed[v]) == 0:
                return True
    return False


cdef int64_t cops_number(CopSearch *c, const uint64_t *closed, int32_t n, int64_t max_cops,
                         int64_t max_bytes, int32_t *bad) noexcept nogil:
    """The cop number (sum over components), -1 past ``max_cops``, or a negative code.

    COPS_TOO_BIG leaves the component's size and the k in ``bad[0]``, ``bad[1]``.
    """
    cdef uint64_t seen = 0
    cdef uint64_t everyone = ONES if n == 64 else ((<uint64_t> 1) << n) - 1
    cdef uint64_t part[64]
    cdef int64_t total = 0, k, code, need
    cdef int32_t m
    if max_cops < 0:
        max_cops = 0
    while seen != everyone:
        m = cops_component(closed, n, &seen, part)
        k = 1
        while total + k <= max_cops and m > 1:
            need = cops_need(m, k) + crew_need(
                m, k, crew_for(c.want, c.auto, cops_rows_c(m, k)))
            if max_bytes >= 0 and need > max_bytes:
                bad[0] = m
                bad[1] = <int32_t> k
                return COPS_TOO_BIG
            # Two answers without the search (after the memory guard, which speaks as before):
            # k cops on a dominating set catch the robber at their first move; a graph with no
            # corner (no N[u] inside another N[v]) is not dismantlable, so one cop loses
            # (Nowakowski and Winkler).  Most graphs of a census of small graphs end here.
            if k <= 2 and cops_dominating(part, m, <int32_t> k):
                break
            if k == 1 and not cops_has_corner(part, m):
                k += 1
                continue
            if cops_reserve(c, cops_rows_c(m, k), <int32_t> k) < 0:
                return COPS_NO_MEMORY
            cops_graph(c, part, m, <int32_t> k)
            c.any_win = True
            code = cops_run(c, True)
            c.any_win = False
            if code == COPS_INTERRUPTED or code == COPS_NO_MEMORY:
                return code
            if code >= 0:
                break
            k += 1
        total += k
        if total > max_cops:
            return -1
    return total


cdef int cops_graph6(const uint8_t *p, int64_t size, uint64_t *closed,
                     int32_t *n_out) noexcept nogil:
    """Decode one graph6 line (the rules of cops_checks.graph6_masks); COPS_BAD_GRAPH6 if
    it is bad."""
    cdef int64_t n, pairs, need, bit = 0, i, j
    cdef int32_t x
    if size >= 10 and memcmp(p, b">>graph6<<", 10) == 0:
        p += 10
        size -= 10
    if size == 0:
        return COPS_BAD_GRAPH6
    for i in range(size):
        if p[i] < 63 or p[i] > 126:
            return COPS_BAD_GRAPH6
    if p[0] != 126:
        n = p[0] - 63
        p += 1
        size -= 1
    elif size >= 4 and p[1] != 126:
        n = (p[1] - 63) << 12 | (p[2] - 63) << 6 | (p[3] - 63)
        p += 4
        size -= 4
    else:
        return COPS_BAD_GRAPH6
    if n > 64:
        return COPS_BAD_GRAPH6
    pairs = n * (n - 1) // 2
    need = (pairs + 5) // 6
    if size != need:
        return COPS_BAD_GRAPH6
    for i in range(n):
        closed[i] = (<uint64_t> 1) << i
    for j in range(1, n):
        for i in range(j):
            x = p[bit // 6] - 63
            if (x >> (5 - bit % 6)) & 1:
                closed[i] |= (<uint64_t> 1) << j
                closed[j] |= (<uint64_t> 1) << i
            bit += 1
    if size and (p[size - 1] - 63) & ((1 << (6 * size - pairs)) - 1):
        return COPS_BAD_GRAPH6
    n_out[0] = <int32_t> n
    return 0
