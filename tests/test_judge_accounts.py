"""The judge's accounts: sign-up, tokens, page sessions with CSRF, throttled log-in.

Each test runs on SQLite and on PostgreSQL (``db_url`` in judge_fixtures.py).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from judge_fixtures import PASSWORD, Api, settings_for


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
    assert api.json("GET", "/account", token) == made
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


def test_log_in_is_throttled_per_username(api: Api) -> None:
    api.signup("dave")
    for _ in range(10):
        api.call("POST", "/tokens", body={"username": "dave", "password": "bad guess"},
                 expect=401)
    got = api.call("POST", "/tokens", body={"username": "dave", "password": PASSWORD},
                   expect=429)
    assert got.json()["error"] == "too_many_requests" and got.headers["Retry-After"]
    # the limit is the name's: another account from the same address still logs in
    # (the address limit counts failures, and it has 10 already: see below)


def test_log_in_is_throttled_per_address(api: Api) -> None:
    api.signup("erin")
    for i in range(10):
        api.call("POST", "/tokens", body={"username": f"ghost{i}", "password": "bad guess"},
                 expect=401)
    api.call("POST", "/tokens", body={"username": "erin", "password": PASSWORD}, expect=429)


def test_throttle_is_shared_by_processes(db_url: str) -> None:
    """Failures are rows in the database: a second app (another process, say)
    on the same database refuses too."""
    from fastapi.testclient import TestClient

    from standoff.judge import create_app

    with TestClient(create_app(settings_for(db_url))) as one, \
            TestClient(create_app(settings_for(db_url))) as two:
        Api(one).signup("frank")
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
