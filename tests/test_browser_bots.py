"""Bots in seats and seats that never die, through the pages in Chromium (issue 28's
"Done when"): one person creates a Twentieth Century game with twelve bots in the
lobby's form and plays it through 1934; one person plays Standard with six bots to
the end; a player on leave has the bot chosen in the leave form play their seat and
gets it back with "I'm back"; a replacement takes over a seat its master opened and
reads the press sent to that power before they came; a bot that overruns its time
is listed on its master's page (and on no player's). The API is used only for what
another person would do (a second player's account, their orders and ready flag).
Screenshots: ``tests/artifacts/screenshots/bots-*.png``."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser_fixtures import (
    PHONE,
    NewContext,
    create_game_by_form,
    log_in,
    no_sideways_scroll,
    open_game,
    order_by_text,
    player_page,
    screenshot,
    seat_badges,
    sign_up,
    sign_up_api,
    unique_name,
)
from judge_fixtures import Api, ServerProcess

#: how long one phase may take to be processed once its people are ready (bots order
#: within a second; generous for a loaded 2-core machine)
PHASE_MS = 30_000
STANDARD_BOTS = ("austria", "germany", "italy", "russia", "turkey")


def year(phase: str) -> int:
    return int(phase[1:5])


def phase_moved(page: Page, phase: str) -> None:
    """Wait until the game page shows another phase than ``phase``, or the game's end."""
    page.wait_for_function(
        """(ph) => document.getElementById('game-phase').textContent !== ph
                || document.getElementById('game-status').textContent.startsWith('finished')""",
        arg=phase, timeout=PHASE_MS)


def _accept(dialog: Any) -> None:
    dialog.accept()


def play_on(page: Page, me: str, stop: Callable[[str], bool]) -> list[float]:
    """Play the game page's power ``me`` as a person who lets the bots get on with it:
    each phase it has orders to give, click "I'm ready" (its units hold); then wait for
    the next phase, until ``stop(phase)`` or the game ends. Seconds each phase took."""
    took: list[float] = []
    # "I'm ready" with units unordered asks first (issue 29 section 3): they hold, yes
    page.on("dialog", _accept)
    while True:
        phase = page.get_by_test_id("game-phase").inner_text()
        if page.get_by_test_id("game-status").inner_text().startswith("finished") \
                or stop(phase):
            page.remove_listener("dialog", _accept)
            return took
        start = time.monotonic()
        row = page.get_by_test_id(f"power-{me}")
        if row.get_attribute("data-to-order") == "1" and row.get_attribute("data-ready") == "0":
            page.get_by_test_id("ready-toggle").click()
        phase_moved(page, phase)
        took.append(time.monotonic() - start)


def hold_first_unit(page: Page) -> str:
    """Order the first of the player's units to hold, by clicks (its location's button,
    then Hold); the order as the page lists it."""
    page.get_by_test_id("order-locations").locator("button").first.click()
    page.get_by_test_id("order-kind-hold").click()
    held = page.locator('[data-testid="my-order"][data-kind="hold"]')
    expect(held).not_to_have_count(0)
    return str(held.first.get_attribute("data-order"))


def figures(what: str, took: list[float]) -> None:
    """Print the phases' times (figures, not a timed assertion)."""
    if took:
        mean = sum(took) / len(took)
        print(f"\n{what}: {len(took)} phases in {sum(took):.1f} s, mean {mean:.2f} s, "
              f"slowest {max(took):.2f} s")


def history_bots(page: Page) -> dict[str, str]:
    """The history page's bot badges for the phase shown: power to bot."""
    found: list[list[str]] = page.get_by_test_id("history-orders").locator(
        '[data-testid^="history-bot-"]').evaluate_all(
        "(els) => els.map((e) => [e.dataset.testid, e.textContent])")
    return {testid.removeprefix("history-bot-"): text.removeprefix("bot: ")
            for testid, text in found}


