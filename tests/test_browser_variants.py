"""One phase of each seed variant played on the game page in a real browser: Twin
Earths by clicking across its two levels, City/Country into a City, the Twentieth
Century with a canal permission (PERMIT). The other powers' orders and the phases
before go through the API (``browser_fixtures.send_orders``, ``process_now``)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from browser_fixtures import (
    NewContext,
    Seats,
    click_map,
    map_point,
    map_units,
    my_orders,
    open_game,
    order_by_clicks,
    order_by_text,
    player_page,
    process_now,
    ready,
    screenshot,
    seated_game,
    send_orders,
)
from judge_fixtures import Api


def legal(api: Api, seats: Seats, power: str) -> dict[str, list[str]]:
    got: dict[str, list[str]] = api.json("GET", f"/games/{seats.table.id}/legal",
                                         seats.table.players[power])
    return got


def game_page(new_context: NewContext, seats: Seats, power: str, phase: str,
              **options: Any) -> Page:
    page = player_page(new_context, seats.names[power], f"/games/{seats.table.id}", **options)
    open_game(page, seats.table.id, phase)
    return page


def test_twin_earths_across_levels(new_context: NewContext, web_api: Api) -> None:
    seats = seated_game(web_api, "twin-earths")
    assert web_api.game(seats.table)["phase"] == "W1900A"
    # Winter 1900 through the API: France leaves Paris II empty, the others build all
    builds: dict[str, list[str]] = {}
    for power in seats.names:
        sites = legal(web_api, seats, power)
        builds[power] = [next(o for o in options if o.startswith("BUILD A"))
                         if any(o.startswith("BUILD A") for o in options) else options[0]
                         for site, options in sorted(sites.items()) if site != "PAR2"]
    assert "BUILD A PAR1" in builds["france"]
    send_orders(web_api, seats, builds)
    game = web_api.wait_phase(seats.table, "W1900A")
    assert game["phase"] == "S1901M", game["phase"]
    page = game_page(new_context, seats, "france", "S1901M")
    units = map_units(page)
    assert units.get("par1") == "A france" and "par2" not in units, units
    # Paris I to Paris II: a move between levels, by clicks on the two boards
    order_by_clicks(page, "par1", "move", "par2", expected="A PAR1 - PAR2")
    # and Marseilles I to Burgundy I, on its own level
    order_by_clicks(page, "mar1", "move", "bur1", expected="A MAR1 - BUR1")
    # a move to another province of the other level is no move: refused with the reason
    page.get_by_test_id("order-text").fill("A MAR2 - BUR1")
    page.get_by_test_id("order-add").click()
    expect(page.get_by_test_id("order-error")).not_to_be_empty()
    assert sorted(my_orders(page)) == ["A MAR1 - BUR1", "A PAR1 - PAR2"]
    ready(page)
    game = process_now(web_api, seats)
    assert game["phase"] == "F1901M"
    open_game(page, seats.table.id, "F1901M")
    units = map_units(page)
    assert units.get("par2") == "A france" and "par1" not in units, units
    assert units.get("bur1") == "A france", units
    expect(page.get_by_test_id("results-phase")).to_have_text("S1901M")


def test_city_country_into_a_city(new_context: NewContext, web_api: Api) -> None:
    seats = seated_game(web_api, "city-country")
    # Spring through the API: the army of Marseilles' City steps out into its Country
    send_orders(web_api, seats, {"france": ["A MAR* - MAR"]}, ready=False)
    assert process_now(web_api, seats)["phase"] == "F1901M"
    page = game_page(new_context, seats, "france", "F1901M")
    units = map_units(page)
    assert units.get("mar") == "A france" and "mar*" not in units, units
    # Fall, by clicks: from the Country into its City (the dot on the map)
    order_by_clicks(page, "mar", "move", "mar*", expected="A MAR - MAR*")
    # Paris' army holds in its City, clicked on the City
    order_by_clicks(page, "par*", "hold", expected="A PAR* H")
    ready(page)
    game = process_now(web_api, seats)
    assert game["phase"] in ("W1901A", "S1902M"), game["phase"]
    open_game(page, seats.table.id, game["phase"])
    units = map_units(page)
    assert units.get("mar*") == "A france" and "mar" not in units, units
    assert units.get("par*") == "A france", units


def test_twentieth_century_canal_permission(new_context: NewContext, web_api: Api) -> None:
    seats = seated_game(web_api, "twentieth-century")
    # Spring 1933 through the API: the Soviet fleet of Sevastopol enters the Black Sea
    send_orders(web_api, seats, {"ussr": ["F SEV - BLA"]}, ready=False)
    assert process_now(web_api, seats)["phase"] == "F1933M"
    assert "F BLA - AEG" in legal(web_api, seats, "ussr")["BLA"]
    # Fall: Turkey, owner of Ankara's strait, lets the USSR through, by clicks on the map
    page = game_page(new_context, seats, "turkey", "F1933M")
    units = map_units(page)
    assert units.get("bla") == "F ussr", units
    order_by_clicks(page, "ank", "permit", expected="ANK PERMIT USSR", option="ANK PERMIT USSR")
    assert my_orders(page) == ["ANK PERMIT USSR"]
    ready(page)
    send_orders(web_api, seats, {"ussr": ["F BLA - AEG"]})
    game = process_now(web_api, seats)
    assert game["phase"] in ("W1933A", "S1934M"), game["phase"]
    open_game(page, seats.table.id, game["phase"])
    units = map_units(page)
    assert units.get("aeg") == "F ussr" and "bla" not in units, units
    expect(page.get_by_test_id("results")).to_contain_text("PERMIT")


def test_twentieth_century_ankara_army_and_permit(new_context: NewContext,
                                                 web_api: Api) -> None:
    """Ankara holds Turkey's army and its strait: clicking Ankara offers both the army's
    orders and the permissions, and both can be given."""
    seats = seated_game(web_api, "twentieth-century")
    at_ankara = legal(web_api, seats, "turkey")["ANK"]
    assert "A ANK H" in at_ankara and "ANK PERMIT ITALY" in at_ankara, (
        f"the legal orders at Ankara are only {len(at_ankara)} PERMITs, no order for its army: "
        f"{at_ankara[:3]}...")
    page = game_page(new_context, seats, "turkey", "S1933M")
    order_by_clicks(page, "ank", "permit", expected="ANK PERMIT ITALY", option="ANK PERMIT ITALY")
    click_map(page, "ank")
    expect(page.get_by_test_id("order-kind-move")).to_be_visible()
    order_by_clicks(page, "ank", "move", "bul", expected="A ANK - BUL")
    order_by_text(page, "A ANT H")
    assert sorted(my_orders(page)) == ["A ANK - BUL", "A ANT H", "ANK PERMIT ITALY"]


def test_twentieth_century_zoom_pan_and_click(new_context: NewContext, web_api: Api) -> None:
    """The 300-space map: the wheel zooms in where the pointer is, a drag pans (and is
    no click), and a small space is then clicked to order."""
    seats = seated_game(web_api, "twentieth-century")
    page = game_page(new_context, seats, "britain", "S1933M")
    svg = page.get_by_test_id("map").locator("svg").first
    whole = [float(v) for v in str(svg.get_attribute("viewBox")).split()]
    hint = page.get_by_test_id("order-hint").inner_text()
    # a drag pans the map and picks nothing
    box = page.get_by_test_id("map").bounding_box()
    assert box is not None
    page.get_by_test_id("zoom-in").click()
    before = [float(v) for v in str(svg.get_attribute("viewBox")).split()]
    assert before[2] < whole[2]
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 60, cy + 30, steps=6)
    page.mouse.move(cx + 120, cy + 60, steps=6)
    page.mouse.up()
    after = [float(v) for v in str(svg.get_attribute("viewBox")).split()]
    assert after[0] < before[0] and after[1] < before[1], (before, after)
    assert after[2] == before[2]
    expect(page.get_by_test_id("order-hint")).to_have_text(hint)
    page.get_by_test_id("zoom-reset").click()
    assert [float(v) for v in str(svg.get_attribute("viewBox")).split()] == whole
    # the wheel over London zooms in around London
    x, y = map_point(page, "lon")
    page.mouse.move(x, y)
    for _ in range(6):
        page.mouse.wheel(0, -200)
    zoomed = [float(v) for v in str(svg.get_attribute("viewBox")).split()]
    assert zoomed[2] < whole[2] / 2, (whole, zoomed)
    x2, y2 = map_point(page, "lon")
    assert abs(x2 - x) < 60 and abs(y2 - y) < 60, "London moved away from the pointer"
    order_by_clicks(page, "lon", "move", "nth", expected="F LON - NTH")
    screenshot(page, "game-twentieth-century-zoomed-desktop")
