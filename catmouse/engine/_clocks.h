/* The engine's clocks, in nanoseconds, callable without the GIL: a monotonic wall clock
 * (cm_wall_ns) and the calling thread's CPU time (cm_thread_ns).
 *
 * The general crew paces itself by both (pace.pxi); the k-cops crew times its barrier waits by
 * the wall clock (cops_crew.pxi).  CLOCK_THREAD_CPUTIME_ID counts only the time this thread
 * ran: a thread that waited for a CPU (another process had it, or a cgroup quota was spent) is
 * not charged for the wait.  -1 where the platform has no such clock (Windows has no thread
 * CPU clock here: CM_HAVE_PACE_CLOCKS 0, and the general crew keeps the threads asked for).
 */
#ifndef CATMOUSE_CLOCKS_H
#define CATMOUSE_CLOCKS_H

#include <stdint.h>

#ifdef _WIN32
/* The lean header: the full one includes rpcndr.h (through ole2.h), whose `#define small char`
 * breaks the generated C that follows (Board and ListCrew have members named `small`), and
 * windef.h's min() and max() macros.  Only QueryPerformanceCounter is needed here. */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#ifdef small
#undef small
#endif
#define CM_HAVE_PACE_CLOCKS 0
static inline int64_t cm_wall_ns(void) {
    LARGE_INTEGER now, freq;
    QueryPerformanceCounter(&now);
    QueryPerformanceFrequency(&freq);
    return (int64_t)((double)now.QuadPart * 1e9 / (double)freq.QuadPart);
}
static inline int64_t cm_thread_ns(void) { return -1; }
#else
#include <time.h>
static inline int64_t cm_clock_read(clockid_t clock) {
    struct timespec t;
    if (clock_gettime(clock, &t) != 0)
        return -1;
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}
static inline int64_t cm_wall_ns(void) { return cm_clock_read(CLOCK_MONOTONIC); }
#if defined(CLOCK_THREAD_CPUTIME_ID)
#define CM_HAVE_PACE_CLOCKS 1
static inline int64_t cm_thread_ns(void) { return cm_clock_read(CLOCK_THREAD_CPUTIME_ID); }
#else
#define CM_HAVE_PACE_CLOCKS 0
static inline int64_t cm_thread_ns(void) { return -1; }
#endif
#endif

#endif
