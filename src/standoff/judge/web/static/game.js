/* The game page: polls the game (phase, deadline, who submitted and who is
   ready: never anyone's orders), reloads the map, legal orders, own orders and
   last results when the phase moves, runs the countdown, the ready and draw
   toggles and the master's buttons. Giving orders is orders.js (OrderPad: menus
   from GET .../legal/options), its pure walk through the options logic.js; who
   plays each seat (bots, leave, take-over, the master's seat actions) is
   seats.js (SeatDesk). While the phase waits for bots alone it asks every
   second (bots order within a second), else every 8 s. */
"use strict";

const GAME = JSON.parse(document.getElementById("game-data").textContent);
let current = null;
let pad = null;
let press = null;
let map = null;
let seats = null;

function powerName(p) { return GAME.names[p] || p; }

function renderPowers(g) {
  const t = document.getElementById("powers");
  t.replaceChildren(el("tr", {}, el("th", {}, "Power"), el("th", {}, "Player"),
    el("th", {}, "Orders"), el("th", {}, "Ready"), el("th", {}, "NMR")));
  for (const [p, s] of Object.entries(g.powers)) {
    const orders = !s.to_order ? "–" : s.submitted ? "✓ sent" : "…";
    t.append(el("tr", {"data-testid": "power-" + p, "data-power": p,
      "data-submitted": s.submitted ? "1" : "0", "data-ready": s.ready ? "1" : "0",
      "data-to-order": s.to_order ? "1" : "0"},
      el("td", {}, powerName(p) + (p === GAME.power ? " (you)" : "")),
      seats.playerCell(p, s, g),
      el("td", {}, orders), el("td", {}, s.ready ? "✓" : ""), el("td", {}, String(s.nmr))));
  }
}

function outcomeText(o) { return StandoffLogic.outcomeText(o, GAME.names); }

function tick() {
  const box = document.getElementById("countdown");
  if (!current) return;
  if (current.status !== "active") box.textContent = current.status === "forming"
    ? "waiting for players" : "game over";
  else if (current.paused) box.textContent = "paused";
  else box.textContent = current.deadline ? untilText(current.deadline) + " left" : "";
}

async function loadMap() {
  const res = await fetch(`/api/v1/games/${GAME.id}/map.svg`, {credentials: "same-origin"});
  if (res.ok) map.load(await res.text());
  if (pad) pad.highlight();
}

async function loadResults(g) {
  if (!g.turn) return;
  const phases = await api("GET", `/games/${GAME.id}/phases?since=${g.turn - 1}`);
  const last = phases[phases.length - 1];
  if (!last) return;
  document.getElementById("results-phase").textContent = last.phase;
  const lines = last.report_text || Object.entries(last.orders)
    .map(([p, os]) => powerName(p) + ": " + os.join("; ")).join("\n");
  document.getElementById("results").textContent = lines;
}

/* the game again, now; the next look is scheduled after it (every change the page
   makes ends here, so a ready click moves the next look up to a second away when
   the phase then waits for bots alone) */
async function refresh() {
  try { await update(); } finally { schedule(); }
}

let pollTimer = null;
function schedule() {
  clearTimeout(pollTimer);
  pollTimer = setTimeout(refresh, StandoffLogic.waitsForBots(current) ? 1000 : 8000);
}

async function update() {
  let g;
  try { g = await api("GET", "/games/" + GAME.id); } catch (e) { return; }
  if ((g.your_power || null) !== (GAME.power || null)) {  // a seat taken, or opened by the master
    location.reload();
    return;
  }
  const moved = !current || current.turn !== g.turn || current.status !== g.status;
  current = g;
  document.getElementById("game-phase").textContent = g.phase;
  document.getElementById("game-status").textContent = g.status + (g.paused ? " (paused)" : "") +
    outcomeText(g.outcome);
  renderPowers(g);
  renderJoin(g);
  renderSetAside(g);
  seats.render(g);
  tick();
  const me = GAME.power ? g.powers[GAME.power] : null;
  const ready = document.getElementById("ready-toggle");
  if (ready && me) {
    ready.classList.toggle("on", me.ready);
    ready.setAttribute("aria-pressed", me.ready ? "true" : "false");
    ready.textContent = me.ready ? "Ready ✓ (click to undo)" : "I'm ready";
    ready.disabled = g.status !== "active";
  }
  if (moved) {
    await loadMap();
    if (pad && g.status === "active") await pad.load();
    await loadResults(g).catch(() => {});
  }
  if (press) press.refresh();
}

