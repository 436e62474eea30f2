"""The solved table as text, a block of rows at a time: CSV rows and JSON lists.

:mod:`catmouse.export` writes through these generators.  Each yields ``(text, positions)``
pairs, so a writer can report progress as the blocks go out.  With numpy installed, a block
is assembled in arrays: one row of bytes per line of text, each field gathered from a small
table of NUL-padded tokens (node ids, outcome names, numbers), the NULs dropped at the end,
and each row's best moves read off the children's scores at once.  Without numpy (or for
labels holding a NUL), plain Python writes row by row.  Both give the same bytes: a test
compares them with the csv and json modules.

The best moves are those of :meth:`Analysis.best_moves`, found from one score per position
seen from the mouse's side (the mouse picks the largest child, the cat the smallest): a
mouse win in r plies ``_TOP - r``, a game that never ends ``_NEVER``, a cat win in r plies
``r`` (with no remoteness table, every r is 0: every win ranks alike).
"""

from __future__ import annotations

import csv
import io
import json
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from ..engine.cpus import usable_cpus
from ..engine.facts import CAT_FORBIDDEN, CAT_GOAL, HOLE
from ..engine.optional import numpy_or_none
from ..engine.planes import block_rows
from ..outcome import Outcome, Turn
from .plane_rows import PlaneRows

if TYPE_CHECKING:
    from ..analysis import Analysis

__all__ = ["csv_blocks", "csv_line", "json_list_blocks", "label_cells", "numpy_or_none"]

_NEVER = 1 << 32  # above any remoteness (2*n*n < 2**31); the numpy path packs tighter
_TOP = 2 * _NEVER
# Rows per block: big enough for numpy to pay, small enough to bound the memory (and report).
_BLOCK_ROWS = 1 << 19
# Best moves of a CSV row with columns of their own; the others are inserted after.
_SLOTS = 6
# CSV rows per block (at least one mouse's row), and scores gathered at once by the best-move
# search: together they bound the writer's memory (the blocks are formatted on two threads).
_ROWS = 1 << 15
_ENTRIES = 1 << 19


def csv_line(fields: Sequence[Any]) -> str:
    """One CSV row ending in ``\\n``, a field holding ``\\r`` or ``\\n`` quoted.

    The csv module quotes only the characters of its line terminator, and before Python 3.13
    a lone ``\\r`` not at all under ``lineterminator="\\n"``: a label ``"\\r"`` made a row
    no reader could parse.  Written with ``"\\r\\n"``, both are quoted on every version.

    >>> csv_line(["a", "b\\rc", 3])
    'a,"b\\rc",3\\n'
    """
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerow(fields)
    return buffer.getvalue()[:-2] + "\n"


def label_cells(labels: Sequence[Any] | None) -> list[str] | None:
    """Each label as :func:`csv_line` writes it in a cell (quoted when it must be).

    The file is UTF-8, which cannot hold a lone surrogate (what ``os.fsdecode`` makes of bytes
    that are not UTF-8): such a character is written as its backslash escape.

    >>> label_cells(["a,b", "x\\udc80"])
    ['"a,b"', 'x\\\\udc80']
    """
    if labels is None:
        return None
    return [_label_cell(str(label)).encode("utf-8", "backslashreplace").decode("utf-8")
            for label in labels]


