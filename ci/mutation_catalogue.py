"""The mutation run's catalogue: which tests guard each file, and the equivalent mutants.

Read by ci/mutation.py.  Files are named relative to catmouse/; the Cython engine is its .pyx
and every .pxi it includes, each mutated on its own.  ``OLD_NAMES`` maps the module names of
the reports made before the three-layer layout (docs/dev/mutation/RESULTS.md) onto these files.
"""

from __future__ import annotations

import runpy
from pathlib import Path

# File -> the tests that exercise it (run with -x); ``engine`` selects which engine twin's
# parametrized tests run: mutating one twin, the other twin's copies of a test cannot fail.

# The pure twin's files: its tests, the compiled twin's copies deselected.
TWIN: dict = {
    "tests": ['engine/test_twin_memory.py', 'engine/test_propagate.py',
              'engine/test_bit_engine.py', 'engine/test_fast_paths.py', 'game/test_game_rules.py',
              'engine/test_against_oracle.py', 'engine/test_pinned_tables.py',
              'engine/test_threads.py', 'engine/test_twin_vs_queue.py', 'game/test_fuzz.py',
              'engine/test_batches.py', 'engine/test_tables.py'],
    "engine": 'catmouse.engine.bits_py',
}
# The twin's searches and their planes mode.
TWIN_PLANES: dict = {**TWIN, "tests": [*TWIN["tests"], 'engine/test_planes_twin.py']}
# The Graph and its checks.
GRAPH: dict = {
    "tests": ['game/test_graph.py', 'game/test_inputs.py', 'engine/test_fast_paths.py',
              'game/test_solve.py', 'game/test_fuzz.py', 'show/test_draw.py',
              # the node-count limits, read-only storage and byte order
              'game/test_limits.py', 'game/test_storage.py', 'game/test_byte_order.py'],
}
# The game of k cops, pure twin: its own tests, the oracle's and the facts'.
COPS_TWIN: dict = {
    "tests": ['engine/test_cops.py', 'game/test_cop_number.py', 'engine/test_cops_plies.py'],
    "engine": 'catmouse.engine.bits_py',
}
# The compiled twin's files: its tests, the pure twin's copies deselected.
COMPILED: dict = {
    "tests": ['engine/test_propagate.py', 'engine/test_bit_engine.py', 'engine/test_fast_paths.py',
              'game/test_game_rules.py', 'engine/test_against_oracle.py', 'game/test_solve.py',
              'engine/test_pinned_tables.py', 'engine/test_threads.py', 'game/test_fuzz.py',
              'engine/test_memory.py', 'engine/test_interrupt.py', 'engine/test_leaks.py',
              'engine/test_batches.py', 'engine/test_tables.py'],
    "engine": 'catmouse.engine.bits_c',
}
# Its rounds and remoteness, with the bit-plane tests too.
COMPILED_REMOTENESS: dict = {
    "tests": [*COMPILED["tests"], 'engine/test_remoteness_planes.py'],
    "engine": 'catmouse.engine.bits_c',
}
# The game of k cops, compiled twin.
COPS_COMPILED: dict = {
    "tests": ['engine/test_cops.py', 'game/test_cop_number.py', 'engine/test_cops_plies.py',
              'engine/test_cops_threads.py'],
    "engine": 'catmouse.engine.bits_c',
}

