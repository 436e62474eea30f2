"""Mutation run: plant one small bug at a time and check that the tests catch it.

Usage (from the repository root; the compiled engine need not be built, each worker builds its
own copy):

    python ci/mutation.py                       # every file, default sample sizes
    python ci/mutation.py --modules rules.py game.py --python-sample 0   # whole catalogues
    python ci/mutation.py --modules _retro_c --cython-sample 40 --seed 1  # .pyx and every .pxi
    python ci/mutation.py --list rules.py       # print the catalogue, run nothing
    python ci/mutation.py --modules batch.py --pick "95:negate the condition" "104:`1` -> `2`"
                                                # chosen mutants (LINE:MUTATION as --list
                                                # prints them), e.g. a run's survivors

Why not mutmut: mutmut 3 (3.8.1 here, configured by ``[tool.mutmut]``) rewrites every function
into a trampoline, collects per-test coverage with one pass of the whole suite, and cannot touch
the Cython engine; this suite also runs a CLI subprocess and switches engines through a fixture.
This driver does the same job in the plainest way, the same for Python and Cython:

- a scratch copy of the tree per worker (catmouse/, tests/, setup.py, pyproject.toml) in a temp
  directory, the compiled engine built there once (and again for each Cython mutant);
- one mutant at a time: the mutated file is written into the copy, a forked child runs pytest
  in-process on that module's test selection (``-x``: the first failure kills the mutant), and
  the original file is written back.  A child that runs past its time limit is killed and the
  mutant counted as killed by timeout (a hang is a caught bug);
- Python mutants come from the ``ast`` (operator swaps, comparison boundaries, negated
  conditions, constants +1, dropped statements, ``return None``) and are written back as text
  spans, so comments and line numbers elsewhere stay; Cython mutants come from line patterns
  (see CYTHON_OPERATORS), found by pattern and never by line number, so the catalogue runs
  unchanged on a rewritten engine.  Big catalogues are sampled with a fixed seed.
- Equivalent mutants (no test can tell them apart from the original) are excluded only through
  EQUIVALENT below, each with its reason, matched by file, source line text and mutation.

Output: per module, mutants tried, killed (of which timeouts), survived, not built (a Cython
mutant that does not compile), the kill rate, and every survivor as file:line and mutation.
``--markdown FILE`` also writes that table as Markdown: a run's record goes in its own file under
docs/dev/mutation/, and the next fold moves it into docs/dev/mutation/RESULTS.md (which says how).
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutation_catalogue import (  # noqa: E402  (beside this file; ci/ is no package)
    CYTHON_MODULES,
    EQUIVALENT,
    OLD_NAMES,
    PYTHON_MODULES,
)

DEFAULT_PYTHON_SAMPLE = 40  # per module; 0 = the whole catalogue
DEFAULT_CYTHON_SAMPLE = 30


@dataclass
class Mutant:
    file: str  # relative to the root, e.g. catmouse/rules.py
    line: int
    what: str  # human text, e.g. "`<` -> `<=`"
    start: int  # byte span in the file that is replaced
    end: int
    text: bytes  # replacement

    def apply(self, source: bytes) -> bytes:
        return source[: self.start] + self.text + source[self.end :]

    def key(self, source: bytes) -> tuple[str, str, str]:
        line = source.splitlines()[self.line - 1].decode().strip()
        return (self.file, line, self.what)


def _number_repeats(mutants: list[Mutant]) -> list[Mutant]:
    """Tell apart the same mutation at two places of one line: "... (#2)" for the second."""
    mutants.sort(key=lambda m: (m.line, m.start, m.what))
    groups: dict[tuple[int, str], list[Mutant]] = {}
    for m in mutants:
        groups.setdefault((m.line, m.what), []).append(m)
    for group in groups.values():
        if len(group) > 1:
            for k, m in enumerate(group, 1):
                m.what = f"{m.what} (#{k})"
    return mutants


# ---------------------------------------------------------------- Python catalogue (ast)

BINOP_SWAP = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult, ast.Mod: ast.FloorDiv, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd,
    ast.BitXor: ast.BitOr, ast.LShift: ast.RShift, ast.RShift: ast.LShift, ast.Pow: ast.Mult,
}
CMP_SWAP = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
SYMBOL = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%",
    ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
    ast.Pow: "**", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
    ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
    ast.And: "and", ast.Or: "or",
}


class _Spans:
    """Byte offsets of (line, column) pairs; ast columns are UTF-8 byte offsets."""

    def __init__(self, source: bytes):
        self.starts = [0]
        for line in source.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))

    def of(self, node) -> tuple[int, int]:
        start = self.starts[node.lineno - 1] + node.col_offset
        end = self.starts[node.end_lineno - 1] + node.end_col_offset
        return start, end


def _skipped_nodes(tree: ast.Module) -> set[int]:
    """ids of nodes never mutated: annotations, docstrings, f-strings, TYPE_CHECKING, __all__."""
    skip: set[int] = set()

    def drop(node):
        if node is not None:
            for sub in ast.walk(node):
                skip.add(id(sub))

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            drop(node.returns)
            for arg in node.args.args + node.args.kwonlyargs + node.args.posonlyargs:
                drop(arg.annotation)
            for arg in (node.args.vararg, node.args.kwarg):
                if arg is not None:
                    drop(arg.annotation)
        if isinstance(node, ast.AnnAssign):
            drop(node.annotation)
        if isinstance(node, ast.JoinedStr):
            drop(node)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                drop(body[0])
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            drop(node)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            drop(node)
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            drop(node)
    return skip


def python_catalogue(path: Path) -> list[Mutant]:
    source = path.read_bytes()
    rel = str(path.relative_to(ROOT))
    tree = ast.parse(source)
    skip = _skipped_nodes(tree)
    spans = _Spans(source)
    out: list[Mutant] = []

    def expr(node, new_node, what):
        start, end = spans.of(node)
        text = ("(" + ast.unparse(new_node) + ")").encode()
        out.append(Mutant(rel, node.lineno, what, start, end, text))

    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAP:
            new = copy.deepcopy(node)
            new.op = BINOP_SWAP[type(node.op)]()
            expr(node, new, f"`{SYMBOL[type(node.op)]}` -> `{SYMBOL[type(new.op)]}`")
        elif isinstance(node, ast.AugAssign) and type(node.op) in BINOP_SWAP:
            new = copy.deepcopy(node)
            new.op = BINOP_SWAP[type(node.op)]()
            start, end = spans.of(node)
            out.append(Mutant(rel, node.lineno,
                              f"`{SYMBOL[type(node.op)]}=` -> `{SYMBOL[type(new.op)]}=`",
                              start, end, ast.unparse(new).encode()))
        elif isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in CMP_SWAP:
                    new = copy.deepcopy(node)
                    new.ops[i] = CMP_SWAP[type(op)]()
                    expr(node, new, f"`{SYMBOL[type(op)]}` -> `{SYMBOL[type(new.ops[i])]}`")
        elif isinstance(node, ast.BoolOp):
            new = copy.deepcopy(node)
            new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            expr(node, new, f"`{SYMBOL[type(node.op)]}` -> `{SYMBOL[type(new.op)]}`")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            expr(node, node.operand, "`not x` -> `x`")
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            expr(node, ast.Constant(not node.value), f"`{node.value}` -> `{not node.value}`")
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            expr(node, ast.Constant(node.value + 1), f"`{node.value}` -> `{node.value + 1}`")
        if isinstance(node, (ast.If, ast.While, ast.IfExp)) and id(node.test) not in skip:
            start, end = spans.of(node.test)
            text = b"(not (" + source[start:end] + b"))"
            out.append(Mutant(rel, node.test.lineno, "negate the condition", start, end, text))
        if isinstance(node, ast.Return) and node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None
        ):
            start, end = spans.of(node)
            out.append(Mutant(rel, node.lineno, "`return x` -> `return None`", start, end,
                              b"return None"))
        if isinstance(node, (ast.Expr, ast.Assign, ast.AugAssign, ast.Raise, ast.Continue,
                             ast.Break)):
            start, end = spans.of(node)
            out.append(Mutant(rel, node.lineno, "drop the statement", start, end, b"pass"))
    return _number_repeats(out)


# ---------------------------------------------------------------- Cython catalogue (patterns)

# (name, pattern, replacement).  Patterns apply to the code part of a line (comment cut off);
# every match position is one mutant.
CYTHON_OPERATORS: list[tuple[str, str, str]] = [
    ("`&` -> `|`", r"(?<=\s)&(?=\s)", "|"),
    ("`|` -> `&`", r"(?<=\s)\|(?=\s)", "&"),
    ("`&=` -> `|=`", r"&=", "|="),
    ("`|=` -> `&=`", r"\|=", "&="),
    ("`^` -> `|`", r"(?<=\s)\^(?=\s)", "|"),
    ("`<<` -> `>>`", r"<<", ">>"),
    ("`>>` -> `<<`", r">>", "<<"),
    ("`+` -> `-`", r"(?<=\s)\+(?=\s)", "-"),
    ("`-` -> `+`", r"(?<=\s)-(?=\s)", "+"),
    ("`+=` -> `-=`", r"\+=", "-="),
    ("`-=` -> `+=`", r"-=", "+="),
    ("`*` -> `+`", r"(?<=\s)\*(?=\s)", "+"),
    ("`<` -> `<=`", r"(?<=\s)<(?=\s)", "<="),
    ("`<=` -> `<`", r"(?<=\s)<=(?=\s)", "<"),
    ("`>` -> `>=`", r"(?<=\s)>(?=\s)", ">="),
    ("`>=` -> `>`", r"(?<=\s)>=(?=\s)", ">"),
    ("`==` -> `!=`", r"(?<=\s)==(?=\s)", "!="),
    ("`!=` -> `==`", r"(?<=\s)!=(?=\s)", "=="),
    ("`and` -> `or`", r"\band\b", "or"),
    ("`or` -> `and`", r"\bor\b", "and"),
    ("`not x` -> `x`", r"\bnot\s+(?!None\b)", ""),
    ("`MOUSE_WIN` -> `CAT_WIN`", r"\bMOUSE_WIN\b", "CAT_WIN"),
    ("`CAT_WIN` -> `MOUSE_WIN`", r"\bCAT_WIN\b", "MOUSE_WIN"),
    ("`0` -> `1`", r"(?<![\w.])0(?![\w.])", "1"),
    ("`1` -> `0`", r"(?<![\w.])1(?![\w.])", "0"),
    ("`1` -> `2`", r"(?<![\w.])1(?![\w.])", "2"),
    ("`break` -> `pass`", r"\bbreak\b", "pass"),
    ("`continue` -> `pass`", r"\bcontinue\b", "pass"),
]
# Lines never mutated: declarations, signatures, imports, decorators, compiler directives.
CYTHON_SKIP = re.compile(
    r"^\s*(cdef|cpdef|def|ctypedef|cimport|from|import|@|#|include|DEF|with\s+nogil|"
    r"with\s+gil|struct|enum|ctypedef|class|raise|else:|try:|finally:|except)"
)
# A simple statement whose line may be dropped: assignment, augmented assignment or call.
CYTHON_STATEMENT = re.compile(r"^\s*[\w\[\].,* ()>-]+(\s*([+\-*/|&^]?=)\s*.+|\(.*\))$")
CONDITION = re.compile(r"^(\s*)(if|elif|while)\s+(.+):$")


def _code_lines(text: str):
    """(line number, line) of the code lines, docstrings and comment lines left out."""
    in_string = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if in_string:
            if in_string in stripped:
                in_string = None
            continue
        for quote in ('"""', "'''"):
            opens = stripped.startswith(quote)
            if opens or stripped.endswith(quote) and stripped.count(quote) == 1:
                if stripped.count(quote) == 1:
                    in_string = quote
                break
        else:
            if stripped and not stripped.startswith("#"):
                yield number, line
            continue


