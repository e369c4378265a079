/* The game page: follows the game through its event stream (GET .../events:
   server-sent events with the session cookie; the phase, the clock, who has
   submitted and who is ready, never anyone's orders) and falls back to a slow
   look every 30 s only while the stream is down. When the phase moves it
   reloads the map, the legal orders, the player's own orders and the last
   results. It says what the phase asks of the player (play.js), draws their
   pending orders on the map (overlay.js), shows "now" or "last turn" on the
   map, asks before "Process now" and before "I'm ready" with units unordered.
   Giving orders is orders.js (OrderPad), seats are seats.js (SeatDesk). */
"use strict";

const GAME = JSON.parse(document.getElementById("game-data").textContent);
let current = null;
let pad = null;
let press = null;
let map = null;
let seats = null;
let overlay = null;
let lastPhase = null;   // the last processed phase ({phase, ...} of GET .../phases)
let showing = "now";    // the map shows "now" or "last" (the last turn's orders and results)
let asks = null;        // StandoffPlay.prompt's answer for the player
const BASE_TITLE = document.title;

function powerName(p) { return GAME.names[p] || p; }

function renderPowers(g) {
  const t = document.getElementById("powers");
  t.replaceChildren(el("tr", {}, el("th", {}, "Power"), el("th", {}, "Player"),
    el("th", {}, "Orders"), el("th", {}, "Ready"), el("th", {title: "phases with no orders sent"}, "NMR")));
  for (const [p, s] of Object.entries(g.powers)) {
    const orders = !s.to_order ? "–" : s.submitted ? "✓ sent" : "…";
    t.append(el("tr", {"data-testid": "power-" + p, "data-power": p,
      "data-submitted": s.submitted ? "1" : "0", "data-ready": s.ready ? "1" : "0",
      "data-to-order": s.to_order ? "1" : "0"},
      el("td", {}, powerName(p) + (p === GAME.power ? " (you)" : "")),
      seats.playerCell(p, s, g),
      el("td", {class: "nowrap"}, orders), el("td", {}, s.ready ? "✓" : ""), el("td", {}, String(s.nmr))));
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
  document.getElementById("deadline-local").textContent = StandoffPlay.deadlineLine(current);
}

/* the map of "now" or of the last turn; an answer overtaken by a later request (a
   phase processed while the toggle is pressed) is dropped, so the map never shows
   another phase than the panel */
let mapAsked = 0;
async function loadMap() {
  const asked = ++mapAsked;
  const phase = showing === "last" && lastPhase ? `?phase=${encodeURIComponent(lastPhase.phase)}&orders=1` : "";
  const res = await fetch(`/api/v1/games/${GAME.id}/map.svg${phase}`, {credentials: "same-origin"});
  const text = res.ok ? await res.text() : null;
  if (asked !== mapAsked) return;
  if (text !== null) map.load(text);
  document.getElementById("map").dataset.showing = showing;
  if (pad && showing === "now") pad.highlight();
  drawPending();
}

async function loadResults(g) {
  if (!g.turn) return;
  const phases = await api("GET", `/games/${GAME.id}/phases?since=${g.turn - 1}`);
  const last = phases[phases.length - 1];
  if (!last) return;
  lastPhase = last;
  document.getElementById("results-phase").textContent = last.phase;
  document.getElementById("map-last").disabled = false;
  const lines = last.report_text || Object.entries(last.orders)
    .map(([p, os]) => powerName(p) + ": " + os.join("; ")).join("\n");
  const missed = (last.missed || []).map((p) => powerName(p) + ": NMR (no orders, units held)");
  document.getElementById("results").textContent = [lines, ...missed].filter(Boolean).join("\n");
}

/* the player's pending orders on the map, and rings on the units still to order */
function drawPending() {
  if (!overlay || !pad) return;
  if (showing !== "now") { overlay.draw([], []); return; }
  overlay.draw(pad.drawable(), asks ? asks.todo : []);
}

/* what the phase asks of the player, above their order controls */
function renderPrompt(described, table) {
  if (!GAME.power || !current) return;
  asks = StandoffPlay.prompt(current, GAME.power, table, described);
  const box = document.getElementById("phase-prompt");
  box.textContent = asks.text;
  box.dataset.kind = asks.kind;
  box.classList.toggle("ok", asks.left === 0 && ["orders", "retreats", "builds", "removals"].includes(asks.kind));
  for (const b of document.querySelectorAll("#order-locations button")) {
    b.classList.toggle("todo", asks.todo.includes(b.dataset.loc));
  }
  document.getElementById("ready-toggle").dataset.unordered = String(asks.left);
  const me = current.powers[GAME.power];
  document.title = StandoffPlay.tabTitle(BASE_TITLE, asks.left > 0 && me && !me.ready ? 1 : 0);
  drawPending();
}

/* the game again, now, through GET (after the page's own changes) */
async function refresh() {
  let g;
  try { g = await api("GET", "/games/" + GAME.id); } catch (e) { return; }
  await apply(g);
}

async function apply(g) {
  if ((g.your_power || null) !== (GAME.power || null)) {  // a seat taken, or opened by the master
    location.reload();
    return;
  }
  if (current && current.status === "forming" && g.status !== "forming") {
    location.reload();  // the game started: the page shows what players may now do
    return;
  }
  const moved = !current || current.turn !== g.turn || current.status !== g.status;
  current = g;
  document.getElementById("game-phase").textContent = g.phase;
  document.getElementById("phase-title").textContent = g.phase_title || "";
  document.getElementById("game-status").textContent = g.status + (g.paused ? " (paused)" : "") +
    outcomeText(g.outcome);
  renderPowers(g);
  renderJoin(g);
  renderSetAside(g);
  seats.render(g);
  tick();
  renderReady(g);
  if (moved) {
    if (showing === "last") setShowing("now", false);
    if (pad && g.status === "active") await pad.load();
    await loadResults(g).catch(() => {});
    await loadMap();
    if (press) press.refresh();
  }
}

function renderReady(g) {
  const me = GAME.power ? g.powers[GAME.power] : null;
  const ready = document.getElementById("ready-toggle");
  if (ready && me) {
    ready.classList.toggle("on", me.ready);
    ready.setAttribute("aria-pressed", me.ready ? "true" : "false");
    ready.textContent = me.ready ? "Ready ✓ (click to undo)" : "I'm ready";
    ready.disabled = g.status !== "active";
  }
}

/* one power's line changed (an ``power`` event): the table and the ready button */
function applyPower(line) {
  if (!current) return;
  const {power, ...rest} = line;
  current.powers[power] = rest;
  renderPowers(current);
  renderReady(current);
  seats.render(current);
}

/* The event stream; while it is down (refused, or the server gone) a look every
   30 s, and a new stream tried each time. EventSource reconnects by itself when
   a stream simply ends (each lasts at most an hour). */
let stream = null;
let fallback = null;
function listen() {
  if (!window.EventSource) { slowPoll(); return; }
  stream = new EventSource(`/api/v1/games/${GAME.id}/events`, {withCredentials: true});
  const data = (ev) => JSON.parse(ev.data);
  stream.addEventListener("open", () => {
    document.body.dataset.live = "1";
    clearTimeout(fallback);
    fallback = null;
  });
  stream.addEventListener("game", (ev) => { apply(data(ev)); });
  stream.addEventListener("power", (ev) => applyPower(data(ev)));
  stream.addEventListener("press", () => { if (press) press.refresh(); });
  stream.addEventListener("end", () => { stream.close(); location.reload(); });
  stream.addEventListener("error", () => {
    document.body.dataset.live = "0";
    if (!current) refresh();
    if (stream.readyState === EventSource.CLOSED) slowPoll();
  });
}

function slowPoll() {
  clearTimeout(fallback);
  fallback = setTimeout(async () => {
    await refresh();
    if (stream && stream.readyState === EventSource.CLOSED) listen();
    else if (!window.EventSource) slowPoll();
  }, 30000);
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
  if (action === "process" && !window.confirm(
    "Process this phase now, for everyone? Orders not yet sent count as missing.")) return;
  const body = action === "extend"
    ? {seconds: Math.round(Number(document.getElementById("extend-minutes").value) * 60)} : undefined;
  try { await api("POST", `/games/${GAME.id}/master/${action}`, body); } catch (e) { showError("master-error", e); }
  await refresh();
}

/* the map shows the position now, or the last turn's orders and results */
function setShowing(which, load = true) {
  showing = which;
  for (const [id, w] of [["map-now", "now"], ["map-last", "last"]]) {
    const b = document.getElementById(id);
    b.classList.toggle("on", w === which);
    b.classList.toggle("secondary", w !== which);
    b.setAttribute("aria-pressed", w === which ? "true" : "false");
  }
  document.getElementById("map-caption").textContent = which === "last" && lastPhase
    ? `${lastPhase.phase}: the last turn's orders and results (failed orders in magenta)` : "";
  if (load) loadMap();
}

/* a planning board from the phase the map shows (now, or the last turn) */
async function planFrom() {
  const phase = showing === "last" && lastPhase ? lastPhase.phase : current && current.phase;
  try {
    const board = await api("POST", "/boards", {game: GAME.id, phase});
    location.href = "/boards/" + encodeURIComponent(board.key);
  } catch (e) { showError(GAME.power ? "order-error" : "takeover-error", e); }
}

async function toggleReady() {
  const me = current && current.powers[GAME.power];
  const on = !(me && me.ready);
  if (on && asks && asks.left > 0 && ["orders", "retreats"].includes(asks.kind) && !window.confirm(
    `${asks.left} of your units ${asks.left === 1 ? "has" : "have"} no order (${asks.todo.join(", ")}): ` +
    "they will hold (or disband). Ready anyway?")) return;
  try { await api("POST", `/games/${GAME.id}/ready`, {ready: on}); } catch (e) { showError("order-error", e); }
  await refresh();
}

document.addEventListener("DOMContentLoaded", () => {
  map = new MapView(document.getElementById("map"), (loc, under) => {
    if (pad && showing === "now") pad.pick(loc, under);
  });
  document.getElementById("zoom-in").addEventListener("click", () => map.zoomAt(1 / 1.5));
  document.getElementById("zoom-out").addEventListener("click", () => map.zoomAt(1.5));
  document.getElementById("zoom-reset").addEventListener("click", () => map.reset());
  document.getElementById("map-now").addEventListener("click", () => setShowing("now"));
  document.getElementById("map-last").addEventListener("click", () => setShowing("last"));
  if (GAME.power) {
    pad = new OrderPad({id: GAME.id, onOrders: refresh, onRender: renderPrompt}, map);
    overlay = new OrderOverlay(map, (order) => pad.remove(order));
    document.getElementById("ready-toggle").addEventListener("click", toggleReady);
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
  if (document.getElementById("press-panel")) press = new Press(GAME);
  const plan = document.getElementById("plan-here");
  if (plan) plan.addEventListener("click", () => planFrom());
  seats = new SeatDesk(GAME, refresh);
  for (const b of document.querySelectorAll("[data-master]")) {
    b.addEventListener("click", () => master(b.dataset.master));
  }
  setInterval(tick, 1000);
  listen();
});
