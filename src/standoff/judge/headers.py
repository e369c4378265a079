"""Security headers on every answer (issue 26, item 12).

* ``X-Frame-Options: DENY`` and CSP ``frame-ancestors 'none'``: no page of the
  judge can be framed by another site (clickjacking the order or vote buttons);
* ``X-Content-Type-Options: nosniff``: a browser takes each answer for what its
  ``Content-Type`` says (a JSON answer or an SVG map is never run as a script);
* ``Referrer-Policy: strict-origin-when-cross-origin``: another site a page links
  to learns the judge's origin only, never a path. Not ``no-referrer``: under it
  Chromium sends ``Origin: null`` with the pages' own POSTs, and the CSRF check
  (``auth.check_csrf``) uses the ``Origin`` it is given;
* ``Content-Security-Policy``: the pages run only the judge's own scripts
  (``/static``, no inline script, no inline event handler, no ``eval``), style
  only from ``/static`` (the scripts set styles through the CSSOM, which the
  policy allows), and talk only to their own origin. Data islands
  (``<script type="application/json">``) are not scripts and need nothing.
  Anything else (JSON, the SVG map) gets ``default-src 'none'``: if a browser
  opens one directly it runs and loads nothing.

``/docs`` is FastAPI's Swagger UI page, whose one inline script (the set-up
call) is written by the server, not by any user: its policy allows exactly
that script by its SHA-256 (computed from the answer itself, so a FastAPI
upgrade that changes the script changes the hash with it), and inline styles,
which Swagger UI injects. The page holds no user content, so this opens no
door to injected script.

A header a route set itself is left as it is.
"""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the policy of the judge's pages
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
               "form-action 'self'; frame-ancestors 'none'")
#: the policy of everything that is not a page (JSON, SVG, static files)
DATA_POLICY = "default-src 'none'; frame-ancestors 'none'"
#: Swagger UI's page: its inline set-up script by hash (filled in per answer)
DOCS_POLICY = ("default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
               "form-action 'self'; frame-ancestors 'none'")
DOCS_PATHS = frozenset({"/docs"})

COMMON: dict[str, str] = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
}
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.S)


def script_hashes(html: bytes) -> str:
    """The CSP sources (``'sha256-...'``) of the inline scripts of a page."""
    return " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'"
        for body in _INLINE_SCRIPT.findall(html)) or "'none'"


class SecurityHeaders:
    """Pure ASGI middleware (no buffering, except ``/docs``' small page, whose
    inline script is hashed)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("path") in DOCS_PATHS:
            await self._docs(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = _with(message.get("headers", []), None)
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _docs(self, scope: Scope, receive: Receive, send: Send) -> None:
        start: Message | None = None
        body: list[bytes] = []

        async def collect(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] == "http.response.body":
                body.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                assert start is not None
                whole = b"".join(body)
                policy = DOCS_POLICY.format(hashes=script_hashes(whole))
                start["headers"] = _with(start.get("headers", []), policy)
                await send(start)
                await send({"type": "http.response.body", "body": whole})
                return
            await send(message)

        await self.app(scope, receive, collect)


def _with(headers: list[tuple[bytes, bytes]], policy: str | None) -> list[tuple[bytes, bytes]]:
    """The answer's headers with ours added where the route set none."""
    have = {name.lower() for name, _ in headers}
    out = list(headers)
    for name, value in COMMON.items():
        if name.encode() not in have:
            out.append((name.encode(), value.encode()))
    if b"content-security-policy" not in have:
        if policy is None:
            kind = next((v for n, v in headers if n.lower() == b"content-type"), b"")
            policy = PAGE_POLICY if kind.startswith(b"text/html") else DATA_POLICY
        out.append((b"content-security-policy", policy.encode()))
    return out


def install_headers(app: FastAPI) -> None:
    """Add the headers to every answer the app gives (added last: outside the other
    middleware, so their own answers, such as a 413, carry the headers too)."""
    app.add_middleware(SecurityHeaders)