def show_history(page: Page, game_id: int, phase: str) -> None:
    page.goto(f"/games/{game_id}/history/{phase}")
    expect(page.get_by_test_id("history-phase")).to_contain_text(phase)


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A judge of its own on a new SQLite file: its first game is game 1, and the bots'
    seeds come from the game's id, turn and power, so the game plays the same every run."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'judge.db'}",
                           STANDOFF_SQLITE_SYNCHRONOUS="NORMAL").start()
    try:
        yield server
    finally:
        server.stop()


def test_one_person_and_twelve_bots_play_the_twentieth_century_through_1934(
        new_context: NewContext) -> None:
    page = new_context().new_page()
    sign_up(page, unique_name("solo"))
    page.get_by_test_id("create-name").fill("The world and me")
    page.get_by_test_id("create-variant").select_option("twentieth-century")
    page.get_by_test_id("create-power").select_option("britain")
    page.get_by_test_id("create-empty-now").check()
    page.get_by_test_id("create-fill-bot").select_option("heuristic")
    screenshot(page, "bots-create-form", full_page=True)
    page.get_by_test_id("create-submit").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    # the game started at once: the twelve other powers are the heuristic bot's, shown so
    expect(page.get_by_test_id("game-status")).to_have_text("active")
    expect(page.get_by_test_id("game-phase")).to_have_text("S1933M")
    expect(page.get_by_test_id("powers").locator('[data-testid^="bot-"]')).to_have_count(12)
    badges = seat_badges(page, "bot")
    assert "britain" not in badges and set(badges.values()) == {"bot: heuristic"}
    # one order by clicks (the first unit holds), then ready; the bots are ready by then
    held = hold_first_unit(page)
    screenshot(page, "bots-twentieth-century-game")
    took = play_on(page, "britain", lambda phase: year(phase) >= 1935)
    figures("Twentieth Century, 1933-1934", took)
    status = page.get_by_test_id("game-status").inner_text()
    phase = page.get_by_test_id("game-phase").inner_text()
    assert status.startswith("finished") or year(phase) == 1935, (status, phase)
    expect(page.get_by_test_id("powers").locator('[data-testid^="bot-"]')).to_have_count(12)
    # the history says which powers bots played, phase by phase
    show_history(page, game_id, "S1933M")
    assert history_bots(page) == {p: "heuristic" for p in badges}
    expect(page.get_by_test_id("history-bots")).to_contain_text("Played by bots:")
    expect(page.get_by_test_id("history-orders-britain")).to_contain_text(held)
    screenshot(page, "bots-twentieth-century-history")
    page.get_by_test_id("history-next").click()
    expect(page.get_by_test_id("history-phase")).not_to_contain_text("S1933M")
    assert len(history_bots(page)) == 12


def test_one_person_plays_standard_with_six_bots_to_the_end(
        new_context: NewContext, fresh_server: ServerProcess) -> None:
    """England holds throughout; France is the heuristic bot, the other five the random
    one: France wins alone (on this judge's first game, by 1905)."""
    page = new_context(base_url=fresh_server.url).new_page()
    sign_up(page, unique_name("solo"))
    game_id = create_game_by_form(page, "England holds", power="england", empty="now",
                                  fill_bot="random", bots={"france": "heuristic"})
    expect(page.get_by_test_id("game-phase")).to_have_text("S1901M")
    expect(page.get_by_test_id("powers").locator('[data-testid^="bot-"]')).to_have_count(6)
    assert seat_badges(page, "bot") == {"france": "bot: heuristic",
                                        **{p: "bot: random" for p in STANDARD_BOTS}}
    took = play_on(page, "england", lambda phase: year(phase) > 1940)
    figures("Standard, one person holding and six bots", took)
    expect(page.get_by_test_id("game-status")).to_have_text(re.compile(r"^finished: won by "))
    winner = page.get_by_test_id("game-status").inner_text().split("won by ", 1)[1]
    assert winner == "France"
    expect(page.get_by_test_id("countdown")).to_have_text("game over")
    page.reload()
    expect(page.get_by_test_id("game-status")).to_have_text("finished: won by France")
    expect(page.get_by_test_id("leave-panel")).to_have_count(0)
    screenshot(page, "bots-standard-won")
    show_history(page, game_id, "S1901M")
    assert history_bots(page) == {"france": "heuristic", **{p: "random" for p in STANDARD_BOTS}}


