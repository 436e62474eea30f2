#!/usr/bin/env bash
# Install the pure py3-none-any wheel into a fresh venv and run the suite on it:
# BACKEND must be "python", and the compiled-engine test parameter is skipped
# (CATMOUSE_TEST_NO_COMPILED=1), since this wheel has no compiled engine to test.
# Usage: bash ci/test_pure_wheel.sh WHEEL    (PYTHON picks the interpreter; EXTRAS default test,all)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
wheel=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
python=${PYTHON:-python3}
venv=$(mktemp -d "${TMPDIR:-/tmp}/catmouse-pure.XXXXXX")
trap 'rm -rf "$venv"' EXIT

"$python" -m venv "$venv"
if [[ -x $venv/bin/python ]]; then py=$venv/bin/python; else py=$venv/Scripts/python.exe; fi
"$py" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$py" -m pip install --quiet --disable-pip-version-check "$wheel[${EXTRAS:-test,all}]"
backend=$(cd "$venv" && env -u CATMOUSE_NO_EXTENSIONS -u CATMOUSE_REQUIRE_EXTENSIONS \
    "$py" -c 'import catmouse; print(catmouse.BACKEND)')
if [[ $backend != python ]]; then
    echo "test_pure_wheel: FAIL: BACKEND is $backend, expected python"; exit 1
fi
CATMOUSE_TEST_NO_COMPILED=1 "$py" "$repo/ci/run_tests.py" "$repo" --engine any --doctests \
    --label "pure wheel $(basename "$wheel")"
