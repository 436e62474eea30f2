/* Stand-ins for the MSVC intrinsics _bitops.h uses, with their documented meaning, so that
 * gcc can compile and check the MSVC branch's own code (its use of each intrinsic). They are
 * not MSVC: the real compiler has never built this branch here. */
#include <stdint.h>
static inline unsigned char _BitScanForward64(unsigned int *index, uint64_t mask) {
    if (!mask) return 0;
    *index = (unsigned int)__builtin_ctzll(mask);
    return 1;
}
#ifdef CM_CPU_WITHOUT_POPCNT
/* The instruction a CPU may lack: declared and never defined, so a use fails to link. */
uint64_t __popcnt64(uint64_t x);
#else
static inline uint64_t __popcnt64(uint64_t x) { return (uint64_t)__builtin_popcountll(x); }
#endif
static inline void _mm_pause(void) { }  /* a spin-wait hint: nothing to check */
/* MSVC's long is 32 bits (LLP64), Linux's 64: make the branch's code see MSVC's. */
#define long int
