# cython: language_level=3
"""The retrograde engine in Cython: the twin of ``_retro_py.py``.

Same signature, same checks, same tables, bit for bit; the algorithm is
described in ``_retro_py``.  Compiler directives (bounds checks off, and so on)
are set once in ``setup.py``.

What makes it fast, beyond being C:

- move counters as narrow as the largest number of moves allows: none at all
  up to 63 moves (the count of losing moves shares the outcome byte), then
  one, two or four bytes; they count up from zero, so calloc's zero pages
  need no setup pass, and terminal positions are listed rule by rule instead
  of by a scan of every position;
- the mouse's half of the table transposed during the search, so a
  position's predecessors lie in one row of the table for either mover;
- a FIFO of fixed-size blocks, grown by the frontier and never copied, instead
  of a queue with room for every position; remoteness is written when a
  position leaves the queue (level markers), not in the predecessor loops;
- ``Board``: a game's arrays checked once and kept as C pointers, so a hot loop
  of ``solve`` calls on one graph pays no argument parsing;
- ``solve_boards``: many solves in one call without the GIL (``solve_many``);
- ``solve_lists``: LeetCode adjacency lists checked and solved in C, with no
  ``Graph`` built; anything unusual is declined and left to the Python path,
  which owns every error message (``csr_from_lists`` likewise for ``Graph``).
"""

from cpython.array cimport array, clone
from cpython.exc cimport PyErr_CheckSignals
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.mem cimport PyMem_RawCalloc, PyMem_RawFree, PyMem_RawMalloc
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memset

from operator import index

cdef enum:
    # Per-node flags and outcome codes: the same values as in _retro_py.
    HOLE = 1
    CAT_FORBIDDEN = 2
    CAT_GOAL = 4
    MOUSE_WIN = 1
    CAT_WIN = 2
    NO_POSITION = 3
    # Positions per queue block (64 KiB); Ctrl-C is checked each time one drains,
    # so at least once per BLOCK positions taken off the queue.
    BLOCK = 16384
    # Largest number of moves whose count fits beside the outcome in one byte.
    PACKED_MAX_MOVES = 63
    # Positions above which the tables come from calloc's fresh zero pages.
    BIG_GAME = 1 << 20
    # Largest graph solve_lists takes on (its tables stay under ~20 MB; the
    # Python path checks memory for anything bigger).
    LISTS_MAX_NODES = 1024

QUEUE_BLOCK = BLOCK
LISTS_LIMIT = LISTS_MAX_NODES
# The C enum's flags and codes, for the test that pins them to catmouse._facts.
ENUM = {"HOLE": HOLE, "CAT_FORBIDDEN": CAT_FORBIDDEN, "CAT_GOAL": CAT_GOAL,
        "MOUSE_WIN": MOUSE_WIN, "CAT_WIN": CAT_WIN, "NO_POSITION": NO_POSITION}

cdef struct Packed:
    # Marks the packed layout: no counter table, each position's count of
    # losing moves kept in the top six bits of its outcome byte.
    uint8_t unused

ctypedef fused counter_t:
    Packed
    uint8_t
    uint16_t
    int32_t


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


# -- the queue: a FIFO of blocks --------------------------------------------------

cdef struct Block:
    Block *next
    int32_t *data
    bint owned  # allocated on its own (the first block lives in the caller's buffer)


cdef struct Queue:
    # Positions are pushed at the tail block and popped from the head block;
    # a drained block is kept as the spare for the next push that needs one,
    # so a queue that stays small cycles two blocks.  Every block holds
    # BLOCK positions.
    Block *first
    Block *last
    Block *spare
    int64_t tail


cdef void queue_init(Queue *q, Block *first) noexcept nogil:
    """An empty queue whose first block is ``first`` (room for BLOCK positions)."""
    first.next = NULL
    first.data = <int32_t *> (first + 1)
    first.owned = False
    q.first = q.last = first
    q.spare = NULL
    q.tail = 0


cdef void queue_free(Queue *q) noexcept nogil:
    cdef Block *b = q.first
    cdef Block *next_block
    while b != NULL:
        next_block = b.next
        if b.owned:
            PyMem_RawFree(b)
        b = next_block
    PyMem_RawFree(q.spare)
    q.first = q.last = q.spare = NULL


