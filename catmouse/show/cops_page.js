"use strict";
// The k-cops play page: you are the robber, the cops play perfectly.  The tables come from
// catmouse.show.cops_page: "best" is the cops' reply (a team row) to each (row, robber),
// "remoteness" the capture time with the robber to move (-1: he escapes).
(function () {
  const data = JSON.parse(document.getElementById("cops-data").textContent);
  const n = data.n;
  let team = data.start;
  let robber = -1;
  let plies = 0;
  let over = false;
  const status = document.getElementById("status");
  const nodes = Array.from(document.querySelectorAll("#nodes [data-node]"));

  function say(text) { status.textContent = text; }
  function caught() { return data.teams[team].includes(robber); }
  function cops() { return data.teams[team].map((u) => data.names[u]).join(", "); }

  function draw() {
    const counts = new Array(n).fill(0);
    for (const u of data.teams[team]) counts[u] += 1;
    for (const g of nodes) {
      const u = Number(g.dataset.node);
      g.classList.toggle("cop", counts[u] > 0);
      g.classList.toggle("robber", u === robber);
      g.querySelector(".count").textContent = counts[u] > 1 ? "\u00d7" + counts[u] : "";
    }
  }

  function end(text) { over = true; draw(); say(text); }

  function copsMove() {
    team = data.best[team * n + robber];
    plies += 1;
    if (caught()) {
      end(`game over: the cops catch the robber on ${data.names[robber]} after ${plies} plies`);
      return;
    }
    draw();
    const left = data.remoteness[team * n + robber];
    const verdict = left < 0 ? "you escape forever with perfect play"
      : `with perfect play the cops catch you in ${left} ${left === 1 ? "ply" : "plies"}`;
    say(`the cops move to ${cops()}; your move (a node next to ` +
        `${data.names[robber]}, or it to stay): ${verdict}`);
  }

  function click(u) {
    if (over) { return; }
    if (robber < 0) {
      robber = u;
      if (caught()) { end(`game over: ${data.names[u]} holds a cop`); return; }
      copsMove();
      return;
    }
    if (!data.closed[robber].includes(u)) {
      say(`${data.names[u]} is not next to ${data.names[robber]}: pick another node`);
      return;
    }
    robber = u;
    plies += 1;
    if (caught()) {
      end(`game over: you walk onto a cop on ${data.names[u]} after ${plies} plies`);
      return;
    }
    copsMove();
  }

  nodes.forEach((g) => g.addEventListener("click", () => click(Number(g.dataset.node))));
  draw();
  say(`the cops start on ${cops()}: click a node to place the robber`);
  // "#moves=7,2,2" replays clicks: a shared link shows a game, and the tests use it.
  const replay = /#moves=([0-9,]+)/.exec(window.location.hash);
  if (replay) { replay[1].split(",").forEach((w) => click(Number(w))); }
})();