def _ready_through_api(api: Api, game_id: int, token: str, power: str,
                       until: Callable[[dict[str, Any]], bool]) -> None:
    """Another person (``token``, playing ``power``) is ready in every phase until
    ``until(game)``."""
    end = time.monotonic() + 60
    while True:
        game: dict[str, Any] = api.json("GET", f"/games/{game_id}", token)
        if until(game):
            return
        seat = game["powers"][power]
        if seat["to_order"] and not seat["ready"]:
            api.call("POST", f"/games/{game_id}/ready", token, {"ready": True}, expect=200)
        assert time.monotonic() < end, f"the game stayed in {game['phase']}: {game['powers']}"
        time.sleep(0.1)


def test_a_player_on_leave_has_their_bot_play_and_gets_the_seat_back(
        new_context: NewContext, web_api: Api) -> None:
    me, _ = sign_up_api(web_api)
    page = player_page(new_context, me)
    game_id = create_game_by_form(page, unique_name("Leave"), power="england",
                                  bots={p: "random" for p in STANDARD_BOTS})
    expect(page.get_by_test_id("game-status")).to_have_text("forming")
    _, friend = sign_up_api(web_api)  # France: another person, through the API
    web_api.call("POST", f"/games/{game_id}/seats", friend, {"power": "france"}, expect=201)
    open_game(page, game_id, "S1901M")
    order_by_text(page, "F LON - NTH")
    page.once("dialog", _accept)  # two units unordered: the page asks first (issue 29)
    page.get_by_test_id("ready-toggle").click()
    expect(page.get_by_test_id("ready-toggle")).to_have_attribute("aria-pressed", "true")
    _ready_through_api(web_api, game_id, friend, "france", lambda g: g["phase"] == "F1901M")
    open_game(page, game_id, "F1901M")
    # going away: the heuristic bot plays England meanwhile
    page.locator("#leave-box > summary").click()
    page.get_by_test_id("leave-bot").select_option("heuristic")
    screenshot(page, "bots-leave-form")
    page.get_by_test_id("leave-submit").click()
    expect(page.get_by_test_id("leave-state")).to_contain_text("On leave until")
    expect(page.get_by_test_id("leave-state")).to_contain_text("heuristic")
    expect(page.get_by_test_id("leave-back")).to_be_visible()
    expect(page.get_by_test_id("leave-form")).to_be_hidden()
    expect(page.get_by_test_id("away-england")).to_have_text("on leave")
    expect(page.get_by_test_id("bot-england")).to_have_text("bot: heuristic")
    screenshot(page, "bots-on-leave")
    # the other player plays on: the bot gives England's orders through 1901
    _ready_through_api(web_api, game_id, friend, "france", lambda g: g["phase"] == "S1902M")
    open_game(page, game_id, "S1902M")
    expect(page.get_by_test_id("away-england")).to_be_visible()  # still on leave
    expect(page.get_by_test_id("leave-state")).to_contain_text("On leave until")
    page.get_by_test_id("leave-back").click()
    expect(page.get_by_test_id("away-england")).to_have_count(0)
    expect(page.get_by_test_id("bot-england")).to_have_count(0)
    expect(page.get_by_test_id("power-england")).to_contain_text(me)
    expect(page.get_by_test_id("leave-back")).to_be_hidden()
    expect(page.get_by_test_id("leave-form")).to_be_visible()
    screenshot(page, "bots-back-from-leave")
    # back within Spring 1902, which the bot had already ordered (and said ready for):
    # the person's order replaces its unit's, the bot's others stand
    spring = hold_first_unit(page)
    if page.get_by_test_id("ready-toggle").get_attribute("aria-pressed") == "false":
        page.get_by_test_id("ready-toggle").click()
    _ready_through_api(web_api, game_id, friend, "france", lambda g: g["phase"] == "F1902M")
    # Fall 1902 is the person's alone
    open_game(page, game_id, "F1902M")
    expect(page.get_by_test_id("bot-england")).to_have_count(0)
    fall = hold_first_unit(page)
    page.once("dialog", _accept)  # the other units unordered: the page asks first
    page.get_by_test_id("ready-toggle").click()
    expect(page.get_by_test_id("ready-toggle")).to_have_attribute("aria-pressed", "true")
    _ready_through_api(web_api, game_id, friend, "france", lambda g: g["phase"] != "F1902M")
    show_history(page, game_id, "F1901M")
    assert history_bots(page).get("england") == "heuristic"
    during = page.get_by_test_id("history-orders-england").locator("li")
    expect(during.first).not_to_have_text("no orders")
    assert during.count() == 3  # the bot ordered each English unit
    screenshot(page, "bots-history-on-leave")
    show_history(page, game_id, "S1902M")
    assert history_bots(page).get("england") == "heuristic"
    expect(page.get_by_test_id("history-orders-england")).to_contain_text(spring)
    for phase, order in (("S1901M", "F LON - NTH"), ("F1902M", fall)):
        show_history(page, game_id, phase)
        assert "england" not in history_bots(page)
        expect(page.get_by_test_id("history-orders-england")).to_contain_text(order)


