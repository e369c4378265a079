/* Click-to-order and the text box. The menus are built from the engine's legal
   orders (GET .../legal, {location: [order text]}): each text's kind and
   targets are read from its canonical notation, so every kind the engine
   offers (coasts, supports, convoys, retreats, builds, removals, waives,
   canal permissions) appears without the page knowing the rules. Every change
   sends the whole list (PUT .../orders, all or nothing) and shows the engine's
   reason when it is refused. */
"use strict";

const KIND_LABELS = {hold: "Hold", move: "Move", support: "Support", convoy: "Convoy",
  retreat: "Retreat", disband: "Disband", build: "Build", remove: "Remove", waive: "Waive",
  permit: "Permit", noconvert: "No convert", other: "Other"};

function province(loc) { return loc.split("/")[0].toUpperCase(); }

/* kind and target locations (in the order they are clicked) of an order text */
function parseOrder(text) {
  let m;
  if ((m = text.match(/^BUILD \S+ (\S+)$/))) return {kind: "build", targets: [], at: m[1]};
  if ((m = text.match(/^REMOVE \S+ (\S+)$/))) return {kind: "remove", targets: [], at: m[1]};
  if (text === "WAIVE") return {kind: "waive", targets: []};
  if ((m = text.match(/^(\S+) PERMIT (\S+)$/))) return {kind: "permit", targets: [], at: m[1]};
  if (/ NO CONVERT$/.test(text)) return {kind: "noconvert", targets: []};
  if ((m = text.match(/^\S+ \S+ (.*)$/))) {
    const rest = m[1];
    if (rest === "H") return {kind: "hold", targets: []};
    if (rest === "D") return {kind: "disband", targets: []};
    if ((m = rest.match(/^- (\S+)( VIA)?$/))) return {kind: "move", targets: [m[1]]};
    if ((m = rest.match(/^R (\S+)$/))) return {kind: "retreat", targets: [m[1]]};
    if ((m = rest.match(/^S \S+ (\S+) - (\S+)$/))) return {kind: "support", targets: [m[1], m[2]]};
    if ((m = rest.match(/^S \S+ (\S+)$/))) return {kind: "support", targets: [m[1]]};
    if ((m = rest.match(/^C \S+ (\S+) - (\S+)$/))) return {kind: "convoy", targets: [m[1], m[2]]};
  }
  return {kind: "other", targets: []};
}

/* orders that occupy the same slot of a location replace each other */
function slot(text) {
  const k = parseOrder(text).kind;
  return k === "permit" ? "permit" : k === "noconvert" ? "noconvert" : "main";
}

class OrderPad {
  constructor(game, map) {
    this.game = game;
    this.map = map;
    this.legal = {};
    this.orders = [];
    this.reset();
    this.$ = (id) => document.getElementById(id);
    this.$("text-orders").addEventListener("submit", (ev) => { ev.preventDefault(); this.addTyped(); });
    this.$("orders-clear").addEventListener("click", () => this.send([]));
  }

  reset() { this.key = null; this.kind = null; this.candidates = []; this.step = 0; }

  async load() {
    try {
      const [legal, mine] = await Promise.all([
        api("GET", `/games/${this.game.id}/legal`).catch(() => ({})),
        api("GET", `/games/${this.game.id}/orders`)]);
      this.legal = legal;
      this.orders = mine.orders;
    } catch (e) { showError("order-error", e); }
    this.reset();
    this.render();
  }

  keysAt(loc) {
    const keys = Object.keys(this.legal);
    if (this.legal[loc]) return [loc];
    return keys.filter((k) => province(k) === province(loc));
  }

  pick(loc) {
    if (this.kind && this.candidates.length) {
      const next = this.candidates.filter((o) => {
        const t = parseOrder(o).targets[this.step];
        return t && (t === loc || province(t) === province(loc));
      });
      if (next.length) { this.candidates = next; this.step += 1; this.settle(); return; }
    }
    const keys = this.keysAt(loc);
    if (!keys.length) { this.reset(); this.render(); return; }
    this.reset();
    this.key = keys[0];
    this.render();
  }

