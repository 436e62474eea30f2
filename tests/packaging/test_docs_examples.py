"""Every example of the documentation site (docs/*.rst) runs as shown.

Each ``.. code-block:: python`` or ``.. code-block:: console`` of a page becomes a test named by
its page and line (``docs/cli.rst:17``), run as ``tests/helpers/doc_blocks.py`` describes (an
RST comment ``.. doc-test: skip REASON`` or ``.. doc-test: requires numpy`` before the
directive changes that).  Each page's bare ``>>>`` examples run as one doctest, as
``sphinx-build -b doctest`` runs them, so they are checked by the suite too, not only by the
docs build.

The pages are found in the checkout (the directory above ``tests/``); without it every test
here is skipped with that reason.
"""

from __future__ import annotations

import doctest

import pytest
from doc_blocks import (
    CONSOLE,
    PROJECT,
    PYTHON,
    params,
    parse_rst,
    run_console_block,
    run_doctest_file,
    run_python_block,
    skip_if_unrunnable,
)

DOCS = PROJECT / "docs"
PAGES = sorted(DOCS.glob("*.rst"))


def _each(langs: tuple[str, ...]) -> list:
    found = [param for page in PAGES for param in params(page, langs)]
    if not PAGES:
        reason = f"no docs/*.rst at {DOCS}: run the tests from a checkout to test them"
        return [pytest.param(None, id="no-docs", marks=pytest.mark.skip(reason=reason))]
    return found


def _pages() -> list:
    if not PAGES:
        reason = f"no docs/*.rst at {DOCS}: run the tests from a checkout to test them"
        return [pytest.param(None, id="no-docs", marks=pytest.mark.skip(reason=reason))]
    # Only the pages with >>> examples: the others would each add a skip saying so.
    return [
        pytest.param(page, id=page.relative_to(PROJECT).as_posix())
        for page in PAGES
        if doctest.DocTestParser().get_examples(page.read_text(encoding="utf-8"))
    ]


@pytest.mark.parametrize("block", _each(PYTHON))
def test_python_block(block, tmp_path):
    run_python_block(skip_if_unrunnable(block), tmp_path)


@pytest.mark.parametrize("block", _each(CONSOLE))
def test_console_block(block, tmp_path):
    run_console_block(skip_if_unrunnable(block), tmp_path)


@pytest.mark.parametrize("page", _pages())
def test_page_doctest(page, tmp_path):
    run_doctest_file(page, tmp_path)


def test_the_moved_examples_are_found():
    """The README's former examples live in these pages: none may silently stop being a block."""
    if not PAGES:
        pytest.skip(f"no docs/*.rst at {DOCS}")
    langs = {page.stem: [b.lang for b in parse_rst(page.read_text("utf-8"), page.name)]
             for page in PAGES}
    assert langs["cli"].count("console") >= 2
    assert "python" in langs["tutorial"] and "python" in langs["performance"]
    assert {"python", "console"} <= set(langs["show"])


# -- the shared parser, on reStructuredText -----------------------------------------------


def test_rst_parser_reads_code_blocks_and_directives():
    text = (
        "Title\n=====\n\n"
        "Some ``code`` and a literal block::\n\n    not_run()\n\n"
        ".. code-block:: python\n\n    x = 1\n\n    y = 2\n\nAfter.\n\n"
        ".. doc-test: requires numpy, scipy\n\n"
        ".. code-block:: console\n   :caption: a shell\n\n   $ catmouse solve g.json\n   out\n"
        "\n- item\n\n  .. doc-test: skip needs a GPU\n  .. code-block:: python\n\n"
        "     gpu()\n\n  more of the item\n"
    )
    blocks = parse_rst(text, "docs/x.rst")
    assert [(b.line, b.lang, b.text, b.skip, b.requires) for b in blocks] == [
        (8, "python", "x = 1\n\ny = 2\n", None, []),
        (18, "console", "$ catmouse solve g.json\nout\n", None, ["numpy", "scipy"]),
        (27, "python", "gpu()\n", "needs a GPU", []),
    ]
    assert blocks[1].where == "docs/x.rst:18"
    with pytest.raises(ValueError, match="needs a reason"):
        parse_rst(".. doc-test: skip\n.. code-block:: python\n\n   pass\n", "x.rst")
    with pytest.raises(ValueError, match="unknown directive"):
        parse_rst(".. doc-test: maybe\n.. code-block:: python\n\n   pass\n", "x.rst")
    with pytest.raises(ValueError, match="empty"):
        parse_rst(".. code-block:: python\n\nNot indented.\n", "x.rst")


def test_page_doctest_fails_on_a_wrong_answer(tmp_path):
    """A page whose >>> output is wrong fails the page test (it cannot pass by finding nothing)."""
    page = tmp_path / "probe.rst"
    example = "Probe\n=====\n\n>>> solve([[1, 3], [0], [3], [0, 2]])\n"
    (tmp_path / "run").mkdir()
    (tmp_path / "run2").mkdir()
    page.write_text(example + "<Outcome.DRAW: 0>\n")
    with pytest.raises(pytest.fail.Exception, match="probe.rst: the page's doctest"):
        run_doctest_file(page, tmp_path / "run")
    page.write_text(example + "<Outcome.MOUSE_WIN: 1>\n")
    run_doctest_file(page, tmp_path / "run2")


def test_a_geng_pipeline_runs_our_catmouse_and_a_missing_program_skips():
    """``nauty-geng ... | catmouse ...`` blocks run (with this interpreter's catmouse), and a
    block that requires a program this machine lacks is skipped, not failed."""
    import sys

    from doc_blocks import _catmouse_in_pipeline, skip_missing

    line = _catmouse_in_pipeline(["nauty-geng", "-cq", "5", "|", "catmouse", "cop-number", "-"])
    assert line.startswith("nauty-geng -cq 5 | ") and f"{sys.executable} -m catmouse" in line
    with pytest.raises(pytest.skip.Exception, match="no-such-program-here"):
        skip_missing("x.rst:1", "", ["no-such-program-here"])
    skip_missing("x.rst:1", "", ["sh"])  # a program that is there: no skip
