"""Knowing what is going on without reloading (issue 29 §2), in Chromium: the game page
follows the game's event stream, so a second player's ready and a processed phase show
without a reload; the lobby's "My games" reads "Spring 1901, Movement", the deadline,
"orders needed" and unread counts, and the tab's title counts what wants the player;
the history lists a power that sent nothing, marked NMR (§3)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser_fixtures import (
    PHONE,
    NewContext,
    no_sideways_scroll,
    player_page,
    process_now,
    screenshot,
    seated_game,
    send_orders,
)
from judge_fixtures import Api


def test_another_players_ready_and_the_next_phase_arrive_without_reload(
        new_context: NewContext, web_api: Api) -> None:
    seats = seated_game(web_api, "standard")
    page = player_page(new_context, seats.names["france"])
    page.goto(f"/games/{seats.table.id}")
    expect(page.get_by_test_id("phase-title")).to_have_text("Spring 1901, Movement")
    expect(page.locator("body")).to_have_attribute("data-live", "1")
    row = page.get_by_test_id("power-germany")
    expect(row).to_have_attribute("data-ready", "0")
    page.evaluate("window.__same = true")  # gone if the page reloads
    send_orders(web_api, seats, {"germany": ["A MUN - RUH"]})
    expect(row).to_have_attribute("data-ready", "1")
    expect(row).to_have_attribute("data-submitted", "1")
    process_now(web_api, seats)
    expect(page.get_by_test_id("game-phase")).to_have_text("F1901M")
    expect(page.get_by_test_id("phase-title")).to_have_text("Fall 1901, Movement")
    assert page.evaluate("window.__same === true")
    expect(page.get_by_test_id("deadline-local")).to_contain_text("your time")


def test_the_lobby_says_what_needs_the_player(new_context: NewContext, web_api: Api) -> None:
    seats = seated_game(web_api, "standard")
    web_api.call("POST", f"/games/{seats.table.id}/messages", seats.table.players["england"],
                 {"to": "all", "body": "Hello from London."}, expect=201)
    for options in ({}, PHONE):
        page = player_page(new_context, seats.names["france"], **options)
        mine = page.get_by_test_id("my-games")
        expect(mine).to_contain_text("Spring 1901, Movement")
        expect(mine).to_contain_text("deadline")
        expect(page.get_by_test_id(f"needs-orders-{seats.table.id}")).to_have_text("orders needed")
        expect(page.get_by_test_id(f"unread-{seats.table.id}")).to_have_text("1 unread")
        expect(page).to_have_title(re.compile(r"^\(\d+\) Lobby"))
        icon = page.locator('link[rel="icon"]').get_attribute("href")
        assert icon is not None and "alert" in icon
        no_sideways_scroll(page)
        screenshot(page, "lobby-needs" + ("-phone" if options else ""), full_page=True)


def test_the_history_lists_a_power_that_sent_nothing_as_nmr(
        new_context: NewContext, web_api: Api) -> None:
    seats = seated_game(web_api, "standard")
    send_orders(web_api, seats, {p: [] for p in seats.names if p != "turkey"}, ready=False)
    orders = {"austria": ["A VIE H"], "england": ["F LON H"], "france": ["A PAR H"],
              "germany": ["A BER H"], "italy": ["A ROM H"], "russia": ["A MOS H"]}
    send_orders(web_api, seats, orders, ready=False)
    process_now(web_api, seats)
    page = player_page(new_context, seats.names["france"], f"/games/{seats.table.id}/history")
    expect(page.get_by_test_id("history-nmr-turkey")).to_have_text("NMR")
    expect(page.get_by_test_id("history-orders-turkey")).to_contain_text("no orders sent")
    expect(page.get_by_test_id("history-nmr-france")).to_have_count(0)