PYTHON_MODULES: dict[str, dict] = {
    'engine/bits_py.py': TWIN,
    'engine/checks.py': TWIN,
    'engine/py_game.py': TWIN,
    'engine/py_small.py': TWIN_PLANES,
    'engine/py_rounds.py': TWIN_PLANES,
    'engine/py_planes.py': TWIN_PLANES,
    # The planes format, read by every engine's tables and the Analysis.
    'engine/planes.py': {"tests": ['engine/test_planes_format.py', 'engine/test_planes_mode.py',
                                    'engine/test_planes_twin.py']},
    'engine/py_boards.py': TWIN,
    'engine/py_lists.py': TWIN,
    'analysis.py': {
        "tests": ['game/test_solve.py', 'game/test_game_rules.py', 'game/test_verify.py',
                  'game/test_pickle.py', 'engine/test_pinned_tables.py',
                  'game/test_first_hour.py'],
    },
    'analysis_checks.py': {
        "tests": ['game/test_pickle.py', 'game/test_byte_order.py', 'game/test_verify.py'],
    },
    'graph.py': GRAPH,
    'graph_checks.py': GRAPH,
    'rules.py': {
        "tests": ['game/test_game_rules.py', 'game/test_solve.py', 'engine/test_memory.py',
                  'engine/test_pinned_tables.py', 'engine/test_threads.py', 'game/test_inputs.py',
                  'engine/test_board_analyze.py'],
    },
    'game.py': {
        "tests": ['game/test_game_rules.py', 'game/test_pickle.py',
                  'engine/test_pinned_tables.py'],
    },
    'family.py': {
        "tests": ['game/test_family.py', 'engine/test_bounded_dp.py'],
    },
    'io/graph_files.py': {
        "tests": ['cli/test_cli_commands.py', 'cli/test_cli_options.py', 'game/test_inputs.py',
                  # the public readers' own tests
                  'game/test_readers.py'],
    },
    # The grammar of each format, node names and bounded reading.
    'io/sources.py': {
        "tests": ['game/test_readers.py', 'cli/test_reader_grammar.py'],
    },
    'io/graph6.py': {
        "tests": ['game/test_readers.py', 'cli/test_reader_grammar.py',
                  'game/test_strict_readers.py'],
    },
    'io/edge_lists.py': {
        "tests": ['game/test_strict_readers.py', 'cli/test_reader_grammar.py',
                  'cli/test_cli_labels.py', 'game/test_readers.py'],
    },
    'io/json_graphs.py': {
        "tests": ['game/test_strict_readers.py', 'cli/test_cli_labels.py',
                  'cli/test_cli_commands.py'],
    },
    'cli/node_options.py': {
        "tests": ['cli/test_cli_labels.py', 'game/test_strict_readers.py',
                  'cli/test_cli_options.py'],
    },
    'cli/solver_options.py': {
        "tests": ['cli/test_cli_solver_options.py'],
    },
    'solving.py': {
        "tests": ['game/test_solve.py', 'game/test_solve_options.py', 'engine/test_fast_paths.py',
                  'engine/test_board_analyze.py',
                  'engine/test_memory.py', 'game/test_progress.py',
                  'engine/test_pinned_tables.py', 'engine/test_threads.py'],
    },
    'batch.py': {
        "tests": ['game/test_batch.py', 'game/test_solve.py', 'engine/test_pinned_tables.py',
                  'engine/test_threads.py', 'game/test_progress.py', 'game/test_inputs.py',
                  'engine/test_fast_paths.py', 'engine/test_batches.py'],
    },
    'io/export.py': {
        "tests": ['game/test_export.py', 'game/test_fast_writers.py', 'cli/test_cli_commands.py',
                  'cli/test_cli_options.py', 'engine/test_pinned_tables.py'],
    },
    'io/table_check.py': {
        "tests": ['game/test_verify.py', 'game/test_labels.py'],
    },
    'io/table_text.py': {
        "tests": ['game/test_fast_writers.py', 'game/test_export.py'],
    },
    'io/plane_rows.py': {
        "tests": ['game/test_byte_analysis.py', 'game/test_fast_writers.py',
                  'game/test_export.py', 'game/test_game_rules.py'],
    },
    'progress.py': {
        "tests": ['game/test_progress.py', 'engine/test_bit_engine.py', 'cli/test_cli_options.py'],
    },
    'engine/facts.py': {
        "tests": ['engine/test_propagate.py', 'engine/test_selector.py',
                  'engine/test_platform_limits.py', 'game/test_inputs.py',
                  'engine/test_memory.py', 'game/test_game_rules.py', 'game/test_solve.py'],
    },
    'outcome.py': {
        "tests": ['game/test_solve.py', 'game/test_first_hour.py', 'engine/test_propagate.py',
                  'game/test_game_rules.py'],
    },
    'engine/__init__.py': {
        "tests": ['engine/test_selector.py', 'engine/test_switches.py',
                  'packaging/test_packaging.py', 'game/test_solve.py'],
    },
    'engine/switches.py': {
        "tests": ['packaging/test_packaging.py', 'engine/test_switches.py'],
    },
    'engine/cpus.py': {
        "tests": ['engine/test_cpus.py', 'game/test_batch.py', 'engine/test_memory.py'],
    },
    'engine/optional.py': {
        "tests": ['engine/test_optional.py', 'game/test_writes.py'],
    },
    'cli/commands.py': {
        "tests": ['cli/test_cli_commands.py', 'cli/test_cli_options.py',
                  'game/test_first_hour.py', 'show/test_draw.py', 'game/test_inputs.py',
                  'engine/test_pinned_tables.py'],
    },
    'show/svg.py': {
        "tests": ['show/test_svg_geometry.py', 'cli/test_cli_commands.py', 'show/test_draw.py'],
    },
    'show/draw.py': {
        "tests": ['show/test_draw.py', 'cli/test_cli_commands.py', 'cli/test_cli_options.py',
                  'show/test_cops_svg.py'],
    },
    'show/png.py': {
        "tests": ['show/test_draw.py', 'cli/test_cli_commands.py'],
    },
    'show/play.py': {
        "tests": ['show/test_play_terminal.py', 'show/test_play_page.py'],
    },
    'show/page.py': {
        "tests": ['show/test_play_page.py'],
    },
    'display.py': {
        "tests": ['show/test_draw.py', 'show/test_cops_svg.py'],
    },
    'engine/py_cops.py': COPS_TWIN,
    # (The shared checks also choose the compiled crew's threads: its tests too.)
    'engine/cops_checks.py': {**COPS_TWIN,
                              "tests": [*COPS_TWIN["tests"], 'engine/test_cops_auto.py']},
    'cops/number.py': {
        "tests": ['game/test_cop_number.py', 'game/test_cops_game.py',
                  'game/test_cops_census.py'],
    },
    'cops/census.py': {
        "tests": ['game/test_cops_census.py', 'cli/test_cli_cop_number.py',
                  'cli/test_cli_census.py'],
    },
    'cops/game.py': {
        "tests": ['game/test_cops_game.py', 'show/test_cops_svg.py', 'game/test_cops_words.py',
                  'engine/test_cops_plies.py'],
    },
    'cops/plies.py': {"tests": ['engine/test_cops_plies.py', 'game/test_cops_game.py']},
    'cops/export.py': {
        "tests": ['game/test_cops_game.py', 'game/test_cops_words.py'],
    },
    'cops/sides.py': {"tests": ['game/test_cops_words.py']},
    'cops/limits.py': {
        "tests": ['game/test_cops_words.py', 'game/test_cop_number.py',
                  'cli/test_cli_cop_number.py'],
    },
    '_moved.py': {"tests": ['game/test_pickle.py']},
    'io/atomic.py': {
        "tests": ['game/test_writes.py', 'game/test_storage.py',
                  'game/test_special_targets.py'],
    },
    'show/words.py': {
        "tests": ['show/test_words.py', 'show/test_draw.py', 'show/test_play_terminal.py',
                  'show/test_play_page.py'],
    },
    'show/cops.py': {
        "tests": ['show/test_cops_svg.py', 'show/test_cops_page.py'],
    },
    'show/cops_page.py': {
        "tests": ['show/test_cops_page.py'],
    },
    'show/shell.py': {
        "tests": ['show/test_shell.py', 'show/test_words.py', 'show/test_play_page.py',
                  'show/test_cops_page.py'],
    },
    'cli/cop_census.py': {
        "tests": ['cli/test_cli_cop_number.py', 'cli/test_reader_grammar.py',
                  'cli/test_cli_labels.py'],
    },
    'cli/cop_play.py': {"tests": ['cli/test_cli_cop_play.py']},
    'cli/cop_win.py': {"tests": ['cli/test_cop_win_stream.py', 'cli/test_reader_grammar.py']},
    'cli/census.py': {"tests": ['cli/test_cli_census.py']},
    'cli/outputs.py': {
        "tests": ['cli/test_cli_write_errors.py', 'game/test_special_targets.py',
                  'game/test_writes.py'],
    },
}