cdef int queue_grow(Queue *q) except -1 nogil:
    cdef Block *b = q.spare
    q.spare = NULL
    if b == NULL:
        b = <Block *> PyMem_RawMalloc(sizeof(Block) + <size_t> BLOCK * sizeof(int32_t))
        if b == NULL:
            with gil:
                raise MemoryError(f"cannot grow the queue by {BLOCK * 4} bytes")
        b.data = <int32_t *> (b + 1)
        b.owned = True
    b.next = NULL
    q.last.next = b
    q.last = b
    q.tail = 0
    return 0


cdef inline int queue_push(Queue *q, int32_t s) except -1 nogil:
    if q.tail == BLOCK:
        queue_grow(q)
    q.last.data[q.tail] = s
    q.tail += 1
    return 0


cdef void queue_drain(Queue *q) noexcept nogil:
    """The head block is used up: move to the next, keeping this one as the spare."""
    cdef Block *drained = q.first
    q.first = drained.next
    drained.next = NULL
    if drained.owned:
        PyMem_RawFree(q.spare)
        q.spare = drained


# -- the search ---------------------------------------------------------------------

cdef struct Moves:
    # What the search reads besides the game: each mover's number of legal
    # moves, and the cat's reverse moves without the nodes it may not stand on.
    const int32_t *mouse
    const int32_t *cat
    const int32_t *cat_from_ip
    const int32_t *cat_from


cdef inline int seed(int64_t s, uint8_t value, uint8_t *state, int32_t *rem,
                     Queue *q) except -1 nogil:
    """Decide a terminal position, unless a rule of higher precedence already did."""
    if state[s] & 3 == 0:
        state[s] = value
        queue_push(q, <int32_t> s)
        if rem != NULL:
            rem[s] = 0
    return 0


