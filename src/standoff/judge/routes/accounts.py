"""Routes for accounts, bearer tokens and page sessions (the mechanics are in auth.py
and passwords.py; signing up and managing one's account in accounts.py).

The routes that hash or verify a password are ``async``: they wait for a slot of
the process's hashing gate on the event loop, holding no thread, and do their
database work in the thread pool. So a flood of sign-ups or log-ins costs the
server at most ``max_concurrent_hashes`` argon2 computations and a few futures,
and ``/api/v1/status`` and the games keep answering.

Account management lives under ``/api/v1/account``: change the password (the
current one is checked, throttled like a log-in, and every other token and
session is revoked), change the e-mail address, list one's tokens and sessions
(never their secrets) and revoke one, or all.

A person who cannot use their password (forgotten, or refused with 429 while
strangers guess at their name) asks ``POST /api/v1/session/code`` to mail a
one-time code, and signs in with it at ``POST /api/v1/session``
(``sign_in_codes.py``). A page session made so may set a new password without the
old one for ``sign_in_code_seconds``: that is how a forgotten password is replaced.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Request, Response
from pydantic import BaseModel, Field, StringConstraints
from starlette.concurrency import run_in_threadpool

from .. import accounts
from ..auth import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    Caller,
    CallerDep,
    client_ip,
    csrf_token,
    issue_token,
    log_in,
    revoke,
)
from ..context import JudgeDep
from ..errors import ERROR_RESPONSES, ApiError, invalid
from ..mail import Mail, Mailer
from ..schemas import (
    AccountIn,
    AccountOut,
    CodeRequestIn,
    CodeRequestOut,
    CredentialsIn,
    Password,
    SessionIn,
    SessionOut,
    StrictBody,
    TokenOut,
)
from ..sign_in_codes import fresh_code_session, mail_text, request_code, sign_in

router = APIRouter(prefix="/api/v1", tags=["accounts"], responses=ERROR_RESPONSES)

Email = Annotated[str, StringConstraints(max_length=254, pattern=r"^[^@\s]+@[^@\s]+$")]


class AccountDetailsOut(BaseModel):
    id: int
    username: str
    email: str | None
    password_needed: bool = Field(
        default=True, description="false: this page session was signed in by a mailed "
        "code a short while ago, and may set a new password without the current one")


class PasswordChangeIn(StrictBody):
    password: Annotated[str, StringConstraints(max_length=256)] | None = Field(
        default=None, description="the current password; may be left out only by a page "
        "session signed in by a mailed code within sign_in_code_seconds")
    new_password: Password


class EmailIn(StrictBody):
    email: Email | None = Field(description="the new address; null removes it")


class TokenInfoOut(BaseModel):
    id: int
    kind: Literal["api", "session"] = Field(description="api: a bearer token; session: a "
                                            "page session (cookie)")
    created: datetime
    expires: datetime | None = Field(description="null: until revoked")
    current: bool = Field(description="the token or session of this very request")


@router.post("/accounts", status_code=201, response_model=AccountOut)
async def create_account(body: AccountIn, request: Request, j: JudgeDep) -> AccountOut:
    """Sign up. Usernames are unique regardless of case. Passwords that are easy to
    guess are refused (400). Sign-ups are throttled per client address (429)."""
    # the cheap refusals (a taken name, a weak password) come before any argon2 work
    uid = await accounts.sign_up(j, body.username, body.email, body.password,
                                 client_ip(request))
    return AccountOut(id=uid, username=body.username)


@router.get("/account", response_model=AccountDetailsOut)
def whoami(who: CallerDep, j: JudgeDep) -> AccountDetailsOut:
    """The account the credentials belong to (its e-mail address only to itself)."""
    mine = accounts.details(j, who.user_id)
    return AccountDetailsOut(id=mine.id, username=mine.username, email=mine.email,
                             password_needed=not fresh_code_session(j, who.token_id))


@router.post("/tokens", status_code=201, response_model=TokenOut)
async def create_token(body: CredentialsIn, request: Request, j: JudgeDep) -> TokenOut:
    """A bearer token for bots and scripts (``Authorization: Bearer <token>``).
    Log-ins are throttled: too many failures from an address, or for a name from
    addresses it never logged in from, answer 429."""
    user = await log_in(j, body.username, body.password, client_ip(request))
    return TokenOut(token=await run_in_threadpool(issue_token, j, user.id, "api"))


@router.delete("/tokens", status_code=204)
def revoke_token(who: CallerDep, j: JudgeDep) -> Response:
    """Revoke the token (or end the session) this request was made with."""
    revoke(j, who.token_id)
    return Response(status_code=204)


@router.post("/session", status_code=201, response_model=SessionOut)
async def create_session(body: SessionIn, request: Request, response: Response,
                         j: JudgeDep) -> SessionOut:
    """Log in for the web pages: sets the session cookie and the CSRF cookie. Every
    change made with the cookie must send the CSRF token as ``X-CSRF-Token``.

    Either ``password``, or ``code``: a one-time code mailed by ``POST
    /api/v1/session/code``. A right code signs in even while strangers' failures
    refuse the name's password from new addresses (the address's own limit still
    applies, and a code may be given wrongly only a few times from one address)."""
    if (body.password is None) == (body.code is None):
        raise invalid("give either 'password' or 'code' (a sign-in code mailed to you)")
    ip = client_ip(request)
    if body.code is not None:
        user = await run_in_threadpool(sign_in, j, body.username, body.code, ip)
    else:
        user = await log_in(j, body.username, body.password or "", ip)
    secret = await run_in_threadpool(issue_token, j, user.id, "session", body.code is not None)
    csrf = csrf_token(secret)
    age = j.settings.session_seconds
    secure = j.settings.secure_cookies
    response.set_cookie(SESSION_COOKIE, secret, max_age=age, httponly=True, samesite="lax",
                        secure=secure, path="/")
    response.set_cookie(CSRF_COOKIE, csrf, max_age=age, httponly=False, samesite="strict",
                        secure=secure, path="/")
    return SessionOut(username=user.username, csrf_token=csrf)


def _signed_out(who: Caller) -> Response:
    """204, clearing the page's cookies when the request came with them."""
    response = Response(status_code=204)
    if who.via == "cookie":
        response.delete_cookie(SESSION_COOKIE, path="/")
        response.delete_cookie(CSRF_COOKIE, path="/")
    return response


