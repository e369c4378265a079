/* The game page's seats: who plays a power when its person does not (a bot, on
   leave, open for a new player) beside its player in the powers table, with a
   take-over button for a viewer who plays no power; the player's own leave
   (PUT and DELETE .../away: until when, and a bot or nothing meanwhile); the
   master's seat actions (open a seat for a replacement with a bot standing in,
   fill the empty seats with bots and start now) and the phases in which a bot
   gave no orders. The API decides everything; a refusal shows its reason. The
   sentences come from logic.js (seatBadges, leaveBody, leaveText). The lobby loads
   this file too, for the same badges on its game lines (seatBadge, listedBots,
   joinSeats); Node's tests load the pure ones (module.exports). */
/* global module */
"use strict";

/* one badge ({kind, text}: StandoffLogic.seatBadges' or the lobby's) as every page
   shows who plays a seat, so the game page and the lobby cannot drift apart */
function seatBadge(b, testid, title) {
  return el("span", {class: "seat-badge " + b.kind, "data-testid": testid, title}, b.text);
}

/* A listed game's bots (GET /games: bots {power: bot}, disclosed to everyone,
   anonymous games included) as the lobby's badge: null when people play every seat,
   else the powers (in order) and "3 bots: austria, england, france". */
function listedBots(bots) {
  const powers = Object.keys(bots || {}).sort();
  if (!powers.length) return null;
  return {powers, text: `${powers.length} bot${powers.length > 1 ? "s" : ""}: ${powers.join(", ")}`};
}

/* The join choices of a forming game in the listing (``powers``: the variant's;
   ``g``: its taken_powers and bots): each power with the bot that plays it, and
   whether a person may still take it. A bot's seat is never free, even if the
   listing's taken_powers left it out. */
function joinSeats(powers, g) {
  const taken = new Set(g.taken_powers || []);
  const bots = g.bots || {};
  return powers.map((p) => ({power: p, bot: bots[p] || null, free: !taken.has(p) && !bots[p]}));
}