def _cut_comment(line: str) -> str:
    """The line without its trailing comment (crude: a '#' outside quotes starts it)."""
    quote = None
    for i, ch in enumerate(line):
        if ch in "'\"":
            quote = None if quote == ch else (quote or ch)
        elif ch == "#" and quote is None:
            return line[:i].rstrip()
    return line.rstrip()


def cython_catalogue(path: Path) -> list[Mutant]:
    source = path.read_bytes()
    text = source.decode()
    rel = str(path.relative_to(ROOT))
    starts = [0]
    for raw in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(raw))
    out: list[Mutant] = []
    in_extern = False
    open_parens = 0  # > 0 inside a multi-line def/cdef signature: declarations, not code
    for number, line in _code_lines(text):
        indent = len(line) - len(line.lstrip())
        code = _cut_comment(line)
        if open_parens or re.match(r"^\s*(cdef|cpdef|def)\b", code):
            open_parens += code.count("(") - code.count(")")
            open_parens = max(open_parens, 0)
            continue
        if line.lstrip().startswith("cdef extern") or line.lstrip().startswith("cdef struct"):
            in_extern, extern_indent = True, indent
            continue
        if in_extern:
            if indent > extern_indent:
                continue
            in_extern = False
        if CYTHON_SKIP.match(line) or indent == 0:
            continue
        code = _cut_comment(line)
        if '"' in code or "'" in code:  # messages and format strings: not engine logic
            continue
        base = starts[number - 1]
        byte_of = lambda col: len(code[:col].encode())  # noqa: E731
        for what, pattern, replacement in CYTHON_OPERATORS:
            for match in re.finditer(pattern, code):
                start, end = base + byte_of(match.start()), base + byte_of(match.end())
                out.append(Mutant(rel, number, what, start, end, replacement.encode()))
        condition = CONDITION.match(code)
        if condition:
            head = len(condition.group(1)) + len(condition.group(2)) + 1
            start = base + byte_of(head)
            end = base + byte_of(len(code) - 1)
            out.append(Mutant(rel, number, "negate the condition", start, end,
                              b"not (" + condition.group(3).encode() + b")"))
        if (CYTHON_STATEMENT.match(code) and code.count("(") == code.count(")")
                and not code.rstrip().endswith((":", ",", "\\"))
                and not re.match(r"^\s*(return|if|elif|while|for)\b", code)):
            start = base + byte_of(indent)
            end = base + byte_of(len(code))
            out.append(Mutant(rel, number, "drop the statement", start, end, b"pass"))
    return _number_repeats(out)


