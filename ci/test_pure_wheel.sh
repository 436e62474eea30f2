#!/usr/bin/env bash
# Install the pure py3-none-any wheel into PYTHON's environment and run the suite on it:
# BACKEND must be "python", and the compiled-engine test parameter is skipped
# (CATMOUSE_TEST_NO_COMPILED=1), since this wheel has no compiled engine to test.
# PYTHON should be a fresh environment: a CI runner's own, or a venv (ci/check_wheels.sh).
# Usage: bash ci/test_pure_wheel.sh WHEEL    (PYTHON picks the interpreter; EXTRAS default test,all)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
wheel=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
py=${PYTHON:-python3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

"$py" -m pip install --quiet --disable-pip-version-check "$wheel[${EXTRAS:-test,all}]"
backend=$(cd "$scratch" && env -u CATMOUSE_NO_EXTENSIONS -u CATMOUSE_REQUIRE_EXTENSIONS \
    "$py" -c 'import catmouse; print(catmouse.BACKEND)')
if [[ $backend != python ]]; then
    echo "test_pure_wheel: FAIL: BACKEND is $backend, expected python"; exit 1
fi
CATMOUSE_TEST_NO_COMPILED=1 "$py" "$repo/ci/run_tests.py" "$repo" --engine any --doctests \
    --label "pure wheel $(basename "$wheel")"
