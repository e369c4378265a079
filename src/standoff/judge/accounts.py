"""Accounts: signing up, an account's details, changing its password and e-mail
address, and the tokens and sessions it holds.

What is not here: who is calling, log-ins, the throttles and issuing or ending
the current token are ``auth.py``; hashing and the strength rule are
``passwords.py``; mailed sign-in codes (and whether a session was signed in by
one a short while ago) are ``sign_in_codes.py``. The account routes parse a
request, call these and answer.

Two orders are kept here, where they can be read together:

* **A taken name costs no argon2** (issue 26, item 3). :func:`sign_up` asks
  whether the name is taken, then checks the password's strength, then counts
  the sign-up against its address's throttle, and only then hashes. The insert
  asks again, in its own transaction: two sign-ups for one name can race past
  the first question, and the database's unique key settles it.
* **No hash inside a transaction.** A hash waits for a slot of the process's
  hashing gate, on the event loop, then runs for a tenth of a second or more;
  a transaction held meanwhile (on SQLite, the database's write lock) would
  stall every other writer. So each step opens its own short transaction in the
  thread pool, before or after the hash, never around it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from .auth import Caller, begin_sign_up, deleted, forget_sign_up, log_in, username_key
from .context import Judge
from .db import utcnow
from .errors import conflict, invalid, not_found
from .models import Token, User
from .passwords import check_strength, passwords
from .sign_in_codes import fresh_code_session


@dataclass(frozen=True, slots=True)
class Details:
    """What an account shows itself: its e-mail address is for its own eyes."""

    id: int
    username: str
    email: str | None


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """One of an account's tokens or page sessions, without its secret (only its
    hash is kept, so there is none to show)."""

    id: int
    kind: Literal["api", "session"]
    created: datetime
    #: None: until revoked
    expires: datetime | None


# -- signing up ----------------------------------------------------------------------------

def _taken(j: Judge, key: str) -> bool:
    with j.db.read() as s:
        return s.scalar(select(User.id).where(User.username_key == key)) is not None


def _create(j: Judge, username: str, email: str | None, key: str, hashed: str) -> int:
    try:
        with j.db.write() as s:
            if s.scalar(select(User.id).where(User.username_key == key)) is not None:
                raise conflict(f"the username {username!r} is taken")
            user = User(username=username, username_key=key, email=email,
                        password_hash=hashed, created_at=utcnow())
            s.add(user)
            s.flush()
            return user.id
    except IntegrityError as exc:  # the same name, created at the same moment
        raise conflict(f"the username {username!r} is taken") from exc


async def sign_up(j: Judge, username: str, email: str | None, password: str,
                  ip: str) -> int:
    """Make an account; its id. 409 for a taken name (usernames are unique
    regardless of case), 400 for a weak password, 429 over the sign-up throttle,
    503 when the hashing gate stays full: the cheap refusals first, before any
    argon2 work (see the module's docstring)."""
    key = username_key(username)
    if await run_in_threadpool(_taken, j, key):
        raise conflict(f"the username {username!r} is taken")
    await run_in_threadpool(check_strength, password, username, email)
    row = await run_in_threadpool(begin_sign_up, j, ip)
    try:
        hashed = await passwords(j.settings).hash(password)
        return await run_in_threadpool(_create, j, username, email, key, hashed)
    except BaseException:  # no account made: the throttle's row goes too
        await run_in_threadpool(forget_sign_up, j, row)
        raise


# -- one's own account ---------------------------------------------------------------------

def details(j: Judge, user_id: int) -> Details:
    """The account's details; 404 when it was deleted since its token was checked."""
    with j.db.read() as s:
        user = s.get(User, user_id)
        if user is None:
            raise not_found("this account no longer exists")
        return Details(id=user.id, username=user.username, email=user.email)


def _set_password(j: Judge, user_id: int, hashed: str, keep_token: int) -> None:
    with j.db.write() as s:
        s.execute(update(User).where(User.id == user_id).values(password_hash=hashed))
        s.execute(delete(Token).where(Token.user_id == user_id, Token.id != keep_token))
        # a code's session sets one new password without the old, not several
        s.execute(update(Token).where(Token.id == keep_token).values(code_at=None))


async def change_password(j: Judge, who: Caller, current: str | None, new: str,
                          ip: str) -> None:
    """Set a new password. ``current`` is checked and throttled like a log-in (401
    when wrong); None is allowed only to a page session signed in by a mailed code
    within ``sign_in_code_seconds`` (a forgotten password), 400 otherwise. Every
    other token and session of the account is revoked; ``who``'s stays, and can set
    no second password without the current one."""
    if current is not None:
        await log_in(j, who.username, current, ip)
    elif not await run_in_threadpool(fresh_code_session, j, who.token_id):
        raise invalid("give your current password as 'password' (only a page session "
                      "signed in by a mailed code a short while ago may leave it out)")
    mine = await run_in_threadpool(details, j, who.user_id)
    await run_in_threadpool(check_strength, new, who.username, mine.email)
    hashed = await passwords(j.settings).hash(new)
    await run_in_threadpool(_set_password, j, who.user_id, hashed, who.token_id)


def change_email(j: Judge, user_id: int, email: str | None) -> None:
    """Set the address deadline reminders and sign-in codes go to (None: none)."""
    with j.db.write() as s:
        s.execute(update(User).where(User.id == user_id).values(email=email))


# -- its tokens and sessions ---------------------------------------------------------------

def tokens(j: Judge, user_id: int) -> list[TokenInfo]:
    """The account's tokens and page sessions still valid, oldest first."""
    now = utcnow()
    with j.db.read() as s:
        rows = s.scalars(select(Token).where(Token.user_id == user_id).order_by(Token.id))
        return [TokenInfo(id=t.id, kind="session" if t.kind == "session" else "api",
                          created=t.created_at, expires=t.expires_at)
                for t in rows if t.expires_at is None or t.expires_at > now]


def revoke_own(j: Judge, user_id: int, token_id: int) -> None:
    """Revoke one of the account's tokens or sessions; 404 when it is not one of
    its own (another account's looks the same as none)."""
    with j.db.write() as s:
        gone = deleted(s, delete(Token).where(Token.id == token_id, Token.user_id == user_id))
    if not gone:
        raise not_found(f"you have no token or session {token_id}")


def revoke_all(j: Judge, user_id: int) -> None:
    """Revoke every token and session of the account: signed out everywhere."""
    with j.db.write() as s:
        s.execute(delete(Token).where(Token.user_id == user_id))