CYTHON_MODULES: dict[str, dict] = {
    'engine/cops.pxi': COPS_COMPILED,
    'engine/cops_tables.pxi': COPS_COMPILED,
    'engine/cops_wide.pxi': COPS_COMPILED,
    'engine/cops_entry.pxi': COPS_COMPILED,
    'engine/cops_crew.pxi': {
        "tests": ['engine/test_cops_threads.py', 'engine/test_cops.py'],
        "engine": 'catmouse.engine.bits_c',
    },
    'engine/bits_c.pyx': COMPILED,
    # Its allocation checks are reached only when an allocation fails (the no-memory sweep).
    'engine/batch.pxi': {"tests": [*COMPILED["tests"], 'engine/test_no_memory.py'],
                         "engine": 'catmouse.engine.bits_c'},
    'engine/boards.pxi': COMPILED,
    'engine/crew.pxi': COMPILED,
    'engine/entry.pxi': COMPILED,
    'engine/lists.pxi': COMPILED,
    'engine/pace.pxi': {"tests": ['engine/test_pace.py', *COMPILED["tests"]],
                        "engine": 'catmouse.engine.bits_c'},
    'engine/remoteness.pxi': COMPILED_REMOTENESS,
    'engine/rounds.pxi': COMPILED_REMOTENESS,
    'engine/scatter.pxi': COMPILED_REMOTENESS,
    'engine/small.pxi': COMPILED,
    'engine/tables.pxi': COMPILED,
}

# The module names of the earlier reports -> the files that hold their code now.
OLD_NAMES: dict[str, list[str]] = {
    '_retro_py': ['engine/bits_py.py', 'engine/checks.py', 'engine/py_game.py',
                  'engine/py_small.py', 'engine/py_rounds.py', 'engine/py_boards.py',
                  'engine/py_lists.py'],
    '_analysis': ['analysis.py', 'analysis_checks.py'],
    '_graph': ['graph.py', 'graph_checks.py'],
    '_rules': ['rules.py'],
    '_game': ['game.py'],
    '_family': ['family.py'],
    '_io': ['io/graph_files.py'],
    '_api': ['solving.py'],
    '_batch': ['batch.py'],
    '_export': ['io/export.py'],
    '_progress': ['progress.py'],
    '_facts': ['engine/facts.py'],
    '_outcome': ['outcome.py'],
    '_retro': ['engine/__init__.py'],
    '_switches': ['engine/switches.py'],
    '_cli': ['cli/commands.py'],
    '_svg': ['show/svg.py'],
    '_draw': ['show/draw.py'],
    '_png': ['show/png.py'],
    '_play': ['show/play.py'],
    '_page': ['show/page.py'],
    '_retro_c': ['engine/bits_c.pyx', 'engine/batch.pxi', 'engine/boards.pxi', 'engine/crew.pxi',
                 'engine/entry.pxi', 'engine/lists.pxi', 'engine/pace.pxi',
                 'engine/remoteness.pxi',
                 'engine/rounds.pxi', 'engine/scatter.pxi', 'engine/small.pxi',
                 'engine/tables.pxi'],
}


