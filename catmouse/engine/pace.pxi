# Included by bits_c.pyx (before tables.pxi). Pacing the general crew: threads only while they
# pay.
#
# The crew meets at a barrier after every phase, so a helper that does not get a CPU (another
# process has it, or the cgroup's quota is spent) holds every thread up; on a 2-vCPU VM whose
# cores were shared, analyze of a sparse 3000-node graph took 1.11 times as long on two threads
# as on one.  So the calling thread measures each threaded phase: its wall time, from handing
# out the shares to the last one done, and the CPU time every thread spent on its share (the
# thread's own CPU clock: time spent waiting for a CPU is not counted).  Their ratio is the
# CPUs the crew really had: one thread alone has at most one, and sharing caches costs two
# threads some of theirs, so a crew that had few more than one loses to one thread.
#
# - The first window of WINDOW_NS of threaded phases (the first rounds) with fewer than
#   START_PERCENT / 100: the search starts again on one thread, with one thread's tables,
#   losing those milliseconds (a few per cent of a call that takes threads at all: 1024 nodes
#   and up).  The seeding is not judged: it starts with the first touch of the tables'
#   pages (tables.pxi, first_touch; dealt to the threads by chunks), and the kernel's work
#   on page faults can fall on one thread.  Where each thread wrote its own rows first,
#   one thread's share of the seeding or of round 1 took 6 to 15 ms in some calls against
#   the other's 1 to 2, and the window saw about 1.15 CPUs where the rounds after it had 1.7
#   to 1.9.
# - A later window with fewer than ALONE_PERCENT / 100 (the machine got busy during the
#   search): the calling thread runs every share itself, in turn, and the helpers sleep on
#   their locks.  Every share is the same work whichever thread runs it, so the tables do not
#   change, but the shares cost one thread 10% to 15% more than one thread's own tables would
#   (the threads' change masks are read for every row), hence the lower bar.  After BACKOFF_NS
#   of that (doubling after each try that fails again) the crew tries its threads again: the
#   machine may have quietened.
#
# Where the platform has no thread CPU clock (_clocks.h), nothing is measured and the crew keeps
# its threads.

cdef extern from "_clocks.h" nogil:
    int CM_HAVE_PACE_CLOCKS
    int64_t cm_thread_ns()
    int64_t cm_wall_ns()


cdef enum:
    # Wall time of threaded phases judged together: long enough that a time slice lost to
    # another process or an interrupt is not mistaken for the machine's state, short next to
    # the calls threads are used for (1024 nodes and up: 2 million positions; analyze of a
    # sparse 3000-node graph takes about 150 ms on one thread).
    WINDOW_NS = 5000000
    # The threads keep going while they had at least 1.2 CPUs between them (busy / wall) in
    # the first window: on free cores two threads show at least their speedup (1.58 for this
    # analyze, whose CPU time on one thread is about its wall time), beside a second process
    # spinning on the other CPU about 1 (the helper gets half a CPU and the other thread waits
    # for it), in a 1.2-CPU quota at most 1.2.
    START_PERCENT = 120
    # Later, while they had at least one: below that the threads lose even to the shares run
    # alone.
    ALONE_PERCENT = 100
    # One thread's time before the first try of the threads again; doubled after each try
    # that fails, so tries cost a few windows in all however long the search.
    BACKOFF_NS = 100000000
    # What general_run returns when the first window asks to start again on one thread.
    START_ALONE = -3


cdef struct Pace:
    bint solo              # the calling thread runs every share (the helpers sleep)
    bint judged            # a window has been judged (a failing one no longer restarts)
    bint restart           # the first window failed: start again on one thread
    # Never start again: progress was reported (it would go back), or the search is done
    # (only the tables are left to write).
    bint keep
    int64_t wall           # the window so far: wall time of threaded phases
    int64_t busy           # and the CPU time all threads spent on their shares in them
    int64_t solo_wall      # wall time alone since the last fallback
    int64_t backoff        # alone this long before trying the threads again
    bint trying            # the window under way is a try of the threads after a fallback
    double first_cpus      # busy / wall of the first window judged (for _pace_counts)
    int32_t restarts       # (counts for the tests: _pace_counts)
    int32_t fallbacks
    int32_t tries


