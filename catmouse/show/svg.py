"""Drawing a game as SVG: the board, the hole, the start and the optimal moves.

Plain SVG 1.1 text, no dependency.  The layout is networkx's when it is
installed (Kamada-Kawai, or a seeded spring layout), a built-in force layout
otherwise; both are deterministic, so the same file always gives the same picture.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from ..engine.optional import import_optional
from ..graph import Graph
from ..outcome import Turn

__all__ = ["CAT_COLOUR", "MOUSE_COLOUR", "fitted_radius", "game_svg", "layout"]

MOUSE_COLOUR = "#1f6fd1"
CAT_COLOUR = "#e0531f"
_EDGE_COLOUR = "#b8bec6"
_INK = "#22272e"
_GOAL_FILL = "#f7c9b4"

Point = tuple[float, float]


def layout(graph: Graph, seed: int = 7) -> list[Point]:
    """Node positions in the unit square, the same on every run (to 1e-6: numpy's and
    scipy's float sums behind networkx's layouts may vary in the last bits, as on i386).

    Without networkx, a built-in force layout; over 300 nodes (where that quadratic layout
    gets slow) the nodes go round a circle."""
    n = graph.n
    if n <= 1:
        return [(0.5, 0.5)] * n
    points = _networkx_layout(graph, seed)
    if points is None:
        points = _force_layout(graph) if n <= 300 else _circle(n)
    return _fit(_folded(graph, points))


def placed(points: Sequence[Point], size: float, pad: float
           ) -> tuple[float, float, Callable[[int], Point]]:
    """A board's canvas: its width, its height and each node's place, for ``points`` (from
    :func:`layout`) drawn ``size`` pixels to a unit with ``pad`` pixels round them, y up."""
    xs, ys = [p[0] for p in points] or [0.5], [p[1] for p in points] or [0.5]
    left, top = min(xs), max(ys)
    width = size * (max(xs) - left) + 2 * pad
    height = size * (top - min(ys)) + 2 * pad

    def at(node: int) -> Point:
        x, y = points[node]
        return pad + (x - left) * size, pad + (top - y) * size

    return width, height, at


def fitted_radius(points: Sequence[Point], size: float, radius: float, least: float) -> float:
    """``radius``, or less where nodes at ``points`` drawn ``size`` pixels to a unit would
    touch (a ring of 60 nodes: its circles overlapped on the play page): 0.42 of the closest
    two nodes' distance, at least ``least``.  Past 300 nodes (the search is quadratic, and
    such boards are drawn small anyway) ``radius`` as it is."""
    if len(points) > 300:
        return radius
    near = min((math.dist(p, q) for p, q in itertools.combinations(points, 2)),
               default=math.inf)
    return max(least, min(radius, 0.42 * size * near))


def _networkx_layout(graph: Graph, seed: int) -> list[Point] | None:
    nx: Any = import_optional("networkx")
    if nx is None:
        return None
    g = nx.Graph()
    g.add_nodes_from(range(graph.n))
    g.add_edges_from((u, v) for u, row in enumerate(graph._rows()) for v in row)
    try:
        if nx.is_connected(g) and graph.n <= 500:
            pos = nx.kamada_kawai_layout(g)  # needs scipy
        else:
            pos = nx.spring_layout(g, seed=seed)
    except ImportError:
        pos = nx.spring_layout(g, seed=seed)
    return [(float(pos[u][0]), float(pos[u][1])) for u in range(graph.n)]


def _circle(n: int) -> list[Point]:
    return [(math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n)) for k in range(n)]


def _force_layout(graph: Graph, rounds: int = 200) -> list[Point]:
    """Fruchterman-Reingold from a circle, with a cooling step: deterministic."""
    n = graph.n
    points = [list(p) for p in _circle(n)]
    edges = [(u, v) for u, row in enumerate(graph._rows()) for v in row if u < v or graph.directed]
    k = math.sqrt(4.0 / n)
    step = 0.2
    for _ in range(rounds):
        push = [[0.0, 0.0] for _ in range(n)]
        for u in range(n):
            xu, yu = points[u]
            for v in range(u + 1, n):
                dx, dy = xu - points[v][0], yu - points[v][1]
                d2 = max(dx * dx + dy * dy, 1e-6)
                f = k * k / d2  # repulsion k^2/d, along the unit vector (dx, dy)/d
                push[u][0] += dx * f
                push[u][1] += dy * f
                push[v][0] -= dx * f
                push[v][1] -= dy * f
        for u, v in edges:
            dx, dy = points[u][0] - points[v][0], points[u][1] - points[v][1]
            d = max(math.hypot(dx, dy), 1e-3)
            f = d / k  # attraction d^2/k
            push[u][0] -= dx * f
            push[u][1] -= dy * f
            push[v][0] += dx * f
            push[v][1] += dy * f
        for u in range(n):
            dx, dy = push[u]
            d = math.hypot(dx, dy)
            if d > 0:
                points[u][0] += dx / d * min(d, step)
                points[u][1] += dy / d * min(d, step)
        step *= 0.98
    return [(x, y) for x, y in points]


def _folded(graph: Graph, points: list[Point]) -> list[Point]:
    """``points`` folded like a snake when they lie along a line many edges long (a path,
    a ladder): scaled to the unit square, the 60 nodes of a path stood on top of each other.

    The line is cut into strips of about equal length, each laid under the last and every
    second one turned half round, so neighbours at a fold stay near each other."""
    edges = sorted(math.dist(points[u], points[v])
                   for u, row in enumerate(graph._rows()) for v in row if u < v)
    if not edges:
        return points
    step = edges[len(edges) // 2]  # a typical edge's length
    # The line's direction: the principal axis of the points.
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    sxx = sum((x - cx) ** 2 for x, _ in points)
    syy = sum((y - cy) ** 2 for _, y in points)
    sxy = sum((x - cx) * (y - cy) for x, y in points)
    angle = 0.5 * math.atan2(2 * sxy, sxx - syy)
    cos, sin = math.cos(angle), math.sin(angle)
    along = [(x - cx) * cos + (y - cy) * sin for x, y in points]
    across = [(y - cy) * cos - (x - cx) * sin for x, y in points]
    length = max(along) - min(along)
    breadth = max(across) - min(across)
    if length < 12 * step or breadth > length / 4:  # short, or not thin: as it is
        return points
    pitch = breadth + 2 * step  # a strip's breadth and the gap to the next
    strips = round(math.sqrt(length / pitch))  # about as many as make a square
    if strips < 2:
        return points
    strip = length / strips
    out = []
    for a, b in zip(along, across):
        t, v = a - min(along), b - min(across)
        k = min(int(t // strip), strips - 1)
        u = t - k * strip
        if k % 2:
            u, v = strip - u, breadth - v
        out.append((u, -k * pitch - v))  # (y up: the strips go down the picture)
    return out


def _fit(points: list[Point]) -> list[Point]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return [(0.5 + (x - cx) / span, 0.5 + (y - cy) / span) for x, y in points]


def _arrow_marker(name: str, colour: str) -> str:
    return (
        f'<marker id="{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        f'fill="{colour}"/></marker>'
    )


def _shorten(a: Point, b: Point, by_a: float, by_b: float) -> tuple[Point, Point]:
    """The segment a-b with ``by_a`` and ``by_b`` cut from its ends (to stop at circles)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    return (a[0] + ux * by_a, a[1] + uy * by_a), (b[0] - ux * by_b, b[1] - uy * by_b)


