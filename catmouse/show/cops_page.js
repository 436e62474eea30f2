"use strict";
// The k-cops play page: you play the robber or the whole team of cops, the solver the other
// side perfectly.  The tables come from catmouse.show.cops_page (flat over row * n + robber,
// a row one team of "teams"): "capture" / "caught" the capture times with the cops / the
// robber to move (-1: he escapes), "copsReply" (a row) and "robberReply" (a node) the
// solver's moves, "robberStart" his best start against each team.  This script only looks
// them up, and enumerates the team's moves for the hints.
(function () {
  const $ = (id) => document.getElementById(id);
  const D = JSON.parse($("cops-data").textContent);
  const n = D.n, k = D.k, ROBBER = 0, COPS = 1, SIDE = ["robber", "cops"];
  // ms before the solver replies, so a move can be seen; "#fast" or a replay: at once
  const DELAY = /fast|moves=/.test(location.hash) ? 0 : 350;
  const rowOf = new Map(D.teams.map((t, i) => [t.join(","), i]));
  const nodes = Array.from(document.querySelectorAll("#nodes [data-node]"));
  const name = (u) => D.names[u];
  const teamOf = (nodesChosen) => rowOf.get(nodesChosen.slice().sort((a, b) => a - b).join(","));
  const teamText = (row) => D.teams[row].map(name).join(", ");
  const plural = (r) => r + (r === 1 ? " ply" : " plies");
  // A choice's outcome in words ("in 0 plies" read oddly for a capture on the spot).
  const catchWords = (r) => (r < 0 ? "the robber escapes forever"
    : r === 0 ? "the cops catch the robber at once"
    : `the cops catch the robber in ${plural(r)}`);

  let human = D.human === "cops" ? COPS : ROBBER;
  // A position [row, robber, turn]: row -1 before the cops stand, robber -1 before he does;
  // turn the side to move (or to place itself).
  let history = [];
  let pending = [];  // the human cops' destinations chosen so far this move
  let showHints = false, message = "", timer = null;

  const current = () => history[history.length - 1];
  const initial = () => (human === COPS ? [-1, -1, COPS] : [D.start, -1, ROBBER]);
  const placed = (p) => p[0] >= 0 && p[1] >= 0;
  const caught = (p) => placed(p) && D.teams[p[0]].includes(p[1]);
  const at = (row, robber) => row * n + robber;
  // Capture time with perfect play from a placed position (-1: he escapes).
  const time = (p) => (p[2] === COPS ? D.capture : D.caught)[at(p[0], p[1])];
  const played = () => history.filter(placed).length - 1;  // plies since both stood
  function phase() {
    if (caught(current())) return "over";
    return current()[2] === human ? "you" : "solver";
  }

  // The team's moves from a row, as sorted node lists: every cop along an edge or staying.
  function teamMoves(row, fixed) {
    const team = D.teams[row], out = [];
    (function grow(i, chosen) {
      if (i === k) { out.push(teamOf(chosen)); return; }
      const choices = i < fixed.length ? [fixed[i]] : D.closed[team[i]];
      for (const v of choices) grow(i + 1, chosen.concat([v]));
    })(0, []);
    return out;
  }

  // How good a capture time is for the cops: sooner is better, an escape worst.
  const copsKey = (r) => (r < 0 ? Infinity : r);

  // What each of the human's possible clicks leads to with perfect play from then on:
  // [node, capture time (-1: escape), best?], for the hints.
  function options() {
    const p = current(), out = [];
    if (phase() !== "you") return out;
    if (human === ROBBER) {
      const choices = p[1] < 0 ? [...Array(n).keys()] : D.closed[p[1]];
      for (const v of choices) out.push([v, D.capture[at(p[0], v)]]);
      // He wants an escape, else the latest capture.
      const key = (r) => (r < 0 ? Infinity : r);
      const best = Math.max(...out.map((o) => key(o[1])));
      return out.map((o) => [o[0], o[1], key(o[1]) === best]);
    }
    if (p[0] < 0) {  // placing: a start's worth is the robber's best reply to it
      for (let v = 0; v < n; v++) {
        let bestRow = -1, bestKey = null;
        D.teams.forEach((team, row) => {
          if (!holds(team, pending.concat([v]))) return;
          const r = D.capture[at(row, D.robberStart[row])];
          if (bestKey === null || copsKey(r) < bestKey) { bestKey = copsKey(r); bestRow = row; }
        });
        out.push([v, D.capture[at(bestRow, D.robberStart[bestRow])], bestKey]);
      }
    } else {
      const cop = D.teams[p[0]][pending.length];
      for (const v of D.closed[cop]) {
        let bestKey = Infinity;
        for (const row of teamMoves(p[0], pending.concat([v]))) {
          bestKey = Math.min(bestKey, copsKey(D.caught[at(row, p[1])]));
        }
        out.push([v, bestKey === Infinity ? -1 : bestKey, bestKey]);
      }
    }
    const best = Math.min(...out.map((o) => o[2]));
    return out.map((o) => [o[0], o[1], o[2] === best]);
  }

  // Whether the sorted team holds every node of "part" (a multiset).
  function holds(team, part) {
    const left = team.slice();
    for (const v of part) {
      const i = left.indexOf(v);
      if (i < 0) return false;
      left.splice(i, 1);
    }
    return true;
  }

  function statusWords() {
    const p = current();
    if (caught(p)) {
      const r = p[1], plies = played();
      if (plies === 0) return `game over: ${name(r)} holds a cop`;
      const after = ` on ${name(r)} after ${plural(plies)}`;
      if (p[2] === ROBBER) return "game over: the cops catch the robber" + after;
      return "game over: the robber walks onto a cop" + after;
    }
    if (p[0] < 0) {  // the cops have yet to stand: their best start
      const r = Math.min(...D.teams.map((_, row) =>
        copsKey(D.capture[at(row, D.robberStart[row])])));
      return r === Infinity ? `the robber escapes ${k} cop${k > 1 ? "s" : ""} from every start`
        : `the cops catch the robber wherever he starts, within ${plural(r)}`;
    }
    if (p[1] < 0) {  // the robber has yet to stand: his best start against these cops
      const r = D.capture[at(p[0], D.robberStart[p[0]])];
      return r < 0 ? "the robber escapes from his best start"
        : `the cops catch the robber wherever he starts, within ${plural(r)}`;
    }
    return catchWords(time(p));
  }

  // "a", "a and b", "a, b and c": a team's nodes, each named once, with how many share one.
  function namesWords(team) {
    const counted = new Map();
    for (const u of team) counted.set(u, (counted.get(u) || 0) + 1);
    const words = [...counted].map(([u, c]) => c > 1 ? `${name(u)} (${c} cops)` : name(u));
    return words.length < 2 ? words.join("")
      : words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
  }

  function turnWords() {
    const p = current(), now = phase();
    if (now === "over") {
      return (human === COPS) ? "You win!" : "The cops win. Undo and try another way?";
    }
    if (now === "solver") return `The ${SIDE[p[2]]} ${p[2] === COPS ? "are" : "is"} thinking...`;
    if (human === ROBBER) {
      // (the cops stand first: say where, as the cops' side is told its own choices)
      return p[1] < 0 ? `You are the robber: the cops stand on ${namesWords(D.teams[p[0]])}. ` +
        "Click a node to start there."
        : `Your move: you are the robber (on ${name(p[1])}). Click a node with a dashed ring.`;
    }
    if (p[0] < 0) {
      return `You are the cops: click a node for cop ${pending.length + 1} of ${k} ` +
        "(several may share one).";
    }
    const cop = D.teams[p[0]][pending.length];
    const sofar = pending.map((v, i) => `cop ${i + 1}: ${name(D.teams[p[0]][i])} \u2192 ` +
      name(v)).join(", ");
    return (sofar ? `Chosen: ${sofar}. ` : "") + `Your move: cop ${pending.length + 1} of ` +
      `${k} (on ${name(cop)}): click a node with a dashed ring, or Stay.`;
  }

  function render() {
    const p = current(), now = phase();
    const b = document.body.dataset;
    b.phase = now;
    b.human = SIDE[human];
    b.turn = SIDE[p[2]];
    b.team = p[0] < 0 ? "" : D.teams[p[0]].join(",");
    b.robber = String(p[1]);
    b.pending = pending.join(",");
    const counts = new Array(n).fill(0);
    if (p[0] >= 0) for (const u of D.teams[p[0]]) counts[u] += 1;
    if (p[0] < 0) for (const u of pending) counts[u] += 1;  // the cops placed so far
    const chosen = new Set(p[0] >= 0 ? pending : []);
    const moving = human === COPS && now === "you" && p[0] >= 0 ? D.teams[p[0]][pending.length]
      : -1;
    const opts = options(), legal = new Map(opts.map((o) => [o[0], o]));
    const list = $("hint-list");
    list.replaceChildren();
    list.dataset.head = human === COPS ? "After each of your choices, with perfect play:"
      : "After each of your moves, with perfect play:";
    for (const g of nodes) {
      const u = Number(g.dataset.node), badge = g.querySelector(".badge");
      g.classList.toggle("cop", counts[u] > 0);
      g.classList.toggle("shared", counts[u] > 1);
      g.querySelector(".count text").textContent = counts[u] > 1 ? "\u00d7" + counts[u] : "";
      g.classList.toggle("robber", u === p[1]);
      g.classList.toggle("legal", legal.has(u));
      g.classList.toggle("moving", u === moving);
      g.classList.toggle("chosen", chosen.has(u));
      badge.textContent = "";
      badge.setAttribute("class", "badge");
      if (showHints && legal.has(u)) {
        const [, r, best] = legal.get(u);
        const win = (r < 0) === (human === ROBBER);
        badge.textContent = (best ? "\u2605" : "") +
          (r < 0 ? "escape" : r === 0 ? "catch now" : "catch " + r);
        badge.classList.add(win ? "win" : "lose");
        const item = document.createElement("li");
        item.dataset.move = String(u);
        const stay = (human === ROBBER && u === p[1]) || u === moving;
        item.textContent = (stay ? "stay on " : "to ") + name(u) + ": " + catchWords(r) +
          (best ? " (best)" : "");
        if (best) item.className = "best";
        list.appendChild(item);
      }
    }
    document.querySelector(".status-line .label").hidden = now === "over";
    $("status").textContent = statusWords();
    $("turn").textContent = turnWords();
    $("message").textContent = message;
    drawLog();
    $("undo").disabled = !(pending.length > 0 || undoPoint() >= 0);
    $("stay").hidden = human !== COPS;
    $("stay").disabled = moving < 0;
    $("swap").textContent = "Play the " + SIDE[1 - human];
    $("hints").textContent = showHints ? "Hide hints" : "Show hints";
    $("hints").setAttribute("aria-pressed", String(showHints));
  }

  function drawLog() {
    const log = $("log");
    log.replaceChildren();
    for (let i = 1; i < history.length; i++) {
      const before = history[i - 1], now = history[i], who = before[2];
      const item = document.createElement("li");
      item.className = SIDE[who];
      if (who === COPS) {
        item.textContent = before[0] < 0 ? "cops start on " + teamText(now[0])
          : "cops " + teamText(before[0]) + " \u2192 " + teamText(now[0]);
      } else {
        item.textContent = before[1] < 0 ? "robber starts on " + name(now[1])
          : before[1] === now[1] ? "robber stays on " + name(now[1])
          : "robber " + name(before[1]) + " \u2192 " + name(now[1]);
      }
      if (who === human) item.textContent += " (you)";
      log.appendChild(item);
    }
    log.scrollTop = log.scrollHeight;
  }

  // The solver's move from the current position (the tables' reply, as best_moves()[0]).
  function reply() {
    const p = current();
    if (p[2] === ROBBER) {
      const r = p[1] < 0 ? D.robberStart[p[0]] : D.robberReply[at(p[0], p[1])];
      history.push([p[0], r, COPS]);
    } else {
      history.push([D.copsReply[at(p[0], p[1])], p[1], ROBBER]);
    }
  }

  function schedule() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    if (DELAY === 0) {
      while (phase() === "solver") reply();
      render();
      return;
    }
    if (phase() !== "solver") return;
    timer = setTimeout(() => {
      timer = null;
      if (phase() !== "solver") return;
      reply();
      render();
      schedule();
    }, DELAY);
  }

  function moved(position) {
    history.push(position);
    pending = [];
    message = "";
    render();
    schedule();
  }

  function click(u) {
    if (phase() !== "you") return;
    const p = current();
    if (human === ROBBER) {
      if (p[1] >= 0 && !D.closed[p[1]].includes(u)) {
        message = `${name(u)} is not next to ${name(p[1])}: the robber moves along an edge ` +
          "or stays.";
        render();
        return;
      }
      moved([p[0], u, COPS]);
      return;
    }
    if (p[0] >= 0) {
      const cop = D.teams[p[0]][pending.length];
      if (!D.closed[cop].includes(u)) {
        message = `Cop ${pending.length + 1} cannot go from ${name(cop)} to ${name(u)}: its ` +
          "moves are " + D.closed[cop].map(name).join(", ") + ".";
        render();
        return;
      }
    }
    pending.push(u);
    message = "";
    if (pending.length < k) { render(); return; }
    const row = teamOf(pending);
    moved(p[0] < 0 ? [row, -1, ROBBER] : [row, p[1], ROBBER]);
  }

  function undoPoint() {
    for (let i = history.length - 2; i >= 0; i--) if (history[i][2] === human) return i;
    return -1;
  }

  function restart() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    history = [initial()];
    pending = [];
    message = "";
    render();
    schedule();
  }

  for (const g of nodes) {
    g.addEventListener("click", () => click(Number(g.dataset.node)));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); click(Number(g.dataset.node)); }
    });
  }
  $("stay").addEventListener("click", () => {
    const p = current();
    if (human === COPS && phase() === "you" && p[0] >= 0) click(D.teams[p[0]][pending.length]);
  });
  $("hints").addEventListener("click", () => { showHints = !showHints; render(); });
  $("undo").addEventListener("click", () => {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    if (pending.length > 0) {
      pending.pop();
    } else {
      const i = undoPoint();
      if (i < 0) return;
      history = history.slice(0, i + 1);
    }
    message = "";
    render();
    schedule();
  });
  $("restart").addEventListener("click", restart);
  $("swap").addEventListener("click", () => { human = 1 - human; restart(); });
  restart();
  // "#moves=7,2,2" replays clicks: a shared link shows a game, and the tests use it.
  const replay = /moves=([0-9,]+)/.exec(location.hash);
  if (replay) replay[1].split(",").filter(Boolean).forEach((w) => click(Number(w)));
})();
