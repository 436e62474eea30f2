"""The mutation run's catalogue (ci/mutation_catalogue.py) names files and lines that exist.

A file that moves or a line that changes would leave a catalogue entry that matches nothing:
the run would then count a mutant it cannot tell is equivalent as a survivor, or test a file
with no tests.  Read from the source tree (skipped without it).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
CATALOGUE = PROJECT / "ci" / "mutation_catalogue.py"
pytestmark = pytest.mark.skipif(not CATALOGUE.is_file(), reason="ci/ is not beside the tests")


@pytest.fixture(scope="module")
def catalogue():
    spec = importlib.util.spec_from_file_location("mutation_catalogue", CATALOGUE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_file_and_test_named_exists(catalogue):
    for name, spec in {**catalogue.PYTHON_MODULES, **catalogue.CYTHON_MODULES}.items():
        assert (PROJECT / "catmouse" / name).is_file(), name
        for test in spec["tests"]:
            assert (PROJECT / "tests" / test).is_file(), (name, test)


def test_every_engine_source_is_mutated(catalogue):
    engine = PROJECT / "catmouse" / "engine"
    sources = {str(path.relative_to(PROJECT / "catmouse"))
               for path in [*engine.glob("*.pyx"), *engine.glob("*.pxi"), *engine.glob("*.py")]}
    assert sources <= set(catalogue.PYTHON_MODULES) | set(catalogue.CYTHON_MODULES)


# Files with no logic of their own to mutate: re-exports and the version.
NOT_MUTATED = {"__init__.py", "__main__.py", "version.py", "cli/__init__.py", "show/__init__.py",
               "io/__init__.py", "cops/__init__.py"}


def test_every_source_file_is_mutated_or_said_why_not(catalogue):
    package = PROJECT / "catmouse"
    sources = {str(path.relative_to(package)) for suffix in ("py", "pyx", "pxi")
               for path in package.rglob(f"*.{suffix}")}
    catalogued = set(catalogue.PYTHON_MODULES) | set(catalogue.CYTHON_MODULES)
    assert sources - catalogued == NOT_MUTATED - catalogued


def test_every_equivalent_mutant_stands_in_its_file(catalogue):
    missing = [(file, line) for (file, line, _), _why in catalogue.EQUIVALENT.items()
               if line not in (PROJECT / file).read_text(encoding="utf-8")]
    assert missing == []


def test_old_names_map_onto_catalogued_files(catalogue):
    known = set(catalogue.PYTHON_MODULES) | set(catalogue.CYTHON_MODULES)
    for old, files in catalogue.OLD_NAMES.items():
        assert files and set(files) <= known, old