# For the tests (_pace_test): 0 measures; 1 acts as if the helpers never had a CPU, judging
# after every phase (so the search starts again on one thread); 2 never falls back; 3 lets
# the first window pass, then acts as 1 but tries the threads again after every phase alone
# (so a search switches back and forth all through); 4 acts as 1 only in the phases that
# write the tables once the search is done (too late to start again).
cdef int pace_mode = 0
# The counts of the last general solve that had threads, for the tests.
cdef Pace last_pace


def _pace_test(mode):
    """Set the pacing's test mode (0: measure, 1: helpers starved, 2: never alone, 3: starved
    after the first window, 4: starved once the search is done); returns the previous one.
    Private: for the tests."""
    global pace_mode
    previous = pace_mode
    if mode not in (0, 1, 2, 3, 4):
        raise ValueError(f"pace mode must be 0 to 4, not {mode!r}")
    pace_mode = mode
    return previous


def _pace_counts():
    """(restarts on one thread, fallbacks to one thread, tries of the threads again, the
    CPUs the first window saw or 0.0) of the last threaded general solve in this process.
    Private: for the tests and benchmarks."""
    return last_pace.restarts, last_pace.fallbacks, last_pace.tries, last_pace.first_cpus


cdef inline bint pace_can_measure() noexcept nogil:
    return CM_HAVE_PACE_CLOCKS != 0 or pace_mode != 0


cdef void pace_start(Pace *p) noexcept nogil:
    memset(p, 0, sizeof(Pace))
    p.backoff = BACKOFF_NS


cdef void pace_threaded(Pace *p, int64_t wall, int64_t busy, bint writing) noexcept nogil:
    """After a threaded phase of ``wall`` ns in which the threads' shares took ``busy`` ns
    of CPU (``writing``: a phase that writes the tables once the search is done): judge the
    window once it is long enough."""
    if pace_mode == 2 or not pace_can_measure() or (pace_mode == 4 and not writing):
        return
    if pace_mode == 4:
        busy = 0
        wall = WINDOW_NS
    if pace_mode == 1 or (pace_mode == 3 and p.judged):
        busy = 0
        wall = WINDOW_NS
    elif pace_mode == 3:
        busy = 2 * WINDOW_NS
        wall = WINDOW_NS
    p.wall += wall
    p.busy += busy
    if p.wall < WINDOW_NS:
        return
    if not p.judged:
        p.first_cpus = <double> p.busy / p.wall
    if p.busy * 100 < p.wall * START_PERCENT and not p.judged and not p.keep:
        p.restart = True
        p.restarts += 1
    elif p.busy * 100 < p.wall * (START_PERCENT if p.trying else ALONE_PERCENT):
        if p.trying:
            p.backoff *= 2
        p.solo = True
        p.fallbacks += 1
        p.solo_wall = 0
    elif p.trying:
        p.backoff = BACKOFF_NS  # the threads pay again: a later fallback starts afresh
    p.trying = False
    p.judged = True
    p.wall = 0
    p.busy = 0


cdef void pace_alone(Pace *p, int64_t wall) noexcept nogil:
    """After a phase run alone for ``wall`` ns: try the threads again once it is time."""
    p.solo_wall += wall
    if p.solo_wall < p.backoff and pace_mode != 3:
        return
    p.solo = False
    p.trying = True
    p.tries += 1


def _pace_replay(phases):
    """The verdict after each of ``phases``, (wall ns, CPU ns of the shares) pairs fed to a
    fresh pacing as the crew would (the CPU time is ignored for phases run alone): "threads",
    "alone" or "restart" (then it stops).  Private: for the tests of the policy."""
    cdef Pace p
    verdicts = []
    pace_start(&p)
    for wall, busy in phases:
        if p.solo:
            pace_alone(&p, wall)
        else:
            pace_threaded(&p, wall, busy, False)
        verdicts.append("restart" if p.restart else "alone" if p.solo else "threads")
        if p.restart:
            break
    return verdicts
