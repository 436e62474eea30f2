"""``catmouse play --html``: one self-contained page to play against the solver.

The page carries the solved table (outcome and remoteness of every position),
the board drawn as SVG and a small script: no network, no server.  Its HTML and its script
are package data beside this module (``shell.html``, the shell both play pages share, with
this game's parts from ``page.html``; ``page.js``), filled in through
:mod:`catmouse.show.shell`; its words come from :func:`catmouse.show.words.page_table`, as
the other front ends' do.  Click a node to move; the script replies with the solver's move,
chosen exactly as :meth:`Analysis.best_moves` and :class:`catmouse.show.play.Match` choose it
(the smallest of the best moves), and shows the outcome under perfect play in the element
``#status``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from ..outcome import Turn
from .draw import LEGIBLE_NODES, Setup
from .shell import fill, script_json
from .svg import fitted_radius, full_name, layout, name_size, node_name, placed, xml_text
from .words import page_table

__all__ = ["page_html", "play_page"]

# Past this many nodes, hint badges are short ("W12"): long ones would cover the neighbours.
_SHORT_BADGES = 30


def play_page(
    obj: Any,
    mouse: Hashable | None = None,
    cat: Hashable | None = None,
    *,
    hole: Hashable | None = None,
    human: str = "mouse",
    title: str = "",
) -> str:
    """A self-contained HTML page (text) to play the game in a browser against perfect play.

    ``obj``, ``mouse``, ``cat`` and ``hole`` are read as :func:`catmouse.draw` reads them:
    adjacency lists, a :class:`~catmouse.Graph`, a :class:`~catmouse.Game` or an
    :class:`~catmouse.Analysis`, and nodes by the graph's names (labels on a labelled graph;
    the starts default to 1 and 2 where those are nodes).  ``human`` is the side the player
    takes, ``"mouse"`` or ``"cat"`` (a button on the page swaps).  The page names the nodes as
    the graph does; save the text with an ``.html`` name and open it.  Boards of more than
    150 nodes are refused (too small to click); ``catmouse play`` plays them in a terminal.

    >>> import catmouse
    >>> page = catmouse.play_page([[1, 2], [0], [0]], mouse=1, cat=2, human="cat")
    >>> page.startswith("<!DOCTYPE html>") and '"names":["0","1","2"]' in page
    True
    """
    sides = {"mouse": Turn.MOUSE, "cat": Turn.CAT}
    if human not in sides:
        raise ValueError(f'human must be "mouse" or "cat", not {human!r}')
    setup = Setup.of(obj, hole)
    starts = setup.starts(mouse, cat)
    if starts is None:
        raise ValueError("this graph has no nodes named 1 and 2 for the default starts: "
                         "pass mouse= and cat=")
    return page_html(setup, *starts, sides[human], title=title)


def page_html(setup: Setup, mouse: Any, cat: Any, human: Turn, *, title: str = "") -> str:
    """The page's HTML text, for ``human`` playing from the mouse on ``mouse``, the cat on ``cat``
    (nodes by the graph's names).

    >>> from catmouse.show.draw import Setup
    >>> page = page_html(Setup.of([[1, 3], [0], [3], [0, 2]]), 1, 2, Turn.MOUSE)
    >>> 'id="status"' in page and 'data-node="3"' in page
    True
    """
    analysis = setup.analysis
    graph = setup.graph
    n = graph.n
    if n > LEGIBLE_NODES:
        raise ValueError(
            f"the play page draws at most {LEGIBLE_NODES} nodes and this graph has {n}: "
            "play it in the terminal (catmouse play without --html)"
        )
    if not analysis.has_remoteness:
        raise ValueError("the play page needs remoteness: analyze without remoteness=False")
    first = setup.first
    analysis.outcome(mouse, cat, first)  # ValueError for a start that does not exist
    rules = analysis._rules
    data = {
        "n": n,
        # The page works in ids and speaks names: every node the player reads is names[id].
        "names": [full_name(graph, u) for u in range(n)],
        "mouseAdj": [list(row) for row in rules.mouse_graph._rows()],
        "catAdj": [list(row) for row in rules.cat_graph._rows()],
        "holes": list(setup.holes),
        "goals": list(setup.goals),
        "forbidden": list(setup.forbidden),
        "draw": int(rules.draw),
        "outcomes": "".join(map(str, analysis.outcomes.cast("B").tolist())),
        # Read from the planes (a small graph: one block a turn), no int32 table kept.
        "remoteness": [r for turn in (0, 1)
                       for r in memoryview(analysis._remoteness_rows(turn, 0, n)).cast("B")
                       .cast("i").tolist()],
        "mouse": graph.index(mouse),
        "cat": graph.index(cat),
        "first": int(first),
        "human": int(human),
    }
    heading = f"Cat and Mouse{': ' + title if title else ''}"
    return fill("page.html", "page.js", {
        "TITLE": xml_text(heading), "BOARD": _board_svg(setup), "DATA": script_json(data),
        "RULES": xml_text(_rules_words(setup)), "WORDS": script_json(page_table()),
    })


def _rules_words(setup: Setup) -> str:
    """The legend under the buttons: how to play, and how this game ends."""
    rules = setup.analysis._rules
    ends = ["the cat lands on the mouse"]
    if setup.holes:
        ends.append("the mouse reaches " + ("the hole (dark)" if len(setup.holes) == 1
                                            else "a hole (dark)"))
    if setup.goals:
        ends.append("the cat reaches a shaded node (its goal)")
    ends.append("a player cannot move (and loses)")
    score = {0: "a draw", 1: "the mouse wins", 2: "the cat wins"}[int(rules.draw)]
    ends.append(f"a position repeats ({score})")
    stays = [name for name, graph in (("mouse", rules.mouse_graph), ("cat", rules.cat_graph))
             if any(u in row for u, row in enumerate(graph._rows()))]
    text = ("Click a node with a dashed green ring to move there"
            + (" (your own node to stay)" if stays else "") + ". The status line is the outcome "
            "with perfect play from the current position; hints give it after each of your "
            "moves. A move is one player's step. The game ends when " + ", ".join(ends[:-1])
            + ", or " + ends[-1] + ".")
    if setup.own_cat_graph:
        text += " The cat moves on a graph of its own (not drawn)."
    return text


def _board_svg(setup: Setup) -> str:
    """The board: edges, then one ``<g data-node>`` per node, then the two tokens."""
    graph = setup.graph
    n = graph.n
    points = layout(graph)
    # Big circles and type: on a phone the whole board shrinks to about half size.
    # Crowded boards spread out, so neighbours' circles and badges stay apart.
    size = max(600.0, 70.0 * math.sqrt(max(n, 1)))
    # (not under 13 px: a node stays something to click)
    radius = fitted_radius(points, size, max(13.0, min(26.0, 200.0 / math.sqrt(max(n, 1)))),
                           13.0)
    small = max(11.0, min(17.0, radius * 0.8))  # badges and the players' names
    short = n > _SHORT_BADGES
    pad = radius + 40.0  # room for the rings and the hint badges
    width, height, at = placed(points, size, pad)
    out = [f'<svg id="board" viewBox="0 0 {width:.0f} {height:.0f}" '
           f'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="the board" '
           f'data-short="{int(short)}">',
           '<defs><marker id="edge-arrow" viewBox="0 0 10 10" refX="9" refY="5" '
           'markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" '
           'fill="#9aa3ad"/></marker></defs>',
           '<g id="edges">']
    for u, row in enumerate(graph._rows()):
        for v in row:
            if graph.directed or u < v:
                (x1, y1), (x2, y2) = at(u), at(v)
                extra = ""
                if graph.directed:
                    d = math.hypot(x2 - x1, y2 - y1) or 1.0
                    x2, y2 = x2 - (x2 - x1) / d * (radius + 3), y2 - (y2 - y1) / d * (radius + 3)
                    extra = ' marker-end="url(#edge-arrow)"'
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
                           f'{extra}/>')
    out.append('</g><g id="trail"></g><g id="nodes">')
    font = max(11.0, radius * 0.85)
    for u in range(n):
        x, y = at(u)
        kind = " hole" if u in setup.holes else " goal" if u in setup.goals else ""
        full = xml_text(full_name(graph, u))
        name = node_name(graph, u)
        letters = name_size(name, radius, font)
        out.append(
            f'<g class="node{kind}" data-node="{u}" data-x="{x:.1f}" data-y="{y:.1f}" '
            f'tabindex="0" role="button" aria-label="node {full}">'
            f'<title>{full}</title>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}"/>'
            f'<text x="{x:.1f}" y="{y + letters * 0.35:.1f}" font-size="{letters:.0f}">'
            f'{xml_text(name)}</text>'
            f'<text class="badge" x="{x:.1f}" y="{y + radius + small + 3:.1f}" '
            f'font-size="{small:.0f}"></text></g>'
        )
    out.append("</g>")
    for name, grow in (("cat", 10.0), ("mouse", 5.0)):
        out.append(
            f'<g id="{name}-token" class="token {name}">'
            f'<circle r="{radius + grow:.1f}"/>'
            f'<text y="{-radius - grow - 6:.1f}" data-above="{-radius - grow - 6:.1f}" '
            f'font-size="{small:.0f}">{name}</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out)