def _loose_bound(ratios: str) -> str:
    """The reason for a change of the pure twin's memory bound that a test cannot see."""
    return ("peak_bytes is documented as an upper bound, and tracemalloc puts it at 1.93-6.64 "
            "times the traced peak of dense games, n = 8 to 100, every mode (test_twin_memory.py"
            f" checks peak <= bound <= 8 x peak); this mutant gives {ratios}: still a bound "
            "within the factor, so only a test that copies the formula could see it")


# Equivalent mutants: (file, stripped source line, mutation text) -> why no test can kill it.
# The mutation text is what --list prints after the line number.  A test checks that every
# line still stands in its file.
EQUIVALENT: dict[tuple[str, str, str], str] = {
    ('catmouse/engine/cpus.py', 'if quota is not None and quota < count:', '`<` -> `<=`'):
        "a quota equal to the affinity's count leaves the count as it was",
    ('catmouse/engine/cpus.py', 'if cpus is not None and (best is None or cpus < best):',
     '`<` -> `<=`'):
        "a quota equal to the smallest so far leaves the smallest as it was",
    ('catmouse/engine/cpus.py', 'for depth in range(len(names), -1, -1):', '`1` -> `2` (#1)'):
        "stopping at -2 adds depth -1, names[:-1]: a folder already read (the root again for "
        "a path of none), so the smallest quota is the same",
    ('catmouse/engine/batch.pxi', 'return 0', '`0` -> `1`'):
        "every `return 0` of batch.pxi ends an `except -1` function (pack_lists, read_item, "
        "solve_window) whose callers read only the -1 that carries a Python error",
    **{('catmouse/engine/batch.pxi',
        'if (w.packed == NULL and (w.games == NULL or w.targets == NULL or w.small == NULL)) \\',
        f'`or` -> `and` (#{k})'):
       "crew_alloc returns before allocating `ready` whenever games, targets or small is NULL, "
       "so crew_complete's own `w.ready == NULL` refuses those crews with either connective"
       for k in (1, 2)},
    ('catmouse/engine/batch.pxi', 'if (i - lo) % BATCH_CHUNK == BATCH_CHUNK - 1:',
     '`==` -> `!=`'):
        "solve_alone then looks for Ctrl-C after 63 items of every 64 instead of one: the "
        "same codes, and a Ctrl-C answered sooner, only the batch slower",
    ('catmouse/engine/batch.pxi', 'if helpers <= 0:', '`<=` -> `<`'):
        "helpers is never negative (threads >= 1, a window holds an item), so the mutant sends "
        "every helperless window to solve_window with no helper: the crew path this one "
        "replaced, with the same codes at a higher cost",
    ('catmouse/engine/rounds.pxi', 'x &= x - 1  # the lowest bit cleared', 'drop the statement'):
        "at_most_thin then calls no word of new bits thin, so every such word goes through "
        "the 64x64 tiles and FC/FM, the path words of three or more bits take: the same "
        "tables, the thin words' shortcut lost (the other way, too many words called thin, "
        "overflows the thin lists and is caught)",
    ('catmouse/engine/crew.pxi', 'return SPINS if threads <= usable_cpus() else 0', '`<=` -> `<`'):
        "whether a crew spins on its locks before sleeping, when its threads are exactly the "
        "CPUs: a lock is acquired either way, so only the time a phase's hand-over takes "
        "changes",
    ('catmouse/engine/cops.pxi',
     "COPS_BAD_GRAPH6 = -1      # cops_graph6's answer for a line that is not graph6",
     '`1` -> `2`'):
        "cops_graph6's one caller (cops_entry.pxi) reads any negative answer as a bad line",
    ('catmouse/engine/cops.pxi', 'if rows < 0 or rows >= (<int64_t> 1) << 31:', '`>=` -> `>`'):
        "the two differ only at exactly 2**31 rows, and no C(n+k-1, k) with n <= 1024 and "
        "k <= 16 equals 2**31 (checked by enumeration)",
    ('catmouse/engine/cops.pxi', 'rows = max(rows, 64)', 'drop the statement'):
        "the least capacity kept for reuse: every buffer still holds the rows asked for, so "
        "only how often a small search reallocates changes",
    ('catmouse/engine/__init__.py',
     'def solve(self, mouse: Any, cat: Any, turn: Any = 0) -> int: ...', '`0` -> `1`'):
        "a typing.Protocol's method is a signature for type checkers, never called: the twins' "
        "own defaults are what run (and are tested)",
    ('catmouse/engine/__init__.py',
     'def __call__(self, n: int, flags: Any, *arrays_and_tables: Any, threads: int = 1,',
     '`1` -> `2`'):
        "a typing.Protocol's signature, never called: the twins' propagate defaults run",
    ('catmouse/engine/py_lists.py', 'board ^= swap ^ (swap << shift)', '`^` -> `|`'):
        "swap holds bits of mask only and swap << shift bits of mask << shift only, which the "
        "transpose's masks keep apart: the two terms share no bit, so ^ and | are the same",
    ('catmouse/engine/py_boards.py',
     'if not (0 <= mouse < n and 0 <= cat < n and 0 <= turn <= 1):',
     '`<` -> `<=` (#2)'):
        "a cat on node n passes the range check but not the next one: the nodes the cat may "
        "stand on (stand) have no bit n, so solve answers -1 either way",
    ('catmouse/io/table_check.py',
     'NEVER = 1 << 32  # above any remoteness (2*n*n < 2**31)',
     '`32` -> `33`'):
        "verify's never-ending score only has to exceed every remoteness; 2**33 does too, and "
        '_TOP and every comparison move with it',
    ('catmouse/analysis.py',
     'check(expected, view[nn + c : 2 * nn : n], nn + c, n)',
     '`2` -> `3`'):
        "the slice's end is past the table's end either way (a slice is clipped): same columns",
    ('catmouse/graph.py',
     'raise ImportError("catmouse needs a 4-byte C int")',
     'drop the statement'):
        "unreachable where the tests run: array('i') has 4-byte items on every platform CPython "
        'supports (the guard is `pragma: no cover`)',
    ('catmouse/graph.py',
     'None, checked=True)',
     '`True` -> `False`'):
        'adjacency lists are validated row by row on the way in; checked=False only checks the '
        'CSR built from them again, which passes',
    ('catmouse/graph.py',
     'self._init_from(n, indptr, indices, directed, None, checked=True, reverse=reverse)',
     '`True` -> `False`'):
        "the engine's list builder accepts only lists it has fully checked; checked=False only "
        'checks the CSR again, which passes',
    ('catmouse/analysis.py',
     'if not worst or key < worst:',
     '`<` -> `<=`'):
        "every key holds its position's index and each position is checked once: no two keys are "
        'equal',
    ('catmouse/rules.py',
     'target: bool = False, threads: int = 1,',
     '`1` -> `2`'):
        "check_memory's default thread count: every caller in the package passes threads, and the"
        " queue engines' peak_bytes ignore it (re-check once peak_bytes depends on threads)",
    ('catmouse/rules.py',
     'def run(self, outcome: Any = None, remoteness: Any = None, target: int = -1,',
     '`1` -> `2`'):
        "Rules.run's default target -1 becomes -2: every negative target means a full table",
    ('catmouse/rules.py',
     'threads: int = 1, progress: Any = None, planes: Any = None,',
     '`1` -> `2`'):
        "Rules.run's default thread count: every caller passes threads, and the queue engines "
        'ignore it (re-check once the engine uses threads)',
    ('catmouse/engine/bits_py.py',
     'def peak_bytes(n: int, outcome: bool, remoteness: bool, target: bool, threads: int = 1,',
     '`1` -> `2`'):
        "the twin's peak_bytes default thread count: it is checked and ignored (the twin runs "
        'one thread), and any positive default gives the same bound',
    ('catmouse/rules.py',
     'if target >= 0:',
     '`0` -> `1`'):
        'target 0 is (mouse 0, cat 0, mouse to move): the cat is on the mouse, never a draw, so '
        '`result or draw` is result there',
    ('catmouse/solving.py',
     'if max_memory is None and (threads is None or (type(threads) is int and threads == 1)):',
     '`is` -> `is not` (#2)'):
        "only routes a call past a fast path (cached Board, the engine's list solver) to the "
        'plain path, which gives the same answer: speed, not results',
    ('catmouse/solving.py',
     'elif type(graph) is list:',
     '`is` -> `is not`'):
        "only routes a call past a fast path (cached Board, the engine's list solver) to the "
        'plain path, which gives the same answer: speed, not results',
    ('catmouse/solving.py',
     'if code >= 0:',
     '`0` -> `1`'):
        "only routes a call past a fast path (cached Board, the engine's list solver) to the "
        'plain path, which gives the same answer: speed, not results (a draw, code 0, is solved '
        'again on the plain path)',
    ('catmouse/solving.py',
     'if need_bytes(graph.n, outcome=False, remoteness=False, target=True) > SMALL_TABLES:',
     '`False` -> `True` (#1)'):
        'only changes which graphs get a cached Board (an estimate of its size against '
        'SMALL_TABLES): speed and memory, not results',
    ('catmouse/solving.py',
     'if need_bytes(graph.n, outcome=False, remoteness=False, target=True) > SMALL_TABLES:',
     '`False` -> `True` (#2)'):
        'only changes which graphs get a cached Board (an estimate of its size against '
        'SMALL_TABLES): speed and memory, not results',
    ('catmouse/solving.py',
     'if need_bytes(graph.n, outcome=False, remoteness=False, target=True) > SMALL_TABLES:',
     '`True` -> `False`'):
        'only changes which graphs get a cached Board (an estimate of its size against '
        'SMALL_TABLES): speed and memory, not results',
    ('catmouse/engine/py_rounds.py',
     'break  # early exit: nothing left to lose',
     'drop the statement'):
        'the loop only ANDs more rows into a mask that is already 0: the same answer, later',
    ('catmouse/engine/bits_py.py',
     'total += 5 * _list_bytes(n + 1) + 4 * (n + 1) * 32',
     '`+` -> `-` (#2)'):
        "the twin's peak_bytes is documented as an upper bound, and it is a loose one: 1.3 to 5.5"
        ' times the tracemalloc peak for n = 10 to 400 with every table option, at least 29 KB '
        'and 24% above it; this changes it by under 1 KB per node and leaves a bound, which is '
        'all a test can check',
    ('catmouse/engine/bits_py.py',
     'total += 4 * (_list_bytes(n) + 200 * n)',
     '`*` -> `//` (#1)'):
        "the twin's peak_bytes is documented as an upper bound, and it is a loose one: 1.3 to 5.5"
        ' times the tracemalloc peak for n = 10 to 400 with every table option, at least 29 KB '
        'and 24% above it; this changes it by under 1 KB per node and leaves a bound, which is '
        'all a test can check',
    ('catmouse/io/table_text.py',
     "r = -1 if own is None else own[c]",
     '`1` -> `2`'):
        'r is only read as `"" if r < 0 else r`: -1 and -2 both give an empty cell',
    ('catmouse/batch.py',
     'return need_bytes(n, outcome=False, remoteness=False, target=True) > SMALL_TABLES',
     '`True` -> `False`'):
        "neither engine's peak_bytes reads target and need_bytes only passes it on: the same "
        'bytes for every n in 0..MAX_NODES (checked on both engines)',
    ('catmouse/batch.py',
     'return need_bytes(n, outcome=False, remoteness=False, target=True) > SMALL_TABLES',
     '`>` -> `>=`'):
        'need_bytes equals SMALL_TABLES at no n in 0..MAX_NODES on either engine (checked)',
    ('catmouse/batch.py',
     'positions = 0',
     '`0` -> `1`'):
        'positions grows by even amounts and the threshold is even: 1 + even >= even exactly when'
        ' even >= even',
    ('catmouse/batch.py',
     'codes = [-1] * len(batch)',
     '`1` -> `2`'):
        'only the sign of a declined code is read (code >= 0)',
    ('catmouse/batch.py',
     'codes[k] = -1 if code == 255 else code',
     '`1` -> `2`'):
        'only the sign of a declined code is read (code >= 0)',
    ('catmouse/batch.py',
     'step = max(1, len(boards) // _SLICES) if callback is not None else max(1, len(boards))',
     '`1` -> `2` (#2)'):
        'without a callback the step covers every board either way: one slice',
    ('catmouse/batch.py',
     '_SLICES = 50',
     '`50` -> `51`'):
        "51 slices report progress a little more often, within the documented 'at most 2% of the "
        "batch between calls'",
    ('catmouse/engine/bits_py.py',
     'total += 5 * _list_bytes(n + 1) + 4 * (n + 1) * 32',
     '`4` -> `5`'):
        "raises the twin's documented upper bound (loose already, see _loose_bound): still a "
        'bound, which is all a test can check',
    ('catmouse/engine/bits_py.py',
     'total += 4 * (_list_bytes(n) + 200 * n)',
     '`200` -> `201`'):
        "raises the twin's documented upper bound (loose already, see _loose_bound): still a "
        'bound, which is all a test can check',
    ('catmouse/engine/py_rounds.py',
     'everyone = (1 << n) - 1  # the row of a node the cat may not enter',
     '`1` -> `2` (#1)'):
        'the extra bit n lands only in the rows of nodes the cat may not enter, which are only '
        'ANDed into masks of bits below n; 20,000 random games under every rule agree with the '
        'queue oracle',
    ('catmouse/show/svg.py',
     'def layout(graph: Graph, seed: int = 7) -> list[Point]:',
     '`7` -> `8`'):
        "the default seed of networkx's spring layout (only for disconnected boards or past 500 "
        'nodes): any fixed seed gives an equally deterministic picture; the number is arbitrary',
    ('catmouse/show/svg.py',
     'x += 34 + 8.2 * len(text) + 22',
     '`34` -> `35`'):
        'one pixel more between legend items, a cosmetic spacing: the row stays in order, apart '
        'and inside the picture, off-centre by under 3 px',
    ('catmouse/show/svg.py',
     'if src > dst:',
     'negate the condition'):
        "mirrors every arrow's bow across its edge: the mouse's moves on an edge still all bow "
        "one way and the cat's the other (tested); which way is a convention no reader sees",
    ('catmouse/show/draw.py',
     'width = 560 if graph.n <= 30 else 820',
     '`560` -> `561`'):
        'the notebook max-width for small boards, a cosmetic cap: one pixel wider cannot be seen',
    ('catmouse/show/draw.py',
     'width = 560 if graph.n <= 30 else 820',
     '`820` -> `821`'):
        'the notebook max-width for crowded boards, a cosmetic cap: one pixel wider cannot be '
        'seen (which boards get which cap is tested)',
    ('catmouse/show/svg.py',
     '_, end = _shorten((cx, cy), (x2, y2), 0, radius + 3)',
     '`0` -> `1`'):
        "what is cut from the segment's first end, the control point, whose shortened point is "
        'thrown away (`_`): the end kept does not depend on it',
    ('catmouse/show/cops.py',
     'radius = fitted_radius(points, size, max(8.0, min(17.0, 150.0 / math.sqrt(max(n, 1)))), 8.0)',
     '`1` -> `2`'):
        'the guard only changes n = 1, where 150/sqrt(1) and 150/sqrt(2) are both capped at 17; '
        'a board of no nodes has no position to draw',
    ('catmouse/show/png.py',
     'Converter = Callable[[str, str, int, int], None]',
     'drop the statement'):
        'a type alias used only in annotations, which are never evaluated (from __future__ import'
        ' annotations)',
    ('catmouse/show/png.py',
     'TIMEOUT = 120',
     '`120` -> `121`'):
        'how long a hung converter is waited for: 121 s instead of 120 shows only to someone '
        'waiting two minutes (the timeout itself is tested with TIMEOUT set to 1)',
    ('catmouse/show/png.py',
     'return False',
     '`return x` -> `return None`'):
        '_cairosvg_loads: None is as falsy as False and its only caller tests truthiness',
    ('catmouse/show/png.py',
     'svg = re.sub(r\'^(<svg\\b[^>]*?) style="[^"]*"\', r"\\1", svg, count=1)',
     '`1` -> `2`'):
        "the pattern is anchored at the text's start (^ without MULTILINE), so it matches at most"
        ' once: count 1 or 2 is the same',
    ('catmouse/show/png.py',
     'command.insert(1, "--no-sandbox")  # Chromium refuses to run as root otherwise',
     '`1` -> `2`'):
        "where --no-sandbox sits among the browser's options: Chromium reads them in any order",
    ('catmouse/engine/rounds.pxi',
     'dense = words * DENSE_SHARE >= W',
     '`>=` -> `>`'):
        'only chooses between the whole-row loop and the changed-words loop at exactly half '
        'of the words changed: both compute the same row (speed, not results)',
    ('catmouse/engine/rounds.pxi',
     'mw &= ~pad',
     'drop the statement'):
        'mw = hole[j] & ~cw and hole[] only has bits of real nodes (set for u < n): the padding '
        'past the last node is already clear',
    ('catmouse/show/page.py',
     'x2, y2 = x2 - (x2 - x1) / d * (radius + 3), y2 - (y2 - y1) / d * (radius + 3)',
     '`3` -> `4` (#2)'):
        "moves an arrow's head on the play page by under a pixel (one pixel shorter along y "
        'only): cosmetic, the head still stops short of its node',
    ('catmouse/family.py',
     'rr, cc = r + dr * step, c + dc * step',
     '`+` -> `-` (#1)'):
        '_DIRECTIONS holds (dr, dc) and (-dr, dc) alike: the same edges, in another order',
    ('catmouse/family.py',
     'rr, cc = r + dr * step, c + dc * step',
     '`+` -> `-` (#2)'):
        '_DIRECTIONS holds (dr, dc) and (dr, -dc) alike: the same edges, in another order',
    ('catmouse/family.py',
     'game = Game(graph, holes=(), mouse_stays=True, cat_stays=True,',
     '`True` -> `False` (#2)'):
        'the robber may stay, so a cop never needs to: a pass answered by a pass is the same '
        'position, and a winning line with a pass would be longer than itself',
    ('catmouse/engine/entry.pxi',
     'g.m_ix = &mouse_indices[0] if mouse_indices.shape[0] else NULL',
     'drop the statement'):
        "Game.m_ix is never read: the search walks the mouse's reverse moves and counts forward "
        'moves from m_ip',
    ('catmouse/engine/entry.pxi',
     'g.m_ix = &mouse_indices[0] if mouse_indices.shape[0] else NULL',
     '`0` -> `1` (#1)'):
        "Game.m_ix is never read (see the line's drop)",
    ('catmouse/engine/entry.pxi',
     'g.m_ix = &mouse_indices[0] if mouse_indices.shape[0] else NULL',
     '`0` -> `1` (#2)'):
        "Game.m_ix is never read (see the line's drop)",
    ('catmouse/engine/bits_py.py',
     'return (24 + 4 * max(1, -(-bits // 30)) + 15) // 16 * 16 + 16',
     '`1` -> `2`'):
        'max(2, d) differs from max(1, d) only for one digit, and 24 + 4 and 24 + 8 bytes round '
        'up to the same 16-byte block: the same bytes for every bits',
    ('catmouse/engine/checks.py',
     'if view.ndim == 1 and view.format.lstrip("@=") in _INT_FORMATS:',
     '`1` -> `2`'):
        '(in _offsets and _ids) a 1-D int buffer takes the per-item path: the same ints; a 2-D '
        'array is refused either way (NotImplementedError iterating it, or TypeError comparing '
        'its rows), an error CPython words and no contract names',
    ('catmouse/engine/py_game.py',
     'continue',
     'drop the statement'):
        "_stamp's skip of a row with no new bits: both bit loops below run zero times on it, "
        'so only the unused base is computed (speed, not results)',
    ('catmouse/engine/py_small.py',
     'while width < n:',
     '`<` -> `<=`'):
        'fields twice as wide at n = 8, 16, 32, 64: the extra bits stay 0 through the swaps and '
        'masks (the same tables), and the traced peak grows by at most 30%, still 2.9 times under'
        ' peak_bytes (measured, dense games, every mode)',
    ('catmouse/engine/py_small.py',
     't_mask = 0',
     'drop the statement'):
        'read only under `turn >= 0 and ...`, and with no target turn is -1: the name is '
        'never read',
}


