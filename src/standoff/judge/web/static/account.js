/* Sign-up, log-in and the account page: the API's /accounts, /session (which sets
   the cookies), /session/code (a one-time sign-in code by mail) and /account/...
   (password, e-mail, tokens and sessions). */
"use strict";

/* Where to go after logging in: `next` only if it is a page of this very server.
   The server checks it too (auth.safe_next), but a browser reads "/\evil.example"
   and "/<TAB>/evil.example" as "//evil.example", so the browser's own URL parser
   decides here, and only the path, query and fragment of a same-origin URL are used. */
function sameOriginPath(next, fallback) {
  try {
    const url = new URL(next || fallback, location.origin);
    if (url.origin === location.origin) return url.pathname + url.search + url.hash;
  } catch (e) { /* not a URL at all */ }
  return fallback;
}

async function logIn(username, password) {
  return api("POST", "/session", {username, password});
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "never";
}

async function showTokens(list) {
  const tokens = await api("GET", "/account/tokens");
  list.replaceChildren(...tokens.map((t) => el("li", {"data-testid": "token-" + t.id,
                                                      "class": "token"},
    el("span", {text: (t.kind === "api" ? "bearer token" : "page session") + " #" + t.id
                + (t.current ? " (this one)" : "")}),
    el("span", {"class": "muted", text: " made " + when(t.created) + ", ends "
                + when(t.expires) + " "}),
    el("button", {type: "button", "data-testid": "revoke-" + t.id, onclick: async () => {
      try {
        await api("DELETE", "/account/tokens/" + t.id);
        if (t.current && t.kind === "session") location.href = "/login";
        else await showTokens(list);
      } catch (e) { showError("tokens-error", e); }
    }, text: "Revoke"}))));
}

/* A page session signed in by a mailed code may set a new password without the
   current one for a while (GET /account says so): the field is then optional. */
async function passwordNeeded(pw) {
  const me = await api("GET", "/account");
  const current = pw.elements["current"];
  current.required = me.password_needed;
  current.placeholder = me.password_needed ? ""
    : "not needed: you signed in with a mailed code";
}

function accountPage() {
  const pw = document.getElementById("password-form");
  pw.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("password-error", null);
    const done = document.getElementById("password-done");
    done.textContent = "";
    const body = {new_password: pw.elements["new"].value};
    if (pw.elements["current"].value) body.password = pw.elements["current"].value;
    try {
      await api("PUT", "/account/password", body);
      pw.reset();
      done.textContent = "Password changed; every other session and token was revoked.";
      await passwordNeeded(pw);
      await showTokens(list);
    } catch (e) { showError("password-error", e); }
  });
  passwordNeeded(pw).catch((e) => showError("password-error", e));
  const mail = document.getElementById("email-form");
  mail.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("email-error", null);
    const done = document.getElementById("email-done");
    done.textContent = "";
    try {
      const value = mail.elements["email"].value.trim();
      const got = await api("PUT", "/account/email", {email: value || null});
      done.textContent = got.email ? "Reminders go to " + got.email + "." : "No e-mail address.";
    } catch (e) { showError("email-error", e); }
  });
  const list = document.getElementById("token-list");
  document.getElementById("revoke-all").addEventListener("click", async () => {
    try {
      await api("DELETE", "/account/tokens");
      location.href = "/login";
    } catch (e) { showError("tokens-error", e); }
  });
  showTokens(list).catch((e) => showError("tokens-error", e));
}

/* "Mail me a sign-in code": the first form asks for a code for a name, the second
   (shown once asked) signs in with it. A log-in refused with 429 because of others'
   guesses points here, with the name filled in. */
function codeForms(login) {
  const ask = document.getElementById("code-ask-form");
  const enter = document.getElementById("code-form");
  const name = ask.elements["username"];
  ask.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("code-ask-error", null);
    const sent = document.getElementById("code-sent");
    sent.textContent = "";
    try {
      const got = await api("POST", "/session/code", {username: name.value});
      sent.textContent = got.message.charAt(0).toUpperCase() + got.message.slice(1) + ".";
      enter.hidden = false;
      enter.elements["code"].focus();
    } catch (e) { showError("code-ask-error", e); }
  });
  enter.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("code-error", null);
    try {
      await api("POST", "/session", {username: name.value, code: enter.elements["code"].value});
      location.href = sameOriginPath(login.dataset.next, "/lobby");
    } catch (e) { showError("code-error", e); }
  });
  return (username) => {
    if (!name.value) name.value = username;
    document.getElementById("code-ask").focus();
  };
}

document.addEventListener("DOMContentLoaded", () => {
  const login = document.getElementById("login-form");
  const offerCode = login && document.getElementById("code-ask-form") ? codeForms(login)
    : null;
  if (login) login.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("login-error", null);
    try {
      await logIn(login.elements["username"].value, login.elements["password"].value);
      location.href = sameOriginPath(login.dataset.next, "/lobby");
    } catch (e) {
      showError("login-error", e);
      if (e.status === 429 && offerCode) offerCode(login.elements["username"].value);
    }
  });
  const signup = document.getElementById("signup-form");
  if (signup) signup.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("signup-error", null);
    const f = signup.elements;
    const body = {username: f["username"].value, password: f["password"].value};
    if (f["email"].value) body.email = f["email"].value;
    try {
      await api("POST", "/accounts", body);
      await logIn(body.username, body.password);
      location.href = "/lobby";
    } catch (e) { showError("signup-error", e); }
  });
  const page = document.getElementById("account-page");
  if (page) accountPage();
});
