/* Checks one branch of catmouse/engine/_bitops.h against plain loops; prints "ok <branch>" or fails.
 * tests/engine/test_bitops.py compiles it once per branch (gcc/clang builtins, the portable C loops,
 * and the MSVC branch over stand-in intrinsics from tests/engine/c/msvc/intrin.h). */
#include <stdio.h>
#include <stdint.h>
#ifdef CM_OTHER_COMPILER  /* after the system headers, which need to know it is gcc */
#undef __GNUC__
#undef __clang__
#endif
#include "_bitops.h"
#undef long  /* set by the MSVC stand-ins for the branch alone */

static int slow_ctz(uint64_t x) { int n = 0; while (!((x >> n) & 1)) ++n; return n; }
static int slow_popcount(uint64_t x) { int n = 0; for (; x; x >>= 1) n += (int)(x & 1); return n; }

int main(void) {
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    int32_t flag = 5;
    for (int i = 0; i < 200000; ++i) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;  /* xorshift64 */
        uint64_t y = x >> (i % 64);  /* sparse words too */
        if (i < 64) y = 1ULL << i;   /* every single bit */
        if (i == 64) y = ~0ULL;
        if (y && cm_ctz64(y) != slow_ctz(y)) { printf("ctz %llx\n", (unsigned long long)y); return 1; }
        if (cm_popcount64(y) != slow_popcount(y) || cm_popcount64_swar(y) != slow_popcount(y)) {
            printf("popcount %llx\n", (unsigned long long)y); return 1;
        }
    }
    if (cm_popcount64(0) != 0) { puts("popcount 0"); return 1; }
    for (int round = 0; round < 100; ++round) {  /* a tile's bits, and its transpose bit by bit */
        uint64_t a[64], b[64];
        for (int i = 0; i < 64; ++i) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            a[i] = b[i] = round % 3 ? x : x & (x >> 9);  /* dense and sparse */
        }
        uint64_t any = 1, slow_any = 1;  /* (ORed into, not set) */
        int slow_bits = 0;
        for (int i = 0; i < 64; ++i) { slow_any |= a[i]; slow_bits += slow_popcount(a[i]); }
        if (round == 99) { for (int i = 0; i < 64; ++i) b[i] = ~0ULL; slow_bits = 4096; slow_any = ~0ULL; }
        if (cm_tile_bits(b, &any) != slow_bits || any != slow_any) { printf("tile_bits %d\n", round); return 1; }
        if (round == 99) for (int i = 0; i < 64; ++i) b[i] = a[i];
        cm_transpose64(b);
        for (int i = 0; i < 64; ++i)
            for (int j = 0; j < 64; ++j)
                if (((a[i] >> j) & 1) != ((b[j] >> i) & 1)) { printf("transpose %d %d\n", i, j); return 1; }
    }
    if (cm_load32(&flag) != 5) { puts("load32"); return 1; }
    cm_store_flag(&flag, 9);
    if (cm_load32(&flag) != 9) { puts("store_flag"); return 1; }
    cm_pause();  /* a hint with no result: each branch must compile it */
#if defined(_MSC_VER)
    printf("ok msvc atomics=%d\n", CM_HAVE_ATOMICS);
#elif defined(__GNUC__) || defined(__clang__)
    printf("ok builtins atomics=%d\n", CM_HAVE_ATOMICS);
#else
    printf("ok portable atomics=%d\n", CM_HAVE_ATOMICS);
#endif
    return 0;
}
