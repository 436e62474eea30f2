#!/usr/bin/env bash
# The checks the release workflow runs before publishing, on every sdist and wheel found in the
# given folders: `twine check --strict` (metadata and README render as PyPI will) and
# `check-wheel-contents` (no stray, duplicate or missing files in a wheel). Locally:
# `nox -s wheels release-check` runs it on what ci/check_wheels.sh built.
# Usage: bash ci/release_check.sh FOLDER...    (needs twine and check-wheel-contents on PATH)
set -euo pipefail

if [[ $# -eq 0 ]]; then echo "usage: bash ci/release_check.sh FOLDER..." >&2; exit 2; fi
artifacts=()
for folder in "$@"; do
    [[ -d $folder ]] || { echo "release_check: FAIL: no folder $folder"; exit 1; }
    for file in "$folder"/*.tar.gz "$folder"/*.whl; do
        [[ -e $file ]] && artifacts+=("$file")
    done
done
if [[ ${#artifacts[@]} -eq 0 ]]; then echo "release_check: FAIL: no sdist or wheel in $*"; exit 1; fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
failures=0
for file in "${artifacts[@]}"; do
    name=$(basename "$file")
    if twine check --strict "$file" >"$log" 2>&1; then
        echo "release_check: twine check --strict: $name: OK"
    else
        sed 's/^/  /' "$log"
        echo "release_check: twine check --strict: $name: FAIL"; failures=$((failures + 1))
    fi
    if [[ $file == *.whl ]]; then
        if check-wheel-contents "$file" >"$log" 2>&1; then
            echo "release_check: check-wheel-contents: $name: OK"
        else
            sed 's/^/  /' "$log"
            echo "release_check: check-wheel-contents: $name: FAIL"; failures=$((failures + 1))
        fi
    fi
done
wheels=$(printf '%s\n' "${artifacts[@]}" | grep -c '\.whl$' || true)
if [[ $failures -eq 0 ]]; then
    echo "release_check: OK: ${#artifacts[@]} artifacts ($wheels wheels), every check passed"
else
    echo "release_check: FAIL: $failures check(s) failed on ${#artifacts[@]} artifacts"
    exit 1
fi
