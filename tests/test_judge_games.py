"""The judge's games: variants, creation with options, seats, visibility, the master's
actions, deadlines and NMRs. On SQLite and PostgreSQL."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from judge_fixtures import Api

SPEC_GAME_KEYS = {"id", "name", "variant", "status", "phase", "deadline", "position", "powers",
                  "outcome"}


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_variants_and_options(api: Api) -> None:
    variants = api.json("GET", "/variants")
    names = [v["name"] for v in variants]
    assert names[0] == "standard"
    assert set(names) == {"standard", "sahara", "twin-earths", "city-country",
                          "twentieth-century", "1939-iv"}
    for v in variants:
        assert set(v) == {"name", "title", "powers", "description", "notes"} and v["powers"]
        # issue 29: each variant's special rules in a few lines, citing its rules
        assert 1 <= len(v["notes"]) <= 12
    sahara = next(v for v in variants if v["name"] == "sahara")
    assert any("NO CONVERT" in n and "rule 2" in n for n in sahara["notes"])
    game = api.new_game(api.signup(), variant="twin-earths")
    assert any("Winter 1900" in n for n in game["variant_notes"])
    options = {o["name"]: o for o in api.json("GET", "/options")}
    assert options["paradox"]["default"] == "szykman"
    assert "1982" in options["paradox"]["values"]


def test_create_game(api: Api) -> None:
    token = api.signup()
    game = api.new_game(token, name="Spring", variant="Sahara", options={"paradox": "1982"},
                        deadlines={"movement": 600}, press="public", anonymous=True)
    assert set(game) >= SPEC_GAME_KEYS
    assert game["variant"] == "sahara" and game["status"] == "forming"
    assert game["phase"] == "S1901M" and game["deadline"] is None
    assert game["options"] == {"paradox": "1982"} and game["press"] == "public"
    assert game["deadlines"]["movement"] == 600 and game["deadlines"]["retreat"] > 0
    assert game["master"] is not None  # the master sees themselves
    assert all(p == {"player": None, "submitted": False, "ready": False, "nmr": 0,
                     "to_order": False, "adjustment": 0, "bot": None, "away": False,
                     "open": False}
               for p in game["powers"].values())
    assert game["position"]["units"]["france"] == ["A MAR", "A PAR", "F BRE"]


def test_bad_games_are_refused(api: Api) -> None:
    token = api.signup()
    for body, status in [
        ({"variant": "chess", "name": "x"}, 400),
        ({"variant": "standard", "name": "x", "options": {"paradox": "never"}}, 400),
        ({"variant": "standard", "name": "x", "options": {"house_rule": "yes"}}, 400),
        ({"variant": "standard", "name": "x", "options": {"paradox": 1982}}, 400),
        ({"variant": "standard", "name": "x", "deadlines": {"movement": 0}}, 400),
        ({"variant": "standard", "name": "x", "deadlines": {"build": 60}}, 400),
        ({"variant": "standard", "name": "x", "press": "gunboat"}, 400),
        ({"variant": "standard", "name": "   "}, 400),
        ({"variant": "standard", "name": "x", "private": "yes"}, 400),
        ({"variant": "standard"}, 400),
    ]:
        got = api.call("POST", "/games", token, body, expect=status).json()
        assert got["error"] == "invalid" and got["detail"], body


def test_seats_and_start(api: Api) -> None:
    master = api.signup()
    game = api.new_game(master, deadlines={"movement": 3600})
    gid = game["id"]
    alice, bob = api.signup(), api.signup()
    assert api.json("POST", f"/games/{gid}/seats", alice, {"power": "France"},
                    expect=201) == {"power": "france"}
    got = api.call("POST", f"/games/{gid}/seats", bob, {"power": "france"}, expect=409).json()
    assert got["error"] == "conflict" and "taken" in got["detail"]
    api.call("POST", f"/games/{gid}/seats", alice, {}, expect=409)  # already seated
    api.call("POST", f"/games/{gid}/seats", bob, {"power": "atlantis"}, expect=400)
    api.call("POST", f"/games/{gid}/seats", bob, {"power": "england", "x": 1}, expect=400)
    api.call("POST", "/games/9999/seats", bob, {}, expect=404)
    seated = {"france"}
    for _ in range(6):
        power = api.json("POST", f"/games/{gid}/seats", api.signup(), {}, expect=201)["power"]
        assert power not in seated
        seated.add(power)
    assert len(seated) == 7
    api.call("POST", f"/games/{gid}/seats", bob, {}, expect=409)  # started (and full)
    started = api.json("GET", f"/games/{gid}", master)
    assert started["status"] == "active" and started["phase"] == "S1901M"
    left = (_when(started["deadline"]) - datetime.now(UTC)).total_seconds()
    assert 3500 < left <= 3600
    assert all(p["to_order"] and p["player"] for p in started["powers"].values())
    assert started["powers"]["france"]["player"] is not None


def test_game_listing(api: Api) -> None:
    alice, bob = api.signup(), api.signup()
    public = api.new_game(alice, name="public")
    private = api.new_game(alice, name="private", private=True)
    mine = {g["id"]: g for g in api.json("GET", "/games", alice)}
    assert set(mine) == {public["id"], private["id"]} and mine[public["id"]]["master"]
    assert [g["id"] for g in api.json("GET", "/games", bob)] == [public["id"]]
    assert [g["id"] for g in api.json("GET", "/games")] == [public["id"]]
    api.json("POST", f"/games/{public['id']}/seats", bob, {"power": "italy"}, expect=201)
    listed = api.json("GET", "/games", bob)[0]
    assert listed["your_power"] == "italy" and listed["seats_taken"] == 1
    assert listed["seats"] == 7
    assert [g["id"] for g in api.json("GET", "/games?status=active", bob)] == []


def test_private_games_need_the_invite(api: Api) -> None:
    master, outsider, guest = api.signup(), api.signup(), api.signup()
    game = api.new_game(master, private=True)
    invite = game["invite"]
    assert invite
    api.call("GET", f"/games/{game['id']}", outsider, expect=403)
    api.call("POST", f"/games/{game['id']}/seats", outsider, {}, expect=403)
    api.call("POST", f"/games/{game['id']}/seats", outsider, {"invite": "guess"}, expect=403)
    api.json("POST", f"/games/{game['id']}/seats", guest, {"invite": invite}, expect=201)
    seen = api.json("GET", f"/games/{game['id']}", guest)
    assert seen["invite"] is None  # only the master sees the code
    api.call("GET", f"/games/{game['id']}/phases", outsider, expect=403)
    api.call("GET", f"/games/{game['id']}/map.svg", outsider, expect=403)
    # the code's holder sees the forming game (to choose a power) and its map
    api.call("GET", f"/games/{game['id']}?invite=guess", outsider, expect=403)
    api.call("GET", f"/games/{game['id']}?invite={invite}", outsider, expect=200)
    api.call("GET", f"/games/{game['id']}/map.svg?invite={invite}", outsider, expect=200)
    api.call("GET", f"/games/{game['id']}/phases?invite={invite}", outsider, expect=403)


def test_anonymous_games_hide_players(api: Api) -> None:
    table = api.full_game(anonymous=True)
    france = api.game(table, table.players["france"])
    assert france["powers"]["france"]["player"] is not None  # one's own
    assert all(p["player"] is None for n, p in france["powers"].items() if n != "france")
    assert france["master"] is None
    assert all(p["player"] for p in api.game(table)["powers"].values())  # the master sees all


def test_master_actions_are_the_masters(api: Api) -> None:
    table = api.full_game()
    gid = table.id
    for token in (table.players["france"], api.signup()):
        for action in ("pause", "resume", "process"):
            got = api.call("POST", f"/games/{gid}/master/{action}", token, expect=403).json()
            assert got["error"] == "forbidden"
        api.call("POST", f"/games/{gid}/master/extend", token, {"seconds": 60}, expect=403)
    api.call("POST", f"/games/{gid}/master/abdicate", table.master, expect=404)
    assert api.game(table)["phase"] == "S1901M"


def test_pause_resume_extend(api: Api) -> None:
    table = api.full_game(deadlines={"movement": 1000})
    gid = table.id
    before = _when(api.game(table)["deadline"])
    paused = api.json("POST", f"/games/{gid}/master/pause", table.master)
    assert paused["paused"] and paused["deadline"] is None and 990 < paused["remaining"] <= 1000
    api.call("POST", f"/games/{gid}/master/pause", table.master, expect=409)
    time.sleep(0.5)  # time paused does not count
    resumed = api.json("POST", f"/games/{gid}/master/resume", table.master)
    assert not resumed["paused"] and resumed["remaining"] is None
    assert (_when(resumed["deadline"]) - before).total_seconds() >= 0.4
    api.call("POST", f"/games/{gid}/master/resume", table.master, expect=409)
    extended = api.json("POST", f"/games/{gid}/master/extend", table.master, {"seconds": 500})
    assert (_when(extended["deadline"]) - _when(resumed["deadline"])).total_seconds() == 500
    api.call("POST", f"/games/{gid}/master/extend", table.master, {"seconds": -5}, expect=400)
    api.call("POST", f"/games/{gid}/master/extend", table.master, {}, expect=400)


def test_master_actions_need_an_active_game(api: Api) -> None:
    master = api.signup()
    game = api.new_game(master)
    for action in ("pause", "resume", "process"):
        api.call("POST", f"/games/{game['id']}/master/{action}", master, expect=409)


def test_master_process_counts_nmrs(api: Api) -> None:
    table = api.full_game()
    api.call("PUT", f"/games/{table.id}/orders", table.players["france"],
             {"orders": ["A PAR - BUR"]}, expect=200)
    after = api.json("POST", f"/games/{table.id}/master/process", table.master)
    assert after["phase"] == "F1901M" and after["turn"] == 1
    nmr = {p: info["nmr"] for p, info in after["powers"].items()}
    assert nmr == {p: (0 if p == "france" else 1) for p in nmr}
    assert after["position"]["units"]["france"] == ["A BUR", "A MAR", "F BRE"]
    phases = api.phases(table)
    assert [p["phase"] for p in phases] == ["S1901M"]
    assert phases[0]["orders"] == {"france": ["A PAR - BUR"]}
    report = phases[0]["report"]
    assert report is not None and report["phase"] == "S1901M"
    assert sorted(report["nmr"]) == sorted(p for p in nmr if p != "france")


def test_deadline_processes_the_phase(api: Api) -> None:
    """The scheduler processes a phase when its deadline passes: the units of powers
    that sent nothing hold (civil disorder) and their NMRs are counted."""
    table = api.full_game(deadlines={"movement": 1})
    api.call("PUT", f"/games/{table.id}/orders", table.players["germany"],
             {"orders": ["A MUN - RUH"]}, expect=200)
    game = api.wait_phase(table, "S1901M", timeout=15)
    assert game["phase"] == "F1901M"
    assert "A RUH" in game["position"]["units"]["germany"]
    assert game["powers"]["germany"]["nmr"] == 0 and game["powers"]["italy"]["nmr"] == 1
    assert game["position"]["units"]["italy"] == ["A ROM", "A VEN", "F NAP"]


def test_paused_games_miss_no_deadline(api: Api) -> None:
    table = api.full_game(deadlines={"movement": 1})
    api.call("POST", f"/games/{table.id}/master/pause", table.master, expect=200)
    time.sleep(1.5)
    assert api.game(table)["phase"] == "S1901M"


def test_events_are_told_after_commit(api: Api) -> None:
    """The seam for e-mail: listeners hear of a start, each processed phase, the end."""
    heard: list[tuple[str, int, dict[str, object]]] = []
    judge = api.client.app.state.judge
    judge.listeners.append(lambda event, gid, data: heard.append((event, gid, data)))
    judge.listeners.append(lambda event, gid, data: 1 / 0)  # a failing one changes nothing
    table = api.full_game()
    api.json("POST", f"/games/{table.id}/master/process", table.master)
    assert heard == [("game_started", table.id, {}),
                     ("phase_processed", table.id, {"turn": 0, "phase": "S1901M"})]
