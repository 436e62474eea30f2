"""Run the test suite against the INSTALLED catmouse, never the source tree.

Usage: python ci/run_tests.py PROJECT_DIR [--engine compiled|pure|any] [--doctests]

This is cibuildwheel's test command, and the step that ci/test.sh and ci/check_wheels.sh run
in each virtual environment.  pytest runs from a fresh temporary directory on PROJECT_DIR/tests
with PROJECT_DIR/pyproject.toml as its configuration, so `import catmouse` finds the installed
package (tests/ has no __init__.py, so only tests/ itself goes on sys.path).

--engine compiled   CATMOUSE_REQUIRE_EXTENSIONS=1: the compiled engine must import (wheels, CI)
--engine pure       CATMOUSE_NO_EXTENSIONS=1: the API runs through the pure-Python twin
--engine any        neither: whatever the install gave (a compiler-less install)
--doctests          also run the docstring examples of the installed package

Exit status is pytest's, except that "no tests collected" (5) is a failure too.  One summary
line "<label>: N passed, N failed, N skipped" is printed; with CATMOUSE_TEST_COUNTS set to a file
name, the counts are appended there for a caller to add up.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

# The engine map is written once, in ci/engines.py beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from engines import ENGINE_ENV, EXPECTED_BACKEND, SWITCHES  # noqa: E402


def engine_env(engine: str) -> dict[str, str]:
    env = dict(os.environ)
    for name in SWITCHES:
        env.pop(name, None)
    env.update(ENGINE_ENV[engine])
    # Tell tests/packaging/test_packaging.py that the installed package is under test.
    env["CATMOUSE_TEST_INSTALLED"] = "1"
    env.pop("PYTHONPATH", None)
    return env


def installed_backend(env: dict[str, str], cwd: str) -> str:
    code = "import catmouse; print(catmouse.BACKEND, catmouse.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.split()
    print(f"run_tests: catmouse {out[1]} BACKEND={out[0]}", flush=True)
    return out[0]


def counts(junit: Path) -> tuple[int, int, int]:
    """passed, failed (failures + errors), skipped, from pytest's JUnit XML."""
    root = ET.parse(junit).getroot()
    suites = [root] if root.tag == "testsuite" else list(root)
    total = failed = skipped = 0
    for suite in suites:
        total += int(suite.get("tests", 0))
        failed += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skipped += int(suite.get("skipped", 0))
    return total - failed - skipped, failed, skipped


def pytest(args: list[str], env: dict[str, str], cwd: str, junit: Path) -> int:
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-rfEs",
        f"--junitxml={junit}",
        *args,
    ]
    print("run_tests: " + " ".join(command), flush=True)
    return subprocess.call(command, env=env, cwd=cwd)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path, help="directory holding tests/ and pyproject.toml")
    parser.add_argument("--engine", choices=sorted(ENGINE_ENV), default="compiled")
    parser.add_argument("--doctests", action="store_true")
    parser.add_argument("--label", default=None, help="name on the summary line")
    parser.add_argument("pytest_args", nargs="*", help="more arguments for pytest (after --)")
    # Everything after "--" goes to pytest as given: argparse drops a second positional that
    # follows options ("PROJECT --label L -- tests/x.py" was refused), and pytest's own
    # options (-k, -x) are not ours to parse.
    argv, passed_on = sys.argv[1:], []
    if "--" in argv:
        cut = argv.index("--")
        argv, passed_on = argv[:cut], argv[cut + 1:]
    options = parser.parse_args(argv)
    options.pytest_args += passed_on
    project = options.project.resolve()
    label = options.label or f"tests[{options.engine}]"
    env = engine_env(options.engine)

    with tempfile.TemporaryDirectory(prefix="catmouse-tests-") as cwd:
        backend = installed_backend(env, cwd)
        expected = EXPECTED_BACKEND[options.engine]
        if expected and backend != expected:
            print(f"{label}: FAIL: BACKEND is {backend!r}, expected {expected!r}", flush=True)
            return 1
        config = ["-c", str(project / "pyproject.toml"), "--rootdir", str(project)]
        # A selection of test files (ci/debian_arch.sh ARCH SUBSET) replaces the whole suite.
        chosen = any(Path(arg).exists() for arg in options.pytest_args)
        suite = [] if chosen else [str(project / "tests")]
        runs = [config + [*suite, *options.pytest_args]]
        if options.doctests:
            runs.append(["--doctest-modules", "--pyargs", "catmouse"])
        status, total = 0, [0, 0, 0]
        for number, args in enumerate(runs):
            junit = Path(cwd) / f"junit{number}.xml"
            code = pytest(args, env, cwd, junit)
            if code == 5:
                print(f"run_tests: pytest collected no tests from {args[-1]}", flush=True)
            if code != 0:
                status = status or (code if code != 5 else 1)
            if junit.exists():
                total = [a + b for a, b in zip(total, counts(junit), strict=True)]

    passed, failed, skipped = total
    if status == 0 and failed:
        status = 1
    verdict = "OK" if status == 0 else "FAIL"
    print(
        f"{label} ({verdict}, BACKEND={backend}): "
        f"{passed} passed, {failed} failed, {skipped} skipped",
        flush=True,
    )
    counts_file = os.environ.get("CATMOUSE_TEST_COUNTS")
    if counts_file:
        with open(counts_file, "a") as out:
            out.write(f"{passed} {failed} {skipped} {status}\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
