/* The k-cops crew's clock and atomics (cops_crew.pxi), callable without the GIL.
 *
 * cm_clock_ns: a monotonic clock (the crew times its barrier waits with it).
 * cm_fetch_or64, cm_swap8: relaxed atomic read-modify-writes; the crew's threads OR their
 * gains into one shared table and claim each grown row once.  The phases are ordered by
 * locks, so relaxed order is enough.  Where _bitops.h has no atomics (CM_HAVE_ATOMICS 0)
 * these are plain and the crew is never started.
 */
#ifndef CATMOUSE_CREW_H
#define CATMOUSE_CREW_H
#include <stdint.h>
#include "_bitops.h"

#ifdef _WIN32
#include <windows.h>
static inline int64_t cm_clock_ns(void) {
    LARGE_INTEGER now, freq;
    QueryPerformanceCounter(&now);
    QueryPerformanceFrequency(&freq);
    return (int64_t)((double)now.QuadPart * 1e9 / (double)freq.QuadPart);
}
#else
#include <time.h>
static inline int64_t cm_clock_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}
#endif

#if defined(__GNUC__) || defined(__clang__)
static inline uint64_t cm_load64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline uint64_t cm_fetch_or64(uint64_t *p, uint64_t v) {
    return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
}
static inline uint8_t cm_swap8(uint8_t *p, uint8_t v) {
    return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
static inline uint64_t cm_load64(const uint64_t *p) { return *(const volatile uint64_t *)p; }
static inline uint64_t cm_fetch_or64(uint64_t *p, uint64_t v) {
    return (uint64_t)_InterlockedOr64((volatile __int64 *)p, (__int64)v);
}
static inline uint8_t cm_swap8(uint8_t *p, uint8_t v) {
    return (uint8_t)_InterlockedExchange8((volatile char *)p, (char)v);
}
#else
static inline uint64_t cm_load64(const uint64_t *p) { return *p; }
static inline uint64_t cm_fetch_or64(uint64_t *p, uint64_t v) {
    uint64_t old = *p;
    *p = old | v;
    return old;
}
static inline uint8_t cm_swap8(uint8_t *p, uint8_t v) {
    uint8_t old = *p;
    *p = v;
    return old;
}
#endif
#endif
