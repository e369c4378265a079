/* The planning board (issue 29 §4): GET /api/v1/boards/{key} and its map; the
   owner orders any unit of any power by clicks (the board's legal options for
   that unit's power, walked with StandoffLogic as the game page does; in a Winter
   an empty home centre builds for its owner, a unit is removed, a build waived) or by typed
   lines per power, places or removes units (a text list per power), adjudicates
   with the engine and steps back and forward; anyone with the link sees it and
   may copy it to a board of their own. The map draws the step's orders (and,
   once adjudicated, their results). Nothing here reaches a game. */
"use strict";

const B = JSON.parse(document.getElementById("board-data").textContent);
let board = null;
let shown = 0;          // the step the map shows (the owner's "at"; a visitor's own)
let bmap = null;
const legal = {};       // power -> its legal options at the step shown
const pick = {power: null, key: null, kind: null, candidates: [], step: 0, state: {none: true}};

function path(rest) { return `/boards/${encodeURIComponent(B.key)}${rest || ""}`; }
function step() { return board.steps[shown]; }
function lines(text) { return text.split("\n").map((l) => l.trim()).filter(Boolean); }

async function load(data) {
  board = data || await api("GET", path());
  shown = board.at;
  for (const p of Object.keys(legal)) delete legal[p];
  resetPick();
  render();
}

function render() {
  const s = step();
  document.title = board.title + " · standoff";
  document.getElementById("board-title").textContent = board.title;
  document.getElementById("board-phase").textContent = s.phase;
  document.getElementById("board-phase-title").textContent = s.phase_title;
  document.getElementById("board-step").textContent = `step ${shown + 1} of ${board.steps.length}`;
  document.getElementById("board-prev").disabled = shown === 0;
  document.getElementById("board-next").disabled = shown >= board.steps.length - 1;
  const last = shown === board.steps.length - 1;
  document.getElementById("board-adjudicate").disabled = !board.yours || !last || Boolean(s.outcome);
  document.getElementById("board-copy").hidden = board.yours || !B.signed_in;
  const units = s.position.units || {};
  // every power of the variant (one with no unit left may get some), by the name players read
  const names = board.powers || {};
  const powers = [...new Set([...Object.keys(names), ...Object.keys(units),
    ...Object.keys(s.orders || {})])].sort();
  const orders = document.getElementById("board-orders");
  const editable = board.yours && last;
  orders.replaceChildren();
  for (const p of powers) {
    orders.append(el("label", {class: "board-power"}, names[p] || p,
      el("textarea", {rows: "3", "data-power": p, "data-testid": "board-orders-" + p,
        readonly: !editable}, (s.orders[p] || []).join("\n"))));
  }
  if (editable) orders.append(el("button", {type: "submit", "data-testid": "board-orders-save"}, "Save orders"));
  const unitsForm = document.getElementById("board-units");
  unitsForm.replaceChildren();
  for (const p of Object.keys(units).sort()) {
    unitsForm.append(el("label", {class: "board-power"}, names[p] || p,
      el("textarea", {rows: "3", "data-power": p, "data-testid": "board-units-" + p,
        readonly: !editable}, units[p].join("\n"))));
  }
  if (editable) unitsForm.append(el("button", {type: "submit", "data-testid": "board-units-save"}, "Place these units"));
  const results = s.results || [];
  document.getElementById("board-results").textContent = results.length
    ? results.map(resultLine).join("\n") : (s.outcome ? "The game is over." : "Not adjudicated yet.");
  renderPick();
  loadMap();
}

function resultLine(r) {
  if (typeof r === "string") return r;
  if (r.order) return r.order + (r.result ? ": " + r.result : r.success === false ? ": fails" : "");
  return JSON.stringify(r);
}

/* the map of the step shown with its orders; an answer overtaken by a later request
   (a quick step back and forth, orders given in a row) is dropped, so the map never
   shows another step than the panel. The box's data-step and data-orders say what
   it shows (the step, and how many orders are drawn). */
