/* The map, inline so it can be clicked: zoom (wheel, pinch, buttons) and pan
   (drag) by moving the SVG's viewBox, and clicks turned into locations from the
   renderer's own attributes (a unit's data-location, a space's data-space).
   A drag that moved more than a few pixels is not a click. Units are drawn at
   least MIN_UNIT_PX across, and spread apart where that would make them cover
   each other (placeUnits). */
"use strict";

/* the smallest a unit is drawn, and tapped, on screen (CSS pixels across) */
const MIN_UNIT_PX = 18;
/* the room kept between two units on screen (CSS pixels), and a leader line's width */
const UNIT_GAP_PX = 2;
const LEADER_PX = 1.2;

/* Where discs ({x, y, r}: a unit's spot and radius) are drawn so that none covers
   another: each at its spot unless another is within ``gap``, else the two pushed
   apart (both halfway), round after round, inside ``box`` ([left, top, right,
   bottom]) or no further out than its spot. The renderer's declutter.spread, step
   for step (src/standoff/render/declutter.py: keep the two alike; a test runs both).
   Deterministic: pairs in index order, discs on one spot parted by the golden angle. */
const SPREAD_ROUNDS = 400, SPREAD_OVERSHOOT = 1.05, GOLDEN = Math.PI * (3 - Math.sqrt(5));

function spreadDiscs(discs, gap, box) {
  const at = discs.map((d) => [d.x, d.y]);
  const n = discs.length;
  for (let round = 0; round < SPREAD_ROUNDS; round++) {
    let moved = false;
    for (let i = 0; i < n; i++) {
      const p = at[i], ri = discs[i].r;
      for (let j = i + 1; j < n; j++) {
        const q = at[j];
        const need = ri + discs[j].r + gap;
        let dx = q[0] - p[0], dy = q[1] - p[1];
        if (dx >= need || -dx >= need || dy >= need || -dy >= need) continue;
        let d = Math.hypot(dx, dy);
        if (d >= need * 0.999) continue;
        if (d < need * 1e-6) {
          const turn = (i * 7 + j) * GOLDEN;
          dx = Math.cos(turn); dy = Math.sin(turn); d = 1;
        }
        const push = (need * SPREAD_OVERSHOOT - d) / 2 / d;
        p[0] -= dx * push; p[1] -= dy * push;
        q[0] += dx * push; q[1] += dy * push;
        moved = true;
      }
    }
    if (box) {
      at.forEach((p, k) => {
        const {x, y, r} = discs[k];
        p[0] = Math.min(Math.max(p[0], Math.min(box[0] + r, x)), Math.max(box[2] - r, x));
        p[1] = Math.min(Math.max(p[1], Math.min(box[1] + r, y)), Math.max(box[3] - r, y));
      });
    }
    if (!moved) break;
  }
  return at;
}

/* a disc moved less than this share of its radius has no leader line (it would hide
   under the disc): declutter.LEADER_SHARE */
const LEADER_SHARE = 0.35;
/* the dot at a moved unit's spot, its leader line's end (its radius, CSS pixels) */
const LEADER_DOT_PX = 1.6;

function svgNode(tag, attrs) {
  const n = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  return n;
}

class MapView {
  constructor(box, onPick) {
    this.box = box;
    this.onPick = onPick;
    this.svg = null;
    this.full = null;
    this.view = null;
    this.pointers = new Map();
    this.moved = 0;
    box.addEventListener("wheel", (ev) => {
      if (!this.svg) return;
      ev.preventDefault();
      this.zoomAt(ev.deltaY < 0 ? 1 / 1.2 : 1.2, ev.clientX, ev.clientY);
    }, {passive: false});
    box.addEventListener("pointerdown", (ev) => {
      this.pointers.set(ev.pointerId, {x: ev.clientX, y: ev.clientY});
      if (this.pointers.size === 1) this.moved = 0;
    });
    box.addEventListener("pointermove", (ev) => this.drag(ev));
    const up = (ev) => this.pointers.delete(ev.pointerId);
    box.addEventListener("pointerup", up);
    box.addEventListener("pointercancel", up);
    box.addEventListener("pointerleave", up);
    window.addEventListener("resize", () => this.sizeUnits());
    box.addEventListener("click", (ev) => {
      if (this.moved > 6) return;
      if (this.onPick) {
        const locs = this.locationsAt(ev);
        if (locs.length) this.onPick(locs[0], locs);
      }
    });
  }

