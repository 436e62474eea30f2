// A straightforward bit-parallel C++ solver for LeetCode 913 (hole at node `hole`, which
// the cat may not enter; a stuck mover loses): the benchmark's second C++ column, the same
// algorithm as catmouse's compiled engine without its refinements (no word-level change
// tracking, no threads, no small-graph path).  Same C ABI as ci/bench/ref.cpp: cm_solve and
// cm_time, same arguments and meaning; built -O2 and loaded with ctypes.
//
// Round k decides exactly the positions of remoteness k.  Bits of a row are positions:
// rows by mouse with bits by cat for the mouse's step ("some move wins" is an OR of the rows
// of its moves, "every move loses" an AND), rows by cat with bits by mouse for the cat's
// step.  New bits are scattered into the other orientation after both steps of a round have
// read the old ones.  A row is recomputed only if a row it reads changed in the last round.
#include <cstdint>
#include <ctime>
#include <vector>

namespace {

typedef uint64_t word;

struct Bits {
    int n, W;
    std::vector<word> d;
    Bits(int n_, int W_) : n(n_), W(W_), d((size_t)n_ * W_, 0) {}
    word *row(int r) { return &d[(size_t)r * W]; }
    bool get(int r, int c) const { return (d[(size_t)r * W + (c >> 6)] >> (c & 63)) & 1; }
    void set(int r, int c) { d[(size_t)r * W + (c >> 6)] |= (word)1 << (c & 63); }
};

// Outcome of position `target` (turn*n*n + mouse*n + cat) as soon as it is decided, or with
// target < 0 the number of decided positions.
int64_t solve(int n, const int32_t *ip, const int32_t *ix, int hole, int64_t target) {
    const int W = (n + 63) / 64;
    const int64_t nn = (int64_t)n * n;
    int tt = -1, tm = 0, tc = 0;
    if (target >= 0) {
        tt = (int)(target / nn);
        tm = (int)(target % nn / n);
        tc = (int)(target % n);
        if (tc == hole) return 3;
    }
    // Turn 0 = mouse to move, 1 = cat to move.
    Bits D0(n, W), MW0T(n, W), CW0T(n, W);  // mouse to move: decided by mouse row; wins by cat row
    Bits D1T(n, W), MW1(n, W), CW1(n, W);   // cat to move: decided by cat row; wins by mouse row
    Bits FC(n, W), FM(n, W);                // the cat step's new bits, until the scatter
    std::vector<int> cat_moves(n, 0);
    for (int c = 0; c < n; ++c)
        for (int k = ip[c]; k < ip[c + 1]; ++k) cat_moves[c] += ix[k] != hole;
    int64_t decided = 0;
    // Round 0: the cat on the mouse, the mouse in the hole, a stuck mover.
    for (int m = 0; m < n; ++m) {
        for (int c = 0; c < n; ++c) {
            if (c == hole) {
                D0.set(m, c);
                for (int r = 0; r < n; ++r) D1T.set(c, r);
                continue;
            }
            int v0 = m == c ? 2 : m == hole ? 1 : ip[m + 1] == ip[m] ? 2 : 0;
            int v1 = m == c ? 2 : m == hole ? 1 : cat_moves[c] == 0 ? 1 : 0;
            if (v0) {
                D0.set(m, c);
                (v0 == 1 ? MW0T : CW0T).set(c, m);
                ++decided;
            }
            if (v1) {
                D1T.set(c, m);
                (v1 == 1 ? MW1 : CW1).set(m, c);
                ++decided;
            }
        }
    }
    for (int r = 0; r < n; ++r)
        for (int b = n; b < W * 64; ++b) {  // bits past the last node count as decided
            D0.row(r)[b >> 6] |= (word)1 << (b & 63);
            D1T.row(r)[b >> 6] |= (word)1 << (b & 63);
        }
    if (tt == 0 && D0.get(tm, tc)) return MW0T.get(tc, tm) ? 1 : 2;
    if (tt == 1 && D1T.get(tc, tm)) return MW1.get(tm, tc) ? 1 : 2;

    std::vector<char> mouse_queued(n, 1), cat_queued(n, 1);
    std::vector<char> cat_changed(n), mouse_changed(n), fresh(n);
    std::vector<word> win(W), lose(W);
    for (;;) {
        int64_t found = 0;
        // The cat's step, reading rows by cat of the mouse-to-move results.
        std::fill(fresh.begin(), fresh.end(), 0);
        for (int c = 0; c < n; ++c) {
            if (!cat_queued[c] || c == hole) continue;
            std::fill(win.begin(), win.end(), 0);
            std::fill(lose.begin(), lose.end(), ~(word)0);
            for (int k = ip[c]; k < ip[c + 1]; ++k) {
                int v = ix[k];
                if (v == hole) continue;
                const word *a = CW0T.row(v), *b = MW0T.row(v);
                for (int w = 0; w < W; ++w) { win[w] |= a[w]; lose[w] &= b[w]; }
            }
            word *d = D1T.row(c);
            for (int w = 0; w < W; ++w) {
                word nw = win[w] & ~d[w], nl = lose[w] & ~d[w];
                if (!(nw | nl)) continue;
                d[w] |= nw | nl;
                FC.row(c)[w] = nw;
                FM.row(c)[w] = nl;
                fresh[c] = 1;
                found += __builtin_popcountll(nw | nl);
                if (tt == 1 && c == tc && w == tm >> 6 && ((nw | nl) >> (tm & 63) & 1))
                    return (nw >> (tm & 63) & 1) ? 2 : 1;
            }
        }
        // The mouse's step, reading rows by mouse of the cat-to-move results.
        std::fill(cat_changed.begin(), cat_changed.end(), 0);
        for (int m = 0; m < n; ++m) {
            if (!mouse_queued[m]) continue;
            std::fill(win.begin(), win.end(), 0);
            std::fill(lose.begin(), lose.end(), ~(word)0);
            for (int k = ip[m]; k < ip[m + 1]; ++k) {
                const word *a = MW1.row(ix[k]), *b = CW1.row(ix[k]);
                for (int w = 0; w < W; ++w) { win[w] |= a[w]; lose[w] &= b[w]; }
            }
            word *d = D0.row(m);
            for (int w = 0; w < W; ++w) {
                word nw = win[w] & ~d[w], nl = lose[w] & ~d[w];
                if (!(nw | nl)) continue;
                d[w] |= nw | nl;
                found += __builtin_popcountll(nw | nl);
                if (tt == 0 && m == tm && w == tc >> 6 && ((nw | nl) >> (tc & 63) & 1))
                    return (nw >> (tc & 63) & 1) ? 1 : 2;
                for (word x = nw; x; x &= x - 1) {
                    int c = w * 64 + __builtin_ctzll(x);
                    MW0T.set(c, m);
                    cat_changed[c] = 1;
                }
                for (word x = nl; x; x &= x - 1) {
                    int c = w * 64 + __builtin_ctzll(x);
                    CW0T.set(c, m);
                    cat_changed[c] = 1;
                }
            }
        }
        // The cat step's new bits into rows by mouse.
        std::fill(mouse_changed.begin(), mouse_changed.end(), 0);
        for (int c = 0; c < n; ++c) {
            if (!fresh[c]) continue;
            for (int w = 0; w < W; ++w) {
                for (word x = FC.row(c)[w]; x; x &= x - 1) {
                    int m = w * 64 + __builtin_ctzll(x);
                    CW1.set(m, c);
                    mouse_changed[m] = 1;
                }
                for (word x = FM.row(c)[w]; x; x &= x - 1) {
                    int m = w * 64 + __builtin_ctzll(x);
                    MW1.set(m, c);
                    mouse_changed[m] = 1;
                }
                FC.row(c)[w] = FM.row(c)[w] = 0;
            }
        }
        decided += found;
        if (!found) break;
        // Next round: the rows whose moves reach a changed row (the graph is undirected).
        std::fill(cat_queued.begin(), cat_queued.end(), 0);
        std::fill(mouse_queued.begin(), mouse_queued.end(), 0);
        for (int v = 0; v < n; ++v) {
            if (cat_changed[v])
                for (int k = ip[v]; k < ip[v + 1]; ++k) cat_queued[ix[k]] = 1;
            if (mouse_changed[v])
                for (int k = ip[v]; k < ip[v + 1]; ++k) mouse_queued[ix[k]] = 1;
        }
    }
    if (target >= 0) return 0;
    return decided;
}

}  // namespace

extern "C" {

int cm_solve(int n, const int32_t *ip, const int32_t *ix, int hole, int64_t target) {
    return (int)solve(n, ip, ix, hole, target);
}

// Solve `count` graphs (CSR arrays concatenated: graph g has n[g] nodes, its indptr at
// ip + ip_off[g], its indices at ix + ix_off[g]) `reps` times; store each graph's result in
// results[g] and return the best time of one pass over all graphs, in seconds of the
// thread's CPU clock (as ref.cpp).
double cm_time(int count, const int32_t *n, const int32_t *ip, const int64_t *ip_off,
               const int32_t *ix, const int64_t *ix_off, int hole, const int64_t *target,
               int reps, int32_t *results) {
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
        timespec t0, t1;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
        for (int g = 0; g < count; ++g)
            results[g] = (int32_t)solve(n[g], ip + ip_off[g], ix + ix_off[g], hole, target[g]);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
        double dt = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
        if (dt < best) best = dt;
    }
    return best;
}

}
