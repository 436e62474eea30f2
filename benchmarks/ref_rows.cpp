// A second plain bit-parallel C++ solver for LeetCode 913 (the mouse wins on reaching node
// `hole`, which the cat may not enter; the cat wins on the mouse's node; a mover with no move
// loses), written for the benchmark as a stronger reference than ref_bits.cpp.  Same C ABI
// (cm_solve, cm_time) plus cm_table, which writes the whole outcome table for the checker
// (check_ref_rows.py).  One thread, no tiles; built -O2 and loaded with ctypes.
//
// Round-synchronous retrograde analysis over 64-bit words: round k decides exactly the
// positions decided in k moves.  Every table is kept in both orientations, so that each
// player's step reads whole rows:
//   - the mouse's step (mouse to move, a row per mouse, bits by cat) ORs the mouse-win rows
//     of the mouse's moves in the cat-to-move table and ANDs their cat-win rows, so it reads
//     the cat-to-move table by mouse;
//   - the cat's step (cat to move, a row per cat, bits by mouse) ORs the cat-win rows of the
//     cat's moves in the mouse-to-move table and ANDs their mouse-win rows, so it reads the
//     mouse-to-move table by cat.
// Each step writes its own orientation and scatters its new bits into the other one once
// both steps of the round have read it.  Only the rows next to a row that changed in the last
// round are recomputed, and in a row only the words that still hold an undecided position.
// Mouse-win and cat-win bits of a word sit side by side (one cache line for both).
#include <cstdint>
#include <ctime>
#include <vector>

