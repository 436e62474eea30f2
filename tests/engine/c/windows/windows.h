/* A stand-in for the Windows SDK's <windows.h>, as far as the engine's headers see it: the
 * clock _clocks.h reads, and the macros the real header brings in that break C which names
 * a member `small`, `min` or `max` (as the Cython code of Board and ListCrew does).  Without
 * WIN32_LEAN_AND_MEAN the SDK's windows.h includes ole2.h -> objbase.h -> rpcndr.h, which has
 * `#define small char`; without NOMINMAX, windef.h defines min() and max().  Not the SDK. */
#ifndef CATMOUSE_TEST_WINDOWS_H
#define CATMOUSE_TEST_WINDOWS_H
#include <stdint.h>
#ifndef WIN32_LEAN_AND_MEAN
#define small char
#endif
#ifndef NOMINMAX
#define min(a, b) (((a) < (b)) ? (a) : (b))
#define max(a, b) (((a) > (b)) ? (a) : (b))
#endif
typedef union { struct { uint32_t LowPart; int32_t HighPart; } u; long long QuadPart; } LARGE_INTEGER;
static inline int QueryPerformanceCounter(LARGE_INTEGER *t) { t->QuadPart = 123456789; return 1; }
static inline int QueryPerformanceFrequency(LARGE_INTEGER *f) { f->QuadPart = 10000000; return 1; }
#endif
