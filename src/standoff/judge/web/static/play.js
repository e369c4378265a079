/* The game page's pure functions for what a phase asks of the player (issue 29
   §1 and §3): the prompt ("builds 2", "nothing to do"...), which units still need
   an order, the deadline in the viewer's own time zone, the tab's title, and the
   shapes that draw the player's pending orders on the map. No DOM, no fetch, no
   clock: loaded by the browser as a plain script (its one top-level name is
   StandoffPlay) and by Node's tests with require() (web-tests/play.test.js). */
"use strict";

const StandoffPlay = (() => {
  /* the option kinds of a legal table ({location: [option]}) */
  function kindsIn(table) {
    const kinds = new Set();
    for (const options of Object.values(table || {})) for (const o of options) kinds.add(o.kind);
    return kinds;
  }

  /* The builds (positive) or removals (negative) the rules allow ``power`` this
     phase, as the game view says (``powers[power].adjustment``): not centres minus
     units, which overcounts builds when home centres are taken or lost. */
  function due(game, power) {
    const seat = game.powers && game.powers[power];
    return (seat && Number(seat.adjustment)) || 0;
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  /* The locations of the table whose unit has no order yet (a move, hold,
     support, convoy, retreat or disband phase: one order a unit). ``described``:
     StandoffLogic.describeOrders' answer for the stored orders, each with the unit
     of the legal option it matches (the engine's, never read from order text). */
  function unordered(table, described) {
    const done = new Set(described.map((o) => o.location).filter(Boolean));
    const doneUnits = new Set(described.map((o) => o.unit).filter(Boolean));
    return Object.keys(table || {}).sort().filter((loc) => {
      const options = table[loc];
      if (!options.length || !options[0].unit) return false;
      if (options.every((o) => o.kind === "build" || o.kind === "waive" || o.kind === "remove")) return false;
      return !done.has(loc) && !doneUnits.has(options[0].unit);
    });
  }

  /* What this phase asks of the player: {kind, text, todo (the locations still to
     order), left (builds or removals still to give)}. kind: "spectator", "wait",
     "over", "none", "orders", "retreats", "builds", "removals". */
  function prompt(game, power, table, described) {
    if (!power) return {kind: "spectator", text: "", todo: [], left: 0};
    if (game.status === "forming") {
      return {kind: "wait", text: "The game starts when every seat is taken: nothing to order yet.", todo: [], left: 0};
    }
    if (game.status === "finished") return {kind: "over", text: "The game is over.", todo: [], left: 0};
    const kinds = kindsIn(table);
    const title = game.phase_title || game.phase;
    if (!kinds.size) {
      return {kind: "none", text: `${title}: nothing to do for you this phase (your units need no orders). ` +
        "You may still write messages.", todo: [], left: 0};
    }
    if (kinds.has("build") || kinds.has("waive")) {
      const n = Math.max(0, due(game, power));
      const given = described.length;
      const left = Math.max(0, n - given);
      return {kind: "builds", left, todo: [], text: `${title}: you may build ${plural(n, "unit")}. ` +
        (left ? `Click an empty home centre of yours (${left} left), or waive.` : "All builds given.")};
    }
    if (kinds.has("remove") && !kinds.has("move")) {
      const n = Math.max(0, -due(game, power));
      const left = Math.max(0, n - described.length);
      return {kind: "removals", left, todo: [], text: `${title}: you must remove ${plural(n, "unit")}. ` +
        (left ? `Click the units to remove (${left} left); otherwise the rules choose.` : "All removals given.")};
    }
    const todo = unordered(table, described);
    if (kinds.has("retreat") || (kinds.has("disband") && !kinds.has("move"))) {
      return {kind: "retreats", left: todo.length, todo, text: `${title}: your dislodged ` +
        (todo.length ? `unit${todo.length > 1 ? "s" : ""} at ${todo.join(", ")} must retreat or disband (else disbanded).`
          : "units all have orders.")};
    }
    return {kind: "orders", left: todo.length, todo, text: todo.length
      ? `${title}: give your units their orders. ${plural(todo.length, "unit")} still without an order ` +
        `(${todo.join(", ")}); a unit without one holds. Click a unit on the map.`
      : `${title}: all units ordered.`};
  }

  /* "Fri 20:00" in the viewer's own zone (``zone``: an IANA name, default the
     browser's), for a deadline (ISO) */
  function localTime(iso, zone) {
    if (!iso) return "";
    const opts = {weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
      hourCycle: "h23"};
    if (zone) opts.timeZone = zone;
    return new Intl.DateTimeFormat(undefined, opts).format(new Date(iso));
  }

  /* the deadline line beside the countdown: when, in the viewer's time, and the
     game's fixed clock time when it has one */
  function deadlineLine(game, viewerZone) {
    if (!game.deadline || game.status !== "active" || game.paused) return "";
    let line = "ends " + localTime(game.deadline, viewerZone) + " your time";
    if (game.deadline_time && game.time_zone) {
      line += ` (phases end at ${game.deadline_time} ${game.time_zone})`;
    }
    return line;
  }

  /* the tab's title: "(n) name" when n things want the player (the lobby's
     games needing orders and unread messages) */
  function tabTitle(base, count) { return count > 0 ? `(${count}) ${base}` : base; }

  /* how many things want the player in a lobby listing */
  function needsCount(games) {
    let n = 0;
    for (const g of games) n += (g.needs_orders ? 1 : 0) + (g.unread || 0);
    return n;
  }

  /* The shapes that draw one order, given each location's point on the map
     (``at(loc)`` -> [x, y] or null) and the option it matches (or null):
     [{shape: "arrow"|"support"|"convoy"|"hold"|"build"|"remove"|"permit", from, to, via}] */
  function shapes(option, at) {
    if (!option) return [];
    const from = at(option.location);
    if (!from) return [];
    const to = option.target ? at(option.target) : null;
    const subject = option.subject ? at(option.subject) : null;
    switch (option.kind) {
      case "move": case "retreat":
        return to ? [{shape: option.kind === "retreat" ? "retreat" : "arrow", from, to}] : [];
      case "support_hold": return subject ? [{shape: "support", from, to: subject}] : [];
      case "support_move":
        return subject && to ? [{shape: "support", from, via: mid(subject, to), to}] : [];
      case "convoy": return subject && to ? [{shape: "convoy", from, via: subject, to}] : [];
      case "hold": return [{shape: "hold", from}];
      case "build": return [{shape: "build", from}];
      case "remove": case "disband": return [{shape: "remove", from}];
      case "permit": return [{shape: "permit", from}];
      default: return [];
    }
  }

  function mid(a, b) { return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]; }

  /* a line from ``a`` toward ``b`` stopping ``gap`` short of it (an arrow's head
     then sits beside the target's unit, not on it) */
  function shorten(a, b, gap) {
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const len = Math.hypot(dx, dy);
    if (len <= gap * 2) return b;
    return [b[0] - dx / len * gap, b[1] - dy / len * gap];
  }

  /* Where a unit at ``loc`` ("stp/sc", "par") would stand, from its space's data
     attributes (the renderer's data-x, data-y and data-coasts); null when the map
     does not say. */
  function spaceSpot(data, loc) {
    const coasts = String(data.coasts || "").split(" ");
    for (let i = 0; i + 1 < coasts.length; i += 2) {
      if (coasts[i] === loc) {
        const [x, y] = coasts[i + 1].split(",").map(Number);
        if (Number.isFinite(x) && Number.isFinite(y)) return [x, y];
      }
    }
    if (data.x === undefined || data.y === undefined) return null;
    const x = Number(data.x), y = Number(data.y);
    return Number.isFinite(x) && Number.isFinite(y) ? [x, y] : null;
  }

  return {kindsIn, unordered, prompt, localTime, deadlineLine, tabTitle, needsCount, shapes,
    shorten, spaceSpot};
})();

if (typeof module !== "undefined" && module.exports) module.exports = StandoffPlay;
