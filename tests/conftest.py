"""Shared fixtures: every engine test runs on both engine twins.

``engine`` is parametrized over ``catmouse.engine.bits_c`` (imported directly, so a
missing build fails the test instead of quietly testing the twin twice) and
``catmouse.engine.bits_py``.  On a machine without a compiler, set
``CATMOUSE_TEST_NO_COMPILED=1`` to skip the compiled parameter explicitly.

``use_engine`` runs the public API (``solve``, ``analyze``, ...) on the engine
under test, so API-level tests cover both twins too.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys

import pytest

# tests/ has no __init__.py; make the helper module ``oracle`` importable from
# every test file however pytest is invoked.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "helpers"))

from engines import (  # noqa: E402
    NO_COMPILED_FLAG,
    TWIN_ELSEWHERE_FLAG,
    engine_params,
    on_engine,
    twin_runs_elsewhere,
)

import catmouse
from catmouse import engine as selector

# A runner started in the background by a shell (``bash .ci/run &``) ignores SIGINT, and an
# ignored signal stays ignored in every child it starts: the Ctrl-C tests' children would never
# see their Ctrl-C.  Handled here instead, SIGINT is back to its default in each child.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _compiled_status() -> str:
    try:
        module = importlib.import_module("catmouse.engine.bits_c")
    except ImportError as error:
        return f"compiled engine missing ({error})"
    return f"compiled engine {module.__file__}"


def pytest_report_header(config):
    lines = [f"catmouse backend: {catmouse.BACKEND}", f"catmouse: {catmouse.__file__}"]
    lines.append(_compiled_status())
    if selector.env_flag(NO_COMPILED_FLAG):
        lines.append(f"{NO_COMPILED_FLAG} is set: compiled-engine tests are skipped")
    elif selector.env_flag(TWIN_ELSEWHERE_FLAG):
        lines.append(f"{TWIN_ELSEWHERE_FLAG} is set: the twin's tests that the pure session "
                     "runs are skipped here")
    return lines


def pytest_collection_modifyitems(config, items):
    """With TWIN_ELSEWHERE_FLAG set (and the compiled engine tested here), skip the twin's
    parameter of the tests that the pure-Python session runs."""
    if not selector.env_flag(TWIN_ELSEWHERE_FLAG) or selector.env_flag(NO_COMPILED_FLAG):
        return
    skip = pytest.mark.skip(reason=f"{TWIN_ELSEWHERE_FLAG} is set: the pure session runs it")
    for item in items:
        if twin_runs_elsewhere(item):
            item.add_marker(skip)


@pytest.fixture(scope="module", params=engine_params())
def engine(request):
    """An engine module (``propagate``); the compiled one must import.

    Module-scoped, so hypothesis tests can take it too.
    """
    return importlib.import_module(request.param)


@pytest.fixture
def compiled_engine():
    """The compiled engine, for tests that need both twins at once (honours the opt-out)."""
    if selector.env_flag(NO_COMPILED_FLAG):
        pytest.skip(f"{NO_COMPILED_FLAG} is set")
    return importlib.import_module("catmouse.engine.bits_c")


@pytest.fixture
def use_engine(engine):
    """Route the public API through ``engine``; returns the engine module."""
    with on_engine(engine):
        yield engine


def pytest_terminal_summary(terminalreporter):
    """Say how many random boards were checked against the oracle, when that file ran."""
    for module in list(sys.modules.values()):
        if getattr(module, "__file__", "") and module.__file__.endswith("test_oracle.py"):
            terminalreporter.write_line(
                f"oracle: {module.N_GRAPHS} random boards (n = 2..10), every position, "
                "per engine"
            )
