"""The notebook display: the one door from the game layer to the show layer.

:class:`Graph`, :class:`Game`, :class:`Analysis`, :class:`CopsGame` and :class:`CopsAnalysis`
inherit :class:`Displayed`, whose methods import :mod:`catmouse.show.draw` when Jupyter calls
them, never at import time: the game layer loads without the show layer, and this call-time
import is its only arrow to it.
"""

from __future__ import annotations

__all__ = ["Displayed"]


class Displayed:
    """Jupyter's ``_repr_svg_`` and ``_repr_html_`` for a board, a game or an analysis."""

    __slots__ = ()

    def _repr_svg_(self) -> str | None:
        """Jupyter's picture: the board and an optimal game (None when too big to read)."""
        from .show.draw import repr_svg

        return repr_svg(self)

    def _repr_html_(self) -> str:
        """Jupyter's display: the picture, or a short summary for a board too big to read."""
        from .show.draw import repr_html

        return repr_html(self)
