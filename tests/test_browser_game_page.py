"""The game page as issue 29 asks it (§1 "the map is where a player thinks", §3 "fewer
surprises"), in Chromium, on a desk and at 390 px: pending orders drawn on the map as
they are given and removed by a click, the units still to order ringed and named,
"all units ordered", the last turn on the map, what the phase asks of the player, the
confirmation of "I'm ready" with units unordered, no message composer for a
spectator, the powers table's symbols explained, the variant's special rules; and
screenshots before and after a phase for Standard and every bundled variant."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from browser_fixtures import (
    PHONE,
    NewContext,
    a_legal_move,
    no_sideways_scroll,
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

VARIANTS = ["standard", "sahara", "twin-earths", "city-country", "twentieth-century", "1939-iv"]


def _open(page: Any, game_id: int) -> None:
    page.goto(f"/games/{game_id}")
    page.get_by_test_id("map").locator("svg").wait_for()
    expect(page.get_by_test_id("phase-prompt")).not_to_be_empty()


@pytest.mark.parametrize("variant", VARIANTS)
def test_pending_orders_drawn_and_the_last_turn_on_the_map(
        new_context: NewContext, web_api: Api, variant: str) -> None:
    """§1: an order given is drawn at once and a click on it takes it back; the units
    still without an order are ringed and named; after the phase, "Last turn" shows its
    orders and results on the main map. Screenshots before and after, each variant."""
    seats = seated_game(web_api, variant)
    power = sorted(seats.names)[0]
    page = player_page(new_context, seats.names[power])
    _open(page, seats.table.id)
    prompt = page.get_by_test_id("phase-prompt")
    move = a_legal_move(web_api, seats, power)
    kind = "orders" if move["kind"] == "move" else "builds"
    expect(prompt).to_have_attribute("data-kind", kind)
    rings = page.locator("[data-needs-order]")
    before = rings.count()
    assert before >= 1 or kind == "builds"
    order_by_text(page, move["order"])
    drawn = page.locator(f'[data-testid="drawn-order"][data-pending="{move["order"]}"]')
    expect(drawn).to_have_count(1)
    expect(rings).to_have_count(max(0, before - 1))
    screenshot(page, f"game-{variant}-orders-drawn")
    # a click on the drawn arrow takes the order back
    drawn.locator("path, circle").last.dispatch_event("click")
    expect(page.get_by_test_id("my-order")).to_have_count(0)
    expect(drawn).to_have_count(0)
    order_by_text(page, move["order"])
    expect(drawn).to_have_count(1)
    process_now(web_api, seats)
    expect(page.get_by_test_id("map-last")).to_be_enabled()
    page.get_by_test_id("map-last").click()
    expect(page.get_by_test_id("map")).to_have_attribute("data-showing", "last")
    expect(page.get_by_test_id("map-caption")).to_contain_text("last turn")
    # the renderer's drawn orders of the processed phase, not the pending ones
    expect(page.get_by_test_id("map").locator("[data-order]").first).to_be_attached()
    # drawn over the units (which the page may grow), letting taps through to them
    assert page.evaluate("""() => {
        const svg = document.querySelector('[data-testid="map"] svg');
        const orders = svg.querySelector('#orders'), units = svg.querySelector('#units');
        return units.compareDocumentPosition(orders) === Node.DOCUMENT_POSITION_FOLLOWING
            && getComputedStyle(orders).pointerEvents === 'none';
    }""")
    screenshot(page, f"game-{variant}-after-phase-last-turn")
    page.get_by_test_id("map-now").click()
    expect(page.get_by_test_id("map")).to_have_attribute("data-showing", "now")
    screenshot(page, f"game-{variant}-after-phase-now")


def test_all_units_ordered_and_ready_warns_first(new_context: NewContext, web_api: Api) -> None:
    """§1 "say all units ordered"; §3 "I'm ready with units unordered: warn"."""
    seats = seated_game(web_api, "standard")
    page = player_page(new_context, seats.names["france"])
    _open(page, seats.table.id)
    prompt = page.get_by_test_id("phase-prompt")
    expect(prompt).to_contain_text("3 units still without an order (BRE, MAR, PAR)")
    expect(page.get_by_test_id("order-loc-PAR")).to_have_class("small todo")
    toggle = page.get_by_test_id("ready-toggle")
    expect(toggle).to_have_attribute("data-unordered", "3")
    messages = refuse_dialogs(page)
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert messages and "3 of your units have no order" in messages[0]
    order_by_text(page, "A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO")
    expect(prompt).to_contain_text("all units ordered")
    expect(page.locator("[data-needs-order]")).to_have_count(0)
    expect(page.get_by_test_id("drawn-order")).to_have_count(3)
    toggle.click()  # no question now
    expect(toggle).to_have_attribute("aria-pressed", "true")


def test_a_move_to_an_empty_space_ends_where_a_unit_there_would_stand(
        new_context: NewContext, web_api: Api) -> None:
    """§1: an arrow to an empty space ends at the space's unit spot (the renderer's
    data-x/-y), one unit's radius short of it, not at the space's name label (it
    used to: the page had only the label's position)."""
    seats = seated_game(web_api, "standard")
    page = player_page(new_context, seats.names["france"])
    _open(page, seats.table.id)
    order_by_text(page, "A PAR - BUR", "F BRE - MAO")
    for order, target in (("A PAR - BUR", "bur"), ("F BRE - MAO", "mao")):
        found = page.evaluate("""([order, target]) => {
            const svg = document.querySelector('[data-testid="map"] svg');
            const paths = [...svg.querySelectorAll(`[data-pending="${order}"] path`)];
            const d = paths[paths.length - 1].getAttribute("d").split(/[ ML]+/).filter(Boolean);
            const space = svg.querySelector(`[data-space="${target}"]`).dataset;
            const label = svg.querySelector(`[data-name="${target}"]`);
            const r = Math.max(...[...svg.querySelectorAll("[data-unit]")].map(
                (u) => Number(u.dataset.drawnR ?? u.dataset.r)));
            return {end: [Number(d[2]), Number(d[3])], spot: [Number(space.x), Number(space.y)],
                    label: [Number(label.getAttribute("x")), Number(label.getAttribute("y"))], r};
        }""", [order, target])
        (ex, ey), (sx, sy), (lx, ly) = found["end"], found["spot"], found["label"]
        to_spot = ((ex - sx) ** 2 + (ey - sy) ** 2) ** 0.5
        assert abs(to_spot - found["r"]) < 0.5, (order, found)
        assert (sx, sy) != (lx, ly), found  # the spot is not the label's place


def test_a_phase_with_nothing_to_do_says_so(new_context: NewContext, web_api: Api) -> None:
    """§3: in a retreat phase without a dislodged unit the panel says there is nothing
    to do, not "click one of your units"."""
    seats = seated_game(web_api, "standard")
    send_orders(web_api, seats, {"germany": ["A MUN - BUR"]}, ready=False)
    process_now(web_api, seats)
    send_orders(web_api, seats, {"france": ["A PAR - BUR", "A MAR S A PAR - BUR"]}, ready=False)
    game = process_now(web_api, seats)
    assert game["phase"] == "F1901R"
    page = player_page(new_context, seats.names["england"])
    _open(page, seats.table.id)
    prompt = page.get_by_test_id("phase-prompt")
    expect(prompt).to_have_attribute("data-kind", "none")
    expect(prompt).to_contain_text("nothing to do")
    german = player_page(new_context, seats.names["germany"])
    _open(german, seats.table.id)
    expect(german.get_by_test_id("phase-prompt")).to_have_attribute("data-kind", "retreats")
    expect(german.get_by_test_id("phase-prompt")).to_contain_text("BUR must retreat or disband")
    expect(page.get_by_test_id("order-hint")).not_to_contain_text("Click one of your units")


def test_a_spectator_sees_no_composer_and_the_table_explains_itself(
        new_context: NewContext, web_api: Api) -> None:
    """§3: a spectator gets no message composer (the API would answer 403), nor order
    controls; the powers table explains its symbols and does not break words at 1400 px;
    the variant's special rules are on the page."""
    seats = seated_game(web_api, "sahara")
    name, _ = sign_up_api(web_api)
    page = player_page(new_context, name, viewport={"width": 1400, "height": 900})
    page.goto(f"/games/{seats.table.id}")
    page.get_by_test_id("map").locator("svg").wait_for()
    expect(page.get_by_test_id("power-" + sorted(seats.names)[0])).to_be_visible()
    expect(page.get_by_test_id("message-form")).to_have_count(0)
    expect(page.get_by_test_id("orders-panel")).to_have_count(0)
    expect(page.get_by_test_id("powers-legend")).to_contain_text("– none needed this phase")
    expect(page.get_by_test_id("variant-notes")).not_to_be_empty()
    # no row wraps (German/y, submitt/ed were the words): one line a row
    heights = page.get_by_test_id("powers").locator("tr").evaluate_all(
        "(rows) => rows.map((r) => r.getBoundingClientRect().height)")
    assert max(heights) < 40, heights
    screenshot(page, "game-sahara-spectator-1400")


def test_forming_game_has_no_composer(new_context: NewContext, web_api: Api) -> None:
    """§3: before the game starts, a player is told messages open then, not given a
    composer the API refuses."""
    master_name, master = sign_up_api(web_api)
    game = web_api.new_game(master, variant="standard", name="forming", power="france")
    page = player_page(new_context, master_name)
    page.goto(f"/games/{game['id']}")
    expect(page.get_by_test_id("press-later")).to_be_visible()
    expect(page.get_by_test_id("message-form")).to_have_count(0)


def test_phone_map_tools_and_orders_in_reach(new_context: NewContext, web_api: Api) -> None:
    """§1 phone: at 390 px the zoom buttons sit above the map, not over it; the map has
    no wide empty bands (the box keeps the map's shape); the prompt and the order
    buttons follow right under the map."""
    seats = seated_game(web_api, "standard")
    page = player_page(new_context, seats.names["italy"], **PHONE)
    _open(page, seats.table.id)
    order_by_text(page, "A ROM - APU")
    expect(page.get_by_test_id("drawn-order")).to_have_count(1)
    box = page.get_by_test_id("map").bounding_box()
    zoom = page.get_by_test_id("zoom-in").bounding_box()
    assert box is not None and zoom is not None
    assert zoom["y"] + zoom["height"] <= box["y"] + 1, (zoom, box)
    svg = page.get_by_test_id("map").locator("svg").bounding_box()
    assert svg is not None and abs(svg["height"] - box["height"]) < 4, (svg, box)
    prompt = page.get_by_test_id("phase-prompt").bounding_box()
    assert prompt is not None and prompt["y"] - (box["y"] + box["height"]) < 120
    no_sideways_scroll(page)
    screenshot(page, "game-standard-phone-orders", full_page=False)
