/* The player's own pending orders drawn over the map as they are given (issue 29
   §1): arrows for moves and retreats, dashed lines for supports, dotted ones for
   convoys, a ring for a hold, a plus for a build, a cross for a removal, a "P"
   for a canal permit; and a dashed ring on each unit still without an order.
   Positions come from the renderer's own SVG: where a unit is drawn (map.js's
   data-drawn-x/-y, else its data-x/-y), else where a
   unit of the space (or coast) would stand (the space's data-x/-y, data-coasts),
   else the space's name (data-name), else the middle of the space's shape. A click on a
   drawn order calls ``onRemove(order)``; a removal's cross and a permit's P are
   drawn over the units (a unit grown to MIN_UNIT_PX would hide them), tap-through.
   Redrawn whenever map.js places the units again (a zoom). Drawn in the page only: the server
   never draws pending orders. The shapes are StandoffPlay.shapes (play.js). */
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";

class OrderOverlay {
  constructor(map, onRemove) {
    this.map = map;
    this.onRemove = onRemove;
    this.last = null;
    // a zoom grows and spreads the units (map.js): the orders follow them
    map.box.addEventListener("unitsplaced", () => { if (this.last) this.draw(...this.last); });
  }

  /* the unit standing at a location ("STP/SC" -> that coast's fleet, else the
     province's unit), not a dislodged one */
  unitAt(svg, loc) {
    const low = String(loc).toLowerCase();
    const base = low.split("/")[0];
    const units = [...svg.querySelectorAll("[data-unit]")].filter((u) => u.dataset.dislodged !== "1");
    for (const key of [low, base]) {
      const unit = units.find((u) => String(u.dataset.location).toLowerCase() === key);
      if (unit && unit.dataset.x) return unit;
    }
    return null;
  }

  /* a location's point on the map ("STP/SC" -> the unit there, else the province) */
  point(svg, loc) {
    const low = String(loc).toLowerCase();
    const base = low.split("/")[0];
    const unit = this.unitAt(svg, loc);
    if (unit) {  // where it is drawn: spread apart from its neighbours on a phone
      const d = unit.dataset;
      return [Number(d.drawnX ?? d.x), Number(d.drawnY ?? d.y)];
    }
    const space = svg.querySelector(`[data-space="${CSS.escape(base)}"]`);
    const spot = space && StandoffPlay.spaceSpot(space.dataset, low);
    if (spot) return spot;
    const name = svg.querySelector(`[data-name="${CSS.escape(base)}"]`);
    if (name && name.getAttribute("x")) return [Number(name.getAttribute("x")), Number(name.getAttribute("y"))];
    if (space && space.getBBox) {
      const b = space.getBBox();
      return [b.x + b.width / 2, b.y + b.height / 2];
    }
    return null;
  }

  /* the radius units are drawn at (for rings and arrow gaps): the largest, as
     map.js grows them to MIN_UNIT_PX on a small screen (data-drawn-r) */
  unitRadius(svg) {
    const radii = [...svg.querySelectorAll("[data-unit][data-r]")].map(
      (u) => Number(u.dataset.drawnR ?? u.dataset.r)).filter((r) => r > 0);
    return radii.length ? Math.max(...radii) : 10;
  }

  node(tag, attrs) {
    const n = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    return n;
  }

