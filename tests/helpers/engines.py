"""Which engines the tests run on, and routing the public API through one.

Every engine test runs on ``catmouse.engine.bits_c`` (imported directly, so a missing
build fails the test instead of quietly testing the twin twice) and on
``catmouse.engine.bits_py``.  On a machine without a compiler, set
``CATMOUSE_TEST_NO_COMPILED=1`` to skip the compiled engine explicitly.

``CATMOUSE_TEST_TWIN_ELSEWHERE=1`` (ci/test.sh sets it for the compiled session while the
pure session runs beside it) skips the twin's parameter wherever the pure-Python build runs
the same test: not in a file that needs the compiled engine to import, nor in a test that
also takes ``compiled_engine`` (the pure build skips both).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from catmouse import engine as selector

ENGINE_NAMES = ("catmouse.engine.bits_c", "catmouse.engine.bits_py")
NO_COMPILED_FLAG = "CATMOUSE_TEST_NO_COMPILED"
TWIN_ELSEWHERE_FLAG = "CATMOUSE_TEST_TWIN_ELSEWHERE"
TWIN = ENGINE_NAMES[1]


def engine_params() -> list:
    """pytest params over the engine module names, the compiled one skippable."""
    skip_compiled = selector.env_flag(NO_COMPILED_FLAG)
    params = []
    for name in ENGINE_NAMES:
        marks = []
        if name.endswith("_c") and skip_compiled:
            marks.append(pytest.mark.skip(reason=f"{NO_COMPILED_FLAG} is set"))
        params.append(pytest.param(name, id=name.rsplit("_", 1)[-1], marks=marks))
    return params


@functools.cache
def needs_compiled(path: str) -> bool:
    """Whether the test file at ``path`` skips itself whole without the compiled engine (a
    ``pytest.importorskip`` of it in the file's own statements, not in a function's)."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in ast.walk(statement):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "importorskip" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and node.args[0].value == ENGINE_NAMES[0]):
                return True
    return False


def twin_runs_elsewhere(item: pytest.Item) -> bool:
    """Whether ``item`` is the twin's parameter of a test that the pure-Python build runs
    too, so that a session beside that build may skip it (TWIN_ELSEWHERE_FLAG)."""
    callspec = getattr(item, "callspec", None)
    if callspec is None or callspec.params.get("engine") != TWIN:
        return False
    if "compiled_engine" in getattr(item, "fixturenames", ()):
        return False
    return not needs_compiled(str(item.path))


def engine_name(module: ModuleType) -> str:
    """The selector's name ("cython" or "python") of an engine module."""
    (name,) = [key for key, value in selector.MODULES.items() if value == module.__name__]
    return name


@contextlib.contextmanager
def on_engine(engine: ModuleType) -> Iterator[ModuleType]:
    """Run the public API (solve, analyze, Game, ...) on ``engine`` inside the block.

    Every entry point moves at once: the API reads them all from ``selector.current``.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(selector, "current", selector.load(engine_name(engine)))
        yield engine


# The engine's helpers are C threads, which ``threading`` does not list: the OS counts them.
HAS_TASK_LIST = os.path.isdir("/proc/self/task")


# The compiled crew's pacing modes for the tests (catmouse/engine/pace.pxi, _pace_test).
MEASURE, STARVED, NEVER_ALONE, STARVED_LATER, STARVED_WRITING = 0, 1, 2, 3, 4


@contextlib.contextmanager
def pace_mode(mode: int) -> Iterator[None]:
    """The compiled crew's pacing in test mode ``mode`` for the block, then as it was."""
    from catmouse.engine import bits_c

    previous = bits_c._pace_test(mode)
    try:
        yield
    finally:
        bits_c._pace_test(previous)


def os_threads() -> int:
    """The process's threads as the OS counts them (Linux: /proc/self/task)."""
    return len(os.listdir("/proc/self/task"))


def os_threads_back_to(count: int, seconds: float = 5.0) -> int:
    """The OS thread count once it falls to ``count``, or after ``seconds``: a helper has left
    the shared state when its call returns, and its thread ends a moment later."""
    deadline = time.monotonic() + seconds
    while os_threads() > count and time.monotonic() < deadline:
        time.sleep(0.01)
    return os_threads()


def press_ctrl_c(child: subprocess.Popen, tries: int = 5, wait: float = 12.0
                 ) -> tuple[str, float]:
    """SIGINT to ``child`` until it answers: its whole output and when the answered press was
    sent (``time.monotonic()``).

    A KeyboardInterrupt raised while CPython runs a weakref callback is printed as "Exception
    ignored" and lost (seen once on i386, in the pure twin's run): as a user would, press
    Ctrl-C again if the first went unanswered.
    """
    for _ in range(tries):
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        try:
            out, _ = child.communicate(timeout=wait)
            return out, sent
        except subprocess.TimeoutExpired:
            continue
    raise AssertionError(f"no answer to {tries} presses of Ctrl-C")


def interrupt_a_solving_child(script: str, *args: str, engine_file: str
                              ) -> tuple[str, float, int]:
    """Run ``script`` in a child (it prints "solving", solves until Ctrl-C, then prints
    "interrupted", the monotonic time and its threads alive), press Ctrl-C a second after
    it starts solving: its word, the seconds from the answered press to its answer, and
    its threads alive.  ``engine_file``: the engine module under test, whose package the
    child imports first."""
    root = str(Path(engine_file).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE,
                             text=True, env=env)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "solving"
        time.sleep(1.0)
        out, sent = press_ctrl_c(child)  # (pressed again if a first press is lost)
        assert child.returncode == 0
        word, when, alive = out.split()
    finally:
        child.kill()
        child.wait()
    return word, float(when) - sent, int(alive)
