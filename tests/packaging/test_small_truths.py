"""Small truths: the docs say what the README says, and examples do what they claim."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from doc_blocks import run as run_child

PROJECT = Path(__file__).resolve().parents[2]
README = PROJECT / "README.md"
DOCS = PROJECT / "docs"

pytestmark = pytest.mark.skipif(not README.exists(), reason="runs in the checkout only")


def words(path):
    return " ".join(path.read_text(encoding="utf-8").split())


def test_the_docs_install_line_says_what_the_readme_says():
    readme, index = words(README), words(DOCS / "index.rst")
    for said in ('pip install "catmouse-solver>=0.2,<0.3"', "Pin the minor version",
                 "0.2.0 is the first version to be published", "pip install .",
                 _checkout_version()):
        assert said in readme.replace("`", "") and said in index.replace("`", ""), said


def _checkout_version():
    """The version a checkout installs (the docs name it: the pin would refuse it)."""
    text = (PROJECT / "catmouse" / "version.py").read_text(encoding="utf-8")
    return re.search(r'__version__ = "([^"]+)"', text).group(1)


def test_the_readme_says_ci_test_sh_installs_chromium_with_apt_get():
    installer = (PROJECT / "ci" / "install_browser.sh").read_text(encoding="utf-8")
    assert "apt-get" in installer and "chromium" in installer
    assert "install_browser.sh" in (PROJECT / "ci" / "test.sh").read_text(encoding="utf-8")
    readme = words(README)
    assert "ci/install_browser.sh" in readme and "apt-get" in readme and "chromium" in readme


def json_commands():
    """Each documented ``catmouse solve ... --json`` with the text command it claims to repeat."""
    for page in [README, *DOCS.glob("*.rst")]:
        previous = None
        for line in page.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line.startswith("$ catmouse solve"):
                continue
            argv = shlex.split(line[2:], comments=True)
            if "--json" in argv and previous is not None:
                yield pytest.param(previous, argv, id=f"{page.name}: {' '.join(argv)}")
            previous = argv


@pytest.mark.parametrize(("text", "as_json"), list(json_commands()))
def test_a_json_example_solves_the_game_it_repeats(text, as_json, tmp_path):
    assert [a for a in as_json if a != "--json"] == text  # the same file and the same starts
    # Run beside a copy of the examples, not in the checkout: there, `-m catmouse` would
    # import the checkout's unbuilt package instead of the one under test.
    shutil.copytree(PROJECT / "examples", tmp_path / "examples")

    def run(argv):
        done = run_child([sys.executable, "-m", *argv], tmp_path)
        assert done.returncode == 0, done.stderr
        return done.stdout

    shown, data = run(text), json.loads(run(as_json))
    assert f"start: mouse on {data['mouse']}, cat on {data['cat']}," in shown
    words_for = {"CAT_WIN": "the cat wins", "MOUSE_WIN": "the mouse wins", "DRAW": "a draw"}
    assert f"outcome: {words_for[data['outcome']]}" in shown
    moves = [line for line in shown.splitlines() if re.match(r"\s*\d+\. (mouse|cat) ", line)]
    assert len(data["line"]) - 1 == len(moves)


def test_at_least_one_json_example_is_checked():
    assert list(json_commands())


def test_the_version_has_its_dated_changelog_section():
    """A release's tag builds catmouse/version.py's version: the CHANGELOG must say what it
    holds, under a dated heading, with nothing left under "Unreleased" above it.  Between
    releases the version is a ``.devN`` one, and new entries go under "Unreleased"."""
    namespace: dict = {}
    exec((PROJECT / "catmouse" / "version.py").read_text(encoding="utf-8"), namespace)
    version = namespace["__version__"]
    changelog = (PROJECT / "CHANGELOG.md").read_text(encoding="utf-8")
    if ".dev" in version:
        assert "## [Unreleased]" in changelog
        return
    heading = re.search(rf"^## \[{re.escape(version)}\] - (\d{{4}}-\d{{2}}-\d{{2}})$", changelog,
                        re.M)
    assert heading, f"CHANGELOG.md has no dated section for {version}"
    unreleased = changelog[changelog.index("## [Unreleased]"):heading.start()]
    assert not re.search(r"^- ", unreleased, re.M), "entries under Unreleased: bump the version"
