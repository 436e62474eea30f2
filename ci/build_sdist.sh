#!/usr/bin/env bash
# Build the sdist into OUTDIR (default dist/) and check what it carries: the engine's .pyx,
# tests/, ci/, benchmarks/, README, LICENSE, CHANGELOG; never generated C or built extensions.
# Wheels are built from this sdist (CI and ci/check_wheels.sh), so a missing file breaks them.
# Usage: bash ci/build_sdist.sh [OUTDIR]    (needs `build`: python -m pip install build)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
outdir=$(mkdir -p "${1:-$repo/dist}" && cd "${1:-$repo/dist}" && pwd)
python=${PYTHON:-python3}

rm -f "$outdir"/*.tar.gz
(cd "$repo" && "$python" -m build --sdist --outdir "$outdir" .) >"$outdir/sdist-build.log" 2>&1 \
    || { cat "$outdir/sdist-build.log"; echo "build_sdist: FAIL: sdist did not build"; exit 1; }
sdist=$(ls "$outdir"/*.tar.gz)

"$python" - "$sdist" <<'PY'
import sys, tarfile

names = [n.split("/", 1)[1] for n in tarfile.open(sys.argv[1]).getnames() if "/" in n]
required = ["catmouse/engine/bits_c.pyx", "catmouse/engine/bits_py.py", "catmouse/py.typed",
            "catmouse/show/shell.html", "catmouse/show/page.html", "catmouse/show/page.js",
            "catmouse/show/cops_page.html", "catmouse/show/cops_page.js", "catmouse/engine/rounds.pxi",
            "setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE",
            "CHANGELOG.md", "ci/run_tests.py", "ci/test.sh", "tests/packaging/test_packaging.py",
            "benchmarks/bench.py", "benchmarks/ref.cpp", "benchmarks/dismantlable.c",
            "tests/engine/c/bitops_check.c", "noxfile.py"]
missing = [n for n in required if n not in names]
# Cython writes its C beside the .pyx, under catmouse/; C elsewhere (tests/engine/c/,
# benchmarks/) is hand-written source.
generated = [n for n in names if n.endswith((".so", ".pyd", ".dylib", ".pyc"))
             or (n.endswith(".c") and n.startswith("catmouse/"))
             or (n.endswith(".html") and not n.startswith(("catmouse/show/", "docs/")))]
print("\n".join("  " + n for n in sorted(names)))
if missing or generated:
    print(f"build_sdist: FAIL: missing {missing}, generated files {generated}")
    sys.exit(1)
print(f"build_sdist: OK: {sys.argv[1]} ({len(names)} entries): .pyx present, no .c/.so")
PY
