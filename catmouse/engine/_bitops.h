/* Portable bit operations and relaxed atomic flags for the bit-parallel engine (bits_c.pyx).
 *
 * gcc and clang have __builtin_ctzll / __builtin_popcountll and the __atomic builtins;
 * MSVC has _BitScanForward64 / __popcnt64 (x64 with /arch:AVX) and volatile accesses (x64 and
 * ARM64); anything
 * else gets plain C loops and no atomics (CM_HAVE_ATOMICS 0: the engine then runs one
 * thread whatever it is asked for).
 *
 * The atomics are relaxed loads and stores of stop flags: the engine orders its phases with
 * locks (a barrier per phase), and within a phase no two threads write the same word.
 */
#ifndef CATMOUSE_BITOPS_H
#define CATMOUSE_BITOPS_H

#include <stddef.h>
#include <string.h>
#include <stdint.h>

/* Bits set in x, by adding neighbouring counts in parallel (where no instruction does it). */
static inline int cm_popcount64_swar(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

#if defined(__GNUC__) || defined(__clang__)

static inline int cm_ctz64(uint64_t x) { return __builtin_ctzll(x); }
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
static inline int cm_popcount64(uint64_t x) { return __builtin_popcountll(x); }
#else
/* x86 without -mpopcnt: gcc would call libgcc's __popcountdi2; inline arithmetic is faster. */
static inline int cm_popcount64(uint64_t x) { return cm_popcount64_swar(x); }
#endif
#define CM_HAVE_ATOMICS 1
static inline int32_t cm_load32(const int32_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void cm_store_flag(int32_t *p, int32_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))

#include <intrin.h>
static inline int cm_ctz64(uint64_t x) {
    unsigned long index;
    _BitScanForward64(&index, x);
    return (int)index;
}
#if defined(_M_X64) && defined(__AVX__)
/* __popcnt64 is the POPCNT instruction, which x86-64 CPUs before 2008 lack (an illegal
 * instruction there): only where /arch:AVX or above already requires a newer CPU. */
static inline int cm_popcount64(uint64_t x) { return (int)__popcnt64(x); }
#else
static inline int cm_popcount64(uint64_t x) { return cm_popcount64_swar(x); }
#endif
#define CM_HAVE_ATOMICS 1
static inline int32_t cm_load32(const int32_t *p) { return *(const volatile int32_t *)p; }
static inline void cm_store_flag(int32_t *p, int32_t v) { *(volatile int32_t *)p = v; }

#else

static inline int cm_ctz64(uint64_t x) {
    int n = 0;
    while (!(x & 1)) { x >>= 1; ++n; }
    return n;
}
static inline int cm_popcount64(uint64_t x) { return cm_popcount64_swar(x); }
#define CM_HAVE_ATOMICS 0
static inline int32_t cm_load32(const int32_t *p) { return *p; }
static inline void cm_store_flag(int32_t *p, int32_t v) { *(volatile int32_t *)p = v; }

#endif

/* A 64-by-64 bit matrix transposed in place: bit j of a[i] becomes bit i of a[j].  Six stages;
 * stage d swaps the d-by-d blocks off the diagonal of every 2d-by-2d block.  gcc and clang
 * take the stages with d >= 2 two words at a time in 16-byte vectors (SSE2 on x86-64, NEON
 * on arm64, plain words where there are none): 74 ns a transpose against 110 word by word on
 * the x86-64 VM the engine is measured on. */
static inline void cm_transpose_stage(uint64_t *a, int d, uint64_t mask) {
    for (int k = 0; k < 64; k += 2 * d)
        for (int i = k; i < k + d; ++i) {
            uint64_t t = ((a[i] >> d) ^ a[i + d]) & mask;
            a[i + d] ^= t;
            a[i] ^= t << d;
        }
}
#if defined(__GNUC__) || defined(__clang__)
typedef uint64_t cm_pair __attribute__((vector_size(16)));
static inline void cm_transpose_pairs(uint64_t *a, int d, uint64_t mask) {
    const cm_pair m = {mask, mask};
    for (int k = 0; k < 64; k += 2 * d)
        for (int i = k; i < k + d; i += 2) {
            cm_pair x, y, t;
            memcpy(&x, a + i, 16);  /* (memcpy: the words need only 8-byte alignment) */
            memcpy(&y, a + i + d, 16);
            t = ((x >> d) ^ y) & m;
            y ^= t;
            x ^= t << d;
            memcpy(a + i, &x, 16);
            memcpy(a + i + d, &y, 16);
        }
}
#else
#define cm_transpose_pairs cm_transpose_stage
#endif
/* The bits set in the 64 words of ``tile`` (at most 4,096), and their OR into *any. */
static inline int cm_tile_bits(const uint64_t *tile, uint64_t *any) {
    int total = 0;
#if defined(__GNUC__) || defined(__clang__)
    const cm_pair m1 = {0x5555555555555555ULL, 0x5555555555555555ULL};
    const cm_pair m2 = {0x3333333333333333ULL, 0x3333333333333333ULL};
    const cm_pair m4 = {0x0F0F0F0F0F0F0F0FULL, 0x0F0F0F0F0F0F0F0FULL};
    const cm_pair m8 = {0x00FF00FF00FF00FFULL, 0x00FF00FF00FF00FFULL};
    cm_pair seen = {0, 0}, wide = {0, 0};
    for (int half = 0; half < 64; half += 32) {
        cm_pair bytes = {0, 0};  /* counts by byte: 16 pairs of words, at most 128 each */
        for (int i = half; i < half + 32; i += 2) {
            cm_pair x;
            memcpy(&x, tile + i, 16);
            seen |= x;
            x = x - ((x >> 1) & m1);
            x = (x & m2) + ((x >> 2) & m2);
            bytes += (x + (x >> 4)) & m4;
        }
        wide += (bytes & m8) + ((bytes >> 8) & m8);  /* by 16-bit lane */
    }
    *any |= seen[0] | seen[1];
    for (int lane = 0; lane < 2; ++lane)
        total += (int)((wide[lane] * 0x0001000100010001ULL) >> 48);
#else
    for (int i = 0; i < 64; ++i) {
        *any |= tile[i];
        total += cm_popcount64(tile[i]);
    }
#endif
    return total;
}

static inline void cm_transpose64(uint64_t *a) {
    cm_transpose_pairs(a, 32, 0x00000000FFFFFFFFULL);
    cm_transpose_pairs(a, 16, 0x0000FFFF0000FFFFULL);
    cm_transpose_pairs(a, 8, 0x00FF00FF00FF00FFULL);
    cm_transpose_pairs(a, 4, 0x0F0F0F0F0F0F0F0FULL);
    cm_transpose_pairs(a, 2, 0x3333333333333333ULL);
    cm_transpose_stage(a, 1, 0x5555555555555555ULL);
}

/* A pause in a spin-wait: lets the other hyperthread run and eases the memory bus while a
 * thread polls for its next phase.  A no-op where there is no such instruction. */
#if defined(_MSC_VER) && defined(_M_X64)
static inline void cm_pause(void) { _mm_pause(); }
#elif (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
static inline void cm_pause(void) { __builtin_ia32_pause(); }
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
static inline void cm_pause(void) { __asm__ __volatile__("yield"); }
#else
static inline void cm_pause(void) { }
#endif

/* A hint that a line is about to be written: the remoteness planes' words are far apart,
 * and a few misses in flight at once cost about one.  A no-op where there is no builtin. */
static inline void cm_prefetch_w(const void *p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 1, 3);
#else
    (void)p;
#endif
}

