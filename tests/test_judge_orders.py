"""Orders through the judge: all-or-nothing checks with the engine's reasons, replacing,
secrecy, legal orders, readiness, and the race with processing. SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from judge_fixtures import Api, app_routes

FRANCE = ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"]


def test_orders_are_checked_and_replaced(api: Api) -> None:
    table = api.full_game()
    gid, token = table.id, table.players["france"]
    got = api.json("PUT", f"/games/{gid}/orders", token,
                   {"orders": ["a par-bur", "A Marseilles S A Paris -> Burgundy", "f bre - mao"]})
    assert got == {"power": "france", "phase": "S1901M", "orders": FRANCE}
    assert api.json("GET", f"/games/{gid}/orders", token)["orders"] == FRANCE
    # a batch with one bad order changes nothing
    bad = api.call("PUT", f"/games/{gid}/orders", token,
                   {"orders": ["A PAR - PIC", "A MAR - MUN"]}, expect=422).json()
    assert bad["error"] == "illegal" and "MUN" in bad["detail"]
    bad = api.call("PUT", f"/games/{gid}/orders", token,
                   {"orders": ["A PAR - PIC", "A MAR flies to the moon"]}, expect=400).json()
    assert bad["error"] == "invalid" and bad["detail"]
    api.call("PUT", f"/games/{gid}/orders", token, {"orders": ["A BER - KIE"]}, expect=422)
    assert api.json("GET", f"/games/{gid}/orders", token)["orders"] == FRANCE
    # a new batch replaces the whole set
    api.call("PUT", f"/games/{gid}/orders", token, {"orders": ["A PAR - PIC"]}, expect=200)
    assert api.json("GET", f"/games/{gid}/orders", token)["orders"] == ["A PAR - PIC"]
    api.call("PUT", f"/games/{gid}/orders", token, {"orders": []}, expect=200)
    assert api.json("GET", f"/games/{gid}/orders", token)["orders"] == []


def test_merged_orders_replace_only_their_units(api: Api) -> None:
    """``"merge": true`` adds orders to the stored ones, each replacing only its own
    unit's earlier order, whatever the notation (the page's text box): the engine,
    not the client, decides which unit a line is for. All or nothing still."""
    table = api.full_game()
    gid, token = table.id, table.players["france"]
    api.call("PUT", f"/games/{gid}/orders", token, {"orders": FRANCE}, expect=200)
    got = api.json("PUT", f"/games/{gid}/orders", token,
                   {"orders": ["Army Paris -> Picardy"], "merge": True})
    assert got["orders"] == ["A PAR - PIC", *FRANCE[1:]]
    assert api.json("GET", f"/games/{gid}/orders", token)["orders"] == got["orders"]
    api.call("PUT", f"/games/{gid}/orders", token,
             {"orders": ["F Brest - English Channel", "A MAR - MUN"], "merge": True},
             expect=422)
    assert api.json("GET", f"/games/{gid}/orders", token)["orders"] == got["orders"]
    bad = api.call("PUT", f"/games/{gid}/orders", token,
                   {"orders": ["A Paris - Gascony", "A PAR - BUR"], "merge": True},
                   expect=422).json()
    assert "second order for PAR" in bad["detail"]


def test_only_players_give_orders(api: Api) -> None:
    table = api.full_game()
    gid = table.id
    for token in (table.master, api.signup()):
        for method, path, body in [("GET", "/orders", None), ("PUT", "/orders", {"orders": []}),
                                   ("GET", "/legal", None), ("POST", "/ready", {"ready": True})]:
            got = api.call(method, f"/games/{gid}{path}", token, body, expect=403).json()
            assert got["error"] == "forbidden", path
    forming = api.new_game(table.master)
    player = api.signup()
    api.call("POST", f"/games/{forming['id']}/seats", player, {}, expect=201)
    api.call("PUT", f"/games/{forming['id']}/orders", player, {"orders": []}, expect=409)


def test_legal_orders_are_the_callers(api: Api) -> None:
    table = api.full_game()
    legal = api.json("GET", f"/games/{table.id}/legal", table.players["russia"])
    assert set(legal) == {"MOS", "WAR", "SEV", "STP/SC"}
    assert "A WAR - GAL" in legal["WAR"]
    api.call("PUT", f"/games/{table.id}/orders", table.players["russia"],
             {"orders": [legal[loc][-1] for loc in legal]}, expect=200)


def test_nobody_reads_anothers_pending_orders(api: Api) -> None:
    """France's pending orders appear in no answer to anyone else, through any
    endpoint, until the phase is processed; then they are in its history."""
    table = api.full_game()
    gid = table.id
    secret = ["A PAR - PIC", "A MAR - SPA", "F BRE - ENG"]
    others = [t for p, t in table.players.items() if p != "france"] + [table.master,
                                                                       api.signup()]
    # every GET route of the API, read from the app itself, so a route added later is
    # covered without anyone remembering to list it here (plus the map with orders drawn)
    paths = sorted({path.removeprefix("/api/v1").format(game_id=gid)
                    for method, path, names, _ in app_routes(api.client.app)
                    if method == "GET" and path.startswith("/api/v1/") and set(names) <= {
                        "game_id"}})
    assert f"/games/{gid}/legal/options" in paths and f"/games/{gid}/conversations" in paths
    # an event stream answers its first event and ends with seconds=0 (the stream's own
    # secrecy over time: test_judge_events.py)
    paths = [p + "?seconds=0" if p.endswith("/events") else p for p in paths]
    assert f"/games/{gid}/events?seconds=0" in paths
    paths += [f"/games/{gid}/map.svg?orders=1", f"/games/{gid}/map.svg?phase=S1901M&orders=1"]
    # a power's legal orders name others' moves (England may support F BRE - ENG): those
    # answers must simply not change when France submits
    legal = [path for path in paths if "/legal" in path]
    before = {(token, path): api.call("GET", path, token).text
              for token in others for path in legal}
    api.call("PUT", f"/games/{gid}/orders", table.players["france"], {"orders": secret},
             expect=200)
    for token in others:
        for path in paths:
            answer = api.call("GET", path, token)
            assert answer.status_code in (200, 403, 404, 409), (path, answer.status_code)
            if path in legal:
                assert answer.text == before[token, path], path
                continue
            for order in secret:
                assert order not in answer.text, (path, order)
        own = api.call("GET", f"/games/{gid}/orders", token)
        assert own.status_code == 403 or own.json()["power"] != "france"
    drawn = api.call("GET", f"/games/{gid}/map.svg?orders=1", table.master).text
    assert drawn == api.call("GET", f"/games/{gid}/map.svg", table.master).text
    status = api.game(table, others[0])["powers"]["france"]
    assert status["submitted"] is True  # that it submitted is public; what, is not
    api.call("POST", f"/games/{gid}/master/process", table.master, expect=200)
    assert api.phases(table)[0]["orders"]["france"] == secret


def test_ready_processes_when_everyone_is(api: Api) -> None:
    table = api.full_game()
    gid = table.id
    powers = sorted(table.players)
    for power in powers[:-1]:
        got = api.json("POST", f"/games/{gid}/ready", table.players[power], {"ready": True})
        assert got == {"power": power, "ready": True, "processed": False, "phase": "S1901M"}
    game = api.game(table)
    assert [p for p, info in game["powers"].items() if info["ready"]] == powers[:-1]
    # changing one's mind
    api.json("POST", f"/games/{gid}/ready", table.players[powers[0]], {"ready": False})
    api.json("POST", f"/games/{gid}/ready", table.players[powers[-1]], {"ready": True})
    assert api.game(table)["phase"] == "S1901M"
    last = api.json("POST", f"/games/{gid}/ready", table.players[powers[0]], {"ready": True})
    assert last["processed"] is True and last["phase"] == "F1901M"
    after = api.game(table)
    assert not any(info["ready"] or info["submitted"] for info in after["powers"].values())
    api.call("POST", f"/games/{gid}/ready", table.players["italy"], {"ready": "yes"},
             expect=400)


def test_a_submission_racing_processing_gets_409(api: Api,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The phase is processed between the check of an order and its storing: the
    answer is 409 and the order is not stored anywhere (never a 200 then lost)."""
    from standoff.judge.processing import process_phase
    from standoff.judge.rules import Rules

    table = api.full_game()
    judge = api.client.app.state.judge
    original = Rules.check_orders

    def check_then_process(rules: Rules, state: dict[str, Any], power: str,
                           texts: list[str]) -> list[str]:
        checked = original(rules, state, power, texts)
        assert process_phase(judge, table.id)
        return checked

    monkeypatch.setattr(Rules, "check_orders", check_then_process)
    got = api.call("PUT", f"/games/{table.id}/orders", table.players["france"],
                   {"orders": ["A PAR - BUR"]}, expect=409).json()
    assert got["error"] == "conflict" and "phase already processed" in got["detail"]
    monkeypatch.setattr(Rules, "check_orders", original)
    assert api.phases(table)[0]["orders"] == {}
    assert api.json("GET", f"/games/{table.id}/orders", table.players["france"]) == {
        "power": "france", "phase": "F1901M", "orders": []}


