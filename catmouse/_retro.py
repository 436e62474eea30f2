"""Pick the engine: the compiled one when it imports, else the pure-Python twin.

``CATMOUSE_NO_EXTENSIONS=1`` forces the twin; ``CATMOUSE_REQUIRE_EXTENSIONS=1``
turns a missing compiled engine into an ImportError.  Values are read as
true/false words, so ``=0`` means off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._switches import env_flag

__all__ = ["BACKEND", "propagate", "env_flag"]


if TYPE_CHECKING:
    from ._retro_py import propagate

    BACKEND: str
elif env_flag("CATMOUSE_NO_EXTENSIONS"):
    if env_flag("CATMOUSE_REQUIRE_EXTENSIONS"):
        raise ImportError(
            "CATMOUSE_NO_EXTENSIONS and CATMOUSE_REQUIRE_EXTENSIONS are both set"
        )
    from ._retro_py import propagate

    BACKEND = "python"
else:
    try:
        from ._retro_c import propagate

        BACKEND = "cython"
    except ImportError as error:
        if env_flag("CATMOUSE_REQUIRE_EXTENSIONS"):
            raise ImportError(
                "CATMOUSE_REQUIRE_EXTENSIONS is set but the compiled engine "
                f"catmouse._retro_c did not import: {error}"
            ) from error
        from ._retro_py import propagate

        BACKEND = "python"
