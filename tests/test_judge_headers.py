"""Security headers and invite codes out of URLs (issue 26, item 12), without a browser:
every answer (pages, API, errors, static files, docs) carries the anti-framing,
nosniff, referrer and CSP headers; the pages' policy allows no inline script; the
API takes an invite code in the X-Invite-Code header; an old ``?invite=`` link moves
the code to the fragment. SQLite: the headers touch no database."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judge_fixtures import PASSWORD, settings_for
from standoff.judge import create_app
from standoff.judge.headers import PAGE_POLICY

TEMPLATES = Path(__file__).resolve().parents[1] / "src/standoff/judge/web/templates"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(settings_for(f"sqlite:///{tmp_path / 'web.db'}"))
    with TestClient(app, raise_server_exceptions=False, follow_redirects=False) as made:
        yield made


def _session(client: TestClient, name: str) -> str:
    assert client.post("/api/v1/accounts", json={"username": name,
                                                 "password": PASSWORD}).status_code == 201
    answer = client.post("/api/v1/session", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 201
    return str(answer.json()["csrf_token"])


def _common(answer: object) -> dict[str, str]:
    headers = answer.headers  # type: ignore[attr-defined]
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "strict-origin-when-cross-origin"
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy
    return dict(headers)


def test_every_kind_of_answer_carries_the_headers(client: TestClient) -> None:
    for path in ("/login", "/signup"):
        assert _common(client.get(path))["content-security-policy"] == PAGE_POLICY
    csrf = _session(client, "alice")
    game = client.post("/api/v1/games", json={"variant": "standard", "name": "g"},
                       headers={"X-CSRF-Token": csrf}).json()
    for path in ("/lobby", f"/games/{game['id']}", f"/games/{game['id']}/history",
                 "/games/99999", "/games/4294967296"):
        got = _common(client.get(path))
        assert got["content-security-policy"] == PAGE_POLICY, path
    for path in ("/api/v1/games", f"/api/v1/games/{game['id']}", "/api/v1/nothing",
                 f"/api/v1/games/{game['id']}/map.svg", "/static/common.js", "/openapi.json",
                 "/api/v1/status", "/login"):  # /login: a redirect, signed in
        got = _common(client.get(path))
        assert got["content-security-policy"].startswith("default-src 'none'"), path
    # errors made by middleware (a body over the limit) and refusals too
    _common(client.post("/api/v1/accounts", content=b"x" * 200_000,
                        headers={"Content-Type": "application/json"}))
    _common(client.delete("/api/v1/games"))


def test_the_pages_policy_allows_no_inline_script_and_every_template_complies() -> None:
    directives = dict(d.strip().split(" ", 1) for d in PAGE_POLICY.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["base-uri"] == "'none'"
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text()
        # only data islands: <script src=...> or <script type="application/json">
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag or 'type="application/json"' in tag, (template.name, tag)
        assert not re.search(r"\son[a-z]+\s*=", text), template.name
        assert not re.search(r"<style\b|\sstyle\s*=", text), template.name
        assert "javascript:" not in text, template.name


def test_docs_allow_their_own_set_up_script_only(client: TestClient) -> None:
    answer = client.get("/docs")
    assert answer.status_code == 200
    policy = _common(answer)["content-security-policy"]
    scripts = re.findall(r"<script>(.*?)</script>", answer.text, re.S)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"script-src 'self' 'sha256-{digest}'" in policy
    assert "unsafe-inline" not in policy.split("script-src", 1)[1].split(";")[0]


def test_invite_codes_travel_in_a_header_not_a_url(client: TestClient) -> None:
    csrf = _session(client, "master")
    game = client.post("/api/v1/games", json={"variant": "standard", "name": "hidden",
                                              "private": True},
                       headers={"X-CSRF-Token": csrf}).json()
    code = game["invite"]
    page = client.get(f"/games/{game['id']}").text
    # the master's page shows the code and a link with it in the fragment only
    assert f'href="/games/{game["id"]}#invite=' in page
    assert f"?invite={code}" not in page
    client.cookies.clear()
    _session(client, "friend")
    assert client.get(f"/api/v1/games/{game['id']}").status_code == 403
    for headers in ({"X-Invite-Code": "wrong"}, {}):
        assert client.get(f"/api/v1/games/{game['id']}", headers=headers).status_code == 403
    assert client.get(f"/api/v1/games/{game['id']}",
                      headers={"X-Invite-Code": code}).status_code == 200
    # the query parameter still works for old clients
    assert client.get(f"/api/v1/games/{game['id']}?invite={code}").status_code == 200
    # the page: an old link's code moves to the fragment, which no server sees
    moved = client.get(f"/games/{game['id']}?invite={code}")
    assert moved.status_code == 303
    assert moved.headers["location"] == f"/games/{game['id']}#invite={code}"
    invite_page = client.get(f"/games/{game['id']}")
    assert invite_page.status_code == 403 and code not in invite_page.text
    assert 'src="/static/invite.js' in invite_page.text


def test_page_ids_out_of_range_are_not_found(client: TestClient) -> None:
    _session(client, "bob")
    for path in ("/games/2147483648", "/games/99999999999999999999999",
                 "/games/2147483648/history", "/games/0", "/games/-1/history/S1901M"):
        answer = client.get(path)
        assert answer.status_code == 404, (path, answer.status_code)
        assert "no game" in answer.text
