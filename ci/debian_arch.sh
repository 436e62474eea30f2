#!/usr/bin/env bash
# Run the test suite on another Debian architecture: a Debian root on this x86-64 machine,
# natively for i386 (32-bit x86 runs here), under qemu-user emulation for arm64 (the wheels'
# second architecture) and s390x (big-endian).
#
# Usage (as root; debootstrap, mount and chroot need it):
#   bash ci/debian_arch.sh ARCH [SUBSET]     ARCH: i386, arm64 or s390x
#   CATMOUSE_ARCH_ROOT=/some/dir bash ci/debian_arch.sh ARCH
# SUBSET (optional): a pytest selection (paths relative to the checkout, space separated) run
# instead of the whole suite, for architectures where the whole suite is too slow emulated.
#
# 1. Makes the root once (default /var/tmp/catmouse-ARCH) with debootstrap; for a foreign ARCH,
#    `debootstrap --foreign` and then `--second-stage` inside the root through the qemu
#    interpreter that binfmt_misc runs (mounted and enabled here if needed; without root, binfmt
#    support or qemu-user-static, the script says so in one line and exits 0 as a skip).
#    Later runs reuse it (ROOT/.catmouse-ready marks a complete root).
# 2. Installs python3, python3-dev, python3-venv, gcc there, and Debian's numpy, scipy and
#    networkx, so the integration tests run there too (the venv sees them).
# 3. Copies in /etc/resolv.conf, this machine's pip configuration files and PIP_* variables, and
#    every file they name; folders they name (local indexes, find-links) are bind-mounted
#    read-only, so pip inside reaches the same registry.
# 4. Copies the checkout to ROOT/src/catmouse, builds the compiled engine natively there
#    (CATMOUSE_REQUIRE_EXTENSIONS=1, the build log's warnings counted) and runs ci/run_tests.py
#    on both engines (arm64 and s390x: a stated subset, see below).
# 5. Exchanges fixtures with this machine both ways (ci/byte_order_exchange.py): pickles, npz,
#    JSON and CSV written here are read in the root, and those written there read here.
#
# Everything mounted is unmounted on exit.  The last line adds both runs up:
#   "ARCH: N passed, N failed, N skipped (...)".
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
arch=${1:?usage: ci/debian_arch.sh i386|arm64|s390x [SUBSET]}
subset=${2:-}
root=${CATMOUSE_ARCH_ROOT:-/var/tmp/catmouse-$arch}
case $arch in
    i386) qemu= ; bits_expected=32 ;;
    arm64) qemu=aarch64 ; bits_expected=64 ;;
    s390x) qemu=s390x ; bits_expected=64 ;;
    *) echo "ci/debian_arch.sh: unknown architecture $arch (i386, arm64 or s390x)" >&2; exit 2 ;;
esac
suite=bookworm
start=$SECONDS

skip() { echo "$arch: skipped: $*"; exit 0; }
if [[ $(id -u) -ne 0 ]]; then
    skip "needs root (debootstrap, mount and chroot)"
fi
command -v debootstrap >/dev/null || skip "debootstrap is not installed (apt-get install debootstrap)"
if [[ -n $qemu ]]; then
    command -v "qemu-$qemu-static" >/dev/null \
        || skip "qemu-$qemu-static is not installed (apt-get install qemu-user-static binfmt-support)"
    if [[ ! -e /proc/sys/fs/binfmt_misc/status ]]; then
        # Another run may mount it between the test and the mount: look again before skipping.
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null \
            || [[ -e /proc/sys/fs/binfmt_misc/status ]] \
            || skip "binfmt_misc cannot be mounted here (no CAP_SYS_ADMIN)"
    fi
    if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-$qemu ]]; then
        update-binfmts --enable "qemu-$qemu" >/dev/null 2>&1 \
            || skip "the qemu-$qemu interpreter cannot be registered with binfmt_misc"
    fi
