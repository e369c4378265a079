"""A whole game as pictures: one SVG per phase, and a self-contained HTML viewer.

The viewer is a single file (pictures inline, no scripts or styles fetched
from anywhere) so it can be mailed to players or attached to a game report.
Arrow keys or the buttons step through the phases; beside the map are the
phase's orders and what happened to each.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

from standoff import Game

from .svg import render_svg


@dataclass(frozen=True)
class PhasePicture:
    #: short phase name ("S1901M"), used for file names
    phase: str
    title: str
    svg: str
    #: one line per order and its result, per power
    lines: tuple[tuple[str, str], ...]
    events: tuple[str, ...] = ()


def phase_pictures(game: Game, orders: bool = True) -> list[PhasePicture]:
    """Every phase played (with its orders and results) and the current one."""
    cal = game.variant.calendar
    out = []
    for rec in game.history:
        name = rec.position.phase.name(cal)
        lines = tuple((r.power, r.describe()) for r in rec.results)
        svg = render_svg(rec.position, orders=rec.orders if orders else None,
                         results=rec.results)
        out.append(PhasePicture(name, rec.position.phase.long_name(cal), svg, lines,
                                tuple(rec.events)))
    pos = game.position
    pending = game.pending() if orders else None
    out.append(PhasePicture(pos.phase.name(cal), pos.phase.long_name(cal),
                            render_svg(pos, orders=pending),
                            tuple((p, f"{o} (not yet processed)")
                                  for p, os in (pending or {}).items() for o in os)))
    return out


def game_viewer(game: Game, orders: bool = True) -> str:
    """One HTML page stepping through the game phase by phase."""
    pictures = phase_pictures(game, orders)
    data = [{"title": p.title, "svg": p.svg,
             "lines": [[pw, text] for pw, text in p.lines], "events": list(p.events)}
            for p in pictures]
    title = html.escape(f"{game.variant.title}: {len(game.history)} phases played")
    outcome = ""
    if game.winner:
        outcome = f"{game.winner} wins"
    elif game.draw:
        outcome = "draw: " + ", ".join(game.draw)
    payload = json.dumps(data).replace("</", "<\\/")
    return _PAGE.replace("@TITLE@", title).replace("@OUTCOME@", html.escape(outcome)) \
        .replace("@DATA@", payload)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>@TITLE@</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f4f1ea;color:#222}
header{padding:.5em 1em;background:#2b2b2b;color:#fff;display:flex;gap:1em;align-items:center}
header button{font-size:1em}
main{display:flex;gap:1em;padding:1em}
#map{flex:3;min-width:0}#map svg{width:100%;height:auto;border:1px solid #999}
#side{flex:1;min-width:16em;max-height:90vh;overflow:auto;font-size:.9em}
#side h3{margin:.6em 0 .2em}#side li.failed{color:#b000b0}
</style></head><body>
<header><button id="prev">&larr;</button><strong id="title"></strong>
<button id="next">&rarr;</button><span id="where"></span><span>@OUTCOME@</span>
<input id="slider" type="range" min="0" value="0" style="flex:1"></header>
<main><div id="map"></div><div id="side"></div></main>
<script>
const phases = @DATA@;
let i = 0;
const $ = id => document.getElementById(id);
$("slider").max = phases.length - 1;
function show(k) {
  i = Math.max(0, Math.min(phases.length - 1, k));
  const p = phases[i];
  $("map").innerHTML = p.svg;
  $("title").textContent = p.title;
  $("where").textContent = (i + 1) + " / " + phases.length;
  $("slider").value = i;
  const side = $("side");
  side.textContent = "";
  let power = null, list = null;
  for (const [pw, text] of p.lines) {
    if (pw !== power) {
      power = pw;
      const h = document.createElement("h3"); h.textContent = pw; side.appendChild(h);
      list = document.createElement("ul"); side.appendChild(list);
    }
    const li = document.createElement("li"); li.textContent = text;
    if (!/succeeds|noted|not yet/.test(text)) li.className = "failed";
    list.appendChild(li);
  }
  for (const e of p.events) {
    const d = document.createElement("p"); d.textContent = e; side.appendChild(d);
  }
}
$("prev").onclick = () => show(i - 1);
$("next").onclick = () => show(i + 1);
$("slider").oninput = e => show(+e.target.value);
document.onkeydown = e => {
  if (e.key === "ArrowLeft") show(i - 1);
  if (e.key === "ArrowRight") show(i + 1);
};
show(0);
</script></body></html>
"""