# ---------------------------------------------------------------- running


class _Select:
    """pytest plugin: keep only the given engine's parametrized tests."""

    def __init__(self, engine: str | None):
        self.engine = engine

    def pytest_collection_modifyitems(self, config, items):
        if self.engine is None:
            return
        keep, drop = [], []
        for item in items:
            param = getattr(getattr(item, "callspec", None), "params", {}).get("engine")
            (drop if param is not None and param != self.engine else keep).append(item)
        items[:] = keep
        config.hook.pytest_deselected(items=drop)


_NOT_COPIED = {".git", ".nox", "build", "dist", "__pycache__", ".hypothesis", "out"}


def _not_sources(folder: str, names: list[str]) -> set[str]:
    """What a scratch copy leaves out: builds, caches and generated files, never a source.

    The page templates (catmouse/show/*.html) and the hand-written C checks (tests/engine/c/,
    benchmarks/) are sources; Cython's C beside the .pyx and pages written at the top are not.
    """
    here = Path(folder)
    engine = here == ROOT / "catmouse" / "engine"
    return {name for name in names
            if name in _NOT_COPIED or name.startswith(".venv")
            or name.endswith((".so", ".egg-info"))
            or (engine and name.endswith(".c"))
            or (here == ROOT and name.endswith(".html"))}


