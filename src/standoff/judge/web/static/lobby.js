/* The lobby: my games, seats open for a new player in games under way, open
   games (with a join button per free power: all from one GET /games, no request
   per game), the create form (every bundled variant, its rule options,
   deadlines, press, anonymous, private; the creator's own power and the bots
   that take the other seats, now, after a join period, or per power; a bot
   taking over a seat whose player stops sending orders). Everything goes
   through the API. Every line says which powers bots play (the listing's bots, the
   game page's badge from seats.js): a bot's seat is never offered to join, and a
   seat opened for a replacement says so, with the bot standing in. */
/* global seatBadge, listedBots, joinSeats */
"use strict";

const VARIANTS = Object.fromEntries(
  JSON.parse(document.getElementById("variants-data").textContent).map((v) => [v.name, v]));
/* {choices: [{name, description}], default}: the bots on offer (GET /api/v1/bots) */
const BOTS = JSON.parse(document.getElementById("bots-data").textContent);

function gameLine(g) {
  const bits = [VARIANTS[g.variant] ? VARIANTS[g.variant].title : g.variant, g.status];
  if (g.status !== "forming") bits.push(g.phase_title || g.phase);
  if (g.status === "active" && g.deadline) bits.push("deadline " + StandoffPlay.localTime(g.deadline));
  else bits.push(g.seats_taken + "/" + g.seats + " seats");
  if (g.your_power) bits.push("you: " + g.your_power);
  if (g.master) bits.push("master");
  if (g.press !== "full") bits.push("press: " + g.press);
  if (g.private) bits.push("private");
  if (g.anonymous) bits.push("anonymous");
  return bits.join(" · ");
}

/* the line's word on its bots (every list: mine, open seats, open games): one
   badge naming the powers, each power's bot in its title */
function botsBadge(g) {
  const bots = listedBots(g.bots);
  if (!bots) return null;
  const badge = seatBadge({kind: "bot", text: bots.text}, "bots-" + g.id, StandoffLogic.botsLine(g.bots));
  badge.dataset.powers = bots.powers.join(" ");
  return el("span", {}, " ", badge);
}

async function join(gameId, power, invite) {
  showError("join-error", null);
  const body = {};
  if (power) body.power = power;
  if (invite) body.invite = invite;
  try {
    await api("POST", "/games/" + gameId + "/seats", body);
    location.href = "/games/" + gameId;
  } catch (e) { showError("join-error", e); }
}

function joinButtons(g) {
  // from the listing alone (taken_powers, bots): no request per game; a bot's seat
  // is its badge, never a button
  const box = el("div", {class: "joins", "data-testid": "join-" + g.id});
  const variant = VARIANTS[g.variant];
  if (variant) {  // an uploaded variant's powers are on its game page
    for (const s of joinSeats(variant.powers, g)) {
      const p = s.power;
      if (s.bot) {
        for (const b of StandoffLogic.seatBadges({bot: s.bot})) {
          box.append(seatBadge({kind: b.kind, text: p + " · " + b.text}, "seat-bot-" + g.id + "-" + p), " ");
        }
        continue;
      }
      box.append(el("button", {type: "button", class: "small", "data-testid": "join-" + g.id + "-" + p,
        disabled: !s.free, onclick: () => join(g.id, p)}, p));
    }
  }
  box.append(el("button", {type: "button", class: "small", "data-testid": "join-" + g.id + "-any",
    onclick: () => join(g.id, null)}, "any free power"));
  return box;
}

/* The listing, one page (the server's largest, 500 games) per request; the next
   page's address comes in the Link header, fetched when "More games" is pressed. */
async function listingPage(path) {
  const res = await fetch(path, {headers: {"Accept": "application/json"}, credentials: "same-origin"});
  if (!res.ok) {
    const data = await res.json().catch(() => null);
    throw new ApiFailure(res.status, (data && data.detail) || String(res.status));
  }
  const link = res.headers.get("link") || "";
  const next = link.match(/^<([^>]+)>;\s*rel="next"/);
  return {games: await res.json(), next: next && next[1].startsWith("/api/v1/games?") ? next[1] : null};
}