/* a phase that failed to process: everyone sees that it waits; the master sees why
   and may retry it */
function renderSetAside(g) {
  const box = document.getElementById("set-aside");
  box.hidden = !g.set_aside;
  box.textContent = g.set_aside
    ? "Processing this phase failed: the game waits until its master retries it." +
      (g.failure ? " The error: " + g.failure : "")
    : "";
  const retry = document.getElementById("master-retry");
  if (retry) retry.hidden = !g.set_aside;
  const cancel = document.getElementById("master-cancel");
  if (cancel) cancel.hidden = g.status !== "forming";
}

/* the seats still free, as buttons (a friend sent the game's address) */
function renderJoin(g) {
  const box = document.getElementById("join-powers");
  if (!box) return;
  box.replaceChildren();
  for (const [p, s] of Object.entries(g.powers)) {
    box.append(el("button", {type: "button", class: "small", "data-testid": "join-" + p,
      disabled: Boolean(s.player || s.bot), onclick: async () => {
        const body = {power: p};
        try {
          await api("POST", `/games/${GAME.id}/seats`, body);
          location.reload();
        } catch (e) { showError("join-error", e); }
      }}, powerName(p)));
  }
}

async function master(action) {
  showError("master-error", null);
  if (action === "cancel" && !window.confirm("Cancel this game for everyone who joined?")) return;
  const body = action === "extend"
    ? {seconds: Math.round(Number(document.getElementById("extend-minutes").value) * 60)} : undefined;
  try { await api("POST", `/games/${GAME.id}/master/${action}`, body); } catch (e) { showError("master-error", e); }
  await refresh();
}

document.addEventListener("DOMContentLoaded", () => {
  map = new MapView(document.getElementById("map"), (loc) => { if (pad) pad.pick(loc); });
  document.getElementById("zoom-in").addEventListener("click", () => map.zoomAt(1 / 1.5));
  document.getElementById("zoom-out").addEventListener("click", () => map.zoomAt(1.5));
  document.getElementById("zoom-reset").addEventListener("click", () => map.reset());
  if (GAME.power) {
    pad = new OrderPad({id: GAME.id, onOrders: refresh}, map);
    document.getElementById("ready-toggle").addEventListener("click", async () => {
      const me = current && current.powers[GAME.power];
      try { await api("POST", `/games/${GAME.id}/ready`, {ready: !(me && me.ready)}); } catch (e) { showError("order-error", e); }
      await refresh();
    });
    const draw = document.getElementById("draw-toggle");
    api("GET", `/games/${GAME.id}/vote`).then((v) => {
      draw.dataset.on = v.draw ? "1" : "0";
      draw.textContent = v.draw ? "Draw voted ✓" : "Vote draw";
    }).catch(() => {});
    draw.addEventListener("click", async () => {
      const on = draw.dataset.on !== "1";
      try {
        await api("PUT", `/games/${GAME.id}/vote`, {draw: on});
        draw.dataset.on = on ? "1" : "0";
        draw.textContent = on ? "Draw voted ✓" : "Vote draw";
      } catch (e) { showError("order-error", e); }
    });
  }
  press = new Press(GAME);
  seats = new SeatDesk(GAME, refresh);
  for (const b of document.querySelectorAll("[data-master]")) {
    b.addEventListener("click", () => master(b.dataset.master));
  }
  setInterval(tick, 1000);
  refresh();
});