  load(text) {
    const keep = this.view && this.svg ? this.view.slice() : null;
    this.box.innerHTML = text;
    this.svg = this.box.querySelector("svg");
    if (!this.svg) return;
    this.svg.removeAttribute("width");
    this.svg.removeAttribute("height");
    // the renderer's drawn orders (the last turn, a board's step) over the units:
    // grown to MIN_UNIT_PX here, units would hide a removal's cross or a short move
    // (the orders let taps through to the units)
    const drawnOrders = this.svg.querySelector("#orders");
    const units = this.svg.querySelector("#units");
    if (drawnOrders && units) units.after(drawnOrders);
    this.full = this.svg.getAttribute("viewBox").split(/[\s,]+/).map(Number);
    this.view = keep || this.full.slice();
    this.placedAt = null;
    const spaces = this.svg.querySelector("#spaces");
    const b = spaces && spaces.getBBox ? spaces.getBBox() : null;
    // units are kept on the map, off the legend beneath it
    this.area = b && b.width > 0 ? [b.x, b.y, b.x + b.width, b.y + b.height]
      : [this.full[0], this.full[1], this.full[0] + this.full[2], this.full[1] + this.full[3]];
    // the box takes the map's shape (capped by the CSS max-height): no empty bands
    this.box.style.aspectRatio = `${this.full[2]} / ${this.full[3]}`;
    this.apply();
  }

  /* every location under a click, the one drawn on top first: a unit (drawn at least
     MIN_UNIT_PX across, it may cover a small neighbour) and then the spaces beneath
     it, so a page can take the space when the unit is not what the order wants */
  locationsAt(ev) {
    const found = [];
    const add = (loc) => { if (loc && !found.includes(loc.toUpperCase())) found.push(loc.toUpperCase()); };
    const unit = ev.target.closest("[data-unit]");
    const space = ev.target.closest("[data-space]");
    add(unit ? unit.dataset.location : space ? space.dataset.space : null);
    for (const el of document.elementsFromPoint(ev.clientX, ev.clientY)) {
      if (!this.box.contains(el)) continue;
      const s = el.closest("[data-space]");
      if (s) add(s.dataset.space);
    }
    return found;
  }

  apply() {
    this.svg.setAttribute("viewBox", this.view.join(" "));
    this.sizeUnits();
  }

  /* Issue 29: a unit (and its tap target) is never smaller on screen than
     MIN_UNIT_PX across, whatever its province and the zoom (390 px phones show a
     whole map where units would be a few pixels): each unit is scaled about its
     centre, from the renderer's data-x, data-y and data-r, as the view changes. */
  sizeUnits() {
    if (!this.svg) return;
    const s = this.scale();  // map units per pixel
    if (!Number.isFinite(s) || s <= 0 || s === this.placedAt) return;  // a pan: as they are
    this.placedAt = s;
    const units = [...this.svg.querySelectorAll("g.unit[data-r]")];
    const discs = units.map((g) => {
      const r = Number(g.dataset.r), x = Number(g.dataset.x), y = Number(g.dataset.y);
      const k = r > 0 ? Math.max(1, (MIN_UNIT_PX / 2) * s / r) : 1;
      return {x, y, r: r * k, k};
    });
    this.placeUnits(units, discs, spreadDiscs(discs, UNIT_GAP_PX * s, this.area), s);
    this.sizeBuilds(s);
  }

  /* The renderer's drawn builds (a square round the site, 2.8 unit sizes across, and
     the built unit's badge, 1.4) grow with the units: round a unit grown to
     MIN_UNIT_PX, never smaller than it, about their own centre. */
  sizeBuilds(s) {
    const marks = [
      ...[...this.svg.querySelectorAll('#orders rect[data-order^="BUILD "]')].map((r) => [r, r, 2.8]),
      ...[...this.svg.querySelectorAll("#orders [data-build]")].map((g) => [g, g.querySelector("rect"), 1.4]),
    ];
    for (const [el, rect, across] of marks) {
      if (!rect) continue;
      const w = Number(rect.getAttribute("width"));
      const cx = Number(rect.getAttribute("x")) + w / 2, cy = Number(rect.getAttribute("y")) + w / 2;
      const size = w / across;  // the renderer's unit size
      const k = size > 0 ? Math.max(1, (MIN_UNIT_PX / 2) * s / size) : 1;
      if (k > 1) el.setAttribute("transform", `translate(${cx} ${cy}) scale(${k}) translate(${-cx} ${-cy})`);
      else el.removeAttribute("transform");
    }
  }