def _label_cell(text: str) -> str:
    """A CSV cell as :func:`csv_line` quotes one (the delimiter, a quote, ``\\r`` or ``\\n``),
    written here: the csv module of Python 3.10 refuses a NUL character ("need to escape"),
    which 3.11 writes as it is, so a label holding one broke the CSV on 3.10 only.

    >>> _label_cell('a"b'), _label_cell("x,y"), _label_cell("nul\\0") == "nul\\0", _label_cell("")
    ('"a""b"', '"x,y"', True, '')
    """
    if any(ch in text for ch in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


# -- what both paths share -------------------------------------------------------------------


class _Table:
    """The parts of an Analysis the writers read, in node ids."""

    def __init__(self, analysis: Analysis):
        rules = analysis._rules
        self.n = n = analysis.n
        flags = rules.flags
        self.forbidden = [bool(flags[v] & CAT_FORBIDDEN) for v in range(n)]
        self.hole = [bool(flags[v] & HOLE) for v in range(n)]
        self.goal = [bool(flags[v] & CAT_GOAL) for v in range(n)]
        self.mouse_rows = [sorted(row) for row in rules.mouse_graph._rows()]
        self.cat_rows = [sorted(v for v in row if not self.forbidden[v])
                         for row in rules.cat_graph._rows()]
        self.outcomes = analysis._outcomes
        self.rules = rules
        self.layers = analysis._layers  # the remoteness planes, or None
        self.remoteness = None if self.layers is None else _plain_rows(analysis)
        self.label_cells = label_cells(analysis.graph._labels)


def _score(o: int, r: int) -> int:
    if o == 1 and r >= 0:
        return _TOP - r
    if o == 2 and r >= 0:
        return r
    return _NEVER


# -- CSV -------------------------------------------------------------------------------------------


def csv_blocks(analysis: Analysis) -> Iterator[tuple[bytes, int]]:
    """The CSV rows (header first), as ``(UTF-8 text, positions)`` blocks; see
    export.write_csv."""
    table = _Table(analysis)
    numpy = numpy_or_none()
    if numpy is None or any("\0" in cell for cell in table.label_cells or ()):
        return _csv_python(table)  # (the numpy path pads with NUL bytes and drops them)
    return _csv_numpy(table, numpy)


def _header(labels: bool) -> bytes:
    return ("mouse,cat,turn,outcome,remoteness,best_moves"
            + (",mouse_label,cat_label" if labels else "") + "\n").encode()


def _csv_python(t: _Table) -> Iterator[tuple[bytes, int]]:
    n, nn = t.n, t.n * t.n
    o_all, r_all = t.outcomes, t.remoteness

    def scores(start: int) -> list[int]:
        """One row's scores, made when needed: nothing the size of the table is built."""
        if r_all is None:
            return [_score(o, 0) for o in o_all[start:start + n]]
        return [_score(o, r) for o, r in zip(o_all[start:start + n], r_all(start))]

    names = [o.name for o in Outcome] + ["?"]
    cells = t.label_cells
    allowed = [c for c in range(n) if not t.forbidden[c]]
    yield _header(cells is not None), 0
    for turn in Turn:
        base = turn * nn
        lines = []
        for m in range(n):
            moves = t.mouse_rows[m]
            # Mouse to move: children (v, c, CAT), rows of the cat-to-move scores; cat to
            # move: children (m, v, MOUSE), the mouse-to-move row of m.
            children = [scores(nn + v * n) for v in moves] if turn == Turn.MOUSE else []
            row_m = scores(m * n) if turn == Turn.CAT else []
            own = r_all(base + m * n) if r_all is not None else None
            for c in allowed:
                s = base + m * n + c
                if m == c or t.hole[m] or t.goal[c]:
                    best: list[int] = []
                elif turn == Turn.MOUSE:
                    column = [row[c] for row in children]
                    top = max(column, default=None)
                    best = [v for v, x in zip(moves, column) if x == top]
                else:
                    options = [row_m[v] for v in t.cat_rows[c]]
                    low = min(options, default=None)
                    best = [v for v, x in zip(t.cat_rows[c], options) if x == low]
                r = -1 if own is None else own[c]
                text = (f"{m},{c},{turn.name},{names[o_all[s]]},{'' if r < 0 else r},"
                        f"{' '.join(map(str, best))}")
                if cells is not None:
                    text += f",{cells[m]},{cells[c]}"
                lines.append(text)
            if len(lines) >= _BLOCK_ROWS // 8 or m == n - 1:
                yield ("\n".join(lines) + "\n" if lines else "").encode("utf-8"), len(lines)
                lines = []


def _csv_numpy(t: _Table, np: Any) -> Iterator[tuple[bytes, int]]:
    # Each block of rows is a 2-D byte array, one row per CSV row, every field in its own
    # columns padded with NUL bytes; dropping the NULs leaves the text.  Nothing is made for
    # the whole table: each block scores the rows it reads (memory bounded by _ROWS and
    # _ENTRIES, whatever the board's size; a hub's moves and a dense cat graph go in pieces).
    n, nn = t.n, t.n * t.n
    o_rows = np.frombuffer(t.outcomes, dtype=np.uint8).reshape(2 * n, n)
    ranked = t.layers is not None  # without: every cell empty, every win ranked alike
    planes: Any = PlaneRows(np, t.layers, t.outcomes, n, t.rules) if t.layers is not None else None
    # The scores in int32 when the longest game allows (it nearly always does).  Each
    # (outcome, decided?) pair scores as base + sign * r, from a table of 8.  The longest
    # game is bounded by what the planes' layers hold.
    longest = planes.largest if planes is not None and nn else 0
    kind = np.int32 if 2 * longest + 4 < 2**31 else np.int64
    never, top = longest + 1, 2 * longest + 2
    base = np.full(8, never, dtype=kind)
    sign = np.zeros(8, dtype=kind)
    base[1], sign[1] = top, -1  # a mouse win in r plies
    base[2], sign[2] = 0, 1  # a cat win in r plies

    def scores(turn: int, ms: Any) -> Any:
        """The scores of rows ``ms`` (an index array of any shape) of one turn's table."""
        o = o_rows[turn * n + ms]
        if not ranked:
            return base[np.minimum(o, 3)]
        r = planes.rows(turn, ms)
        which = np.minimum(o, 3) + 4 * (r < 0).view(np.uint8)
        return base[which] + sign[which] * r

    allowed = np.flatnonzero(~np.array(t.forbidden, dtype=bool))
    over_at = np.array(t.goal, dtype=bool) | np.array(t.forbidden, dtype=bool)  # by cat
    hole = np.array(t.hole, dtype=bool)
    # The moves as flat lists with offsets, in numpy's index type (an int64 array cannot be
    # cast to a 32-bit machine's intp: np.repeat raised TypeError on i386).
    degree = np.array([len(row) for row in t.mouse_rows], dtype=np.intp)
    mouse_ptr = np.cumsum(degree) - degree
    mouse_to = np.array([v for row in t.mouse_rows for v in row], dtype=np.intp)
    cat_degree = np.array([len(row) for row in t.cat_rows], dtype=np.intp)
    cat_ptr = np.cumsum(cat_degree) - cat_degree
    cat_to = np.array([v for row in t.cat_rows for v in row], dtype=np.intp)
    cat_from = np.repeat(np.arange(n), cat_degree)
    has_moves = cat_degree > 0
    ids = _padded(np, [str(v) for v in range(n)])
    spaced = _padded(np, [" " + str(v) for v in range(n)])
    cells = None if t.label_cells is None else _padded(np, [","+ c for c in t.label_cells])
    yield _header(cells is not None), 0

    def mouse_best(ms: Any, going: Any) -> tuple[Any, Any, Any]:
        """Mouse to move: children (v, c, CAT) for v in the moves of m; the largest is the
        mouse's.  The moves go in pieces of ``step`` (a hub's thousands at once would not)."""
        own = degree[ms]
        width = max(int(own.max()), 1)
        step = max(1, _ENTRIES // (len(ms) * n))

        def children(k0: int) -> Any:  # [m][k][c] for moves k0.., -1 (never the top) padded
            ks = np.arange(k0, min(width, k0 + step))
            real = ks[None, :] < own[:, None]
            at = np.where(real, mouse_ptr[ms][:, None] + ks[None, :], 0)
            got = scores(1, mouse_to[at] if len(mouse_to) else np.zeros_like(at))
            got[~real] = -1
            return got

        pieces = [children(k0) for k0 in range(0, width, step)] if width <= step else None
        top_of = np.full((len(ms), n), -1, dtype=kind)
        for k0 in range(0, width, step):
            part = pieces[0] if pieces else children(k0)
            np.maximum(top_of, part.max(axis=1), out=top_of)
        found = []
        for k0 in range(0, width, step):
            part = pieces[0] if pieces else children(k0)
            hit = (part == top_of[:, None, :]) & going[:, None, :]
            # Indices in [m][c][k] order: row order, then node order (rows are sorted).
            bm, bc, bk = np.nonzero(hit.transpose(0, 2, 1))
            found.append((bm, bc, bk + k0))
        if len(found) > 1:  # pieces of moves: back to row order, then node order
            bm, bc, bk = (np.concatenate(x) for x in zip(*found))
            order = np.lexsort((bk, bc, bm))
            bm, bc, bk = bm[order], bc[order], bk[order]
        else:
            bm, bc, bk = found[0]
        return bm, bc, mouse_to[mouse_ptr[ms][bm] + bk] if len(bm) else bk

    def cat_best(ms: Any, going: Any) -> tuple[Any, Any, Any]:
        """Cat to move: children (m, v, MOUSE) for v in the cat's moves from c; the smallest
        is the cat's.  Edges run in (c, v) order, so the hits come in row order; a dense cat
        graph goes in pieces of whole cats (one mouse a block then: rows stay in order)."""
        mouse_side = scores(0, ms)  # [m][cat]
        per = max(1, _ENTRIES // len(ms))
        found, c0 = [], 0
        while c0 < n:
            c1 = int(np.searchsorted(cat_ptr, cat_ptr[c0] + per, side="right")) if len(
                ms) == 1 else n
            c1 = min(n, max(c1, c0 + 1))
            e0 = int(cat_ptr[c0])
            e1 = int(cat_ptr[c1]) if c1 < n else len(cat_to)
            values = mouse_side[:, cat_to[e0:e1]]  # [m][edge]
            low = np.zeros((len(ms), c1 - c0), dtype=kind)
            moving = has_moves[c0:c1]
            if e1 > e0:
                low[:, moving] = np.minimum.reduceat(values, (cat_ptr[c0:c1] - e0)[moving],
                                                     axis=1)
            frm = cat_from[e0:e1]
            keep = (values == low[:, frm - c0]) & going[:, frm]
            bm, edge = np.nonzero(keep)
            found.append((bm, frm[edge], cat_to[e0 + edge]))
            c0 = c1
        bm, bc, to = (np.concatenate(x) for x in zip(*found))
        return bm, bc, to

    def block(turn: Turn, mid: Any, ms: Any) -> tuple[bytes, int]:
        going = ~over_at[None, :] & ~hole[ms][:, None]  # [m][c]: the game goes on
        going[np.arange(len(ms)), ms] = False  # the cat on the mouse
        if turn == Turn.MOUSE:
            going &= (degree[ms] > 0)[:, None]  # (a mouse with no move has lost)
            bm, bc, to = mouse_best(ms, going)
        else:
            bm, bc, to = cat_best(ms, going)
        s = (turn * nn + ms[:, None] * n + allowed[None, :]).ravel()
        r_s = (planes.rows(turn, ms)[:, allowed].ravel() if ranked
               else np.full(len(s), -1, dtype=np.int32))
        return (_csv_block(np, turn, ms, allowed, o_rows.ravel()[s], r_s, bm, bc, to, ids,
                           spaced, mid, cells, n), len(ms) * len(allowed))

    jobs = []
    for turn in Turn:
        mid = _padded(np, [f",{turn.name},{Outcome(k).name}," if k < 3 else f",{turn.name},?,"
                           for k in range(4)])
        per = max(1, _ROWS // max(n, 1))
        if turn == Turn.CAT:
            per = max(1, min(per, _ENTRIES // max(len(cat_to), 1)))
        jobs += [(turn, mid, np.arange(m0, min(n, m0 + per))) for m0 in range(0, n, per)]
    # numpy lets go of the GIL in its loops: a second thread formats the next block while
    # this one's is written.  At most three blocks are in hand, so memory stays bounded.
    if len(jobs) < 2 or usable_cpus() < 2:
        for job in jobs:
            yield block(*job)
        return
    with ThreadPoolExecutor(2) as pool:
        waiting: deque[Future[tuple[bytes, int]]] = deque()
        for job in jobs:
            waiting.append(pool.submit(block, *job))
            if len(waiting) > 2:
                yield waiting.popleft().result()
        while waiting:
            yield waiting.popleft().result()


def _padded(np: Any, texts: Sequence[str]) -> Any:
    """Texts as the rows of a uint8 array, padded with NUL bytes (dropped when written)."""
    data = [text.encode("utf-8") for text in texts]
    width = max((len(b) for b in data), default=0) or 1
    return np.frombuffer(b"".join(b.ljust(width, b"\0") for b in data) or b"\0",
                         dtype=np.uint8).reshape(-1, width)


def _digits(np: Any, values: Any) -> Any:
    """Non-negative integers as rows of ASCII digits, padded with NUL; a negative value is
    an empty row (the CSV's remoteness of a game that never ends)."""
    top = max(int(values.max()), 0) if len(values) else 0
    width = len(str(top))
    if width <= 5:  # a row of a table of every number of that width: one gather
        table = _numbers(np, width)
        return table[np.where(values >= 0, values, len(table) - 1)]
    powers = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    digits = (values[:, None] // powers[None, :]) % 10 + 48
    shown = values[:, None] >= powers[None, :]
    shown[:, -1] = True
    shown &= values[:, None] >= 0
    return np.where(shown, digits, 0).astype(np.uint8)


_NUMBERS: dict[int, Any] = {}


def _numbers(np: Any, width: int) -> Any:
    """The digits of 0 .. 10**width - 1, then an empty row, NUL-padded (made once)."""
    if width not in _NUMBERS:
        _NUMBERS[width] = _padded(np, [str(v) for v in range(10 ** width)] + [""])
    return _NUMBERS[width]


def _csv_block(np: Any, turn: Turn, ms: Any, allowed: Any, outcome: Any, r_s: Any,
               bm: Any, bc: Any, to: Any, ids: Any, spaced: Any, mid: Any, cells: Any,
               n: int) -> bytes:
    """The rows of mice ``ms``, cats ``allowed``: ``m,c,TURN,OUTCOME,r,best best..[,labels]``.

    ``(bm, bc, to)``: the best moves, ``bm`` an index into ``ms``, in row then node order.
    A row's first ``_SLOTS`` best moves have columns of their own; the rare rest are
    inserted into the text afterwards, so a long list does not widen every row."""
    per_row = len(allowed)
    rows = len(ms) * per_row
    where = np.full(n, -1, dtype=np.intp)
    where[allowed] = np.arange(per_row)
    best_row = bm * per_row + where[bc]
    count = np.bincount(best_row, minlength=rows)
    slot = np.arange(len(to)) - (np.cumsum(count) - count)[best_row]
    slots = min(int(count.max()) if rows else 0, _SLOTS)
    # Each row's best moves by slot, n (a blank token) where it has none.
    kept = slot < slots
    dense = np.full((rows, max(slots, 1)), n, dtype=np.int32)
    dense[best_row[kept], slot[kept]] = to[kept]
    rem = _digits(np, r_s)
    iw, sw, cw = ids.shape[1], spaced.shape[1], 0 if cells is None else cells.shape[1]
    width = 2 * iw + mid.shape[1] + rem.shape[1] + 3 + (slots and iw + (slots - 1) * sw) + 2 * cw
    text = np.empty((rows, width), dtype=np.uint8)
    grid = text.reshape(len(ms), per_row, width)  # [mouse][cat][byte], the same memory
    col = 0

    def put(values: Any) -> None:
        nonlocal col
        text[:, col: col + values.shape[1]] = values
        col += values.shape[1]

    def put_grid(values: Any) -> None:  # broadcast over the block's mice or cats
        nonlocal col
        grid[:, :, col: col + values.shape[-1]] = values
        col += values.shape[-1]

    put_grid(ids[ms][:, None, :])
    text[:, col] = 44  # ","
    col += 1
    put_grid(ids[allowed][None, :, :])
    put(mid[outcome])  # ",TURN,OUTCOME,"
    put(rem)
    text[:, col] = 44
    col += 1
    blank = np.zeros((1, sw), np.uint8)
    first, rest = np.concatenate([ids, blank[:, :iw]]), np.concatenate([spaced, blank])
    for k in range(slots):  # the first best move without a space, the others after one
        put((first if k == 0 else rest)[dense[:, k]])
    if cells is not None:
        put_grid(cells[ms][:, None, :])
        put_grid(cells[allowed][None, :, :])
    text[:, col] = 10  # "\n"
    out = text.tobytes().translate(None, b"\0")
    if slots == 0 or count.max() <= slots:
        return out
    # The rest of the long lists, inserted where each row's kept best moves end: the row's
    # end in the text, less its labels and newline.
    size = _sizes(np, first)
    lengths = (size[ms][:, None] + size[allowed][None, :] + 3).ravel()
    lengths += _sizes(np, mid)[outcome] + _sizes(np, rem)
    lengths += size[dense].sum(axis=1) + np.maximum(np.minimum(count, slots) - 1, 0)
    labels = 0
    if cells is not None:
        cell_size = _sizes(np, cells)
        labels = (cell_size[ms][:, None] + cell_size[allowed][None, :]).ravel()
    ends = np.cumsum(lengths + labels) - 1 - labels  # each row's labels, else its newline
    extra = ~kept
    rows_at, tokens = best_row[extra], spaced[to[extra]]
    sizes = np.count_nonzero(tokens, axis=1)
    flat = tokens.ravel()
    return np.insert(np.frombuffer(out, dtype=np.uint8), np.repeat(ends[rows_at], sizes),
                     flat[flat != 0]).tobytes()


def _sizes(np: Any, padded: Any) -> Any:
    """The length of each row of a NUL-padded table."""
    return np.count_nonzero(padded, axis=1)


def _plain_rows(analysis: Analysis) -> Any:
    """``row(s)``: the int32 remoteness row starting at position index ``s`` (plain Python,
    a row converted from the planes when asked for)."""
    n, nn = analysis.n, analysis.n * analysis.n

    def row(s: int) -> Any:
        turn, rest = divmod(s, nn)
        got = analysis._remoteness_rows(turn, rest // n, 1)
        return memoryview(got).cast("B").cast("i") if n else []

    return row


# -- JSON lists ----------------------------------------------------------------------------


def json_list_blocks(values: Any, n: int, rows: Any = None) -> Iterator[tuple[bytes, int]]:
    """A ``(2, n, n)`` table as JSON nested lists ``[[[..],..],[..]]`` in blocks.

    ``values`` is a flat buffer of ``2*n*n`` integers (the outcome bytes), or None with
    ``rows(turn, first, count)`` giving int32 rows (remoteness read from the planes); the
    text is what ``json.dumps(nested, separators=(",", ":"))`` writes.
    """
    numpy = numpy_or_none()
    nn = n * n
    if n == 0:
        yield b"[[],[]]", 0
        return
    rows_per = max(1, _BLOCK_ROWS // n)
    if rows is not None:
        rows_per = min(rows_per, block_rows(n))
    for turn in range(2):
        for m0 in range(0, n, rows_per):
            m1 = min(n, m0 + rows_per)
            lo, hi = turn * nn + m0 * n, turn * nn + m1 * n
            opening = "[" * ((turn == 0 and m0 == 0) + (m0 == 0))
            closing = "]" if m1 == n else ""
            closing += "," if m1 == n and turn == 0 else ""
            closing += "]" if m1 == n and turn == 1 else ""
            block = (values[lo:hi] if rows is None  # (a numpy array's buffer is C order)
                     else memoryview(rows(turn, m0, m1 - m0)).cast("B").cast("i"))
            if numpy is None:
                texts = [json.dumps(list(block[s: s + n]), separators=(",", ":"))
                         for s in range(0, hi - lo, n)]
                body = ",".join(texts).encode()
            else:
                body = _json_rows(numpy, block, m1 - m0, n)
            tail = "," if m1 < n else ""
            yield opening.encode() + body + (tail + closing).encode(), hi - lo


def _json_rows(np: Any, block: Any, rows: int, n: int) -> bytes:
    """``[v,v,..],[v,..]`` for ``rows`` rows of ``n`` values (padded rows, NULs dropped)."""
    if isinstance(block, (bytes, bytearray)) or getattr(block, "format", "") == "B":
        values = np.frombuffer(block, dtype=np.uint8).astype(np.int64)
    else:
        values = np.frombuffer(block, dtype=np.int32).astype(np.int64)
    sign = np.where(values < 0, 45, 0).astype(np.uint8)[:, None]  # "-"
    comma = np.full((len(values), 1), 44, np.uint8)
    cells = np.concatenate([sign, _digits(np, np.abs(values)), comma], axis=1)
    cells = cells.reshape(rows, -1)
    cells[:, -1] = 93  # the row's last value closes it: "]"
    text = np.concatenate([np.full((rows, 1), 91, np.uint8), cells,
                           np.full((rows, 1), 44, np.uint8)], axis=1)  # "[" .. "],"
    text[-1, -1] = 0  # no comma after the block's last row
    return text.tobytes().translate(None, b"\0")