let mapAsked = 0;
async function loadMap() {
  const asked = ++mapAsked, n = shown;
  const res = await fetch(`/api/v1${path("/map.svg")}?step=${n}&orders=1`, {credentials: "same-origin"});
  const text = res.ok ? await res.text() : null;
  if (asked !== mapAsked) return;
  if (text !== null) bmap.load(text);
  const box = document.getElementById("map");
  box.dataset.step = String(n);
  box.dataset.orders = String(Object.values(board.steps[n].orders || {}).flat().length);
  highlight();
}

async function change(method, rest, body) {
  showError("board-error", null);
  try { await load(await api(method, path(rest), body)); return true; } catch (e) { showError("board-error", e); return false; }
}

function resetPick() { Object.assign(pick, {power: null, key: null, kind: null, candidates: [], step: 0, state: {none: true}}); }

/* a click on the map: the next target of the order being given, else what is
   there to order: a unit (any power's), or in a Winter an empty centre its owner
   may build on (the game page's walk, StandoffLogic, for that power's options) */
async function onMap(loc, under = [loc]) {
  if (!board || !board.yours || shown !== board.steps.length - 1) return;
  if (pick.kind && pick.state.click) {
    // a unit drawn large may cover the small space the order wants: try what is beneath
    for (const at of under) {
      const left = StandoffLogic.narrow(pick.candidates, pick.step, at);
      if (left.length) { pick.candidates = left; pick.step += 1; advance(); return; }
    }
  }
  resetPick();
  for (const at of under) {
    let found;
    try { found = await orderable(at); } catch (e) { showError("board-error", e); return; }
    if (found) { pick.power = found.power; pick.key = found.key; break; }
  }
  renderPick();
}

/* the powers that may order something at ``loc``: the power of the unit there, else
   the owners of the centre there (a build) */
function powersAt(loc) {
  const prov = StandoffLogic.province(loc);
  const unit = [...bmap.svg.querySelectorAll("[data-unit]")].find(
    (u) => StandoffLogic.province(u.dataset.location) === prov);
  if (unit) return [unit.dataset.power];
  const centres = step().position.centres || {};
  return Object.keys(centres).sort().filter((p) => centres[p].some((c) => StandoffLogic.province(c) === prov));
}

/* {power, key} of the first legal table (fetched once a step) with a key at ``loc``, or null */
async function orderable(loc) {
  for (const power of powersAt(loc)) {
    if (!legal[power]) {
      legal[power] = await api("GET", path(`/legal/options?power=${encodeURIComponent(power)}&step=${shown}`));
    }
    const keys = StandoffLogic.keysAt(legal[power], loc);
    if (keys.length) return {power, key: keys[0]};
  }
  return null;
}

function advance() {
  pick.state = StandoffLogic.next(pick.candidates, pick.step);
  if (pick.state.send) { give(pick.state.send); return; }
  renderPick();
}

/* the chosen option is sent as its canonical text with merge: the engine decides
   which of the power's orders it replaces (issue 27 §3), and the page shows the
   board the judge answers */
async function give(option) {
  const power = pick.power;
  resetPick();
  renderPick();
  await change("PUT", "/orders", {orders: {[power]: [option.order]}, merge: true});
}