def make_scratch(base: Path) -> Path:
    """A copy of the tree for one worker (tests read examples/, the build reads setup.py)."""
    shutil.copytree(ROOT, base, ignore=_not_sources)
    return base


def build(scratch: Path, log: Path) -> bool:
    env = dict(os.environ, CATMOUSE_REQUIRE_EXTENSIONS="1", CFLAGS="-O1 -g0")
    with open(log, "wb") as out:
        done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"],
                              cwd=scratch, env=env, stdout=out, stderr=subprocess.STDOUT)
    return done.returncode == 0


def start_tests(scratch: Path, tests: list[str], engine: str | None) -> int:
    """Fork a child that runs pytest on ``tests`` in ``scratch``; returns its pid."""
    pid = os.fork()
    if pid:
        return pid
    try:
        os.setsid()
        # A run started in the background (nohup ... &) inherits SIGINT ignored; the Ctrl-C
        # tests need it delivered.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.chdir(scratch)
        os.environ["PYTHONPATH"] = str(scratch)
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        os.environ.pop("CATMOUSE_NO_EXTENSIONS", None)
        sys.dont_write_bytecode = True
        sys.path.insert(0, str(scratch))
        import pytest

        paths = [str(scratch / "tests" / t) for t in tests if (scratch / "tests" / t).exists()]
        code = pytest.main(
            ["-x", "-q", "-p", "no:cacheprovider", "--hypothesis-profile=mutation", *paths],
            plugins=[_Select(engine)],
        )
        os._exit(int(code))
    except BaseException:
        os._exit(99)


