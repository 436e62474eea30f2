"""The engine switch: CATMOUSE_NO_EXTENSIONS / CATMOUSE_REQUIRE_EXTENSIONS, in fresh processes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import catmouse

EXAMPLE_1 = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]

PROBE = (
    "import catmouse; "
    "a = catmouse.analyze({board}); "
    "print(catmouse.BACKEND, int(catmouse.solve({board})), "
    "bytes(a.outcomes).hex(), bytes(a.remoteness_table).hex())"
)


def run_probe(env_changes, board=EXAMPLE_1, prelude=""):
    """PROBE in a fresh process under ``env_changes``, after ``prelude`` (code that stands a
    module in for the compiled engine)."""
    env = dict(os.environ)
    env.pop("CATMOUSE_NO_EXTENSIONS", None)
    env.pop("CATMOUSE_REQUIRE_EXTENSIONS", None)
    env.update(env_changes)
    package_root = os.path.dirname(os.path.dirname(catmouse.__file__))
    env["PYTHONPATH"] = package_root + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-c", prelude + PROBE.format(board=board)],
                          env=env, capture_output=True, text=True, timeout=60, check=False)


def required(require):
    """The switches of a test run with CATMOUSE_REQUIRE_EXTENSIONS set to ``require``."""
    return {"CATMOUSE_REQUIRE_EXTENSIONS": require} if require else {}


def compiled_available():
    try:
        import catmouse.engine.bits_c  # noqa: F401
    except ImportError:
        return False
    return True


def here(board=EXAMPLE_1):
    a = catmouse.analyze(board)
    return [int(catmouse.solve(board)), bytes(a.outcomes).hex(), bytes(a.remoteness_table).hex()]


@pytest.mark.parametrize("value", ["1", "true", "YES", " on "])
def test_no_extensions_gives_the_python_backend_and_the_same_answers(value):
    done = run_probe({"CATMOUSE_NO_EXTENSIONS": value})
    assert done.returncode == 0, done.stderr
    backend, *answers = done.stdout.split()
    assert backend == "python"
    assert answers == [str(x) for x in here()]


@pytest.mark.parametrize("value", ["0", "false", "no", "off", ""])
def test_false_words_keep_the_default_backend(value):
    done = run_probe({"CATMOUSE_NO_EXTENSIONS": value})
    assert done.returncode == 0, done.stderr
    backend, *answers = done.stdout.split()
    assert backend == ("cython" if compiled_available() else "python")
    assert answers == [str(x) for x in here()]


def test_an_unreadable_switch_is_an_error():
    done = run_probe({"CATMOUSE_NO_EXTENSIONS": "maybe"})
    assert done.returncode != 0 and "CATMOUSE_NO_EXTENSIONS='maybe'" in done.stderr


def test_require_and_forbid_together_is_an_import_error():
    done = run_probe({"CATMOUSE_NO_EXTENSIONS": "1", "CATMOUSE_REQUIRE_EXTENSIONS": "1"})
    assert done.returncode != 0 and "ImportError" in done.stderr


def test_require_extensions_with_the_build_present():
    if not compiled_available():
        pytest.skip("the compiled engine is not built here")
    done = run_probe({"CATMOUSE_REQUIRE_EXTENSIONS": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "cython"


# A compiled engine that is missing or broken, as on a machine that could not build it.
NO_COMPILED = "import sys; sys.modules['catmouse.engine.bits_c'] = None; "


@pytest.mark.parametrize("require", [None, "1"])
def test_a_missing_compiled_engine_falls_back_or_fails_as_asked(require):
    done = run_probe(required(require), prelude=NO_COMPILED)
    if require:
        assert done.returncode == 1
        assert ("ImportError: CATMOUSE_REQUIRE_EXTENSIONS is set but the compiled engine "
                "catmouse.engine.bits_c did not import") in done.stderr
    else:
        assert done.returncode == 0, done.stderr
        backend, *answers = done.stdout.split()
        assert backend == "python"
        assert answers == [str(x) for x in here()]


# A compiled module that imports but lacks an entry point (built from older sources): `import
# catmouse` raised AttributeError instead of falling back.
STALE_COMPILED = ("import sys, types; stale = types.ModuleType('catmouse.engine.bits_c'); "
                  "stale.propagate = None; sys.modules['catmouse.engine.bits_c'] = stale; ")


@pytest.mark.parametrize("require", [None, "1"])
def test_a_stale_compiled_engine_falls_back_with_a_warning_or_fails_as_asked(require):
    done = run_probe(required(require), prelude=STALE_COMPILED)
    said = "catmouse.engine.bits_c (?) is out of date: it has no peak_bytes; build it again"
    if require:
        assert done.returncode == 1
        assert "CATMOUSE_REQUIRE_EXTENSIONS is set but the compiled engine" in done.stderr
        assert said in done.stderr
    else:
        assert done.returncode == 0, done.stderr
        assert "RuntimeWarning: " + said in done.stderr
        assert "catmouse uses its pure-Python engine meanwhile" in done.stderr
        backend, *answers = done.stdout.split()
        assert backend == "python"
        assert answers == [str(x) for x in here()]


# A compiled module built from older sources that has every entry point, one with an older
# signature (propagate without more_bytes=): it was taken, and analyze(max_memory=...) failed
# with "propagate() got an unexpected keyword argument 'more_bytes'".  Each entry point here
# is the twin's, found at first use, under a module without the ENGINE_API stamp.
STALE_SIGNATURES = (
    "import sys, types, importlib\nstale = types.ModuleType('catmouse.engine.bits_c')\n"
    "def entry(name):\n"
    "    if name.startswith('__') or name == 'ENGINE_API': raise AttributeError(name)\n"
    "    return lambda *a, **k: getattr(importlib.import_module('catmouse.engine.bits_py'), "
    "name)(*a, **k)\n"
    "stale.__getattr__ = entry; sys.modules['catmouse.engine.bits_c'] = stale\n"
)


@pytest.mark.parametrize("require", [None, "1"])
def test_a_compiled_engine_of_older_signatures_falls_back_or_fails_as_asked(require):
    done = run_probe(required(require), prelude=STALE_SIGNATURES)
    said = "catmouse.engine.bits_c (?) is out of date: it has no ENGINE_API; build it again"
    if require:
        assert done.returncode == 1
        assert said in done.stderr
    else:
        assert done.returncode == 0, done.stderr
        assert "RuntimeWarning: " + said in done.stderr
        backend, *answers = done.stdout.split()
        assert backend == "python"
        assert answers == [str(x) for x in here()]


def test_both_twins_state_the_engine_api_this_catmouse_takes(engine):
    from catmouse.engine.facts import ENGINE_API

    assert engine.ENGINE_API == ENGINE_API


def test_the_engine_object_cannot_be_changed_in_place():
    """Modules read entry points from the one engine object; nobody may patch one of them."""
    import dataclasses

    from catmouse import engine as selector

    with pytest.raises(dataclasses.FrozenInstanceError):
        selector.current.propagate = None