def test_a_replacement_takes_over_an_abandoned_seat_and_reads_its_press(
        new_context: NewContext, web_api: Api) -> None:
    master_name, _ = sign_up_api(web_api)
    master = player_page(new_context, master_name)
    game_id = create_game_by_form(master, unique_name("Replacement"), power="england",
                                  bots={p: "random" for p in STANDARD_BOTS})
    leaver_name, leaver = sign_up_api(web_api)
    web_api.call("POST", f"/games/{game_id}/seats", leaver, {"power": "france"}, expect=201)
    open_game(master, game_id, "S1901M")
    # England writes to France (the power, not its player), France answers
    secret = f"Channel deal {unique_name('note')}: you take Belgium, I take Norway."
    master.get_by_test_id("message-to-all").uncheck()
    master.get_by_test_id("message-to-france").check()
    master.get_by_test_id("message-body").fill(secret)
    master.get_by_test_id("message-send").click()
    expect(master.get_by_test_id("messages")).to_contain_text(secret)
    web_api.call("POST", f"/games/{game_id}/messages", leaver,
                 {"to": ["england"], "body": "Agreed, and the Channel stays empty."}, expect=201)
    # France's player goes silent: the master opens the seat, the random bot stands in
    master.get_by_test_id("master-open-power").select_option("france")
    master.get_by_test_id("master-open-bot").select_option("random")
    master.once("dialog", lambda dialog: dialog.accept())
    master.get_by_test_id("master-open").click()
    expect(master.get_by_test_id("open-france")).to_have_text("open for a new player")
    expect(master.get_by_test_id("bot-france")).to_have_text("bot: random")
    expect(master.get_by_test_id("master-error")).to_be_empty()
    screenshot(master, "bots-seat-opened")
    assert web_api.json("GET", f"/games/{game_id}", leaver)["your_power"] is None
    # a newcomer finds the seat in the lobby and takes it over
    newcomer_name, newcomer = sign_up_api(web_api)
    page = player_page(new_context, newcomer_name, "/lobby")
    take = page.get_by_test_id(f"takeover-{game_id}-france")
    expect(take).to_be_visible()
    # the line says it is a seat opened for a replacement, and who stands in meanwhile
    expect(page.get_by_test_id(f"seat-open-{game_id}-france")).to_have_text(
        "open for a new player")
    expect(page.get_by_test_id(f"seat-bot-{game_id}-france")).to_have_text("bot: random")
    expect(page.get_by_test_id("open-seats").get_by_test_id(f"bots-{game_id}")).to_have_attribute(
        "data-powers", " ".join(sorted((*STANDARD_BOTS, "france"))))
    screenshot(page, "bots-lobby-open-seat", full_page=True)
    take.click()
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))
    expect(page.get_by_test_id("my-power")).to_contain_text("France")
    expect(page.get_by_test_id("open-france")).to_have_count(0)
    expect(page.get_by_test_id("bot-france")).to_have_count(0)
    expect(page.get_by_test_id("power-france")).to_contain_text(newcomer_name)
    # France's press is theirs now: the conversation with England, with what was said
    page.get_by_test_id("conversation-england,france").click()
    expect(page.get_by_test_id("messages")).to_contain_text(secret)
    expect(page.get_by_test_id("messages")).to_contain_text("Agreed, and the Channel stays empty.")
    screenshot(page, "bots-replacement-reads-press")
    # and the game goes on with them: their orders count
    order_by_text(page, "A PAR - BUR")
    orders = web_api.json("GET", f"/games/{game_id}/orders", newcomer)["orders"]
    assert "A PAR - BUR" in orders
    assert not [o for o in orders if o.startswith("A PAR") and o != "A PAR - BUR"]
    # the lobby no longer offers the seat, not even to the player who left it
    left = player_page(new_context, leaver_name, "/lobby")
    expect(left.get_by_test_id("open-seats")).to_be_visible()
    expect(left.get_by_test_id(f"takeover-{game_id}-france")).to_have_count(0)


