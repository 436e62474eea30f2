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
from catmouse._retro import env_flag

DISTRIBUTION = "catmouse-solver"
PACKAGE_DIR = Path(catmouse.__file__).resolve().parent


def compiled_engine_imports() -> bool:
    try:
        importlib.import_module("catmouse._retro_c")
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
    compiled = importlib.import_module("catmouse._retro_c")
    assert catmouse._retro.engine.module is compiled


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


@pytest.mark.skipif(not env_flag("CATMOUSE_TEST_INSTALLED"), reason="not testing an install")
class TestInstalled:
    def test_imported_from_site_packages(self):
        roots = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
        assert any(PACKAGE_DIR.is_relative_to(root) for root in roots), PACKAGE_DIR

    def test_version_matches_metadata(self):
        assert importlib.metadata.version(DISTRIBUTION) == catmouse.__version__

    def test_typing_marker_and_engine_source_are_installed(self):
        assert (PACKAGE_DIR / "py.typed").is_file()
        assert (PACKAGE_DIR / "_retro_c.pyx").is_file()
        assert not list(PACKAGE_DIR.glob("*.c")), "generated C must not be installed"

    def test_no_runtime_dependencies(self):
        requires = importlib.metadata.requires(DISTRIBUTION) or []
        assert all("extra ==" in requirement for requirement in requires), requires

    def test_console_script_is_declared(self):
        scripts = importlib.metadata.distribution(DISTRIBUTION).entry_points.select(
            group="console_scripts"
        )
        assert [(ep.name, ep.value) for ep in scripts] == [("catmouse", "catmouse.__main__:main")]
