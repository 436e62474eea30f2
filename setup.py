"""Build the optional Cython engine; without a compiler, install pure Python.

CATMOUSE_NO_EXTENSIONS=1        skip the extension: a pure-Python (py3-none-any) build
CATMOUSE_REQUIRE_EXTENSIONS=1   a failed compile is an error (so is any failure under
                                cibuildwheel, which sets CIBUILDWHEEL=1)
CATMOUSE_DEBUG=1                compile with bounds checks on (for fuzzing)

Values are read as true/false words (``=0`` means off; another word such as ``=maybe`` is an
error), by the same function the package uses at import: catmouse/engine/switches.py, loaded here by
its path since catmouse is not installed yet.  Everything else is in pyproject.toml.
"""

import glob
import importlib.util
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def _load_switches():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "catmouse", "engine", "switches.py")
    spec = importlib.util.spec_from_file_location("_catmouse_switches", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


env_flag = _load_switches().env_flag

try:
    NO_EXTENSIONS = env_flag("CATMOUSE_NO_EXTENSIONS")
    REQUIRE = env_flag("CATMOUSE_REQUIRE_EXTENSIONS")
    DEBUG = env_flag("CATMOUSE_DEBUG")
    # cibuildwheel sets CIBUILDWHEEL=1: a wheel build never falls back to pure Python.
    STRICT = REQUIRE or env_flag("CIBUILDWHEEL")
except ValueError as error:
    sys.exit(f"error: {error}")
if NO_EXTENSIONS and REQUIRE:
    # The same refusal as at import (catmouse/engine/__init__.py).
    sys.exit("error: CATMOUSE_NO_EXTENSIONS and CATMOUSE_REQUIRE_EXTENSIONS are both set")

# Set once here, not in the .pyx, so the debug switch can turn checks back on.
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": DEBUG,
    "freethreading_compatible": True,
}


def banner(message):
    line = "*" * 75
    print(f"\n{line}\n{message}\n{line}\n", file=sys.stderr)


class optional_build_ext(build_ext):
    """Cythonize and compile; a failure at either step installs pure Python unless required.

    Cythonizing here rather than at import of setup.py keeps `sdist` and metadata builds from
    generating C, and puts a Cython failure under the same fallback as a compiler failure.
    """

    def run(self):
        try:
            self._cythonize()
            super().run()
        except Exception as error:
            self._fallback(error)

    def build_extension(self, ext):
        if env_flag("CIBUILDWHEEL") and self.compiler.compiler_type != "msvc":
            # A wheel's engine without debug info (x86-64: 3.4 MB of .so, 0.62 MB).  Appended to
            # Python's own flags, which keep -O3: CFLAGS in the environment would replace them.
            ext.extra_compile_args = [*ext.extra_compile_args, "-g0"]
        try:
            super().build_extension(ext)
        except Exception as error:
            self._fallback(error)
            # Forget it, so that --inplace and the wheel's file list do not look for it.
            self.extensions = [other for other in self.extensions if other is not ext]

    def _cythonize(self):
        from Cython.Build import cythonize

        # Give each extension its generated C as sources, in place: build_ext has already
        # prepared these objects (finalize_options), and the build and wheel commands share them.
        for ext in self.extensions:
            # force: a C file left by an earlier build may have other directives (CATMOUSE_DEBUG).
            (cythonized,) = cythonize([ext], compiler_directives=DIRECTIVES, quiet=True, force=True)
            ext.sources = cythonized.sources

    def _fallback(self, error):
        if STRICT:
            raise
        banner(
            "WARNING: the compiled catmouse engine could not be built:\n"
            f"  {type(error).__name__}: {error}\n"
            "Installing the pure-Python engine instead (same results, slower).\n"
            "Set CATMOUSE_REQUIRE_EXTENSIONS=1 to make this an error."
        )


if NO_EXTENSIONS:
    banner("CATMOUSE_NO_EXTENSIONS is set: installing the pure-Python engine only.")
    # No extension at all, so the wheel is tagged py3-none-any.
    ext_modules = []
else:
    # _bitops.h: portable ctz/popcount and relaxed atomics (gcc/clang, MSVC, plain C);
    # _clocks.h: the clocks the crews pace themselves by.
    ext_modules = [
        Extension(
            "catmouse.engine.bits_c",
            ["catmouse/engine/bits_c.pyx"],
            include_dirs=["catmouse/engine"],
            depends=[*glob.glob("catmouse/engine/*.h"), *glob.glob("catmouse/engine/*.pxi")],
        )
    ]

setup(ext_modules=ext_modules, cmdclass={"build_ext": optional_build_ext})
