/* The pages' pure functions: no DOM, no fetch, no clock of their own. The
   browser loads this file as a plain script (base.html, before common.js: its
   one top-level name is StandoffLogic); Node's tests load it with require()
   (web-tests/, `node --test`). Everything here takes its data as arguments.

   Ordering: the game page walks the tree of the engine's own legal orders
   (GET .../legal/options: per location, each order with its canonical text,
   kind, unit and targets) and never reads order text. A click narrows the
   options of the chosen location and kind by their next target; what is left
   is sent as the option's canonical text, and the engine decides which stored
   order it replaces. */
"use strict";

const StandoffLogic = (() => {
  /* the menu's kind buttons (data-testid order-kind-*) for the engine's kinds */
  const MENU_KIND = {support_hold: "support", support_move: "support", no_convert: "noconvert"};
  const KIND_LABELS = {hold: "Hold", move: "Move", support: "Support", convoy: "Convoy",
    retreat: "Retreat", disband: "Disband", build: "Build", remove: "Remove", waive: "Waive",
    permit: "Permit", noconvert: "No convert", other: "Other"};
  /* the order of the kind buttons */
  const KIND_ORDER = ["hold", "move", "support", "convoy", "retreat", "disband", "build",
    "remove", "waive", "permit", "noconvert"];

  /* a location's province: "STP/SC" -> "STP" (clicks on the map give provinces) */
  function province(loc) { return String(loc).split("/")[0].toUpperCase(); }

  function sameSpace(a, b) { return a === b || province(a) === province(b); }

  function menuKind(option) { return MENU_KIND[option.kind] || option.kind || "other"; }

  /* the locations a player clicks on the map, in order, after the unit and the
     kind: a move's or retreat's destination; the supported unit (and its
     destination); the convoyed army and its destination */
  function clicks(option) {
    switch (option.kind) {
      case "move": case "retreat": return [option.target];
      case "support_hold": return [option.subject];
      case "support_move": case "convoy": return [option.subject, option.target];
      default: return [];
    }
  }

  /* the kinds offered at a location, in the menu's order */
  function kindsOf(options) {
    const found = new Set(options.map(menuKind));
    return [...KIND_ORDER.filter((k) => found.has(k)), ...[...found].filter((k) => !KIND_ORDER.includes(k))];
  }

  /* the legal table's keys a click on ``loc`` (a map space, upper case) selects:
     the location itself, else every key in its province (coasts, a canal's id) */
  function keysAt(table, loc) {
    if (table[loc]) return [loc];
    return Object.keys(table).sort().filter((k) => province(k) === province(loc));
  }

  /* the options still open after clicking ``loc`` as click number ``step`` */
  function narrow(candidates, step, loc) {
    return candidates.filter((o) => {
      const t = clicks(o)[step];
      return t !== undefined && t !== null && sameSpace(t, loc);
    });
  }

  /* Two moves that differ only in their route: the same destination by land and
     by convoy (DATC 4.A.3: the player says which). Their pair, or null. */
  function landOrConvoy(candidates) {
    if (candidates.length !== 2) return null;
    const convoy = candidates.find((o) => o.via === "convoy");
    const land = candidates.find((o) => o.via !== "convoy");
    if (!convoy || !land || convoy.kind !== "move" || land.kind !== "move") return null;
    return convoy.target === land.target ? {land, convoy} : null;
  }

  /* What the pad does next with the options left after ``step`` clicks:
     {send: option} (one left, nothing more to click), {via: {land, convoy}}
     (ask "by land or by convoy?"), {click: [locations]} (the next targets on the
     map; ``options`` may be picked from the list instead, e.g. a support to hold),
     {pick: options} (several finished orders: coasts, unit types), or {none}. */
  function next(candidates, step) {
    if (!candidates.length) return {none: true};
    const open = candidates.filter((o) => clicks(o).length > step);
    if (open.length) {
      const targets = [...new Set(open.map((o) => clicks(o)[step]))];
      return {click: targets, options: candidates};
    }
    if (candidates.length === 1) return {send: candidates[0]};
    const pair = landOrConvoy(candidates);
    if (pair) return {via: pair};
    return {pick: candidates};
  }

  /* the hint above the menus for a state of the pad */
  function hint(key, kind, step) {
    if (!key) return "Click one of your units (or a location below).";
    if (!kind) return `${key}: pick the order.`;
    if (step.via) return "By land or by convoy?";
    if (step.click) return "Click the target on the map (or pick below).";
    return "Pick the order below.";
  }

  /* the player's stored orders (canonical texts) matched to the offered options:
     [{order, kind, location, unit}], ``unit`` the option's, as the engine writes
     it. A stored order no option has (kind "other", location null: a support typed
     with a coast, which the options list without one) still has its unit, the one of
     the table's units its canonical text begins with (the engine writes every unit's
     order so), else null. */
  function describeOrders(orders, table) {
    const byText = new Map();
    const units = new Set();
    for (const [loc, options] of Object.entries(table)) {
      for (const o of options) {
        if (!byText.has(o.order)) byText.set(o.order, {loc, option: o});
        if (o.unit) units.add(o.unit);
      }
    }
    return orders.map((text) => {
      const hit = byText.get(text);
      if (hit) return {order: text, kind: menuKind(hit.option), location: hit.loc, unit: hit.option.unit};
      const unit = [...units].find((u) => text.startsWith(u + " ")) || null;
      return {order: text, kind: "other", location: null, unit};
    });
  }

  /* The adjustments a step asks (a Winter phase), from the rules' count (a board
     step's ``adjustments``: power -> builds, or removals if negative):
     [{power, builds, removals}] in the order of the powers' ids. */
  function adjustments(counts) {
    return Object.keys(counts || {}).sort().filter((power) => counts[power])
      .map((power) => ({power, builds: Math.max(0, counts[power]), removals: Math.max(0, -counts[power])}));
  }

  /* "1d 02:03:04" for a number of seconds (never negative) */
  function durationText(seconds) {
    let s = Math.max(0, Math.floor(seconds));
    const d = Math.floor(s / 86400); s %= 86400;
    const h = Math.floor(s / 3600); s %= 3600;
    const m = Math.floor(s / 60); s %= 60;
    const two = (n) => String(n).padStart(2, "0");
    return (d ? d + "d " : "") + two(h) + ":" + two(m) + ":" + two(s);
  }

  /* the time left until ``iso`` (a deadline) at ``now`` (ms since the epoch) */
  function untilText(iso, now) {
    if (!iso) return "";
    return durationText((Date.parse(iso) - now) / 1000);
  }

  /* how a finished game ended, after its status ("": not over) */
  function outcomeText(outcome, names) {
    if (!outcome) return "";
    const name = (p) => (names && names[p]) || p;
    if (outcome.winner) return ": won by " + name(outcome.winner);
    if (Array.isArray(outcome.draw)) return ": drawn between " + outcome.draw.map(name).join(", ");
    if (outcome.cancelled) return ": cancelled by its master before it started";
    return ": " + Object.entries(outcome).map(([k, v]) => k + " " + v).join(", ");
  }

  /* Seats and bots. The create form's seating choices as the API's fields of
     POST /games: {body} (only the fields chosen), or {error} (a sentence). ``c``:
     power ("" for none), bots ({power: bot or ""}), empty ("wait", "now": fill
     every other seat at once, "later": those still empty after ``hours``),
     fillBot, hours, takeover (bool), takeoverAfter, takeoverBot. */
  const MAX_JOIN_HOURS = 30 * 24;
  function seatingBody(c) {
    const body = {};
    if (c.power) body.power = c.power;
    const bots = Object.entries(c.bots || {}).filter(([, b]) => b);
    if (c.power && bots.some(([p]) => p === c.power)) {
      return {error: "You play " + c.power + " yourself: leave its seat to a person, not a bot."};
    }
    if (bots.length) body.bots = Object.fromEntries(bots);
    if (c.empty === "now" || c.empty === "later") {
      let hours = 0;
      if (c.empty === "later") {
        hours = String(c.hours ?? "").trim() === "" ? NaN : Number(c.hours);
        if (!Number.isFinite(hours) || hours < 0 || hours > MAX_JOIN_HOURS) {
          return {error: "Say how many hours the game waits for people (0 to " + MAX_JOIN_HOURS + ")."};
        }
      }
      body.fill_bot = c.fillBot;
      body.join_seconds = Math.round(hours * 3600);
    }
    if (c.takeover) {
      const after = Number(c.takeoverAfter);
      if (!Number.isInteger(after) || after < 1 || after > 50) {
        return {error: "Say after how many missed phases in a row a bot takes over (1 to 50)."};
      }
      body.takeover_after = after;
      body.takeover_bot = c.takeoverBot;
    }
    return {body};
  }

  /* what the powers table says of a seat (GET /games/{id}'s powers[p]), beside its
     player: who plays it if not its person, and whether it is free to take */
  function seatBadges(seat) {
    const out = [];
    if (seat.away) out.push({kind: "away", text: "on leave"});
    if (seat.bot) out.push({kind: "bot", text: "bot: " + seat.bot});
    if (seat.open) out.push({kind: "open", text: "open for a new player"});
    return out;
  }

  /* The leave form's fields (datetime-local texts, read as local time; an empty
     start is now) as PUT .../away's body: {body} or {error}. ``now``: ms. */
  function leaveBody(start, until, bot, now) {
    if (!until) return {error: "Say until when you are away."};
    const end = new Date(until).getTime();
    const from = start ? new Date(start).getTime() : null;
    if (!Number.isFinite(end) || (start && !Number.isFinite(from))) {
      return {error: "Give the dates as the boxes show them."};
    }
    if (end <= Math.max(from === null ? now : from, now)) {
      return {error: "Your leave must end after it starts, and in the future."};
    }
    const body = {until: new Date(end).toISOString(), bot: bot || null};
    if (from !== null) body.start = new Date(from).toISOString();
    return {body};
  }

  /* the player's own leave ({start, until, bot}, ISO times) in a sentence; ``when``
     formats a time, ``now`` in ms */
  function leaveText(leave, when, now) {
    if (!leave) return "";
    const started = !leave.start || Date.parse(leave.start) <= now;
    const plays = leave.bot ? "the " + leave.bot + " bot plays your power" : "your units hold";
    return (started ? "On leave until " + when(leave.until)
      : "On leave from " + when(leave.start) + " until " + when(leave.until)) + ": " + plays + ".";
  }

  /* a phase's bots ({power: bot}, GET .../phases) in a line: "" when people played all */
  function botsLine(bots, names) {
    const parts = Object.entries(bots || {}).map(([p, b]) => ((names && names[p]) || p) + " (" + b + ")");
    return parts.length ? "Played by bots: " + parts.join(", ") : "";
  }

  /* the phase waits for bots alone (every power with orders to give is ready or
     played by a bot): the page asks again soon, since it moves within a second */
  function waitsForBots(game) {
    if (!game || game.status !== "active" || game.paused) return false;
    const due = Object.values(game.powers).filter((s) => s.to_order);
    return due.length > 0 && due.every((s) => s.ready || s.bot);
  }

  return {KIND_LABELS, province, menuKind, clicks, kindsOf, keysAt, narrow, landOrConvoy, next,
    hint, describeOrders, adjustments, durationText, untilText, outcomeText,
    seatingBody, seatBadges, leaveBody, leaveText, botsLine, waitsForBots};
})();

if (typeof module !== "undefined" && module.exports) module.exports = StandoffLogic;
