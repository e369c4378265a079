"""The planning board (issue 29 §4) in Chromium, on a desk and at 390 px: from a
variant's start (the lobby) and from a game's phase (the game page's "Plan from
here"); a unit of any power ordered by clicks (ordered again, its new order replaces
the old one, the engine deciding), orders typed for another power, units
placed, adjudicated by the engine, a step back and forward, the share link; in a
Winter, builds (army, fleet, coast), removals and a waive by clicks; nothing reaches
the game. Screenshots of a board for Standard and every bundled variant."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from browser_fixtures import (
    PHONE,
    NewContext,
    click_map,
    map_units,
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
    expect(page.get_by_test_id("board-phase-title")).to_have_text("Spring 1901, Movement")
    expect(page.get_by_test_id("board-title")).to_have_text("Standard Diplomacy")
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


def test_a_unit_ordered_twice_by_clicks_keeps_the_second(
        new_context: NewContext, web_api: Api) -> None:
    """Issue 27 §3: a click's order goes to the judge with merge, and the engine, not
    the page, decides which order it replaces: the unit's earlier one goes, a typed
    order for another unit of the same power stays."""
    name, _ = sign_up_api(web_api)
    page = player_page(new_context, name)
    _new_board(page, "standard")
    france = page.get_by_test_id("board-orders-france")
    france.fill("A MAR - SPA")
    page.get_by_test_id("board-orders-save").click()
    expect(page.get_by_test_id("map")).to_have_attribute("data-orders", "1")
    for target in ("bur", "pic"):
        click_map(page, "par")
        page.get_by_test_id("board-kind-move").click()
        click_map(page, target)
        expect(france).to_have_value(re.compile(f"A PAR - {target.upper()}"))
    expect(france).to_have_value(
        re.compile(r"^(A MAR - SPA\nA PAR - PIC|A PAR - PIC\nA MAR - SPA)$"))
    expect(page.get_by_test_id("map")).to_have_attribute("data-orders", "2")
    expect(page.get_by_test_id("board-error")).to_be_empty()


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


def _winter_board(api: Api, token: str) -> str:
    """A Standard board stepped to Winter 1901 through the API: France takes Belgium,
    Portugal and Spain (3 builds, PAR, BRE and MAR empty), Russia Rumania and Sweden
    (2 builds, STP and SEV empty), and Turkey, given two more armies (ARM, SYR) on
    its 3 centres, must remove 2. Its key."""
    board = api.json("POST", "/boards", token, {"variant": "standard"}, expect=201)
    key = board["key"]
    api.json("PUT", f"/boards/{key}/orders", token, {"orders": {
        "france": ["A PAR - BUR", "F BRE - MAO", "A MAR - SPA"],
        "russia": ["F STP/SC - BOT", "F SEV - RUM"]}})
    board = api.json("POST", f"/boards/{key}/adjudicate", token)
    units = dict(board["steps"][board["at"]]["position"]["units"])
    units["turkey"] = [*units["turkey"], "A ARM", "A SYR"]
    api.json("PUT", f"/boards/{key}/units", token, {"units": units})
    api.json("PUT", f"/boards/{key}/orders", token, {"orders": {
        "france": ["A BUR - BEL", "F MAO - POR", "A SPA H"], "russia": ["F BOT - SWE"]}})
    board = api.json("POST", f"/boards/{key}/adjudicate", token)
    assert board["steps"][board["at"]]["phase"] == "W1901A"
    return str(key)


def _press(button: Any, tap: bool) -> None:
    """A click on a desk, a tap on a phone."""
    if tap:
        button.tap()
    else:
        button.click()


def _build_by_clicks(page: Any, site: str, kind: str, option: str | None, power: str,
                     expected: str, tap: bool) -> None:
    """Click (or tap) ``site`` on the board's map, the kind, and ``option`` among the
    orders left (a unit type, a coast) when given: ``expected`` is in ``power``'s
    orders."""
    click_map(page, site, tap=tap)
    buttons = [page.get_by_test_id(f"board-kind-{kind}")]
    if option is not None:
        buttons.append(page.locator(f'[data-testid="board-option"][data-order="{option}"]'))
    for button in buttons:
        _press(button, tap)
    expect(page.get_by_test_id(f"board-orders-{power}")).to_have_value(
        re.compile(f"(^|\\n){re.escape(expected)}($|\\n)"))


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_builds_removals_and_a_waive_by_clicks_in_a_winter(
        new_context: NewContext, web_api: Api, device: str) -> None:
    """Rules 4.D.1 and 4.D.2 (DATC 4.D.7: a build may be waived): in a Winter the board
    builds on an empty home centre (army, fleet, or a coast: St Petersburg's north),
    removes a unit and waives a build, by clicks only, as the game page does; the
    adjudicated position has the units built and not those removed. On a desk and by
    taps at 390 px."""
    name, token = sign_up_api(web_api)
    key = _winter_board(web_api, token)
    tap = device == "phone"
    page = player_page(new_context, name, f"/boards/{key}", **(PHONE if tap else {}))
    page.get_by_test_id("map").locator("svg").wait_for()
    expect(page.get_by_test_id("board-phase")).to_have_text("W1901A")
    hint = page.get_by_test_id("board-hint")
    expect(hint).to_contain_text("France builds 3")
    expect(hint).to_contain_text("Russia builds 2")
    expect(hint).to_contain_text("Turkey removes 2")
    # Paris takes only an army: Build sends it at once
    _build_by_clicks(page, "par", "build", None, "france", "BUILD A PAR", tap)
    # Brest: an army first, then a fleet instead (the second replaces the first)
    _build_by_clicks(page, "bre", "build", "BUILD A BRE", "france", "BUILD A BRE", tap)
    _build_by_clicks(page, "bre", "build", "BUILD F BRE", "france", "BUILD F BRE", tap)
    expect(page.get_by_test_id("board-orders-france")).not_to_have_value(re.compile("BUILD A BRE"))
    # Marseilles: the third build waived
    _build_by_clicks(page, "mar", "waive", None, "france", "WAIVE", tap)
    # St Petersburg: the fleet on the north coast
    _build_by_clicks(page, "stp", "build", "BUILD F STP/NC", "russia", "BUILD F STP/NC", tap)
    # Turkey removes Constantinople and Syria (civil disorder would take Armenia first)
    _build_by_clicks(page, "con", "remove", None, "turkey", "REMOVE A CON", tap)
    _build_by_clicks(page, "syr", "remove", None, "turkey", "REMOVE A SYR", tap)
    expect(page.get_by_test_id("board-orders-france")).to_have_value(
        "BUILD A PAR\nBUILD F BRE\nWAIVE")
    expect(page.get_by_test_id("board-error")).to_be_empty()
    expect(page.get_by_test_id("map")).to_have_attribute("data-orders", "6")  # WAIVE too
    expect(page.get_by_test_id("map").locator('[data-order="BUILD F STP/NC"]')).to_have_count(1)
    # a build's square stays round a unit of the page's smallest size (18 px), and the
    # built unit's badge is no smaller than half of it, whatever the screen
    squares = page.get_by_test_id("map").locator('#orders rect[data-order^="BUILD "]')
    badges = page.get_by_test_id("map").locator("#orders [data-build] rect")
    expect(badges).to_have_count(3)
    for marks, least in ((squares, 18 * 1.4), (badges, 18 * 0.7)):
        sizes = marks.evaluate_all("(els) => els.map((e) => e.getBoundingClientRect().width)")
        assert len(sizes) == 3 and min(sizes) >= least - 1, (least, sizes)
    if tap:
        no_sideways_scroll(page)
    screenshot(page, f"board-standard-winter-builds-{device}")
    _press(page.get_by_test_id("board-adjudicate"), tap)
    expect(page.get_by_test_id("board-phase")).to_have_text("S1902M")
    expect(page.get_by_test_id("map").locator('[data-unit][data-location="par"]')).to_have_count(1)
    units = map_units(page)
    assert units.get("par") == "A france" and units.get("bre") == "F france", units
    assert "mar" not in units, units
    assert units.get("stp/nc") == "F russia" and "sev" not in units, units
    assert "con" not in units and "syr" not in units and units.get("arm") == "A turkey", units
    board = web_api.json("GET", f"/boards/{key}", token)
    position = board["steps"][board["at"]]["position"]
    assert sorted(position["units"]["france"]) == ["A BEL", "A PAR", "A SPA", "F BRE", "F POR"]
    assert sorted(position["units"]["turkey"]) == ["A ARM", "A SMY", "F ANK"]
    screenshot(page, f"board-standard-after-builds-{device}")
