"""catmouse: pursuit games on graphs, solved exactly by retrograde analysis.

>>> import catmouse
>>> catmouse.solve([[1, 3], [0], [3], [0, 2]])
<Outcome.MOUSE_WIN: 1>
"""

from ._analysis import Analysis, VerificationError
from ._api import analyze, solve, solve_many
from ._family import cat_mouse_ii, is_cop_win
from ._game import Game
from ._graph import Graph
from ._outcome import Outcome, Turn
from ._retro import BACKEND as _BACKEND

__all__ = [
    "BACKEND",
    "Analysis",
    "Game",
    "Graph",
    "Outcome",
    "Turn",
    "VerificationError",
    "analyze",
    "cat_mouse_ii",
    "is_cop_win",
    "solve",
    "solve_many",
]
__version__ = "0.1.0"

#: Which engine solves: ``"cython"`` (the compiled engine) or ``"python"`` (its pure twin).
BACKEND: str = _BACKEND
