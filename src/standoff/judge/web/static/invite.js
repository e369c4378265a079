/* The invite page of a private game: the code typed in the box, or given in the
   address's fragment (#invite=CODE, which never leaves the browser), is checked by
   the API (sent as the X-Invite-Code header, never in a URL); when it opens the
   game, its free powers are offered and taking one opens the game's page. */
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const panel = document.getElementById("join-panel");
  const gameId = panel.dataset.game;
  const box = document.getElementById("join-invite");
  const powers = document.getElementById("join-powers");
  let timer = null;

  async function gameWith(code) {
    const res = await fetch("/api/v1/games/" + gameId, {credentials: "same-origin",
      headers: {"Accept": "application/json", "X-Invite-Code": code}});
    const data = await res.json().catch(() => null);
    if (!res.ok) throw new ApiFailure(res.status, (data && data.detail) || String(res.status));
    return data;
  }

  async function join(code, power) {
    try {
      await api("POST", "/games/" + gameId + "/seats", {power, invite: code});
      location.href = "/games/" + gameId;
    } catch (e) { showError("invite-error", e); }
  }

  async function tryCode(quiet) {
    const code = box.value.trim();
    powers.replaceChildren();
    if (!code) return;
    let game;
    try { game = await gameWith(code); } catch (e) {
      if (!quiet) showError("invite-error", e.status === 403 ? "That code does not open this game." : e);
      return;
    }
    showError("invite-error", null);
    if (game.status !== "forming") { location.href = "/games/" + gameId; return; }
    for (const [p, seat] of Object.entries(game.powers)) {
      powers.append(el("button", {type: "button", class: "small", "data-testid": "join-" + p,
        disabled: Boolean(seat.player), onclick: () => join(code, p)}, p));
    }
  }

  const fromFragment = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (fromFragment) {
    box.value = fromFragment;
    history.replaceState(null, "", location.pathname);  // out of the address bar and history
    tryCode(false);
  }
  box.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => tryCode(true), 300); });
  document.getElementById("invite-form").addEventListener("submit", (ev) => { ev.preventDefault(); tryCode(false); });
});