/* what wants the player in their running games: "orders needed", unread messages */
function needBadges(g) {
  const box = el("span", {});
  if (g.needs_orders) box.append(" ", el("span", {class: "need", "data-testid": "needs-orders-" + g.id}, "orders needed"));
  if (g.unread) box.append(" ", el("span", {class: "badge", title: "unread messages",
    "data-testid": "unread-" + g.id}, g.unread + " unread"));
  return box;
}

/* the tab's title and icon say when something wants the player */
let wanted = 0;
function markTab(games) {
  wanted += StandoffPlay.needsCount(games);
  document.title = StandoffPlay.tabTitle("Lobby · standoff", wanted);
  const icon = document.querySelector('link[rel="icon"]');
  if (icon) icon.href = wanted ? "/static/favicon-alert.svg" : "/static/favicon.svg";
}

function addGames(games) {
  const mine = document.getElementById("my-games");
  const open = document.getElementById("open-games");
  const rows = {mine: document.createDocumentFragment(), open: document.createDocumentFragment()};
  for (const g of games) {
    if (g.your_power || g.master) {
      const link = el("a", {href: "/games/" + g.id, "data-testid": "game-link-" + g.id}, g.name);
      rows.mine.append(el("li", {"data-game": g.id}, link, " ", el("span", {class: "muted"}, gameLine(g)),
        botsBadge(g), needBadges(g)));
    }
    if (g.status === "active" && (g.open_powers || []).length && !g.your_power) addOpenSeat(g);
    if (g.status === "forming" && !g.your_power && !g.private) {
      rows.open.append(el("li", {"data-game": g.id}, el("a", {href: "/games/" + g.id}, g.name), " ",
        el("span", {class: "muted"}, gameLine(g)), botsBadge(g), joinButtons(g)));
    }
  }
  for (const list of [mine, open]) {
    for (const stale of list.querySelectorAll("li.empty")) stale.remove();
  }
  mine.append(rows.mine); open.append(rows.open);
  markTab(games);
  const seats = document.getElementById("open-seats");
  for (const stale of seats.querySelectorAll("li.empty")) stale.remove();
  if (!seats.children.length) seats.append(el("li", {class: "muted empty"}, "No seat is open."));
  if (!mine.children.length) mine.append(el("li", {class: "muted empty"}, "None yet: create or join one."));
  if (!open.children.length) open.append(el("li", {class: "muted empty"}, "No open games."));
}

/* a running public game with seats open for a new player (the listing says
   which: open_powers), each a "take over" button with the game page's badges: open
   for a new player, and the bot standing in meanwhile */
function addOpenSeat(g) {
  const list = document.getElementById("open-seats");
  const box = el("div", {class: "joins"});
  for (const p of g.open_powers) {
    const seat = el("span", {class: "open-seat"},
      el("button", {type: "button", class: "small", "data-testid": "takeover-" + g.id + "-" + p,
        onclick: () => join(g.id, p)}, "take over " + p));
    for (const b of StandoffLogic.seatBadges({open: true, bot: (g.bots || {})[p] || null})) {
      seat.append(" ", seatBadge(b, "seat-" + b.kind + "-" + g.id + "-" + p));
    }
    box.append(seat, " ");
  }
  const title = VARIANTS[g.variant] ? VARIANTS[g.variant].title : g.variant;
  list.append(el("li", {"data-game": g.id}, el("a", {href: "/games/" + g.id}, g.name), " ",
    el("span", {class: "muted"}, title + " · " + (g.phase_title || g.phase)), botsBadge(g), box));
}

/* the create form's seat choices follow the variant: its powers for "You play" and
   for a bot per power */
function botOptions(select, withPerson, chosen) {
  select.replaceChildren();
  if (withPerson) select.append(el("option", {value: ""}, withPerson));
  for (const b of BOTS.choices) {
    select.append(el("option", {value: b.name, title: b.description,
      selected: b.name === chosen}, b.name));
  }
}