@router.post("/session/code", status_code=202, response_model=CodeRequestOut)
async def mail_sign_in_code(body: CodeRequestIn, request: Request,
                            j: JudgeDep) -> CodeRequestOut:
    """Mail a one-time sign-in code to the account's e-mail address (for ``POST
    /api/v1/session`` with ``{"username", "code"}``). The answer is the same whether
    or not the account exists or has an address. Throttled per name and per address
    (429); 503 when this judge has no SMTP server to send it with."""
    mailer: Mailer | None = request.app.state.mailer
    if mailer is None:
        raise ApiError(503, "this judge cannot send mail (its operator set no SMTP server), "
                       "so it cannot mail sign-in codes")
    ip = client_ip(request)
    mailing = await run_in_threadpool(request_code, j, body.username, ip)
    if mailing is not None:  # committed: the mail thread sends it, no request waits
        subject, text = mail_text(j, mailing, ip)
        mailer.send(Mail(mailing.to, subject, text))
    minutes = max(1, j.settings.sign_in_code_seconds // 60)
    return CodeRequestOut(message="if this account has an e-mail address, a sign-in code is "
                          f"on its way there; it works once, for {minutes} minutes")


@router.delete("/session", status_code=204)
def end_session(who: CallerDep, j: JudgeDep) -> Response:
    """Log out of the web pages (CSRF-checked like every cookie change)."""
    revoke(j, who.token_id)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    response.delete_cookie(CSRF_COOKIE, path="/")
    return response


# -- managing one's account ---------------------------------------------------------------

@router.put("/account/password", status_code=204)
async def change_password(body: PasswordChangeIn, request: Request, who: CallerDep,
                          j: JudgeDep) -> Response:
    """Change the password: ``password`` is the current one (checked and throttled
    like a log-in: 401 when wrong). A page session signed in by a mailed code within
    ``sign_in_code_seconds`` may leave it out (a forgotten password). Every other
    token and session of the account is revoked; the one of this request stays."""
    await accounts.change_password(j, who, body.password, body.new_password,
                                   client_ip(request))
    return Response(status_code=204)


@router.put("/account/email", response_model=AccountDetailsOut)
def change_email(body: EmailIn, who: CallerDep, j: JudgeDep) -> AccountDetailsOut:
    """Change the e-mail address deadline reminders go to (null: none)."""
    accounts.change_email(j, who.user_id, body.email)
    return whoami(who, j)


@router.get("/account/tokens", response_model=list[TokenInfoOut])
def list_tokens(who: CallerDep, j: JudgeDep) -> list[TokenInfoOut]:
    """The account's bearer tokens and page sessions that are still valid, oldest
    first; never their secrets (only their hashes are kept)."""
    return [TokenInfoOut(id=t.id, kind=t.kind, created=t.created, expires=t.expires,
                         current=t.id == who.token_id)
            for t in accounts.tokens(j, who.user_id)]


@router.delete("/account/tokens/{token_id}", status_code=204)
def revoke_one(token_id: Annotated[int, Path(ge=1, le=2**31 - 1)], who: CallerDep,
               j: JudgeDep) -> Response:
    """Revoke one of the account's tokens or sessions by its id (404 if it is not
    one of the account's)."""
    accounts.revoke_own(j, who.user_id, token_id)
    return _signed_out(who) if token_id == who.token_id else Response(status_code=204)


@router.delete("/account/tokens", status_code=204)
def revoke_all(who: CallerDep, j: JudgeDep) -> Response:
    """Revoke every token and session of the account, this request's included:
    signed out everywhere."""
    accounts.revoke_all(j, who.user_id)
    return _signed_out(who)
