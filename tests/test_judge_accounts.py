"""The judge's accounts: sign-up, tokens, page sessions with CSRF, throttled log-in.

Each test runs on SQLite and on PostgreSQL (``db_url`` in judge_fixtures.py).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select, update

from judge_fixtures import PASSWORD, Api, make_api, settings_for
from test_judge_mail import Inbox, mail_settings, smtp_server


def _rows(db_url: str, model: Any) -> list[Any]:
    from standoff.judge.db import Database

    db = Database(settings_for(db_url))
    try:
        with db.read() as s:
            return list(s.scalars(select(model)))
    finally:
        db.dispose()


def test_sign_up_and_token(api: Api) -> None:
    made = api.json("POST", "/accounts", body={"username": "Alice", "password": PASSWORD,
                                               "email": "alice@example.org"}, expect=201)
    assert set(made) == {"id", "username"} and made["username"] == "Alice"
    token = api.json("POST", "/tokens", body={"username": "alice", "password": PASSWORD},
                     expect=201)["token"]
    assert api.json("GET", "/account", token) == {**made, "email": "alice@example.org",
                                                  "password_needed": True}
    # names are unique regardless of case
    api.call("POST", "/accounts", body={"username": "ALICE", "password": PASSWORD}, expect=409)


def test_passwords_and_tokens_are_stored_hashed(api: Api, db_url: str) -> None:
    from standoff.judge.models import Token, User

    token = api.signup("hashed")
    users = _rows(db_url, User)
    assert users[0].password_hash.startswith("$argon2id$")
    assert PASSWORD not in users[0].password_hash
    tokens = _rows(db_url, Token)
    assert tokens and all(t.token_hash != token and token not in t.token_hash for t in tokens)


def test_account_input_is_checked(api: Api) -> None:
    for body in ({"username": "ab", "password": PASSWORD},               # too short
                 {"username": "has space", "password": PASSWORD},
                 {"username": "bob", "password": "short"},
                 {"username": "bob", "password": PASSWORD, "admin": True},  # unknown field
                 {"username": 5, "password": PASSWORD},                    # wrong type
                 {"username": "bob", "password": PASSWORD, "email": "not-an-address"},
                 {"username": "bob"}):
        got = api.call("POST", "/accounts", body=body, expect=400).json()
        assert got["error"] == "invalid" and got["detail"], body


def test_wrong_credentials(api: Api) -> None:
    api.signup("carol")
    got = api.call("POST", "/tokens", body={"username": "carol", "password": "wrong one"},
                   expect=401).json()
    assert got == {"error": "unauthenticated", "detail": "wrong username or password"}
    api.call("POST", "/tokens", body={"username": "nobody", "password": PASSWORD}, expect=401)


def test_authentication_is_required(api: Api) -> None:
    token = api.signup()
    game = api.new_game(token)
    for method, path in [("GET", f"/games/{game['id']}"), ("POST", "/games"),
                         ("GET", f"/games/{game['id']}/orders"), ("GET", "/account"),
                         ("POST", f"/games/{game['id']}/seats")]:
        got = api.call(method, path, body={}, expect=401).json()
        assert got["error"] == "unauthenticated"
    # open to all: variants, public game listings, sign-up and log-in
    api.call("GET", "/variants", expect=200)
    listed = api.json("GET", "/games")
    assert [g["id"] for g in listed] == [game["id"]]
    # a bad or revoked token is 401 too
    api.call("GET", "/account", "not-a-token", expect=401)
    api.call("GET", "/account", headers={"Authorization": "Basic abc"}, expect=401)
    api.call("DELETE", "/tokens", token, expect=204)
    api.call("GET", "/account", token, expect=401)


def _from(api: Api, address: str) -> Api:
    """The same app, seen from another client address."""
    from fastapi.testclient import TestClient

    return Api(TestClient(api.client.app, client=(address, 50000)))


def test_log_in_is_throttled_per_username(api: Api) -> None:
    api.signup("dave")
    # 10 wrong guesses, each from an address of its own: the address limit is never met
    for i in range(10):
        _from(api, f"10.0.0.{i + 1}").call("POST", "/tokens", body={"username": "dave",
                                                                     "password": "bad guess"},
                                          expect=401)
    got = _from(api, "10.0.1.1").call("POST", "/tokens", body={"username": "dave",
                                                               "password": PASSWORD},
                                      expect=429)
    assert got.json()["error"] == "too_many_requests" and got.headers["Retry-After"]
    # ... but the owner, from where they logged in before, is not locked out
    api.call("POST", "/tokens", body={"username": "dave", "password": PASSWORD}, expect=201)


def test_log_in_is_throttled_per_address(api: Api) -> None:
    api.signup("erin")
    for i in range(10):
        api.call("POST", "/tokens", body={"username": f"ghost{i}", "password": "bad guess"},
                 expect=401)
    # the address limit holds even for an account that logged in from there before
    api.call("POST", "/tokens", body={"username": "erin", "password": PASSWORD}, expect=429)
    _from(api, "10.0.2.1").call("POST", "/tokens", body={"username": "erin",
                                                         "password": PASSWORD}, expect=201)


def test_throttle_is_shared_by_processes(db_url: str) -> None:
    """Failures are rows in the database: a second app (another process, say)
    on the same database refuses too."""
    from fastapi.testclient import TestClient

    from standoff.judge import create_app

    with TestClient(create_app(settings_for(db_url))) as one, \
            TestClient(create_app(settings_for(db_url))) as two:
        Api(one).call("POST", "/accounts", body={"username": "frank", "password": PASSWORD},
                      expect=201)
        for _ in range(10):
            Api(one).call("POST", "/tokens", body={"username": "frank", "password": "no"},
                          expect=401)
        Api(two).call("POST", "/tokens", body={"username": "frank", "password": PASSWORD},
                      expect=429)


def test_page_session_with_csrf(api: Api) -> None:
    api.signup("grace")
    got = api.call("POST", "/session", body={"username": "grace", "password": PASSWORD},
                   expect=201)
    csrf = got.json()["csrf_token"]
    assert "standoff_session" in got.cookies and got.cookies["standoff_csrf"] == csrf
    assert "httponly" in got.headers.get_list("set-cookie")[0].lower()
    # reading needs no CSRF token
    assert api.json("GET", "/account")["username"] == "grace"
    # a change without the token, with a wrong one, or from another origin: 403
    body = {"variant": "standard", "name": "by cookie"}
    assert api.call("POST", "/games", body=body, expect=403).json()["error"] == "forbidden"
    api.call("POST", "/games", body=body, headers={"X-CSRF-Token": "0" * 64}, expect=403)
    api.call("POST", "/games", body=body, headers={"X-CSRF-Token": csrf,
                                                   "Origin": "https://evil.example"},
             expect=403)
    api.call("POST", "/games", body=body, headers={"X-CSRF-Token": csrf}, expect=201)
    api.call("POST", "/games", body=body, headers={"X-CSRF-Token": csrf,
                                                   "Origin": "http://testserver"}, expect=201)
    # log out (CSRF-checked), then the cookie is worthless
    api.call("DELETE", "/session", expect=403)
    api.call("DELETE", "/session", headers={"X-CSRF-Token": csrf}, expect=204)
    api.client.cookies.clear()
    api.call("GET", "/account", expect=401)


def test_bearer_requests_need_no_csrf(api: Api) -> None:
    token = api.signup()
    api.call("POST", "/games", token, {"variant": "standard", "name": "bot game"}, expect=201)


# -- weak passwords, the sign-up throttle, managing one's account, the purge ---------------

def test_weak_passwords_are_refused(api: Api) -> None:
    """Eight spaces, 'password' and '12345678' were accepted (issue 26, item 12)."""
    for weak, why in (("        ", "only spaces"), (" \t \t \t \t", "only spaces"),
                      ("password", "too easy to guess"), ("12345678", "too easy to guess"),
                      ("qwertyuiop", "too easy to guess"),
                      ("zelda1984", "too easy to guess"),  # the name and a year
                      ):
        got = api.call("POST", "/accounts", body={"username": "zelda", "password": weak},
                       expect=400).json()
        assert got["error"] == "invalid" and why in got["detail"], (weak, got)
        assert got["detail"].count(".") <= 1 and "\n" not in got["detail"]
    api.call("POST", "/accounts", body={"username": "zelda", "password": PASSWORD}, expect=201)


def test_sign_ups_are_throttled_per_address(db_url: str) -> None:
    with make_api(db_url, signup_max_per_address=3) as api:
        # refusals that cost nothing are not counted: a weak password, a taken name
        api.call("POST", "/accounts", body={"username": "u0", "password": "password"},
                 expect=400)
        for i in range(3):
            api.call("POST", "/accounts", body={"username": f"user{i}", "password": PASSWORD},
                     expect=201)
        api.call("POST", "/accounts", body={"username": "user0", "password": PASSWORD},
                 expect=409)
        got = api.call("POST", "/accounts", body={"username": "user3", "password": PASSWORD},
                       expect=429)
        assert got.json()["error"] == "too_many_requests"
        assert int(got.headers["Retry-After"]) == 3600
        # another address may still sign up
        _from(api, "10.0.3.1").call("POST", "/accounts",
                                    body={"username": "user3", "password": PASSWORD},
                                    expect=201)


def test_change_password(api: Api) -> None:
    api.signup("heidi")
    old_tokens = [api.json("POST", "/tokens", body={"username": "heidi", "password": PASSWORD},
                           expect=201)["token"] for _ in range(2)]
    me = old_tokens[0]
    new = "a different horse staple"
    # the current password is needed, and the new one must be strong
    got = api.call("PUT", "/account/password", me, {"password": "not it", "new_password": new},
                   expect=401)
    assert got.json()["error"] == "unauthenticated"
    api.call("PUT", "/account/password", me, {"password": PASSWORD, "new_password": "password"},
             expect=400)
    api.call("PUT", "/account/password", me, {"password": PASSWORD, "new_password": new},
             expect=204)
    # this token goes on; every other token and session of the account is revoked
    api.call("GET", "/account", me, expect=200)
    api.call("GET", "/account", old_tokens[1], expect=401)
    api.call("POST", "/tokens", body={"username": "heidi", "password": PASSWORD}, expect=401)
    api.call("POST", "/tokens", body={"username": "heidi", "password": new}, expect=201)


def test_change_email(api: Api) -> None:
    token = api.signup("ivan")
    assert api.json("GET", "/account", token)["email"] is None
    got = api.json("PUT", "/account/email", token, {"email": "ivan@example.org"})
    assert got["email"] == "ivan@example.org"
    assert api.json("GET", "/account", token)["email"] == "ivan@example.org"
    api.call("PUT", "/account/email", token, {"email": "not an address"}, expect=400)
    assert api.json("PUT", "/account/email", token, {"email": None})["email"] is None


def test_list_and_revoke_tokens(api: Api) -> None:
    bot = api.signup("judy")
    other = api.signup("mallory")
    got = api.call("POST", "/session", body={"username": "judy", "password": PASSWORD},
                   expect=201)
    csrf = {"X-CSRF-Token": got.json()["csrf_token"]}
    listed = api.json("GET", "/account/tokens")  # by the page session (cookie)
    assert [t["kind"] for t in listed] == ["api", "session"]
    assert [t["current"] for t in listed] == [False, True]
    assert all(set(t) == {"id", "kind", "created", "expires", "current"} for t in listed)
    assert listed[0]["expires"] is None and listed[1]["expires"] is not None
    text = api.call("GET", "/account/tokens").text
    assert bot not in text and got.cookies["standoff_session"] not in text
    # by bearer, the bearer token is the current one
    assert [t["current"] for t in api.json("GET", "/account/tokens", bot)] == [True, False]
    # another account's token is not yours to revoke (nor to see)
    theirs = api.json("GET", "/account/tokens", other)[0]["id"]
    api.call("DELETE", f"/account/tokens/{theirs}", bot, expect=404)
    api.call("DELETE", "/account/tokens/99999999999", bot, expect=400)
    # revoke the bot's token from the page (CSRF-checked)
    api.call("DELETE", f"/account/tokens/{listed[0]['id']}", expect=403)
    api.call("DELETE", f"/account/tokens/{listed[0]['id']}", headers=csrf, expect=204)
    api.call("GET", "/account", bot, expect=401)
    api.call("GET", "/account", other, expect=200)
    # revoke all: the page session too, and its cookies are cleared
    api.signup("judy2")
    bot = api.json("POST", "/tokens", body={"username": "judy", "password": PASSWORD},
                   expect=201)["token"]
    gone = api.call("DELETE", "/account/tokens", headers=csrf, expect=204)
    assert "standoff_session" in gone.headers.get("set-cookie", "")
    api.call("GET", "/account", bot, expect=401)
    api.client.cookies.clear()
    api.call("GET", "/account", headers={"Cookie": f"standoff_session="
                                         f"{got.cookies['standoff_session']}"}, expect=401)
    api.call("GET", "/account", other, expect=200)


def test_purge_expired(db_url: str) -> None:
    from datetime import timedelta

    from standoff.judge.auth import CODE_TRIES, digest, purge_expired
    from standoff.judge.context import Judge
    from standoff.judge.db import Database, utcnow
    from standoff.judge.models import CodeRequest, LoginFailure, SignInCode, SignUp, Token, User

    settings = settings_for(db_url)
    db = Database(settings)
    try:
        db.migrate()
        now = utcnow()
        with db.write() as s:
            user = User(username="old", username_key="old", email=None, password_hash="x",
                        created_at=now)
            s.add(user)
            s.flush()
            for i, expires in enumerate([now - timedelta(seconds=1), now + timedelta(days=1),
                                         None]):
                s.add(Token(user_id=user.id, token_hash=digest(str(i)), kind="session",
                            created_at=now, expires_at=expires))
            s.add(LoginFailure(username_key="old", ip="1.2.3.4", at=now - timedelta(hours=1)))
            s.add(LoginFailure(username_key="old", ip="1.2.3.4", at=now))
            s.add(SignUp(ip="1.2.3.4", at=now - timedelta(days=2)))
            s.add(SignUp(ip="1.2.3.4", at=now))
            # a wrong sign-in code counts as long as a code lives (15 minutes), longer
            # than a wrong password (5): kept at 10 minutes, gone at 20
            for minutes in (10, 20):
                s.add(LoginFailure(username_key=CODE_TRIES + "old", ip="1.2.3.4",
                                   at=now - timedelta(minutes=minutes)))
            s.add(SignInCode(user_id=user.id, code_hash="x", created_at=now,
                             expires_at=now - timedelta(seconds=1)))
            s.add(CodeRequest(username_key="old", ip="1.2.3.4", at=now - timedelta(hours=1)))
            s.add(CodeRequest(username_key="old", ip="1.2.3.4", at=now))
        assert purge_expired(Judge(settings, db)) == 6
        assert purge_expired(Judge(settings, db)) == 0
        with db.read() as s:
            assert len(list(s.scalars(select(Token)))) == 2
            assert len(list(s.scalars(select(LoginFailure)))) == 2
            assert len(list(s.scalars(select(SignUp)))) == 1
            assert not list(s.scalars(select(SignInCode)))
            assert len(list(s.scalars(select(CodeRequest)))) == 1
    finally:
        db.dispose()


# -- one-time sign-in codes by e-mail (issue 26, item 4) ------------------------------------

#: a code as the mail shows it
CODE = re.compile(r"sign-in code: ([2-9A-Z]{5}-[2-9A-Z]{5})")


def mailed_codes(inbox: Inbox, to: str) -> list[str]:
    """The sign-in codes mailed to ``to`` so far, oldest first."""
    found = []
    for rcpts, msg in list(inbox.mails):
        part = msg.get_body(("plain",))
        text = str(part.get_content()) if part is not None else ""
        if rcpts == [to] and (match := CODE.search(text)):
            found.append(match.group(1))
    return found


def wait_code(inbox: Inbox, to: str, count: int = 1, timeout: float = 20) -> str:
    """The newest code mailed to ``to``, once ``count`` of them arrived."""
    end = time.monotonic() + timeout
    while len(codes := mailed_codes(inbox, to)) < count:
        if time.monotonic() > end:
            raise AssertionError(f"{len(codes)} of {count} sign-in codes mailed to {to}")
        time.sleep(0.05)
    return codes[-1]


@pytest.fixture
def coded(db_url: str) -> Iterator[tuple[Api, Inbox]]:
    """The app with a real SMTP server to mail codes to, and its inbox."""
    with smtp_server() as (inbox, port), make_api(db_url, **mail_settings(port)) as made:
        yield made, inbox


def _ask(api: Api, name: str, expect: int = 202) -> Any:
    return api.call("POST", "/session/code", body={"username": name}, expect=expect).json()


def _with_code(api: Api, name: str, code: str, expect: int) -> Any:
    return api.call("POST", "/session", body={"username": name, "code": code}, expect=expect)


def test_a_code_signs_in_once(coded: tuple[Api, Inbox], db_url: str) -> None:
    from standoff.judge.models import KnownAddress, SignInCode

    api, inbox = coded
    api.signup("kim", email="kim@example.org")
    _ask(api, "kim")
    code = wait_code(inbox, "kim@example.org")
    assert len(_rows(db_url, SignInCode)) == 1
    assert all(code not in row.code_hash for row in _rows(db_url, SignInCode))
    # as a person types it: lower case, a space for the hyphen; from a new address
    elsewhere = _from(api, "10.0.7.1")
    got = _with_code(elsewhere, "KIM", code.lower().replace("-", " "), 201)
    assert got.json()["username"] == "kim" and got.json()["csrf_token"]
    assert got.cookies.get("standoff_session")
    assert ("10.0.7.1" in {row.ip for row in _rows(db_url, KnownAddress)})
    # once only
    again = _with_code(elsewhere, "kim", code, 401).json()
    assert again["error"] == "unauthenticated"
    assert not _rows(db_url, SignInCode)
    # a new code replaces the old one
    _ask(api, "kim")
    first = wait_code(inbox, "kim@example.org", 2)
    _ask(api, "kim")
    second = wait_code(inbox, "kim@example.org", 3)
    _with_code(api, "kim", first, 401)
    _with_code(api, "kim", second, 201)


def test_a_code_expires(coded: tuple[Api, Inbox], db_url: str) -> None:
    from standoff.judge.db import Database, utcnow
    from standoff.judge.models import SignInCode

    api, inbox = coded
    api.signup("lee", email="lee@example.org")
    _ask(api, "lee")
    code = wait_code(inbox, "lee@example.org")
    db = Database(settings_for(db_url))
    try:  # 15 minutes later, as far as the judge can tell
        with db.write() as s:
            s.execute(update(SignInCode).values(expires_at=utcnow() - timedelta(seconds=1)))
    finally:
        db.dispose()
    got = _with_code(api, "lee", code, 401).json()
    assert "expired" in got["detail"]


def test_five_wrong_codes_void_it_from_that_address(coded: tuple[Api, Inbox]) -> None:
    """Five wrong codes from one address, and there the right one is refused too; from
    another address it still works (void for everyone, strangers could burn every code
    mailed to the owner: see sign_in_codes.py)."""
    api, inbox = coded
    api.signup("max", email="max@example.org")
    _ask(api, "max")
    code = wait_code(inbox, "max@example.org")
    guesser = _from(api, "10.0.8.1")
    for guess in ("AAAAA-AAAAA", "22222-22222", "too short", "ZZZZZ-ZZZZZ", "23456-789AB"):
        assert guess != code
        _with_code(guesser, "max", guess, 401)
    refused = _with_code(guesser, "max", code, 401).json()
    assert "too many times from this address" in refused["detail"]
    _with_code(_from(api, "10.0.8.2"), "max", code, 201)


def test_the_answer_is_the_same_for_every_name(coded: tuple[Api, Inbox]) -> None:
    api, inbox = coded
    api.signup("nia", email="nia@example.org")
    api.signup("noaddress")
    answers = [api.call("POST", "/session/code", body={"username": name})
               for name in ("nia", "noaddress", "nobody-by-this-name")]
    assert {r.status_code for r in answers} == {202}
    assert len({r.text for r in answers}) == 1
    assert "if this account has an e-mail address" in answers[0].json()["message"]
    wait_code(inbox, "nia@example.org")
    assert len(inbox.mails) == 1
    # a made-up code for an unknown name is refused as a wrong code is
    unknown = _with_code(api, "nobody-by-this-name", "ABCDE-FGHJK", 401).json()
    wrong = _with_code(api, "nia", "ABCDE-FGHJK", 401).json()
    assert unknown == wrong


def test_codes_are_throttled_per_name_and_per_address(coded: tuple[Api, Inbox]) -> None:
    api, inbox = coded
    api.signup("ola", email="ola@example.org")
    # three codes per name within the window, from anywhere; then 429, the newest works
    for i in range(3):
        _ask(_from(api, f"10.0.9.{i + 1}"), "ola")
    got = _from(api, "10.0.9.9").call("POST", "/session/code", body={"username": "ola"},
                                      expect=429)
    assert got.headers["Retry-After"] and "use the newest one" in got.json()["detail"]
    newest = wait_code(inbox, "ola@example.org", 3)
    time.sleep(0.2)
    assert len(mailed_codes(inbox, "ola@example.org")) == 3
    _with_code(api, "ola", newest, 201)
    # an unknown name counts the same (a 429 tells nothing about who exists)
    for _ in range(3):
        _ask(api, "ghost-of-ola")
    _ask(api, "ghost-of-ola", 429)
    # ten requests from one address, whatever the names; then 429
    spray = _from(api, "10.0.10.1")
    for i in range(10):
        _ask(spray, f"someone{i}")
    assert "from this address" in _ask(spray, "someone-else", 429)["detail"]


def test_without_smtp_no_code_can_be_asked_for(api: Api) -> None:
    api.signup("pia", email="pia@example.org")
    got = _ask(api, "pia", 503)
    assert got["error"] == "unavailable" and "cannot send mail" in got["detail"]


def test_the_session_takes_a_password_or_a_code(api: Api) -> None:
    api.signup("quinn")
    for body in ({"username": "quinn"},
                 {"username": "quinn", "password": PASSWORD, "code": "ABCDE-FGHJK"},
                 {"username": "quinn", "code": 12345}):
        assert api.call("POST", "/session", body=body, expect=400).json()["error"] == "invalid"
    # bearer tokens take a password only
    api.call("POST", "/tokens", body={"username": "quinn", "code": "ABCDE-FGHJK"}, expect=400)


def test_a_code_session_sets_a_new_password_without_the_old(coded: tuple[Api, Inbox]) -> None:
    """A forgotten password: a code signs in, and for 15 minutes that session may set a
    new password without the old one (once); a password's session may not."""
    api, inbox = coded
    bot = api.signup("ray", email="ray@example.org")
    # a session made with the password needs it
    login = api.call("POST", "/session", body={"username": "ray", "password": PASSWORD},
                     expect=201)
    csrf = {"X-CSRF-Token": login.json()["csrf_token"]}
    assert api.json("GET", "/account")["password_needed"] is True
    api.call("PUT", "/account/password", body={"new_password": "a brand new staple"},
             headers=csrf, expect=400)
    api.client.cookies.clear()
    # a session made with a code does not
    _ask(api, "ray")
    login = _with_code(api, "ray", wait_code(inbox, "ray@example.org"), 201)
    csrf = {"X-CSRF-Token": login.json()["csrf_token"]}
    assert api.json("GET", "/account")["password_needed"] is False
    api.call("PUT", "/account/password", body={"new_password": "12345678"}, headers=csrf,
             expect=400)  # still a strong one
    api.call("PUT", "/account/password", body={"new_password": "a brand new staple"},
             headers=csrf, expect=204)
    # once: the next change needs the (new) password; other sessions and tokens are gone
    assert api.json("GET", "/account")["password_needed"] is True
    api.call("PUT", "/account/password", body={"new_password": "yet another staple"},
             headers=csrf, expect=400)
    api.call("GET", "/account", bot, expect=401)
    api.client.cookies.clear()
    api.call("POST", "/tokens", body={"username": "ray", "password": PASSWORD}, expect=401)
    api.call("POST", "/tokens", body={"username": "ray", "password": "a brand new staple"},
             expect=201)