function seatChoices(form) {
  const variant = VARIANTS[form.elements["variant"].value];
  const powers = variant ? variant.powers : [];
  const mine = document.getElementById("create-power");
  const kept = mine.value;
  mine.replaceChildren(el("option", {value: ""}, "no power (I only run the game)"));
  for (const p of powers) mine.append(el("option", {value: p, selected: p === kept}, p));
  const perPower = document.getElementById("create-bots");
  perPower.replaceChildren();
  for (const p of powers) {
    const select = el("select", {"data-power": p, "data-testid": "create-bot-" + p});
    botOptions(select, "a person", null);
    perPower.append(el("label", {class: "check"}, el("span", {class: "power-label"}, p), select));
  }
}

function seating(form) {
  const f = form.elements;
  const bots = {};
  for (const select of document.querySelectorAll("#create-bots select")) {
    bots[select.dataset.power] = select.value;
  }
  return StandoffLogic.seatingBody({power: f["power"].value, bots, empty: f["empty"].value,
    fillBot: f["fill_bot"].value, hours: f["join_hours"].value, takeover: f["takeover"].checked,
    takeoverAfter: f["takeover_after"].value, takeoverBot: f["takeover_bot"].value});
}

async function loadGames(path) {
  const more = document.getElementById("more-games");
  more.hidden = true;
  const page = await listingPage(path);
  addGames(page.games);
  more.hidden = !page.next;
  more.dataset.next = page.next || "";
}

document.addEventListener("DOMContentLoaded", () => {
  loadGames("/api/v1/games").catch((e) => showError("join-error", e));
  const more = document.getElementById("more-games");
  more.addEventListener("click", () => {
    loadGames(more.dataset.next).catch((e) => showError("join-error", e));
  });
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  document.getElementById("create-time-zone").value = zone;
  const zones = document.getElementById("time-zones");
  for (const z of (Intl.supportedValuesOf ? Intl.supportedValuesOf("timeZone") : [zone])) {
    zones.append(el("option", {value: z}));
  }
  const form = document.getElementById("create-form");
  for (const select of form.querySelectorAll(".bot-choice")) botOptions(select, null, BOTS.default);
  document.getElementById("bot-descriptions").textContent =
    BOTS.choices.map((b) => b.name + ": " + b.description).join("\n");
  seatChoices(form);
  form.elements["variant"].addEventListener("change", () => seatChoices(form));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("create-error", null);
    const seats = seating(form);
    if (seats.error) { showError("create-error", new Error(seats.error)); return; }
    const f = form.elements;
    const minutes = (name) => Math.round(Number(f[name].value) * 60);
    const options = {};
    for (const sel of form.querySelectorAll("[data-option]")) {
      if (sel.selectedIndex > 0) options[sel.dataset.option] = sel.value;
    }
    const body = {name: f["name"].value, variant: f["variant"].value, options,
      deadlines: {movement: minutes("movement"), retreat: minutes("retreat"),
                  adjustment: minutes("adjustment")},
      ...(f["fixed"].checked ? {deadline_time: f["deadline_time"].value, time_zone: f["time_zone"].value.trim()} : {}),
      press: f["press"].value, anonymous: f["anonymous"].checked, private: f["private"].checked,
      ...seats.body};
    try {
      const game = await api("POST", "/games", body);
      location.href = "/games/" + game.id;
    } catch (e) { showError("create-error", e); }
  });
  const boardForm = document.getElementById("board-form");
  boardForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("create-error", null);
    try {
      const board = await api("POST", "/boards", {variant: boardForm.elements["variant"].value});
      location.href = "/boards/" + encodeURIComponent(board.key);
    } catch (e) { showError("create-error", e); }
  });
  const invite = document.getElementById("invite-form");
  invite.addEventListener("submit", (ev) => {
    ev.preventDefault();
    join(invite.elements["game"].value, null, invite.elements["code"].value);
  });
});
