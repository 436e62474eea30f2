"""``catmouse cop-play --html``: a self-contained page to play the robber against k cops.

The page carries the board as SVG, the cops' perfect reply to every position (computed
here, as :meth:`CopsAnalysis.best_moves` orders them, the first) and the capture times; its
script (``cops_page.js``, package data) only looks them up.  Click a node to place the
robber, then to move him.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from typing import Any

from ..cops_game import CopsAnalysis
from ..outcome import Turn
from .svg import CAT_COLOUR, MOUSE_COLOUR, layout, node_name, xml_text

__all__ = ["cops_page_html"]


def cops_data(analysis: CopsAnalysis, start: Any = None) -> dict[str, Any]:
    """The page's tables: teams, the cops' replies, capture times with the robber to move,
    names, closed neighbourhoods."""
    graph, n = analysis.game.graph, analysis.game.graph.n
    teams = analysis._teams
    if start is None:
        starts = analysis.winning_starts()
        start_row = analysis._row[analysis._team(starts[0])] if starts else 0
    else:
        start_row = analysis._row[analysis._team(start)]
    best, remoteness = [], []
    for team in teams:
        for robber in range(n):
            if robber in team:
                best.append(-1)
            else:
                best.append(analysis._row[analysis._best(team, robber, Turn.CAT)[0]])
            remoteness.append(analysis._remoteness[analysis._index(team, robber, Turn.MOUSE)])
    return {"n": n, "k": analysis.game.cops, "teams": [list(t) for t in teams],
            "start": start_row, "best": best, "remoteness": remoteness,
            "names": [node_name(graph, u) for u in range(n)],
            "closed": [list(c) for c in analysis._closed]}


def cops_page_html(analysis: CopsAnalysis, start: Any = None) -> str:
    """The page's HTML: the robber is yours, the cops start on ``start`` (default: the
    first winning start, else the first team).

    >>> from catmouse import CopsGame
    >>> page = cops_page_html(CopsGame([[1], [0, 2], [1]], cops=1).analyze())
    >>> 'id="status"' in page and 'data-node="2"' in page
    True
    """
    graph = analysis.game.graph
    data = cops_data(analysis, start)
    points = layout(graph)
    size, radius = 520.0, max(8.0, min(17.0, 150.0 / math.sqrt(max(graph.n, 1))))
    margin = 30.0 + radius

    def at(u: int) -> tuple[float, float]:
        x, y = points[u]
        return margin + x * size, margin + (1 - y) * size

    side = size + 2 * margin
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side:.0f} {side:.0f}" '
           f'style="max-width: 640px; width: 100%">', '<g stroke="#b8bec6" stroke-width="2">']
    for u, row in enumerate(graph._rows()):
        for v in row:
            if u < v:
                (x1, y1), (x2, y2) = at(u), at(v)
                svg.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    svg.append('</g><g id="nodes">')
    for u in range(graph.n):
        x, y = at(u)
        svg.append(f'<g class="node" data-node="{u}"><circle cx="{x:.1f}" cy="{y:.1f}" '
                   f'r="{radius:.1f}"/><text x="{x:.1f}" y="{y + 4:.1f}">'
                   f'{xml_text(data["names"][u])}</text><text class="count" x="{x:.1f}" '
                   f'y="{y + radius + 14:.1f}"></text></g>')
    svg.append("</g></svg>")
    script = resources.files("catmouse.show").joinpath("cops_page.js").read_text("utf-8")
    k = analysis.game.cops
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>catmouse: the robber against {k} cop{"s" if k > 1 else ""}</title>
<style>
body {{ font-family: Helvetica, Arial, sans-serif; color: #22272e; margin: 2em; }}
.node circle {{ fill: white; stroke: #22272e; stroke-width: 1.5; cursor: pointer; }}
.node text {{ text-anchor: middle; font-size: 12px; pointer-events: none; }}
.node.cop circle {{ fill: {CAT_COLOUR}; }}
.node.cop text {{ fill: white; }}
.node .count {{ fill: {CAT_COLOUR}; font-weight: bold; }}
.node.robber circle {{ stroke: {MOUSE_COLOUR}; stroke-width: 5; }}
#status {{ font-size: 18px; min-height: 2.5em; }}
</style></head><body>
<h1>The robber against {k} cop{"s" if k > 1 else ""}</h1>
<p id="status"></p>
{chr(10).join(svg)}
<script type="application/json" id="cops-data">{payload}</script>
<script>{script}</script>
</body></html>
"""
