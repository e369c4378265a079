"""``GET /games/{id}/legal/options``: the legal orders by their parts, for the game
page to build its menus without reading order text. The same orders as
``GET .../legal`` and in the same order; every ``order`` sent back with merge is
stored as it is. A Channel fleet convoying, an army that may go to an adjacent
province by land or by convoy (DATC 4.A.3), supports, coasts, builds in winter,
a Twentieth Century canal's permits, Twin Earths' two levels. SQLite and
PostgreSQL."""

from __future__ import annotations

from typing import Any

from judge_fixtures import Api, Table, settings_for

FIELDS = {"order", "kind", "location", "unit", "unit_type", "target", "via", "supported",
          "convoyed", "subject", "power"}


def place(db_url: str, game_id: int, phase: str, units: dict[str, list[str]]) -> None:
    """Put the game's board at ``phase`` with ``units`` (centres as they are): a
    quick way to a position the test needs."""
    from standoff.judge.db import Database
    from standoff.judge.models import GameRow

    db = Database(settings_for(db_url))
    try:
        with db.write() as s:
            game = s.get(GameRow, game_id)
            assert game is not None
            position = {**game.state["position"], "phase": phase, "units": units}
            game.state = {**game.state, "position": position}
            game.phase = phase
    finally:
        db.dispose()


def options(api: Api, table: Table, power: str) -> dict[str, list[dict[str, Any]]]:
    """The power's legal options, checked against ``/legal``: same keys, same texts in
    the same order, every field present."""
    token = table.players[power]
    got: dict[str, list[dict[str, Any]]] = api.json(
        "GET", f"/games/{table.id}/legal/options", token)
    legal = api.json("GET", f"/games/{table.id}/legal", token)
    assert {loc: [o["order"] for o in opts] for loc, opts in got.items()} == legal
    assert all(set(o) == FIELDS for opts in got.values() for o in opts)
    return got


def one(opts: list[dict[str, Any]], order: str) -> dict[str, Any]:
    found = [o for o in opts if o["order"] == order]
    assert len(found) == 1, (order, [o["order"] for o in opts])
    return found[0]


def nulls(**given: Any) -> dict[str, Any]:
    return {**dict.fromkeys(FIELDS), **given}


def test_moves_by_land_or_convoy_supports_and_convoys(api: Api, db_url: str) -> None:
    table = api.full_game()
    place(db_url, table.id, "S1901M", {"england": ["A WAL", "F ENG", "A LVP"],
                                        "russia": ["F STP/SC"]})
    eng = options(api, table, "england")
    assert set(eng) == {"WAL", "ENG", "LVP"}
    # adjacent, and a convoy could carry it: both, and the player picks
    assert one(eng["WAL"], "A WAL - LON") == nulls(
        order="A WAL - LON", kind="move", location="WAL", unit="A WAL", unit_type="A",
        target="LON", via="land")
    assert one(eng["WAL"], "A WAL - LON VIA CONVOY")["via"] == "convoy"
    # only a convoy reaches Belgium: plain text, by convoy
    assert one(eng["WAL"], "A WAL - BEL") == nulls(
        order="A WAL - BEL", kind="move", location="WAL", unit="A WAL", unit_type="A",
        target="BEL", via="convoy")
    # no fleet borders Yorkshire: by land only
    assert [o["order"] for o in eng["WAL"]
            if o["kind"] == "move" and o["target"] == "YOR"] == ["A WAL - YOR"]
    assert one(eng["ENG"], "F ENG C A WAL - BEL") == nulls(
        order="F ENG C A WAL - BEL", kind="convoy", location="ENG", unit="F ENG",
        unit_type="F", target="BEL", convoyed="A WAL - BEL", subject="WAL")
    assert one(eng["ENG"], "F ENG - BRE")["via"] is None  # a fleet's move has no "via"
    assert one(eng["LVP"], "A LVP S A WAL - YOR") == nulls(
        order="A LVP S A WAL - YOR", kind="support_move", location="LVP", unit="A LVP",
        unit_type="A", target="YOR", supported="A WAL - YOR", subject="WAL")
    assert one(eng["LVP"], "A LVP S A WAL") == nulls(
        order="A LVP S A WAL", kind="support_hold", location="LVP", unit="A LVP",
        unit_type="A", target="WAL", supported="A WAL", subject="WAL")
    assert one(eng["WAL"], "A WAL H") == nulls(order="A WAL H", kind="hold", location="WAL",
                                               unit="A WAL", unit_type="A")
    # a coast is part of the location
    rus = options(api, table, "russia")
    assert list(rus) == ["STP/SC"]
    assert one(rus["STP/SC"], "F STP/SC - BOT") == nulls(
        order="F STP/SC - BOT", kind="move", location="STP/SC", unit="F STP/SC",
        unit_type="F", target="BOT")
    # what the page sends back is stored as it is, each replacing its unit's order
    url, token = f"/games/{table.id}/orders", table.players["england"]
    for chosen in ("A WAL - LON", "A WAL - LON VIA CONVOY", "F ENG C A WAL - BEL"):
        api.json("PUT", url, token, {"orders": [chosen], "merge": True})
    assert api.json("GET", url, token)["orders"] == ["A WAL - LON VIA CONVOY",
                                                      "F ENG C A WAL - BEL"]


