"""Sign-up, log-in and the lobby in a real browser (Chromium, ``browser_fixtures``):
the forms, their errors, creating a game of a variant and joining a power, and the
powers bots play marked on every game line (issue 28)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser_fixtures import (
    PHONE,
    NewContext,
    log_in,
    no_sideways_scroll,
    player_page,
    screenshot,
    sign_up,
    sign_up_api,
    unique_name,
)
from judge_fixtures import PASSWORD, Api


def test_sign_up_log_out_and_log_in(new_context: NewContext) -> None:
    page = new_context().new_page()
    name = unique_name("alice")
    sign_up(page, name)
    # the name is taken now: the form says so and stays
    other = new_context().new_page()
    other.goto("/signup")
    other.get_by_test_id("signup-username").fill(name)
    other.get_by_test_id("signup-password").fill(PASSWORD)
    other.get_by_test_id("signup-submit").click()
    expect(other.get_by_test_id("signup-error")).not_to_be_empty()
    assert other.url.endswith("/signup")
    # log out, then the lobby wants a log-in and comes back after it
    page.get_by_test_id("logout").click()
    page.wait_for_url(re.compile(r"/login"))
    page.goto("/lobby")
    page.wait_for_url(re.compile(r"/login\?next="))
    page.get_by_test_id("login-username").fill(name)
    page.get_by_test_id("login-password").fill("wrong password")
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("login-error")).not_to_be_empty()
    page.get_by_test_id("login-password").fill(PASSWORD)
    page.get_by_test_id("login-submit").click()
    page.wait_for_url(re.compile(r"/lobby$"))
    expect(page.get_by_test_id("nav-user")).to_have_text(name)


def test_create_a_game_and_join_it(new_context: NewContext, web_api: Api) -> None:
    master = new_context().new_page()
    sign_up(master, unique_name("master"))
    game_name = unique_name("Lobby game")
    master.get_by_test_id("create-name").fill(game_name)
    master.get_by_test_id("create-variant").select_option("city-country")
    master.get_by_test_id("create-movement").fill("90")
    master.get_by_test_id("create-press").select_option("public")
    master.get_by_test_id("create-submit").click()
    master.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(master.url.rsplit("/", 1)[1])
    _, token = sign_up_api(web_api)
    game = web_api.json("GET", f"/games/{game_id}", token)
    assert (game["variant"], game["name"], game["press"]) == ("city-country", game_name, "public")
    assert game["deadlines"]["movement"] == 90 * 60
    # the master's lobby lists it among their games
    master.goto("/lobby")
    expect(master.get_by_test_id("my-games")).to_contain_text(game_name)
    # a player sees it among the open games and takes France by its button
    name, _ = sign_up_api(web_api)
    player = new_context()
    log_in(player, name)
    page = player.new_page()
    page.goto("/lobby")
    expect(page.get_by_test_id("open-games")).to_contain_text(game_name)
    page.get_by_test_id(f"join-{game_id}-france").click()
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))
    game = web_api.json("GET", f"/games/{game_id}", token)
    assert game["powers"]["france"]["player"] == name
    # France is taken now: its button is disabled for the next player
    name3, _ = sign_up_api(web_api)
    third = new_context()
    log_in(third, name3)
    page3 = third.new_page()
    page3.goto("/lobby")
    expect(page3.get_by_test_id(f"join-{game_id}-france")).to_be_disabled()
    expect(page3.get_by_test_id(f"join-{game_id}-england")).to_be_enabled()


def test_lobby_screenshots(new_context: NewContext, web_api: Api) -> None:
    """The lobby at desktop and phone width (artefacts), with a game of the player's
    and an open one listed; nothing overflows the phone's 390 px."""
    name, token = sign_up_api(web_api)
    web_api.new_game(token, name="Friday night standard")
    _, other = sign_up_api(web_api)
    web_api.new_game(other, variant="twin-earths", name="Twin Earths, open to all")
    for label, options in (("desktop", {}), ("phone", PHONE)):
        context = new_context(**options)
        log_in(context, name)
        page = context.new_page()
        page.goto("/lobby")
        expect(page.get_by_test_id("my-games")).to_contain_text("Friday night standard")
        expect(page.get_by_test_id("open-games")).to_contain_text("Twin Earths, open to all")
        screenshot(page, f"lobby-{label}", full_page=True)
        if label == "phone":
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the lobby is {width} px wide on a 390 px phone"


def test_the_lobby_marks_the_powers_bots_play(new_context: NewContext, web_api: Api) -> None:
    """Issue 28: a bot's seat is shown as such to everyone, anonymous games included. A
    game created with bots at three seats is listed in another person's lobby with a
    badge naming those powers (each one's bot in its title); its join buttons never
    offer a bot's seat, which shows as a bot badge instead; at desktop width and on a
    390 px phone, with nothing wider than the screen."""
    creator_name, creator = sign_up_api(web_api)
    game_name = unique_name("Three bots")
    game = web_api.new_game(creator, name=game_name, power="england", anonymous=True,
                            bots={"italy": "random", "russia": "heuristic", "turkey": "random"})
    gid = game["id"]
    # the creator's own list says it too
    mine = player_page(new_context, creator_name)
    expect(mine.get_by_test_id("my-games").get_by_test_id(f"bots-{gid}")).to_have_text(
        "3 bots: italy, russia, turkey")
    name, _ = sign_up_api(web_api)
    for label, options in (("desktop", {}), ("phone", PHONE)):
        page = player_page(new_context, name, **options)
        line = page.get_by_test_id("open-games").locator(f'li[data-game="{gid}"]')
        expect(line).to_contain_text(game_name)
        badge = line.get_by_test_id(f"bots-{gid}")
        expect(badge).to_have_text("3 bots: italy, russia, turkey")
        expect(badge).to_have_class(re.compile(r"\bseat-badge bot\b"))
        expect(badge).to_have_attribute("data-powers", "italy russia turkey")
        expect(badge).to_have_attribute(
            "title", "Played by bots: italy (random), russia (heuristic), turkey (random)")
        for power, bot in (("italy", "random"), ("russia", "heuristic"), ("turkey", "random")):
            expect(line.get_by_test_id(f"join-{gid}-{power}")).to_have_count(0)
            expect(line.get_by_test_id(f"seat-bot-{gid}-{power}")).to_have_text(
                f"{power} · bot: {bot}")
        expect(line.get_by_test_id(f"join-{gid}-england")).to_be_disabled()  # the creator's
        for power in ("austria", "france", "germany"):
            expect(line.get_by_test_id(f"join-{gid}-{power}")).to_be_enabled()
        line.scroll_into_view_if_needed()
        if label == "phone":
            assert badge.bounding_box()["width"] <= 390  # type: ignore[index]
            no_sideways_scroll(page)
        screenshot(page, f"lobby-bots-{label}")
    # "any free power" never lands on a bot's seat: the free ones go first
    _, joiner = sign_up_api(web_api)
    seat = web_api.json("POST", f"/games/{gid}/seats", joiner, {}, expect=201)
    assert seat.get("power") in ("austria", "france", "germany"), seat
