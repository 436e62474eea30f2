"""``catmouse play --html``: one self-contained page to play against the solver.

The page carries the solved table (outcome and remoteness of every position),
the board drawn as SVG and a small script: no network, no server.  Click a node
to move; the script replies with the solver's move, chosen exactly as
:meth:`Analysis.best_moves` and :class:`catmouse.show.play.Match` choose it (the
smallest of the best moves), and shows the outcome under perfect play in the
element ``#status``.
"""

from __future__ import annotations

import json
import math
import re
from html import escape

from ..outcome import Turn
from .draw import LEGIBLE_NODES, Setup
from .svg import CAT_COLOUR, MOUSE_COLOUR, layout

__all__ = ["page_html"]

# Past this many nodes, hint badges are short ("W12"): long ones would cover the neighbours.
_SHORT_BADGES = 30


def page_html(setup: Setup, mouse: int, cat: int, human: Turn, *, title: str = "") -> str:
    """The page's HTML text, for ``human`` playing from the mouse on ``mouse``, the cat on ``cat``.

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
        "mouseAdj": [list(row) for row in rules.mouse_graph._rows()],
        "catAdj": [list(row) for row in rules.cat_graph._rows()],
        "holes": list(setup.holes),
        "goals": list(setup.goals),
        "forbidden": list(setup.forbidden),
        "draw": int(rules.draw),
        "outcomes": "".join(map(str, analysis.outcomes.cast("B").tolist())),
        "remoteness": analysis.remoteness_table.cast("B").cast("i").tolist(),
        "mouse": int(mouse),
        "cat": int(cat),
        "first": int(first),
        "human": int(human),
    }
    # "</" inside a script element would end it early.
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    heading = f"Cat and Mouse{': ' + title if title else ''}"
    parts = {
        "TITLE": escape(heading), "BOARD": _board_svg(setup), "DATA": payload,
        "MOUSE": MOUSE_COLOUR, "CAT": CAT_COLOUR, "RULES": escape(_rules_words(setup)),
        "SCRIPT": _SCRIPT,
    }
    # One pass, so a title that happens to contain "%DATA%" stays text.
    return re.sub(r"%([A-Z]+)%", lambda m: parts[m.group(1)], _PAGE)


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
    radius = max(13.0, min(26.0, 200.0 / math.sqrt(max(n, 1))))
    # Crowded boards spread out, so neighbours' circles and badges stay apart.
    size = max(600.0, 70.0 * math.sqrt(max(n, 1)))
    small = max(11.0, min(17.0, radius * 0.8))  # badges and the players' names
    short = n > _SHORT_BADGES
    pad = radius + 40.0  # room for the rings and the hint badges
    xs, ys = [p[0] for p in points] or [0.5], [p[1] for p in points] or [0.5]
    width = size * (max(xs) - min(xs)) + 2 * pad
    height = size * (max(ys) - min(ys)) + 2 * pad

    def at(node: int) -> tuple[float, float]:
        x, y = points[node]
        return pad + (x - min(xs)) * size, pad + (max(ys) - y) * size

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
        out.append(
            f'<g class="node{kind}" data-node="{u}" data-x="{x:.1f}" data-y="{y:.1f}" '
            f'tabindex="0" role="button" aria-label="node {u}">'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}"/>'
            f'<text x="{x:.1f}" y="{y + font * 0.35:.1f}" font-size="{font:.0f}">{u}</text>'
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


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%TITLE%</title>
<style>
:root { --mouse: %MOUSE%; --cat: %CAT%; --ink: #22272e; --soft: #5b6570; }
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       color: var(--ink); background: #f6f7f9; }
header { padding: 12px 16px 0; }
h1 { font-size: 1.3rem; margin: 0; }
main { display: flex; flex-wrap: wrap; gap: 16px; padding: 12px 16px; align-items: flex-start; }
#board-box { flex: 1 1 460px; min-width: 260px; background: white; border-radius: 10px;
             box-shadow: 0 1px 3px rgba(0,0,0,.12); }
#board { display: block; width: 100%; height: auto; max-height: 82vh; touch-action: manipulation; }
#panel { flex: 1 1 280px; max-width: 460px; }
.status-line { margin: 0 0 6px; } .status-line .label { display: block; color: var(--soft); }
.status-line .label[hidden] { display: none; }
#status { font-size: 1.25rem; font-weight: 600; }
#turn { margin: 0 0 10px; color: var(--soft); min-height: 1.4em; }
#message { color: #b3261e; min-height: 1.4em; margin: 0 0 8px; }
.buttons { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 12px; }
button { font: inherit; padding: 9px 14px; min-height: 44px; border-radius: 8px; cursor: pointer;
         border: 1px solid #c3c9d0; background: white; }
button:hover:not(:disabled) { background: #eef1f4; }
button:disabled { opacity: .45; cursor: default; }
button[aria-pressed="true"] { background: #dfe9f7; border-color: var(--mouse); }
#hint-list { margin: 0 0 12px; padding: 0; list-style: none; }
#hint-list::before { content: "After each of your moves, with perfect play:"; display: block;
                     color: var(--soft); }
#hint-list li { padding-left: 1.2em; }
#hint-list li.best::before { content: "\\2605"; margin-left: -1.2em; width: 1.2em;
                             display: inline-block; color: #1b7a2f; }
#hint-list:empty { display: none; }
#hint-list li.best { font-weight: 600; }
#log { margin: 0; padding-left: 2.2em; max-height: 40vh; overflow-y: auto; color: var(--soft); }
#log .mouse { color: var(--mouse); } #log .cat { color: var(--cat); }
.legend { color: var(--soft); font-size: .9rem; }
#edges line { stroke: #b8bec6; stroke-width: 2; }
.node circle { fill: white; stroke: var(--ink); stroke-width: 1.5; }
.node text { text-anchor: middle; fill: var(--ink); pointer-events: none; user-select: none; }
.node.hole circle { fill: #2d333b; } .node.hole text { fill: white; }
.node.goal circle { fill: #f7c9b4; }
.node.legal { cursor: pointer; }
.node.legal circle { fill: #e3f4e7; stroke: #2e7d32; stroke-width: 3; stroke-dasharray: 5 3; }
.node.legal:hover circle, .node.legal:focus circle { fill: #c8e9cf; }
.node .badge { font-weight: 700; }
.node text.badge.win { fill: #1b7a2f; } .node text.badge.lose { fill: #b3261e; }
.node text.badge.draw { fill: #5b6570; }
.token { pointer-events: none; transition: transform .3s ease; }
.token circle { fill: none; stroke-width: 5; }
.token text { text-anchor: middle; font-weight: 700; }
.token.mouse circle { stroke: var(--mouse); } .token.mouse text { fill: var(--mouse); }
.token.cat circle { stroke: var(--cat); } .token.cat text { fill: var(--cat); }
#trail path { fill: none; stroke-width: 3; stroke-linecap: round; opacity: .75; }
@media (max-width: 640px) {
  main { padding: 8px; gap: 10px; } header { padding: 8px 8px 0; }
  #panel { max-width: none; } #status { font-size: 1.1rem; }
}
</style>
</head>
<body data-phase="loading">
<header><h1>%TITLE%</h1></header>
<main>
<div id="board-box">
%BOARD%
</div>
<div id="panel">
<p class="status-line"><span class="label">With perfect play from here:</span>
<span id="status" aria-live="polite"></span></p>
<p id="turn"></p>
<p id="message" role="alert"></p>
<div class="buttons">
<button id="hints" type="button" aria-pressed="false">Show hints</button>
<button id="undo" type="button">Undo</button>
<button id="restart" type="button">Restart</button>
<button id="swap" type="button">Play the cat</button>
</div>
<ul id="hint-list"></ul>
<ol id="log"></ol>
<p class="legend">%RULES%</p>
</div>
</main>
<script id="catmouse-data" type="application/json">%DATA%</script>
<script>
%SCRIPT%
</script>
</body>
</html>
"""

