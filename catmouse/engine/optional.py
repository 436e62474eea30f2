"""Optional imports (numpy, networkx) that a Ctrl-C cannot turn into a missing module.

numpy's first import runs C code that, when a signal's exception is raised inside it, reports
``ImportError: ... PyCapsule_Import could not import module "datetime"`` and drops the
KeyboardInterrupt: code that falls back on ImportError would then carry on without numpy, on
the slow plain-Python path, as if Ctrl-C had not been pressed (seen in 3 runs of 40 with the
signal sent during the import).  So on the main thread the Python handlers of SIGINT and
SIGTERM are held back while the module loads, and whatever arrived is delivered once it has.
"""

from __future__ import annotations

import importlib
import signal
import sys
import threading
from types import ModuleType
from typing import Any

__all__ = ["import_optional", "numpy_or_none"]

# The signals whose Python handlers are held back (SIGTERM: the atomic writer's, when set).
_HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name))


def import_optional(name: str) -> ModuleType | None:
    """The module ``name``, or None where it cannot be imported; a SIGINT or SIGTERM that
    arrives during the import is handled (KeyboardInterrupt, ...) once it is done."""
    module = sys.modules.get(name)
    if module is not None and not _initializing(module):
        return module
    # (A module another thread is still importing is in sys.modules half made: the import
    # below waits for it, as the import statement does.)
    if threading.current_thread() is not threading.main_thread():
        return _load(name)  # (signal handlers run on the main thread only)
    arrived: list[int] = []
    held: dict[int, Any] = {}
    try:
        for number in _HELD:
            handler = signal.getsignal(number)
            if callable(handler):  # a Python handler (SIG_DFL and SIG_IGN are not)
                signal.signal(number, lambda signum, frame: arrived.append(signum))
                held[number] = handler
    except ValueError:  # (a subinterpreter: the signals are the main interpreter's)
        _deliver(held, arrived)
        return _load(name)
    try:
        return _load(name)
    finally:
        _deliver(held, arrived)


def _initializing(module: ModuleType) -> bool:
    """Whether ``module`` is still being imported (by another thread, or further up this
    one's stack): importlib marks its spec so until the module's code has run."""
    return bool(getattr(getattr(module, "__spec__", None), "_initializing", False))


def _deliver(held: dict[int, Any], arrived: list[int]) -> None:
    """Give the signals back their handlers, and the first that arrived to its own."""
    for number, handler in held.items():
        signal.signal(number, handler)
    for number in arrived[:1]:
        held[number](number, None)


def _load(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def numpy_or_none() -> Any:
    """numpy when installed (the fast paths), else None (a Ctrl-C meanwhile is one)."""
    return import_optional("numpy")