cdef int run(const Game *g, const Moves *moves, uint8_t *state, int32_t *rem,
             counter_t *spent, Queue *q, int64_t target) except -1 nogil:
    """Fill ``state`` (and ``rem`` unless NULL); stop early once ``target`` is decided.

    ``state`` starts zeroed and ``spent`` too: it counts each position's moves
    known to lose, counting up to the mover's number of moves, so neither table
    needs a pass to set it up and untouched pages of a big one cost nothing.
    With ``counter_t`` Packed there is no ``spent``: an undecided position's
    byte holds the count times 4 (its outcome bits are 0), so a predecessor
    visit reads one byte, not two; the caller clears the counts at the end.
    Terminal positions are enumerated rule by rule, in the order of
    precedence, rather than found by a scan of every position.
    """
    cdef int32_t n = g.n
    cdef const uint8_t *flags = g.flags
    cdef const int32_t *m_rip = g.m_rip
    cdef const int32_t *m_rix = g.m_rix
    cdef const int32_t *mouse_moves = moves.mouse
    cdef const int32_t *cat_moves = moves.cat
    cdef const int32_t *cat_from_ip = moves.cat_from_ip
    cdef const int32_t *cat_from = moves.cat_from
    cdef int64_t nn = <int64_t> n * n
    cdef int64_t m, c, s, p, row, k
    cdef int32_t pm, pc
    cdef counter_t used
    cdef uint8_t value, cell

    # Terminal positions, highest precedence first: the cat on a node it may
    # not enter (no position), the cat on the mouse, the mouse in a hole, the
    # cat on a goal, and a mover with no legal move, who loses.  The mouse's
    # half of the table is transposed (see solve_game): (m, c) is at c*n + m.
    for c in range(n):
        if flags[c] & CAT_FORBIDDEN:
            for m in range(n):
                state[c * n + m] = NO_POSITION
                state[nn + m * n + c] = NO_POSITION
    for c in range(n):
        seed(c * n + c, CAT_WIN, state, rem, q)
        seed(nn + c * n + c, CAT_WIN, state, rem, q)
    for m in range(n):
        if flags[m] & HOLE:
            for c in range(n):
                seed(c * n + m, MOUSE_WIN, state, rem, q)
                seed(nn + m * n + c, MOUSE_WIN, state, rem, q)
    for c in range(n):
        if flags[c] & CAT_GOAL:
            for m in range(n):
                seed(c * n + m, CAT_WIN, state, rem, q)
                seed(nn + m * n + c, CAT_WIN, state, rem, q)
    for m in range(n):
        if mouse_moves[m] == 0:
            for c in range(n):
                seed(c * n + m, CAT_WIN, state, rem, q)
    for c in range(n):
        if cat_moves[c] == 0:
            for m in range(n):
                seed(nn + m * n + c, MOUSE_WIN, state, rem, q)
    if target >= 0 and state[target] & 3:
        return 0

    # The queue's ends live in locals from here on: a store into ``state`` may
    # alias anything reached through a pointer, so fields of ``q`` would be
    # reloaded after every one.  With remoteness wanted, a -1 in the queue
    # marks the end of each level, so a position's remoteness is written when
    # it is taken off rather than in the loops over predecessors.
    cdef int64_t head = 0, tail = q.tail
    cdef int32_t *head_data = q.first.data
    cdef int32_t *tail_data = q.last.data
    cdef int32_t depth = 0
    if rem != NULL:
        queue_push(q, -1)
        tail_data = q.last.data
        tail = q.tail
    while head != tail or head_data != tail_data:
        if head == BLOCK:
            # A block drained: a moment to check for Ctrl-C (every BLOCK positions).
            queue_drain(q)
            head_data = q.first.data
            head = 0
            with gil:
                PyErr_CheckSignals()
        s = head_data[head]
        head += 1
        if s < 0:
            # The end of a level: the positions queued since are one deeper.
            depth += 1
            if head == tail and head_data == tail_data:
                break
            if tail == BLOCK:
                queue_grow(q)
                tail_data = q.last.data
                tail = 0
            tail_data[tail] = -1
            tail += 1
            continue
        if rem != NULL:
            rem[s] = depth
        value = state[s]
        if s >= nn:
            # Cat to move here, so the mouse just moved: (pm, c, MOUSE), at
            # c*n + pm in the transposed half: one row of the table.
            m = (s - nn) // n
            c = (s - nn) - m * n
            row = c * n
            if value == MOUSE_WIN:
                # A win for the mouse: every predecessor is won by moving here.
                for k in range(m_rip[m], m_rip[m + 1]):
                    p = row + m_rix[k]
                    if state[p] & 3:
                        continue
                    state[p] = value
                    if p == target:
                        return 0
                    if tail == BLOCK:
                        queue_grow(q)
                        tail_data = q.last.data
                        tail = 0
                    tail_data[tail] = <int32_t> p
                    tail += 1
            else:
                # One more losing move for each predecessor; the last one loses.
                for k in range(m_rip[m], m_rip[m + 1]):
                    pm = m_rix[k]
                    p = row + pm
                    if counter_t is Packed:
                        cell = state[p]
                        if cell & 3:
                            continue
                        cell += 4
                        if cell >> 2 != mouse_moves[pm]:
                            state[p] = cell
                            continue
                    else:
                        if state[p]:
                            continue
                        used = spent[p] + 1
                        spent[p] = used
                        if used != mouse_moves[pm]:
                            continue
                    state[p] = value
                    if p == target:
                        return 0
                    if tail == BLOCK:
                        queue_grow(q)
                        tail_data = q.last.data
                        tail = 0
                    tail_data[tail] = <int32_t> p
                    tail += 1
        else:
            # Mouse to move here (at c*n + m), so the cat just moved:
            # (m, pc, CAT), where ``pc`` is a node the cat may stand on.
            c = s // n
            m = s - c * n
            row = nn + m * n
            if value == CAT_WIN:
                for k in range(cat_from_ip[c], cat_from_ip[c + 1]):
                    p = row + cat_from[k]
                    if state[p] & 3:
                        continue
                    state[p] = value
                    if p == target:
                        return 0
                    if tail == BLOCK:
                        queue_grow(q)
                        tail_data = q.last.data
                        tail = 0
                    tail_data[tail] = <int32_t> p
                    tail += 1
            else:
                for k in range(cat_from_ip[c], cat_from_ip[c + 1]):
                    pc = cat_from[k]
                    p = row + pc
                    if counter_t is Packed:
                        cell = state[p]
                        if cell & 3:
                            continue
                        cell += 4
                        if cell >> 2 != cat_moves[pc]:
                            state[p] = cell
                            continue
                    else:
                        if state[p]:
                            continue
                        used = spent[p] + 1
                        spent[p] = used
                        if used != cat_moves[pc]:
                            continue
                    state[p] = value
                    if p == target:
                        return 0
                    if tail == BLOCK:
                        queue_grow(q)
                        tail_data = q.last.data
                        tail = 0
                    tail_data[tail] = <int32_t> p
                    tail += 1
    return 0


ctypedef fused cell_t:
    uint8_t
    int32_t