_SCRIPT = r"""
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("catmouse-data").textContent);
  const n = D.n, MOUSE = 0, CAT = 1, DRAW = 0, MOUSE_WIN = 1, CAT_WIN = 2;
  const NAME = ["mouse", "cat"];
  const WINNER = {1: "the mouse", 2: "the cat"};
  const holes = new Set(D.holes), goals = new Set(D.goals), forbidden = new Set(D.forbidden);
  // ms before the solver replies, so a move can be seen ("#fast" in the address: at once)
  const DELAY = /fast/.test(location.hash) ? 0 : 350;
  const $ = (id) => document.getElementById(id);
  const nodes = Array.from(document.querySelectorAll("#nodes [data-node]"));
  const where = nodes.map((g) => [parseFloat(g.dataset.x), parseFloat(g.dataset.y)]);
  // Crowded boards get short hint badges (W12 for "win in 12"), the hint list says it in full.
  const SHORT = document.getElementById("board").dataset.short === "1";
  let human = D.human;
  let history = [[D.mouse, D.cat, D.first]];
  let showHints = false;
  let timer = null;
  let message = "";

  const index = (p) => (p[2] * n + p[0]) * n + p[1];
  function value(p) {
    const i = index(p), r = D.remoteness[i];
    return [Number(D.outcomes[i]), r < 0 ? null : r];
  }
  const byNumber = (a, b) => a - b;
  function legal(p) {
    if (p[2] === MOUSE) return D.mouseAdj[p[0]].slice().sort(byNumber);
    return D.catAdj[p[1]].filter((v) => !forbidden.has(v)).sort(byNumber);
  }
  const after = (p, d) => (p[2] === MOUSE ? [d, p[1], CAT] : [p[0], d, MOUSE]);
  const same = (p, q) => p[0] === q[0] && p[1] === q[1] && p[2] === q[2];
  const current = () => history[history.length - 1];
  const plies = (k) => k + (k === 1 ? " move" : " moves");

  function outcomeWords(o, r) {
    if (o === DRAW) return "a draw: neither side can force a win";
    if (r === null) return WINNER[o] + " wins: the game never ends, which counts as its win";
    if (r === 0) return WINNER[o] + " wins at once";
    return WINNER[o] + " wins in " + plies(r);
  }
  const verdict = (o) => ({0: "A draw.", 1: "The mouse wins.", 2: "The cat wins."})[o];

  // null while the game goes on, else [outcome, how it ended]: as catmouse.show.play.Match.result.
  function result() {
    const p = current(), [m, c, t] = p;
    if (m === c) return [CAT_WIN, "the cat catches the mouse on node " + m];
    if (holes.has(m)) return [MOUSE_WIN, "the mouse reaches the hole (node " + m + ")"];
    if (goals.has(c)) return [CAT_WIN, "the cat reaches its goal (node " + c + ")"];
    if (legal(p).length === 0) {
      return [t === MOUSE ? CAT_WIN : MOUSE_WIN, "the " + NAME[t] + " cannot move, and loses"];
    }
    if (history.slice(0, -1).some((q) => same(p, q))) {
      if (D.draw === DRAW) return [DRAW, "a position repeats: a draw"];
      const whose = D.draw === MOUSE_WIN ? "the mouse's win" : "the cat's win";
      return [D.draw, "a position repeats: the game would go on forever, which counts as " +
              whose];
    }
    return null;
  }

  // The mover's optimal moves, ranked as Analysis.best_moves ranks them.
  function bestMoves(p) {
    const win = p[2] === MOUSE ? MOUSE_WIN : CAT_WIN;
    let best = [], bestKey = null;
    const compare = (a, b) =>
      (a[0] !== b[0] ? a[0] - b[0] : a[1] === b[1] ? 0 : a[1] > b[1] ? 1 : -1);
    for (const d of legal(p)) {
      const [o, r] = value(after(p, d));
      let key;
      if (o === DRAW) key = [1, 0];
      else if (o === win) key = [2, r === null ? -Infinity : -r];
      else key = [0, r === null ? Infinity : r];
      const order = bestKey === null ? 1 : compare(key, bestKey);
      if (order > 0) { best = [d]; bestKey = key; } else if (order === 0) best.push(d);
    }
    return best;
  }

  function phase() {
    if (result() !== null) return "over";
    return current()[2] === human ? "you" : "solver";
  }

  function svgEl(tag, attrs) {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const k in attrs) el.setAttribute(k, attrs[k]);
    return el;
  }

  function drawTrail() {
    const trail = $("trail");
    trail.replaceChildren();
    // The last move of each player, as an arrow-less curve in the player's colour.
    for (let k = history.length - 1; k >= 1 && k >= history.length - 2; k--) {
      const before = history[k - 1], now = history[k], who = before[2];
      const a = where[before[who === MOUSE ? 0 : 1]], b = where[now[who === MOUSE ? 0 : 1]];
      const mx = (a[0] + b[0]) / 2 + (b[1] - a[1]) * 0.12 * (who === MOUSE ? 1 : -1);
      const my = (a[1] + b[1]) / 2 - (b[0] - a[0]) * 0.12 * (who === MOUSE ? 1 : -1);
      trail.appendChild(svgEl("path", {
        d: "M" + a[0] + "," + a[1] + " Q" + mx + "," + my + " " + b[0] + "," + b[1],
        stroke: who === MOUSE ? "var(--mouse)" : "var(--cat)",
      }));
    }
  }

  function render() {
    const p = current(), [m, c, t] = p, ended = result(), now = phase();
    document.body.dataset.phase = now;
    // The position, for scripts and tests that drive the page.
    document.body.dataset.mouse = String(m);
    document.body.dataset.cat = String(c);
    document.body.dataset.turn = NAME[t];
    document.body.dataset.human = NAME[human];
    $("mouse-token").style.transform = "translate(" + where[m][0] + "px," + where[m][1] + "px)";
    $("cat-token").style.transform = "translate(" + where[c][0] + "px," + where[c][1] + "px)";
    drawTrail();
    const moves = now === "you" ? legal(p) : [];
    const best = new Set(now === "you" ? bestMoves(p) : []);
    const win = human === MOUSE ? MOUSE_WIN : CAT_WIN;
    const list = $("hint-list");
    list.replaceChildren();
    for (const g of nodes) {
      const u = Number(g.dataset.node), badge = g.querySelector(".badge");
      const isLegal = moves.includes(u);
      g.classList.toggle("legal", isLegal);
      badge.textContent = "";
      badge.setAttribute("class", "badge");
      g.removeAttribute("data-hint");
      if (isLegal && showHints) {
        const [o, r] = value(after(p, u));
        const tag = o === DRAW ? "draw" : o === win ? "win" : "lose";
        const star = best.has(u) ? "\u2605" : "";
        if (SHORT) {  // a crowded board: W12, L3, D
          badge.textContent = star + tag[0].toUpperCase() + (r === null ? "" : r);
        } else {
          badge.textContent = (star ? star + " " : "") + tag +
            (r === null ? "" : r === 0 ? " now" : " in " + r);
        }
        badge.classList.add(tag);
        g.dataset.hint = outcomeWords(o, r);
        const item = document.createElement("li");
        item.dataset.move = String(u);
        const here = p[human === MOUSE ? 0 : 1];
        item.textContent = (u === here ? "stay on " : "to ") + u + ": " + outcomeWords(o, r) +
          (best.has(u) ? " (best)" : "");
        if (best.has(u)) item.className = "best";
        list.appendChild(item);
      }
    }
    document.querySelector(".status-line .label").hidden = ended !== null;
    // The two names would overprint when the cat catches the mouse: the cat's goes below.
    const catName = $("cat-token").querySelector("text");
    catName.setAttribute("y", String(m === c ? -Number(catName.dataset.above) + 14
                                             : Number(catName.dataset.above)));
    if (ended !== null) {
      $("status").textContent = "game over: " + ended[1] + ". " + verdict(ended[0]);
      const youWin = ended[0] === win, draw = ended[0] === DRAW;
      $("turn").textContent = draw ? "Nobody wins." : youWin ? "You win!" :
        "The " + NAME[1 - human] + " wins. Undo and try another way?";
    } else {
      const [o, r] = value(p);
      $("status").textContent = outcomeWords(o, r);
      $("turn").textContent = now === "you"
        ? "Your move: you are the " + NAME[human] + " (on " + p[human === MOUSE ? 0 : 1] +
          "). Click a node with a dashed ring."
        : "The " + NAME[t] + " is thinking...";
    }
    $("message").textContent = message;
    const log = $("log");
    log.replaceChildren();
    for (let k = 1; k < history.length; k++) {
      const before = history[k - 1], who = before[2], item = document.createElement("li");
      const from = before[who === MOUSE ? 0 : 1], to = history[k][who === MOUSE ? 0 : 1];
      item.className = NAME[who];
      const step = from === to ? " stays on " + to : " " + from + " \u2192 " + to;
      item.textContent = NAME[who] + step + (who === human ? " (you)" : "");
      log.appendChild(item);
    }
    log.scrollTop = log.scrollHeight;
    $("undo").disabled = !canUndo();
    $("swap").textContent = "Play the " + NAME[1 - human];
    $("hints").textContent = showHints ? "Hide hints" : "Show hints";
    $("hints").setAttribute("aria-pressed", String(showHints));
  }

  function schedule() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    if (phase() !== "solver") return;
    timer = setTimeout(() => {
      timer = null;
      if (phase() !== "solver") return;
      const p = current();
      history.push(after(p, bestMoves(p)[0]));
      render();
      schedule();
    }, DELAY);
  }

  function undoPoint() {
    for (let k = history.length - 2; k >= 0; k--) if (history[k][2] === human) return k;
    return -1;
  }
  const canUndo = () => undoPoint() >= 0;

  function move(u) {
    if (phase() !== "you") return;
    const p = current(), moves = legal(p);
    if (!moves.includes(u)) {
      const at = p[human === MOUSE ? 0 : 1];
      message = "The " + NAME[human] + " cannot go from " + at + " to " + u + ": its moves are " +
        moves.join(", ") + ".";
      render();
      return;
    }
    message = "";
    history.push(after(p, u));
    render();
    schedule();
  }

  for (const g of nodes) {
    g.addEventListener("click", () => move(Number(g.dataset.node)));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); move(Number(g.dataset.node)); }
    });
  }
  $("hints").addEventListener("click", () => { showHints = !showHints; render(); });
  $("undo").addEventListener("click", () => {
    const k = undoPoint();
    if (k < 0) return;
    history = history.slice(0, k + 1);
    message = "";
    render();
    schedule();
  });
  function restart() {
    history = history.slice(0, 1);
    message = "";
    render();
    schedule();
  }
  $("restart").addEventListener("click", restart);
  $("swap").addEventListener("click", () => { human = 1 - human; restart(); });
  render();
  schedule();
})();
"""
