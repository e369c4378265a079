"""The lobby with 500 open games (issue 26, item 8): it made one GET /games/{id} per
open game (402 requests, 26 s to render). Now one request for the listing, in a
real Chromium against a real ``standoff serve``."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from playwright.sync_api import expect

from browser_fixtures import DESKTOP, TIMEOUT_MS, log_in, unique_name
from judge_fixtures import ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Request


def _seed(server: ServerProcess, accounts: int, games_each: int) -> tuple[list[int], str]:
    """``accounts`` accounts each creating ``games_each`` open games (within the default
    limits); France taken in the first game. The ids, and a player's name."""
    api = server.client()
    tokens = [api.signup(unique_name("host")) for _ in range(accounts)]

    def create(token: str) -> list[int]:
        client = server.client()
        return [client.new_game(token, name=f"open {n}")["id"] for n in range(games_each)]

    with ThreadPoolExecutor(6) as pool:
        ids = sorted(i for made in pool.map(create, tokens) for i in made)
    seated = api.signup()
    api.call("POST", f"/games/{ids[0]}/seats", seated, {"power": "france"}, expect=201)
    viewer = unique_name("viewer")
    api.signup(viewer)
    return ids, viewer


def test_the_lobby_lists_500_open_games_with_one_request(
        browser: Browser, servers: list[ServerProcess], tmp_path: Any) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'judge.db'}",
                           STANDOFF_SQLITE_SYNCHRONOUS="NORMAL")
    servers.append(server)
    server.start()
    ids, viewer = _seed(server, accounts=50, games_each=10)
    context = browser.new_context(**DESKTOP, base_url=server.url)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        log_in(context, viewer)
        page = context.new_page()
        api_requests: list[str] = []

        def seen(request: Request) -> None:
            if "/api/v1/" in request.url:
                api_requests.append(request.url)

        page.on("request", seen)
        started = time.monotonic()
        page.goto("/lobby")
        open_games = page.get_by_test_id("open-games").locator("li[data-game]")
        expect(open_games).to_have_count(500, timeout=TIMEOUT_MS)
        took = time.monotonic() - started
        print(f"lobby with 500 open games: {len(api_requests)} API request(s), "
              f"rendered in {took:.2f} s")
        assert [u.split(server.url, 1)[1] for u in api_requests] == ["/api/v1/games"]
        assert took < 10, took
        # the listing says which powers are free: France is taken in the first game
        expect(page.get_by_test_id(f"join-{ids[0]}-france")).to_be_disabled()
        expect(page.get_by_test_id(f"join-{ids[0]}-england")).to_be_enabled()
        assert "1/7 seats" in (page.locator(f"#open-games li[data-game='{ids[0]}']")
                               .text_content() or "")
        # joining from the lobby works
        page.get_by_test_id(f"join-{ids[1]}-turkey").click()
        page.wait_for_url(f"**/games/{ids[1]}")
    finally:
        context.close()