namespace {

typedef uint64_t word;

struct Pair {
    word mouse, cat;  // positions won by the mouse, by the cat
};

struct Change {
    int row;          // in the step's own orientation
    word mouse, cat;  // a word's new bits
};

// A round's new bits of one step, by word index: scattered a word at a time, the writes
// into the transposed table stay within 64 of its rows (a few KB) instead of all n.  A row
// logs a word at most once a round: room for n changes a word.
struct Log {
    int rows;
    std::vector<Change> changes;  // those of word w from w * rows
    std::vector<int> count;       // by word
    size_t size = 0;
    Log(int n, int W) : rows(n), changes((size_t)n * W), count(W, 0) {}
    void add(int w, int row, word mouse, word cat) {
        Change &ch = changes[(size_t)w * rows + count[w]++];
        ch.row = row;
        ch.mouse = mouse;
        ch.cat = cat;
        ++size;
    }
    void clear() {
        std::fill(count.begin(), count.end(), 0);
        size = 0;
    }
};

inline word bit(int i) { return (word)1 << (i & 63); }

inline int popcount(word x) {  // no -mpopcnt at -O2 (the builtin would be a libgcc call)
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

struct Solver {
    int n, W, hole;
    // by_mouse_0: mouse to move, rows by mouse, bits by cat (the mouse step's own).
    // by_cat_0: its transpose (read by the cat step).  by_cat_1: cat to move, rows by cat,
    // bits by mouse (the cat step's own); by_mouse_1: its transpose (read by the mouse step).
    std::vector<Pair> by_mouse_0, by_cat_0, by_cat_1, by_mouse_1;
    std::vector<word> open_0, open_1;  // words of a row with an undecided position, per row
    int OW;                            // words of an open mask
    std::vector<word> cats_valid;      // bits of a mouse-major row that are positions
    std::vector<word> mice_valid;      // bits of a cat-major row that are positions
    std::vector<int> mip, mix, cip, cix;  // moves: the mouse's, the cat's (hole left out)
    std::vector<const Pair *> move_rows;  // a pull's rows of its moves

    Solver(int n_, const int32_t *ip, const int32_t *ix, int hole_)
        : n(n_), W((n_ + 63) / 64), hole(hole_),
          by_mouse_0((size_t)n_ * W), by_cat_0((size_t)n_ * W),
          by_cat_1((size_t)n_ * W), by_mouse_1((size_t)n_ * W), OW((W + 63) / 64),
          cats_valid(W, 0), mice_valid(W, 0) {
        for (int v = 0; v < n; ++v) {
            mice_valid[v >> 6] |= bit(v);
            if (v != hole) cats_valid[v >> 6] |= bit(v);
        }
        mip.assign(ip, ip + n + 1);
        mix.assign(ix, ix + ip[n]);
        cip.push_back(0);
        for (int c = 0; c < n; ++c) {
            for (int k = ip[c]; k < ip[c + 1]; ++k)
                if (ix[k] != hole) cix.push_back(ix[k]);
            cip.push_back((int)cix.size());
        }
        move_rows.resize(n + 1);
        open_0.assign((size_t)n * OW, 0);
        open_1.assign((size_t)n * OW, 0);
    }

    Pair &at(std::vector<Pair> &t, int row, int w) { return t[(size_t)row * W + w]; }

    // Round 0: the mouse in the hole, the cat on the mouse, a mover with no move.  Written
    // in both orientations directly.
    void start() {
        for (int m = 0; m < n; ++m) {
            if (m == hole) {
                for (int w = 0; w < W; ++w) at(by_mouse_0, m, w).mouse = cats_valid[w];
                for (int c = 0; c < n; ++c)
                    if (c != hole) at(by_cat_0, c, m >> 6).mouse |= bit(m);
            } else if (mip[m + 1] == mip[m]) {  // stuck mouse: the cat wins
                for (int w = 0; w < W; ++w) at(by_mouse_0, m, w).cat = cats_valid[w];
                for (int c = 0; c < n; ++c)
                    if (c != hole) at(by_cat_0, c, m >> 6).cat |= bit(m);
            } else {
                at(by_mouse_0, m, m >> 6).cat |= bit(m);
                at(by_cat_0, m, m >> 6).cat |= bit(m);
            }
        }
        for (int c = 0; c < n; ++c) {
            if (c == hole) continue;
            at(by_cat_1, c, c >> 6).cat |= bit(c);
            at(by_mouse_1, c, c >> 6).cat |= bit(c);
            if (cip[c + 1] == cip[c]) {  // stuck cat: the mouse wins wherever it is not caught
                for (int w = 0; w < W; ++w) at(by_cat_1, c, w).mouse = mice_valid[w];
                at(by_cat_1, c, c >> 6).mouse &= ~bit(c);
                for (int m = 0; m < n; ++m)
                    if (m != c) at(by_mouse_1, m, c >> 6).mouse |= bit(c);
            } else if (hole >= 0 && hole < n) {
                at(by_cat_1, c, hole >> 6).mouse |= bit(hole);
                at(by_mouse_1, hole, c >> 6).mouse |= bit(c);
            }
        }
        for (int r = 0; r < n; ++r)
            for (int w = 0; w < W; ++w) {
                const Pair &a = at(by_mouse_0, r, w);
                if (cats_valid[w] & ~(a.mouse | a.cat)) open_0[(size_t)r * OW + (w >> 6)] |= bit(w);
                const Pair &b = at(by_cat_1, r, w);
                if (r != hole && (mice_valid[w] & ~(b.mouse | b.cat)))
                    open_1[(size_t)r * OW + (w >> 6)] |= bit(w);
            }
    }

    // One row of a step, word by word over the row's open words: the mover wins where some
    // move reaches a win for it (an OR of the rows of `moves` in `from`) and loses where
    // every move reaches a loss (an AND); what is new goes into `own` and the log.
    template <bool MouseMoves>
    void pull(int row, const int *moves, int k, std::vector<Pair> &from, std::vector<Pair> &own,
              std::vector<word> &open, const std::vector<word> &valid,
              Log &log) {
        word *mask = &open[(size_t)row * OW];
        const Pair *base = from.data();
        Pair *mine = &own[(size_t)row * W];
        const Pair **rows = move_rows.data();
        for (int j = 0; j < k; ++j) rows[j] = base + (size_t)moves[j] * W;
        for (int o = 0; o < OW; ++o) {
            for (word x = mask[o]; x; x &= x - 1) {
                int w = o * 64 + __builtin_ctzll(x);
                word win = 0, lose = ~(word)0;
                for (int j = 0; j < k; ++j) {
                    const Pair &p = rows[j][w];
                    if (MouseMoves) { win |= p.mouse; lose &= p.cat; }
                    else { win |= p.cat; lose &= p.mouse; }
                }
                Pair &d = mine[w];
                word open_bits = valid[w] & ~(d.mouse | d.cat);
                win &= open_bits;
                lose &= open_bits;
                if (!(win | lose)) continue;
                const word mouse = MouseMoves ? win : lose, cat = MouseMoves ? lose : win;
                d.mouse |= mouse;
                d.cat |= cat;
                if (open_bits == (win | lose)) mask[o] &= ~bit(w);
                log.add(w, row, mouse, cat);
            }
        }
    }

    // The new bits of `log` into the transposed table; `touched` (a bit per row) gets the
    // rows they land in.
    void scatter(const Log &log, std::vector<Pair> &other, std::vector<word> &touched) {
        for (int at = 0; at < W; ++at) {
            Pair *block = &other[(size_t)at * 64 * W];
            word rows = 0;
            const Change *first = &log.changes[(size_t)at * log.rows];
            for (const Change *ch = first; ch != first + log.count[at]; ++ch) {
                Pair *col = block + (ch->row >> 6);
                const word b = bit(ch->row);
                for (word x = ch->mouse; x; x &= x - 1)
                    col[(size_t)__builtin_ctzll(x) * W].mouse |= b;
                for (word x = ch->cat; x; x &= x - 1)
                    col[(size_t)__builtin_ctzll(x) * W].cat |= b;
                rows |= ch->mouse | ch->cat;
            }
            touched[at] = rows;
        }
    }

    // The rows with a move into a row of `touched` (the graph is undirected), as bits.
    void next_rows(const std::vector<word> &touched, const std::vector<int> &ip,
                   const std::vector<int> &ix, std::vector<word> &rows) {
        std::fill(rows.begin(), rows.end(), 0);
        for (int o = 0; o < W; ++o)
            for (word x = touched[o]; x; x &= x - 1) {
                int v = o * 64 + __builtin_ctzll(x);
                for (int k = ip[v]; k < ip[v + 1]; ++k) rows[ix[k] >> 6] |= bit(ix[k]);
            }
    }

    bool decided(int turn, int m, int c) {
        const Pair &p = turn == 0 ? at(by_mouse_0, m, c >> 6) : at(by_cat_1, c, m >> 6);
        return ((p.mouse | p.cat) >> ((turn == 0 ? c : m) & 63)) & 1;
    }

    int outcome(int turn, int m, int c) {
        const Pair &p = turn == 0 ? at(by_mouse_0, m, c >> 6) : at(by_cat_1, c, m >> 6);
        int i = (turn == 0 ? c : m) & 63;
        return (p.mouse >> i & 1) ? 1 : (p.cat >> i & 1) ? 2 : 0;
    }

    // Runs rounds until none decides anything, or until (tt, tm, tc) is decided.
    void run(int tt, int tm, int tc) {
        std::vector<word> cats(cats_valid), mice(mice_valid), cats_touched(W), mice_touched(W);
        Log cat_log(n, W), mouse_log(n, W);
        for (;;) {
            if (tt >= 0 && decided(tt, tm, tc)) return;
            cat_log.clear();
            mouse_log.clear();
            for (int o = 0; o < W; ++o)
                for (word x = cats[o]; x; x &= x - 1) {
                    int c = o * 64 + __builtin_ctzll(x);
                    pull<false>(c, &cix[cip[c]], cip[c + 1] - cip[c], by_cat_0, by_cat_1,
                                open_1, mice_valid, cat_log);
                }
            for (int o = 0; o < W; ++o)
                for (word x = mice[o]; x; x &= x - 1) {
                    int m = o * 64 + __builtin_ctzll(x);
                    pull<true>(m, &mix[mip[m]], mip[m + 1] - mip[m], by_mouse_1, by_mouse_0,
                               open_0, cats_valid, mouse_log);
                }
            if (!cat_log.size && !mouse_log.size) return;
            // Both steps have read the old transposes: now bring them up to date.
            scatter(mouse_log, by_cat_0, cats_touched);
            scatter(cat_log, by_mouse_1, mice_touched);
            next_rows(cats_touched, cip, cix, cats);
            next_rows(mice_touched, mip, mix, mice);
        }
    }

    int64_t count() {
        int64_t total = 0;
        for (size_t i = 0; i < by_mouse_0.size(); ++i)
            total += popcount(by_mouse_0[i].mouse | by_mouse_0[i].cat) +
                     popcount(by_cat_1[i].mouse | by_cat_1[i].cat);
        return total;
    }
};

// Outcome of position `target` (turn*n*n + mouse*n + cat): 1 mouse, 2 cat, 0 draw, 3 no such
// position (the cat on the hole); with target < 0 the number of decided positions.
int64_t solve(int n, const int32_t *ip, const int32_t *ix, int hole, int64_t target) {
    const int64_t nn = (int64_t)n * n;
    int tt = -1, tm = 0, tc = 0;
    if (target >= 0) {
        tt = (int)(target / nn);
        tm = (int)(target % nn / n);
        tc = (int)(target % n);
        if (tc == hole) return 3;
    }
    Solver s(n, ip, ix, hole);
    s.start();
    s.run(tt, tm, tc);
    if (tt >= 0) return s.outcome(tt, tm, tc);
    return s.count();
}

}  // namespace

extern "C" {

int cm_solve(int n, const int32_t *ip, const int32_t *ix, int hole, int64_t target) {
    return (int)solve(n, ip, ix, hole, target);
}

// The whole outcome table, out[turn*n*n + mouse*n + cat] (turn 0: mouse to move), as
// catmouse's Analysis.outcomes: 0 draw, 1 mouse wins, 2 cat wins, 3 the cat on the hole.
void cm_table(int n, const int32_t *ip, const int32_t *ix, int hole, uint8_t *out) {
    Solver s(n, ip, ix, hole);
    s.start();
    s.run(-1, 0, 0);
    for (int t = 0; t < 2; ++t)
        for (int m = 0; m < n; ++m)
            for (int c = 0; c < n; ++c)
                out[((int64_t)t * n + m) * n + c] = c == hole ? 3 : (uint8_t)s.outcome(t, m, c);
}

// Solve `count` graphs (CSR arrays concatenated: graph g has n[g] nodes, its indptr at
// ip + ip_off[g], its indices at ix + ix_off[g]) `reps` times; store each graph's result in
// results[g] and return the best time of one pass over all graphs, in seconds of the
// thread's CPU clock (as ref.cpp and ref_bits.cpp).
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