  chooseKind(kind) {
    this.kind = kind;
    this.step = 0;
    this.candidates = this.legal[this.key].filter((o) => parseOrder(o).kind === kind);
    this.settle();
  }

  /* one candidate left with nothing more to click: it is the order */
  settle() {
    const open = this.candidates.filter((o) => parseOrder(o).targets.length > this.step);
    if (this.candidates.length === 1 && !open.length) { this.choose(this.candidates[0]); return; }
    this.render();
  }

  async choose(text) {
    const key = this.key;
    const alternatives = new Set(this.legal[key] || []);
    const kept = this.orders.filter((o) => !(alternatives.has(o) && slot(o) === slot(text)));
    this.reset();
    await this.send([...kept, text]);
  }

  async addTyped() {
    const lines = this.$("order-text").value.split("\n").map((l) => l.trim()).filter(Boolean);
    if (!lines.length) return;
    // merge: the engine reads every notation and decides which unit each line is for
    if (await this.send(lines, true)) this.$("order-text").value = "";
  }

  async send(list, merge = false) {
    showError("order-error", null);
    try {
      const out = await api("PUT", `/games/${this.game.id}/orders`, {orders: list, merge});
      this.orders = out.orders;
      this.render();
      if (this.game.onOrders) this.game.onOrders();
      return true;
    } catch (e) {
      showError("order-error", e);
      this.render();
      return false;
    }
  }

  render() {
    const locs = this.$("order-locations"), menu = this.$("order-menu");
    const opts = this.$("order-options"), list = this.$("my-orders");
    locs.replaceChildren(); menu.replaceChildren(); opts.replaceChildren(); list.replaceChildren();
    const keys = Object.keys(this.legal).sort();
    if (!keys.length) locs.append(el("span", {class: "muted"}, "Nothing to order this phase."));
    for (const k of keys) {
      locs.append(el("button", {type: "button", class: "small" + (k === this.key ? " on" : ""),
        "data-testid": "order-loc-" + k, "data-loc": k, onclick: () => { this.reset(); this.key = k; this.render(); }}, k));
    }
    if (this.key) {
      const kinds = [...new Set(this.legal[this.key].map((o) => parseOrder(o).kind))];
      for (const kind of kinds) {
        menu.append(el("button", {type: "button", class: "small" + (kind === this.kind ? " on" : " secondary"),
          "data-testid": "order-kind-" + kind, "data-kind": kind, onclick: () => this.chooseKind(kind)},
          KIND_LABELS[kind] || kind));
      }
    }
    for (const o of this.kind ? this.candidates : []) {
      opts.append(el("button", {type: "button", class: "small secondary", "data-testid": "order-option",
        "data-order": o, onclick: () => this.choose(o)}, o));
    }
    this.$("order-hint").textContent = !this.key ? "Click one of your units (or a location below)."
      : !this.kind ? `${this.key}: pick the order.`
      : this.candidates.some((o) => parseOrder(o).targets.length > this.step)
        ? "Click the target on the map (or pick below)." : "Pick the order below.";
    this.orders.forEach((o, i) => {
      list.append(el("li", {"data-testid": "my-order", "data-order": o}, o,
        el("button", {type: "button", class: "small secondary", "data-testid": "order-remove-" + i,
          "aria-label": "remove " + o, onclick: () => this.send(this.orders.filter((_, j) => j !== i))}, "×")));
    });
    if (!this.orders.length) list.append(el("li", {class: "muted"}, "No orders given yet."));
    this.highlight();
  }

  highlight() {
    this.map.mark("sel-from", this.key ? [province(this.key)] : []);
    const targets = this.kind ? this.candidates.map((o) => parseOrder(o).targets[this.step])
      .filter(Boolean).map(province) : [];
    this.map.mark("sel-target", targets);
  }
}
