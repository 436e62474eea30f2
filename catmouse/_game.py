"""Where 0.1.0 kept what is now :mod:`catmouse.game`: its pickles name this module.

A pickle stores the module of each class and function it needs; pickles made before the
three-layer layout name ``catmouse._game``, so this name stays importable (nothing else
imports it).
"""

from .game import _make_game, _stay_graph

__all__ = ["_make_game", "_stay_graph"]