fi
case $root in
    /*) ;;
    *) echo "ci/debian_arch.sh: CATMOUSE_ARCH_ROOT must be an absolute path, not $root" >&2; exit 2 ;;
esac

# shellcheck source=ci/debian.sh
source "$(dirname "${BASH_SOURCE[0]}")/debian.sh"  # debian_mirror

mounted=()
cleanup() {
    local i
    # Unmount in reverse order: nested mounts first.
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" || true
    done
}
trap cleanup EXIT

bind() {  # bind SOURCE TARGET [ro]
    local source=$1 target=$2
    mountpoint -q "$target" && return 0
    mkdir -p "$target"
    mount --bind "$source" "$target"
    mounted+=("$target")
    if [[ ${3:-} == ro ]]; then mount -o remount,bind,ro "$target"; fi
}

# --- 1. the root ---------------------------------------------------------------------------
if [[ ! -f $root/.catmouse-ready ]]; then
    if [[ -d $root && -n $(ls -A "$root") ]]; then
        if [[ -d $root/debootstrap || -f $root/etc/debian_version ]]; then
            echo "== ci/debian_arch.sh: $root is a half-made root; making it again"
            # A half-made root may still have mounts from an interrupted run.
            for sub in proc dev/pts dev; do
                mountpoint -q "$root/$sub" && umount -l "$root/$sub"
            done
            rm -rf --one-file-system "$root"
        else
            echo "ci/debian_arch.sh: $root exists and is not a Debian root; refusing to touch it" >&2
            exit 2
        fi
    fi
    mirror=$(debian_mirror)
    t0=$SECONDS
    mkdir -p "$root"
    if [[ -z $qemu ]]; then
        echo "== debootstrap --arch=$arch --variant=minbase $suite $root $mirror"
        debootstrap --arch="$arch" --variant=minbase "$suite" "$root" "$mirror" \
            >"$root.debootstrap.log" \
            || { echo "ci/debian_arch.sh: debootstrap failed; see $root.debootstrap.log" >&2; exit 1; }
    else
        echo "== debootstrap --foreign --arch=$arch --variant=minbase $suite $root $mirror"
        debootstrap --foreign --arch="$arch" --variant=minbase "$suite" "$root" "$mirror" \
            >"$root.debootstrap.log" \
            || { echo "ci/debian_arch.sh: debootstrap failed; see $root.debootstrap.log" >&2; exit 1; }
        echo "== debootstrap --second-stage inside the root (qemu-$qemu)"
        chroot "$root" /debootstrap/debootstrap --second-stage >>"$root.debootstrap.log" \
            || { echo "ci/debian_arch.sh: second stage failed; see $root.debootstrap.log" >&2; exit 1; }
    fi
    echo "== debootstrap took $((SECONDS - t0))s (once; later runs reuse $root)"
fi

bind /proc "$root/proc"
bind /dev "$root/dev"
bind /dev/pts "$root/dev/pts"
cp --remove-destination /etc/resolv.conf "$root/etc/resolv.conf"

in_root() {  # run a command in the root with a clean environment and this machine's PIP_*
    local pip_vars
    mapfile -t pip_vars < <(env | grep '^PIP_' || true)
    env -i HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        "${pip_vars[@]}" chroot "$root" "$@"
}

if [[ ! -f $root/.catmouse-ready ]]; then
    echo "== apt-get install python3 python3-dev python3-venv gcc (+ numpy, scipy, networkx)"
    t0=$SECONDS
    in_root apt-get update -qq
    in_root apt-get install -y -qq --no-install-recommends python3 python3-dev python3-venv gcc \
        libc6-dev python3-numpy python3-scipy python3-networkx >/dev/null
    in_root apt-get clean
    touch "$root/.catmouse-ready"
    echo "== packages took $((SECONDS - t0))s"
fi

# --- 3. pip's configuration, and what it names ----------------------------------------------
pip_files=(/etc/pip.conf /etc/xdg/pip/pip.conf "$HOME/.config/pip/pip.conf" "$HOME/.pip/pip.conf")
[[ -n ${PIP_CONFIG_FILE:-} ]] && pip_files+=("$PIP_CONFIG_FILE")
named=""
for file in "${pip_files[@]}"; do
    [[ -f $file ]] || continue
    target=$root${file/#$HOME//root}
    mkdir -p "$(dirname "$target")"
    cp "$file" "$target"
    echo "== pip configuration: $file -> ${target#"$root"}"
    named+=$'\n'$(grep -v '^\s*[#;]' "$file" || true)
done
named+=$'\n'$(env | grep '^PIP_' || true)
# Absolute paths in those values (file:// URLs too): files are copied, folders bind-mounted.
# A local index ".../simple" links to files beside it, so its parent folder is mounted.
while read -r path; do
    [[ -e $path ]] || continue
    if [[ -d $path ]]; then
        # Never shadow the root's own folders (a config naming /etc or /usr, say).
        # (Empty folders are what an earlier run's mount points left.)
        if [[ -d $root$path && -n $(find "$root$path" -mindepth 1 -not -type d -print -quit) ]] \
            && ! mountpoint -q "$root$path"; then
            echo "== pip names the folder $path, which the root has already: left alone"
            continue
        fi
        bind "$path" "$root$path" ro
        echo "== pip names the folder $path: bind-mounted read-only"
    else
        mkdir -p "$(dirname "$root$path")"
        cp -L "$path" "$root$path"
        echo "== pip names the file $path: copied"
    fi
done < <(grep -oE '(file://)?/[^[:space:],;"'"'"']+' <<<"$named" | sed 's#^file://##' \
    | sed -E 's#/simple/?$##' | sort -u)

# --- 4. the checkout, the venv, the tests ---------------------------------------------------
echo "== copy the checkout to $root/src/catmouse"
rm -rf "$root/src/catmouse"
mkdir -p "$root/src/catmouse"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard \
    | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh \
    | tar --null -T - -cf -) | tar -xf - -C "$root/src/catmouse"

bits=$(in_root python3 -c 'import struct, sys; print(8 * struct.calcsize("P"), sys.maxsize)')
echo "== python3 in the root: $(in_root python3 --version), pointer bits and sys.maxsize: $bits"
order=$(in_root python3 -c 'import sys; print(sys.byteorder)')
echo "== byte order in the root: $order"
if [[ ${bits%% *} != "$bits_expected" ]]; then
    echo "ci/debian_arch.sh: the root's python is not $bits_expected-bit ($bits)" >&2
    exit 1
fi

if [[ ! -x $root/opt/venv/bin/python ]]; then
    # --system-site-packages: Debian's numpy, scipy and networkx (no i686 wheels on PyPI).
    in_root python3 -m venv --system-site-packages /opt/venv
fi
echo "== install catmouse[test] with CATMOUSE_REQUIRE_EXTENSIONS=1 (a native $arch gcc build)"
t0=$SECONDS
in_root /opt/venv/bin/python -m pip uninstall -y -q catmouse-solver 2>/dev/null || true
in_root env CATMOUSE_REQUIRE_EXTENSIONS=1 CFLAGS="-Wall -Wextra" /opt/venv/bin/python -m pip \
    install -v "/src/catmouse[test]" >"$root.build.log" 2>&1 \
    || { tail -40 "$root.build.log"; echo "ci/debian_arch.sh: pip install failed" >&2; exit 1; }
# The compiler's warnings, counted as ci/c_warnings.py counts them (ours apart from Cython's).
warnings=$(python3 "$repo/ci/c_warnings.py" "$root.build.log" --label "$arch gcc" | tail -1)
echo "== build log: $warnings ($root.build.log)"
echo "== install took $((SECONDS - t0))s"

rm -f "$root/tmp/catmouse-counts"
status=0
# Under qemu-user the process's resident memory counts the emulator's own per-thread state: the
# tests that measure a peak RSS say so and skip (CATMOUSE_TEST_EMULATED).
emulated=()
if [[ -n $qemu ]]; then emulated=(CATMOUSE_TEST_EMULATED="qemu-$qemu"); fi
# Emulated, the whole suite takes hours: arm64 and s390x run this stated subset unless given one
# (the engines, both twins byte for byte, pickles and byte order, exports, the CLI).
if [[ -n $qemu && -z $subset ]]; then
    subset="tests/engine tests/game/test_byte_order.py tests/game/test_pickle.py"
    subset+=" tests/game/test_export.py tests/game/test_fast_writers.py tests/cli"
    echo "== emulated: the subset $subset"
fi
selection=()
for part in $subset; do selection+=("/src/catmouse/$part"); done
extra=()
if [[ ${#selection[@]} -gt 0 ]]; then extra=(-- "${selection[@]}"); fi
in_root env "${emulated[@]}" CATMOUSE_TEST_COUNTS=/tmp/catmouse-counts /opt/venv/bin/python \
    /src/catmouse/ci/run_tests.py /src/catmouse --engine compiled --doctests \
    --label "$arch compiled" "${extra[@]}" || status=1
in_root env "${emulated[@]}" CATMOUSE_TEST_COUNTS=/tmp/catmouse-counts /opt/venv/bin/python \
    /src/catmouse/ci/run_tests.py /src/catmouse --engine pure --label "$arch pure" \
    "${extra[@]}" || status=1

# --- 5. fixtures exchanged with this machine, both ways ------------------------------------
# Pickles and exports written here are read in the root, and the reverse (ci/byte_order_exchange.py).
# This side needs catmouse, numpy and networkx importable by $CATMOUSE_HOST_PYTHON (the nox
# session's venv), else python3.
host_python=${CATMOUSE_HOST_PYTHON:-python3}
exchange=$root/tmp/exchange
rm -rf "$exchange" && mkdir -p "$exchange"
exchange_verdict="exchange FAIL"
if ! "$host_python" -c "import catmouse, numpy, networkx" 2>/dev/null; then
    echo "== exchange: FAIL: $host_python cannot import catmouse, numpy and networkx here"
    status=1
else
    exchanged() {  # the four steps; the first failure stops them
        (cd /tmp && "$host_python" "$repo/ci/byte_order_exchange.py" write "$exchange/host") &&
        in_root /opt/venv/bin/python /src/catmouse/ci/byte_order_exchange.py read /tmp/exchange/host &&
        in_root /opt/venv/bin/python /src/catmouse/ci/byte_order_exchange.py write /tmp/exchange/root &&
        (cd /tmp && "$host_python" "$repo/ci/byte_order_exchange.py" read "$exchange/root")
    }
    if exchanged; then exchange_verdict="exchange OK both ways"; else status=1; fi
fi

runs=0 passed=0 failed=0 skipped=0
if [[ -f $root/tmp/catmouse-counts ]]; then
    runs=$(wc -l <"$root/tmp/catmouse-counts")
    read -r passed failed skipped < <(awk '{p += $1; f += $2; s += $3} END {print p+0, f+0, s+0}' \
        "$root/tmp/catmouse-counts")
fi
if [[ $runs -ne 2 || $passed -eq 0 || $failed -ne 0 ]]; then status=1; fi
if [[ $status -eq 0 ]]; then verdict=OK; else verdict=FAIL; fi
echo "$arch: $passed passed, $failed failed, $skipped skipped ($runs of 2 runs, both engines," \
    "$verdict in $((SECONDS - start))s; $warnings; $exchange_verdict)"
exit "$status"