cdef void transpose_square(cell_t *table, int32_t n) noexcept nogil:
    """Transpose an n-by-n table in place, tile by tile to stay in cache."""
    cdef int64_t bi, bj, i, j, i_end, j_end
    cdef cell_t held
    for bi in range(0, n, 32):
        i_end = bi + 32 if bi + 32 < n else n
        for bj in range(bi, n, 32):
            j_end = bj + 32 if bj + 32 < n else n
            for i in range(bi, i_end):
                for j in range(bj if bj > i + 1 else i + 1, j_end):
                    held = table[i * n + j]
                    table[i * n + j] = table[j * n + i]
                    table[j * n + i] = held


cdef int64_t solve_game(const Game *g, uint8_t *outcome, int32_t *rem,
                        int64_t target) except -2 nogil:
    """Solve ``g`` into ``outcome`` (or a table of its own when NULL, then ``target``).

    Returns the target's code, or the number of decided positions when
    ``target`` < 0.  Counters get the narrowest type that holds every
    mover's number of legal moves: none at all up to 63 moves (packed into
    the outcome byte), else 1, 2 or 4 bytes.
    """
    cdef int32_t n = g.n
    cdef int64_t size = 2 * <int64_t> n * n
    cdef int64_t k, c, most = 0, result = 0, nn = <int64_t> n * n
    cdef int64_t cat_edges = g.c_rip[n]
    cdef void *spent = NULL
    cdef uint8_t *state = outcome
    cdef size_t width
    cdef Moves moves
    cdef Queue q
    if size == 0:
        return 0
    if target >= 0 and g.flags[target % n] & CAT_FORBIDDEN:
        return NO_POSITION
    q.first = q.last = q.spare = NULL
    # Everything in one allocation: move counts, the filtered reverse cat
    # moves, the counters, the outcome table unless the caller gives one, and
    # the queue's first block last.  All but the queue start zeroed; a big
    # one comes from calloc as fresh zero pages, with no pass to clear them.
    cdef int64_t ints = (3 * n + 1 + cat_edges + 1) & ~(<int64_t> 1)  # keep 8-aligned
    for c in range(n):
        if g.m_ip[c + 1] - g.m_ip[c] > most:
            most = g.m_ip[c + 1] - g.m_ip[c]
        if g.c_ip[c + 1] - g.c_ip[c] > most:
            most = g.c_ip[c + 1] - g.c_ip[c]
    width = 0 if most <= PACKED_MAX_MOVES else (
        1 if most <= 0xFF else (2 if most <= 0xFFFF else 4))
    cdef size_t zeroed = (<size_t> ints * sizeof(int32_t) + <size_t> size * width
                          + (<size_t> size if outcome == NULL else 0) + 7) & ~(<size_t> 7)
    cdef size_t total = zeroed + sizeof(Block) + <size_t> BLOCK * sizeof(int32_t)
    cdef char *block
    if size > BIG_GAME:
        block = <char *> PyMem_RawCalloc(total, 1)
    else:
        block = <char *> PyMem_RawMalloc(total)
        if block != NULL:
            memset(block, 0, zeroed)
    if block == NULL:
        with gil:
            raise MemoryError(f"cannot allocate {total} bytes for the tables")
    cdef int32_t *mouse_moves = <int32_t *> block
    cdef int32_t *cat_moves = mouse_moves + n
    cdef int32_t *cat_from_ip = mouse_moves + 2 * n
    cdef int32_t *cat_from = mouse_moves + 3 * n + 1
    spent = block + ints * sizeof(int32_t)
    if outcome == NULL:
        state = <uint8_t *> spent + size * width
    else:
        memset(state, 0, <size_t> size)
    queue_init(&q, <Block *> (block + zeroed))
    for c in range(n):
        mouse_moves[c] = g.m_ip[c + 1] - g.m_ip[c]
        for k in range(g.c_ip[c], g.c_ip[c + 1]):
            if not g.flags[g.c_ix[k]] & CAT_FORBIDDEN:
                cat_moves[c] += 1
        cat_from_ip[c + 1] = cat_from_ip[c]
        for k in range(g.c_rip[c], g.c_rip[c + 1]):
            if not g.flags[g.c_rix[k]] & CAT_FORBIDDEN:
                cat_from[cat_from_ip[c + 1]] = g.c_rix[k]
                cat_from_ip[c + 1] += 1
    moves.mouse = mouse_moves
    moves.cat = cat_moves
    moves.cat_from_ip = cat_from_ip
    moves.cat_from = cat_from
    if rem != NULL:
        memset(rem, 0xFF, <size_t> size * sizeof(int32_t))  # -1: never ends
    cdef int64_t inner = target
    if 0 <= target < nn:
        inner = (target % n) * n + target // n
    try:
        if width == 0:
            run(g, &moves, state, rem, <Packed *> NULL, &q, inner)
            if target < 0:
                for k in range(size):
                    state[k] &= 3  # drop the counts of undecided positions
        elif width == 1:
            run(g, &moves, state, rem, <uint8_t *> spent, &q, inner)
        elif width == 2:
            run(g, &moves, state, rem, <uint16_t *> spent, &q, inner)
        else:
            run(g, &moves, state, rem, <int32_t *> spent, &q, inner)
        if target >= 0:
            result = state[inner] & 3
        else:
            transpose_square(state, n)
            if rem != NULL:
                transpose_square(rem, n)
            for k in range(size):
                if state[k] == MOUSE_WIN or state[k] == CAT_WIN:
                    result += 1
    finally:
        queue_free(&q)
        PyMem_RawFree(block)
    return result


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