# Characters XML 1.0 forbids in text (a title or a file name may hold one): C0 controls but
# tab, newline and carriage return, lone surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """``text`` escaped for XML, with the characters XML cannot hold dropped.

    >>> xml_text("a<b\x07")
    'a&lt;b'
    """
    return escape(_NOT_XML.sub("", text))


# A drawn name longer than this is cut, with an ellipsis: the circle holds a few characters.
NAME_CHARS = 4


def full_name(graph: Graph, u: int) -> str:
    """Node ``u``'s label as sentences and tooltips say it: whole, printable characters only,
    a tuple (networkx grids name nodes ``(1, 2)``) as its items, ``1,2``; its id without labels.

    >>> full_name(Graph([[1], [0]]), 1)
    '1'
    """
    label = graph._name(u)
    text = ",".join(map(str, label)) if isinstance(label, tuple) else str(label)
    return "".join(ch for ch in text if ch.isprintable())


def node_name(graph: Graph, u: int) -> str:
    """How the picture names node ``u``: its label (printable characters only), cut to
    :data:`NAME_CHARS` keeping its first and last characters (names often differ at the end:
    ``room-1``, ``room-5`` are drawn ``r…-1``, ``r…-5``); its id on a graph without labels.
    A tuple (networkx grids name nodes ``(1, 2)``) is drawn as its items: ``1,2``.

    >>> node_name(Graph([[1], [0]]), 1)
    '1'
    """
    name = full_name(graph, u)
    return name if len(name) <= NAME_CHARS else name[0] + "\u2026" + name[2 - NAME_CHARS:]


# Letters about a whole font size wide in common sans-serif fonts (the ellipsis of a cut name
# among them); other capitals about 0.75; the rest about 0.62 on average.
_WIDE = frozenset("\u2026WMmw@%")


def em_width(text: str) -> float:
    """About how wide ``text`` is drawn, in font sizes (an estimate: no font is read)."""
    return sum(1.0 if ch in _WIDE else 0.75 if ch.isupper() else 0.62 for ch in text)


def wrapped(text: str, font: float, width: float) -> list[str]:
    """``text`` in lines about ``width`` pixels wide at most in type of ``font`` pixels (as
    :func:`em_width` estimates): broken at spaces, a word too long for a line cut.  A title
    naming long node names ran off both sides of the picture.

    >>> wrapped("mouse starts on Grand Central", 15, 150)
    ['mouse starts on', 'Grand Central']
    """
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        joined = f"{line} {word}" if line else word
        if em_width(joined) * font <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        while em_width(word) * font > width and len(word) > 1:
            cut = 1  # the longest start of the word that fits (at least one character)
            while cut < len(word) - 1 and em_width(word[:cut + 1]) * font <= width:
                cut += 1
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    return [*lines, line]


def name_size(name: str, radius: float, largest: float) -> float:
    """The font size at which ``name`` sits inside a node's circle of ``radius``, at most
    ``largest``: 1.7 radii leave a margin (at 2.0, with every letter 0.62 of the font size,
    "WWWW" and a cut name's ellipsis ran into the rim)."""
    return min(largest, 1.7 * radius / max(1.0, em_width(name)))


def disc_radius(number: int) -> float:
    """The radius of a move number's disc: 10 px up to two digits, wider for more (white
    digits past the disc vanish on the white page: move 115 read as 15).

    >>> disc_radius(99), disc_radius(115), disc_radius(1234)
    (10.0, 14.1, 18.3)
    """
    return max(10.0, (15 + 42 * len(str(number))) / 10)


def game_svg(
    graph: Graph,
    line: Sequence[tuple[int, int, Turn]],
    *,
    holes: Sequence[int] = (0,),
    title: str = "",
    subtitle: str = "",
    points: list[Point] | None = None,
    goals: Sequence[int] = (),
    ids: str = "",
) -> str:
    """An SVG picture of ``graph`` with the game ``line`` played on it.

    ``line`` is a list of positions ``(mouse, cat, turn)`` as
    :meth:`Analysis.line` returns: its first entry is the start, each next
    entry one move later.  Mouse moves are drawn in blue, cat moves in orange,
    each numbered in the order played.  ``goals`` (the cat's goal nodes) are
    shaded orange.  ``ids`` prefixes the marker ids, so several pictures can sit
    inline in one HTML page.  The picture scales down to its container.

    >>> svg = game_svg(Graph([[1], [0, 2], [1]]), [(1, 2, Turn.MOUSE), (0, 2, Turn.CAT)])
    >>> svg.startswith("<svg") and "mouse move" in svg
    True
    """
    n = graph.n
    points = layout(graph) if points is None else points
    size = 640.0
    radius = fitted_radius(points, size, max(6.0, min(17.0, 150.0 / math.sqrt(max(n, 1)))), 6.0)
    margin = 44.0 + radius
    legend_height = 64.0
    # A wide layout gets a lower picture rather than empty bands above and below.
    xs, ys = [p[0] for p in points] or [0.5], [p[1] for p in points] or [0.5]
    x_low, y_high = min(xs), max(ys)
    board_w = max(size * (max(xs) - x_low), 300.0)
    board_h = max(size * (y_high - min(ys)), 200.0)
    hole_set, goal_set = set(holes), set(goals)
    items = [
        ("ring", MOUSE_COLOUR, "mouse start"),
        ("ring", CAT_COLOUR, "cat start"),
        ("hole", "#2d333b", "hole"),
        ("move", MOUSE_COLOUR, "mouse move"),
        ("move", CAT_COLOUR, "cat move"),
    ]
    if goal_set:
        items.insert(3, ("hole", _GOAL_FILL, "cat goal"))
    if not hole_set:
        items.remove(("hole", "#2d333b", "hole"))
    # The legend names only what is drawn: no rings without a start, no arrows of a player
    # who never moves in the line (a board alone listed "mouse move" and "cat move").
    movers = {turn for _, _, turn in line[:-1]}
    items = [item for item in items
             if item[0] == "hole" or item[0] == "ring" and line
             or item[0] == "move" and (Turn.MOUSE if item[1] == MOUSE_COLOUR
                                       else Turn.CAT) in movers]
    legend_width = sum(56 + 8.2 * len(text) for _, _, text in items) - 22
    width = max(board_w + 2 * margin, 720.0, legend_width + 40)
    # The titles wrap to the picture's width (long node names ran off both sides): each line
    # of the title 24 px below the last, of the subtitle 20 px.
    heads = wrapped(title, 19, width - 40) if title else []
    subs = [part for text in subtitle.splitlines() for part in wrapped(text, 15, width - 40)]
    top = 52.0 + 24.0 * max(len(heads) - 1, 0) + 20.0 * len(subs)
    height = board_h + 2 * margin + top + legend_height
    left = (width - board_w) / 2 + (board_w - size * (max(xs) - x_low)) / 2
    upper = top + margin + (board_h - size * (y_high - min(ys))) / 2

    def at(node: int) -> Point:
        x, y = points[node]
        return left + (x - x_low) * size, upper + (y_high - y) * size

    out = [
        (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" style="max-width: 100%; height: auto" '
        'font-family="Helvetica, Arial, sans-serif">'),
        "<defs>",
        _arrow_marker(f"{ids}edge-arrow", _EDGE_COLOUR),
        _arrow_marker(f"{ids}mouse-arrow", MOUSE_COLOUR),
        _arrow_marker(f"{ids}cat-arrow", CAT_COLOUR),
        "</defs>",
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>',
    ]
    for k, text in enumerate(heads):
        out.append(f'<text x="{width / 2:.1f}" y="{30 + 24 * k}" text-anchor="middle" '
                   f'font-size="19" font-weight="bold" fill="{_INK}">{xml_text(text)}</text>')
    below = 24 * max(len(heads) - 1, 0)
    for k, text in enumerate(subs):
        out.append(f'<text x="{width / 2:.1f}" y="{54 + below + 20 * k}" text-anchor="middle" '
                   f'font-size="15" fill="{_INK}">{xml_text(text)}</text>')

    # The board.
    out.append(f'<g stroke="{_EDGE_COLOUR}" stroke-width="2" fill="none">')
    for u, row in enumerate(graph._rows()):
        for v in row:
            if graph.directed:
                a, b = _shorten(at(u), at(v), radius, radius + 2)
                out.append(f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" '
                           f'y2="{b[1]:.1f}" marker-end="url(#{ids}edge-arrow)"/>')
            elif u < v:
                (x1, y1), (x2, y2) = at(u), at(v)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    out.append("</g>")

    # The moves: a curve per move, bowed to the mover's side and further out
    # each time the same edge is used again, so repeated moves stay apparent.
    moves = []
    for before, after in itertools.pairwise(line):
        mover = before[2]
        src, dst = (before[0], after[0]) if mover == Turn.MOUSE else (before[1], after[1])
        moves.append((mover, src, dst))
    used: dict[tuple[int, int], int] = {}
    passes: dict[int, int] = {}
    labels = []
    out.append('<g fill="none" stroke-width="3" stroke-linecap="round">')
    for number, (mover, src, dst) in enumerate(moves, 1):
        colour = MOUSE_COLOUR if mover == Turn.MOUSE else CAT_COLOUR
        if src == dst:  # a pass: the number sits beside the node, up and to the right,
            # the next pass on the same node a fifth of a turn further round (not on top)
            x, y = at(src)
            turn = math.radians(45 + 72 * passes.get(src, 0))
            passes[src] = passes.get(src, 0) + 1
            away = max(radius * 1.3 * math.sqrt(2), 19.0, radius + 4 + disc_radius(number))
            labels.append((x + away * math.cos(turn), y - away * math.sin(turn), number, colour))
            continue
        key = (min(src, dst), max(src, dst))
        again = used.get(key, 0)
        used[key] = again + 1
        side = 1 if mover == Turn.MOUSE else -1
        if src > dst:
            side = -side  # bow relative to the edge's fixed orientation
        (x1, y1), (x2, y2) = at(src), at(dst)
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        nx_, ny_ = -(y2 - y1) / length, (x2 - x1) / length
        bow = side * (0.14 * length + 44 * again)
        cx, cy = (x1 + x2) / 2 + nx_ * bow, (y1 + y2) / 2 + ny_ * bow
        start, _ = _shorten((x1, y1), (cx, cy), radius + 2, 0)
        _, end = _shorten((cx, cy), (x2, y2), 0, radius + 3)
        name = ids + ("mouse-arrow" if mover == Turn.MOUSE else "cat-arrow")
        out.append(f'<path d="M{start[0]:.1f},{start[1]:.1f} Q{cx:.1f},{cy:.1f} '
                   f'{end[0]:.1f},{end[1]:.1f}" stroke="{colour}" '
                   f'marker-end="url(#{name})"/>')
        mx, my = 0.25 * x1 + 0.5 * cx + 0.25 * x2, 0.25 * y1 + 0.5 * cy + 0.25 * y2
        labels.append((mx, my, number, colour))
    out.append("</g>")

    # The nodes: holes dark, the starts ringed in their player's colour.
    mouse0, cat0 = (line[0][0], line[0][1]) if line else (-1, -1)
    font = max(9.0, radius * 0.85)
    for u in range(n):
        x, y = at(u)
        fill, ink = ("#2d333b", "white") if u in hole_set else ("white", _INK)
        if u in goal_set:
            fill = _GOAL_FILL
        # A name drawn cut (or not drawn: a small circle) is whole in a tooltip: cut names
        # can collide (``bedroom_1`` and ``bathroom_1`` are both ``b…_1``).
        full, name = full_name(graph, u), node_name(graph, u)
        tip = radius < 9 or name != full
        if tip:
            out.append(f"<g><title>{xml_text(full)}</title>")
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="{fill}" '
                   f'stroke="{_INK}" stroke-width="1.5"/>')
        for player_start, colour, out_by in ((mouse0, MOUSE_COLOUR, 4),
                                              (cat0, CAT_COLOUR, 4 if cat0 != mouse0 else 9)):
            if u == player_start:  # (both on one node: the cat's ring around the mouse's)
                out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius + out_by:.1f}" '
                           f'fill="none" stroke="{colour}" stroke-width="4"/>')
        if radius >= 9:
            # The node's name: its label on a labelled graph, shortened to fit the circle.
            # (not ``size``: the closure ``at`` reads that one)
            letters = name_size(name, radius, font)
            out.append(f'<text x="{x:.1f}" y="{y + letters * 0.35:.1f}" text-anchor="middle" '
                       f'font-size="{letters:.0f}" fill="{ink}">{xml_text(name)}</text>')
        if tip:
            out.append("</g>")
    for x, y, number, colour in labels:
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{disc_radius(number):g}" '
                   f'fill="{colour}" '
                   f'stroke="white" stroke-width="1.5"/>')
        out.append(f'<text x="{x:.1f}" y="{y + 4.2:.1f}" text-anchor="middle" font-size="12" '
                   f'font-weight="bold" fill="white">{number}</text>')

    # The legend.
    y = height - legend_height / 2
    out.append(f'<g font-size="14" fill="{_INK}">')
    x = (width - legend_width) / 2
    for kind, colour, text in items:
        if kind == "ring":
            out.append(f'<circle cx="{x + 10:.1f}" cy="{y:.1f}" r="9" fill="white" '
                       f'stroke="{colour}" stroke-width="4"/>')
        elif kind == "hole":
            out.append(f'<circle cx="{x + 10:.1f}" cy="{y:.1f}" r="10" fill="{colour}"/>')
        else:
            name = ids + ("mouse-arrow" if colour == MOUSE_COLOUR else "cat-arrow")
            out.append(f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + 26:.1f}" y2="{y:.1f}" '
                       f'stroke="{colour}" stroke-width="3" marker-end="url(#{name})"/>')
        out.append(f'<text x="{x + 34:.1f}" y="{y + 5:.1f}">{xml_text(text)}</text>')
        x += 34 + 8.2 * len(text) + 22
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