def wait_tests(pid: int, limit: float) -> str:
    """'passed', 'failed' or 'timeout'."""
    deadline = time.monotonic() + limit
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return "passed" if os.waitstatus_to_exitcode(status) == 0 else "failed"
        if time.monotonic() > deadline:
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.05)


@dataclass
class Result:
    mutant: Mutant
    verdict: str  # killed | timeout | survived | not built | equivalent
    seconds: float
    reason: str = ""


# Seconds the unmutated tests took, by (tests, engine): measured once a run.
BASELINES: dict[tuple[tuple[str, ...], str | None], float] = {}


def run_module(name: str, spec: dict, path: Path, mutants: list[Mutant], workers: list[Path],
               cython: bool, log) -> list[Result]:
    """Run the mutants of one module over the workers (one mutant per worker at a time)."""
    rel = str(path.relative_to(ROOT))
    original = path.read_bytes()
    # The unmutated selection must pass, and gives the time limit.  Files that share a
    # selection (the pure twin's seven) share one run of it: the unmutated code is the same.
    selection = (tuple(spec["tests"]), spec.get("engine"))
    baseline = BASELINES.get(selection)
    if baseline is None:
        t0 = time.monotonic()
        pid = start_tests(workers[0], spec["tests"], spec.get("engine"))
        if wait_tests(pid, 900) != "passed":
            raise SystemExit(f"{name}: the tests fail on the unmutated code; fix that first")
        baseline = BASELINES[selection] = time.monotonic() - t0
    limit = max(3 * baseline, baseline + 30)
    print(f"{name}: {len(mutants)} mutants, tests {baseline:.1f} s unmutated, "
          f"limit {limit:.0f} s", file=log, flush=True)

    results: list[Result] = []
    pending = list(mutants)
    running: dict[int, tuple[Path, Mutant, float]] = {}
    free = list(workers)
    while pending or running:
        while pending and free:
            mutant = pending.pop(0)
            key = mutant.key(original)
            if key in EQUIVALENT:
                results.append(Result(mutant, "equivalent", 0.0, EQUIVALENT[key]))
                continue
            scratch = free.pop()
            target = scratch / rel
            started = time.monotonic()
            target.write_bytes(mutant.apply(original))
            if cython and not build(scratch, scratch / "build.log"):
                target.write_bytes(original)
                results.append(Result(mutant, "not built", time.monotonic() - started))
                free.append(scratch)
                continue
            pid = start_tests(scratch, spec["tests"], spec.get("engine"))
            running[pid] = (scratch, mutant, started)
        if not running:  # the last mutants were all equivalent: nothing to wait for
            continue
        # Wait for any child, killing one that runs past the limit (its verdict: timeout).
        pid, status = 0, 0
        while not pid:
            for child, (_, _, started) in running.items():
                if time.monotonic() - started > limit + (180 if cython else 0):
                    os.killpg(child, signal.SIGKILL)
            pid, status = os.waitpid(-1, os.WNOHANG)
            if not pid:
                time.sleep(0.05)
        scratch, mutant, started = running.pop(pid)
        elapsed = time.monotonic() - started
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
            verdict = "timeout"
        else:
            verdict = "survived" if os.waitstatus_to_exitcode(status) == 0 else "killed"
        (scratch / rel).write_bytes(original)
        results.append(Result(mutant, verdict, elapsed))
        print(f"  {verdict:9s} {elapsed:5.1f}s {rel}:{mutant.line} {mutant.what}",
              file=log, flush=True)
        free.append(scratch)
    if cython:  # leave every worker with the unmutated engine built
        for scratch in workers:
            build(scratch, scratch / "build.log")
    return results


