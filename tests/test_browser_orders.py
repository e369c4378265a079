"""The game page's order pad in a real browser, beyond the moves and supports of the
seven-player game: a coast picked among the offered orders, a convoy, a retreat and a
removal by clicks, the list's remove and clear buttons, and typed orders (any notation
the engine reads) replacing the order of the same unit. Earlier phases go through the
API."""

from __future__ import annotations

from playwright.sync_api import expect

from browser_fixtures import (
    NewContext,
    click_map,
    map_units,
    my_orders,
    open_game,
    order_by_clicks,
    order_by_text,
    player_page,
    process_now,
    seated_game,
    send_orders,
)
from judge_fixtures import Api


def test_coast_support_remove_and_clear(new_context: NewContext, web_api: Api) -> None:
    seats = seated_game(web_api, "standard")
    send_orders(web_api, seats, {"france": ["F BRE - MAO", "A PAR - GAS"]}, ready=False)
    assert process_now(web_api, seats)["phase"] == "F1901M"
    page = player_page(new_context, seats.names["france"], f"/games/{seats.table.id}")
    open_game(page, seats.table.id, "F1901M")
    # Spain has two coasts: after the click on Spain both are offered; the south is picked
    order_by_clicks(page, "mao", "move", "spa", expected="F MAO - SPA/SC",
                    option="F MAO - SPA/SC")
    options = page.locator('[data-testid="order-option"]')
    expect(options).to_have_count(0)
    # the army in Gascony supports the fleet into Spain: the supported unit, then where to
    order_by_clicks(page, "gas", "support", "mao", "spa", expected="A GAS S F MAO - SPA")
    order_by_clicks(page, "mar", "hold", expected="A MAR H")
    assert sorted(my_orders(page)) == ["A GAS S F MAO - SPA", "A MAR H", "F MAO - SPA/SC"]
    # the remove button of one order, then "clear all"
    index = my_orders(page).index("A MAR H")
    page.get_by_test_id(f"order-remove-{index}").click()
    expect(page.locator('[data-testid="my-order"][data-order="A MAR H"]')).to_have_count(0)
    assert len(my_orders(page)) == 2
    page.get_by_test_id("orders-clear").click()
    expect(page.locator('[data-testid="my-order"]')).to_have_count(0)
    # the server agrees
    got = web_api.json("GET", f"/games/{seats.table.id}/orders", seats.table.players["france"])
    assert got["orders"] == []


def test_convoy_by_clicks(new_context: NewContext, web_api: Api) -> None:
    seats = seated_game(web_api, "standard")
    send_orders(web_api, seats, {"italy": ["F NAP - ION", "A ROM - APU"]}, ready=False)
    assert process_now(web_api, seats)["phase"] == "F1901M"
    page = player_page(new_context, seats.names["italy"], f"/games/{seats.table.id}")
    open_game(page, seats.table.id, "F1901M")
    order_by_clicks(page, "ion", "convoy", "apu", "gre", expected="F ION C A APU - GRE")
    order_by_clicks(page, "apu", "move", "gre", expected="A APU - GRE")
    page.get_by_test_id("ready-toggle").click()
    assert process_now(web_api, seats)["phase"] in ("W1901A", "S1902M")
    open_game(page, seats.table.id, web_api.game(seats.table)["phase"])
    assert map_units(page).get("gre") == "A italy"


def test_retreat_and_removal_by_clicks(new_context: NewContext, web_api: Api) -> None:
    seats = seated_game(web_api, "standard")
    # Spring: Italy into Tyrolia, Germany to Burgundy and Munich, France out of Paris
    send_orders(web_api, seats, {"italy": ["A VEN - TYR"], "france": ["A PAR - PIC"],
                                 "germany": ["A MUN - BUR", "A BER - MUN"]}, ready=False)
    assert process_now(web_api, seats)["phase"] == "F1901M"
    # Fall: Austria dislodges Italy's army from Tyrolia; Germany takes Paris
    send_orders(web_api, seats, {"austria": ["A VIE - TYR"],
                                 "germany": ["A MUN S A VIE - TYR", "A BUR - PAR"]}, ready=False)
    assert process_now(web_api, seats)["phase"] == "F1901R"
    italy = player_page(new_context, seats.names["italy"], f"/games/{seats.table.id}")
    open_game(italy, seats.table.id, "F1901R")
    order_by_clicks(italy, "tyr", "retreat", "ven", expected="A TYR R VEN")
    italy.get_by_test_id("ready-toggle").click()  # the only power to order: processed now
    game = web_api.wait_phase(seats.table, "F1901R")
    assert game["phase"] == "W1901A", game["phase"]
    # Winter: France has three units and two centres: it removes the army in Picardy
    france = player_page(new_context, seats.names["france"], f"/games/{seats.table.id}")
    open_game(france, seats.table.id, "W1901A")
    assert map_units(france).get("ven") == "A italy"
    order_by_clicks(france, "pic", "remove", expected="REMOVE A PIC")
    france.get_by_test_id("ready-toggle").click()
    assert process_now(web_api, seats)["phase"] == "S1902M"
    open_game(france, seats.table.id, "S1902M")
    units = map_units(france)
    assert "pic" not in units and units.get("par") == "A germany", units


