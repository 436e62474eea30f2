# Included by bits_c.pyx. Entry points: argument checks, propagate, peak_bytes; Table, the
# tables they write.

from catmouse.engine.checks import check_arrays, check_more_bytes, check_planes, check_threads

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


cdef int check_n(object n) except -1:
    if not 0 <= n <= MAX_NODES:
        raise ValueError(f"n = {n} is out of range: the engine takes 0 to {MAX_NODES} nodes")
    return 0


cdef int check_game(int32_t n, const uint8_t[::1] flags,
                    const int32_t[::1] mouse_indptr, const int32_t[::1] mouse_indices,
                    const int32_t[::1] mouse_rindptr, const int32_t[::1] mouse_rindices,
                    const int32_t[::1] cat_indptr, const int32_t[::1] cat_indices,
                    const int32_t[::1] cat_rindptr, const int32_t[::1] cat_rindices,
                    Game *g) except -1:
    """The entry checks every engine call makes; fills ``g`` with the pointers."""
    check_n(n)
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
    g.reverse = 0
    return 0


def propagate(n, flags, mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
              cat_indptr, cat_indices, cat_rindptr, cat_rindices,
              outcome=None, remoteness=None, target=-1, *, threads=1, progress=None,
              planes=None, more_planes=None, more_bytes=None):
    """Solve every position of the game (or one, ``target``); see ENGINE_CONTRACT.

    Planes mode: ``planes`` (a writable byte buffer of one layer, planes.layer_bytes(n), with
    ``outcome`` and without ``remoteness``) gets the remoteness as bit-planes in the format
    of catmouse/engine/planes.py; a search past round 255 appends each further layer to the
    list ``more_planes`` as bytes.  ``more_bytes`` (None: no limit) caps the bytes of those
    layers: a search that would make one past it (as round 256**L starts) raises MemoryError.

    >>> from array import array
    >>> ip, ix = array("i", [0, 1, 2]), array("i", [1, 0])
    >>> out = bytearray(8)
    >>> propagate(2, bytes(2), ip, ix, ip, ix, ip, ix, ip, ix, out)
    8
    """
    # A typed C integer argument would take 2.7 as 2: accept integers only.
    n = index(n)
    check_n(n)
    check_threads(threads)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable or None, not {type(progress).__name__}")
    planes = check_planes(n, outcome, remoteness, planes, more_planes)
    more_bytes = check_more_bytes(more_bytes)
    try:
        return _propagate(n, flags, mouse_indptr, mouse_indices, mouse_rindptr,
                          mouse_rindices, cat_indptr, cat_indices, cat_rindptr, cat_rindices,
                          outcome, remoteness, index(target), threads, progress,
                          planes.cast("B") if planes is not None else None, more_planes,
                          more_bytes)
    except (BufferError, TypeError, ValueError) as error:
        # Cython's buffer conversion words its errors by exporter (a strided memoryview gives
        # BufferError, a read-only one ValueError): on the way out, let the twin's checks
        # name the argument, so both engines refuse bad arrays with the same error.
        check_arrays(n, flags, (mouse_indptr, mouse_indices, mouse_rindptr, mouse_rindices,
                                cat_indptr, cat_indices, cat_rindptr, cat_rindices),
                     outcome, remoteness, target)
        if isinstance(error, BufferError):  # the twin reads what C cannot (a strided index)
            raise ValueError(str(error)) from None
        raise


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
    int64_t threads=1,
    object progress=None,
    uint8_t[::1] planes=None,
    list more_planes=None,
    int64_t more_bytes=-1,
):
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
    cdef int64_t result, layer = layer_size(n)
    cdef uint64_t *words = NULL
    cdef void *aligned = NULL
    if planes is None or not size:
        return solve_game(&g, state, rem, target, threads, progress)
    if planes.shape[0] != layer or remoteness is not None or outcome is None:
        raise ValueError(f"planes buffer has {planes.shape[0]} bytes, expected {layer}, "
                         f"with an outcome buffer and no remoteness buffer")
    words = <uint64_t *> &planes[0]
    try:
        if (<uintptr_t> words) % 8:
            # The search reads and writes the planes as words: an unaligned buffer gets an
            # aligned copy.
            aligned = PyMem_RawMalloc(<size_t> layer)
            if aligned == NULL:
                raise MemoryError(f"cannot allocate {layer} bytes for the remoteness planes")
            words = <uint64_t *> aligned
        result = solve_game(&g, state, rem, target, threads, progress, words, more_planes,
                            more_bytes)
        if aligned != NULL:
            memcpy(&planes[0], aligned, <size_t> layer)
        return result
    finally:
        PyMem_RawFree(aligned)


