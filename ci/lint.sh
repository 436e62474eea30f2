#!/usr/bin/env bash
# The project's static checks, each with its settings from pyproject.toml:
#   ruff check .                         (Python style, line length 100)
#   cython-lint catmouse/_retro_c.pyx    (the engine's Cython source)
#   mypy                                 (types of the package, with the _retro_c.pyi stub)
#   mypy.stubtest catmouse._retro_c      (the stub against the compiled module; only when
#                                         it is built in place: python setup.py build_ext --inplace)
# Installs ruff, cython-lint and mypy into the interpreter (PYTHON, default python3) when missing.
# Runs every check, then exits non-zero if any failed.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=${PYTHON:-python3}
cd "$repo" || exit 1

missing=()
"$python" -m ruff --version >/dev/null 2>&1 || missing+=(ruff)
"$python" -c "import cython_lint" >/dev/null 2>&1 || missing+=(cython-lint)
"$python" -m mypy --version >/dev/null 2>&1 || missing+=(mypy)
if ((${#missing[@]})); then
    echo "== ci/lint.sh: installing ${missing[*]}"
    "$python" -m pip install --quiet --disable-pip-version-check "${missing[@]}" || exit 1
fi

failed=()
check() {
    local name=$1
    shift
    echo "== $name"
    "$@" && return 0
    failed+=("$name")
    return 1
}

check ruff "$python" -m ruff check .
# cython-lint is silent when the file is clean.
check cython-lint "$python" -m cython_lint.cython_lint catmouse/_retro_c.pyx \
    && echo "cython-lint: no problems"
check mypy "$python" -m mypy

# The stub must describe the module the compiler produced: run stubtest when it is built here.
if PYTHONPATH=$repo "$python" -c "import catmouse._retro_c" >/dev/null 2>&1; then
    # Cython adds these to every module; they are not the engine's API.
    allow=$(mktemp)
    trap 'rm -f "$allow"' EXIT
    printf '%s\n' catmouse._retro_c.__reduce_cython__ catmouse._retro_c.__setstate_cython__ \
        catmouse._retro_c.__test__ > "$allow"
    check stubtest env PYTHONPATH="$repo" "$python" -m mypy.stubtest catmouse._retro_c \
        --allowlist "$allow"
else
    echo "== stubtest: skipped (catmouse._retro_c is not built in place)"
fi

if ((${#failed[@]})); then
    echo "== ci/lint.sh FAIL: ${failed[*]}"
    exit 1
fi
echo "== ci/lint.sh OK"
