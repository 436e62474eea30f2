"""Module names of earlier versions, kept importable for their pickles and their importers.

A pickle names the module of each class and function it stores: 0.1.0's pickles name
``catmouse._graph`` and its siblings, 0.2.0's ``catmouse.cops_game`` and
``catmouse.graph_files``.  Rather than a file per old name at the package's root, one finder
answers each old name with the module that holds its code today, imported on first use.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

__all__ = ["MOVED", "install"]

#: Old module name -> where its code lives now.
MOVED: dict[str, str] = {
    # 0.1.0, before the three layers
    "catmouse._analysis": "catmouse.analysis",
    "catmouse._game": "catmouse.game",
    "catmouse._graph": "catmouse.graph",
    "catmouse._outcome": "catmouse.outcome",
    "catmouse._rules": "catmouse.rules",
    # 0.2.0, before the readers/writers and the k-cops modules had folders of their own
    "catmouse.atomic": "catmouse.io.atomic",
    "catmouse.export": "catmouse.io.export",
    "catmouse.graph_files": "catmouse.io.graph_files",
    "catmouse.table_check": "catmouse.io.table_check",
    "catmouse.table_text": "catmouse.io.table_text",
    "catmouse.cops_census": "catmouse.cops.census",
    "catmouse.cops_export": "catmouse.cops.export",
    "catmouse.cops_game": "catmouse.cops.game",
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers an old name with the module of its new name (the same object, not a copy)."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        # The import system keeps a returned module's own __name__ and __spec__, so
        # ``catmouse.graph_files`` *is* ``catmouse.io.graph_files``, with its name.
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module ran when its new name was imported."""


def install() -> None:
    """Put the finder on ``sys.meta_path`` once (a reload of catmouse adds no second one)."""
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.append(_Alias())
