"""Drawing the k-cops game as SVG: the board, the team's nodes marked, the robber, the line.

Each node holding cops is filled in the cats' orange, with a badge counting them where several
share it; the robber's node is ringed in the mice's blue.  Under the board, an optimal line
from the position, one ply a line of text, up to capture (or until it would repeat: he
escapes).  :func:`notebook_svg` and :func:`summary_html` are the notebook display of a
:class:`CopsGame` or :class:`CopsAnalysis` (reached through :mod:`catmouse.show.draw`, which
decides which one a board gets).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from ..cops.game import CopsAnalysis, CopsGame
from ..cops.sides import CopsOutcome, CopsTurn
from ..engine.cops_checks import cops_text
from .svg import (
    CAT_COLOUR,
    MOUSE_COLOUR,
    fitted_radius,
    full_name,
    layout,
    name_size,
    node_name,
    wrapped,
    xml_text,
)
from .words import counted

__all__ = ["cops_svg", "notebook_svg", "summary_html"]

_EDGE = "#b8bec6"
_INK = "#22272e"
_MOST_LINES = 12


def _full_name(label: Any) -> str:
    """A node's label in the line of text: whole (the circles cut it to fit: ``(…2)`` for
    ``(1, 2)`` on a grid would not say which node), printable characters only."""
    return "".join(ch for ch in str(label) if ch.isprintable())


def _team_text(team: tuple[Any, ...]) -> str:
    return ", ".join(map(_full_name, team))


def cops_svg(game: CopsGame | CopsAnalysis, cops: Any, robber: Any,
             turn: CopsTurn | int = CopsTurn.COPS) -> str:
    """An SVG picture of a position of the k-cops game and an optimal line from it.

    ``game`` is a :class:`CopsGame` (analysed here) or its :class:`CopsAnalysis`; nodes are
    the graph's labels.

    >>> from catmouse import CopsGame
    >>> svg = cops_svg(CopsGame([[1], [0, 2], [1]], cops=1), [0], 2)
    >>> svg.startswith("<svg") and "captured after 3 plies" in svg
    True
    """
    analysis = game.analyze() if isinstance(game, CopsGame) else game
    graph = analysis.game.graph
    line = analysis.line(cops, robber, turn)
    team, robber_label, _ = line[0]
    outcome = analysis.outcome(cops, robber, turn)
    plies = analysis.remoteness(cops, robber, turn)
    k = analysis.game.cops
    if outcome == CopsOutcome.COPS_WIN:
        title = (f"{cops_text(k)}: the robber is captured after {plies} "
                 f"pl{'y' if plies == 1 else 'ies'}")
    else:
        title = f"{cops_text(k)}: the robber escapes forever"
    n = graph.n
    points = layout(graph)
    size = 520.0
    radius = fitted_radius(points, size, max(8.0, min(17.0, 150.0 / math.sqrt(max(n, 1)))), 8.0)
    margin, top = 40.0 + radius, 56.0
    steps = [f"start: cops on {_team_text(team)}, robber on {_full_name(robber_label)}"]
    for before, after in zip(line, line[1:]):
        if before[2] == CopsTurn.COPS:
            steps.append(f"{len(steps)}. cops to {_team_text(after[0])}")
        else:
            steps.append(f"{len(steps)}. robber to {_full_name(after[1])}")
    if len(steps) > _MOST_LINES:
        steps = [*steps[:_MOST_LINES - 1], f"... {len(steps) - _MOST_LINES + 1} more plies"]
    width = size + 2 * margin
    # Each step wraps to the picture's width: long node names ran off its right side.
    lines = [part for step in steps for part in wrapped(step, 14, size)]
    height = top + size + 2 * margin + 22.0 * len(lines) + 16

    def at(u: int) -> tuple[float, float]:
        x, y = points[u]
        return margin + x * size, top + margin + (1 - y) * size

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
           f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
           'style="max-width: 100%; height: auto" font-family="Helvetica, Arial, sans-serif">',
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>',
           f'<text x="{width / 2:.1f}" y="32" text-anchor="middle" font-size="18" '
           f'font-weight="bold" fill="{_INK}">{xml_text(title)}</text>',
           f'<g stroke="{_EDGE}" stroke-width="2">']
    for u, row in enumerate(graph._rows()):
        for v in row:
            if u < v:
                (x1, y1), (x2, y2) = at(u), at(v)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    out.append("</g>")
    on = Counter(graph.index(label) for label in team)
    where = graph.index(robber_label)
    for u in range(n):
        x, y = at(u)
        fill, ink = (CAT_COLOUR, "white") if u in on else ("white", _INK)
        full, name = full_name(graph, u), node_name(graph, u)
        if name != full:  # (a cut name is whole in a tooltip: cut names can collide)
            out.append(f"<g><title>{xml_text(full)}</title>")
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="{fill}" '
                   f'stroke="{_INK}" stroke-width="1.5" class="{"cop" if u in on else "node"}"/>')
        if u == where:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius + 4:.1f}" fill="none" '
                       f'stroke="{MOUSE_COLOUR}" stroke-width="4" class="robber"/>')
        letters = name_size(name, radius, 11.0)
        out.append(f'<text x="{x:.1f}" y="{y + letters * 0.35:.1f}" text-anchor="middle" '
                   f'font-size="{letters:.0f}" fill="{ink}">{xml_text(name)}</text>')
        if name != full:
            out.append("</g>")
        if on[u] > 1:  # a badge on the rim: "0 x3" inside the node overflowed it
            bx, by = x + radius, y - radius
            out.append(f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="11" fill="white" '
                       f'stroke="{CAT_COLOUR}" stroke-width="1.5" class="count"/>')
            out.append(f'<text x="{bx:.1f}" y="{by + 3.5:.1f}" text-anchor="middle" '
                       f'font-size="10" font-weight="bold" fill="{_INK}">'
                       f'\u00d7{on[u]}</text>')
    y = top + size + 2 * margin
    for text_line in lines:
        out.append(f'<text x="{margin:.1f}" y="{y:.1f}" font-size="14" '
                   f'fill="{_INK}">{xml_text(text_line)}</text>')
        y += 22.0
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _analysis(obj: CopsGame | CopsAnalysis) -> CopsAnalysis:
    return obj.analyze() if isinstance(obj, CopsGame) else obj


def notebook_svg(obj: CopsGame | CopsAnalysis) -> str:
    """The notebook picture: the team on :meth:`CopsAnalysis.best_start`'s nodes, the robber
    on his best reply, and the optimal line from there (a game is analysed here).

    >>> from catmouse import CopsGame
    >>> "robber on 0" in notebook_svg(CopsGame([[1], [0, 2], [1]], cops=1))
    True
    """
    analysis = _analysis(obj)
    cops, robber = analysis.best_start()
    return cops_svg(analysis, cops, robber, CopsTurn.COPS)


def summary_html(obj: CopsGame | CopsAnalysis, most_nodes: int, most_edges: int) -> str:
    """A few lines about a board of over ``most_nodes`` nodes or ``most_edges`` edges, too
    big to draw legibly (a game is not solved for them).

    >>> from catmouse import CopsGame
    >>> "2 cops" in summary_html(CopsGame([[1], [0]], cops=2), 1, 1)
    True
    """
    game = obj if isinstance(obj, CopsGame) else obj.game
    graph, k = game.graph, game.cops
    lines = [f"<b>catmouse.{type(obj).__name__}</b>: {cops_text(k)} on "
             f"{counted(graph.n, 'node')}, {counted(graph.num_edges, 'edge')}"]
    if isinstance(obj, CopsAnalysis):
        starts = len(obj.winning_starts())
        lines.append(f"{starts:,} of {len(obj._teams):,} cop starts catch the robber "
                     "wherever he starts" if starts else
                     "the robber escapes from every cop start")
    if graph.n:
        lines.append(f"not drawn: over {most_nodes} nodes or {most_edges} edges is too many "
                     "to read; "
                     "<code>catmouse.show.cops.cops_svg(...)</code> draws a position anyway")
    return ('<div class="catmouse-summary" style="font-family: sans-serif; line-height: 1.4">'
            + "<br>".join(lines) + "</div>")
