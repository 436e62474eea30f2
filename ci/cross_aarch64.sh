#!/usr/bin/env bash
# Cross-compile the engine for 64-bit ARM (aarch64) with warnings on: a compile check only.
#
# Usage: bash ci/cross_aarch64.sh
#   CATMOUSE_AARCH64_DIR     cache for the arm64 Python headers (default /var/tmp/catmouse-aarch64)
#   CATMOUSE_AARCH64_PYTHON  the Debian Python whose headers to use (default 3.11, bookworm's)
#   PYTHON                   the interpreter that runs Cython (default python3)
#   CROSS_CC                 the cross compiler (default aarch64-linux-gnu-gcc)
#   EXTRA_CFLAGS             more compiler flags, e.g. "-Wconversion" (default none)
#
# 1. Fetches Debian's libpython3.X-dev for arm64 once with apt's own client, but through a
#    private configuration in the cache folder (its own sources list naming the mirror this
#    machine's apt uses, lists and cache; signatures checked with Debian's keyring): no
#    `dpkg --add-architecture`, nothing installed, the system's apt state untouched.  The .deb
#    is unpacked with `dpkg -x` into CACHE/sysroot.
# 2. Generates the engine's C in a temporary copy of the checkout with the same Cython
#    directives as setup.py (read from it), then compiles and links it with
#    aarch64-linux-gnu-gcc -O2 -fPIC -Wall -Wextra against those headers.
# 3. Checks the result is an aarch64 shared object and counts the warnings with
#    ci/c_warnings.py: ours (the .pyx code) apart from Cython's generated code and the headers.
#    A warning of ours fails the check.  With qemu-aarch64 on PATH it also says so; running
#    the module under emulation needs an arm64 Python too, which this script does not fetch.
#
# The last line: "aarch64: ... N warnings (N ours, N generated, N headers, N other packages) ...".
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${CATMOUSE_AARCH64_DIR:-/var/tmp/catmouse-aarch64}
pyver=${CATMOUSE_AARCH64_PYTHON:-3.11}
python=${PYTHON:-python3}
cross=${CROSS_CC:-aarch64-linux-gnu-gcc}
suite=bookworm
start=$SECONDS

command -v "$cross" >/dev/null \
    || { echo "ci/cross_aarch64.sh: no $cross (Debian: apt-get install gcc-aarch64-linux-gnu)" >&2
         exit 2; }

# shellcheck source=ci/debian.sh
source "$(dirname "${BASH_SOURCE[0]}")/debian.sh"  # debian_mirror

# --- 1. arm64 Python headers ----------------------------------------------------------------
sysroot=$cache/sysroot
package=libpython$pyver-dev
if [[ ! -f $sysroot/.ready-$pyver ]]; then
    mirror=$(debian_mirror)
    echo "== fetch $package:arm64 from $mirror ($suite) with a private apt configuration"
    t0=$SECONDS
    apt=$cache/apt
    mkdir -p "$apt/lists/partial" "$apt/cache" "$apt/parts" "$apt/debs"
    keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    echo "deb [arch=arm64 signed-by=$keyring] $mirror $suite main" >"$apt/sources.list"
    apt_options=(
        -o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/parts"
        -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
        -o "Dir::State::status=/dev/null"
        -o APT::Architecture=arm64 -o APT::Architectures=arm64 -o Acquire::Languages=none
        -o APT::Sandbox::User=root  # the private folders belong to root, not _apt
    )
    apt-get "${apt_options[@]}" -qq update
    (cd "$apt/debs" && rm -f ./*.deb && apt-get "${apt_options[@]}" -qq download "$package:arm64")
    rm -rf "$sysroot"
    mkdir -p "$sysroot"
    for deb in "$apt"/debs/*.deb; do
        echo "== unpack $(basename "$deb")"
        dpkg -x "$deb" "$sysroot"
    done
    touch "$sysroot/.ready-$pyver"
    echo "== headers took $((SECONDS - t0))s (once; later runs reuse $sysroot)"
fi
include=$sysroot/usr/include/python$pyver
[[ -f $include/Python.h ]] || { echo "ci/cross_aarch64.sh: no Python.h in $include" >&2; exit 1; }

# --- 2. generate the C, compile, link -------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/catmouse-aarch64.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$repo" && git ls-files -z --cached --others --exclude-standard \
    | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh \
    | tar --null -T - -cf -) | tar -xf - -C "$work"

echo "== cythonize catmouse/engine/bits_c.pyx with setup.py's directives"
(cd "$work" && "$python" - <<'EOF'
import runpy

import Cython
import setuptools
from Cython.Build import cythonize

setuptools.setup = lambda **kwargs: None  # read setup.py's settings without building
settings = runpy.run_path("setup.py")
print(f"   Cython {Cython.__version__}, directives {settings['DIRECTIVES']}")
cythonize(settings["ext_modules"], compiler_directives=settings["DIRECTIVES"], quiet=True,
          force=True)
EOF
)

suffix=.cpython-${pyver//./}-aarch64-linux-gnu.so
# shellcheck disable=SC2206  # EXTRA_CFLAGS is a list of words on purpose
cflags=(-O2 -g -fwrapv -DNDEBUG -fPIC -Wall -Wextra ${EXTRA_CFLAGS:-})
echo "== $cross ${cflags[*]} (-I arm64 Python $pyver headers)"
compile_status=0
(cd "$work" && "$cross" "${cflags[@]}" -I"$include" -I"$sysroot/usr/include" \
    -c catmouse/engine/bits_c.c -o bits_c.o \
    && "$cross" -shared -o "catmouse/engine/bits_c$suffix" bits_c.o) >"$work/compile.log" 2>&1 \
    || compile_status=$?
cp "$work/compile.log" "${TMPDIR:-/tmp}/catmouse-aarch64-compile.log"
if [[ $compile_status -ne 0 ]]; then
    tail -30 "$work/compile.log"
    echo "aarch64: FAIL: the cross-compile failed (log: ${TMPDIR:-/tmp}/catmouse-aarch64-compile.log)"
    exit 1
fi

# --- 3. what came out -----------------------------------------------------------------------
kind=$(file -b "$work/catmouse/engine/bits_c$suffix")
echo "== bits_c$suffix: $kind"
status=0
[[ $kind == *"ARM aarch64"* ]] || { echo "aarch64: the module is not aarch64 code"; status=1; }
warnings=$("$python" "$repo/ci/c_warnings.py" "$work/compile.log" \
    --generated "$work/catmouse/engine/bits_c.c" --label "$cross ${cflags[*]}") || true
echo "$warnings"
summary=$(tail -1 <<<"$warnings")
ours=$(sed -E 's/.*\(([0-9]+) ours.*/\1/' <<<"$summary")
[[ $ours -eq 0 ]] || status=1
if command -v qemu-aarch64 >/dev/null || command -v qemu-aarch64-static >/dev/null; then
    note="qemu-user is here, but no arm64 Python to import the module with: not run"
else
    note="compile check only (no qemu-user here)"
fi
if [[ $status -eq 0 ]]; then verdict=OK; else verdict=FAIL; fi
echo "aarch64: bits_c$suffix built by $($cross -dumpfullversion 2>/dev/null || echo "$cross")" \
    "against Debian $package:arm64; ${summary#*: }; $note; $verdict in $((SECONDS - start))s"
exit "$status"
