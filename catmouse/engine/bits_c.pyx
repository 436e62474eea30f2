# cython: language_level=3
"""The retrograde engine in Cython: round-synchronous and bit-parallel.

Same contract as the pure twin ``bits_py`` (see ENGINE_CONTRACT): the same
checks (``checks.py``, which both twins import), the same tables bit for bit.  Compiler
directives are set once in ``setup.py``.  This file holds the declarations every part shares;
the parts, one job each, are included at the end: ``small.pxi`` (n <= 64), ``tables.pxi``,
``remoteness.pxi``, ``scatter.pxi`` and ``rounds.pxi`` (any n), ``crew.pxi`` (threads,
Ctrl-C) with ``pace.pxi`` (threads only while they pay), ``entry.pxi``
(propagate, peak_bytes, Table), ``boards.pxi`` (Board, solve_boards), ``lists.pxi`` (plain lists),
``batch.pxi`` (batches of plain lists across threads), and ``cops.pxi``, ``cops_tables.pxi``
(its tables), ``cops_wide.pxi``, ``cops_crew.pxi`` (its threads) with ``cops_entry.pxi`` (the
game of k cops: the cop number).

The search.  Round k decides exactly the positions of remoteness k, from what
rounds 0..k-1 decided: a position is won for its mover if some move reaches a
position won for the mover, lost if every move reaches a position won for the
opponent.  Rows of bits make both a whole-row operation: with rows indexed by
the mouse node and bits by the cat node, the mouse's "some move" is an OR of the
rows of its moves and "every move" an AND; the cat's step wants rows indexed
by the cat node.  So each turn's results are kept in the orientation its
predecessors read, and the new bits of each round are scattered into it:

- mouse to move: ``D0`` (decided, rows by mouse) for the mouse's own step;
  ``MW0T``, ``CW0T`` (mouse / cat wins, rows by cat) read by the cat's step;
- cat to move: ``D1T`` (decided, rows by cat) for the cat's own step;
  ``MW1``, ``CW1`` (rows by mouse) read by the mouse's step; ``FC``, ``FM``
  hold the cat step's new bits until the mouse step of the same round has read
  the old ``MW1``/``CW1`` (that keeps the rounds synchronous).

That is 8 bit tables: n*n bytes, half a byte per position, and no move
counters.  Only what changed is recomputed: each round records which 64-bit
words of which rows gained bits; a row is queued (a FIFO list over a C array,
one per thread, a row at most once per round, filled in row order) when
one of its moves' rows changed, and only the changed words are recomputed (all
of them, as contiguous loops four words at a time, when half or more changed or
the row has at most DENSE words).  New bits reach
the other orientation through 64x64 bit tiles transposed in registers, one
destination word per row and round rather than one per bit; the outcome table
is written at the end from the bit tables; remoteness is kept as bit-planes of each
position's round during the search, in the caller's buffer or, for an int32 table, in planes
of the engine's own written out at the end (``remoteness.pxi``).
The answers depend on the move arrays alone: when the reverse arrays are not
their reverse (the raw entry does not check it), every row is recomputed every
round instead of trusting the work-list.

Threads: each owns a contiguous range of 64-row blocks (owner_of), so a thread's
scatter writes only words no other thread writes, and a line another thread
writes only at the ends of its range; a round is two phases (the
cat's step, then the mouse's) with a barrier each, made of CPython locks.  Each
thread marks changes in change masks of its own, which the readers OR, so no
word is written by two threads and no atomic read-modify-write is needed.

Graphs of at most 64 nodes (every LeetCode board) take another path: a row is
one word, a set of rows is one word, the whole game lives on the stack, and
``Board`` precomputes the move masks once.
"""

from cpython.array cimport array, clone
from cpython.buffer cimport (
    PyBUF_C_CONTIGUOUS,
    PyBUF_FORMAT,
    PyBuffer_FillInfo,
    PyBuffer_Release,
    PyObject_GetBuffer,
)
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.mem cimport PyMem_RawCalloc, PyMem_RawFree, PyMem_RawMalloc
from cpython.pyport cimport PY_SSIZE_T_MAX
from cpython.pythread cimport (
    PyThread_acquire_lock,
    PyThread_allocate_lock,
    PyThread_free_lock,
    PyThread_release_lock,
    PyThread_type_lock,
)
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from operator import index
from time import monotonic