def test_typed_orders_replace_the_same_units_orders(new_context: NewContext,
                                                    web_api: Api) -> None:
    """An order typed for a unit that already has one replaces it, in any notation the
    engine reads (full names too), as a click does."""
    seats = seated_game(web_api, "standard")
    page = player_page(new_context, seats.names["france"], f"/games/{seats.table.id}")
    open_game(page, seats.table.id, "S1901M")
    order_by_clicks(page, "par", "move", "bur", expected="A PAR - BUR")
    order_by_text(page, "A PAR - PIC")  # the abbreviation: replaced
    assert my_orders(page) == ["A PAR - PIC"]
    order_by_text(page, "F Brest - Mid-Atlantic Ocean")
    assert sorted(my_orders(page)) == ["A PAR - PIC", "F BRE - MAO"]
    # full names for units with an order already
    page.get_by_test_id("order-text").fill("A Paris - Burgundy\nF Brest -> English Channel")
    page.get_by_test_id("order-add").click()
    page.wait_for_function("""() =>
        document.querySelector('[data-testid="order-text"]').value === ''
        || document.querySelector('[data-testid="order-error"]').textContent !== ''""")
    error = page.get_by_test_id("order-error").inner_text()
    assert error == "", f"typed full names did not replace the units' orders: {error}"
    assert sorted(my_orders(page)) == ["A PAR - BUR", "F BRE - ENG"]


def test_move_by_convoy_to_an_adjacent_province(new_context: NewContext, web_api: Api) -> None:
    """Issue 27: an army in Gascony, a fleet in the Mid-Atlantic: Move, then Brest asks
    "by land or by convoy?" (both are legal; DATC 4.A.3 makes the difference matter),
    the convoy is stored as the engine writes it and listed as a move, and a click on
    "by land" afterwards replaces it (the engine decides which order it replaces)."""
    seats = seated_game(web_api, "standard")
    france = seats.table.players["france"]
    send_orders(web_api, seats, {"france": ["F BRE - MAO", "A PAR - GAS"]}, ready=False)
    assert process_now(web_api, seats)["phase"] == "F1901M"
    page = player_page(new_context, seats.names["france"], f"/games/{seats.table.id}")
    open_game(page, seats.table.id, "F1901M")
    click_map(page, "gas")
    page.get_by_test_id("order-kind-move").click()
    click_map(page, "bre")
    expect(page.get_by_test_id("order-hint")).to_have_text("By land or by convoy?")
    options = page.locator('[data-testid="order-option"]')
    expect(options).to_have_count(2)
    assert options.evaluate_all("(els) => els.map((e) => [e.dataset.via, e.dataset.order])") == [
        ["land", "A GAS - BRE"], ["convoy", "A GAS - BRE VIA CONVOY"]]
    page.locator('[data-testid="order-option"][data-via="convoy"]').click()
    listed = page.locator('[data-testid="my-order"][data-order="A GAS - BRE VIA CONVOY"]')
    expect(listed).to_have_attribute("data-kind", "move")
    expect(listed).to_contain_text("Move")
    expect(page.get_by_test_id("order-error")).to_be_empty()
    got = web_api.json("GET", f"/games/{seats.table.id}/orders", france)
    assert got["orders"] == ["A GAS - BRE VIA CONVOY"]
    # the fleet convoys it by clicks; then the army goes by land after all: replaced
    order_by_clicks(page, "mao", "convoy", "gas", "bre", expected="F MAO C A GAS - BRE")
    order_by_clicks(page, "gas", "move", "bre", expected="A GAS - BRE", option="A GAS - BRE")
    assert sorted(my_orders(page)) == ["A GAS - BRE", "F MAO C A GAS - BRE"]
    expect(page.locator('[data-testid="my-order"][data-kind="convoy"]')).to_have_count(1)
    got = web_api.json("GET", f"/games/{seats.table.id}/orders", france)
    assert sorted(got["orders"]) == ["A GAS - BRE", "F MAO C A GAS - BRE"]
