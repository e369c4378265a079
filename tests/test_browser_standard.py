"""Seven players in seven browser contexts play Standard on a real ``standoff serve``:
sign-up by the form, the game made and joined in the lobby, Spring and Fall 1901
ordered by clicks on the map and by the text box (an illegal order shows the
engine's reason), press between two powers and to all, ready toggles, the master's
"process now", the Winter builds; the results, the powers table and the map (the
SVG's unit elements) are checked after each phase."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from browser_fixtures import (
    NewContext,
    all_ready,
    map_units,
    my_orders,
    open_game,
    order_by_clicks,
    order_by_text,
    ready,
    sign_up,
    unique_name,
)
from judge_fixtures import PASSWORD, Api, Table

POWERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"]


def wait_phase(api: Api, table: Table, phase: str) -> str:
    """Wait until the server has processed ``phase``; the new phase."""
    game = api.wait_phase(table, phase, timeout=30)
    return str(game["phase"])


# -- the game -----------------------------------------------------------------------------

def test_seven_players_play_1901(new_context: NewContext, web_api: Api) -> None:
    # seven players sign up in their own browser contexts; France's player makes the game
    pages: dict[str, Page] = {}
    names: dict[str, str] = {}
    for power in POWERS:
        page = new_context().new_page()
        names[power] = unique_name(power[:3])
        sign_up(page, names[power])
        pages[power] = page
    fr = pages["france"]
    fr.get_by_test_id("create-name").fill(unique_name("Standard in a browser"))
    fr.get_by_test_id("create-variant").select_option("standard")
    fr.get_by_test_id("create-submit").click()
    fr.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(fr.url.rsplit("/", 1)[1])
    expect(fr.get_by_test_id("game-status")).to_contain_text("forming")
    expect(fr.get_by_test_id("master-panel")).to_be_visible()
    # each takes their power by its button in the lobby; the last seat starts the game
    for power in ["france", *[p for p in POWERS if p != "france"]]:
        page = pages[power]
        page.goto("/lobby")
        page.get_by_test_id(f"join-{game_id}-{power}").click()
        page.wait_for_url(re.compile(rf"/games/{game_id}$"))
    # France's player's token, for waiting on the server
    token = web_api.json("POST", "/tokens", body={"username": names["france"],
                                                  "password": PASSWORD}, expect=201)["token"]
    table = Table(game_id, str(token))
    for power in POWERS:
        open_game(pages[power], game_id, "S1901M")
        expect(pages[power].get_by_test_id("my-power")).to_contain_text(power.capitalize())
        expect(pages[power].get_by_test_id("game-status")).to_contain_text("active")

    # -- Spring 1901 -----------------------------------------------------------------------
    order_by_clicks(fr, "par", "move", "bur", expected="A PAR - BUR")
    order_by_clicks(fr, "bre", "move", "mao", expected="F BRE - MAO")
    order_by_clicks(fr, "mar", "support", "par", "bur", expected="A MAR S A PAR - BUR")
    assert sorted(my_orders(fr)) == ["A MAR S A PAR - BUR", "A PAR - BUR", "F BRE - MAO"]
    # a changed mind: Paris to Picardy, then back to Burgundy; one order per unit
    order_by_clicks(fr, "par", "move", "pic", expected="A PAR - PIC")
    order_by_clicks(fr, "par", "move", "bur", expected="A PAR - BUR")
    assert len(my_orders(fr)) == 3
    ru = pages["russia"]
    order_by_clicks(ru, "stp", "move", "bot", expected="F STP/SC - BOT")
    order_by_clicks(ru, "mos", "move", "ukr", expected="A MOS - UKR")
    order_by_clicks(ru, "sev", "move", "rum", expected="F SEV - RUM")
    order_by_clicks(ru, "war", "hold", expected="A WAR H")
    au = pages["austria"]
    order_by_clicks(au, "vie", "move", "gal", expected="A VIE - GAL")
    order_by_clicks(au, "bud", "move", "ser", expected="A BUD - SER")
    order_by_clicks(au, "tri", "move", "alb", expected="F TRI - ALB")
    # by text, in the notations people write
    order_by_text(pages["england"], "F London - North Sea", "f edi-nwg", "A Liverpool -> Yorkshire")
    assert sorted(my_orders(pages["england"])) == ["A LVP - YOR", "F EDI - NWG", "F LON - NTH"]
    ge = pages["germany"]
    ge.get_by_test_id("order-text").fill("A MUN - PAR")
    ge.get_by_test_id("order-add").click()
    expect(ge.get_by_test_id("order-error")).to_contain_text("cannot reach")
    assert my_orders(ge) == []
    order_by_text(ge, "A BER - KIE", "A MUN - RUH", "F KIE - DEN")
    order_by_text(pages["italy"], "A VEN H", "A ROM - APU", "F NAP - ION")
    order_by_text(pages["turkey"], "F ANK - BLA", "A CON - BUL", "A SMY - ARM")
    # press: France writes to England alone; Turkey to everyone
    fr.get_by_test_id("message-to-all").uncheck()
    fr.get_by_test_id("message-to-england").check()
    fr.get_by_test_id("message-body").fill("The Channel stays empty?")
    fr.get_by_test_id("message-send").click()
    expect(fr.get_by_test_id("messages")).to_contain_text("The Channel stays empty?")
    tu = pages["turkey"]
    tu.get_by_test_id("message-body").fill("Peace in the Black Sea, says the Sultan.")
    tu.get_by_test_id("message-send").click()
    expect(tu.get_by_test_id("messages")).to_contain_text("Peace in the Black Sea")
    en = pages["england"]
    open_game(en, game_id, "S1901M")
    expect(en.get_by_test_id("unread-england,france")).to_have_text("1")
    expect(en.get_by_test_id("messages")).to_contain_text("Peace in the Black Sea")
    en.get_by_test_id("conversation-england,france").click()
    expect(en.get_by_test_id("messages")).to_contain_text("The Channel stays empty?")
    expect(en.get_by_test_id("unread-england,france")).to_have_count(0)
    en.get_by_test_id("message-to-all").uncheck()
    en.get_by_test_id("message-to-france").check()
    en.get_by_test_id("message-body").fill("Empty it stays.")
    en.get_by_test_id("message-send").click()
    expect(en.get_by_test_id("messages")).to_contain_text("Empty it stays.")
    # Germany reads the public message and neither private one
    open_game(ge, game_id, "S1901M")
    expect(ge.get_by_test_id("messages")).to_contain_text("Peace in the Black Sea")
    assert "Channel stays empty" not in ge.content()
    assert "Empty it stays" not in ge.content()
    # who has submitted shows on everyone's page, orders do not
    open_game(ge, game_id, "S1901M")
    expect(ge.get_by_test_id("power-france")).to_have_attribute("data-submitted", "1")
    assert "F BRE - MAO" not in ge.content() and "S A PAR" not in ge.content()
    # everyone ready: processed at once
    all_ready([pages[p] for p in POWERS if p != "france"] + [fr])
    assert wait_phase(web_api, table, "S1901M") == "F1901M"
    # France's page, whose ready processed the phase, shows the next one
    expect(fr.get_by_test_id("game-phase")).to_have_text("F1901M")
    expect(fr.get_by_test_id("results-phase")).to_have_text("S1901M")
    expect(fr.get_by_test_id("results")).to_contain_text("BUR")
    expect(fr.get_by_test_id("ready-toggle")).to_have_attribute("aria-pressed", "false")
    units = map_units(fr)
    assert units.get("bur") == "A france" and units.get("mao") == "F france", units
    assert units.get("bot") == "F russia" and units.get("nth") == "F england", units
    assert "par" not in units and "stp/sc" not in units, units
    assert my_orders(fr) == []
    # Austria's page, untouched since its ready, notices the new phase by itself (it polls)
    expect(au.get_by_test_id("game-phase")).to_have_text("F1901M", timeout=20_000)
    expect(au.get_by_test_id("results-phase")).to_have_text("S1901M")

    # -- Fall 1901 -------------------------------------------------------------------------
    for power in POWERS:
        if power != "france":
            open_game(pages[power], game_id, "F1901M")
    order_by_clicks(fr, "bur", "move", "bel", expected="A BUR - BEL")
    order_by_clicks(fr, "mao", "move", "por", expected="F MAO - POR")
    order_by_clicks(fr, "mar", "move", "spa", expected="A MAR - SPA")
    it = pages["italy"]
    order_by_clicks(it, "ion", "convoy", "apu", "tun", expected="F ION C A APU - TUN")
    order_by_clicks(it, "apu", "move", "tun", expected="A APU - TUN")
    order_by_clicks(it, "ven", "hold", expected="A VEN H")
    order_by_text(pages["england"], "F NWG - NWY", "F NTH H", "A YOR H")
    order_by_text(ge, "A RUH - HOL", "F DEN H", "A KIE H")
    order_by_text(au, "F ALB - GRE", "A SER H", "A GAL H")
    order_by_text(ru, "F BOT - SWE", "F RUM H", "A UKR H", "A WAR H")
    # Turkey sends nothing; everyone else is ready, and the master processes now
    for power in POWERS:
        if power != "turkey":
            ready(pages[power])
    open_game(fr, game_id, "F1901M")
    fr.once("dialog", lambda d: d.accept())  # "Process now" asks first (issue 29 §3)
    fr.get_by_test_id("master-process").click()
    assert wait_phase(web_api, table, "F1901M") == "W1901A"
    open_game(fr, game_id, "W1901A")
    expect(fr.get_by_test_id("results-phase")).to_have_text("F1901M")
    expect(fr.get_by_test_id("power-turkey")).to_contain_text("1")  # one NMR
    units = map_units(fr)
    for loc, unit in {"bel": "A france", "por": "F france", "spa": "A france",
                      "tun": "A italy", "nwy": "F england", "hol": "A germany",
                      "gre": "F austria", "swe": "F russia", "bla": "F turkey"}.items():
        assert units.get(loc) == unit, (loc, units)

    # -- Winter 1901: builds by clicks and by text -------------------------------------------
    order_by_clicks(fr, "par", "build", expected="BUILD A PAR")
    order_by_clicks(fr, "bre", "build", expected="BUILD F BRE", option="BUILD F BRE")
    order_by_clicks(fr, "mar", "build", expected="BUILD A MAR", option="BUILD A MAR")
    builds = {"austria": ["Build A Vienna", "BUILD A BUD"], "england": ["build f lon"],
              "germany": ["BUILD A BER", "BUILD A MUN"], "italy": ["BUILD F NAP"],
              "russia": ["BUILD A MOS", "BUILD F SEV"], "turkey": ["BUILD F ANK"]}
    for power, lines in builds.items():
        page = pages[power]
        open_game(page, game_id, "W1901A")
        order_by_text(page, *lines)
    all_ready([pages[p] for p in POWERS])
    assert wait_phase(web_api, table, "W1901A") == "S1902M"
    open_game(fr, game_id, "S1902M")
    units = map_units(fr)
    for loc, unit in {"par": "A france", "bre": "F france", "mar": "A france",
                      "vie": "A austria", "lon": "F england", "sev": "F russia",
                      "ank": "F turkey", "nap": "F italy", "mun": "A germany"}.items():
        assert units.get(loc) == unit, (loc, units)
    assert sum(1 for u in units.values() if u.endswith("france")) == 6
    assert len(units) == 22 + 12
