"""The compiled engine's bit operations (catmouse/engine/_bitops.h), each branch of the header.

The package is built here with gcc's builtins only.  This compiles ``tests/engine/c/bitops_check.c``
once per branch and checks ctz, popcount, a tile's bit count, the 64x64 transpose and the
atomics against plain loops: the gcc/clang builtins (with and without the popcount
instruction), the portable C of other compilers, and the MSVC branch's code over stand-ins for
its intrinsics (``tests/engine/c/msvc/intrin.h``; not MSVC itself, which has never built it
here).
"""

from __future__ import annotations

import platform
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "c"
HEADER_DIR = HERE.parents[2] / "catmouse" / "engine"
COMPILER = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
X86 = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")
OTHER = ["-DCM_OTHER_COMPILER"]  # hide __GNUC__/__clang__ from the header

BRANCHES = {
    "builtins": ([], "ok builtins atomics=1"),
    "builtins, popcnt instruction": (["-mpopcnt"] if X86 else [], "ok builtins atomics=1"),
    "portable C": (OTHER, "ok portable atomics=0"),
    # MSVC's default x64 target may be a CPU without POPCNT: the branch must not use it
    # (a use would not link); /arch:AVX (which defines __AVX__) implies a CPU that has it.
    "MSVC x64": (OTHER + ["-D_MSC_VER=1930", "-D_M_X64", "-DCM_CPU_WITHOUT_POPCNT",
                          f"-I{HERE / 'msvc'}"], "ok msvc atomics=1"),
    "MSVC x64 /arch:AVX": (OTHER + ["-D_MSC_VER=1930", "-D_M_X64", "-D__AVX__",
                                    f"-I{HERE / 'msvc'}"], "ok msvc atomics=1"),
    "MSVC ARM64": (OTHER + ["-D_MSC_VER=1930", "-D_M_ARM64", "-DCM_CPU_WITHOUT_POPCNT",
                            f"-I{HERE / 'msvc'}"],
                   "ok msvc atomics=1"),
}


@pytest.mark.skipif(COMPILER is None, reason="no C compiler here")
@pytest.mark.parametrize("branch", list(BRANCHES))
def test_each_branch_of_the_bit_operations(tmp_path, branch):
    flags, expected = BRANCHES[branch]
    program = tmp_path / "bitops_check"
    build = subprocess.run([COMPILER, "-O2", "-Wall", "-Wextra", "-Werror", f"-I{HEADER_DIR}",
                            *flags, str(HERE / "bitops_check.c"), "-o", str(program)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(program)], capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout.strip()) == (0, expected)


@pytest.mark.skipif(COMPILER is None, reason="no C compiler here")
def test_the_headers_keep_windows_h_macros_out_of_the_generated_code(tmp_path):
    """On Windows _clocks.h includes <windows.h>, before the generated code's structs.  The full
    SDK header brings rpcndr.h's ``#define small char``, which broke Board's and ListCrew's
    member ``small`` (every MSVC build of the engine): the headers must ask for the lean one.
    Checked over a stand-in for the SDK header (``tests/engine/c/windows/windows.h``)."""
    program = tmp_path / "windows_check"
    build = subprocess.run([COMPILER, "-O2", "-Wall", "-Wextra", "-Werror", "-D_WIN32",
                            f"-I{HEADER_DIR}", f"-I{HERE / 'windows'}",
                            str(HERE / "windows_check.c"), "-o", str(program)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(program)], capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout.strip()) == (0, "ok windows")
