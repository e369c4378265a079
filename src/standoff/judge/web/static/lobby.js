/* The lobby: my games, open games (with a join button per free power), the
   create form (every bundled variant, its rule options, deadlines, press,
   anonymous, private). Everything goes through the API. */
"use strict";

const VARIANTS = Object.fromEntries(
  JSON.parse(document.getElementById("variants-data").textContent).map((v) => [v.name, v]));

function gameLine(g) {
  const bits = [VARIANTS[g.variant] ? VARIANTS[g.variant].title : g.variant, g.status];
  if (g.status !== "forming") bits.push(g.phase);
  else bits.push(g.seats_taken + "/" + g.seats + " seats");
  if (g.your_power) bits.push("you: " + g.your_power);
  if (g.master) bits.push("master");
  if (g.press !== "full") bits.push("press: " + g.press);
  if (g.private) bits.push("private");
  if (g.anonymous) bits.push("anonymous");
  return bits.join(" · ");
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

async function joinButtons(g) {
  const box = el("div", {class: "joins", "data-testid": "join-" + g.id});
  let taken = {};
  try {
    const full = await api("GET", "/games/" + g.id);
    taken = full.powers;
  } catch (e) { return box; }
  const variant = VARIANTS[g.variant];
  for (const p of (variant ? variant.powers : Object.keys(taken))) {
    const seat = taken[p];
    const free = !seat || !seat.player;
    box.append(el("button", {type: "button", class: "small", "data-testid": "join-" + g.id + "-" + p,
      disabled: !free, onclick: () => join(g.id, p)}, p));
  }
  box.append(el("button", {type: "button", class: "small", "data-testid": "join-" + g.id + "-any",
    onclick: () => join(g.id, null)}, "any free power"));
  return box;
}

async function loadGames() {
  const games = await api("GET", "/games");
  const mine = document.getElementById("my-games");
  const open = document.getElementById("open-games");
  mine.replaceChildren(); open.replaceChildren();
  for (const g of games) {
    const link = el("a", {href: "/games/" + g.id, "data-testid": "game-link-" + g.id}, g.name);
    const li = el("li", {"data-game": g.id}, link, " ", el("span", {class: "muted"}, gameLine(g)));
    if (g.your_power || g.master) mine.append(li);
    if (g.status === "forming" && !g.your_power && !g.private) {
      const item = el("li", {"data-game": g.id}, el("a", {href: "/games/" + g.id}, g.name), " ",
        el("span", {class: "muted"}, gameLine(g)));
      item.append(await joinButtons(g));
      open.append(item);
    }
  }
  if (!mine.children.length) mine.append(el("li", {class: "muted"}, "None yet: create or join one."));
  if (!open.children.length) open.append(el("li", {class: "muted"}, "No open games."));
}

document.addEventListener("DOMContentLoaded", () => {
  loadGames().catch((e) => showError("join-error", e));
  const form = document.getElementById("create-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("create-error", null);
    const f = form.elements;
    const minutes = (name) => Math.round(Number(f[name].value) * 60);
    const options = {};
    for (const sel of form.querySelectorAll("[data-option]")) {
      if (sel.selectedIndex > 0) options[sel.dataset.option] = sel.value;
    }
    const body = {name: f["name"].value, variant: f["variant"].value, options,
      deadlines: {movement: minutes("movement"), retreat: minutes("retreat"),
                  adjustment: minutes("adjustment")},
      press: f["press"].value, anonymous: f["anonymous"].checked, private: f["private"].checked};
    try {
      const game = await api("POST", "/games", body);
      location.href = "/games/" + game.id;
    } catch (e) { showError("create-error", e); }
  });
  const invite = document.getElementById("invite-form");
  invite.addEventListener("submit", (ev) => {
    ev.preventDefault();
    join(invite.elements["game"].value, null, invite.elements["code"].value);
  });
});
