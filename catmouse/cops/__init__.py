"""The k-cops game: its solver (``game``), the cop number (``number``), the census of every
graph of a size (``census``) and the exports of its tables (``export``).

The public names are re-exported by :mod:`catmouse`; ``catmouse.cops.cop_number`` stays where
0.2.0 had it.
"""

from .number import cop_number

__all__ = ["cop_number"]