def test_retreats_and_builds(api: Api) -> None:
    """A retreat phase and an adjustment phase through the API."""
    table = api.full_game()
    gid, p = table.id, table.players

    def orders(power: str, texts: list[str]) -> None:
        api.call("PUT", f"/games/{gid}/orders", p[power], {"orders": texts}, expect=200)

    orders("germany", ["A MUN - TYR"])
    orders("italy", ["A VEN H"])
    orders("austria", ["A VIE - TRI", "F TRI - ALB"])
    api.json("POST", f"/games/{gid}/master/process", table.master)
    orders("germany", ["A TYR - VEN"])
    orders("austria", ["A TRI S A TYR - VEN"])
    orders("italy", ["A ROM H"])
    orders("france", ["A PAR - BUR"])
    game = api.json("POST", f"/games/{gid}/master/process", table.master)
    assert game["phase"] == "F1901R"
    assert [p for p, info in game["powers"].items() if info["to_order"]] == ["italy"]
    legal = api.json("GET", f"/games/{gid}/legal", p["italy"])
    assert list(legal) == ["VEN"] and "A VEN R TYR" not in legal["VEN"]
    orders("italy", [legal["VEN"][0]])
    done = api.json("POST", f"/games/{gid}/ready", p["italy"], {"ready": True})
    assert done["processed"] and done["phase"] == "W1901A"
    game = api.game(table)
    builders = sorted(p for p, info in game["powers"].items() if info["to_order"])
    assert "germany" in builders
    orders("germany", ["BUILD A MUN"])
    api.call("PUT", f"/games/{gid}/orders", p["germany"], {"orders": ["BUILD A PAR"]},
             expect=422)
    for power in builders:
        api.json("POST", f"/games/{gid}/ready", p[power], {"ready": True})
    game = api.game(table)
    assert game["phase"] == "S1902M" and "A MUN" in game["position"]["units"]["germany"]
    assert [ph["phase"] for ph in api.phases(table)] == ["S1901M", "F1901M", "F1901R", "W1901A"]
