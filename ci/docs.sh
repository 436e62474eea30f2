#!/usr/bin/env bash
# Build the documentation site (Sphinx + furo) from docs/ with warnings as errors.
#
# From a fresh machine: make a virtual environment, install catmouse from this checkout with its
# `docs` extra (sphinx, furo), then, from outside the source tree so that the INSTALLED package
# is documented:
#   1. sphinx-build -b doctest: every >>> example of the pages runs and must print what it shows;
#   2. sphinx-build -b html -W --keep-going: the site, any warning fails the build (after
#      reporting all of them).
# The site goes to OUT (default: build/docs in the checkout, which git ignores); open
# OUT/index.html.
#
# Usage: bash ci/docs.sh [OUT]
# Environment: PYTHON (interpreter for the venv, default python3), CATMOUSE_DOCS_VENV (where the
# venv goes, default .venv-docs in the checkout; it is made anew each run).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=${PYTHON:-python3}
venv=${CATMOUSE_DOCS_VENV:-$repo/.venv-docs}
out=${1:-$repo/build/docs}
# The site replaces OUT's contents: refuse a folder that holds anything but an earlier build.
if [[ -d $out && -n $(ls -A "$out") && ! -f $out/.buildinfo ]]; then
    echo "== ci/docs.sh: $out is not empty and not an earlier build of the site; choose another OUT"
    exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
start=$SECONDS

echo "== ci/docs.sh: venv $venv from $("$python" --version 2>&1)"
# shellcheck source=ci/venv.sh
source "$repo/ci/venv.sh"  # new_venv
py=$(new_venv "$venv" "$python")
echo "== install catmouse[docs]"
"$py" -m pip install --quiet --disable-pip-version-check "$repo[docs]" \
    || { echo "== ci/docs.sh FAIL: install failed"; exit 1; }

doctrees=$(mktemp -d)
trap 'rm -rf "$doctrees"' EXIT
cd "$doctrees"  # not the checkout: `import catmouse` must find the installed package
"$py" -c 'import catmouse; print("== documenting", catmouse.__file__, "BACKEND", catmouse.BACKEND)'

status=0
echo "== sphinx-build -b doctest (the pages' examples)"
"$py" -m sphinx -b doctest -W --keep-going -q -d "$doctrees/doctrees" "$repo/docs" \
    "$doctrees/doctest" || status=1
tail -n 4 "$doctrees/doctest/output.txt" | head -n 2  # "N tests", "N failures in tests"
echo "== sphinx-build -b html -W --keep-going -> $out"
rm -rf "${out:?}"/*
"$py" -m sphinx -b html -W --keep-going -q -d "$doctrees/doctrees" "$repo/docs" "$out" \
    || status=1

elapsed=$((SECONDS - start))
if [[ $status -eq 0 ]]; then
    echo "== ci/docs.sh OK in ${elapsed}s: $out/index.html"
else
    echo "== ci/docs.sh FAIL in ${elapsed}s (warnings are errors; see above)"
fi
exit "$status"