#if defined(__linux__)
#include <sys/mman.h>
#include <stdio.h>
#if !defined(MADV_POPULATE_WRITE)
#define MADV_POPULATE_WRITE 23 /* (Linux 5.14; older headers lack it, older kernels refuse it) */
#endif
#if !defined(MADV_COLLAPSE)
#define MADV_COLLAPSE 25 /* (Linux 6.1; the same) */
#endif
/* ``advice`` for the whole ``unit``-byte units (a power of two) inside [start, start + size);
 * a refusal is ignored: every advice here is a hint. */
static inline void cm_madvise_inside(void *start, size_t size, uintptr_t unit, int advice) {
    uintptr_t first = ((uintptr_t)start + unit - 1) & ~(unit - 1);
    uintptr_t end = ((uintptr_t)start + size) & ~(unit - 1);
    if (end > first)
        (void)madvise((void *)first, (size_t)(end - first), advice);
}

/* Whether the system's transparent huge pages are on at all ("always" or "madvise", not
 * "never", nor a kernel without them).  MADV_COLLAPSE ignores that setting, so the engine
 * asks first.  Read once (threads racing here read the same answer). */
static int cm_huge_pages_on(void) {
    static int on = -1;
    if (on < 0) {
        char text[128] = {0};
        FILE *file = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
        size_t got = 0;
        if (file != NULL) {
            got = fread(text, 1, sizeof text - 1, file);
            fclose(file);
        }
        on = got > 0 && strstr(text, "[never]") == NULL;
    }
    return on;
}
#endif

/* Huge pages for a big table not yet touched (Linux's transparent huge pages in their
 * "madvise" mode): its first writes then fault 2 MiB at a time instead of 4 KiB, each fault
 * a trip through the kernel (a 72 MB table: about 17,500 faults fewer).  A hint only: a
 * no-op elsewhere, and harmless on pages already touched. */
static inline void cm_advise_huge(void *start, size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    uintptr_t unit = (uintptr_t)1 << 21, at = (uintptr_t)start, end = at + size;
    uintptr_t head = at & ~(unit - 1), tail = end & ~(unit - 1);
    cm_madvise_inside(start, size, unit, MADV_HUGEPAGE);
    /* The huge pages the table only partly covers, at its ends, hold the allocator's own words
     * (the chunk's header before the table, the next chunk's after it), written before the
     * hint: a page of each is in, so the table's part of it faults 4 KiB at a time (up to 512
     * faults, about 1.1 ms on the project's VM, where a whole huge page's fault costs 0.1).
     * Such a page is collapsed into a huge page now instead, contents kept (Linux 6.1; refused
     * elsewhere, and where the mapping does not cover the whole huge page), when the table
     * covers at least half of it: the rest becomes resident too, so that is at most 1 MiB a
     * table's end that the memory guard does not count. */
    if (size >= 2 * unit && cm_huge_pages_on()) {
        if (head != at && head + unit - at >= unit / 2)
            (void)madvise((void *)head, unit, MADV_COLLAPSE);
        if (tail != end && end - tail >= unit / 2)
            (void)madvise((void *)tail, unit, MADV_COLLAPSE);
    }
#else
    (void)start;
    (void)size;
#endif
}

/* Fault in the whole pages of [start, start + size) for writing, keeping what they hold
 * (Linux 5.14 and later: MADV_POPULATE_WRITE); elsewhere, or on older kernels, a no-op: the
 * pages are then faulted in by their first writes, as without it. */
static inline void cm_populate(void *start, size_t size) {
#if defined(__linux__)
    cm_madvise_inside(start, size, 4096, MADV_POPULATE_WRITE);
#else
    (void)start;
    (void)size;
#endif
}

#endif /* CATMOUSE_BITOPS_H */