cdef int check_game(int32_t n, const uint8_t[::1] flags,
                    const int32_t[::1] mouse_indptr, const int32_t[::1] mouse_indices,
                    const int32_t[::1] mouse_rindptr, const int32_t[::1] mouse_rindices,
                    const int32_t[::1] cat_indptr, const int32_t[::1] cat_indices,
                    const int32_t[::1] cat_rindptr, const int32_t[::1] cat_rindices,
                    Game *g) except -1:
    """The entry checks every engine call makes; fills ``g`` with the pointers."""
    if n < 0 or n > 32767:
        raise ValueError(f"n = {n} is out of range: 2*n*n positions must fit in int32")
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
    """Solve every position of the game; see ``_retro_py.propagate``.

    This queue engine runs in one thread: ``threads`` is checked and otherwise
    ignored, and ``progress(decided)`` is called once, at the end.
    """
    check_threads(threads)
    # A typed C integer argument would take 2.7 as 2: accept integers only.
    result = _propagate(index(n), flags, mouse_indptr, mouse_indices, mouse_rindptr,
                        mouse_rindices, cat_indptr, cat_indices, cat_rindptr, cat_rindices,
                        outcome, remoteness, index(target))
    if progress is not None:
        progress(result if index(target) < 0 else 0)
    return result


def check_threads(threads):
    """A positive thread count, or TypeError/ValueError (as the twin)."""
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int, not {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    return threads


def peak_bytes(n, outcome, remoteness, target, threads=1):
    """Upper bound of the bytes ``propagate`` allocates itself (not the caller's buffers).

    Per position: a move counter of at most 4 bytes and at most 4 bytes of
    queue (each position is queued once), plus the outcome byte when the call
    has no outcome buffer of its own (a target search).
    """
    return 2 * n * n * (9 if target else 8)


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
):
    """Solve every position of the game; see ``_retro_py.propagate``."""
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
    cdef int64_t result
    with nogil:
        result = solve_game(&g, state, rem, target)
    return result


cdef class Board:
    """A game's arrays, checked once, for solving many positions without overhead.

    ``Board(n, flags, mouse_indptr, ..., cat_rindices)`` takes the first ten
    arguments of :func:`propagate` and makes the same checks.
    """

    cdef Game game
    cdef readonly int32_t n
    cdef object keep  # the buffers the pointers point into

    def __init__(self, int32_t n,
                 const uint8_t[::1] flags not None,
                 const int32_t[::1] mouse_indptr not None,
                 const int32_t[::1] mouse_indices not None,
                 const int32_t[::1] mouse_rindptr not None,
                 const int32_t[::1] mouse_rindices not None,
                 const int32_t[::1] cat_indptr not None,
                 const int32_t[::1] cat_indices not None,
                 const int32_t[::1] cat_rindptr not None,
                 const int32_t[::1] cat_rindices not None):
        check_game(n, flags, mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
                   cat_indptr, cat_indices, cat_rindptr, cat_rindices, &self.game)
        self.n = n
        self.keep = (flags, mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
                     cat_indptr, cat_indices, cat_rindptr, cat_rindices)

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
        if self.game.flags[c] & CAT_FORBIDDEN:
            return -1
        return (t * self.n + m) * <int64_t> self.n + c

    def solve(self, mouse, cat, turn=0):
        """Outcome code of one position (stopping early); -1 if it is not a position."""
        cdef int64_t target = self.target(mouse, cat, turn)
        cdef int64_t result
        if target < 0:
            return -1
        if self.n < 64:  # releasing the GIL costs more than a small solve
            return solve_game(&self.game, NULL, NULL, target)
        with nogil:
            result = solve_game(&self.game, NULL, NULL, target)
        return result


