"""The planning board (issue 29 §4) in Chromium, on a desk and at 390 px: from a
variant's start (the lobby) and from a game's phase (the game page's "Plan from
here"); a unit of any power ordered by clicks, orders typed for another power, units
placed, adjudicated by the engine, a step back and forward, the share link; nothing
reaches the game. Screenshots of a board for Standard and every bundled variant."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser_fixtures import (
    PHONE,
    NewContext,
    click_map,
    no_sideways_scroll,
    player_page,
    screenshot,
    seated_game,
    sign_up_api,
)
from judge_fixtures import Api

VARIANTS = ["standard", "sahara", "twin-earths", "city-country", "twentieth-century", "1939-iv"]


def _new_board(page: object, variant: str) -> None:
    page.get_by_test_id("board-variant").select_option(variant)  # type: ignore[attr-defined]
    page.get_by_test_id("board-new").click()  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r"/boards/[A-Za-z0-9_-]+$"))  # type: ignore[attr-defined]
    page.get_by_test_id("map").locator("svg").wait_for()  # type: ignore[attr-defined]


def test_a_board_from_standard_orders_every_power_and_adjudicates(
        new_context: NewContext, web_api: Api) -> None:
    name, _ = sign_up_api(web_api)
    page = player_page(new_context, name, permissions=["clipboard-read", "clipboard-write"])
    _new_board(page, "standard")
    expect(page.get_by_test_id("board-phase")).to_have_text("S1901M")
    # France's army by clicks (any power's unit: the board's legal options)
    click_map(page, "par")
    page.get_by_test_id("board-kind-move").click()
    click_map(page, "bur")
    expect(page.get_by_test_id("board-orders-france")).to_have_value(re.compile("A PAR - BUR"))
    # Germany's by typing
    page.get_by_test_id("board-orders-germany").fill("A MUN - BUR")
    page.get_by_test_id("board-orders-save").click()
    expect(page.get_by_test_id("board-orders-germany")).to_have_value("A MUN - BUR")
    screenshot(page, "board-standard-orders")
    page.get_by_test_id("board-adjudicate").click()
    expect(page.get_by_test_id("board-phase")).to_have_text("F1901M")
    expect(page.get_by_test_id("board-step")).to_have_text("step 2 of 2")
    page.get_by_test_id("board-prev").click()
    expect(page.get_by_test_id("board-phase")).to_have_text("S1901M")
    expect(page.get_by_test_id("board-results")).not_to_have_text("Not adjudicated yet.")
    screenshot(page, "board-standard-adjudicated")
    page.get_by_test_id("board-next").click()
    expect(page.get_by_test_id("board-phase")).to_have_text("F1901M")
    # units placed: an English army in Picardy
    page.locator("#board-units-box > summary").click()
    units = page.get_by_test_id("board-units-england")
    units.fill(units.input_value() + "\nA PIC")
    page.get_by_test_id("board-units-save").click()
    expect(page.get_by_test_id("map").locator('[data-location="pic"]')).to_have_count(1)
    page.get_by_test_id("board-share").click()
    expect(page.get_by_test_id("board-shared")).to_contain_text("/boards/")
    # anyone with the link sees it, and may copy it; only the owner changes it
    other, _ = sign_up_api(web_api)
    visitor = player_page(new_context, other, "/" + page.url.split("/", 3)[3])
    expect(visitor.get_by_test_id("board-phase")).to_have_text("F1901M")
    expect(visitor.get_by_test_id("board-adjudicate")).to_be_disabled()
    expect(visitor.get_by_test_id("board-copy")).to_be_visible()


def test_plan_from_here_leaves_the_game_alone(new_context: NewContext, web_api: Api) -> None:
    seats = seated_game(web_api, "standard")
    page = player_page(new_context, seats.names["france"], f"/games/{seats.table.id}")
    page.get_by_test_id("map").locator("svg").wait_for()
    page.get_by_test_id("plan-here").click()
    page.wait_for_url(re.compile(r"/boards/"))
    page.get_by_test_id("board-orders-france").fill("A PAR - PIC")
    page.get_by_test_id("board-orders-save").click()
    page.get_by_test_id("board-adjudicate").click()
    expect(page.get_by_test_id("board-phase")).to_have_text("F1901M")
    game = web_api.game(seats.table)
    assert game["phase"] == "S1901M"
    mine = web_api.json("GET", f"/games/{seats.table.id}/orders", seats.table.players["france"])
    assert mine["orders"] == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_board_of_each_variant(new_context: NewContext, web_api: Api, variant: str) -> None:
    name, _ = sign_up_api(web_api)
    page = player_page(new_context, name)
    _new_board(page, variant)
    expect(page.get_by_test_id("board-step")).to_have_text("step 1 of 1")
    screenshot(page, f"board-{variant}")
    if variant == "standard":
        phone = player_page(new_context, name, "/" + page.url.split("/", 3)[3], **PHONE)
        phone.get_by_test_id("map").locator("svg").wait_for()
        no_sideways_scroll(phone)
        screenshot(phone, "board-standard-phone")
