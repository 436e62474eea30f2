#!/usr/bin/env bash
# The project's main job (the README's run command).
#
# From a fresh machine: make a virtual environment, install catmouse from this checkout with
# the compiled engine REQUIRED and its optional integrations, then, from outside the source tree
# (so the installed package runs, not the checkout's catmouse/ folder):
#   1. say which engine runs;
#   2. solve the example game: outcome, remoteness and an optimal line;
#   3. draw it as SVG (written to $CATMOUSE_RUN_OUT, default out/ in the checkout);
#   4. run the quick benchmark (benchmarks/bench.py) against the C++ reference
#      (benchmarks/ref.cpp, needs g++).
#
# Environment: PYTHON (interpreter for the venv, default python3), CATMOUSE_RUN_VENV (default
# .venv-run in the checkout; made anew each run), CATMOUSE_RUN_OUT.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=${PYTHON:-python3}
venv=${CATMOUSE_RUN_VENV:-$repo/.venv-run}
out=${CATMOUSE_RUN_OUT:-$repo/out}

echo "== ci/run.sh: venv $venv from $("$python" --version 2>&1)"
rm -rf "$venv"
"$python" -m venv "$venv"
if [[ -x $venv/bin/python ]]; then bin=$venv/bin; else bin=$venv/Scripts; fi
"$bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
echo "== install catmouse[all] with CATMOUSE_REQUIRE_EXTENSIONS=1"
CATMOUSE_REQUIRE_EXTENSIONS=1 "$bin/python" -m pip install --quiet --disable-pip-version-check \
    "$repo[all]"

mkdir -p "$out"
cd "$(mktemp -d)"
export CATMOUSE_REQUIRE_EXTENSIONS=1
"$bin/python" -c "import catmouse; print('catmouse', catmouse.__version__, 'engine:', catmouse.BACKEND)"
echo "== catmouse solve examples/chase.edges --mouse 3 --cat 7"
"$bin/catmouse" solve "$repo/examples/chase.edges" --mouse 3 --cat 7
echo "== catmouse draw examples/chase.edges --mouse 3 --cat 7 -o $out/chase.svg"
"$bin/catmouse" draw "$repo/examples/chase.edges" --mouse 3 --cat 7 -o "$out/chase.svg"
echo "== python benchmarks/bench.py --quick"
"$bin/python" "$repo/benchmarks/bench.py" --quick
echo "== ci/run.sh OK"
