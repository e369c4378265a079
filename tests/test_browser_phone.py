"""A player orders on a phone: a 390 px wide touch screen (``browser_fixtures.PHONE``).
Taps on the map, the zoom buttons, the text box and the ready toggle; the pages
never scroll sideways and the map is not shrunk to a thumbnail."""

from __future__ import annotations

from playwright.sync_api import expect

from browser_fixtures import (
    PHONE,
    NewContext,
    map_units,
    my_orders,
    no_sideways_scroll,
    open_game,
    order_by_clicks,
    player_page,
    process_now,
    seated_game,
)
from judge_fixtures import Api


def test_a_player_orders_on_a_phone(new_context: NewContext, web_api: Api) -> None:
    seats = seated_game(web_api, "standard")
    game_id = seats.table.id
    page = player_page(new_context, seats.names["france"], f"/games/{game_id}", **PHONE)
    open_game(page, game_id, "S1901M")
    no_sideways_scroll(page)
    box = page.get_by_test_id("map").bounding_box()
    assert box is not None and box["width"] >= 340, f"the map is a thumbnail: {box}"
    # taps on the whole map
    order_by_clicks(page, "par", "move", "bur", expected="A PAR - BUR", tap=True)
    order_by_clicks(page, "mar", "support", "par", "bur", expected="A MAR S A PAR - BUR",
                    tap=True)
    # zoomed in (the + button), Brest and the Mid-Atlantic are bigger targets for a finger
    svg = page.get_by_test_id("map").locator("svg").first
    whole = svg.get_attribute("viewBox")
    page.get_by_test_id("zoom-in").tap()
    zoomed = svg.get_attribute("viewBox")
    assert zoomed != whole
    assert float(str(zoomed).split()[2]) < float(str(whole).split()[2])
    order_by_clicks(page, "bre", "move", "mao", expected="F BRE - MAO", tap=True)
    page.get_by_test_id("zoom-reset").tap()
    expect(svg).to_have_attribute("viewBox", str(whole))
    # a typed order replaces the one for the same unit
    page.get_by_test_id("order-text").fill("A PAR - PIC")
    page.get_by_test_id("order-add").tap()
    expect(page.locator('[data-testid="my-order"][data-order="A PAR - PIC"]')).to_have_count(1)
    assert sorted(my_orders(page)) == ["A MAR S A PAR - BUR", "A PAR - PIC", "F BRE - MAO"]
    # the engine's reason for a refused order, shown on the phone too
    page.get_by_test_id("order-text").fill("F BRE - PAR")
    page.get_by_test_id("order-add").tap()
    expect(page.get_by_test_id("order-error")).not_to_be_empty()
    no_sideways_scroll(page)
    toggle = page.get_by_test_id("ready-toggle")
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert process_now(web_api, seats)["phase"] == "F1901M"
    open_game(page, game_id, "F1901M")
    units = map_units(page)
    assert units.get("pic") == "A france" and units.get("mao") == "F france", units


def test_long_names_fit_a_phone(new_context: NewContext, web_api: Api) -> None:
    """Players' names as long as the judge takes (32 characters) in the header and the
    powers table: the lobby, game page and history still fit 390 px."""
    seats = seated_game(web_api, "standard", name_length=32)
    game_id = seats.table.id
    assert len(seats.names["france"]) == 32
    process_now(web_api, seats)
    page = player_page(new_context, seats.names["france"], "/lobby", **PHONE)
    page.get_by_test_id(f"game-link-{game_id}").wait_for()
    no_sideways_scroll(page)
    open_game(page, game_id, "F1901M")
    page.wait_for_load_state("networkidle")
    no_sideways_scroll(page)
    page.goto(f"/games/{game_id}/history")
    page.get_by_test_id("history-map").locator("svg").wait_for()
    no_sideways_scroll(page)
