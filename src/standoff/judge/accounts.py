"""Routes for accounts, bearer tokens and page sessions (the mechanics are in auth.py)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from .auth import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    CallerDep,
    client_ip,
    csrf_token,
    issue_token,
    log_in,
    passwords,
    revoke,
    username_key,
)
from .context import JudgeDep
from .db import utcnow
from .errors import ERROR_RESPONSES, conflict
from .models import User
from .schemas import AccountIn, AccountOut, CredentialsIn, SessionOut, TokenOut

router = APIRouter(prefix="/api/v1", tags=["accounts"], responses=ERROR_RESPONSES)



@router.post("/accounts", status_code=201, response_model=AccountOut)
def create_account(body: AccountIn, j: JudgeDep) -> AccountOut:
    """Sign up. Usernames are unique regardless of case."""
    hashed = passwords(j.settings).hash(body.password)
    key = username_key(body.username)
    try:
        with j.db.write() as s:
            if s.scalar(select(User.id).where(User.username_key == key)) is not None:
                raise conflict(f"the username {body.username!r} is taken")
            user = User(username=body.username, username_key=key, email=body.email,
                        password_hash=hashed, created_at=utcnow())
            s.add(user)
            s.flush()
            uid = user.id
    except IntegrityError as exc:  # the same name, created at the same moment
        raise conflict(f"the username {body.username!r} is taken") from exc
    return AccountOut(id=uid, username=body.username)


@router.get("/account", response_model=AccountOut)
def whoami(who: CallerDep) -> AccountOut:
    """The account the credentials belong to."""
    return AccountOut(id=who.user_id, username=who.username)


@router.post("/tokens", status_code=201, response_model=TokenOut)
def create_token(body: CredentialsIn, request: Request, j: JudgeDep) -> TokenOut:
    """A bearer token for bots and scripts (``Authorization: Bearer <token>``).
    Log-ins are throttled: too many failures for a name or an address answer 429."""
    user = log_in(j, body.username, body.password, client_ip(request))
    return TokenOut(token=issue_token(j, user.id, "api"))


@router.delete("/tokens", status_code=204)
def revoke_token(who: CallerDep, j: JudgeDep) -> Response:
    """Revoke the token (or end the session) this request was made with."""
    revoke(j, who.token_id)
    return Response(status_code=204)


@router.post("/session", status_code=201, response_model=SessionOut)
def create_session(body: CredentialsIn, request: Request, response: Response,
                   j: JudgeDep) -> SessionOut:
    """Log in for the web pages: sets the session cookie and the CSRF cookie. Every
    change made with the cookie must send the CSRF token as ``X-CSRF-Token``."""
    user = log_in(j, body.username, body.password, client_ip(request))
    secret = issue_token(j, user.id, "session")
    csrf = csrf_token(secret)
    age = j.settings.session_seconds
    secure = j.settings.secure_cookies
    response.set_cookie(SESSION_COOKIE, secret, max_age=age, httponly=True, samesite="lax",
                        secure=secure, path="/")
    response.set_cookie(CSRF_COOKIE, csrf, max_age=age, httponly=False, samesite="strict",
                        secure=secure, path="/")
    return SessionOut(username=user.username, csrf_token=csrf)


@router.delete("/session", status_code=204)
def end_session(who: CallerDep, j: JudgeDep) -> Response:
    """Log out of the web pages (CSRF-checked like every cookie change)."""
    revoke(j, who.token_id)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    response.delete_cookie(CSRF_COOKIE, path="/")
    return response
