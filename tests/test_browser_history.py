"""The history page in a real browser: every processed phase with its orders, results
and map (orders drawn), stepped by buttons, slider and arrow keys, one URL per phase
(linkable, and the browser's Back button goes to the phase before)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from browser_fixtures import OPENINGS_1901, NewContext, played_1901, player_page
from judge_fixtures import Api

PHASES = ["S1901M", "F1901M", "W1901A"]


def drawn_orders(page: Page) -> list[str]:
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="history-map"] [data-order]')]
              .map((o) => o.dataset.order)""")
    return found


def shows(page: Page, game_id: int, phase: str) -> None:
    """The page shows ``phase``: its label, URL, slider, orders listed and drawn."""
    n = PHASES.index(phase)
    expect(page.get_by_test_id("history-phase")).to_have_text(f"{phase} ({n + 1}/3)")
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/history(/{phase})?$"))
    expect(page.get_by_test_id("history-slider")).to_have_value(str(n))
    for power, orders in OPENINGS_1901[n].items():
        listed = page.get_by_test_id(f"history-orders-{power}").locator("li")
        expect(listed).to_have_count(len(orders))
    expect(page.get_by_test_id("history-map").locator(f'svg[data-phase="{phase}"]')
           ).to_have_count(1)
    expected = sorted(o for orders in OPENINGS_1901[n].values() for o in orders)
    if phase.endswith("M"):  # movement: every order drawn on the map
        page.wait_for_function(
            """(n) => new Set([...document.querySelectorAll(
                 '[data-testid="history-map"] [data-order]')].map((o) => o.dataset.order))
                 .size === n""", arg=len(expected))
        assert sorted(set(drawn_orders(page))) == expected


def test_history_steps_through_every_phase(new_context: NewContext, web_api: Api) -> None:
    seats = played_1901(web_api)
    game_id = seats.table.id
    page = player_page(new_context, seats.names["germany"], f"/games/{game_id}")
    page.get_by_test_id("history-link").click()
    page.wait_for_url(re.compile(rf"/games/{game_id}/history$"))
    shows(page, game_id, "W1901A")  # the last processed phase first
    expect(page.get_by_test_id("history-orders-france")).to_contain_text("BUILD F BRE")
    page.get_by_test_id("history-prev").click()
    shows(page, game_id, "F1901M")
    expect(page.get_by_test_id("history-orders-italy")).to_contain_text("F ION C A APU - TUN")
    page.keyboard.press("ArrowLeft")
    shows(page, game_id, "S1901M")
    page.keyboard.press("ArrowLeft")  # the first phase: stays
    shows(page, game_id, "S1901M")
    page.keyboard.press("ArrowRight")
    shows(page, game_id, "F1901M")
    page.get_by_test_id("history-slider").fill("2")
    shows(page, game_id, "W1901A")
    page.get_by_test_id("history-next").click()  # the last: stays
    shows(page, game_id, "W1901A")
    # Back goes to the phase shown before
    page.go_back()
    shows(page, game_id, "F1901M")
    # a phase's own URL, opened directly
    page.goto(f"/games/{game_id}/history/S1901M")
    shows(page, game_id, "S1901M")
    expect(page.get_by_test_id("history-results")).not_to_be_empty()
    # a phase not processed yet says so
    page.goto(f"/games/{game_id}/history/S1902M")
    expect(page.get_by_test_id("history-error")).to_contain_text("S1902M")
    # back to the game
    page.get_by_test_id("game-link").click()
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))
