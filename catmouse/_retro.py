"""Pick the engine: the compiled one when it imports, else the pure-Python twin.

Everything the rest of the package calls on an engine goes through one object,
:data:`engine`, built from one of the twin modules; swapping that object (as
the tests do with :func:`load`) moves every entry point at once.

``CATMOUSE_NO_EXTENSIONS=1`` forces the twin; ``CATMOUSE_REQUIRE_EXTENSIONS=1``
turns a missing compiled engine into an ImportError.  Values are read as
true/false words, so ``=0`` means off.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from types import ModuleType
from typing import Any

__all__ = ["BACKEND", "Engine", "engine", "load", "env_flag"]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"", "0", "false", "no", "off"}

# Engine name -> module implementing the contract.
MODULES = {"cython": "catmouse._retro_c", "python": "catmouse._retro_py"}


def env_flag(name: str) -> bool:
    """Read an environment variable as a yes/no switch (unset means no)."""
    value = os.environ.get(name, "").strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{name}={os.environ[name]!r}: expected 1/0, true/false, yes/no or on/off")


@dataclass(frozen=True)
class Engine:
    """One engine's entry points (see either twin's module docstring)."""

    name: str
    module: ModuleType
    propagate: Any
    peak_bytes: Any
    Board: Any
    solve_boards: Any
    csr_from_lists: Any
    solve_lists: Any


def load(name: str) -> Engine:
    """The engine called ``name`` ("cython" or "python"); ImportError if it is missing."""
    module = importlib.import_module(MODULES[name])
    return Engine(
        name=name,
        module=module,
        propagate=module.propagate,
        peak_bytes=module.peak_bytes,
        Board=module.Board,
        solve_boards=module.solve_boards,
        csr_from_lists=module.csr_from_lists,
        solve_lists=module.solve_lists,
    )


def _select() -> Engine:
    if env_flag("CATMOUSE_NO_EXTENSIONS"):
        if env_flag("CATMOUSE_REQUIRE_EXTENSIONS"):
            raise ImportError("CATMOUSE_NO_EXTENSIONS and CATMOUSE_REQUIRE_EXTENSIONS are both set")
        return load("python")
    try:
        return load("cython")
    except ImportError as error:
        if env_flag("CATMOUSE_REQUIRE_EXTENSIONS"):
            raise ImportError(
                "CATMOUSE_REQUIRE_EXTENSIONS is set but the compiled engine "
                f"catmouse._retro_c did not import: {error}"
            ) from error
        return load("python")


#: The engine in use.  Read it at call time (``_retro.engine.propagate``), never
#: copy an entry point into another module: the tests swap this one object.
engine: Engine = _select()

#: "cython" or "python": which engine the package chose at import.
BACKEND: str = engine.name
