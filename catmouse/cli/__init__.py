"""The command line (``catmouse ...``), on top of every other layer.

``catmouse.cli.main(argv)`` runs one command and returns its exit status.
"""

from .commands import main

__all__ = ["main"]