def test_a_join_period_and_a_takeover_bot_from_the_form_and_the_masters_fill(
        new_context: NewContext) -> None:
    """The form's other seat choices reach the game (a join period before bots fill the
    empty seats, a takeover bot), the game page says them, and the master fills the
    empty seats now: the game starts with them played by the chosen bot."""
    page = new_context().new_page()
    sign_up(page, unique_name("gm"))
    game_id = create_game_by_form(page, unique_name("Later"), power="italy", empty="later",
                                  hours=2, fill_bot="random", takeover=(3, "heuristic"))
    expect(page.get_by_test_id("game-status")).to_have_text("forming")
    rules = page.get_by_test_id("seat-rules")
    expect(rules).to_contain_text("go to the random bot")
    expect(rules).to_contain_text("nothing for 3 phases in a row is replaced by the heuristic bot")
    expect(page.get_by_test_id("master-open-row")).to_be_hidden()
    page.get_by_test_id("master-fill-bot").select_option("random")
    screenshot(page, "bots-forming-master-fill")
    page.get_by_test_id("master-fill").click()
    expect(page.get_by_test_id("game-status")).to_have_text("active")
    expect(page.get_by_test_id("game-phase")).to_have_text("S1901M")
    assert page.url.endswith(f"/games/{game_id}")
    expect(page.get_by_test_id("powers").locator('[data-testid^="bot-"]')).to_have_count(6)
    assert set(seat_badges(page, "bot")) == {"austria", "england", "france", "germany",
                                             "russia", "turkey"}
    expect(page.get_by_test_id("master-fill-row")).to_be_hidden()
    expect(page.get_by_test_id("master-open-row")).to_be_visible()
    expect(page.get_by_test_id("seat-rules")).not_to_contain_text("go to the random bot")
    # a mistake in the form is a sentence, and nothing is created
    page.goto("/lobby")
    page.get_by_test_id("create-name").fill(unique_name("Twice"))
    page.get_by_test_id("create-power").select_option("france")
    page.locator("#create-bots-box > summary").click()
    page.get_by_test_id("create-bot-france").select_option("random")
    page.get_by_test_id("create-submit").click()
    expect(page.get_by_test_id("create-error")).to_have_text(
        "You play france yourself: leave its seat to a person, not a bot.")
    expect(page).to_have_url(re.compile(r"/lobby$"))


