"""The yes/no environment switches, read the same way at build time and at import.

``setup.py`` loads this file by its path (before catmouse is installed), so it uses the
standard library only and imports nothing from the package.

>>> import os
>>> os.environ["CATMOUSE_EXAMPLE"] = "Yes"
>>> env_flag("CATMOUSE_EXAMPLE")
True
>>> os.environ["CATMOUSE_EXAMPLE"] = "0"
>>> env_flag("CATMOUSE_EXAMPLE")
False
>>> del os.environ["CATMOUSE_EXAMPLE"]
"""

from __future__ import annotations

import os

__all__ = ["TRUE_WORDS", "FALSE_WORDS", "env_flag"]

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
# Unset and empty mean no; so does "0", which a bool(os.environ.get(...)) test would read as yes.
FALSE_WORDS = frozenset({"", "0", "false", "no", "off"})


def env_flag(name: str) -> bool:
    """Read an environment variable as a yes/no switch (unset means no).

    Any other word is a ValueError naming the variable, so a typo never passes for "no".
    """
    value = os.environ.get(name, "").strip().lower()
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise ValueError(f"{name}={os.environ[name]!r}: expected 1/0, true/false, yes/no or on/off")
