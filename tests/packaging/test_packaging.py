"""The package as built and installed: which engine runs, and what was installed.

ci/run_tests.py sets CATMOUSE_TEST_INSTALLED=1 when it runs the suite against an installed
package; then the package under test must come from site-packages, not from a checkout.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import catmouse
from catmouse.engine import env_flag

DISTRIBUTION = "catmouse-solver"
PACKAGE_DIR = Path(catmouse.__file__).resolve().parent


def compiled_engine_imports() -> bool:
    try:
        importlib.import_module("catmouse.engine.bits_c")
    except ImportError:
        return False
    return True


def backend_in_subprocess(**env: str) -> subprocess.CompletedProcess[str]:
    """Import catmouse afresh under the given switches, from the same place as this process."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("CATMOUSE_")}
    environ.update(env)
    # The package's parent first, so the child imports the very package under test.
    environ["PYTHONPATH"] = os.pathsep.join(
        [str(PACKAGE_DIR.parent), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    return subprocess.run(
        [sys.executable, "-c", "import catmouse; print(catmouse.BACKEND)"],
        env=environ,
        capture_output=True,
        text=True,
        check=False,
    )


def test_backend_reflects_environment():
    if env_flag("CATMOUSE_NO_EXTENSIONS"):
        assert catmouse.BACKEND == "python"
    elif compiled_engine_imports():
        assert catmouse.BACKEND == "cython"
    else:
        assert catmouse.BACKEND == "python"


@pytest.mark.skipif(
    not env_flag("CATMOUSE_REQUIRE_EXTENSIONS"), reason="CATMOUSE_REQUIRE_EXTENSIONS is not set"
)
def test_backend_is_cython_when_required():
    assert catmouse.BACKEND == "cython"
    compiled = importlib.import_module("catmouse.engine.bits_c")
    assert catmouse.engine.current.module is compiled


def test_no_extensions_switch_selects_the_twin():
    result = backend_in_subprocess(CATMOUSE_NO_EXTENSIONS="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "python"


def test_zero_means_off():
    result = backend_in_subprocess(CATMOUSE_NO_EXTENSIONS="0")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ("cython" if compiled_engine_imports() else "python")


def test_both_switches_at_once_is_an_error():
    result = backend_in_subprocess(CATMOUSE_NO_EXTENSIONS="1", CATMOUSE_REQUIRE_EXTENSIONS="1")
    assert result.returncode != 0
    assert "ImportError" in result.stderr


# setup.py beside tests/: the checkout's, or the unpacked sdist's (cibuildwheel's {project}).
SETUP_PY = Path(__file__).resolve().parents[2] / "setup.py"
needs_setup_py = pytest.mark.skipif(not SETUP_PY.is_file(), reason="no setup.py beside tests/")

# Runs setup.py with a stand-in setuptools that records setup()'s arguments, so the test sees
# which extensions the switches ask for, whatever setuptools (if any) this environment has.
SETUP_PROBE = """
import runpy, sys, types
calls = []
setuptools = types.ModuleType("setuptools")
setuptools.Extension = lambda name, sources, **options: name
setuptools.setup = lambda **kwargs: calls.append(kwargs)
build_ext = types.ModuleType("setuptools.command.build_ext")
build_ext.build_ext = type("build_ext", (), {})
sys.modules.update({"setuptools": setuptools, "setuptools.command": types.ModuleType("c"),
                    "setuptools.command.build_ext": build_ext})
runpy.run_path(sys.argv[1], run_name="__main__")
print(calls[0]["ext_modules"])
"""


def run_setup_py(**env: str) -> subprocess.CompletedProcess[str]:
    """Run setup.py under the given switches (building nothing); prints its extension list."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("CATMOUSE_")}
    environ.pop("CIBUILDWHEEL", None)
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-c", SETUP_PROBE, str(SETUP_PY)],
        cwd=SETUP_PY.parent,
        env=environ,
        capture_output=True,
        text=True,
        check=False,
    )


def test_switch_words():
    from catmouse.engine.switches import env_flag as read

    for word, expected in [("1", True), (" Yes ", True), ("ON", True), ("0", False),
                           ("off", False), ("", False)]:
        os.environ["CATMOUSE_TEST_WORD"] = word
        try:
            assert read("CATMOUSE_TEST_WORD") is expected, word
        finally:
            del os.environ["CATMOUSE_TEST_WORD"]
    assert read("CATMOUSE_TEST_WORD") is False  # unset
    assert env_flag is read  # selector reads the switches with the very same function


@needs_setup_py
@pytest.mark.parametrize(
    "name", ["CATMOUSE_NO_EXTENSIONS", "CATMOUSE_REQUIRE_EXTENSIONS", "CATMOUSE_DEBUG"]
)
def test_setup_py_refuses_an_unknown_word(name):
    # Before: setup.py read "maybe" as off, while the import refused it.
    result = run_setup_py(**{name: "maybe"})
    assert result.returncode != 0
    assert f"{name}='maybe'" in result.stderr and "expected 1/0" in result.stderr


@needs_setup_py
@pytest.mark.parametrize(
    "word, extensions", [("off", "['catmouse.engine.bits_c']"), ("0", "['catmouse.engine.bits_c']"),
                         ("", "['catmouse.engine.bits_c']"), ("Yes", "[]"), ("1", "[]")]
)
def test_setup_py_reads_words_as_the_import_does(word, extensions):
    result = run_setup_py(CATMOUSE_NO_EXTENSIONS=word, CATMOUSE_DEBUG="0")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[-2] == extensions


@needs_setup_py
def test_setup_py_refuses_both_switches():
    result = run_setup_py(CATMOUSE_NO_EXTENSIONS="yes", CATMOUSE_REQUIRE_EXTENSIONS="true")
    assert result.returncode != 0 and "both set" in result.stderr


@pytest.mark.skipif(not env_flag("CATMOUSE_TEST_INSTALLED"), reason="not testing an install")
class TestInstalled:
    def test_imported_from_site_packages(self):
        roots = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
        assert any(PACKAGE_DIR.is_relative_to(root) for root in roots), PACKAGE_DIR

    def test_version_matches_metadata(self):
        assert importlib.metadata.version(DISTRIBUTION) == catmouse.__version__

    def test_typing_marker_and_engine_source_are_installed(self):
        assert (PACKAGE_DIR / "py.typed").is_file()
        assert (PACKAGE_DIR / "engine" / "bits_c.pyx").is_file()
        # The play pages' HTML (the shared shell, each game's parts) and scripts are package
        # data, and each part of the engine ships.
        for name in ("shell.html", "page.html", "page.js", "cops_page.html", "cops_page.js"):
            assert (PACKAGE_DIR / "show" / name).is_file(), name
        assert len(list((PACKAGE_DIR / "engine").glob("*.pxi"))) >= 7
        assert not list(PACKAGE_DIR.rglob("*.c")), "generated C must not be installed"

    def test_no_benchmark_is_installed(self):
        # The benchmark and its C++ references stay in the checkout's benchmarks/ folder.
        installed = [path.name for path in PACKAGE_DIR.iterdir()]
        assert not [name for name in installed if "bench" in name or name.endswith(".cpp")]

    def test_no_runtime_dependencies(self):
        requires = importlib.metadata.requires(DISTRIBUTION) or []
        assert all("extra ==" in requirement for requirement in requires), requires

    def test_console_script_is_declared(self):
        scripts = importlib.metadata.distribution(DISTRIBUTION).entry_points.select(
            group="console_scripts"
        )
        assert [(ep.name, ep.value) for ep in scripts] == [("catmouse", "catmouse.__main__:main")]
