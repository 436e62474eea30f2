// The C++ reference the benchmark measures catmouse against: a tight,
// straightforward retrograde solver for LeetCode 913 (hole at node `hole`,
// the cat may not enter it).  CSR adjacency, 1-byte outcomes, 4-byte move
// counters, an int32 FIFO holding every position at most once; built -O2.
//
// Loaded by benchmarks/bench.py through ctypes.  cm_time() times solves
// internally, so process start, ctypes and I/O are not in the figures.  It
// reads the thread's CPU clock, like the benchmark's Python side, so time the
// thread spends preempted on a shared machine is not counted either.
#include <cstdint>
#include <ctime>
#include <vector>

namespace {

// Outcome of position `target` (turn*n*n + mouse*n + cat), stopping as soon as
// it is decided; with target < 0 solve everything and return the number of
// decided positions.
int solve(int n, const int32_t *ip, const int32_t *ix, int hole, int64_t target) {
    const int64_t nn = (int64_t)n * n, size = 2 * nn;
    std::vector<uint8_t> out(size, 0);
    std::vector<int32_t> left(size);
    std::vector<int32_t> queue(size);
    int64_t head = 0, tail = 0;
    std::vector<int32_t> cat_moves(n, 0);
    for (int c = 0; c < n; ++c)
        for (int k = ip[c]; k < ip[c + 1]; ++k) cat_moves[c] += ix[k] != hole;
    for (int m = 0; m < n; ++m) {
        int mdeg = ip[m + 1] - ip[m];
        for (int c = 0; c < n; ++c) {
            int cdeg = cat_moves[c];
            int64_t s = (int64_t)m * n + c;
            left[s] = mdeg;
            left[nn + s] = cdeg;
            if (c == hole) { out[s] = out[nn + s] = 3; continue; }
            uint8_t v = m == c ? 2 : m == hole ? 1 : 0;
            if (v) {
                out[s] = out[nn + s] = v;
                queue[tail++] = (int32_t)s;
                queue[tail++] = (int32_t)(nn + s);
            } else {
                if (!mdeg) { out[s] = 2; queue[tail++] = (int32_t)s; }
                if (!cdeg) { out[nn + s] = 1; queue[tail++] = (int32_t)(nn + s); }
            }
        }
    }
    if (target >= 0 && out[target]) return out[target];
    while (head < tail) {
        int64_t s = queue[head++];
        uint8_t v = out[s];
        if (s >= nn) {  // cat to move: the mouse came here from a neighbour
            int m = (int)((s - nn) / n), c = (int)((s - nn) % n);
            for (int k = ip[m]; k < ip[m + 1]; ++k) {
                int64_t p = (int64_t)ix[k] * n + c;
                if (out[p]) continue;
                if (v != 1 && --left[p]) continue;
                out[p] = v;
                if (p == target) return v;
                queue[tail++] = (int32_t)p;
            }
        } else {  // mouse to move: the cat came here from a neighbour
            int m = (int)(s / n), c = (int)(s % n);
            for (int k = ip[c]; k < ip[c + 1]; ++k) {
                int64_t p = nn + (int64_t)m * n + ix[k];
                if (out[p]) continue;
                if (v != 2 && --left[p]) continue;
                out[p] = v;
                if (p == target) return v;
                queue[tail++] = (int32_t)p;
            }
        }
    }
    if (target >= 0) return out[target] == 3 ? 0 : out[target];
    int decided = 0;
    for (int64_t s = 0; s < size; ++s) decided += out[s] == 1 || out[s] == 2;
    return decided;
}

}  // namespace

extern "C" {

int cm_solve(int n, const int32_t *ip, const int32_t *ix, int hole, int64_t target) {
    return solve(n, ip, ix, hole, target);
}

// Solve `count` graphs (CSR arrays concatenated: graph g has n[g] nodes, its
// indptr at ip + ip_off[g], its indices at ix + ix_off[g]) `reps` times; store
// each graph's outcome in results[g] and return the best time of one pass
// over all graphs, in seconds.
double cm_time(int count, const int32_t *n, const int32_t *ip, const int64_t *ip_off,
               const int32_t *ix, const int64_t *ix_off, int hole, const int64_t *target,
               int reps, int32_t *results) {
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
        timespec t0, t1;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
        for (int g = 0; g < count; ++g)
            results[g] = solve(n[g], ip + ip_off[g], ix + ix_off[g], hole, target[g]);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
        double dt = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
        if (dt < best) best = dt;
    }
    return best;
}

}