def summary(name: str, results: list[Result]) -> dict:
    count = {k: sum(r.verdict == k for r in results)
             for k in ("killed", "timeout", "survived", "not built", "equivalent")}
    tried = count["killed"] + count["timeout"] + count["survived"]
    killed = count["killed"] + count["timeout"]
    rate = 100.0 * killed / tried if tried else 100.0
    return dict(module=name, tried=tried, killed=killed, timeout=count["timeout"],
                survived=count["survived"], not_built=count["not built"],
                equivalent=count["equivalent"], rate=rate)


def render(rows: list[dict], survivors: list[Result], seconds: float) -> str:
    """The kill table and the survivor list, as Markdown."""
    header = ("| module | catalogue | tried | killed | (timeouts) | survived | not built "
              "| equivalent | killed % | time |")
    lines = [header, "|" + "---|" * 10]
    for r in rows:
        lines.append(f"| {r['module']} | {r['catalogue']} | {r['tried']} | {r['killed']} | "
                     f"{r['timeout']} | {r['survived']} | {r['not_built']} | {r['equivalent']} |"
                     f" {r['rate']:.1f} | {r['seconds']:.0f} s |")
    total_tried = sum(r["tried"] for r in rows)
    total_killed = sum(r["killed"] for r in rows)
    lines.append(f"| **all** | | {total_tried} | {total_killed} | | {total_tried - total_killed}"
                 f" | | | {100.0 * total_killed / max(total_tried, 1):.1f} | {seconds:.0f} s |")
    lines.append("")
    lines.append("Survivors:" if survivors else "No survivors.")
    for r in survivors:
        source_line = (ROOT / r.mutant.file).read_text().splitlines()[r.mutant.line - 1].strip()
        lines.append(f"- {r.mutant.file}:{r.mutant.line}: {r.mutant.what}  (`{source_line}`)")
    return "\n".join(lines)


def write_markdown(args, argv, report: str) -> None:
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(
            f"Command: python ci/mutation.py {' '.join(argv or sys.argv[1:])}\n"
            f"Seed {args.seed}, Python sample {args.python_sample} per module, "
            f"Cython sample {args.cython_sample}, {args.jobs} workers.\n\n{report}\n")


