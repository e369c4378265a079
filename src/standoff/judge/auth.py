"""Who is calling: bearer tokens, page sessions, CSRF, and the throttles of log-in
and sign-up (the passwords themselves are in passwords.py).

* A log-in for an unknown name verifies the dummy hash all the same, so its time
  does not tell which names exist.
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

**The throttles count before they let a password through.** An attempt is a row
(``login_failures``, ``signups``), inserted and *committed first*; then the rows
of the window are counted, and more than the limit is 429. Ordered by commit, the
k-th attempt's count sees the k-1 committed before it and its own, so the
(limit+1)-th and later see more than the limit: at most ``limit`` attempts reach
argon2 per window, however many arrive at once and however many processes (or
machines) share the database, with no lock. (Counting first and recording the
failure after the verification, as before, let 40 of 60 concurrent guesses
through a limit of 10.) A log-in's row is deleted when it succeeds, or when it
never reached argon2 (the hashing gate was full); a failed guess keeps it, and so
does a refused one, so an address that keeps guessing stays refused.

**Nobody can lock an owner out.** The per-address limit always applies. The
per-username limit applies only to addresses the account has never logged in
from (``known_addresses``, written on each success): strangers' failures against
a name stop strangers, not its owner at home. From a new address, while strangers
keep the name's limit full, the owner signs in with a one-time code mailed to the
account's address (``sign_in_codes.py``), which that limit does not stop.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated, Any, cast

from fastapi import Depends, Request
from sqlalchemy import ColumnElement, CursorResult, Delete, delete, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from .context import Judge, JudgeDep
from .db import utcnow
from .errors import ApiError, forbidden, unauthenticated
from .models import CodeRequest, KnownAddress, LoginFailure, SignInCode, SignUp, Token, User
from .passwords import passwords
from .proxies import request_client

SESSION_COOKIE = "standoff_session"
CSRF_COOKIE = "standoff_csrf"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: ``login_failures.username_key`` of a wrong sign-in code: this and the name's key, so
#: wrong codes count for the address (its limit) but never for the name's limit
CODE_TRIES = "code:"


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
#: a route's parameter for the caller, or None for a reader without credentials
MaybeCaller = Annotated[Caller | None, Depends(optional_caller)]


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


def safe_next(target: str | None, default: str = "/lobby") -> str:
    """``target`` if it is a path on this server, else ``default``: where to go after
    logging in. A browser reads ``/\\evil.example/x`` as ``//evil.example/x`` and drops
    tabs and newlines anywhere in a URL (``/<TAB>/host`` is ``//host``), so both
    slashes, backslashes, control characters and spaces are refused, not only a
    leading ``//``."""
    if not target or not target.startswith("/") or target[1:2] in ("/", "\\"):
        return default
    if any(c == "\\" or ord(c) <= 0x20 or ord(c) == 0x7F for c in target):
        return default
    return target


# -- throttles ----------------------------------------------------------------------------

def too_many(detail: str, seconds: int) -> ApiError:
    return ApiError(429, detail, {"Retry-After": str(seconds)})


def count_rows(s: Session, model: type[LoginFailure] | type[SignUp] | type[CodeRequest],
               *where: ColumnElement[bool]) -> int:
    """How many rows of a throttle's table match."""
    return int(s.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def record(j: Judge, row: LoginFailure | SignUp | CodeRequest) -> int:
    """Commit an attempt's row before counting (so concurrent attempts all see each
    other: the throttles cannot be raced); its id, to delete it again if it turns
    out not to count."""
    with j.db.write() as s:
        s.add(row)
        s.flush()
        return row.id


@dataclass(frozen=True)
class Account:
    """Who a log-in found: enough for the routes, nothing else carried around."""

    id: int
    username: str


@dataclass(frozen=True)
class _Attempt:
    row_id: int
    user: Account | None
    stored: str | None


def _begin_log_in(j: Judge, key: str, ip: str) -> _Attempt:
    """Record the attempt (committed), then count; 429 over a limit (see above)."""
    cfg = j.settings
    now = utcnow()
    row_id = record(j, LoginFailure(username_key=key[:64], ip=ip[:64], at=now))
    since = now - timedelta(seconds=cfg.login_window_seconds)
    with j.db.read() as s:
        user = s.scalar(select(User).where(User.username_key == key))
        by_ip = count_rows(s, LoginFailure, LoginFailure.ip == ip[:64], LoginFailure.at > since)
        known = user is not None and s.get(KnownAddress, (user.id, ip[:64])) is not None
        by_name = 0 if known else count_rows(s, LoginFailure,
                                             LoginFailure.username_key == key[:64],
                                             LoginFailure.at > since)
    if by_ip > cfg.login_max_failures:
        raise too_many("too many failed log-ins from this address: wait a few minutes",
                       cfg.login_window_seconds)
    if by_name > cfg.login_max_failures:
        raise too_many("too many failed log-ins for this name from addresses it has not "
                       "logged in from: wait a few minutes, or sign in with a one-time code "
                       "mailed to the account's e-mail address (\"Mail me a sign-in code\")",
                       cfg.login_window_seconds)
    if user is None:
        return _Attempt(row_id, None, None)
    return _Attempt(row_id, Account(user.id, user.username), user.password_hash)


def _forget(j: Judge, model: type[LoginFailure] | type[SignUp], row_id: int) -> None:
    with j.db.write() as s:
        s.execute(delete(model).where(model.id == row_id))


def logged_in(j: Judge, row_id: int, user_id: int, ip: str) -> None:
    """A success (by password or by code): the attempt ``row_id`` is no failure, and
    the address becomes known."""
    now = utcnow()
    with j.db.write() as s:
        s.execute(delete(LoginFailure).where(LoginFailure.id == row_id))
        insert = pg_insert if s.get_bind().dialect.name == "postgresql" else sqlite_insert
        s.execute(insert(KnownAddress).values(user_id=user_id, ip=ip[:64], last_at=now)
                  .on_conflict_do_update(index_elements=["user_id", "ip"],
                                         set_={"last_at": now}))


async def log_in(j: Judge, username: str, password: str, ip: str) -> Account:
    """Check a username and password, throttled: 429 over a limit, 503 when the
    hashing gate stays full, 401 on a wrong pair (an unknown name costs the same
    argon2 verification as a known one)."""
    attempt = await run_in_threadpool(_begin_log_in, j, username_key(username), ip)
    try:
        matched = await passwords(j.settings).verify(attempt.stored, password)
    except ApiError:  # the gate was full: nothing was verified, so nothing counts
        await run_in_threadpool(_forget, j, LoginFailure, attempt.row_id)
        raise
    if not matched or attempt.user is None:
        raise unauthenticated("wrong username or password")
    await run_in_threadpool(logged_in, j, attempt.row_id, attempt.user.id, ip)
    return attempt.user


def begin_sign_up(j: Judge, ip: str) -> int:
    """Record a sign-up from ``ip`` (committed), then count; 429 over the limit (the
    refused row is deleted again: the rows are the accounts made, and those being
    made). The row's id, to :func:`forget_sign_up` if the account is not made."""
    cfg = j.settings
    now = utcnow()
    row_id = record(j, SignUp(ip=ip[:64], at=now))
    since = now - timedelta(seconds=cfg.signup_window_seconds)
    with j.db.read() as s:
        made = count_rows(s, SignUp, SignUp.ip == ip[:64], SignUp.at > since)
    if made > cfg.signup_max_per_address:
        forget_sign_up(j, row_id)
        raise too_many("too many accounts were made from this address: try again later",
                       cfg.signup_window_seconds)
    return row_id


def forget_sign_up(j: Judge, row_id: int) -> None:
    _forget(j, SignUp, row_id)


def purge_expired(j: Judge) -> int:
    """Delete what has expired: page sessions past their end, sign-in codes past
    theirs, and log-in failures, sign-ups and code requests older than their windows
    (they no longer count; a wrong code's row counts as long as a code lives). How
    many rows went. Meant to be called now and then (the scheduler does)."""
    cfg = j.settings
    now = utcnow()
    code_tries = LoginFailure.username_key.startswith(CODE_TRIES, autoescape=True)
    with j.db.write() as s:
        return (deleted(s, delete(Token).where(Token.expires_at.is_not(None),
                                               Token.expires_at <= now))
                + deleted(s, delete(SignInCode).where(SignInCode.expires_at <= now))
                + deleted(s, delete(LoginFailure).where(
                    LoginFailure.at <= now - timedelta(seconds=cfg.login_window_seconds),
                    ~code_tries | (LoginFailure.at <= now - timedelta(
                        seconds=cfg.sign_in_code_seconds))))
                + deleted(s, delete(CodeRequest).where(
                    CodeRequest.at <= now - timedelta(
                        seconds=cfg.sign_in_code_window_seconds)))
                + deleted(s, delete(SignUp).where(
                    SignUp.at <= now - timedelta(seconds=cfg.signup_window_seconds))))


def deleted(s: Session, statement: Delete) -> int:
    """Run a DELETE; how many rows it removed."""
    result = s.execute(statement)
    return int(cast(CursorResult[Any], result).rowcount)


def account_email(j: Judge, user_id: int) -> str | None:
    """The account's e-mail address (for its own account page)."""
    with j.db.read() as s:
        return s.scalar(select(User.email).where(User.id == user_id))


# -- tokens -------------------------------------------------------------------------------

def issue_token(j: Judge, user_id: int, kind: str, by_code: bool = False) -> str:
    """A new secret for the user (``api`` or ``session``); only its hash is kept.
    ``by_code``: the session was signed in by a mailed code (``Token.code_at``)."""
    secret = new_secret()
    now = utcnow()
    expires = now + timedelta(seconds=j.settings.session_seconds) if kind == "session" else None
    with j.db.write() as s:
        s.add(Token(user_id=user_id, token_hash=digest(secret), kind=kind, created_at=now,
                    expires_at=expires, code_at=now if by_code else None))
    return secret


def revoke(j: Judge, token_id: int) -> None:
    with j.db.write() as s:
        s.execute(delete(Token).where(Token.id == token_id))
