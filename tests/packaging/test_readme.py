"""Every example in README.md runs as shown, and every file it points to exists.

Each fenced block of the README becomes a test named by its line number (``README.md:42``);
``tests/helpers/doc_blocks.py`` says how each kind of block runs and how an HTML comment
before a fence (``<!-- readme-test: skip REASON -->``, ``<!-- readme-test: requires numpy
-->``) changes that.

The README is found in the checkout (the directory above ``tests/``); when the tests run without
it (an installed wheel, tests copied elsewhere) every README test is skipped with that reason.
"""

from __future__ import annotations

import re
import sys
import textwrap

import pytest
from doc_blocks import (
    CONSOLE,
    PROJECT,
    PYTHON,
    RUNNER,
    console_commands,
    matches,
    params,
    parse_markdown,
    run,
    run_console_block,
    run_python_block,
    skip_if_unrunnable,
)

README = PROJECT / "README.md"
# A Markdown link or image target: [text](target) or ![alt](target).
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
# Targets in this repository, absolute so that they work on PyPI too; the rest is the path.
REPOSITORY = re.compile(
    r"^https://(?:github\.com/catmouse-dev/catmouse/blob/main/"
    r"|raw\.githubusercontent\.com/catmouse-dev/catmouse/main/)"
)


def checkout_paths(text: str) -> list[str]:
    """The files of the checkout a Markdown text links to: relative targets and this
    repository's GitHub addresses, without their ``#anchor``."""
    paths = []
    for target in LINK.findall(text):
        path, found = REPOSITORY.subn("", target)
        if found or not re.match(r"^(\w+:|#)", target):
            paths.append(path.split("#")[0])
    return paths


@pytest.mark.parametrize("block", params(README, PYTHON))
def test_python_block(block, tmp_path):
    run_python_block(skip_if_unrunnable(block), tmp_path)


@pytest.mark.parametrize("block", params(README, CONSOLE))
def test_console_block(block, tmp_path):
    run_console_block(skip_if_unrunnable(block), tmp_path)


def test_local_links_exist():
    """The README's picture and its links into the checkout (docs pages, CHANGELOG) exist."""
    if not README.is_file():
        pytest.skip(f"README.md not found at {README}: run the tests from a checkout")
    links = checkout_paths(README.read_text(encoding="utf-8"))
    assert "docs/_static/chase.svg" in links and "docs/development.rst" in links
    missing = [link for link in links if not (PROJECT / link).exists()]
    assert not missing, f"README.md links to files that do not exist: {missing}"


# -- the shared parser and matcher, on Markdown -------------------------------------------


def test_parser_reads_fences_and_directives():
    text = (
        "intro\n"
        "```python\nx = 1\n```\n"
        "<!-- readme-test: skip needs a GPU -->\n\n"
        "```python\n>>> 1 + 1\n2\n```\n"
        "<!-- readme-test: requires numpy, scipy -->\n"
        "````console\n$ catmouse solve g.json\nout\n````\n"
    )
    blocks = parse_markdown(text)
    assert [(b.line, b.lang, b.skip, b.requires) for b in blocks] == [
        (2, "python", None, []),
        (7, "python", "needs a GPU", []),
        (12, "console", None, ["numpy", "scipy"]),
    ]
    assert [b.doctest for b in blocks] == [False, True, False]
    assert blocks[2].where == "README.md:12"
    assert console_commands(blocks[2].text) == [("catmouse solve g.json", "out")]
    with pytest.raises(ValueError, match="needs a reason"):
        parse_markdown("<!-- readme-test: skip -->\n```python\npass\n```\n")
    with pytest.raises(ValueError, match="never closed"):
        parse_markdown("```python\npass\n")


def test_checkout_paths_are_relative_or_this_repository():
    text = (
        "![a board](https://raw.githubusercontent.com/catmouse-dev/catmouse/main/docs/x.svg)"
        " [site](https://x.org/a) [up](#install) [c](CHANGELOG.md#x)"
        " [d](https://github.com/catmouse-dev/catmouse/blob/main/docs/rules.rst#draws)"
        " [other](https://github.com/someone/else/blob/main/docs/y.rst)"
    )
    assert checkout_paths(text) == ["docs/x.svg", "CHANGELOG.md", "docs/rules.rst"]


def test_output_matcher_allows_ellipsis_only():
    assert matches("outcome: a draw\n  ...\nend", "outcome: a draw\nmore\nlines\nend\n")
    assert not matches("outcome: the cat wins", "outcome: the mouse wins\n")


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
    result = run([sys.executable, str(runner), str(source)], tmp_path)
    assert result.returncode != 0
    assert "bootstrapping phase" in result.stderr
    source.write_text("if __name__ == '__main__':\n" + textwrap.indent(start, "    "))
    result = run([sys.executable, str(runner), str(source)], tmp_path)
    assert (result.returncode, result.stdout) == (0, "child ran\n"), result.stderr