def test_the_seat_controls_fit_a_phone(new_context: NewContext, web_api: Api) -> None:
    """The create form's seats and bots, and the game page's badges, leave form and
    master's seat rows, at 390 px: nothing wider than the screen."""
    name, _ = sign_up_api(web_api)
    page = player_page(new_context, name, "/lobby", **PHONE)
    page.locator("#create-bots-box > summary").click()
    page.get_by_test_id("create-variant").select_option("twentieth-century")
    expect(page.get_by_test_id("create-bot-colombia")).to_be_visible()
    no_sideways_scroll(page)
    screenshot(page, "bots-create-form-phone", full_page=True)
    create_game_by_form(page, unique_name("Phone"), variant="twentieth-century",
                        power="colombia", empty="now", fill_bot="random")
    expect(page.get_by_test_id("powers").locator('[data-testid^="bot-"]')).to_have_count(12)
    page.locator("#leave-box > summary").click()
    expect(page.get_by_test_id("leave-form")).to_be_visible()
    expect(page.get_by_test_id("master-open-row")).to_be_visible()
    no_sideways_scroll(page)
    screenshot(page, "bots-game-phone", full_page=True)


@pytest.fixture
def overrunning_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A judge whose bots all overrun: each is given 1 s and sleeps 3 s first (the
    bot runner's test hook), so every bot seat is in civil disorder each phase."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'judge.db'}",
                           STANDOFF_SQLITE_SYNCHRONOUS="NORMAL", STANDOFF_BOT_SECONDS="1",
                           STANDOFF_TEST_BOT_DELAY="3").start()
    try:
        yield server
    finally:
        server.stop()


def test_the_master_sees_the_phases_a_bot_gave_no_orders(
        new_context: NewContext, overrunning_server: ServerProcess) -> None:
    """Issue 28: a bot that fails or overruns its budget leaves its seat in civil
    disorder for that phase, shown to the master: the master's page lists the phase,
    the power, the bot and why; a player's page has no such list."""
    api = overrunning_server.client()
    try:
        master_name, master = sign_up_api(api)
        game = api.new_game(master, name=unique_name("Overrun"), power="england",
                            bots={"france": "heuristic"})
        gid = game["id"]
        players: dict[str, str] = {}
        for power in game["powers"]:
            if power not in ("england", "france"):
                name, token = sign_up_api(api)
                api.call("POST", f"/games/{gid}/seats", token, {"power": power}, expect=201)
                players[power] = name
        end = time.monotonic() + 60
        while not api.json("GET", f"/games/{gid}", master)["bot_failures"]:
            assert time.monotonic() < end, "no bot failure within a minute"
            time.sleep(0.2)
    finally:
        api.client.close()
    page = new_context(base_url=overrunning_server.url).new_page()
    log_in(page.context, master_name)
    open_game(page, gid, "S1901M")
    failures = page.get_by_test_id("bot-failures").get_by_test_id("bot-failure")
    expect(failures).to_have_count(1)
    expect(failures.first).to_contain_text("S1901M · France · heuristic bot:")
    expect(failures.first).to_contain_text("longer than 1 s")
    # the seat is in civil disorder for the phase: ready, with nothing sent
    expect(page.get_by_test_id("bot-france")).to_have_text("bot: heuristic")
    page.get_by_test_id("bot-failures").scroll_into_view_if_needed()
    screenshot(page, "bots-master-failures")
    player = new_context(base_url=overrunning_server.url).new_page()
    log_in(player.context, players["germany"])
    open_game(player, gid, "S1901M")
    expect(player.get_by_test_id("bot-france")).to_have_text("bot: heuristic")
    expect(player.get_by_test_id("master-panel")).to_have_count(0)
    expect(player.get_by_test_id("bot-failures")).to_have_count(0)
    expect(player.get_by_test_id("bot-failure")).to_have_count(0)
    screenshot(player, "bots-player-no-failures")
