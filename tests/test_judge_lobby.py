"""Lobby spam (issue 26, item 8): one account made 520 games in 8.3 s and the listing,
which stopped at 500, lost a real open game. Per-account limits on creating games,
a paged listing (``limit``, ``before``, a ``Link`` header), and a listing that says
what the lobby shows (seats taken, taken powers) so the lobby needs one request.
SQLite and PostgreSQL."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from judge_fixtures import ServerProcess, make_api


def _create(url: str, token: str, n: int) -> httpx.Response:
    with httpx.Client(base_url=url, timeout=120) as client:
        return client.post("/api/v1/games", headers={"Authorization": f"Bearer {token}"},
                           json={"variant": "standard", "name": f"spam {n}"})


def test_one_account_cannot_flood_the_lobby(db_url: str, servers: list[ServerProcess]) -> None:
    server = ServerProcess(db_url)
    servers.append(server)
    server.start()
    api = server.client()
    honest = api.signup()
    real = api.new_game(honest, name="a real open game")
    spammer = api.signup()
    # the attack as found: 520 games from one account, as fast as it can (8 at once)
    started = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda n: _create(server.url, spammer, n), range(520)))
    took = time.monotonic() - started
    codes = [r.status_code for r in answers]
    # the default limit: 10 forming games per account at once, counted under a lock,
    # so concurrent requests cannot all slip through
    assert codes.count(201) == 10, sorted(set(codes))
    assert codes.count(409) == 510
    refused = next(r for r in answers if r.status_code == 409).json()
    assert refused["error"] == "conflict" and "fill one of them" in refused["detail"]
    print(f"520 creates from one account: {codes.count(201)} made, "
          f"{codes.count(409)} refused in {took:.1f} s")
    # the real open game is still in the lobby, for anyone and for a signed-in player
    for token in (None, api.signup()):
        listed = api.json("GET", "/games", token)
        assert real["id"] in [g["id"] for g in listed]
        assert len(listed) == 11


def test_games_per_hour(db_url: str) -> None:
    with make_api(db_url, forming_games_max=0, games_per_hour=5) as api:
        token = api.signup()
        for n in range(5):
            api.new_game(token, name=f"game {n}")
        got = api.call("POST", "/games", token, {"variant": "standard", "name": "sixth"},
                       expect=429)
        assert got.json()["error"] == "too_many_requests"
        assert "last hour" in got.json()["detail"]
        assert 3500 <= int(got.headers["Retry-After"]) <= 3600
        # another account is not held back by this one
        api.new_game(api.signup(), name="someone else's")


def test_listing_pages_and_says_what_the_lobby_shows(db_url: str) -> None:
    with make_api(db_url, forming_games_max=0, games_per_hour=0) as api:
        master = api.signup()
        made = [api.new_game(master, name=f"game {n}")["id"] for n in range(7)]
        player = api.signup()
        api.call("POST", f"/games/{made[0]}/seats", player, {"power": "france"}, expect=201)
        other = api.signup()
        api.call("POST", f"/games/{made[0]}/seats", other, {"power": "Turkey"}, expect=201)
        # old clients: no parameters, every game (up to 500), newest first, no Link
        everything = api.call("GET", "/games", player, expect=200)
        assert [g["id"] for g in everything.json()] == made[::-1]
        assert "link" not in everything.headers
        first = next(g for g in everything.json() if g["id"] == made[0])
        assert first["seats_taken"] == 2 and first["seats"] == 7
        assert first["taken_powers"] == ["france", "turkey"]
        assert first["your_power"] == "france"
        # pages of 3, following the Link header
        seen: list[int] = []
        url: str | None = "/api/v1/games?limit=3"
        pages = 0
        while url is not None:
            got = api.client.get(url, headers={"Authorization": f"Bearer {player}"})
            assert got.status_code == 200
            page: list[dict[str, Any]] = got.json()
            assert len(page) <= 3
            seen += [g["id"] for g in page]
            pages += 1
            link = got.headers.get("link")
            url = link.split(">")[0].lstrip("<") if link else None
            assert link is None or link.endswith('rel="next"')
        assert seen == made[::-1] and pages == 3
        # before= directly, with status=
        got = api.json("GET", f"/games?before={made[3]}&status=forming", player)
        assert [g["id"] for g in got] == made[:3][::-1]
        for bad in ("limit=0", "limit=501", "before=0", f"before={2**31}", "limit=x"):
            answer = api.call("GET", f"/games?{bad}", player, expect=400).json()
            assert answer["error"] == "invalid"


def test_a_master_cancels_a_forming_game_to_make_room(db_url: str) -> None:
    """With forming_games_max (issue 26 item 8) an account with stale forming games must
    be able to call one off: cancelling ends it (outcome cancelled) and frees the room;
    only its master may, and only before it starts."""
    with make_api(db_url, forming_games_max=2, games_per_hour=0) as api:
        master, player = api.signup(), api.signup()
        first = api.new_game(master)
        api.new_game(master)
        api.call("POST", "/games", master, {"variant": "standard", "name": "x"}, expect=409)
        api.call("POST", f"/games/{first['id']}/seats", player, {"power": "france"},
                 expect=201)
        api.call("POST", f"/games/{first['id']}/master/cancel", player, expect=403)
        done = api.json("POST", f"/games/{first['id']}/master/cancel", master)
        assert done["status"] == "finished" and done["outcome"] == {"cancelled": True}
        api.call("POST", f"/games/{first['id']}/seats", api.signup(), {}, expect=409)
        api.call("POST", f"/games/{first['id']}/master/cancel", master, expect=409)
        api.new_game(master)  # room again
        started = api.full_game()
        api.call("POST", f"/games/{started.id}/master/cancel", started.master, expect=409)
        listed = api.json("GET", "/games")
        assert first["id"] not in [g["id"] for g in listed if g["status"] == "forming"]


def test_my_games_say_what_needs_me(db_url: str) -> None:
    """Issue 29 section 2: "My games" shows the phase as people read it, whether my
    power still has orders to give, and how many messages I have not read."""
    from judge_fixtures import make_api

    with make_api(db_url) as api:
        table = api.full_game()
        france = table.players["france"]

        def listed(token: str) -> dict[str, Any]:
            return next(g for g in api.json("GET", "/games", token) if g["id"] == table.id)

        mine = listed(france)
        assert mine["phase_title"] == "Spring 1901, Movement"
        assert mine["needs_orders"] and mine["unread"] == 0
        api.json("PUT", f"/games/{table.id}/orders", france, {"orders": ["A PAR - BUR"]})
        api.json("POST", f"/games/{table.id}/messages", table.players["england"],
                 {"to": ["france"], "body": "Hello"}, expect=201)
        api.json("POST", f"/games/{table.id}/messages", table.players["england"],
                 {"to": "all", "body": "Hello all"}, expect=201)
        mine = listed(france)
        assert not mine["needs_orders"] and mine["unread"] == 2
        assert listed(table.players["italy"])["unread"] == 1  # the public message only
        assert listed(table.players["england"])["unread"] == 0  # its own are never unread
        api.json("POST", f"/games/{table.id}/master/process", table.master)
        mine = listed(france)
        assert mine["phase_title"] == "Fall 1901, Movement" and mine["needs_orders"]
        # the history lists the powers that sent nothing (issue 29 section 3)
        phases = api.json("GET", f"/games/{table.id}/phases", france)
        assert "france" not in phases[0]["missed"] and "italy" in phases[0]["missed"]
        assert phases[0]["missed"] == sorted(phases[0]["missed"])
        # the master playing no power reads the public message only; the counts of
        # several games are each their own, and agree with the game's conversations
        assert listed(table.master)["unread"] == 1
        other = api.full_game()
        api.json("POST", f"/games/{other.id}/messages", other.players["italy"],
                 {"to": ["france"], "body": "Elsewhere"}, expect=201)
        for token, game_id in ((other.players["france"], other.id), (france, table.id)):
            talks = api.json("GET", f"/games/{game_id}/conversations", token)
            mine = next(g for g in api.json("GET", "/games", token) if g["id"] == game_id)
            assert mine["unread"] == sum(c["unread"] for c in talks) > 0
        private = next(c["conversation"] for c in api.json(
            "GET", f"/games/{table.id}/conversations", france) if c["conversation"] != "all")
        api.json("POST", f"/games/{table.id}/messages/read", france, {"conversation": private})
        assert listed(france)["unread"] == 1
        api.json("POST", f"/games/{table.id}/messages/read", france, {})
        assert listed(france)["unread"] == 0