from catmouse.engine.cpus import usable_cpus
from catmouse.engine.planes import over_max_memory

cdef extern from "Python.h":
    # Declared without ``except``: the engine handles the error (it stops its threads first).
    int check_signals "PyErr_CheckSignals" ()

cdef extern from "_bitops.h" nogil:
    int cm_ctz64(uint64_t x)
    int cm_popcount64(uint64_t x)
    int CM_HAVE_ATOMICS
    int32_t cm_load32(const int32_t *p)
    void cm_store_flag(int32_t *p, int32_t v)
    void cm_advise_huge(void *start, size_t size)
    void cm_populate(void *start, size_t size)
    void cm_prefetch_w(const void *p)
    void cm_transpose64(uint64_t *a)
    int cm_tile_bits(const uint64_t *tile, uint64_t *any)
    void cm_pause()

cdef enum:
    # Per-node flags and outcome codes: the same values as in bits_py.
    HOLE = 1
    CAT_FORBIDDEN = 2
    CAT_GOAL = 4
    MOUSE_WIN = 1
    CAT_WIN = 2
    NO_POSITION = 3
    MAX_NODES = 65535
    # Word operations between two polls for Ctrl-C by the main thread (about a millisecond).
    POLL_WORK = 1 << 20
    # A queued row of at most DENSE words is recomputed whole; a longer one whole
    # (contiguous loops, four words at a time) when at least 1/DENSE_SHARE of its words
    # changed, else a changed word at a time.
    DENSE = 4
    DENSE_SHARE = 2
    # A word with at most this many new bits is thin: its bits are scattered one by one
    # (the mouse step's at once, the cat step's from the thin lists) rather than through
    # 64x64 tiles, whose scan costs more than a few bits.
    THIN_WORD = 2
    # Remoteness planes' words written this many later than found (a power of two).  On
    # an AMD EPYC VM 64 against 16: the grid 0.94-0.95, sparse 3000 nodes 0.97-0.98 (paired);
    # on an Intel Xeon 0.99-1.00; 128: the grid 1.00, sparse 3000 1.04.
    PENDING = 64
    # Layers of remoteness planes at most (8 bits each: int32 rounds need 4).
    MAX_LAYERS = 4
    # Largest graph solve_lists takes on (the Python path checks memory for bigger ones).
    LISTS_MAX_NODES = 1024
    # Phases of a round, as commands to the worker threads.
    PHASE_CAT = 0
    PHASE_MOUSE = 1
    PHASE_OUTPUT = 2
    PHASE_EXIT = 3
    PHASE_SEED = 4
    # First touches are dealt to the threads in chunks of this many bytes (a huge page).
    TOUCH_CHUNK = 1 << 21
    # From this size on a table is worth the huge-page hint (smaller ones come from the heap).
    HUGE_TABLE = 1 << 22

# The entry points' version this module was built for (facts.ENGINE_API when it was built;
# a literal, as engine.load compares it with the sources' own).
ENGINE_API = 1

# The C enum's facts, for the test that pins them to catmouse.engine.facts.
ENUM = {"HOLE": HOLE, "CAT_FORBIDDEN": CAT_FORBIDDEN, "CAT_GOAL": CAT_GOAL,
        "MOUSE_WIN": MOUSE_WIN, "CAT_WIN": CAT_WIN, "NO_POSITION": NO_POSITION,
        "MAX_NODES": MAX_NODES, "LISTS_MAX_NODES": LISTS_MAX_NODES}

cdef uint64_t ONES = ~(<uint64_t> 0)


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
    # Whether the reverse arrays list the moves' reverse (reverse_matches): 0 not known, each
    # search checks; 1 they do, -1 they do not (a Board finds out once).
    int32_t reverse

# The engine by job, one file each (read in this order).
include "small.pxi"
include "pace.pxi"
include "tables.pxi"
include "remoteness.pxi"
include "scatter.pxi"
include "rounds.pxi"
include "crew.pxi"
include "entry.pxi"
include "boards.pxi"
include "lists.pxi"
include "batch.pxi"
include "cops.pxi"
include "cops_tables.pxi"
include "cops_crew.pxi"
include "cops_wide.pxi"
include "cops_entry.pxi"