# Changes of the pure twin's memory bound that stay a bound within the tested factor:
# source line -> (mutation, the bound over the traced peak with it, n = 8 to 100).
_LOOSE_BOUND: dict[str, list[tuple[str, str]]] = {
    'return (24 + 4 * max(1, -(-bits // 30)) + 15) // 16 * 16 + 16':
        [('`16` -> `17` (#3)', '1.95-6.69')],
    'return 72 + 9 * items + 32':
        [('`+` -> `-` (#1)', '1.93-6.39'), ('`32` -> `33`', '1.94-6.65')],
    'total += 5 * _list_bytes(n + 1) + 4 * (n + 1) * 32':
        [('`+=` -> `-=`', '1.77-5.82'), ('`+` -> `-` (#1)', '1.82-6.13'),
         ('`1` -> `2` (#1)', '1.94-6.65'), ('`1` -> `2` (#2)', '1.94-6.66')],
    'total += 4 * (_list_bytes(n) + 200 * n)':
        [('`+=` -> `-=`', '1.16-3.51'), ('`4` -> `5`', '2.03-7.05')],
    'total += 3 * _int_bytes(n) + n + 64  # flags and the flag masks':
        [('drop the statement', '1.93-6.62')],
    'width = 8':
        [('`8` -> `9`', '1.94-6.70')],
    'row = _int_bytes(4 * width)':
        [('`*` -> `//`', '1.94-6.16')],
    'total += 22 * (_list_bytes(n) + n * row)':
        [('`22` -> `23`', '1.97-6.64'), ('`*` -> `//` (#2)', '1.28-6.64')],
    'total += 3 * n * (80 + 2 * row)  # tuples of new rows':
        [('drop the statement', '1.65-6.64'), ('`*` -> `//` (#2)', '1.65-6.64'),
         ('`3` -> `4`', '2.03-6.64'), ('`80` -> `81`', '1.94-6.64')],
    'total += 4 * min(2 * n * n, _FILL_BLOCK) + 64':
        [('`+=` -> `-=`', '1.19-6.64'), ('`4` -> `5`', '2.03-6.64'),
         ('`*` -> `//` (#2)', '1.56-6.64'), ('`64` -> `65`', '1.94-6.64')],
    "total += 8 * (5 * n + 128)  # _codes' strings and ints of one row":
        [('drop the statement', '1.91-6.64'), ('`*` -> `//` (#1)', '1.91-6.64'),
         ('`*` -> `//` (#2)', '1.92-6.64')],
}
EQUIVALENT.update({('catmouse/engine/bits_py.py', text, what): _loose_bound(ratios)
                   for text, changes in _LOOSE_BOUND.items() for what, ratios in changes})
# The game and show layers' equivalents, kept in a file of their own (this one stays short).
EQUIVALENT.update(runpy.run_path(str(Path(__file__).with_name("mutation_equivalents.py")))
                  ["GAME_AND_SHOW"])