/* a datetime-local box's value for a moment (ms), in the browser's time zone */
function localInputValue(ms) {
  const d = new Date(ms);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

function when(iso) { return new Date(iso).toLocaleString(); }

class SeatDesk {
  /* ``game``: the page's data (id, power, master, names, bots {choices, default},
     leave); ``refresh``: reloads the game after a change */
  constructor(game, refresh) {
    this.game = game;
    this.refresh = refresh;
    this.leave = game.leave || null;
    this.built = false;
    const leaveBot = document.getElementById("leave-bot");
    if (leaveBot) {
      this.botOptions(leaveBot, "nobody: my units hold", game.bots.default);
      document.getElementById("leave-until").value = localInputValue(Date.now() + 7 * 86400e3);
      document.getElementById("leave-form").addEventListener("submit", (ev) => {
        ev.preventDefault(); this.goAway();
      });
      document.getElementById("leave-back").addEventListener("click", () => this.back());
    }
    const fillBot = document.getElementById("master-fill-bot");
    if (fillBot) {
      this.botOptions(fillBot, null, game.bots.default);
      this.botOptions(document.getElementById("master-open-bot"), "nobody (civil disorder)",
        game.bots.default);
      document.getElementById("master-fill").addEventListener("click", () => this.fill());
      document.getElementById("master-open").addEventListener("click", () => this.openSeat());
    }
  }

  name(p) { return this.game.names[p] || p; }

  botOptions(select, nobody, chosen) {
    select.replaceChildren();
    if (nobody) select.append(el("option", {value: ""}, nobody));
    for (const b of this.game.bots.choices) {
      select.append(el("option", {value: b.name, title: b.description, selected: b.name === chosen},
        b.name + " bot"));
    }
  }

  /* the powers table's player cell: the person (or "anonymous"), who else plays the
     seat now, and a take-over button for a viewer who plays no power */
  playerCell(p, s, g) {
    const cell = el("td", {});
    if (s.player) cell.append(s.player);
    else if (!s.bot && !s.open) cell.append(g.anonymous ? "anonymous" : "—");
    for (const b of StandoffLogic.seatBadges(s)) cell.append(" ", seatBadge(b, b.kind + "-" + p));
    if (s.open && g.status === "active" && !this.game.power) {
      cell.append(" ", el("button", {type: "button", class: "small", "data-testid": "takeover-" + p,
        onclick: () => this.takeOver(p)}, "Take over"));
    }
    return cell;
  }

  render(g) {
    if (this.leave && Date.parse(this.leave.until) <= Date.now()) this.leave = null;
    const state = document.getElementById("leave-state");
    if (state) {
      state.textContent = this.leave ? StandoffLogic.leaveText(this.leave, when, Date.now())
        : "Say until when you are away, and which bot plays meanwhile (or let your units hold).";
      document.getElementById("leave-back").hidden = !this.leave;
      document.getElementById("leave-form").hidden = Boolean(this.leave);
    }
    const rules = [];
    if (g.status === "forming" && g.fill_bot && g.join_by) {
      rules.push(`Seats still empty at ${when(g.join_by)} go to the ${g.fill_bot} bot.`);
    }
    if (g.status !== "finished" && g.takeover_after) {
      rules.push(`A player who sends nothing for ${g.takeover_after} phase${g.takeover_after > 1 ? "s" : ""} ` +
        `in a row is replaced by the ${g.takeover_bot} bot until they send orders again; ` +
        "their seat then opens for a new player.");
    }
    document.getElementById("seat-rules").textContent = rules.join(" ");
    if (this.game.master) this.renderMaster(g);
  }

  renderMaster(g) {
    document.getElementById("master-fill-row").hidden = g.status !== "forming";
    document.getElementById("master-open-row").hidden = g.status !== "active";
    const powers = document.getElementById("master-open-power");
    if (!this.built) {
      for (const p of Object.keys(g.powers)) powers.append(el("option", {value: p}, this.name(p)));
      this.built = true;
    }
    const list = document.getElementById("bot-failures");
    list.replaceChildren();
    for (const f of g.bot_failures || []) {
      list.append(el("li", {"data-testid": "bot-failure"},
        `${f.phase} · ${this.name(f.power)} · ${f.bot} bot: ${f.error}`));
    }
    if (!list.children.length) list.append(el("li", {class: "muted"}, "None."));
  }

  async takeOver(p) {
    showError("takeover-error", null);
    try {
      await api("POST", `/games/${this.game.id}/seats`, {power: p});
      location.reload();
    } catch (e) { showError("takeover-error", e); }
  }

  async goAway() {
    showError("leave-error", null);
    const got = StandoffLogic.leaveBody(document.getElementById("leave-start").value,
      document.getElementById("leave-until").value, document.getElementById("leave-bot").value,
      Date.now());
    if (got.error) { showError("leave-error", new Error(got.error)); return; }
    try {
      const away = await api("PUT", `/games/${this.game.id}/away`, got.body);
      this.leave = {start: away.start, until: away.until, bot: away.bot};
    } catch (e) { showError("leave-error", e); }
    await this.refresh();
  }

  async back() {
    showError("leave-error", null);
    try {
      await api("DELETE", `/games/${this.game.id}/away`);
      this.leave = null;
    } catch (e) { showError("leave-error", e); }
    await this.refresh();
  }

  async openSeat() {
    showError("master-error", null);
    const p = document.getElementById("master-open-power").value;
    const bot = document.getElementById("master-open-bot").value || null;
    if (!window.confirm(`Open ${this.name(p)}'s seat for a new player? Its player leaves the game.`)) return;
    try {
      await api("POST", `/games/${this.game.id}/master/seats/${encodeURIComponent(p)}/open`, {bot});
    } catch (e) { showError("master-error", e); }
    await this.refresh();
  }

  async fill() {
    showError("master-error", null);
    try {
      await api("POST", `/games/${this.game.id}/master/fill`,
        {bot: document.getElementById("master-fill-bot").value});
      location.reload();
    } catch (e) { showError("master-error", e); }
  }
}

if (typeof module !== "undefined" && module.exports) module.exports = {listedBots, joinSeats};
