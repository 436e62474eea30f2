"""catmouse: pursuit games on graphs, solved exactly by retrograde analysis.

>>> import catmouse
>>> catmouse.solve([[1, 3], [0], [3], [0, 2]])
<Outcome.MOUSE_WIN: 1>
"""

from . import _moved
from .analysis import Analysis, VerificationError
from .batch import solve_many
from .cops.game import CopsAnalysis, CopsGame
from .cops.number import cop_number
from .cops.sides import CopsOutcome, CopsTurn
from .engine import BACKEND as _BACKEND
from .engine.facts import MAX_NODES as _MAX_NODES
from .family import cat_mouse_ii, is_cop_win
from .game import Game
from .graph import Graph
from .io.graph_files import (
    GraphFile,
    read_edge_list,
    read_graph,
    read_graph6,
    read_graphs,
    read_json,
)
from .outcome import Outcome, Turn
from .show.draw import draw
from .show.page import play_page
from .solving import analyze, solve
from .version import __version__ as __version__

__all__ = [
    "BACKEND",
    "MAX_NODES",
    "Analysis",
    "CopsAnalysis",
    "CopsGame",
    "CopsOutcome",
    "CopsTurn",
    "Game",
    "Graph",
    "GraphFile",
    "Outcome",
    "Turn",
    "VerificationError",
    "analyze",
    "cat_mouse_ii",
    "cop_number",
    "draw",
    "is_cop_win",
    "play_page",
    "read_edge_list",
    "read_graph",
    "read_graph6",
    "read_graphs",
    "read_json",
    "solve",
    "solve_many",
]

_moved.install()

#: Which engine solves: ``"cython"`` (the compiled engine) or ``"python"`` (its pure twin).
BACKEND: str = _BACKEND

#: The most nodes a graph may have (65535): every reader and solver refuses more, before
#: building anything.
MAX_NODES: int = _MAX_NODES
