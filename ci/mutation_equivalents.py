"""Equivalent mutants of the game and show layers and the command line (run 4, three-layer layout).

Read by ci/mutation_catalogue.py into its EQUIVALENT, in the same form: (file, stripped
source line, mutation text as --list prints it) -> why no test can kill it.
"""

from __future__ import annotations

# Block sizes that bound memory only (shared reasons of the equivalents below).
_VERIFY_BLOCKS = ("the size of verify's numpy blocks, which bounds its memory only: the same "
                  "scores, the same verdict and the same position named, in more or fewer "
                  "blocks (so more or fewer progress reports, of which the tests ask only that "
                  "they rise to the end)")
_WRITER_BLOCKS = ("the rows per block of the CSV/JSON writers, which bound their memory only: "
                  "the same text in more or fewer blocks (so more or fewer progress reports, "
                  "which still rise to the end and come while writing)")
# (file, stripped source line, mutation) -> the reason.
GAME_AND_SHOW: dict[tuple[str, str, str], str] = {
    ('catmouse/io/table_check.py', '_BUDGET = 1 << 20  # scores per block', '`20` -> `21`'):
        _VERIFY_BLOCKS,
    ('catmouse/io/table_check.py', 'block = max(1, _BUDGET // max(n, 1))', '`//` -> `*`'):
        _VERIFY_BLOCKS,
    ('catmouse/io/table_check.py',
     'step = max(1, min(step, _BUDGET // (n * width)))', '`1` -> `2`'):
        _VERIFY_BLOCKS,
    ('catmouse/io/table_check.py',
     'step = max(1, min(step, _BUDGET // (n * width)))', '`//` -> `*`'):
        _VERIFY_BLOCKS,
    ('catmouse/io/table_check.py', 'if 2 * longest + 8 < 2**31:', '`2` -> `3` (#1)'):
        'a stricter test for packing scores in int32: what it admits the original admits too, '
        'and the rest go to int64, which is always exact (the same scores)',
    ('catmouse/io/table_check.py', 'if 2 * longest + 8 < 2**31:', '`**` -> `*`'):
        'int32 only while the longest game is under 27 plies: a stricter test, the rest in int64,'
        ' which is always exact (the same scores)',
    ('catmouse/io/table_check.py', 'if 2 * longest + 8 < 2**31:', '`8` -> `9`'):
        '2 * longest + 8 is even and 2**31 - 1 odd: `+ 9 <` and `+ 8 <` admit the same longest',
    ('catmouse/io/table_text.py', '_BLOCK_ROWS = 1 << 19', '`1` -> `2`'):
        _WRITER_BLOCKS,
    ('catmouse/io/table_text.py', '_BLOCK_ROWS = 1 << 19', '`<<` -> `>>`'):
        _WRITER_BLOCKS + ' (0 rows: a block per mouse, and max(1, ...) for JSON)',
    ('catmouse/io/table_text.py',
     'if len(lines) >= _BLOCK_ROWS // 8 or m == n - 1:', '`//` -> `*`'):
        _WRITER_BLOCKS,
    ('catmouse/io/table_text.py', 'top = max(int(values.max()), 0) if len(values) else 0',
     '`0` -> `1` (#2)'):
        'the top of no values at all: str(1) and str(0) are both one digit wide, and no row is '
        'written from an empty table',
    ('catmouse/io/table_text.py',
     'if width <= 5:  # a row of a table of every number of that width: one gather',
     '`<=` -> `<`'):
        'five-digit numbers then go the general way (powers of ten) instead of the lookup table: '
        'the same digits once the NUL padding is dropped (checked for -7, -1 and 0 to 99999)',
    ('catmouse/progress.py', 'self.last_draw = float("-inf")', 'drop the statement'):
        'last_draw is read only when drawn is True (`if self.drawn and now - self.last_draw`), '
        'and _draw, the one place that sets drawn, sets last_draw with it',
    ('catmouse/progress.py', 'self._tenth = -1  # the tenth of the work that line showed',
     '`1` -> `2`'):
        '_tenth is only compared as `_share_tenth() > self._tenth`, and a share in tenths is '
        '0 to 10: above -2 exactly when above -1',
    ('catmouse/progress.py', 'return False', '`return x` -> `return None`'):
        "engine_takes_progress's except branch (`pragma: no cover`): unreachable with the engines"
        " shipped, whose propagate both have a signature; its callers test the result's truth",
    ('catmouse/progress.py', 'return False', '`False` -> `True`'):
        "engine_takes_progress's except branch (`pragma: no cover`): unreachable with the engines"
        ' shipped, whose propagate both have a signature (test_the_engine_in_use_rejects_or_takes'
        '_the_keyword reads it on each)',
    ('catmouse/cops/census.py', '_BLOCK = 1 << 20', '`<<` -> `>>`'):
        "the size hint of geng's output read at a time (0: no hint, all of it at once): the "
        'same lines counted, in fewer or more engine calls',
    ('catmouse/cops/census.py', '_BLOCK = 1 << 20', '`20` -> `21`'):
        "the size hint of geng's output read at a time: the same lines counted, in fewer "
        'engine calls',
    ('catmouse/cops/census.py', '_MOST = 254', '`254` -> `255`'):
        'both engines clamp max_cops to min(max_cops, 254) (py_cops.cop_numbers_graph6, '
        'cops_entry.pxi): 254 and 255 are the same limit',
    ('catmouse/cops/export.py',
     'yield json.dumps(value, separators=(",", ":"), allow_nan=False)', '`False` -> `True`'):
        "cops_dict's keys beside the tables hold ints, strings and lists only: no float, so no "
        'NaN for allow_nan to refuse',
    ('catmouse/cops/export.py',
     '_BLOCK = 1 << 16',
     '`<<` -> `>>`'):
        'the size of a piece written at a time (0: a row a piece): the same bytes, in more '
        'writes',
    ('catmouse/cops/export.py',
     '_BLOCK = 1 << 16',
     '`16` -> `17`'):
        'the size of a piece written at a time: the same bytes, in fewer writes',
    ('catmouse/cops/number.py',
     'parts = [list(range(graph.n))] if graph.n <= MAX_COP_NODES else _components(graph)',
     '`<=` -> `<`'):
        'at exactly 1024 nodes the components are solved one by one and summed instead of the '
        'graph at once: the cop number of a disjoint union is the sum of its parts, so the same '
        'answer (one part, the whole graph, if it is connected)',
    ('catmouse/show/cops_page.py',
     'radius = fitted_radius(points, size, max(13.0, min(24.0, 200.0 / math.sqrt(max(n, 1)))),',
     '`1` -> `2`'):
        'max(n, 2) differs from max(n, 1) only for n = 0 or 1, where 200 / sqrt(1) and '
        '200 / sqrt(2) are both clipped to the same radius, 24 (then fitted to the board alike)',
    ('catmouse/show/cops_page.py', 'size = max(520.0, 70.0 * math.sqrt(max(n, 1)))',
     '`1` -> `2`'):
        'max(n, 2) differs from max(n, 1) only for n = 0 or 1, where 70 and 99 are both below '
        'the least size, 520',
    ('catmouse/show/cops_page.py', 'if u < v:', 'negate the condition'):
        'each edge of an undirected graph is then drawn from its other end (v, u): the same '
        'segment; u == v cannot come, since a Graph refuses self-loops',
    ('catmouse/show/cops_page.py', 'if u < v:', '`<` -> `<=`'):
        'u <= v adds only u == v, a self-loop, which a Graph refuses: the same lines',
    ('catmouse/cli/commands.py',
     'width, height = (int(v) for v in svg.split(\'viewBox="0 0 \', 1)[1].split(\'"\')[0]',
     '`1` -> `2` (#1)'):
        'only the text after the first viewBox is read ([1], up to its closing quote): a second '
        'split changes only the parts after it',
    ('catmouse/cli/cop_census.py', 'BLOCK_BYTES = 1 << 20', '`20` -> `21`'):
        'the most bytes read at a time: the same lines answered in the same order, in fewer '
        'blocks',
    ('catmouse/cli/cop_census.py', 'out.flush()', 'drop the statement'):
        'run returns to main and the process exits next, which flushes stdout: the command '
        'prints the same bytes (a caller inside Python shares the same sys.stdout)',
    ('catmouse/solving.py', 'remoteness = bool(remoteness)', 'drop the statement'):
        "analyze_rules only tests remoteness for truth afterwards (the table made or not, and "
        "check_memory, whose need_bytes and both engines' peak_bytes read its truth: 2 and 'x' "
        'give what True gives); the Analysis learns it from the table',
    ('catmouse/solving.py',
     'if need_bytes(graph.n, outcome=False, remoteness=False, target=True) > SMALL_TABLES:',
     '`>` -> `>=`'):
        'the two differ only where the bytes equal SMALL_TABLES (16 MiB) exactly, and neither '
        "engine's need_bytes does for any n from 0 to MAX_NODES = 65535 (checked by enumeration:"
        ' the compiled one passes it from n = 4033, the pure one from n = 1763)',
    ('catmouse/io/atomic.py',
     '_CREATE = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)',
     '`0` -> `1`'):
        'the default only counts where os has no O_NOFOLLOW (Windows), and there 1 is O_WRONLY, '
        'already in the flags: the same flags on every platform',
    ('catmouse/io/atomic.py', 'return False', '`return x` -> `return None`'):
        "_created's and _unwind_on_sigterm's False: their one caller each tests the result's "
        'truth (`if _created(...)`, `if restore`), and None is false too',
    ('catmouse/io/atomic.py',
     'return False  # the program handles it (the command line does the same)',
     '`return x` -> `return None`'):
        "_unwind_on_sigterm's False: its caller tests `if restore`, and None is false too",
    ('catmouse/graph.py', 'checked=True)', '`True` -> `False`'):
        "from_matrix's CSR is valid by construction (rows of the column ids of a square matrix's "
        '1 entries, the diagonal refused, symmetry checked unless directed): checked=False '
        'only checks it again, which passes',
    ('catmouse/graph_checks.py', 'n = shape[0]', '`0` -> `1`'):
        'the line above refuses a matrix unless shape[0] == shape[1]: the same n',
    ('catmouse/graph_checks.py',
     'if view.format[0] in "<>!" and view.format[0] != _NATIVE_ORDER:', '`0` -> `1` (#2)'):
        'a buffer that names the native byte order ("<i" here) then takes the foreign path, '
        "_copy_int32(_buffer_ints(view)), which decodes it by its format: the same ints (checked"
        ' with ctypes little-endian arrays), copied item by item instead of in one memcpy',
    ('catmouse/engine/cops_checks.py',
     'def check_cop_threads(threads: Any, rows: int = -1) -> tuple[int, bool]:', '`1` -> `2`'):
        'the default -2 is as negative as -1: "the size is not known", which looks at the CPUs',
    ('catmouse/engine/cops_checks.py', 'return 1, True', '`True` -> `False`'):
        "with one thread the flag is never read: it only tells a crew's search (two threads or "
        "more) to send its helpers home when starved, and one thread hires no crew",
    ('catmouse/graph_checks.py', 'return len(view) if view.ndim == 1 else None', '`1` -> `2`'):
        "a 1-D buffer's size is then unknown ahead: from_csr checks the same count with the same "
        'words right after copying indptr (check_node_count(len(ip) - 1)), still before indices'
        ' is read; only the copy of indptr comes first',
}
