"""``catmouse cop-play --html``: a self-contained page to play k cops and a robber.

You play the robber against perfect cops, or the whole team of cops against a perfect robber,
and may switch sides.  The page carries the board as SVG, every position's capture time (both
sides to move) and the solver's reply to each position, computed here exactly as
:meth:`CopsAnalysis.best_moves` orders them (the first); its script (``cops_page.js``, package
data, in ``shell.html`` with this game's parts from ``cops_page.html``: see
:mod:`catmouse.show.shell`) only looks them up and enumerates the team's moves for the hints.
As the cops, click each cop's destination in turn (its own node, or Stay, keeps it); the page
checks each cop's move.  ``#moves=7,2`` after the page's name replays clicks.
"""

from __future__ import annotations

import math
from typing import Any

from ..cops.game import CopsAnalysis
from ..cops.sides import CopsTurn
from ..engine.cops_checks import check_cops, cops_rows, cops_text
from .draw import LEGIBLE_NODES
from .shell import fill, script_json
from .svg import fitted_radius, full_name, layout, name_size, node_name, placed, xml_text

__all__ = ["MAX_PAGE_POSITIONS", "check_page_size", "cops_data", "cops_page_html"]

# Past this many (team, robber) pairs the tables make a page of megabytes, slow to write
# (every team move of every position is tried here): play in the terminal instead.
MAX_PAGE_POSITIONS = 60_000

_SIDES = ("robber", "cops")


def check_page_size(n: int, cops: int) -> None:
    """ValueError if ``cops`` cops on ``n`` nodes are past the page's limit: a check from
    the sizes alone, made before solving (the command line's --html makes it first).

    >>> check_page_size(64, 4)
    Traceback (most recent call last):
    ...
    ValueError: 4 cops on 64 nodes: 49,054,720 positions, more than the page's 60,000; play in \
the terminal (catmouse cop-play without --html)
    """
    pairs = cops_rows(n, check_cops(cops)) * n
    if pairs > MAX_PAGE_POSITIONS:
        raise ValueError(f"{cops_text(cops)} on {n} nodes: {pairs:,} positions, more than the "
                         f"page's {MAX_PAGE_POSITIONS:,}; play in the terminal (catmouse "
                         "cop-play without --html)")


def cops_data(analysis: CopsAnalysis, human: str = "robber", start: Any = None
              ) -> dict[str, Any]:
    """The page's tables, flat over ``row * n + robber`` (``row`` a team of ``teams``):
    ``capture`` and ``caught`` the capture times with the cops and with the robber to move
    (-1: he escapes), ``copsReply`` the cops' best reply (a row) and ``robberReply`` the
    robber's (a node), -1 where he is caught; ``robberStart[row]`` his best start against a
    team, ``start`` the cops' start when the solver plays them (default: ``best_start()``)."""
    if human not in _SIDES:
        raise ValueError(f"human is 'robber' or 'cops', not {human!r}")
    graph, n = analysis.game.graph, analysis.game.graph.n
    teams = analysis._teams
    if not n:
        raise ValueError("the play page needs a graph with nodes")
    check_page_size(n, analysis.game.cops)
    if start is None:
        start = analysis.best_start()[0]
    start_row = analysis._row[analysis._team(start)]
    capture, caught, cops_reply, robber_reply = [], [], [], []
    for row, team in enumerate(teams):
        for robber in range(n):
            capture.append(analysis._remoteness[analysis._index(team, robber, CopsTurn.COPS)])
            caught.append(analysis._remoteness[analysis._index(team, robber, CopsTurn.ROBBER)])
            if robber in team:
                cops_reply.append(-1)
                robber_reply.append(-1)
                continue
            cops_reply.append(analysis._row[analysis._best(team, robber, CopsTurn.COPS)[0]])
            robber_reply.append(analysis._best(team, robber, CopsTurn.ROBBER)[0])
    return {"n": n, "k": analysis.game.cops, "human": human, "start": start_row,
            "teams": [list(t) for t in teams], "capture": capture, "caught": caught,
            "copsReply": cops_reply, "robberReply": robber_reply,
            "robberStart": [analysis._robber_start(row) for row in range(len(teams))],
            "names": [full_name(graph, u) for u in range(n)],
            "closed": [list(c) for c in analysis._closed]}