  /* Where units grown to MIN_UNIT_PX would cover each other (the Low Countries and
     the Balkans on a phone's whole map, The Twentieth Century's Europe), they are
     drawn spread apart (spreadDiscs), each as near its spot as the others let it,
     with a leader line and a dot tying it to its spot (in #unit-leaders, under the units); zoomed in until there is
     room, they are back on their spots. A unit keeps its data-x/-y (its spot) and
     says where it is drawn in data-drawn-x/-y (and, grown, its radius in
     data-drawn-r); a tap on it, wherever drawn, is on
     the unit. The box gets a "unitsplaced" event after each placing. */
  placeUnits(units, discs, drawn, s) {
    let leaders = this.svg.querySelector("#unit-leaders");
    const layer = units.length ? units[0].parentNode : null;
    if (!leaders && layer) {  // under the units (the renderer's, or the page's own)
      leaders = layer.parentNode.insertBefore(svgNode("g", {id: "unit-leaders"}), layer);
    }
    if (leaders) {
      leaders.replaceChildren();
      for (const [k, v] of Object.entries({stroke: "#2b2b2b", fill: "#2b2b2b", "pointer-events": "none"})) {
        leaders.setAttribute(k, v);
      }
    }
    units.forEach((g, i) => {
      const {x, y, r, k} = discs[i];
      const [px, py] = drawn[i];
      const moved = Math.hypot(px - x, py - y);
      if (k > 1 || moved > 0) {
        g.setAttribute("transform", `translate(${px} ${py}) scale(${k}) translate(${-x} ${-y})`);
      } else {
        g.removeAttribute("transform");
      }
      if (moved > 0) {
        g.dataset.drawnX = px;
        g.dataset.drawnY = py;
      } else {
        delete g.dataset.drawnX;
        delete g.dataset.drawnY;
      }
      if (k > 1) g.dataset.drawnR = r; else delete g.dataset.drawnR;
      if (leaders && moved > LEADER_SHARE * r) {
        leaders.append(
          svgNode("line", {x1: x, y1: y, x2: px, y2: py, "stroke-width": LEADER_PX,
            "vector-effect": "non-scaling-stroke", "data-leader": g.dataset.location,
            "data-dislodged": g.dataset.dislodged || "0"}),
          svgNode("circle", {cx: x, cy: y, r: LEADER_DOT_PX * s}));
      }
    });
    this.box.dispatchEvent(new CustomEvent("unitsplaced"));
  }

  /* client pixels to map units, the SVG keeping its aspect ratio (meet) */
  scale() {
    const r = this.box.getBoundingClientRect();
    return Math.max(this.view[2] / r.width, this.view[3] / r.height);
  }

  toMap(cx, cy) {
    const r = this.box.getBoundingClientRect();
    const s = this.scale();
    const ox = (r.width * s - this.view[2]) / 2, oy = (r.height * s - this.view[3]) / 2;
    return [this.view[0] + (cx - r.left) * s - ox, this.view[1] + (cy - r.top) * s - oy];
  }

  zoomAt(factor, cx, cy) {
    if (!this.svg) return;
    const r = this.box.getBoundingClientRect();
    if (cx === undefined) { cx = r.left + r.width / 2; cy = r.top + r.height / 2; }
    const [mx, my] = this.toMap(cx, cy);
    const w = Math.min(this.full[2] * 1.5, Math.max(this.full[2] / 40, this.view[2] * factor));
    const f = w / this.view[2];
    this.view = [mx - (mx - this.view[0]) * f, my - (my - this.view[1]) * f,
                 this.view[2] * f, this.view[3] * f];
    this.apply();
  }

  reset() { if (this.svg) { this.view = this.full.slice(); this.apply(); } }

  drag(ev) {
    const last = this.pointers.get(ev.pointerId);
    if (!last || !this.svg) return;
    const dx = ev.clientX - last.x, dy = ev.clientY - last.y;
    if (this.pointers.size === 2) {  // pinch: the distance between two fingers
      const [a, b] = [...this.pointers.entries()];
      const other = a[0] === ev.pointerId ? b[1] : a[1];
      const before = Math.hypot(last.x - other.x, last.y - other.y);
      const after = Math.hypot(ev.clientX - other.x, ev.clientY - other.y);
      if (before > 0 && after > 0) {
        this.zoomAt(before / after, (ev.clientX + other.x) / 2, (ev.clientY + other.y) / 2);
      }
      this.moved += 100;
    } else {
      this.moved += Math.abs(dx) + Math.abs(dy);
      if (this.moved > 6) {
        const s = this.scale();
        this.view[0] -= dx * s;
        this.view[1] -= dy * s;
        this.apply();
      }
    }
    this.pointers.set(ev.pointerId, {x: ev.clientX, y: ev.clientY});
  }

  /* outline spaces (by province id, upper case) with a class */
  mark(cls, provinces) {
    if (!this.svg) return;
    for (const n of this.svg.querySelectorAll("." + cls)) n.classList.remove(cls);
    for (const p of provinces) {
      for (const n of this.svg.querySelectorAll(`[data-space="${CSS.escape(p.toLowerCase())}"],` +
                                                `[data-space="${CSS.escape(p)}"]`)) {
        n.classList.add(cls);
      }
    }
  }
}