function renderPick() {
  const hint = document.getElementById("board-hint");
  const menu = document.getElementById("board-menu"), opts = document.getElementById("board-options");
  menu.replaceChildren(); opts.replaceChildren();
  if (!board.yours) {
    hint.textContent = "You are looking at someone's board. Make your own copy to move its units.";
  } else if (shown !== board.steps.length - 1) {
    hint.textContent = "An earlier step: step forward to the last one to give orders (adjudicating here drops the later steps).";
  } else if (!pick.key) {
    hint.textContent = idleHint();
  } else {
    hint.textContent = `${(board.powers || {})[pick.power] || pick.power} ${pick.key}: ` +
      StandoffLogic.hint(pick.key, pick.kind, pick.state);
    for (const kind of StandoffLogic.kindsOf(legal[pick.power][pick.key])) {
      menu.append(el("button", {type: "button", class: "small" + (kind === pick.kind ? " on" : " secondary"),
        "data-testid": "board-kind-" + kind, onclick: () => {
          pick.kind = kind; pick.step = 0;
          pick.candidates = legal[pick.power][pick.key].filter((o) => StandoffLogic.menuKind(o) === kind);
          advance();
        }}, StandoffLogic.KIND_LABELS[kind] || kind));
    }
    const list = pick.state.via ? [pick.state.via.land, pick.state.via.convoy] : pick.kind ? pick.candidates : [];
    for (const o of list) {
      opts.append(el("button", {type: "button", class: "small secondary", "data-testid": "board-option",
        "data-order": o.order, onclick: () => give(o)}, o.order));
    }
  }
  highlight();
}

/* what the step asks when nothing is chosen: in a Winter, each power's builds and
   removals and how to give them */
function idleHint() {
  const s = step();
  if (s.outcome) return "The game on this board is over: step back to play on.";
  if (!s.phase.endsWith("A")) return "Click any unit, of any power, to order it; then Adjudicate.";
  const names = board.powers || {};
  const due = StandoffLogic.adjustments(s.adjustments).map((a) => `${names[a.power] || a.power} ` +
    (a.builds ? `builds ${a.builds}` : `removes ${a.removals}`));
  return "Adjustments" + (due.length ? ": " + due.join(", ") : ": none due") + ". " +
    "Click an empty home centre to build there (then the army, fleet or coast), or Waive; " +
    "click a unit to remove it. Then Adjudicate.";
}

function highlight() {
  if (!bmap || !bmap.svg) return;
  bmap.mark("sel-from", pick.key ? [StandoffLogic.province(pick.key)] : []);
  bmap.mark("sel-target", pick.kind && pick.state.click ? pick.state.click.map(StandoffLogic.province) : []);
}

function perPower(form) {
  const out = {};
  for (const t of form.querySelectorAll("textarea[data-power]")) out[t.dataset.power] = lines(t.value);
  return out;
}

async function goTo(n) {
  if (!board || n < 0 || n >= board.steps.length) return;
  if (board.yours) { await change("PUT", "/step", {step: n}); return; }
  shown = n;
  render();
}

document.addEventListener("DOMContentLoaded", () => {
  bmap = new MapView(document.getElementById("map"), (loc, under) => onMap(loc, under));
  document.getElementById("zoom-in").addEventListener("click", () => bmap.zoomAt(1 / 1.5));
  document.getElementById("zoom-out").addEventListener("click", () => bmap.zoomAt(1.5));
  document.getElementById("zoom-reset").addEventListener("click", () => bmap.reset());
  document.getElementById("board-prev").addEventListener("click", () => goTo(shown - 1));
  document.getElementById("board-next").addEventListener("click", () => goTo(shown + 1));
  document.getElementById("board-adjudicate").addEventListener("click", () => change("POST", "/adjudicate"));
  document.getElementById("board-orders").addEventListener("submit", (ev) => {
    ev.preventDefault();
    change("PUT", "/orders", {orders: perPower(ev.target)});
  });
  document.getElementById("board-units").addEventListener("submit", (ev) => {
    ev.preventDefault();
    change("PUT", "/units", {units: perPower(ev.target)});
  });
  document.getElementById("board-share").addEventListener("click", async () => {
    const link = location.origin + "/boards/" + encodeURIComponent(B.key);
    const said = document.getElementById("board-shared");
    try {
      await navigator.clipboard.writeText(link);
      said.textContent = "Link copied: " + link;
    } catch (e) {
      said.textContent = "Copy this link: " + link;
    }
  });
  document.getElementById("board-copy").addEventListener("click", async () => {
    try {
      const copy = await api("POST", "/boards", {board: B.key});
      location.href = "/boards/" + encodeURIComponent(copy.key);
    } catch (e) { showError("board-error", e); }
  });
  load().catch((e) => showError("board-error", e));
});