def cops_page_html(analysis: CopsAnalysis, start: Any = None, *, human: str = "robber") -> str:
    """The page's HTML: ``human`` ('robber' or 'cops') is yours to play first; the solver's
    cops start on ``start`` (default: :meth:`CopsAnalysis.best_start`'s team).

    >>> from catmouse import CopsGame
    >>> page = cops_page_html(CopsGame([[1], [0, 2], [1]], cops=1).analyze(), human="cops")
    >>> 'id="status"' in page and 'data-node="2"' in page and '"human":"cops"' in page
    True
    """
    graph = analysis.game.graph
    if graph.n > LEGIBLE_NODES:
        raise ValueError(f"the play page draws at most {LEGIBLE_NODES} nodes and this graph "
                         f"has {graph.n}: play it in the terminal (catmouse cop-play without "
                         "--html)")
    data = cops_data(analysis, human, start)
    k = analysis.game.cops
    team = cops_text(k)
    # (one cop was told "The 1 cop place themselves (several may share a node)")
    moves = ("The cop places itself, then the robber; then the cop moves along an edge or "
             "stays, then the robber likewise. The cop wins by standing on the robber"
             if k == 1 else
             f"The {team} place themselves (several may share a node), then the robber; "
             "then the cops move, every cop along an edge or staying, then the robber "
             "likewise. The cops win when one stands on the robber")
    return fill("cops_page.html", "cops_page.js", {
        "TITLE": xml_text(f"Cops and robber: {team}"), "BOARD": _board_svg(analysis),
        "DATA": script_json(data),
        "RULES": xml_text(
            f"{moves}; the robber wins by never being caught. The status line is the outcome "
            "with perfect play from the current position (a ply is one side's move); hints "
            "give it after each of your moves."),
    })


def _board_svg(analysis: CopsAnalysis) -> str:
    """The board: edges, then one ``<g data-node>`` per node (circle, name, a badge counting
    the cops on it, a hint badge under it)."""
    graph = analysis.game.graph
    n = graph.n
    points = layout(graph)
    size = max(520.0, 70.0 * math.sqrt(max(n, 1)))
    # (not under 13 px: a node stays something to click)
    radius = fitted_radius(points, size, max(13.0, min(24.0, 200.0 / math.sqrt(max(n, 1)))),
                           13.0)
    small = max(11.0, min(16.0, radius * 0.75))
    pad = radius + 36.0  # room for the rings, the count badges and the hints
    width, height, at = placed(points, size, pad)
    out = [f'<svg id="board" viewBox="0 0 {width:.0f} {height:.0f}" '
           'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="the board">',
           '<g id="edges">']
    for u, row in enumerate(graph._rows()):
        for v in row:
            if u < v:
                (x1, y1), (x2, y2) = at(u), at(v)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    out.append('</g><g id="nodes">')
    font = max(11.0, radius * 0.8)
    for u in range(n):
        x, y = at(u)
        bx, by = x + radius * 0.8, y - radius * 0.8
        name = node_name(graph, u)
        letters = name_size(name, radius, font)
        out.append(
            f'<g class="node" data-node="{u}" tabindex="0" role="button" '
            f'aria-label="node {xml_text(full_name(graph, u))}">'
            f'<title>{xml_text(full_name(graph, u))}</title>'
            f'<circle class="ring" cx="{x:.1f}" cy="{y:.1f}" r="{radius + 5:.1f}"/>'
            f'<circle class="disc" cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}"/>'
            f'<text class="name" x="{x:.1f}" y="{y + letters * 0.35:.1f}" '
            f'font-size="{letters:.0f}">'
            f'{xml_text(name)}</text>'
            f'<g class="count"><circle cx="{bx:.1f}" cy="{by:.1f}" r="{small * 0.8:.1f}"/>'
            f'<text x="{bx:.1f}" y="{by + small * 0.33:.1f}" font-size="{small * 0.85:.0f}">'
            '</text></g>'
            f'<text class="badge" x="{x:.1f}" y="{y + radius + small + 6:.1f}" '
            f'font-size="{small:.0f}"></text></g>')
    out.append("</g></svg>")
    return "\n".join(out)
