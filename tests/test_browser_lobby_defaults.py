"""The lobby's create form starts at the judge's own default deadlines.

The form used to start at 24 h for movement and 12 h for retreats and adjustments
while the judge (``Settings.default_deadlines``) and the README said 48 h and 24 h:
a game created from the form without touching its deadlines was not the game the
API creates when no deadlines are sent. The page is now rendered with the judge's
defaults, so the two cannot disagree, also on a judge configured otherwise
(``STANDOFF_DEFAULT_DEADLINES``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from browser_fixtures import NewContext, sign_up, sign_up_api, unique_name
from judge_fixtures import PASSWORD, Api, settings_for

HOUR = 3600


def test_a_game_created_from_the_form_as_it_stands_gets_48_hours(
        new_context: NewContext, web_api: Api) -> None:
    """In Chromium, on a real server with the default settings: the form shows
    48 h (2880 minutes) for movement and 24 h for retreats and adjustments, and
    submitting it untouched makes the game the API makes when sent no deadlines."""
    page = new_context().new_page()
    sign_up(page, unique_name("master"))
    expect(page.get_by_test_id("create-movement")).to_have_value("2880")
    expect(page.get_by_test_id("create-retreat")).to_have_value("1440")
    expect(page.get_by_test_id("create-adjustment")).to_have_value("1440")
    page.get_by_test_id("create-name").fill(unique_name("Default deadlines"))
    page.get_by_test_id("create-submit").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    _, token = sign_up_api(web_api)
    from_form = web_api.json("GET", f"/games/{game_id}", token)["deadlines"]
    assert from_form == {"movement": 48 * HOUR, "retreat": 24 * HOUR, "adjustment": 24 * HOUR}
    assert from_form == web_api.new_game(token)["deadlines"]


@pytest.fixture
def configured(tmp_path: Path) -> Iterator[Any]:
    """A judge whose operator set other defaults: 90 s, 1 h and 5 s (seconds are
    what tests use; a form in minutes must still show them)."""
    from fastapi.testclient import TestClient

    from standoff.judge import create_app

    settings = settings_for(f"sqlite:///{tmp_path / 'judge.db'}", default_deadlines={
        "movement": 90, "retreat": HOUR, "adjustment": 5})
    with TestClient(create_app(settings), follow_redirects=False) as client:
        yield client


def _inputs(html: str) -> dict[str, dict[str, str]]:
    """The create form's deadline inputs: name -> their attributes."""
    out = {}
    for tag in re.findall(r'<input [^>]*data-testid="create-(?:movement|retreat|adjustment)"[^>]*>',
                          html):
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', tag))
        out[attrs["name"]] = attrs
    return out


def test_the_form_follows_a_judge_configured_otherwise(configured: Any) -> None:
    client = configured
    assert client.post("/api/v1/accounts", json={"username": "carol",
                                                 "password": PASSWORD}).status_code == 201
    assert client.post("/api/v1/session", json={"username": "carol",
                                                "password": PASSWORD}).status_code == 201
    page = client.get("/lobby")
    assert page.status_code == 200
    inputs = _inputs(page.text)
    assert {k: v["value"] for k, v in inputs.items()} == {
        "movement": "1.5", "retreat": "60", "adjustment": "0.0833"}
    # the page's script sends round(minutes * 60) seconds: the judge's own values
    assert {k: round(float(v["value"]) * 60) for k, v in inputs.items()} == {
        "movement": 90, "retreat": HOUR, "adjustment": 5}
    # the browser does not refuse a default under the usual one-minute floor
    assert all(float(v["min"]) <= float(v["value"]) and v["step"] == "any"
               for v in inputs.values())