def test_builds_in_winter(api: Api, db_url: str) -> None:
    table = api.full_game()
    # France keeps only Marseilles' army: two builds; Russia none of its four
    place(db_url, table.id, "W1901A", {"france": ["A MAR"], "england": ["A LVP", "F EDI",
                                                                         "F LON"]})
    fra = options(api, table, "france")
    assert set(fra) == {"PAR", "BRE"}
    assert [(o["kind"], o["unit"], o["location"]) for o in fra["BRE"]] == [
        ("build", "A BRE", "BRE"), ("build", "F BRE", "BRE"), ("waive", None, None)]
    assert one(fra["PAR"], "WAIVE") == nulls(order="WAIVE", kind="waive")
    rus = options(api, table, "russia")
    assert [o["unit"] for o in rus["STP"] if o["unit_type"] == "F"] == ["F STP/NC", "F STP/SC"]
    assert one(rus["STP"], "BUILD F STP/NC") == nulls(
        order="BUILD F STP/NC", kind="build", location="STP/NC", unit="F STP/NC",
        unit_type="F")
    assert options(api, table, "england") == {}  # nothing to build or remove
    # the game view says how many, as the rules count them (what the page's prompt shows)
    seats = api.game(table, table.players["france"])["powers"]
    assert {p: s["adjustment"] for p, s in seats.items() if s["adjustment"]} == {
        "france": 2, "austria": 3, "germany": 3, "italy": 3, "russia": 4, "turkey": 3}


def test_removals(api: Api, db_url: str) -> None:
    table = api.full_game()
    place(db_url, table.id, "W1901A", {"italy": ["A ROM", "A VEN", "F NAP", "A APU"]})
    ita = options(api, table, "italy")
    assert one(ita["APU"], "REMOVE A APU") == nulls(
        order="REMOVE A APU", kind="remove", location="APU", unit="A APU", unit_type="A")


def test_a_canal_owner_permits_passage(api: Api) -> None:
    """The Twentieth Century: each canal's owner may let another power's fleets pass;
    the permits are listed under the canal, ``power`` naming the fleets' power."""
    table = api.full_game("twentieth-century")
    usa = options(api, table, "usa")
    permits = [o for o in usa["PAN"] if o["kind"] == "permit"]
    assert "britain" in [o["power"] for o in permits] and "usa" not in [
        o["power"] for o in permits]
    assert one(permits, "PAN PERMIT BRITAIN") == nulls(
        order="PAN PERMIT BRITAIN", kind="permit", location="PAN", power="britain")
    url, token = f"/games/{table.id}/orders", table.players["usa"]
    api.json("PUT", url, token, {"orders": ["PAN PERMIT BRITAIN"], "merge": True})
    assert "PAN PERMIT BRITAIN" in api.json("GET", url, token)["orders"]


def test_twin_earths_levels(api: Api, db_url: str) -> None:
    """Locations carry the level (``BUD1``, ``BUD2``); a move between the levels goes
    to the corresponding space, over land."""
    table = api.full_game("twin-earths")
    aus = options(api, table, "austria")
    assert {"BUD1", "BUD2"} <= set(aus)
    assert one(aus["BUD2"], "BUILD A BUD2")["location"] == "BUD2"
    place(db_url, table.id, "S1901M", {"austria": ["A BUD1", "F TRI2"]})
    aus = options(api, table, "austria")
    assert one(aus["BUD1"], "A BUD1 - BUD2") == nulls(
        order="A BUD1 - BUD2", kind="move", location="BUD1", unit="A BUD1", unit_type="A",
        target="BUD2", via="land")
    assert one(aus["TRI2"], "F TRI2 S A BUD1 - TRI1") == nulls(
        order="F TRI2 S A BUD1 - TRI1", kind="support_move", location="TRI2",
        unit="F TRI2", unit_type="F", target="TRI1", supported="A BUD1 - TRI1",
        subject="BUD1")


def test_only_players_and_running_games(api: Api) -> None:
    table = api.full_game()
    url = f"/games/{table.id}/legal/options"
    assert api.call("GET", url, api.signup(), expect=403).json()["error"] == "forbidden"
    api.call("GET", url, expect=401)
    api.call("GET", "/games/999999/legal/options", table.players["france"], expect=404)
