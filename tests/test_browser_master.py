"""The game master's panel and the way into a private game, in a real browser: a
master who plays no power makes a private game in the lobby, a friend joins from the
game's own address with the invite code, the master pauses, resumes, extends and
processes now (NMRs counted in the powers table); a draw voted by the toggle (and by
the others through the API) ends the game, and its page says so."""

from __future__ import annotations

import re
from datetime import datetime

from playwright.sync_api import expect

from browser_fixtures import (
    NewContext,
    open_game,
    order_by_text,
    player_page,
    sign_up,
    sign_up_api,
    unique_name,
)
from judge_fixtures import PASSWORD, Api, Table


def deadline(api: Api, table: Table) -> datetime:
    return datetime.fromisoformat(str(api.game(table)["deadline"]).replace("Z", "+00:00"))


def token_of(api: Api, username: str) -> str:
    got = api.json("POST", "/tokens", body={"username": username, "password": PASSWORD},
                   expect=201)
    return str(got["token"])


def test_master_panel_private_game_and_draw(new_context: NewContext, web_api: Api) -> None:
    master = new_context().new_page()
    master_name = unique_name("gm")
    sign_up(master, master_name)
    master.get_by_test_id("create-name").fill(unique_name("Private game"))
    master.get_by_test_id("create-private").check()
    master.get_by_test_id("create-submit").click()
    master.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(master.url.rsplit("/", 1)[1])
    invite = master.get_by_test_id("invite-code-shown").inner_text().strip()
    assert invite
    table = Table(game_id, token_of(web_api, master_name))
    # a friend given the game's number and code joins in the lobby (any free power)
    friend_name, friend_token = sign_up_api(web_api)
    friend = player_page(new_context, friend_name, "/lobby")
    friend.get_by_test_id("invite-game").fill(str(game_id))
    friend.get_by_test_id("invite-code").fill(invite)
    friend.get_by_test_id("invite-submit").click()
    friend.wait_for_url(re.compile(rf"/games/{game_id}$"))
    expect(friend.get_by_test_id("my-power")).to_be_visible()
    mine = str(web_api.json("GET", f"/games/{game_id}", friend_token)["your_power"])
    # the others through the API; the game starts
    others: dict[str, str] = {}
    for power in web_api.game(table)["powers"]:
        if power != mine:
            _, token = sign_up_api(web_api)
            web_api.call("POST", f"/games/{game_id}/seats", token,
                         {"power": power, "invite": invite}, expect=201)
            others[power] = token
    assert web_api.game(table)["status"] == "active"
    open_game(master, game_id, "S1901M")
    open_game(friend, game_id, "S1901M")
    expect(master.get_by_test_id("orders-panel")).to_have_count(0)  # the master plays none
    expect(friend.get_by_test_id("master-panel")).to_have_count(0)
    # pause, resume, extend
    master.get_by_test_id("master-pause").click()
    expect(master.get_by_test_id("game-status")).to_contain_text("paused")
    expect(master.get_by_test_id("countdown")).to_contain_text("paused")
    assert web_api.game(table)["paused"] is True
    master.get_by_test_id("master-resume").click()
    expect(master.get_by_test_id("game-status")).not_to_contain_text("paused")
    expect(master.get_by_test_id("countdown")).not_to_contain_text("paused")
    before = deadline(web_api, table)
    master.get_by_test_id("master-extend-minutes").fill("90")
    master.get_by_test_id("master-extend").click()
    expect(master.get_by_test_id("master-error")).to_be_empty()
    master.wait_for_timeout(500)
    moved = (deadline(web_api, table) - before).total_seconds()
    assert 90 * 60 - 5 <= moved <= 90 * 60 + 5, moved
    # the friend orders; the master processes now: the others are NMR
    legal = web_api.json("GET", f"/games/{game_id}/legal", friend_token)
    order_by_text(friend, *(options[0] for _, options in sorted(legal.items())))
    master.once("dialog", lambda d: d.accept())  # "Process now" asks first (issue 29 §3)
    master.get_by_test_id("master-process").click()
    web_api.wait_phase(table, "S1901M")
    open_game(master, game_id, "F1901M")
    for power in others:
        expect(master.get_by_test_id(f"power-{power}").locator("td").last).to_have_text("1")
    expect(master.get_by_test_id(f"power-{mine}").locator("td").last).to_have_text("0")
    # the friend votes a draw by the toggle; the others by the API: the game ends drawn
    open_game(friend, game_id, "F1901M")
    friend.get_by_test_id("draw-toggle").click()
    expect(friend.get_by_test_id("draw-toggle")).to_contain_text("✓")
    assert web_api.json("GET", f"/games/{game_id}/vote", friend_token)["draw"] is True
    for token in others.values():
        web_api.call("PUT", f"/games/{game_id}/vote", token, {"draw": True}, expect=200)
    assert web_api.game(table)["status"] == "finished"
    friend.goto(f"/games/{game_id}")
    expect(friend.get_by_test_id("game-status")).to_contain_text("finished")
    expect(friend.locator("main")).to_contain_text("drawn between")


def test_join_from_the_games_own_page(new_context: NewContext, web_api: Api) -> None:
    """A friend sent a forming game's address joins from that page: a public game by a
    power's button; a private one with the invite code typed there."""
    _, master = sign_up_api(web_api)
    public = web_api.new_game(master, name="Open to friends")
    name, _ = sign_up_api(web_api)
    page = player_page(new_context, name, f"/games/{public['id']}")
    page.get_by_test_id("join-italy").click()
    expect(page.get_by_test_id("my-power")).to_contain_text("Italy")
    private = web_api.new_game(master, name="Friends only", private=True)
    code = web_api.json("GET", f"/games/{private['id']}", master)["invite"]
    name2, _ = sign_up_api(web_api)
    page2 = player_page(new_context, name2, f"/games/{private['id']}")
    expect(page2.get_by_test_id("join-panel")).to_be_visible()
    page2.get_by_test_id("join-invite").fill(code)
    page2.get_by_test_id("join-austria").click()
    expect(page2.get_by_test_id("my-power")).to_contain_text("Austria")


def test_master_cancels_a_forming_game_after_confirming(new_context: NewContext,
                                                        web_api: Api) -> None:
    """The master's Cancel button (forming games only) asks first: dismissed, nothing
    happens; accepted, the game is over, cancelled."""
    master_name, token = sign_up_api(web_api)
    game = web_api.new_game(token, name=unique_name("To cancel"))
    page = player_page(new_context, master_name, f"/games/{game['id']}")
    button = page.get_by_test_id("master-cancel")
    expect(button).to_be_visible()
    page.once("dialog", lambda d: d.dismiss())
    button.click()
    expect(page.get_by_test_id("game-status")).to_have_text("forming")
    assert web_api.json("GET", f"/games/{game['id']}", token)["status"] == "forming"
    page.once("dialog", lambda d: d.accept())
    button.click()
    expect(page.get_by_test_id("game-status")).to_contain_text("cancelled")
    expect(button).to_be_hidden()
    assert web_api.json("GET", f"/games/{game['id']}", token)["outcome"] == {"cancelled": True}
