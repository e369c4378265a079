"""The pages (judge/web), without a browser: each renders for the right users,
sends the wrong ones to log in or refuses them, changes made with the session
cookie need the CSRF token, and no page holds another power's pending orders
or press (the browser tests, tests/test_browser_*.py, play through them).

SQLite only: the pages add no database code of their own (they call the API's
handlers), so the API's PostgreSQL runs cover what they touch.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge_fixtures import PASSWORD, settings_for
from standoff.judge import create_app

POWERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"]


class Browser:
    """One person's cookie jar on the app (a TestClient of their own)."""

    def __init__(self, app: Any, name: str | None) -> None:
        from fastapi.testclient import TestClient

        self.client = TestClient(app, raise_server_exceptions=False, follow_redirects=False)
        self.csrf = ""
        if name is not None:
            assert self.client.post("/api/v1/accounts", json={
                "username": name, "password": PASSWORD}).status_code == 201
            answer = self.client.post("/api/v1/session", json={"username": name,
                                                               "password": PASSWORD})
            assert answer.status_code == 201, answer.text
            self.csrf = answer.json()["csrf_token"]

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, **kw)

    def call(self, method: str, path: str, body: Any = None, csrf: bool = True) -> Any:
        headers = {"X-CSRF-Token": self.csrf} if csrf else {}
        return self.client.request(method, "/api/v1" + path, json=body, headers=headers)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    made = create_app(settings_for(f"sqlite:///{tmp_path / 'web.db'}"))
    with TestClient(made):  # runs the lifespan: the database is migrated
        yield made


@pytest.fixture
def table(app: Any) -> dict[str, Any]:
    """A started Standard game: a master who plays no power, seven players; England
    has orders in and has written to France only."""
    people: dict[str, Any] = {"master": Browser(app, "master"),
                              "outsider": Browser(app, "outsider")}
    game = people["master"].call("POST", "/games", {"name": "Web", "variant": "standard"})
    assert game.status_code == 201, game.text
    gid = game.json()["id"]
    for power in POWERS:
        people[power] = Browser(app, power + "-player")
        assert people[power].call("POST", f"/games/{gid}/seats", {"power": power}
                                  ).status_code == 201
    assert people["england"].call("PUT", f"/games/{gid}/orders", {
        "orders": ["F LON - NTH", "A LVP - YOR"]}).status_code == 200
    assert people["england"].call("POST", f"/games/{gid}/messages", {
        "to": ["france"], "body": "zebra-secret for France"}).status_code == 201
    people["id"] = gid
    return people


def test_signed_out_pages_and_redirects(app: Any) -> None:
    anon = Browser(app, None)
    for path in ("/login", "/signup", "/static/style.css", "/static/game.js"):
        assert anon.get(path).status_code == 200, path
    for path in ("/lobby", "/games/1", "/games/1/history", "/games/1/history/S1901M"):
        answer = anon.get(path)
        assert answer.status_code == 303, path
        assert answer.headers["location"].startswith("/login?next=%2F"), path
    assert anon.get("/", headers={"accept": "text/html"}).headers["location"] == "/lobby"
    assert anon.get("/").json()["api"] == "/api/v1"
    page = anon.get("/login").text
    for testid in ("login-username", "login-password", "login-submit"):
        assert f'data-testid="{testid}"' in page
    assert anon.get("/login?next=//evil.example").status_code == 200


def test_signed_in_pages(table: dict[str, Any]) -> None:
    gid, france, master = table["id"], table["france"], table["master"]
    lobby = france.get("/lobby")
    assert lobby.status_code == 200
    assert 'data-testid="create-form"' in lobby.text and "twin-earths" in lobby.text
    assert france.get("/login").headers["location"] == "/lobby"
    page = france.get(f"/games/{gid}")
    assert page.status_code == 200
    assert 'data-testid="orders-panel"' in page.text
    assert 'data-testid="master-panel"' not in page.text
    assert 'data-testid="master-panel"' in master.get(f"/games/{gid}").text
    assert 'data-testid="orders-panel"' not in master.get(f"/games/{gid}").text
    assert france.get(f"/games/{gid}/history").status_code == 200
    assert france.get(f"/games/{gid}/history/S1901M").status_code == 200
    assert france.get("/games/999").status_code == 404
    assert france.get(f"/games/{gid}/history/<script>").status_code == 404