def sample_cython(names: list[str], args: argparse.Namespace) -> dict[str, list[Mutant]]:
    """The Cython engine's sample, drawn from the catalogues of all its files at once.

    Each rebuild takes most of a minute, so the sample is of the engine, not of each file:
    the reports before the engine was split into .pxi files drew it from one .pyx, and this
    draws from the same code wherever it now stands."""
    pool = [m for name in names for m in cython_catalogue(ROOT / "catmouse" / name)]
    size = args.cython_sample
    chosen = pool if not size or size >= len(pool) else random.Random(
        f"{args.seed}:cython").sample(pool, size)
    return {name: sorted((m for m in chosen if m.file == f"catmouse/{name}"),
                         key=lambda m: (m.line, m.start)) for name in names}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--modules", nargs="*",
                        help="files under catmouse/, e.g. rules.py engine/rounds.pxi, or the "
                             "module names of earlier reports (_rules, _retro_c)")
    parser.add_argument("--python-sample", type=int, default=DEFAULT_PYTHON_SAMPLE,
                        help="mutants per Python module (0: all)")
    parser.add_argument("--cython-sample", type=int, default=DEFAULT_CYTHON_SAMPLE,
                        help="mutants of the Cython engine (0: all)")
    parser.add_argument("--seed", type=int, default=913)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--list", metavar="MODULE", help="print a module's catalogue and stop")
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    parser.add_argument("--pick", nargs="+", metavar="LINE:MUTATION",
                        help="run only these mutants of the modules (no sampling)")
    args = parser.parse_args(argv)

    every = {**PYTHON_MODULES, **CYTHON_MODULES}
    if args.list:
        cython = args.list in CYTHON_MODULES
        path = ROOT / "catmouse" / args.list
        catalogue = cython_catalogue(path) if cython else python_catalogue(path)
        source = path.read_bytes()
        for m in catalogue:
            print(f"{m.file}:{m.line}: {m.what}  |  {m.key(source)[1]}")
        print(f"{len(catalogue)} mutants")
        return 0

    names = [name for given in (args.modules or list(every))
             for name in OLD_NAMES.get(given, [given])]
    unknown = [n for n in names if n not in every]
    if unknown:
        parser.error(f"unknown modules {unknown}; known: {list(every)}")

    from hypothesis import settings

    # Same examples every run, and no example database carried from one mutant to the next.
    settings.register_profile("mutation", database=None, derandomize=True, deadline=None)

    began = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="catmouse-mutation-"))
    workers = [make_scratch(tmp / f"w{i}") for i in range(args.jobs)]
    for scratch in workers:
        if not build(scratch, scratch / "build.log"):
            raise SystemExit(f"the unmutated engine does not build: see {scratch}/build.log")
    rows, survivors = [], []
    cython_chosen = sample_cython([n for n in names if n in CYTHON_MODULES], args)
    try:
        for name in names:
            cython = name in CYTHON_MODULES
            path = ROOT / "catmouse" / name
            catalogue = cython_catalogue(path) if cython else python_catalogue(path)
            if cython:
                chosen = cython_chosen[name]
            else:
                size = args.python_sample
                rng = random.Random(f"{args.seed}:{name}")
                chosen = catalogue if not size or size >= len(catalogue) else sorted(
                    rng.sample(catalogue, size), key=lambda m: (m.line, m.start))
            if args.pick:
                chosen = [m for m in catalogue if f"{m.line}:{m.what}" in args.pick]
            if not chosen:  # (a Cython file the engine's sample missed)
                continue
            t0 = time.monotonic()
            results = run_module(name, every[name], path, chosen, workers, cython, sys.stderr)
            row = summary(name, results)
            row.update(catalogue=len(catalogue), seconds=time.monotonic() - t0)
            rows.append(row)
            survivors += [r for r in results if r.verdict == "survived"]
            write_markdown(args, argv, render(rows, survivors, time.monotonic() - began))
            equivalents = [r for r in results if r.verdict == "equivalent"]
            for r in equivalents:
                print(f"  equivalent {r.mutant.file}:{r.mutant.line} {r.mutant.what}: {r.reason}",
                      file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    report = render(rows, survivors, time.monotonic() - began)
    print(report)
    write_markdown(args, argv, report)
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