  /* draw ``orders`` ([{order, option}]) and rings on ``todo`` (locations) */
  draw(orders, todo) {
    this.last = [orders, todo];
    const svg = this.map.svg;
    if (!svg) return;
    for (const id of ["pending-orders", "pending-marks"]) {
      const old = svg.querySelector("#" + id);
      if (old) old.remove();
    }
    const layer = this.node("g", {id: "pending-orders", "data-testid": "pending-orders"});
    // what is drawn on a unit (a removal's cross, a permit's P) goes over the units,
    // where a grown unit cannot hide it, and lets taps through to the unit
    const marks = this.node("g", {id: "pending-marks", "pointer-events": "none"});
    const r = this.unitRadius(svg);
    const defs = svg.querySelector("defs") || svg.insertBefore(this.node("defs", {}), svg.firstChild);
    if (!svg.querySelector("#pending-arrow")) {
      const m = this.node("marker", {id: "pending-arrow", viewBox: "0 0 10 10", refX: 7, refY: 5,
        markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse"});
      m.append(this.node("path", {d: "M0 0 L10 5 L0 10 Z", fill: "#111"}));
      defs.append(m);
    }
    const at = (loc) => this.point(svg, loc);
    for (const loc of todo) {
      const p = at(loc);
      if (p) layer.append(this.node("circle", {cx: p[0], cy: p[1], r: r * 1.45, class: "needs-order",
        "data-needs-order": loc, fill: "none", stroke: "#f5a400", "stroke-width": r * 0.35,
        "stroke-dasharray": `${r * 0.5} ${r * 0.3}`, "pointer-events": "none"}));
    }
    for (const {order, option} of orders) {
      const g = this.node("g", {class: "pending-order", "data-pending": order, "data-testid": "drawn-order"});
      const title = this.node("title", {});
      title.textContent = order + " (click to remove)";
      g.append(title);
      for (const s of StandoffPlay.shapes(option, at)) this.shape(g, s, r, marks);
      if (g.childNodes.length < 2) continue;
      g.addEventListener("click", (ev) => { ev.stopPropagation(); this.onRemove(order); });
      layer.append(g);
    }
    // under the units: a unit (drawn at least MIN_UNIT_PX across) stays the thing a
    // click on it picks, and an order's arrow is still clicked along its length
    const units = svg.querySelector("#units");
    if (units) units.before(layer); else svg.append(layer);
    svg.append(marks);
  }

  /* one shape of an order into ``g`` (under the units: its lines and the rings a
     click on takes the order back); a mark on a unit also into ``marks`` */
  shape(g, s, r, marks) {
    const w = Math.max(2, r * 0.32);
    const line = (a, b, extra) => this.node("path", {d: `M${a[0]} ${a[1]} L${b[0]} ${b[1]}`,
      fill: "none", stroke: "#111", "stroke-width": w, "stroke-linecap": "round", ...extra});
    const wide = (a, b) => this.node("path", {d: `M${a[0]} ${a[1]} L${b[0]} ${b[1]}`,
      stroke: "transparent", "stroke-width": w * 2.5, fill: "none"});  // a target for a click, no wider than a unit grown to 18 px
    if (s.shape === "arrow" || s.shape === "retreat") {
      const end = StandoffPlay.shorten(s.from, s.to, r);
      g.append(wide(s.from, end), line(s.from, end, {"marker-end": "url(#pending-arrow)",
        stroke: s.shape === "retreat" ? "#c0661b" : "#111"}));
    } else if (s.shape === "support" || s.shape === "convoy") {
      const dash = s.shape === "support" ? `${w * 3} ${w * 2}` : `${w * 0.2} ${w * 2}`;
      const pts = s.via ? [s.from, s.via, s.to] : [s.from, s.to];
      const d = "M" + pts.map((p) => p[0] + " " + p[1]).join(" L");
      g.append(this.node("path", {d, stroke: "transparent", "stroke-width": w * 2.5, fill: "none"}),
        this.node("path", {d, fill: "none", stroke: s.shape === "support" ? "#1f6fb2" : "#0b7f86",
          "stroke-width": w, "stroke-dasharray": dash, "stroke-linecap": "round"}));
      g.append(this.node("circle", {cx: s.to[0], cy: s.to[1], r: r * 0.45, fill: "none",
        stroke: s.shape === "support" ? "#1f6fb2" : "#0b7f86", "stroke-width": w}));
    } else if (s.shape === "hold") {
      g.append(this.node("circle", {cx: s.from[0], cy: s.from[1], r: r * 1.3, fill: "none",
        stroke: "#111", "stroke-width": w}));
    } else if (s.shape === "build") {
      const [x, y] = s.from;
      g.append(this.node("circle", {cx: x, cy: y, r: r * 1.2, fill: "#ffffffcc", stroke: "#2e7d32",
        "stroke-width": w}), line([x - r * 0.7, y], [x + r * 0.7, y], {stroke: "#2e7d32"}),
      line([x, y - r * 0.7], [x, y + r * 0.7], {stroke: "#2e7d32"}));
    } else if (s.shape === "remove") {
      const [x, y] = s.from;
      g.append(this.node("circle", {cx: x, cy: y, r: r * 1.3, fill: "none", stroke: "#b3261e",
        "stroke-width": w}));
      marks.append(line([x - r, y - r], [x + r, y + r], {stroke: "#b3261e", "data-mark": "remove"}),
        line([x - r, y + r], [x + r, y - r], {stroke: "#b3261e"}));
    } else if (s.shape === "permit") {
      const [x, y] = s.from;
      g.append(this.node("circle", {cx: x, cy: y, r: r * 1.3, fill: "none", stroke: "#0b7f86",
        "stroke-width": w}));
      const t = this.node("text", {x, y: y + r * 0.45, "text-anchor": "middle", "font-size": r * 1.4,
        "font-weight": "bold", fill: "#0b7f86", "data-mark": "permit"});
      t.textContent = "P";
      marks.append(this.node("circle", {cx: x, cy: y, r: r * 0.75, fill: "#ffffffcc", stroke: "#0b7f86",
        "stroke-width": w * 0.6}), t);
    }
  }
}
