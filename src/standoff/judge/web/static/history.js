/* The history viewer: every processed phase with its orders and results drawn,
   a slider, buttons and arrow keys (as the standalone viewer, render/html.py),
   and one URL per phase (/games/{id}/history/S1901M) kept in the address bar.
   The powers a bot played in a phase carry its name (badge and a line). */
"use strict";

const H = JSON.parse(document.getElementById("history-data").textContent);
let phases = [];
let index = 0;
let hmap = null;

async function showPhase(i, push) {
  if (!phases.length) return;
  index = Math.max(0, Math.min(phases.length - 1, i));
  const ph = phases[index];
  document.getElementById("history-slider").value = String(index);
  document.getElementById("history-phase").textContent = ph.phase + ` (${index + 1}/${phases.length})`;
  const url = `/games/${H.id}/history/${ph.phase}`;
  if (push && location.pathname !== url) history.pushState({i: index}, "", url);
  const box = document.getElementById("history-orders");
  box.replaceChildren();
  const bots = ph.bots || {};
  document.getElementById("history-bots").textContent = StandoffLogic.botsLine(bots, H.names);
  // a power that had to order and sent nothing is listed too, marked NMR
  const missed = ph.missed || [];
  const listed = {...ph.orders};
  for (const p of missed) if (!listed[p]) listed[p] = [];
  for (const [p, os] of Object.entries(listed)) {
    const nmr = missed.includes(p);
    box.append(el("h3", {}, H.names[p] || p, bots[p] ? " " : null, bots[p]
      ? el("span", {class: "seat-badge bot", "data-testid": "history-bot-" + p}, "bot: " + bots[p]) : null,
    nmr ? " " : null, nmr ? el("span", {class: "seat-badge nmr", "data-testid": "history-nmr-" + p,
      title: "no moves received: sent no orders, units held"}, "NMR") : null));
    const ul = el("ul", {class: "orders", "data-testid": "history-orders-" + p});
    for (const o of os) ul.append(el("li", {}, o));
    if (!os.length) ul.append(el("li", {class: "muted"}, nmr ? "NMR: no orders sent (units held)" : "no orders"));
    box.append(ul);
  }
  document.getElementById("history-results").textContent =
    ph.report_text || (ph.results || []).map((r) => typeof r === "string" ? r : JSON.stringify(r)).join("\n");
  const res = await fetch(`/api/v1/games/${H.id}/map.svg?phase=${encodeURIComponent(ph.phase)}&orders=1`,
                          {credentials: "same-origin"});
  if (res.ok && index === phases.indexOf(ph)) hmap.load(await res.text());
}

document.addEventListener("DOMContentLoaded", async () => {
  hmap = new MapView(document.getElementById("map"), null);
  document.getElementById("zoom-in").addEventListener("click", () => hmap.zoomAt(1 / 1.5));
  document.getElementById("zoom-out").addEventListener("click", () => hmap.zoomAt(1.5));
  document.getElementById("zoom-reset").addEventListener("click", () => hmap.reset());
  try { phases = await api("GET", `/games/${H.id}/phases`); } catch (e) { showError("history-error", e); return; }
  if (!phases.length) { showError("history-error", new Error("No phase has been processed yet.")); return; }
  const slider = document.getElementById("history-slider");
  slider.max = String(phases.length - 1);
  slider.addEventListener("input", () => showPhase(Number(slider.value), true));
  document.getElementById("history-prev").addEventListener("click", () => showPhase(index - 1, true));
  document.getElementById("history-next").addEventListener("click", () => showPhase(index + 1, true));
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("input[type=text],textarea")) return;
    if (ev.key === "ArrowLeft") { ev.preventDefault(); showPhase(index - 1, true); }
    if (ev.key === "ArrowRight") { ev.preventDefault(); showPhase(index + 1, true); }
  });
  window.addEventListener("popstate", () => {
    const name = location.pathname.split("/").pop().toUpperCase();
    const i = phases.findIndex((p) => p.phase.toUpperCase() === name);
    showPhase(i >= 0 ? i : phases.length - 1, false);
  });
  const wanted = phases.findIndex((p) => p.phase.toUpperCase() === H.phase);
  if (H.phase && wanted < 0) showError("history-error", new Error(`Phase ${H.phase} has not been processed.`));
  showPhase(wanted >= 0 ? wanted : phases.length - 1, false);
});
