"use strict";
(function () {
  const D = JSON.parse(document.getElementById("catmouse-data").textContent);
  const n = D.n, MOUSE = 0, CAT = 1, DRAW = 0, MOUSE_WIN = 1, CAT_WIN = 2;
  // The game's words, from catmouse/show/words.py (page_table): one source for every front end.
  const W = JSON.parse(document.getElementById("catmouse-words").textContent);
  const NAME = W.player;
  // Nodes are ids inside the page and names (the graph's labels) wherever a player reads one.
  const label = (u) => D.names[u];
  const fill = (template, fields) => template.replace(/\{(\w+)\}/g, (_, k) => String(fields[k]));
  const ending = (kind, fields) => fill(W.endings[kind], fields || {});
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
  const plies = (k) => k + " " + W.move[k === 1 ? 0 : 1];

  function outcomeWords(o, r) {
    if (o === DRAW) return W.values["draw"];
    if (r === null) return fill(W.values["never ends"], {winner: W.winner[o]});
    if (r === 0) return fill(W.values["at once"], {winner: W.winner[o]});
    return fill(W.values["in"], {winner: W.winner[o], moves: plies(r)});
  }
  const verdict = (o) => W.verdict[o];

  // null while the game goes on, else [outcome, how it ended]: as catmouse.show.play.Match.result.
  function result() {
    const p = current(), [m, c, t] = p;
    if (m === c) return [CAT_WIN, ending("caught", {node: label(m)})];
    if (holes.has(m)) return [MOUSE_WIN, ending("hole", {node: label(m)})];
    if (goals.has(c)) return [CAT_WIN, ending("goal", {node: label(c)})];
    if (legal(p).length === 0) {
      return [t === MOUSE ? CAT_WIN : MOUSE_WIN, ending("stuck", {player: NAME[t]})];
    }
    if (history.slice(0, -1).some((q) => same(p, q))) {
      if (D.draw === DRAW) return [DRAW, ending("repeat draw")];
      return [D.draw, ending("repeat win", {whose: W.whose[D.draw]})];
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
        item.textContent = (u === here ? "stay on " : "to ") + label(u) + ": " + outcomeWords(o, r) +
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
        ? "Your move: you are the " + NAME[human] + " (on " + label(p[human === MOUSE ? 0 : 1]) +
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
      const step = from === to ? " stays on " + label(to)
        : " " + label(from) + " \u2192 " + label(to);
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
      message = "The " + NAME[human] + " cannot go from " + label(at) + " to " + label(u) +
        ": its moves are " + moves.map(label).join(", ") + ".";
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
