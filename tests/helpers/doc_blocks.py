"""Find the examples of a documentation file and run them as a user would.

Used by ``tests/packaging/test_readme.py`` (README.md) and ``test_docs_examples.py`` (the
Sphinx pages in docs/).  A block is found by an explicit marker, different per format:

- **Markdown** (README.md): a fenced block, ```` ```python ````, ```` ```console ```` and so on.
  An HTML comment on the nearest non-blank line before the fence tells the test more:
  ``<!-- readme-test: skip REASON -->`` or ``<!-- readme-test: requires numpy scipy -->``.
- **reStructuredText** (docs/*.rst): only a ``.. code-block:: LANG`` directive is a block (its
  options, then its indented body).  Plain ``::`` literal blocks are never run.  An RST comment
  on the nearest non-blank line before the directive tells the test more:
  ``.. doc-test: skip REASON`` or ``.. doc-test: requires numpy scipy``.  The pages' bare
  ``>>>`` paragraphs are not blocks: :func:`run_doctest_file` runs a whole page as one doctest,
  as ``sphinx-build -b doctest`` does (all of a page's examples share one namespace, in order).

How each kind of block runs (every run in a fresh interpreter, from a temporary directory
holding a copy of the checkout's ``examples/``, with an empty stdin and at most ``TIMEOUT``
seconds):

- a ``python`` block with ``>>>`` prompts runs as a doctest (its output must match, ``...``
  standing for any text);
- any other ``python`` block runs as a script, as ``__main__``, with multiprocessing's *spawn*
  start method forced (the default on macOS and Windows), so an example that starts processes
  without an ``if __name__ == "__main__":`` guard fails here, on Linux too;
- a ``console`` block runs its ``$ catmouse ...`` commands (as ``python -m catmouse``): each
  must exit with status 0, and the output shown under a command must match the real output.
  Commands of other programs are not run.  Other languages (``text``, ``bash``) are not run.

A block importing an optional package (numpy, scipy, networkx, dask, distributed) is skipped
where that package is missing.
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import catmouse

PROJECT = Path(__file__).resolve().parents[2]
EXAMPLES = PROJECT / "examples"
# A hung example (a missing __main__ guard under spawn) fails after this many seconds.
TIMEOUT = 120
OPTIONAL = ("numpy", "scipy", "networkx", "dask", "distributed")
PYTHON = ("python", "py", "pycon")
CONSOLE = ("console", "shell-session")

FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,})(?P<lang>[\w+-]*)\s*$")
MD_DIRECTIVE = re.compile(r"^\s*<!--\s*readme-test:\s*(?P<verb>[\w-]+)\s*(?P<rest>.*?)\s*-->\s*$")
CODE_BLOCK = re.compile(r"^(?P<indent>\s*)\.\. code-block::\s*(?P<lang>[\w+-]+)\s*$")
RST_DIRECTIVE = re.compile(r"^\s*\.\.\s+doc-test:\s*(?P<verb>[\w-]+)\s*(?P<rest>.*?)\s*$")

# Runs one block in a fresh interpreter, the way a user runs a script, with spawn forced.
RUNNER = """\
import multiprocessing, runpy, sys
multiprocessing.set_start_method("spawn", force=True)
runpy.run_path(sys.argv[1], run_name="__main__")
"""

# Runs one page as a doctest, with the namespace docs/conf.py's doctest_global_setup gives.
DOCTEST_RUNNER = """\
import doctest, sys
import catmouse
globs = {"catmouse": catmouse, **{name: getattr(catmouse, name) for name in catmouse.__all__}}
failed, tried = doctest.testfile(sys.argv[1], module_relative=False, globs=globs,
                                 optionflags=doctest.ELLIPSIS)
