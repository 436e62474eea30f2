"""Every example in README.md runs as shown.

Each fenced block of the README becomes a test named by its line number:

- a ```python block with ``>>>`` prompts runs as a doctest (its output must match);
- any other ```python block runs as a script, as ``__main__``, in a fresh interpreter, from a
  temporary directory holding a copy of ``examples/``, with multiprocessing's *spawn* start
  method forced (the default on macOS and Windows), so an example that starts processes
  without an ``if __name__ == "__main__":`` guard fails here, on Linux too;
- a ```console block runs its ``$ catmouse ...`` commands (as ``python -m catmouse``) from a
  temporary directory holding a copy of ``examples/``: each must exit with status 0, and the
  output shown under a command must match the real output (``...`` stands for any text).
  Commands of other programs are not run.

Every run gets an empty stdin (an interactive example sees end-of-file, not a hang) and at most
``TIMEOUT`` seconds.

An HTML comment on the line before a block's fence tells the test more:

- ``<!-- readme-test: skip REASON -->`` skips the block (keep these rare, with a reason);
- ``<!-- readme-test: requires numpy scipy -->`` skips the block where one of those packages is
  missing.  Blocks that import an optional package (numpy, scipy, networkx, dask, distributed)
  are skipped without it anyway.

The README is found in the checkout (the directory above ``tests/``); when the tests run without
it (an installed wheel, tests copied elsewhere) every README test is skipped with that reason.
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
README = PROJECT / "README.md"
EXAMPLES = PROJECT / "examples"
# A hung example (a missing __main__ guard under spawn) fails after this many seconds.
TIMEOUT = 120
OPTIONAL = ("numpy", "scipy", "networkx", "dask", "distributed")

FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,})(?P<lang>[\w+-]*)\s*$")
DIRECTIVE = re.compile(r"^\s*<!--\s*readme-test:\s*(?P<verb>[\w-]+)\s*(?P<rest>.*?)\s*-->\s*$")

# Runs one block in a fresh interpreter, the way a user runs a script, with spawn forced.
RUNNER = """\
import multiprocessing, runpy, sys
multiprocessing.set_start_method("spawn", force=True)
runpy.run_path(sys.argv[1], run_name="__main__")
"""


@dataclass
class Block:
    line: int  # 1-based line number of the opening fence
    lang: str
    text: str
    skip: str | None = None
    requires: list[str] = field(default_factory=list)

    @property
    def doctest(self) -> bool:
        return any(line.lstrip().startswith(">>>") for line in self.text.splitlines())


def parse_readme(text: str) -> list[Block]:
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
            raise ValueError(f"README.md:{start + 1}: the code block is never closed")
        number += 1
        block = Block(start + 1, match["lang"].lower(), textwrap.dedent("\n".join(body)) + "\n")
        previous = start - 1
        while previous >= 0 and not lines[previous].strip():
            previous -= 1
        directive = DIRECTIVE.match(lines[previous]) if previous >= 0 else None
        if directive:
            verb, rest = directive["verb"], directive["rest"]
            if verb == "skip":
                if not rest:
                    raise ValueError(f"README.md:{previous + 1}: a skip needs a reason")
                block.skip = rest
            elif verb == "requires":
                block.requires = rest.replace(",", " ").split()
            else:
                raise ValueError(f"README.md:{previous + 1}: unknown readme-test {verb!r}")
        blocks.append(block)
    return blocks


def _blocks(langs: tuple[str, ...]) -> list:
    if not README.is_file():
        reason = f"README.md not found at {README}: run the tests from a checkout to test it"
        return [pytest.param(None, id="no-readme", marks=pytest.mark.skip(reason=reason))]
    return [
        pytest.param(block, id=f"README.md:{block.line}")
        for block in parse_readme(README.read_text(encoding="utf-8"))
        if block.lang in langs
    ]


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


def _skip_if_unrunnable(block: Block | None) -> Block:
    assert block is not None  # the no-readme parameter carries a skip mark
    if block.skip:
        pytest.skip(f"README.md:{block.line}: {block.skip}")
    code = "\n".join(
        line.lstrip()[4:] if line.lstrip().startswith((">>> ", "... ")) else line
        for line in block.text.splitlines()
    )
    wanted = set(block.requires) | (_imports(code) & set(OPTIONAL))
    missing = sorted(name for name in wanted if importlib.util.find_spec(name) is None)
    if missing:
        pytest.skip(f"README.md:{block.line} needs {', '.join(missing)}, not installed")
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


def _run(argv: list[str], cwd: Path, timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
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


def _report(block: Block, what: str, result: subprocess.CompletedProcess[str]) -> str:
    return (
        f"README.md:{block.line}: {what} exited with status {result.returncode}\n"
        f"--- stdout ---\n{_tail(result.stdout)}\n--- stderr ---\n{_tail(result.stderr)}"
    )


def _provide_examples(directory: Path) -> None:
    """The example graphs, where the README's paths (``examples/chase.edges``) find them."""
    if EXAMPLES.is_dir():
        shutil.copytree(EXAMPLES, directory / "examples")


