"""Where 0.1.0 kept what is now :mod:`catmouse.graph`: its pickles name this module.

A pickle stores the module of each class and function it needs; pickles made before the
three-layer layout name ``catmouse._graph``, so this name stays importable (nothing else
imports it).
"""

from .graph import _unpickle_graph

__all__ = ["_unpickle_graph"]