print(f"{tried} examples, {failed} failed")
sys.exit(1 if failed or not tried else 0)
"""


@dataclass
class Block:
    source: str  # the file's name as the test ids show it: "README.md", "docs/cli.rst"
    line: int  # 1-based line number of the opening fence or directive
    lang: str
    text: str
    skip: str | None = None
    requires: list[str] = field(default_factory=list)

    @property
    def doctest(self) -> bool:
        return any(line.lstrip().startswith(">>>") for line in self.text.splitlines())

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


def _apply_directive(block: Block, lines: list[str], start: int, pattern: re.Pattern[str]) -> None:
    """Read the skip/requires comment on the nearest non-blank line before line ``start``."""
    previous = start - 1
    while previous >= 0 and not lines[previous].strip():
        previous -= 1
    directive = pattern.match(lines[previous]) if previous >= 0 else None
    if not directive:
        return
    verb, rest = directive["verb"], directive["rest"]
    if verb == "skip":
        if not rest:
            raise ValueError(f"{block.source}:{previous + 1}: a skip needs a reason")
        block.skip = rest
    elif verb == "requires":
        block.requires = rest.replace(",", " ").split()
    else:
        raise ValueError(f"{block.source}:{previous + 1}: unknown directive {verb!r}")


def parse_markdown(text: str, source: str = "README.md") -> list[Block]:
    """The fenced blocks of a Markdown text, with the readme-test comment before each."""
    blocks: list[Block] = []
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        match = FENCE.match(lines[number])
        if not match:
            number += 1
            continue
        start, fence = number, match["fence"]
        body: list[str] = []
        number += 1
        while number < len(lines) and not lines[number].strip().startswith(fence):
            body.append(lines[number])
            number += 1
        if number == len(lines):
            raise ValueError(f"{source}:{start + 1}: the code block is never closed")
        number += 1
        body_text = textwrap.dedent("\n".join(body)) + "\n"
        block = Block(source, start + 1, match["lang"].lower(), body_text)
        _apply_directive(block, lines, start, MD_DIRECTIVE)
        blocks.append(block)
    return blocks


def parse_rst(text: str, source: str) -> list[Block]:
    """The ``.. code-block::`` directives of a reStructuredText page, with the doc-test comment
    before each.  The body is every line indented deeper than the directive, after its
    ``:option:`` lines."""
    blocks: list[Block] = []
    lines = text.splitlines()
    for start, line in enumerate(lines):
        match = CODE_BLOCK.match(line)
        if not match:
            continue
        indent = len(match["indent"])
        number = start + 1
        while number < len(lines) and lines[number].strip().startswith(":"):
            number += 1  # the directive's options (:caption:, :emphasize-lines:, ...)
        body: list[str] = []
        while number < len(lines) and (
            not lines[number].strip() or len(lines[number]) - len(lines[number].lstrip()) > indent
        ):
            body.append(lines[number])
            number += 1
        body_text = textwrap.dedent("\n".join(body)).strip("\n") + "\n"
        if not body_text.strip():
            raise ValueError(f"{source}:{start + 1}: the code block is empty")
        block = Block(source, start + 1, match["lang"].lower(), body_text)
        _apply_directive(block, lines, start, RST_DIRECTIVE)
        blocks.append(block)
    return blocks


def params(path: Path, langs: tuple[str, ...]) -> list:
    """pytest parameters, one per block of ``path`` in one of ``langs``, named by place."""
    name = path.relative_to(PROJECT).as_posix()
    if not path.is_file():
        reason = f"{name} not found at {path}: run the tests from a checkout to test it"
        return [pytest.param(None, id=f"no-{name}", marks=pytest.mark.skip(reason=reason))]
    text = path.read_text(encoding="utf-8")
    blocks = parse_rst(text, name) if path.suffix == ".rst" else parse_markdown(text, name)
    return [pytest.param(block, id=block.where) for block in blocks if block.lang in langs]


def _imports(code: str) -> set[str]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()  # the run reports it, with the line
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module)
    names = {module.split(".")[0] for module in modules}
    if any(module.startswith("dask.distributed") for module in modules):
        names.add("distributed")  # dask.distributed is the separate package distributed
    return names


def skip_missing(where: str, code: str, requires: list[str] = ()) -> None:
    """Skip the test if ``code`` imports, or ``requires`` names, a missing optional package."""
    wanted = set(requires) | (_imports(code) & set(OPTIONAL))
    # A name in ``requires`` is a Python package or a program on PATH (``nauty-geng``).
    missing = sorted(name for name in wanted
                     if shutil.which(name) is None and (not name.isidentifier()
                                                        or importlib.util.find_spec(name) is None))
    if missing:
        pytest.skip(f"{where} needs {', '.join(missing)}, not installed")


def skip_if_unrunnable(block: Block | None) -> Block:
    assert block is not None  # the no-file parameter carries a skip mark
    if block.skip:
        pytest.skip(f"{block.where}: {block.skip}")
    code = "\n".join(
        line.lstrip()[4:] if line.lstrip().startswith((">>> ", "... ")) else line
        for line in block.text.splitlines()
    )
    skip_missing(block.where, code, block.requires)
    return block


def _env() -> dict[str, str]:
    """The test's environment for a child run elsewhere: the same catmouse must import."""
    env = dict(os.environ)
    paths = [os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    root = str(Path(catmouse.__file__).resolve().parent.parent)
    if Path(root).name not in ("site-packages", "dist-packages") and root not in paths:
        paths.insert(0, root)  # a source checkout found through the test's own sys.path
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["PYTHONIOENCODING"] = "utf-8"
    # Python 3.13+ colours argparse help and tracebacks on a terminal; keep the text plain.
    env["NO_COLOR"] = "1"
    env.pop("FORCE_COLOR", None)
    return env


def _tail(text: str | bytes | None, size: int = 3000) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = text or ""
    return text if len(text) <= size else "[...]\n" + text[-size:]


def run(argv: list[str], cwd: Path, timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            argv, cwd=cwd, env=_env(), capture_output=True, text=True, encoding="utf-8",
            timeout=timeout, stdin=subprocess.DEVNULL,  # an interactive example gets EOF
        )
    except subprocess.TimeoutExpired as error:
        stderr = error.stderr
    pytest.fail(
        f"{' '.join(argv)} did not finish in {timeout} s: hung (under spawn, an example that "
        f"starts processes needs `if __name__ == \"__main__\":`)\n--- stderr ---\n"
        + _tail(stderr),
        pytrace=False,
    )


def report(where: str, what: str, result: subprocess.CompletedProcess[str]) -> str:
    return (
        f"{where}: {what} exited with status {result.returncode}\n"
        f"--- stdout ---\n{_tail(result.stdout)}\n--- stderr ---\n{_tail(result.stderr)}"
    )


def provide_examples(directory: Path) -> None:
    """The example graphs, where the pages' paths (``examples/chase.edges``) find them."""
    if EXAMPLES.is_dir():
        shutil.copytree(EXAMPLES, directory / "examples")


def run_python_block(block: Block, tmp_path: Path) -> None:
    """Run a python block: as a doctest if it has ``>>>`` prompts, else as a script (spawn)."""
    provide_examples(tmp_path)
    stem = block.source.replace("/", "_").replace(".", "_") + f"_{block.line}"
    if block.doctest:
        source = tmp_path / f"{stem}.txt"
        source.write_text(block.text, encoding="utf-8")
        argv = [sys.executable, "-m", "doctest", "-o", "ELLIPSIS", str(source)]
        result = run(argv, tmp_path)
        if result.returncode:
            pytest.fail(report(block.where, "the doctest", result), pytrace=False)
        return
    source = tmp_path / f"{stem}.py"
    source.write_text(block.text, encoding="utf-8")
    runner = tmp_path / "run_block.py"
    runner.write_text(RUNNER, encoding="utf-8")
    result = run([sys.executable, str(runner), str(source)], tmp_path)
    if result.returncode:
        what = "the example, run as a script (spawn)"
        pytest.fail(report(block.where, what, result), pytrace=False)


def console_commands(text: str) -> list[tuple[str, str]]:
    """The ``$ command`` lines of a console block, each with the output shown under it."""
    commands: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
    return [(command, "\n".join(output)) for command, output in commands]


_CHECKER = doctest.OutputChecker()


def matches(shown: str, actual: str) -> bool:
    """True if the shown output fits the real one; ``...`` stands for any text."""
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    return _CHECKER.check_output(shown.strip() + "\n", actual, flags)


def run_console_block(block: Block, tmp_path: Path) -> None:
    """Run the block's ``$ catmouse`` commands; skip the test if it has none."""
    provide_examples(tmp_path)
    ran = 0
    for command, shown in console_commands(block.text):
        argv = shlex.split(command, comments=True)
        if argv[:1] == ["catmouse"]:
            result = run([sys.executable, "-m", "catmouse", *argv[1:]], tmp_path)
        elif argv[:1] == ["nauty-geng"] and "catmouse" in argv and "|" in argv:
            if catmouse.BACKEND != "cython":  # a census: seconds compiled, a minute pure
                pytest.skip(f"{block.where}: a geng census, run on the compiled engine only")
            skip_missing(block.where, "", ["nauty-geng"])  # (ci/install_geng.sh installs it)
            result = run(["bash", "-o", "pipefail", "-c", _catmouse_in_pipeline(argv)], tmp_path)
        else:
            continue  # other tools' commands are not ours to run
        ran += 1
        if result.returncode:
            pytest.fail(report(block.where, f"$ {command}", result), pytrace=False)
        if shown.strip() and not matches(shown, result.stdout):
            pytest.fail(
                f"{block.where}: the output shown for $ {command} is not what it "
                f"prints.\n--- shown ---\n{shown}\n--- printed ---\n{result.stdout}",
                pytrace=False,
            )
    if not ran:
        pytest.skip(f"{block.where}: no catmouse command in this console block")


def _catmouse_in_pipeline(argv: list[str]) -> str:
    """A ``nauty-geng ... | catmouse ...`` pipeline with ``catmouse`` run by this interpreter."""
    us = f"{shlex.quote(sys.executable)} -m catmouse"
    return " ".join(us if word == "catmouse" else word if word in ("|", "<", ">")
                    else shlex.quote(word) for word in argv)


def run_doctest_file(path: Path, tmp_path: Path) -> None:
    """Run every ``>>>`` example of a page as one doctest, from a temporary directory."""
    name = path.relative_to(PROJECT).as_posix() if path.is_relative_to(PROJECT) else path.name
    text = path.read_text(encoding="utf-8")
    examples = doctest.DocTestParser().get_examples(text, name)
    if not examples:
        pytest.skip(f"{name} has no >>> examples")
    skip_missing(name, "\n".join(example.source for example in examples))
    provide_examples(tmp_path)
    runner = tmp_path / "run_doctest.py"
    runner.write_text(DOCTEST_RUNNER, encoding="utf-8")
    result = run([sys.executable, str(runner), str(path)], tmp_path)
    if result.returncode:
        pytest.fail(report(name, "the page's doctest", result), pytrace=False)