def test_private_game_pages_refuse_outsiders(table: dict[str, Any]) -> None:
    master, outsider = table["master"], table["outsider"]
    game = master.call("POST", "/games", {"name": "Hidden", "variant": "standard",
                                          "private": True}).json()
    assert 'data-testid="invite-code-shown"' in master.get(f"/games/{game['id']}").text
    for path in (f"/games/{game['id']}", f"/games/{game['id']}/history"):
        answer = outsider.get(path)
        assert answer.status_code == 403
        assert "private" in answer.text


def test_changes_with_the_cookie_need_the_csrf_token(table: dict[str, Any]) -> None:
    gid, france = table["id"], table["france"]
    for method, path, body in (("PUT", f"/games/{gid}/orders", {"orders": ["A PAR - BUR"]}),
                               ("POST", f"/games/{gid}/messages", {"to": "all", "body": "hi"}),
                               ("POST", f"/games/{gid}/ready", {"ready": True})):
        refused = france.call(method, path, body, csrf=False)
        assert refused.status_code == 403, path
        assert "CSRF" in refused.json()["detail"]
    assert france.call("PUT", f"/games/{gid}/orders", {"orders": ["A PAR - BUR"]}
                       ).status_code == 200
    assert france.call("DELETE", "/session", csrf=False).status_code == 403


def test_no_page_holds_another_powers_orders_or_press(table: dict[str, Any]) -> None:
    gid = table["id"]
    paths = ["/lobby", f"/games/{gid}", f"/games/{gid}/history",
             f"/games/{gid}/history/S1901M"]
    for who in ("france", "germany", "master"):
        for path in paths:
            html = table[who].get(path).text
            assert "NTH" not in html and "LVP - YOR" not in html, (who, path)
            assert "zebra-secret" not in html, (who, path)
    # the scripts fetch each caller's own: France reads the message, Germany does not
    bodies = [m["body"] for m in table["france"].call("GET", f"/games/{gid}/messages").json()]
    assert "zebra-secret for France" in bodies
    assert table["germany"].call("GET", f"/games/{gid}/messages").json() == []
    assert table["france"].call("GET", f"/games/{gid}/orders").json()["orders"] == []


def test_the_game_page_renders_for_every_variant(app: Any) -> None:
    master = Browser(app, "designer")
    for variant in [v["name"] for v in master.call("GET", "/variants").json()]:
        game = master.call("POST", "/games", {"name": variant, "variant": variant}).json()
        for path in (f"/games/{game['id']}", f"/games/{game['id']}/history"):
            answer = master.get(path)
            assert answer.status_code == 200, (variant, path)
            assert game["variant"] in answer.text
        assert 'data-testid="join-panel"' in master.get(f"/games/{game['id']}").text


def test_every_rule_options_datc_link_lands_on_its_section() -> None:
    """Issue 29 section 3: each rule option on the create form links to its DATC
    rule; the anchor must be a section of the DATC's public text (the copy in
    tests/data/datc is the page the links point to, byte for byte)."""
    import re

    from standoff.judge.rules import rule_options
    from standoff.judge.web.pages import DATC_URL, _datc_link

    text = (Path(__file__).parent / "data" / "datc" / "DATC_v3_0.html").read_text(
        encoding="utf-8", errors="replace")
    sections = set(re.findall(r'<a name="([0-9][0-9A-Z.]*)"', text))
    assert {"4.A.1", "6.E.4"} <= sections
    linked = {name: _datc_link(issue) for name, _, issue, _ in rule_options()}
    assert linked["adjacent_convoy"] == f"{DATC_URL}#4.A.3"
    assert linked["optional_seasons"] is None  # City/Country .62: no DATC section
    for name, link in linked.items():
        if link is not None:
            assert link.removeprefix(f"{DATC_URL}#") in sections, name
