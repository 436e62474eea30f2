"""Build the optional Cython engine; without a compiler, install pure Python.

CATMOUSE_NO_EXTENSIONS=1        skip the extension (pure-Python install)
CATMOUSE_REQUIRE_EXTENSIONS=1   a failed compile is an error (also under cibuildwheel)
CATMOUSE_DEBUG=1                compile with bounds checks on (for fuzzing)
"""

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

_TRUE = {"1", "true", "yes", "on"}


def flag(name):
    return os.environ.get(name, "").strip().lower() in _TRUE


NO_EXTENSIONS = flag("CATMOUSE_NO_EXTENSIONS")
REQUIRE = flag("CATMOUSE_REQUIRE_EXTENSIONS") or flag("CIBUILDWHEEL")
DEBUG = flag("CATMOUSE_DEBUG")


def banner(message):
    line = "*" * 75
    print(f"\n{line}\n{message}\n{line}\n", file=sys.stderr)


class optional_build_ext(build_ext):
    """Turn compiler failures into a pure-Python install, unless one is required."""

    def run(self):
        try:
            super().run()
        except Exception as error:
            self._fallback(error)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as error:
            self._fallback(error)

    def _fallback(self, error):
        if REQUIRE:
            raise
        banner(
            "WARNING: the compiled catmouse engine could not be built:\n"
            f"  {error}\n"
            "Installing the pure-Python engine instead (same results, slower)."
        )


def extensions():
    if NO_EXTENSIONS:
        return []
    from Cython.Build import cythonize

    directives = {
        "language_level": 3,
        "boundscheck": DEBUG,
        "wraparound": False,
        "cdivision": True,
        "initializedcheck": DEBUG,
        "freethreading_compatible": True,
    }
    return cythonize(
        [Extension("catmouse._retro_c", ["catmouse/_retro_c.pyx"])],
        compiler_directives=directives,
    )


if NO_EXTENSIONS:
    banner("CATMOUSE_NO_EXTENSIONS is set: installing the pure-Python engine only.")

setup(ext_modules=extensions(), cmdclass={"build_ext": optional_build_ext})
