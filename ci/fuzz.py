"""A longer fuzzing run: the property suite with many examples, bounds checks on.

    python ci/fuzz.py [--examples N]

Copies the package to a temporary directory, builds the compiled engine there
with CATMOUSE_DEBUG=1 (Cython bounds checks on: an out-of-range read raises
IndexError instead of reading memory), and runs tests/game/test_fuzz.py against that
build with N examples per property and engine.  Any failure (a crash, a wrong
answer, an unexpected exception) fails the run; at the end it prints how many
inputs each engine took.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The C file Cython writes for the compiled engine: its bounds checks are looked for there.
GENERATED = Path("catmouse", "engine", "bits_c.c")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000,
                        help="examples per property and engine (default 2000)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="catmouse-fuzz-") as tmp:
        build = Path(tmp)
        shutil.copytree(ROOT / "catmouse", build / "catmouse",
                        ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__"))
        # The metadata names README.md and LICENSE; without them setuptools warns at length.
        for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
            shutil.copy(ROOT / name, build / name)
        env = dict(os.environ, CATMOUSE_DEBUG="1", CATMOUSE_REQUIRE_EXTENSIONS="1")
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace", "--force"],
                       cwd=build, env=env, check=True)
        source = (build / GENERATED).read_text()
        if "__Pyx_RaiseBufferIndexError" not in source:
            print("the debug build has no bounds checks", file=sys.stderr)
            return 1
        report = build / "counts.json"
        env.update(PYTHONPATH=str(build))
        where = subprocess.run(
            [sys.executable, "-c", "import catmouse.engine.bits_c as c; print(c.__file__)"],
            cwd=build, env=env, check=True, capture_output=True, text=True).stdout.strip()
        if not where.startswith(str(build)):
            print(f"the fuzz run would test {where}, not the debug build", file=sys.stderr)
            return 1
        env.update(PYTHONPATH=str(build), CATMOUSE_FUZZ_EXAMPLES=str(options.examples),
                   CATMOUSE_FUZZ_REPORT=str(report))
        start = time.perf_counter()
        # -p no:cacheprovider: leave no .pytest_cache; the hypothesis database stays local.
        status = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             str(ROOT / "tests" / "game" / "test_fuzz.py")],
            cwd=build, env=env, check=False,
        ).returncode
        seconds = time.perf_counter() - start
        counts = json.loads(report.read_text()) if report.exists() else {}
    for engine, count in sorted(counts.items()):
        print(f"{engine}: {count} inputs")
    print(f"{sum(counts.values())} inputs in {seconds:.0f} s, bounds-checked build, "
          f"{'no failures' if status == 0 else 'FAILURES'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
