"""Bad input anywhere gets the spec's error shape, never a 500 or a stack trace:
malformed JSON, huge bodies, unknown fields, wrong types, garbage orders, and a
hypothesis fuzz of the main endpoints. SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge_fixtures import Api, Table

SHAPE_STATUSES = {400, 401, 403, 404, 405, 409, 413, 422, 429}


def assert_error_shape(response: Any, status: int | None = None) -> None:
    assert response.status_code < 500, (response.status_code, response.text[:300])
    if status is not None:
        assert response.status_code == status, (response.status_code, response.text[:300])
    if response.status_code >= 400:
        assert response.status_code in SHAPE_STATUSES
        body = response.json()
        assert set(body) >= {"error", "detail"} and isinstance(body["detail"], str)
        assert "Traceback" not in response.text and 'File "' not in response.text


def test_malformed_json(api: Api) -> None:
    token = api.signup()
    for raw in (b"{", b"not json", b"[1, 2", b"\xff\xfe", b"", b"null", b"[]", b'"text"',
                b"{\"username\": \"x\", \"password\": }"):
        for path in ("/accounts", "/games"):
            got = api.client.post("/api/v1" + path, content=raw,
                                  headers={"Content-Type": "application/json",
                                           "Authorization": f"Bearer {token}"})
            assert_error_shape(got, 400)


def test_wrong_content_type(api: Api) -> None:
    got = api.client.post("/api/v1/accounts", content=b"username=x&password=y",
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert_error_shape(got, 400)
    assert "application/json" in got.json()["detail"]


def test_huge_bodies(api: Api) -> None:
    token = api.signup()
    table = api.full_game()
    huge = json.dumps({"orders": ["A PAR - BUR"] * 20000}).encode()
    assert len(huge) > 64 * 1024
    got = api.client.put(f"/api/v1/games/{table.id}/orders", content=huge,
                         headers={"Content-Type": "application/json",
                                  "Authorization": f"Bearer {table.players['france']}"})
    assert_error_shape(got, 413)
    assert got.json()["error"] == "too_large"

    def chunks(count: int = 100) -> Any:  # no Content-Length: read until the limit, refused
        for _ in range(count):
            yield b"x" * 4096

    got = api.client.post("/api/v1/accounts", content=chunks(),
                          headers={"Content-Type": "application/json",
                                   "Authorization": f"Bearer {token}"})
    assert_error_shape(got, 413)
    # a new game may carry a variant file: up to 1 MiB there, and no more
    got = api.client.post("/api/v1/games", content=chunks(),
                          headers={"Content-Type": "application/json",
                                   "Authorization": f"Bearer {token}"})
    assert_error_shape(got, 400)
    got = api.client.post("/api/v1/games", content=chunks(300),
                          headers={"Content-Type": "application/json",
                                   "Authorization": f"Bearer {token}"})
    assert_error_shape(got, 413)
    # just under the limit is read (and judged on its content)
    body = json.dumps({"orders": ["A PAR - BUR"] * 400})
    got = api.client.put(f"/api/v1/games/{table.id}/orders", content=body,
                         headers={"Content-Type": "application/json",
                                  "Authorization": f"Bearer {table.players['france']}"})
    assert_error_shape(got, 422)


def test_unknown_fields_and_wrong_types(api: Api) -> None:
    table = api.full_game()
    gid, france = table.id, table.players["france"]
    cases: list[tuple[str, str, Any]] = [
        ("PUT", f"/games/{gid}/orders", {"orders": ["A PAR - BUR"], "power": "germany"}),
        ("PUT", f"/games/{gid}/orders", {"orders": "A PAR - BUR"}),
        ("PUT", f"/games/{gid}/orders", {"orders": [1, 2]}),
        ("PUT", f"/games/{gid}/orders", {"orders": [None]}),
        ("PUT", f"/games/{gid}/orders", {"orders": [["A PAR - BUR"]]}),
        ("PUT", f"/games/{gid}/orders", {"orders": ["A PAR - BUR" * 100]}),
        ("PUT", f"/games/{gid}/orders", {}),
        ("POST", f"/games/{gid}/ready", {"ready": 1}),
        ("POST", f"/games/{gid}/ready", {"ready": None}),
        ("POST", f"/games/{gid}/master/extend", {"seconds": "60"}),
        ("POST", f"/games/{gid}/master/extend", {"seconds": 10**30}),
        ("POST", f"/games/{gid}/seats", {"power": ["france"]}),
        ("POST", "/tokens", {"username": ["x"], "password": "y"}),
        ("POST", "/games", {"variant": "standard", "name": "x", "anonymous": "false"}),
        ("POST", "/games", {"variant": "standard", "name": "x", "deadlines": [60]}),
        ("POST", "/games", {"variant": "standard", "name": "x", "options": ["paradox=1982"]}),
        ("POST", "/games", {"name": "x", "variant_file": ["[variant]"]}),
        ("POST", f"/games/{gid}/messages", {"to": "all", "body": 5}),
        ("POST", f"/games/{gid}/messages", {"to": "All", "body": "x"}),
        ("POST", f"/games/{gid}/messages", {"to": [["england"]], "body": "x"}),
        ("POST", f"/games/{gid}/messages", {"to": ["england"] * 50, "body": "x"}),
        ("POST", f"/games/{gid}/messages/read", {"up_to": "7"}),
        ("PUT", f"/games/{gid}/vote", {"draw": "yes"}),
        ("PUT", f"/games/{gid}/vote", {"concede": ["england"]}),
        ("PUT", f"/games/{gid}/vote", {"draw": True, "power": "england"}),
    ]
    for method, path, body in cases:
        token = table.master if "master" in path else france
        got = api.call(method, path, token, body)
        assert_error_shape(got, 400)
    for path in (f"/games/{gid}x", "/games/-1", f"/games/{10**40}", "/games/1.5"):
        assert_error_shape(api.call("GET", path, france))
    assert_error_shape(api.call("GET", f"/games/{gid}/map.svg?phase=X9999M", france), 404)
    assert_error_shape(api.call("GET", f"/games/{gid}/map.svg?orders=7", france), 400)
    assert_error_shape(api.call("PATCH", f"/games/{gid}", france), 405)
    assert_error_shape(api.call("GET", "/no/such/thing", france), 404)


GARBAGE = [
    "", " ", "\x00", "A", "A PAR", "A PAR -", "- BUR", "A PAR - BUR - MUN - KIE - BER",
    "F STP/XX - BOT", "A PAR S", "A PAR C F BRE", "BUILD", "REMOVE A PAR", "WAIVE",
    "A PAR R BUR", "🙂 - 🙃", "A PAR\n- BUR", "A PAR - BUR; DROP TABLE games", "A" * 200,
    "a par - bur via convoy via convoy", "Germany: A MUN - RUH", "A PAR PERMIT ITALY",
    "F ION NO CONVERT", "A ven S Turkish A tyr", "A MUN1 - MUN2", "A Munich* - Bur",
]


def test_garbage_orders(api: Api) -> None:
    table = api.full_game()
    for text in GARBAGE:
        got = api.call("PUT", f"/games/{table.id}/orders", table.players["france"],
                       {"orders": [text]})
        assert_error_shape(got)
        assert got.status_code in (200, 400, 422), (text, got.text)
    assert_error_shape(api.call("PUT", f"/games/{table.id}/orders", table.players["france"],
                                {"orders": GARBAGE}))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=4),
    max_leaves=12)
FIELDS = st.fixed_dictionaries({}, optional={
    "orders": st.lists(st.text(max_size=40), max_size=5) | JSON,
    "ready": st.booleans() | JSON, "power": st.text(max_size=12) | JSON,
    "seconds": st.integers() | JSON, "username": st.text(max_size=40) | JSON,
    "password": st.text(max_size=40) | JSON, "variant": st.sampled_from(
        ["standard", "sahara", "x"]) | JSON, "name": st.text(max_size=30) | JSON,
    "options": JSON, "deadlines": JSON, "press": JSON, "invite": JSON,
    "to": st.sampled_from(["all", ["england"], ["narnia"]]) | JSON,
    "body": st.text(max_size=40) | JSON, "draw": st.booleans() | JSON,
    "concede": st.sampled_from(["england", None, "x"]) | JSON,
    "conversation": st.text(max_size=20) | JSON, "up_to": st.integers() | JSON,
    "variant_file": st.text(max_size=40) | JSON})
ROUTES = [("PUT", "/games/{id}/orders"), ("POST", "/games/{id}/ready"),
          ("POST", "/games/{id}/seats"), ("POST", "/games/{id}/master/extend"),
          ("POST", "/games"), ("POST", "/accounts"), ("POST", "/tokens"),
          ("GET", "/games/{id}/map.svg"), ("POST", "/games/{id}/messages"),
          ("GET", "/games/{id}/messages"), ("POST", "/games/{id}/messages/read"),
          ("PUT", "/games/{id}/vote")]


def test_fuzz(api: Api) -> None:
    table = api.full_game()

    @settings(max_examples=150, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(route=st.sampled_from(ROUTES), body=FIELDS | JSON, who=st.sampled_from(
        ["france", "master", None]), query=st.text(max_size=20))
    def one(route: tuple[str, str], body: Any, who: str | None, query: str) -> None:
        _check_one(api, table, route, body, who, query)

    one()


def _check_one(api: Api, table: Table, route: tuple[str, str], body: Any, who: str | None,
               query: str) -> None:
    method, path = route
    token = table.master if who == "master" else table.players.get(who or "", None)
    path = path.format(id=table.id)
    if method == "GET":
        got = api.call(method, path, token, params={"phase": query, "orders": "1",
                                                    "since": query, "conversation": query})
    else:
        got = api.call(method, path, token, body)
    assert_error_shape(got)


def test_database_failure_is_503(api: Api, monkeypatch: Any) -> None:
    """A database that cannot be reached is 503 unavailable in the shape, not a trace."""
    from contextlib import contextmanager

    from sqlalchemy.exc import OperationalError

    token = api.signup()
    db = api.client.app.state.judge.db

    @contextmanager
    def broken() -> Any:
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))
        yield

    monkeypatch.setattr(db, "read", broken)
    got = api.call("GET", "/account", token)
    assert got.status_code == 503 and got.json()["error"] == "unavailable"
    assert "connection refused" not in got.text