def solve_boards(list boards not None, mouse, cat, turn=0):
    """Outcome codes of one position on each board, solved in one call without the GIL.

    Returns a bytearray of codes; a board where ``(mouse, cat, turn)`` is not a
    position gets 255 (the caller reports the error).
    """
    cdef Py_ssize_t count = len(boards), i
    cdef Board board
    cdef Game *games = NULL
    cdef int64_t *targets = NULL
    cdef bytearray codes = bytearray(count)
    cdef uint8_t *out = codes
    if count == 0:
        return codes
    games = <Game *> PyMem_RawMalloc(<size_t> count * sizeof(Game))
    targets = <int64_t *> PyMem_RawMalloc(<size_t> count * sizeof(int64_t))
    try:
        if games == NULL or targets == NULL:
            raise MemoryError("cannot allocate the batch")
        for i in range(count):
            board = <Board?> boards[i]
            games[i] = board.game
            targets[i] = board.target(mouse, cat, turn)
        # ``boards`` holds every Board, so their buffers outlive the loop.
        with nogil:
            for i in range(count):
                if targets[i] < 0:
                    out[i] = 255
                else:
                    out[i] = <uint8_t> solve_game(&games[i], NULL, NULL, targets[i])
    finally:
        PyMem_RawFree(games)
        PyMem_RawFree(targets)
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


cdef int64_t fill_csr_small(list adjacency, int32_t n, int32_t *ip, int32_t *ix,
                            int64_t room, uint64_t *rows) except -2:
    """fill_csr for n <= 64, recording each node's neighbours as bits of ``rows[u]``."""
    cdef int32_t u
    cdef int64_t total = 0
    cdef long v
    cdef int overflow = 0
    cdef uint64_t bit, seen
    cdef object row, x
    ip[0] = 0
    for u in range(n):
        row = adjacency[u]
        if type(row) is not list:
            return -1
        if total + len(<list> row) > room:
            return -1
        seen = (<uint64_t> 1) << u  # a self-loop looks like a repeat
        for x in <list> row:
            if type(x) is not int:
                return -1
            v = PyLong_AsLongAndOverflow(x, &overflow)
            if overflow or v < 0 or v >= n:
                return -1
            bit = (<uint64_t> 1) << v
            if seen & bit:
                return -1
            seen |= bit
            ix[total] = <int32_t> v
            total += 1
        rows[u] = seen & ~((<uint64_t> 1) << u)
        ip[u + 1] = <int32_t> total
    return total


cdef bint symmetric_small(int32_t n, const int32_t *ip, const int32_t *ix,
                          const uint64_t *rows) noexcept nogil:
    """Whether every edge u->v has v->u, by the bit masks of fill_csr_small."""
    cdef int32_t u
    cdef int64_t k
    for u in range(n):
        for k in range(ip[u], ip[u + 1]):
            if not (rows[ix[k]] >> u) & 1:
                return False
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
    """
    if type(adjacency) is not list or len(<list> adjacency) > 32767:
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
    LISTS_LIMIT nodes, the mouse to move from ``(mouse, cat)`` and the hole the
    cat may not enter; declines anything else (the Python path then builds a
    ``Graph`` and reports any error).
    """
    cdef int overflow = 0
    cdef long m, c, h
    cdef int32_t n
    cdef int64_t total, result
    cdef uint8_t *flags = NULL
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
    flags = <uint8_t *> (seen + n + 1)
    cdef uint64_t[64] rows
    try:
        if n <= 64:
            # Small boards (every LeetCode one): each node's neighbours as a
            # bit mask, so duplicates and symmetry cost one bit test per entry.
            if fill_csr_small(adjacency, n, ip, ix, total, rows) != total:
                return -1
            if not symmetric_small(n, ip, ix, rows):
                return -1
        else:
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
        if n < 64:
            result = solve_game(&g, NULL, NULL, m * n + c)
        else:
            with nogil:
                result = solve_game(&g, NULL, NULL, m * n + c)
        return result
    finally:
        PyMem_RawFree(buffer)