def peak_bytes(n, outcome, remoteness, target, threads=1, planes=False):
    """Bytes this engine allocates itself for such a call (the caller's buffers not counted).

    Exact for the layout: games of at most 64 nodes live on the stack (0); bigger ones
    take one block of eight n-by-n bit tables (half a byte per position) and
    per-node and per-thread lists, and with an int32 ``remoteness`` table (not ``planes``)
    a layer of remoteness planes (about a byte a position), written out at the end.
    ``planes``: the caller gives layer 0; the layers a search past round 255 allocates
    (a layer each 256 ** L rounds) are not counted, nor is an aligned copy of layer 0 made
    when the caller's buffer is not 8-byte aligned.

    >>> peak_bytes(50, True, True, False)
    0
    """
    n = index(n)
    check_n(n)
    check_threads(threads)
    if n <= 64:
        return 0
    own = layer_size(n) if remoteness and not planes else 0
    return layout_bytes(n, general_threads(n, threads)) + own


cdef class Table:
    """A zeroed table of ``size`` bytes for an engine call to write, then immutable bytes.

    ``view()`` is a writable memoryview; ``take()`` hands over the bytes without a copy,
    once every view is released (else BufferError), and the table is empty after it.
    The bytes come from ``bytes(size)``, whose big blocks are fresh zero pages from
    ``calloc``, untouched: on Linux they get the huge-page hint, so the engine's first
    writes fault 2 MiB at a time (the remoteness table of a 3,000-node graph is 72 MB).
    Until ``take()`` nothing else holds them: filling a new bytes object before anyone
    sees it is how C builds bytes.

    ``zeroed=False``: for a call that writes every byte (the outcome table), the bytes are
    left as the allocator gives them.  In a loop of analyses the allocator hands back the
    last call's freed tables, which ``calloc`` would clear first (1.7% of analyze of a
    sparse 3,000-node graph).

    >>> table = Table(3)
    >>> with table.view() as view:
    ...     view[1] = 7
    >>> table.take()
    b'\\x00\\x07\\x00'
    """

    cdef object data
    cdef Py_ssize_t views

    def __cinit__(self, Py_ssize_t size, bint zeroed=True):
        if size < 0:
            raise ValueError(f"a table of {size} bytes")
        self.data = bytes(size) if zeroed else PyBytes_FromStringAndSize(NULL, size)
        if size >= HUGE_TABLE:
            cm_advise_huge(PyBytes_AS_STRING(self.data), <size_t> size)

    def __getbuffer__(self, Py_buffer *buffer, int flags):
        if self.data is None:
            raise BufferError("the table was taken")
        PyBuffer_FillInfo(buffer, self, PyBytes_AS_STRING(self.data),
                          PyBytes_GET_SIZE(self.data), 0, flags)
        self.views += 1

    def __releasebuffer__(self, Py_buffer *buffer):
        self.views -= 1

    def view(self):
        """A writable memoryview of the whole table."""
        return memoryview(self)

    def take(self):
        """The table as bytes (no copy); BufferError while a view is alive."""
        if self.views:
            raise BufferError("the table still has a view")
        if self.data is None:
            raise BufferError("the table was taken")
        data, self.data = self.data, None
        return data
