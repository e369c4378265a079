"""One-time sign-in codes mailed to an account's address: the way in nobody can lock
(issue 26, item 4), and the way back in after a forgotten password.

A stranger who keeps guessing a name's password fills the name's log-in limit
(``auth.py``), so from an address its owner never used, the owner's right password
gets 429 while the attack lasts. What tells the owner from the stranger there is
only the mailbox: ``POST /api/v1/session/code`` mails the account a code, and
``POST /api/v1/session`` with ``{"username", "code"}`` signs in with it, past the
name's limit (not past the address's: a wrong code counts there as a wrong
password does).

* **The code**: 10 characters of a 32-letter alphabet without 0/O and 1/I (50
  bits), shown as ``ABCDE-FGHJK``; read case-insensitively, spaces and hyphens
  ignored. Only its SHA-256 (salted with the account's id) is stored. It works
  once (using it deletes it, atomically: of two racing uses one wins), for
  ``sign_in_code_seconds`` (15 minutes); a new one replaces the old.
* **Wrong codes**: each is a ``login_failures`` row (``auth.CODE_TRIES`` and the
  name), written and committed before the code is looked at, as the log-in
  throttle does, so however many race, from one address at most
  ``sign_in_code_tries`` (5) are compared with a code; after that the code is void
  *for that address*. Void for everyone instead would hand a stranger the lock
  back: ask for a code (it goes to the owner), burn it with five wrong tries,
  again until the name's mail quota is used up. A guesser meanwhile gets 5 tries
  per address per code, against 2^50 codes, within the address's own limit.
* **Mails**: a request is a ``sign_in_code_requests`` row, committed first, then
  counted: at most ``sign_in_codes_per_name`` codes per name and
  ``sign_in_codes_per_address`` requests per address within the window (429
  after; the refused row is deleted, so the rows are the mails sent). The window
  is never longer than a code's life (``Settings`` refuses that): whoever uses up
  a name's quota has just had a code mailed to its owner, and the newest of them
  still works until the quota frees again.
* **No enumeration**: the answer is the same whether the name exists, has an
  address, or neither, and the quotas count every name asked for.

Nothing here sends mail: the route hands what to send to the mail thread
(``mail.Mailer.send``), after the database work has committed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from .auth import (
    CODE_TRIES,
    Account,
    count_rows,
    deleted,
    logged_in,
    record,
    too_many,
    username_key,
)
from .context import Judge
from .db import utcnow
from .errors import unauthenticated
from .models import CodeRequest, LoginFailure, SignInCode, Token, User

#: 32 letters and digits, none that reads as another (no 0, O, 1, I)
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
#: 10 of them: 50 bits
LENGTH = 10


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def shown(code: str) -> str:
    """The code as a mail shows it: two groups of five."""
    return f"{code[:5]}-{code[5:]}"


def typed(text: str) -> str:
    """A code as a person typed it: capitals, no spaces or hyphens."""
    return "".join(c for c in text.upper() if c.isalnum())


def code_digest(user_id: int, code: str) -> str:
    return hashlib.sha256(f"sign-in:{user_id}:{code}".encode()).hexdigest()


@dataclass(frozen=True)
class Mailing:
    """A code to mail: where, for whom, what."""

    to: str
    username: str
    code: str


def _forget_request(j: Judge, row_id: int) -> None:
    with j.db.write() as s:
        s.execute(delete(CodeRequest).where(CodeRequest.id == row_id))


def request_code(j: Judge, username: str, ip: str) -> Mailing | None:
    """Record the request (committed), count it; 429 over a quota. A new code for
    the account when it exists and has an address (replacing its old one), else
    None: the caller answers the same either way."""
    cfg = j.settings
    key = username_key(username)[:64]
    now = utcnow()
    row_id = record(j, CodeRequest(username_key=key, ip=ip[:64], at=now))
    since = now - timedelta(seconds=cfg.sign_in_code_window_seconds)
    with j.db.read() as s:
        by_ip = count_rows(s, CodeRequest, CodeRequest.ip == ip[:64], CodeRequest.at > since)
        by_name = count_rows(s, CodeRequest, CodeRequest.username_key == key,
                             CodeRequest.at > since)
    minutes = max(1, cfg.sign_in_code_window_seconds // 60)
    if by_ip > cfg.sign_in_codes_per_address:
        _forget_request(j, row_id)
        raise too_many("too many sign-in codes were asked for from this address: try again "
                       f"in {minutes} minutes", cfg.sign_in_code_window_seconds)
    if by_name > cfg.sign_in_codes_per_name:
        _forget_request(j, row_id)
        raise too_many(f"sign-in codes for this name were mailed {cfg.sign_in_codes_per_name} "
                       f"times in the last {minutes} minutes: use the newest one mailed (it "
                       f"still works), or ask again later", cfg.sign_in_code_window_seconds)
    code = new_code()
    expires = now + timedelta(seconds=cfg.sign_in_code_seconds)
    with j.db.write() as s:
        user = s.scalar(select(User).where(User.username_key == key))
        if user is None or not user.email:
            return None
        insert = pg_insert if s.get_bind().dialect.name == "postgresql" else sqlite_insert
        values = {"code_hash": code_digest(user.id, code), "created_at": now,
                  "expires_at": expires}
        s.execute(insert(SignInCode).values(user_id=user.id, **values)
                  .on_conflict_do_update(index_elements=["user_id"], set_=values))
        return Mailing(user.email, user.username, code)


@dataclass(frozen=True)
class _Held:
    row_id: int
    user: Account | None
    code_hash: str | None
    tries: int
    by_ip: int


def _begin(j: Judge, key: str, ip: str) -> _Held:
    """Record the try (committed), then read the account, its code and the counts."""
    cfg = j.settings
    now = utcnow()
    row_id = record(j, LoginFailure(username_key=(CODE_TRIES + key)[:64], ip=ip[:64], at=now))
    with j.db.read() as s:
        user = s.scalar(select(User).where(User.username_key == key))
        held = s.get(SignInCode, user.id) if user is not None else None
        live = held is not None and held.expires_at > now
        # tries count for the code they were made against: since it was made
        since = held.created_at if held is not None and live else now - timedelta(
            seconds=cfg.sign_in_code_seconds)
        tries = count_rows(s, LoginFailure, LoginFailure.ip == ip[:64],
                           LoginFailure.username_key == (CODE_TRIES + key)[:64],
                           LoginFailure.at >= since)
        by_ip = count_rows(s, LoginFailure, LoginFailure.ip == ip[:64], LoginFailure.at > (
            now - timedelta(seconds=cfg.login_window_seconds)))
        return _Held(row_id, Account(user.id, user.username) if user is not None else None,
                     held.code_hash if held is not None and live else None, tries, by_ip)


def sign_in(j: Judge, username: str, code: str, ip: str) -> Account:
    """Check a sign-in code: the account, or 429 over the address's log-in limit, or
    401 (a wrong, used, replaced or expired code; or too many wrong ones from here)."""
    cfg = j.settings
    held = _begin(j, username_key(username), ip)
    if held.by_ip > cfg.login_max_failures:
        raise too_many("too many failed log-ins from this address: wait a few minutes",
                       cfg.login_window_seconds)
    if held.tries > cfg.sign_in_code_tries:
        raise unauthenticated("this name's sign-in code was given wrongly too many times from "
                              "this address: ask for a new code")
    given = typed(code)
    user = held.user
    if (user is None or held.code_hash is None or len(given) != LENGTH
            or not hmac.compare_digest(held.code_hash, code_digest(user.id, given))):
        raise unauthenticated("wrong or expired sign-in code (each works once, for "
                              f"{max(1, cfg.sign_in_code_seconds // 60)} minutes): check it, "
                              "or ask for a new one")
    with j.db.write() as s:  # single use: of two racing right tries, one deletes it
        used = deleted(s, delete(SignInCode).where(SignInCode.user_id == user.id,
                                                   SignInCode.code_hash == held.code_hash))
    if not used:
        raise unauthenticated("this sign-in code was used or replaced a moment ago: ask "
                              "for a new one")
    logged_in(j, held.row_id, user.id, ip)
    return user


def fresh_code_session(j: Judge, token_id: int) -> bool:
    """Whether the page session ``token_id`` was signed in by a code within the last
    ``sign_in_code_seconds``: it may set a new password without the old one."""
    since = utcnow() - timedelta(seconds=j.settings.sign_in_code_seconds)
    with j.db.read() as s:
        at = s.scalar(select(Token.code_at).where(Token.id == token_id,
                                                  Token.kind == "session"))
    return at is not None and at > since


def mail_text(j: Judge, mailing: Mailing, ip: str) -> tuple[str, str]:
    """The subject and body of a code's mail. The code is in the body only: the mail
    thread logs a failed mail's subject."""
    minutes = max(1, j.settings.sign_in_code_seconds // 60)
    url = j.settings.public_url.rstrip("/")
    where = f" at {url}/login" if url else " on the judge's log-in page"
    return ("[standoff] your sign-in code",
            f"Someone asked to sign in to the standoff judge as {mailing.username}, from the "
            f"address {ip}.\n\n"
            f"The one-time sign-in code: {shown(mailing.code)}\n\n"
            f"It works once, for {minutes} minutes,{where} (\"Mail me a sign-in code\"). "
            f"Signed in with it, you may set a new password on your account page without "
            f"the old one during those {minutes} minutes.\n\n"
            "If you did not ask for it, ignore this mail: nobody can use the code without "
            "reading it here.\n")
