/* Sign-up and log-in: the API's /accounts and /session (which sets the cookies). */
"use strict";

async function logIn(username, password) {
  return api("POST", "/session", {username, password});
}

document.addEventListener("DOMContentLoaded", () => {
  const login = document.getElementById("login-form");
  if (login) login.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("login-error", null);
    try {
      await logIn(login.elements["username"].value, login.elements["password"].value);
      location.href = login.dataset.next || "/lobby";
    } catch (e) { showError("login-error", e); }
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
});
