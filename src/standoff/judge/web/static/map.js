/* The map, inline so it can be clicked: zoom (wheel, pinch, buttons) and pan
   (drag) by moving the SVG's viewBox, and clicks turned into locations from the
   renderer's own attributes (a unit's data-location, a space's data-space).
   A drag that moved more than a few pixels is not a click. */
"use strict";

/* the smallest a unit is drawn, and tapped, on screen (CSS pixels across) */
const MIN_UNIT_PX = 18;

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
    this.full = this.svg.getAttribute("viewBox").split(/[\s,]+/).map(Number);
    this.view = keep || this.full.slice();
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
    if (!Number.isFinite(s) || s <= 0) return;
    for (const g of this.svg.querySelectorAll("g.unit[data-r]")) {
      const r = Number(g.dataset.r), x = Number(g.dataset.x), y = Number(g.dataset.y);
      const k = r > 0 ? Math.max(1, (MIN_UNIT_PX / 2) * s / r) : 1;
      if (k > 1) g.setAttribute("transform", `translate(${x} ${y}) scale(${k}) translate(${-x} ${-y})`);
      else g.removeAttribute("transform");
    }
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
