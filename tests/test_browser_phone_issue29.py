"""Issue 29 at 390 px: every numbered point its "Done when" asks on a phone
(``browser_fixtures.PHONE``) that the other browser tests check only on a desk.

§1 the map: an order drawn as it is given and taken back by a tap on it, the units
still to order ringed until "all units ordered", the last turn on the map. §2 live:
another player's ready and the next phase without a reload, the deadline in the
viewer's time and the game's fixed clock time. §3 fewer surprises: what each phase
asks (nothing to do, retreats, builds, with a build by taps), the ready warning and
the master's "Process now" question, a spectator's and a forming game's pages
without a composer, the history's NMR line, the rule options as sentences with
their DATC links. §4 the planning board: opened from the lobby, a unit moved by taps,
adjudicated, stepped, its link shared. (The lobby's "My games" at 390 px is
``test_browser_live.test_the_lobby_says_what_needs_the_player``; the units' minimum
size is ``test_browser_units``; the map tools above the map are
``test_browser_game_page.test_phone_map_tools_and_orders_in_reach``.)

Each test checks that nothing scrolls sideways and saves a screenshot
(``tests/artifacts/screenshots/phone29-*.png``)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from browser_fixtures import (
    PHONE,
    NewContext,
    click_map,
    no_sideways_scroll,
    open_game,
    order_by_clicks,
    order_by_text,
    player_page,
    process_now,
    refuse_dialogs,
    screenshot,
    seated_game,
    send_orders,
    sign_up_api,
)
from judge_fixtures import Api

#: a point on a drawn order (client coordinates) where a tap reaches it: along its
#: last path, where nothing else (a unit, a name) is drawn over it
_ON_DRAWN = """(order) => {
  const g = document.querySelector(`[data-testid="drawn-order"][data-pending="${order}"]`);
  if (!g) return null;
  const paths = [...g.querySelectorAll("path")];
  const path = paths[paths.length - 1];
  const m = path.getScreenCTM(), len = path.getTotalLength();
  for (let i = 1; i < 40; i++) {
    const p = path.getPointAtLength(len * i / 40);
    const x = m.a * p.x + m.c * p.y + m.e, y = m.b * p.x + m.d * p.y + m.f;
    const hit = document.elementFromPoint(x, y);
    if (hit && g.contains(hit)) return [x, y];
  }
  return null;
}"""


def _phone(new_context: NewContext, name: str, path: str) -> Any:
    return player_page(new_context, name, path, **PHONE)


def test_phone_orders_drawn_tapped_away_and_the_last_turn(
        new_context: NewContext, web_api: Api) -> None:
    """§1: at 390 px an order given by taps is drawn at once and a tap on the drawing
    takes it back; the units without an order are ringed until "all units ordered";
    after the phase "Last turn" shows its orders on the map, "Now" the position."""
    seats = seated_game(web_api, "standard")
    page = _phone(new_context, seats.names["france"], f"/games/{seats.table.id}")
    open_game(page, seats.table.id, "S1901M")
    rings = page.locator("[data-needs-order]")
    expect(rings).to_have_count(3)
    order_by_clicks(page, "par", "move", "bur", expected="A PAR - BUR", tap=True)
    drawn = page.locator('[data-testid="drawn-order"][data-pending="A PAR - BUR"]')
    expect(drawn).to_have_count(1)
    expect(rings).to_have_count(2)
    point = page.evaluate(_ON_DRAWN, "A PAR - BUR")
    assert point is not None, "no point of the drawn order A PAR - BUR to tap"
    page.touchscreen.tap(point[0], point[1])
    expect(drawn).to_have_count(0)
    expect(page.get_by_test_id("my-order")).to_have_count(0)
    order_by_text(page, "A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO")
    expect(page.get_by_test_id("phase-prompt")).to_contain_text("all units ordered")
    expect(rings).to_have_count(0)
    expect(page.get_by_test_id("drawn-order")).to_have_count(3)
    no_sideways_scroll(page)
    screenshot(page, "phone29-orders-drawn")
    process_now(web_api, seats)
    expect(page.get_by_test_id("game-phase")).to_have_text("F1901M")
    last = page.get_by_test_id("map-last")
    expect(last).to_be_enabled()
    last.tap()
    expect(page.get_by_test_id("map")).to_have_attribute("data-showing", "last")
    expect(page.get_by_test_id("map-caption")).to_contain_text("S1901M: the last turn")
    expect(page.get_by_test_id("map").locator("[data-order]").first).to_be_attached()
    no_sideways_scroll(page)
    screenshot(page, "phone29-last-turn")
    page.get_by_test_id("map-now").tap()
    expect(page.get_by_test_id("map")).to_have_attribute("data-showing", "now")
    expect(page.get_by_test_id("map").locator('[data-unit][data-location="bur"]')).to_have_count(1)


def test_phone_follows_the_game_live_with_the_deadline_in_local_time(
        new_context: NewContext, web_api: Api) -> None:
    """§2: on a phone another player's "submitted" and "ready", and the next phase,
    arrive without a reload; the deadline reads in the viewer's time, with the game's
    fixed clock time (20:00 Europe/Paris)."""
    seats = seated_game(web_api, "standard", deadline_time="20:00", time_zone="Europe/Paris")
    page = _phone(new_context, seats.names["france"], f"/games/{seats.table.id}")
    expect(page.get_by_test_id("phase-title")).to_have_text("Spring 1901, Movement")
    expect(page.locator("body")).to_have_attribute("data-live", "1")
    expect(page.get_by_test_id("deadline-local")).to_contain_text("your time")
    expect(page.get_by_test_id("deadline-local")).to_contain_text(
        "phases end at 20:00 Europe/Paris")
    page.evaluate("window.__same = true")  # gone if the page reloads
    row = page.get_by_test_id("power-germany")
    expect(row).to_have_attribute("data-ready", "0")
    send_orders(web_api, seats, {"germany": ["A MUN - RUH"]})
    expect(row).to_have_attribute("data-submitted", "1")
    expect(row).to_have_attribute("data-ready", "1")
    no_sideways_scroll(page)
    screenshot(page, "phone29-live-ready", full_page=True)
    process_now(web_api, seats)
    expect(page.get_by_test_id("phase-title")).to_have_text("Fall 1901, Movement")
    assert page.evaluate("window.__same === true")
    expect(page.get_by_test_id("map").locator('[data-unit][data-location="ruh"]')).to_have_count(1)
    no_sideways_scroll(page)


def test_phone_each_phase_says_what_it_asks(new_context: NewContext, web_api: Api) -> None:
    """§3: at 390 px a retreat phase tells a player with nothing to do so (not "click one
    of your units") and the player whose unit was dislodged that it must retreat; in the
    Winter the prompt counts the builds and a build is given by taps on the empty home
    centre (rule 4.D.1: on an owned, vacant home centre)."""
    seats = seated_game(web_api, "standard")
    send_orders(web_api, seats, {"germany": ["A MUN - BUR"]}, ready=False)
    process_now(web_api, seats)
    send_orders(web_api, seats, {"france": ["A PAR - BUR", "A MAR S A PAR - BUR"]}, ready=False)
    assert process_now(web_api, seats)["phase"] == "F1901R"
    england = _phone(new_context, seats.names["england"], f"/games/{seats.table.id}")
    prompt = england.get_by_test_id("phase-prompt")
    expect(prompt).to_have_attribute("data-kind", "none")
    expect(prompt).to_contain_text("nothing to do")
    expect(england.get_by_test_id("order-hint")).not_to_contain_text("Click one of your units")
    no_sideways_scroll(england)
    screenshot(england, "phone29-prompt-nothing-to-do")
    germany = _phone(new_context, seats.names["germany"], f"/games/{seats.table.id}")
    prompt = germany.get_by_test_id("phase-prompt")
    expect(prompt).to_have_attribute("data-kind", "retreats")
    expect(prompt).to_contain_text("BUR must retreat or disband")
    no_sideways_scroll(germany)
    screenshot(germany, "phone29-prompt-retreat")
    # Germany lets its army be disbanded: Munich is empty in the Winter, one build due
    assert process_now(web_api, seats)["phase"] == "W1901A"
    open_game(germany, seats.table.id, "W1901A")
    expect(prompt).to_have_attribute("data-kind", "builds")
    expect(prompt).to_contain_text("you may build 1 unit")
    order_by_clicks(germany, "mun", "build", expected="BUILD A MUN", tap=True)
    expect(prompt).to_contain_text("All builds given.")
    drawn = germany.locator('[data-testid="drawn-order"][data-pending="BUILD A MUN"]')
    expect(drawn).to_have_count(1)
    no_sideways_scroll(germany)
    screenshot(germany, "phone29-prompt-build")


def test_phone_ready_warns_and_process_now_asks(new_context: NewContext, web_api: Api) -> None:
    """§3: on a phone "I'm ready" with units unordered asks first (refused: not ready),
    and the master's "Process now" asks first (refused: nothing processed; accepted:
    the next phase)."""
    seats = seated_game(web_api, "standard")
    page = _phone(new_context, seats.names["france"], f"/games/{seats.table.id}")
    open_game(page, seats.table.id, "S1901M")
    toggle = page.get_by_test_id("ready-toggle")
    expect(toggle).to_have_attribute("data-unordered", "3")
    asked = refuse_dialogs(page)
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert asked and "3 of your units have no order" in asked[0], asked
    no_sideways_scroll(page)
    screenshot(page, "phone29-ready-asks")
    master = _phone(new_context, seats.master_name, f"/games/{seats.table.id}")
    process = master.get_by_test_id("master-process")
    expect(process).to_be_visible()
    asked_master = refuse_dialogs(master)
    process.tap()
    assert asked_master and "Process this phase now" in asked_master[0], asked_master
    master.wait_for_timeout(300)
    assert web_api.game(seats.table)["phase"] == "S1901M"
    master.once("dialog", lambda dialog: dialog.accept())
    process.tap()
    expect(master.get_by_test_id("game-phase")).to_have_text("F1901M")
    expect(master.get_by_test_id("results-phase")).to_have_text("S1901M")
    no_sideways_scroll(master)
    screenshot(master, "phone29-master-processed", full_page=True)


def test_phone_spectator_and_forming_pages_offer_only_what_the_viewer_may_do(
        new_context: NewContext, web_api: Api) -> None:
    """§3: a spectator on a phone has no composer and no order controls, reads the
    powers table's legend and the variant's special rules; before a game starts its
    player is told messages open then, with no composer."""
    seats = seated_game(web_api, "sahara")
    name, _ = sign_up_api(web_api)
    page = _phone(new_context, name, f"/games/{seats.table.id}")
    page.get_by_test_id("map").locator("svg").wait_for()
    expect(page.get_by_test_id("power-" + sorted(seats.names)[0])).to_be_visible()
    expect(page.get_by_test_id("message-form")).to_have_count(0)
    expect(page.get_by_test_id("orders-panel")).to_have_count(0)
    expect(page.get_by_test_id("powers-legend")).to_contain_text("– none needed this phase")
    expect(page.get_by_test_id("variant-notes")).not_to_be_empty()
    no_sideways_scroll(page)
    screenshot(page, "phone29-spectator", full_page=True)
    master_name, master = sign_up_api(web_api)
    game = web_api.new_game(master, variant="standard", name="forming", power="france")
    forming = _phone(new_context, master_name, f"/games/{game['id']}")
    expect(forming.get_by_test_id("press-later")).to_be_visible()
    expect(forming.get_by_test_id("message-form")).to_have_count(0)
    no_sideways_scroll(forming)
    screenshot(forming, "phone29-forming", full_page=True)


def test_phone_history_lists_a_power_that_sent_nothing(
        new_context: NewContext, web_api: Api) -> None:
    """§3: the history on a phone lists Turkey, which sent nothing, marked NMR."""
    seats = seated_game(web_api, "standard")
    orders = {"austria": ["A VIE H"], "england": ["F LON H"], "france": ["A PAR H"],
              "germany": ["A BER H"], "italy": ["A ROM H"], "russia": ["A MOS H"]}
    send_orders(web_api, seats, orders, ready=False)
    process_now(web_api, seats)
    page = _phone(new_context, seats.names["france"], f"/games/{seats.table.id}/history")
    page.get_by_test_id("history-map").locator("svg").wait_for()
    expect(page.get_by_test_id("history-nmr-turkey")).to_have_text("NMR")
    expect(page.get_by_test_id("history-orders-turkey")).to_contain_text("no orders sent")
    expect(page.get_by_test_id("history-nmr-france")).to_have_count(0)
    no_sideways_scroll(page)
    page.get_by_test_id("history-nmr-turkey").scroll_into_view_if_needed()
    screenshot(page, "phone29-history-nmr")


def test_phone_rule_options_read_as_sentences_with_their_datc_rule(
        new_context: NewContext, web_api: Api) -> None:
    """§3: the create form's rule options on a phone are sentences, each with a link to
    its DATC rule (or the rule named), not raw identifiers."""
    name, _ = sign_up_api(web_api)
    page = _phone(new_context, name, "/lobby")
    box = page.locator("details", has=page.get_by_test_id("create-option-convoy_disruption"))
    box.locator("summary").tap()
    text = page.get_by_test_id("option-text-convoy_disruption")
    expect(text).to_be_visible()
    expect(text).to_have_text(re.compile(r"^[A-Z].*\."))
    expect(text).not_to_contain_text("convoy_disruption")
    links = page.locator('[data-testid^="option-datc-"]')
    assert links.count() >= 1
    for n in range(links.count()):
        expect(links.nth(n)).to_have_text(re.compile(r"^DATC "))
        assert (links.nth(n).get_attribute("href") or "").startswith("http")
    no_sideways_scroll(page)
    text.scroll_into_view_if_needed()
    screenshot(page, "phone29-rule-options")


def test_phone_planning_board_open_move_adjudicate_share(
        new_context: NewContext, web_api: Api) -> None:
    """§4 on a phone: a board from the lobby, a unit moved by taps, adjudicated by the
    engine, a step back and forward, its link copied."""
    name, _ = sign_up_api(web_api)
    page = _phone(new_context, name, "/lobby")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_test_id("board-variant").select_option("standard")
    page.get_by_test_id("board-new").tap()
    page.wait_for_url(re.compile(r"/boards/[A-Za-z0-9_-]+$"))
    page.get_by_test_id("map").locator("svg").wait_for()
    expect(page.get_by_test_id("board-phase")).to_have_text("S1901M")
    box = page.get_by_test_id("map").bounding_box()
    assert box is not None and box["width"] >= 340, f"the map is a thumbnail: {box}"
    click_map(page, "par", tap=True)
    page.get_by_test_id("board-kind-move").tap()
    click_map(page, "bur", tap=True)
    expect(page.get_by_test_id("board-orders-france")).to_have_value("A PAR - BUR")
    board_map = page.get_by_test_id("map")
    expect(board_map).to_have_attribute("data-orders", "1")  # the map drew the order
    expect(board_map.locator('[data-order="A PAR - BUR"]')).to_have_count(1)
    no_sideways_scroll(page)
    screenshot(page, "phone29-board-ordered")
    page.get_by_test_id("board-adjudicate").tap()
    expect(page.get_by_test_id("board-phase")).to_have_text("F1901M")
    expect(page.get_by_test_id("board-step")).to_have_text("step 2 of 2")
    expect(page.get_by_test_id("map").locator('[data-unit][data-location="bur"]')).to_have_count(1)
    page.get_by_test_id("board-prev").tap()
    expect(page.get_by_test_id("board-phase")).to_have_text("S1901M")
    expect(page.get_by_test_id("board-results")).to_contain_text("A PAR - BUR")
    # the step's map: its orders and what they came to
    expect(board_map).to_have_attribute("data-step", "0")
    expect(board_map.locator('[data-order="A PAR - BUR"]')).to_have_count(1)
    no_sideways_scroll(page)
    screenshot(page, "phone29-board-adjudicated")
    page.get_by_test_id("board-next").tap()
    expect(page.get_by_test_id("board-phase")).to_have_text("F1901M")
    page.get_by_test_id("board-share").tap()
    expect(page.get_by_test_id("board-shared")).to_contain_text("/boards/")
    no_sideways_scroll(page)
    screenshot(page, "phone29-board-shared", full_page=True)
