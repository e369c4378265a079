/* Messages: the caller's conversations (public "all", private and group ones,
   named by their powers) with unread counts, the open conversation's messages
   (marked read when shown), and a form whose recipients follow the game's
   press mode. The API decides who may write what; refusals show its reason. */
"use strict";

class Press {
  constructor(game) {
    this.game = game;
    this.open = "all";
    this.lastId = 0;
    this.convs = [];
    this.form = document.getElementById("message-form");
    this.form.addEventListener("submit", (ev) => { ev.preventDefault(); this.send(); });
    this.renderTo();
  }

  others() { return Object.keys(this.game.names).filter((p) => p !== this.game.power); }

  /* recipients: public always (the API refuses where press is none), powers in full press */
  renderTo() {
    const box = document.getElementById("message-to");
    box.replaceChildren(el("span", {class: "muted"}, "To: "));
    box.append(el("label", {class: "check"}, el("input", {type: "checkbox", value: "all",
      "data-testid": "message-to-all", checked: this.open === "all"}), " everyone"));
    if (this.game.press === "full") {
      const inOpen = this.open === "all" ? [] : this.open.split(",");
      for (const p of this.others()) {
        box.append(el("label", {class: "check"}, el("input", {type: "checkbox", value: p,
          "data-testid": "message-to-" + p, checked: inOpen.includes(p)}), " " + (this.game.names[p] || p)));
      }
    }
  }

  recipients() {
    const picked = [...document.querySelectorAll("#message-to input:checked")].map((i) => i.value);
    return picked.includes("all") || !picked.length ? "all" : picked;
  }

  async send() {
    showError("message-error", null);
    const body = document.getElementById("message-body");
    const to = this.recipients();
    try {
      const m = await api("POST", `/games/${this.game.id}/messages`, {to, body: body.value});
      body.value = "";
      this.open = m.conversation;
      await this.refresh();
    } catch (e) { showError("message-error", e); }
  }

  async refresh() {
    try {
      this.convs = await api("GET", `/games/${this.game.id}/conversations`);
    } catch (e) { return; }
    const total = this.convs.reduce((n, c) => n + c.unread, 0);
    const badge = document.getElementById("unread-total");
    badge.textContent = total ? String(total) : "";
    badge.className = total ? "badge" : "";
    const tabs = document.getElementById("conversations");
    tabs.replaceChildren();
    const keys = this.convs.map((c) => c.conversation);
    if (!keys.includes("all")) keys.unshift("all");
    if (!keys.includes(this.open)) keys.push(this.open);
    for (const key of keys) {
      const c = this.convs.find((x) => x.conversation === key);
      const label = key === "all" ? "Public" : key.split(",").filter((p) => p !== this.game.power)
        .map((p) => this.game.names[p] || p).join(", ");
      const b = el("button", {type: "button", class: "small" + (key === this.open ? " active" : ""),
        "data-testid": "conversation-" + key, "data-conversation": key,
        onclick: () => { this.open = key; this.renderTo(); this.refresh(); }}, label);
      if (c && c.unread) b.append(el("span", {class: "badge", "data-testid": "unread-" + key}, String(c.unread)));
      tabs.append(b);
    }
    await this.show();
  }

  async show() {
    const list = document.getElementById("messages");
    let msgs = [];
    try {
      msgs = await api("GET", `/games/${this.game.id}/messages?conversation=${encodeURIComponent(this.open)}`);
    } catch (e) { return; }
    list.replaceChildren();
    for (const m of msgs) {
      const from = m.from === "master" ? "master" : (this.game.names[m.from] || m.from);
      list.append(el("div", {class: "msg" + (m.mine ? " mine" : ""), "data-testid": "message", "data-id": m.id},
        el("div", {class: "meta"}, `${from} · ${m.phase} · ${new Date(m.sent_at).toLocaleString()}`),
        el("div", {}, m.body)));
    }
    if (!msgs.length) list.append(el("p", {class: "muted"}, "No messages here yet."));
    list.scrollTop = list.scrollHeight;
    const c = this.convs.find((x) => x.conversation === this.open);
    if (c && c.unread) {
      await api("POST", `/games/${this.game.id}/messages/read`, {conversation: this.open}).catch(() => {});
      const tab = document.querySelector(`[data-testid="unread-${CSS.escape(this.open)}"]`);
      if (tab) tab.remove();
      c.unread = 0;
      const total = this.convs.reduce((n, x) => n + x.unread, 0);
      const badge = document.getElementById("unread-total");
      badge.textContent = total ? String(total) : "";
      badge.className = total ? "badge" : "";
    }
  }
}