@pytest.mark.parametrize("block", _blocks(("python", "py", "pycon")))
def test_python_block(block, tmp_path):
    block = _skip_if_unrunnable(block)
    _provide_examples(tmp_path)
    if block.doctest:
        # Run as a doctest text file in a fresh interpreter, from the temporary directory.
        source = tmp_path / f"readme_{block.line}.txt"
        source.write_text(block.text, encoding="utf-8")
        argv = [sys.executable, "-m", "doctest", "-o", "ELLIPSIS", str(source)]
        result = _run(argv, tmp_path)
        if result.returncode:
            pytest.fail(_report(block, "the doctest", result), pytrace=False)
        return
    source = tmp_path / f"readme_{block.line}.py"
    source.write_text(block.text, encoding="utf-8")
    runner = tmp_path / "run_block.py"
    runner.write_text(RUNNER, encoding="utf-8")
    result = _run([sys.executable, str(runner), str(source)], tmp_path)
    if result.returncode:
        pytest.fail(_report(block, "the example, run as a script (spawn)", result), pytrace=False)


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


def _matches(shown: str, actual: str) -> bool:
    """True if the README's output fits the real one; ``...`` stands for any text."""
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    return _CHECKER.check_output(shown.strip() + "\n", actual, flags)


@pytest.mark.parametrize("block", _blocks(("console", "shell-session")))
def test_console_block(block, tmp_path):
    block = _skip_if_unrunnable(block)
    _provide_examples(tmp_path)
    commands = console_commands(block.text)
    ran = 0
    for command, shown in commands:
        argv = shlex.split(command, comments=True)
        if argv[:1] != ["catmouse"]:
            continue  # other tools' commands are not ours to run
        ran += 1
        result = _run([sys.executable, "-m", "catmouse", *argv[1:]], tmp_path)
        if result.returncode:
            pytest.fail(_report(block, f"$ {command}", result), pytrace=False)
        if shown.strip() and not _matches(shown, result.stdout):
            pytest.fail(
                f"README.md:{block.line}: the output shown for $ {command} is not what it "
                f"prints.\n--- shown ---\n{shown}\n--- printed ---\n{result.stdout}",
                pytrace=False,
            )
    if not ran:
        pytest.skip(f"README.md:{block.line}: no catmouse command in this console block")


# -- the test's own parser and matcher -------------------------------------------------


def test_parser_reads_fences_and_directives():
    text = (
        "intro\n"
        "```python\nx = 1\n```\n"
        "<!-- readme-test: skip needs a GPU -->\n\n"
        "```python\n>>> 1 + 1\n2\n```\n"
        "<!-- readme-test: requires numpy, scipy -->\n"
        "````console\n$ catmouse solve g.json\nout\n````\n"
    )
    blocks = parse_readme(text)
    assert [(b.line, b.lang, b.skip, b.requires) for b in blocks] == [
        (2, "python", None, []),
        (7, "python", "needs a GPU", []),
        (12, "console", None, ["numpy", "scipy"]),
    ]
    assert [b.doctest for b in blocks] == [False, True, False]
    assert console_commands(blocks[2].text) == [("catmouse solve g.json", "out")]
    with pytest.raises(ValueError, match="needs a reason"):
        parse_readme("<!-- readme-test: skip -->\n```python\npass\n```\n")
    with pytest.raises(ValueError, match="never closed"):
        parse_readme("```python\npass\n")


def test_output_matcher_allows_ellipsis_only():
    assert _matches("outcome: a draw\n  ...\nend", "outcome: a draw\nmore\nlines\nend\n")
    assert not _matches("outcome: the cat wins", "outcome: the mouse wins\n")


def test_spawn_runner_catches_a_missing_main_guard(tmp_path):
    """The runner forces spawn: starting a process at module level must fail, as on macOS."""
    start = (
        "from multiprocessing import Process\n"
        "child = Process(target=print, args=('child ran',))\n"
        "child.start()\n"
        "child.join()\n"
        "raise SystemExit(child.exitcode)\n"
    )
    runner = tmp_path / "run_block.py"
    runner.write_text(RUNNER, encoding="utf-8")
    source = tmp_path / "unguarded.py"
    source.write_text(start, encoding="utf-8")
    result = _run([sys.executable, str(runner), str(source)], tmp_path)
    assert result.returncode != 0
    assert "bootstrapping phase" in result.stderr
    source.write_text("if __name__ == '__main__':\n" + textwrap.indent(start, "    "))
    result = _run([sys.executable, str(runner), str(source)], tmp_path)
    assert (result.returncode, result.stdout) == (0, "child ran\n"), result.stderr
