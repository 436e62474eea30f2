"""Where 0.1.0 kept what is now :mod:`catmouse.analysis`: its pickles name this module.

A pickle stores the module of each class and function it needs; pickles made before the
three-layer layout name ``catmouse._analysis``, so this name stays importable (nothing else
imports it).
"""

from .analysis import _unpickle_analysis

__all__ = ["_unpickle_analysis"]
