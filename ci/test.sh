#!/usr/bin/env bash
# The project's test command (the README's, and what .ci/run runs).
#
# From a fresh machine (ci/nox.sh installs nox first), two nox sessions, each in a fresh
# virtual environment, run the suite against the INSTALLED package from outside the tree:
#   tests-compiled  catmouse[test,all,dask,png] built with the compiled engine REQUIRED (a failed
#                   compile fails the install); BACKEND must be "cython"; the engine fixture
#                   runs both twins; the installed package's docstring examples run too;
#   tests-pure      the pure-Python build (CATMOUSE_NO_EXTENSIONS=1); BACKEND must be "python".
# The last line adds both runs up: "catmouse: N passed, N failed, N skipped".
#
# Environment: PYTHON (the interpreter, default python3).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
start=$SECONDS
counts=$(mktemp)
trap 'rm -f "$counts"' EXIT

# Chromium and its driver for the play page's browser tests (apt-get as root, else it says why).
bash "$repo/ci/install_browser.sh"
# nauty's geng for the graph6-stream tests (apt-get as root, else it says why).
bash "$repo/ci/install_geng.sh"

status=0
CATMOUSE_TEST_COUNTS=$counts bash "$repo/ci/nox.sh" -s tests-compiled tests-pure || status=1

read -r passed failed skipped < <(awk '{p += $1; f += $2; s += $3} END {print p+0, f+0, s+0}' \
    "$counts")
runs=$(wc -l < "$counts")
if [[ $runs -ne 2 || $passed -eq 0 ]]; then status=1; fi
if [[ $status -eq 0 ]]; then verdict=OK; else verdict=FAIL; fi
echo "== ci/test.sh $verdict in $((SECONDS - start))s ($runs of 2 runs reported)"
echo "catmouse: $passed passed, $failed failed, $skipped skipped"
exit "$status"
