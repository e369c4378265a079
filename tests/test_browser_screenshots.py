"""Screenshots of the game page and the history at desktop (1280 px) and phone (390 px)
width, saved as test artefacts in ``tests/artifacts/screenshots/`` (the lobby's are
taken by ``test_browser_lobby.py``): a Standard game after 1901 with France's orders
for Spring 1902 given and some press. Neither page scrolls sideways on the phone."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from browser_fixtures import (
    DESKTOP,
    PHONE,
    NewContext,
    no_sideways_scroll,
    open_game,
    played_1901,
    player_page,
    screenshot,
    send_orders,
)
from judge_fixtures import Api


def test_game_and_history_screenshots(new_context: NewContext, web_api: Api) -> None:
    seats = played_1901(web_api)
    table, game_id = seats.table, seats.table.id
    send_orders(web_api, seats, {
        "france": ["A PAR - PIC", "F BRE - ENG", "A MAR - BUR", "A BEL S A MAR - BUR",
                   "A SPA H", "F POR - MAO"],
        "germany": ["A MUN - BUR", "A HOL H"]}, ready=False)
    web_api.call("POST", f"/games/{game_id}/ready", table.players["germany"], {"ready": True},
                 expect=200)
    web_api.call("POST", f"/games/{game_id}/messages", table.players["england"],
                 {"to": ["france"], "body": "Your fleet in the Channel: a friendly visit?"},
                 expect=201)
    web_api.call("POST", f"/games/{game_id}/messages", table.players["russia"],
                 {"to": "all", "body": "Russia proposes a draw. Nobody? Fine."}, expect=201)
    shots: dict[str, Any] = {"desktop": DESKTOP, "phone": PHONE}
    for label, options in shots.items():
        page = player_page(new_context, seats.names["france"], f"/games/{game_id}", **options)
        open_game(page, game_id, "S1902M")
        expect(page.locator('[data-testid="my-order"]')).to_have_count(6)
        expect(page.get_by_test_id("power-germany")).to_have_attribute("data-ready", "1")
        expect(page.get_by_test_id("unread-england,france")).to_have_text("1")
        expect(page.get_by_test_id("results-phase")).to_have_text("W1901A")
        page.wait_for_load_state("networkidle")
        screenshot(page, f"game-{label}", full_page=True)
        if label == "phone":
            no_sideways_scroll(page)
        page.goto(f"/games/{game_id}/history/F1901M")
        expect(page.get_by_test_id("history-phase")).to_have_text("F1901M (2/3)")
        page.get_by_test_id("history-map").locator('svg[data-phase="F1901M"]').wait_for()
        page.wait_for_load_state("networkidle")
        screenshot(page, f"history-{label}", full_page=True)
        if label == "phone":
            no_sideways_scroll(page)
