"""The k-cops game: its solver (``game``), the cop number (``number``), the census of every
graph of a size (``census``), the exports of its tables (``export``), its words
(``sides``: CopsTurn, CopsOutcome) and its limits (``limits``).

The public names are re-exported by :mod:`catmouse`; ``catmouse.cops.cop_number`` stays where
0.2.0 had it.
"""

from .number import cop_number
from .sides import CopsOutcome, CopsTurn

__all__ = ["cop_number", "CopsOutcome", "CopsTurn"]
