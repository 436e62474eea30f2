/* An independent check of the cop-win census: a connected graph is cop-win exactly when it is
 * dismantlable (Nowakowski and Winkler 1983; Quilliot 1978): some node u has a neighbour v
 * whose closed neighbourhood holds u's, remove u, and repeat until one node is left.
 *
 * Reads graph6 lines (at most 62 nodes, one graph a line, as nauty's geng writes them) on
 * stdin; prints one line per graph, 1 (dismantlable) or 0, or with -c only the two counts.
 * It shares no code with catmouse: it is the check on the census (docs/cops.rst).
 *
 *   cc -O2 -o dismantlable benchmarks/dismantlable.c
 *   nauty-geng -cq 10 | ./dismantlable -c
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int read_graph6(const char *line, int *n, uint64_t closed[64]) {
    const unsigned char *p = (const unsigned char *)line;
    if (*p < 63 || *p > 62 + 63) return -1; /* one-byte sizes only: n <= 62 */
    *n = *p++ - 63;
    for (int u = 0; u < *n; u++) closed[u] = (uint64_t)1 << u;
    int bit = 0, have = 0, value = 0;
    for (int v = 1; v < *n; v++) {
        for (int u = 0; u < v; u++) {
            if (have == 0) {
                if (*p < 63 || *p > 126) return -1;
                value = *p++ - 63;
                have = 6;
            }
            bit = (value >> --have) & 1;
            if (bit) {
                closed[u] |= (uint64_t)1 << v;
                closed[v] |= (uint64_t)1 << u;
            }
        }
    }
    return 0;
}

static int dismantlable(int n, uint64_t closed[64]) {
    uint64_t alive = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
    int left = n;
    while (left > 1) {
        int removed = 0;
        for (int u = 0; u < n && !removed; u++) {
            if (!(alive >> u & 1)) continue;
            uint64_t mine = closed[u] & alive;
            uint64_t others = mine & ~((uint64_t)1 << u);
            for (int v = 0; v < n; v++) {
                if ((others >> v & 1) && (mine & ~(closed[v] & alive)) == 0) {
                    alive &= ~((uint64_t)1 << u); /* u is dominated by v */
                    left--;
                    removed = 1;
                    break;
                }
            }
        }
        if (!removed) return 0;
    }
    return 1;
}

int main(int argc, char **argv) {
    int counts_only = argc > 1 && strcmp(argv[1], "-c") == 0;
    static char line[1 << 12];
    uint64_t closed[64];
    long long yes = 0, no = 0, lineno = 0;
    while (fgets(line, sizeof line, stdin)) {
        int n;
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (read_graph6(line, &n, closed) != 0) {
            fprintf(stderr, "dismantlable: line %lld is not a graph6 graph of at most 62 nodes\n",
                    lineno);
            return 2;
        }
        int d = dismantlable(n, closed);
        if (d) yes++; else no++;
        if (!counts_only) putchar(d ? '1' : '0'), putchar('\n');
    }
    if (counts_only) printf("dismantlable %lld\nnot %lld\n", yes, no);
    return 0;
}
