#!/usr/bin/env bash
# The project's test command (the README's, and what .ci/run runs).
#
# From a fresh machine: make a virtual environment, install catmouse from this checkout with
# its test and integration extras and the compiled engine REQUIRED (a failed compile fails the
# install), then run the suite against the installed package, from outside the source tree:
#   1. as installed: BACKEND must be "cython"; the tests' engine fixture runs both engines;
#      the docstring examples of the installed package run too;
#   2. with CATMOUSE_NO_EXTENSIONS=1: the whole API through the pure-Python twin.
# The last line adds both runs up: "catmouse: N passed, N failed, N skipped".
#
# Environment: PYTHON (interpreter for the venv, default python3), CATMOUSE_CI_VENV (where the
# venv goes, default .venv-ci in the checkout; it is made anew each run).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=${PYTHON:-python3}
venv=${CATMOUSE_CI_VENV:-$repo/.venv-ci}
start=$SECONDS

echo "== ci/test.sh: venv $venv from $("$python" --version 2>&1)"
rm -rf "$venv"
"$python" -m venv "$venv"
if [[ -x $venv/bin/python ]]; then py=$venv/bin/python; else py=$venv/Scripts/python.exe; fi
"$py" -m pip install --quiet --disable-pip-version-check --upgrade pip

echo "== install catmouse[test,numpy,networkx,scipy] with CATMOUSE_REQUIRE_EXTENSIONS=1"
# pip never caches a wheel it builds from a directory, so this always compiles afresh.
CATMOUSE_REQUIRE_EXTENSIONS=1 "$py" -m pip install --quiet --disable-pip-version-check \
    "$repo[test,numpy,networkx,scipy,dask]" \
    || { echo "== ci/test.sh FAIL: install failed (is the compiled engine building?)"; exit 1; }

counts=$(mktemp)
trap 'rm -f "$counts"' EXIT
status=0
CATMOUSE_TEST_COUNTS=$counts "$py" "$repo/ci/run_tests.py" "$repo" --engine compiled \
    --doctests --label "run 1 (installed, compiled engine required)" || status=1
CATMOUSE_TEST_COUNTS=$counts "$py" "$repo/ci/run_tests.py" "$repo" --engine pure \
    --label "run 2 (CATMOUSE_NO_EXTENSIONS=1)" || status=1

read -r passed failed skipped < <(awk '{p += $1; f += $2; s += $3} END {print p, f, s}' "$counts")
runs=$(wc -l < "$counts")
if [[ $runs -ne 2 || $passed -eq 0 ]]; then status=1; fi
elapsed=$((SECONDS - start))
if [[ $status -eq 0 ]]; then verdict=OK; else verdict=FAIL; fi
echo "== ci/test.sh $verdict in ${elapsed}s ($runs of 2 runs reported)"
echo "catmouse: $passed passed, $failed failed, $skipped skipped"
exit "$status"
