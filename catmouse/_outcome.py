"""Where 0.1.0 kept what is now :mod:`catmouse.outcome`: its pickles name this module.

A pickle stores the module of each class and function it needs; pickles made before the
three-layer layout name ``catmouse._outcome``, so this name stays importable (nothing else
imports it).
"""

from .outcome import Outcome, Turn

__all__ = ["Outcome", "Turn"]
