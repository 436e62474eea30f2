#!/usr/bin/env bash
# Build the compiled engine with clang, warnings on, and run the whole suite against that build.
#
# Usage: bash ci/clang.sh
#   PYTHON               interpreter for the venv (default python3)
#   CATMOUSE_CLANG_VENV  the venv, made once and reused (default /var/tmp/catmouse-clang-venv)
#   CC                   the compiler (default clang)
#   EXTRA_CFLAGS         more compiler flags, e.g. "-Wconversion" (default none)
#
# 1. Copies the checkout (tracked and untracked-but-not-ignored files) to a temporary folder and
#    builds a wheel there with CC=clang, CFLAGS="$CLANG_CFLAGS" (below: optimised as a release
#    build, -Wall -Wextra) and the compiled engine REQUIRED; the checkout itself is left as it
#    was (no generated C, no .so).
# 2. Checks that clang made the extension (its .comment section names the compiler) and counts
#    the compiler's warnings with ci/c_warnings.py: ours (the .pyx code) apart from Cython's
#    generated code.  A warning of ours fails the run.
# 3. Installs the wheel with the test and integration extras into the venv and runs the copy's
#    ci/run_tests.py on both engines (`--engine compiled` with the doctests, `--engine pure`).
#
# The last line: "clang: N passed, N failed, N skipped (both engines); warnings ...".
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=${PYTHON:-python3}
venv=${CATMOUSE_CLANG_VENV:-/var/tmp/catmouse-clang-venv}
cc=${CC:-clang}
# With CC set, setuptools drops the interpreter's own CFLAGS (-O3 -DNDEBUG ...): say them again,
# so the tests run on an optimised build and the flow-based warnings of -O3 show up.
cflags="-O3 -DNDEBUG -fwrapv -Wall -Wextra${EXTRA_CFLAGS:+ $EXTRA_CFLAGS}"
start=$SECONDS

command -v "$cc" >/dev/null || { echo "ci/clang.sh: no $cc on PATH" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/catmouse-clang.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [[ ! -x $venv/bin/python ]]; then
    echo "== venv $venv from $("$python" --version 2>&1)"
    "$python" -m venv "$venv"
fi
py=$venv/bin/python

echo "== copy the checkout to $work/src"
mkdir -p "$work/src"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard \
    | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh \
    | tar --null -T - -cf -) | tar -xf - -C "$work/src"

echo "== build the wheel: CC=$cc CFLAGS=\"$cflags\" CATMOUSE_REQUIRE_EXTENSIONS=1"
t0=$SECONDS
status=0
# -v: the compiler's command lines and warnings go to the log.
CC=$cc CFLAGS=$cflags CATMOUSE_REQUIRE_EXTENSIONS=1 \
    "$py" -m pip wheel -v --no-deps --disable-pip-version-check -w "$work/dist" "$work/src" \
    >"$work/build.log" 2>&1 || status=$?
cp "$work/build.log" "${TMPDIR:-/tmp}/catmouse-clang-build.log"
if [[ $status -ne 0 ]]; then
    tail -30 "$work/build.log"
    echo "clang: FAIL: the build failed (log: ${TMPDIR:-/tmp}/catmouse-clang-build.log)"
    exit 1
fi
echo "== build took $((SECONDS - t0))s; compile lines:"
grep -E "^\s*$cc .*-c .*bits_c\.c" "$work/build.log" | sed 's/^ */   /' || true

wheel=$(ls "$work"/dist/catmouse_solver-*.whl)
mkdir -p "$work/unpacked"
"$py" -m zipfile -e "$wheel" "$work/unpacked"
so=$(ls "$work"/unpacked/catmouse/engine/bits_c*.so)
made_by=$(readelf -p .comment "$so" | grep -io 'clang version [0-9.]*' | head -1 || true)
if [[ -z $made_by ]]; then
    echo "clang: FAIL: $(basename "$so") was not compiled by clang (.comment:" \
        "$(readelf -p .comment "$so" | tr -s ' \n' ' '))"
    exit 1
fi
echo "== $(basename "$so") made by $made_by"

warnings=$("$py" "$repo/ci/c_warnings.py" "$work/build.log" \
    --generated "$work/src/catmouse/engine/bits_c.c" --label "$cc $cflags") || true
echo "$warnings"
ours=$(tail -1 <<<"$warnings" | sed -E 's/.*\(([0-9]+) ours.*/\1/')
generated=$(tail -1 <<<"$warnings" | sed -E 's/.*ours, ([0-9]+) generated.*/\1/')

echo "== install $(basename "$wheel")[test,all] into $venv"
"$py" -m pip uninstall -y -q catmouse-solver 2>/dev/null || true
"$py" -m pip install -q --disable-pip-version-check "$wheel[test,all]"

counts="$work/counts"
# The tests of the copy: edits to the checkout during the run do not mix into it.
CATMOUSE_TEST_COUNTS=$counts "$py" "$work/src/ci/run_tests.py" "$work/src" --engine compiled \
    --doctests --label "clang compiled" || status=1
CATMOUSE_TEST_COUNTS=$counts "$py" "$work/src/ci/run_tests.py" "$work/src" --engine pure \
    --label "clang pure" || status=1

runs=0 passed=0 failed=0 skipped=0
if [[ -f $counts ]]; then
    runs=$(wc -l <"$counts")
    read -r passed failed skipped < <(awk '{p += $1; f += $2; s += $3} END {print p+0, f+0, s+0}' \
        "$counts")
fi
if [[ $runs -ne 2 || $passed -eq 0 || $failed -ne 0 || $ours -ne 0 ]]; then status=1; fi
if [[ $status -eq 0 ]]; then verdict=OK; else verdict=FAIL; fi
echo "clang: $passed passed, $failed failed, $skipped skipped ($runs of 2 runs, both engines);" \
    "warnings: $ours ours, $generated generated; $verdict in $((SECONDS - start))s"
exit "$status"
