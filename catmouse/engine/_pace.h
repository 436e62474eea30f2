/* Clocks for the general crew's pacing (pace.pxi): the calling thread's CPU time and a
 * monotonic wall clock, in nanoseconds; -1 where the platform has no such clock (then the
 * crew never falls back on its own: the thread count asked for is used throughout).
 *
 * CLOCK_THREAD_CPUTIME_ID counts only the time this thread ran: a thread that waited for a
 * CPU (another process had it, or a cgroup quota was spent) is not charged for the wait.
 */
#ifndef CATMOUSE_PACE_H
#define CATMOUSE_PACE_H

#include <stdint.h>
#if !defined(_WIN32)
#include <time.h>
#endif

#if !defined(_WIN32) && defined(CLOCK_THREAD_CPUTIME_ID) && defined(CLOCK_MONOTONIC)
#define CM_HAVE_PACE_CLOCKS 1
static inline int64_t cm_clock_ns(clockid_t clock) {
    struct timespec t;
    if (clock_gettime(clock, &t) != 0)
        return -1;
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}
static inline int64_t cm_thread_ns(void) { return cm_clock_ns(CLOCK_THREAD_CPUTIME_ID); }
static inline int64_t cm_wall_ns(void) { return cm_clock_ns(CLOCK_MONOTONIC); }
#else
#define CM_HAVE_PACE_CLOCKS 0
static inline int64_t cm_thread_ns(void) { return -1; }
static inline int64_t cm_wall_ns(void) { return -1; }
#endif

#endif
