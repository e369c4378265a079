"""Issue 29, "Done when": for Standard and each seed variant, on a desk (1400 px) and
a phone (390 px), the lobby with the game in "My games", the game page before a
phase (the player's order drawn on the map) and after it (the last turn on the main
map), and a planning board from the game; each screenshot saved as a test artefact
(``tests/artifacts/screenshots/screen-<variant>-<device>-<what>.png``) after the
page shows what a player must see there, and no phone page scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from browser_fixtures import (
    PHONE,
    NewContext,
    a_legal_move,
    no_sideways_scroll,
    open_game,
    order_by_text,
    player_page,
    process_now,
    screenshot,
    seated_game,
)
from judge_fixtures import Api

VARIANTS = ["standard", "sahara", "twin-earths", "city-country", "twentieth-century", "1939-iv"]
DEVICES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1400, "height": 900}}, "phone": PHONE}


@pytest.mark.parametrize("device", sorted(DEVICES))
@pytest.mark.parametrize("variant", VARIANTS)
def test_lobby_game_before_and_after_a_phase_and_a_board(
        new_context: NewContext, web_api: Api, variant: str, device: str) -> None:
    seats = seated_game(web_api, variant)
    game_id = seats.table.id
    power = sorted(seats.names)[0]
    game = web_api.game(seats.table)
    start = game["phase"]
    units = sum(len(u) for u in game["position"]["units"].values())
    page = player_page(new_context, seats.names[power], "/lobby", **DEVICES[device])

    def shot(what: str) -> None:
        if device == "phone":
            no_sideways_scroll(page)
        page.wait_for_load_state("networkidle")
        screenshot(page, f"screen-{variant}-{device}-{what}")

    mine = page.get_by_test_id("my-games").locator(f'li[data-game="{game_id}"]')
    expect(mine).to_contain_text(game["phase_title"])
    expect(page.get_by_test_id(f"needs-orders-{game_id}")).to_be_visible()
    shot("lobby")

    open_game(page, game_id, start)
    move = a_legal_move(web_api, seats, power)
    order_by_text(page, move["order"])
    expect(page.locator(f'[data-testid="drawn-order"][data-pending="{move["order"]}"]')
           ).to_have_count(1)
    shot("before")

    after = process_now(web_api, seats)["phase"]
    expect(page.get_by_test_id("game-phase")).to_have_text(after)
    expect(page.get_by_test_id("results-phase")).to_have_text(start)
    page.get_by_test_id("map-last").click()
    expect(page.get_by_test_id("map")).to_have_attribute("data-showing", "last")
    drawn = page.get_by_test_id("map").locator(f'#orders [data-order="{move["order"]}"]')
    expect(drawn.first).to_be_attached()
    shot("after")

    # planned from the turn on the map: the last one
    page.get_by_test_id("plan-here").click()
    page.wait_for_url("**/boards/*")
    page.get_by_test_id("map").locator("svg").wait_for()
    expect(page.get_by_test_id("board-phase")).to_have_text(start)
    expect(page.get_by_test_id("map").locator("[data-unit]")).to_have_count(units)
    shot("board")
