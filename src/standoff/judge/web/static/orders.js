/* Click-to-order and the text box. The menus are built from the engine's legal
   orders as structured options (GET .../legal/options: per location, each order
   with its canonical text, kind, unit and targets; see StandoffLogic in
   logic.js for the walk), so every kind the engine offers (coasts, supports,
   convoys, moves by land or by convoy, retreats, builds, removals, waives,
   canal permissions) appears without the page knowing the notation. A click
   sends the chosen option's canonical text with merge (PUT .../orders): the
   engine decides which stored order it replaces. The list shows the stored
   canonical orders (GET .../orders), matched to the options for their kind. */
"use strict";

class OrderPad {
  constructor(game, map) {
    this.game = game;
    this.map = map;
    this.table = {};
    this.orders = [];
    this.reset();
    this.$ = (id) => document.getElementById(id);
    this.$("text-orders").addEventListener("submit", (ev) => { ev.preventDefault(); this.addTyped(); });
    this.$("orders-clear").addEventListener("click", () => this.send([]));
  }

  /* nothing chosen: no location, no kind, no target clicked */
  reset() { this.key = null; this.kind = null; this.candidates = []; this.step = 0; this.state = {none: true}; }

  async load() {
    try {
      const [table, mine] = await Promise.all([
        api("GET", `/games/${this.game.id}/legal/options`).catch(() => ({})),
        api("GET", `/games/${this.game.id}/orders`)]);
      this.table = table;
      this.orders = mine.orders;
    } catch (e) { showError("order-error", e); }
    this.reset();
    this.render();
  }

  /* a click on the map: the next target of the order being given, else a unit;
     ``under`` lists every location under the click, top first (a unit drawn large
     may cover the small space the order wants: the space beneath is taken then) */
  pick(loc, under = [loc]) {
    if (this.kind && this.state.click) {
      for (const at of under) {
        const left = StandoffLogic.narrow(this.candidates, this.step, at);
        if (left.length) { this.candidates = left; this.step += 1; this.advance(); return; }
      }
    }
    let keys = [];
    for (const at of under) {
      keys = StandoffLogic.keysAt(this.table, at);
      if (keys.length) break;
    }
    this.reset();
    if (keys.length) this.key = keys[0];
    this.render();
  }

  chooseKind(kind) {
    this.kind = kind;
    this.step = 0;
    this.candidates = this.table[this.key].filter((o) => StandoffLogic.menuKind(o) === kind);
    this.advance();
  }

  /* one option left with nothing more to click: it is the order */
  advance() {
    this.state = StandoffLogic.next(this.candidates, this.step);
    if (this.state.send) { this.choose(this.state.send.order); return; }
    this.render();
  }

  /* send one option's canonical text with merge: the engine replaces whichever
     stored order it supersedes (the pad starts over at once, so no stale button
     stays clickable while the answer is awaited) */
  async choose(text) {
    this.reset();
    this.render();
    await this.send([text], true);
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

  optionButton(option, label, extra) {
    return el("button", {type: "button", class: "small secondary", "data-testid": "order-option",
      "data-order": option.order, ...extra, onclick: () => this.choose(option.order)}, label);
  }

  render() {
    const locs = this.$("order-locations"), menu = this.$("order-menu");
    const opts = this.$("order-options"), list = this.$("my-orders");
    locs.replaceChildren(); menu.replaceChildren(); opts.replaceChildren(); list.replaceChildren();
    const keys = Object.keys(this.table).sort();
    if (!keys.length) locs.append(el("span", {class: "muted"}, "Nothing to order this phase."));
    for (const k of keys) {
      locs.append(el("button", {type: "button", class: "small" + (k === this.key ? " on" : ""),
        "data-testid": "order-loc-" + k, "data-loc": k, onclick: () => { this.reset(); this.key = k; this.render(); }}, k));
    }
    if (this.key) {
      for (const kind of StandoffLogic.kindsOf(this.table[this.key])) {
        menu.append(el("button", {type: "button", class: "small" + (kind === this.kind ? " on" : " secondary"),
          "data-testid": "order-kind-" + kind, "data-kind": kind, onclick: () => this.chooseKind(kind)},
          StandoffLogic.KIND_LABELS[kind] || kind));
      }
    }
    if (this.kind && this.state.via) {
      opts.append(this.optionButton(this.state.via.land, "by land", {"data-via": "land"}),
        this.optionButton(this.state.via.convoy, "by convoy", {"data-via": "convoy"}));
    } else if (this.kind) {
      for (const o of this.candidates) opts.append(this.optionButton(o, o.order, {}));
    }
    this.$("order-hint").textContent = this.key ? StandoffLogic.hint(this.key, this.kind, this.state) : "";
    const described = StandoffLogic.describeOrders(this.orders, this.table);
    described.forEach((o, i) => {
      list.append(el("li", {"data-testid": "my-order", "data-order": o.order, "data-kind": o.kind},
        el("span", {class: "muted"}, (StandoffLogic.KIND_LABELS[o.kind] || o.kind) + " "), o.order,
        el("button", {type: "button", class: "small secondary", "data-testid": "order-remove-" + i,
          "aria-label": "remove " + o.order, onclick: () => this.remove(o.order)}, "×")));
    });
    if (!this.orders.length) list.append(el("li", {class: "muted"}, "No orders given yet."));
    this.highlight();
    if (this.game.onRender) this.game.onRender(described, this.table);
  }

  /* the stored orders with the option each matches (null: a text no option has),
     for drawing them on the map */
  drawable() {
    const byText = new Map();
    for (const options of Object.values(this.table)) for (const o of options) byText.set(o.order, o);
    return this.orders.map((order) => ({order, option: byText.get(order) || null}));
  }

  /* take one stored order back (a click on it, in the list or on the map) */
  remove(order) { return this.send(this.orders.filter((o) => o !== order)); }

  highlight() {
    this.map.mark("sel-from", this.key ? [StandoffLogic.province(this.key)] : []);
    const targets = this.kind && this.state.click ? this.state.click.map(StandoffLogic.province) : [];
    this.map.mark("sel-target", targets);
  }
}
