"""Which environment variables pick which engine, written once.

noxfile.py and ci/run_tests.py import this file (standard library only: it runs before
catmouse is installed, and from an unpacked sdist under cibuildwheel); shell scripts ask it:

    env $(python3 ci/engines.py pure) pip wheel .      # -u CATMOUSE_REQUIRE_EXTENSIONS
                                                      # CATMOUSE_NO_EXTENSIONS=1

compiled   CATMOUSE_REQUIRE_EXTENSIONS=1: the compiled engine must build and import
pure       CATMOUSE_NO_EXTENSIONS=1: a pure-Python build; the API runs on the twin
any        neither: whatever the install gave
"""

from __future__ import annotations

import sys

SWITCHES = ("CATMOUSE_REQUIRE_EXTENSIONS", "CATMOUSE_NO_EXTENSIONS")
ENGINE_ENV = {
    "compiled": {"CATMOUSE_REQUIRE_EXTENSIONS": "1"},
    "pure": {"CATMOUSE_NO_EXTENSIONS": "1"},
    "any": {},
}
# catmouse.BACKEND once installed that way.
EXPECTED_BACKEND = {"compiled": "cython", "pure": "python", "any": None}


def env_arguments(engine: str) -> list[str]:
    """Arguments for env(1): unset the other switch, set this engine's."""
    chosen = ENGINE_ENV[engine]
    return [*(f"-u{name}" for name in SWITCHES if name not in chosen),
            *(f"{name}={value}" for name, value in chosen.items())]


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ENGINE_ENV:
        sys.exit(f"usage: python ci/engines.py {{{','.join(ENGINE_ENV)}}}")
    print(" ".join(env_arguments(sys.argv[1])))
