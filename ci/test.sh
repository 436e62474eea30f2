#!/usr/bin/env bash
# The project's test command (the README's, and what .ci/run runs).
#
# From a fresh machine (ci/nox.sh installs nox first), two nox sessions, each in a fresh
# virtual environment, run the suite against the INSTALLED package from outside the tree:
#   tests-compiled  catmouse[test,all,dask,png] built with the compiled engine REQUIRED (a failed
#                   compile fails the install); BACKEND must be "cython"; the engine fixture
#                   runs both twins (side by side, the twin only where tests-pure cannot run
#                   the test: see below); the installed package's docstring examples run too;
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

# The suite is mostly one process on one core, so where there are two CPUs or more the two
# sessions run side by side, each its install and its tests (one after the other they took 21
# minutes on a 2-vCPU VM). tests-pure builds from a copy of the checkout (noxfile.py), so the
# two builds never share build/ or the egg-info. The compiled session skips the pure twin's
# parameter of the engine tests that the pure session runs (CATMOUSE_TEST_TWIN_ELSEWHERE,
# tests/conftest.py): the same tests of the same twin, run once. Its output streams; the pure
# session's is kept and printed whole when it ends. CATMOUSE_TEST_SERIAL=1 runs all in turn,
# the twin in both sessions.
status=0
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [[ ${CATMOUSE_TEST_SERIAL:-} == 1 || $cpus -lt 2 ]]; then
    CATMOUSE_TEST_COUNTS=$counts bash "$repo/ci/nox.sh" -s tests-compiled tests-pure || status=1
elif bash "$repo/ci/nox.sh" --version; then  # (nox installed in its venv, once)
    # shellcheck source=ci/venv.sh
    source "$repo/ci/venv.sh"
    nox_py=$(venv_python "${CATMOUSE_NOX_VENV:-$repo/.venv-nox}")  # ci/nox.sh's venv
    pure_log=$(mktemp)
    trap 'kill "${pure:-}" 2>/dev/null || true; rm -f "$counts" "$pure_log"' EXIT
    echo "== ci/test.sh: tests-compiled and tests-pure side by side ($cpus CPUs);" \
        "tests-pure's output follows when both end"
    (cd "$repo" && CATMOUSE_TEST_COUNTS=$counts exec "$nox_py" -m nox -s tests-pure) \
        >"$pure_log" 2>&1 &
    pure=$!
    (cd "$repo" && CATMOUSE_TEST_COUNTS=$counts CATMOUSE_TEST_TWIN_ELSEWHERE=1 \
        exec "$nox_py" -m nox -s tests-compiled) || status=1
    wait "$pure" || status=1
    echo "== ci/test.sh: tests-pure's output"
    cat "$pure_log"
else
    status=1
fi

read -r passed failed skipped < <(awk '{p += $1; f += $2; s += $3} END {print p+0, f+0, s+0}' \
    "$counts")
runs=$(wc -l < "$counts")
if [[ $runs -ne 2 || $passed -eq 0 ]]; then status=1; fi
if [[ $status -eq 0 ]]; then verdict=OK; else verdict=FAIL; fi
echo "== ci/test.sh $verdict in $((SECONDS - start))s ($runs of 2 runs reported)"
echo "catmouse: $passed passed, $failed failed, $skipped skipped"
exit "$status"
