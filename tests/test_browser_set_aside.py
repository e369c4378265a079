"""A game whose phase failed to process, in a real browser (issue 26 item 2): everyone
on its page is told that it waits for its master; only the master reads the error and
gets the button that retries it, and after the retry the game plays on."""

from __future__ import annotations

import hashlib

from playwright.sync_api import expect

from browser_fixtures import NewContext, player_page, seated_game, unique_name
from judge_fixtures import Api, ServerProcess, settings_for


def _set_file(server: ServerProcess, game_id: int, text: str) -> None:
    """What an engine upgrade that no longer reads a file does to a stored game."""
    from standoff.judge.db import Database
    from standoff.judge.models import GameRow

    assert server.db_url is not None
    db = Database(settings_for(server.db_url))
    try:
        with db.write() as s:
            game = s.get(GameRow, game_id)
            assert game is not None
            game.variant_file = text
            game.variant_sha256 = hashlib.sha256(text.encode()).hexdigest()
    finally:
        db.dispose()


def test_a_set_aside_game_says_so_and_its_master_retries_it(
        new_context: NewContext, web_api: Api, web_server: ServerProcess) -> None:
    name = unique_name("fixable").lower()
    good = f'[variant]\nname = "{name}"\ntitle = "Fixable"\n[derive]\nbase = "standard"\n'
    seats = seated_game(web_api, variant=name, variant_file=good)
    game_id = seats.table.id
    _set_file(web_server, game_id, f'[variant]\nname = "{name}"\n')
    web_api.call("POST", f"/games/{game_id}/master/process", seats.table.master, expect=200)
    assert web_api.game(seats.table)["set_aside"]
    master = player_page(new_context, seats.master_name, f"/games/{game_id}")
    player = player_page(new_context, seats.names["france"], f"/games/{game_id}")
    notice = master.get_by_test_id("set-aside")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("waits until its master retries it")
    expect(notice).to_contain_text("no longer loads")
    expect(player.get_by_test_id("set-aside")).to_contain_text("waits until its master")
    expect(player.get_by_test_id("set-aside")).not_to_contain_text("no longer loads")
    expect(player.get_by_test_id("master-retry")).to_have_count(0)
    _set_file(web_server, game_id, good)  # the file loads again
    master.get_by_test_id("master-retry").click()
    expect(master.get_by_test_id("game-phase")).to_have_text("F1901M", timeout=20_000)
    expect(notice).to_be_hidden()
    expect(master.get_by_test_id("master-retry")).to_be_hidden()
