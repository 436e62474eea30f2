#!/usr/bin/env bash
# Build the pure-Python wheel (py3-none-any) from an sdist, for platforms with no binary wheel:
# CATMOUSE_NO_EXTENSIONS=1 leaves the extension out, so the wheel is tagged py3-none-any.
# Usage: bash ci/build_pure_wheel.sh SDIST [OUTDIR]    (OUTDIR defaults to dist/)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sdist=$1
outdir=${2:-$repo/dist}
python=${PYTHON:-python3}
mkdir -p "$outdir"

# Both switches at once is an error, at build time as at import: drop a REQUIRE from outside.
# shellcheck disable=SC2046  # the engine map's env(1) arguments, one word each
env $("$python" "$(dirname "${BASH_SOURCE[0]}")/engines.py" pure) "$python" -m pip wheel --quiet \
    --disable-pip-version-check --no-deps --no-cache-dir --wheel-dir "$outdir" "$sdist"
wheel=$(ls "$outdir"/*-py3-none-any.whl 2>/dev/null || true)
if [[ -z $wheel ]]; then
    echo "build_pure_wheel: FAIL: no *-py3-none-any.whl in $outdir"; ls "$outdir"; exit 1
fi
if "$python" -m zipfile -l "$wheel" | grep -E '\.(so|pyd|c)\b'; then
    echo "build_pure_wheel: FAIL: $wheel carries compiled or generated files"; exit 1
fi
echo "build_pure_wheel: OK: $(basename "$wheel")"
