"""Who is calling: passwords, bearer tokens, page sessions, CSRF, log-in throttling.

* Passwords are hashed with argon2id (argon2-cffi); a log-in for an unknown
  name still verifies against a dummy hash, so timing does not tell which
  names exist.
* Bearer tokens and session ids are 256-bit random secrets; the database keeps
  only their SHA-256 (a secret this long needs no slow hash), so a copy of it
  lets nobody in.
* Page sessions are a cookie (``standoff_session``, HttpOnly, SameSite=Lax).
  A request authenticated by that cookie that changes anything (not GET, HEAD
  or OPTIONS) must carry the session's CSRF token in ``X-CSRF-Token`` (the
  double-submit pattern: the token is also in the readable ``standoff_csrf``
  cookie and in the log-in answer), and, when the browser sends an ``Origin``,
  come from this server's own origin. Bearer requests need neither: a browser
  never adds an ``Authorization`` header by itself.
* Failed log-ins are rows in the database, so the limit (per username and per
  client address) holds across every server process sharing it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import Depends, Request
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from .context import Judge, JudgeDep
from .db import utcnow
from .errors import ApiError, forbidden, unauthenticated
from .models import LoginFailure, Token, User
from .proxies import request_client
from .settings import Settings

SESSION_COOKIE = "standoff_session"
CSRF_COOKIE = "standoff_csrf"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class Passwords:
    """argon2id with the settings' cost."""

    def __init__(self, settings: Settings) -> None:
        self._hasher = PasswordHasher(time_cost=settings.argon2_time_cost,
                                      memory_cost=settings.argon2_memory_kib,
                                      parallelism=settings.argon2_parallelism)
        self._dummy = self._hasher.hash(secrets.token_urlsafe(16))

    def hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        try:
            return self._hasher.verify(stored or self._dummy, password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


_passwords: dict[tuple[int, int, int], Passwords] = {}


def passwords(settings: Settings) -> Passwords:
    """One hasher per cost (its dummy hash is made once)."""
    cost = (settings.argon2_time_cost, settings.argon2_memory_kib, settings.argon2_parallelism)
    found = _passwords.get(cost)
    if found is None:
        found = _passwords[cost] = Passwords(settings)
    return found


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def csrf_token(session_secret: str) -> str:
    """The CSRF token of a page session: derived from its secret, so nothing more
    is stored, and useless without the (HttpOnly) session cookie it matches."""
    return hashlib.sha256(b"csrf:" + session_secret.encode()).hexdigest()


def username_key(username: str) -> str:
    return username.strip().lower()


@dataclass(frozen=True)
class Caller:
    user_id: int
    username: str
    #: "bearer" or "cookie"
    via: str
    token_id: int


def _lookup(db_session: Session, secret: str, kind: str) -> tuple[Token, User] | None:
    row = db_session.execute(
        select(Token, User).join(User, User.id == Token.user_id)
        .where(Token.token_hash == digest(secret), Token.kind == kind)
    ).first()
    if row is None:
        return None
    token, user = row
    if token.expires_at is not None and token.expires_at <= utcnow():
        return None
    return token, user


def optional_caller(request: Request, j: JudgeDep) -> Caller | None:
    """The caller, or None without credentials; bad credentials are 401 all the same."""
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, secret = header.partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            raise unauthenticated("the Authorization header must be 'Bearer <token>'")
        with j.db.read() as s:
            found = _lookup(s, secret.strip(), "api")
        if found is None:
            raise unauthenticated("this token is unknown or revoked")
        return Caller(found[1].id, found[1].username, "bearer", found[0].id)
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie is None:
        return None
    with j.db.read() as s:
        found = _lookup(s, cookie, "session")
    if found is None:
        raise unauthenticated("the session has ended: log in again")
    if request.method not in SAFE_METHODS:
        check_csrf(request, cookie)
    return Caller(found[1].id, found[1].username, "cookie", found[0].id)


async def caller(who: Annotated[Caller | None, Depends(optional_caller)]) -> Caller:
    """The caller, or 401 (``async``: no I/O here, so no worker thread; see ``judge``)."""
    if who is None:
        raise unauthenticated()
    return who


#: a route's parameter for the signed-in caller, 401 without one (declared once)
CallerDep = Annotated[Caller, Depends(caller)]


def check_csrf(request: Request, session_secret: str) -> None:
    """Refuse a cookie-authenticated change without the session's CSRF token, or
    sent by a page of another origin."""
    origin = request.headers.get("origin")
    if origin is not None and origin != "null":
        # the host only: behind a proxy that ends TLS the page is https while this
        # server sees http
        host = origin.partition("://")[2].rstrip("/")
        if host != request.headers.get("host", ""):
            raise forbidden(f"requests from {origin} may not use this session")
    given = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(given, csrf_token(session_secret)):
        raise forbidden("missing or wrong CSRF token: send the X-CSRF-Token header")


def client_ip(request: Request) -> str:
    """The client's address for the throttles: the socket's peer, or behind a proxy
    the judge trusts (``Settings.trusted_proxies``) the address it forwarded."""
    j: Judge = request.app.state.judge
    return request_client(request, j.settings.trusted_proxies)


def log_in(j: Judge, username: str, password: str, ip: str) -> User:
    """Check a username and password, throttled: raise 429 after too many recent
    failures for the name or the address, 401 on a wrong pair."""
    key = username_key(username)
    cfg = j.settings
    since = utcnow() - timedelta(seconds=cfg.login_window_seconds)
    with j.db.read() as s:
        by_name = s.scalar(select(func.count()).select_from(LoginFailure)
                           .where(LoginFailure.username_key == key, LoginFailure.at > since))
        by_ip = s.scalar(select(func.count()).select_from(LoginFailure)
                         .where(LoginFailure.ip == ip, LoginFailure.at > since))
        user = s.scalar(select(User).where(User.username_key == key))
    if (by_name or 0) >= cfg.login_max_failures or (by_ip or 0) >= cfg.login_max_failures:
        raise ApiError(429, "too many failed log-ins: wait a few minutes",
                       {"Retry-After": str(cfg.login_window_seconds)})
    if user is None or not passwords(cfg).verify(user.password_hash, password):
        with j.db.write() as s:
            s.add(LoginFailure(username_key=key[:64], ip=ip[:64], at=utcnow()))
            s.execute(delete(LoginFailure).where(LoginFailure.at <= since))
        raise unauthenticated("wrong username or password")
    with j.db.write() as s:
        s.execute(delete(LoginFailure).where(LoginFailure.username_key == key))
    return user


def issue_token(j: Judge, user_id: int, kind: str) -> str:
    """A new secret for the user (``api`` or ``session``); only its hash is kept."""
    secret = new_secret()
    now = utcnow()
    expires = now + timedelta(seconds=j.settings.session_seconds) if kind == "session" else None
    with j.db.write() as s:
        s.add(Token(user_id=user_id, token_hash=digest(secret), kind=kind, created_at=now,
                    expires_at=expires))
    return secret


def revoke(j: Judge, token_id: int) -> None:
    with j.db.write() as s:
        s.execute(delete(Token).where(Token.id == token_id))
