/* What every page shares: the API call with the session cookie and the CSRF
   token (the double-submit cookie the log-in set), error text from the API's
   {"error", "detail"} shape, and the log-out button. */
"use strict";

function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)standoff_csrf=([^;]*)/);
  return m ? decodeURIComponent(m[1]) : "";
}

class ApiFailure extends Error {
  constructor(status, detail) { super(detail); this.status = status; }
}

async function api(method, path, body) {
  const headers = {"Accept": "application/json"};
  if (method !== "GET") headers["X-CSRF-Token"] = csrfToken();
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch("/api/v1" + path, {method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body)});
  if (res.status === 204) return null;
  const type = res.headers.get("content-type") || "";
  const data = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) {
    if (res.status === 401 && !location.pathname.startsWith("/login")) {
      location.href = "/login?next=" + encodeURIComponent(location.pathname);
    }
    throw new ApiFailure(res.status, (data && data.detail) || String(res.status));
  }
  return data;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function showError(id, err) {
  const box = document.getElementById(id);
  if (box) box.textContent = err ? (err.message || String(err)) : "";
}

/* the countdown's text for a deadline (StandoffLogic.untilText, at this moment) */
function untilText(iso) { return StandoffLogic.untilText(iso, Date.now()); }

document.addEventListener("DOMContentLoaded", () => {
  const out = document.getElementById("logout");
  if (out) out.addEventListener("click", async () => {
    try { await api("DELETE", "/session"); } catch (e) { /* ended already */ }
    location.href = "/login";
  });
});
